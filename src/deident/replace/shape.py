"""Shape keeping: letter case and the digit/letter layout of a replaced string."""

from __future__ import annotations

import string

import regex

_HEX = frozenset("0123456789abcdefABCDEF")
_LETTERS = regex.compile(r"[A-Za-z]+")


def apply_case(original: str, replacement: str) -> str:
    """Give ``replacement`` the capitalisation of ``original`` (UPPER, lower or Title)."""
    letters = [c for c in original if c.isalpha()]
    if not letters:
        return replacement
    if all(c.isupper() for c in letters) and len(letters) > 1:
        return replacement.upper()
    if all(c.islower() for c in letters):
        return replacement.lower()
    if letters[0].isupper() and len(letters) == 1:
        return replacement[:1].upper() + replacement[1:]
    if original[:1].isupper() or letters[0].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def reshape(original: str, seed: int, keep_words: frozenset[str] = frozenset(), hex_digits: bool = False) -> str:
    """Same layout with new characters: digits stay digits, letters stay letters of the same case,
    everything else is kept. The result always differs from ``original`` when it has a digit or letter.

    Words (runs of ASCII letters) in ``keep_words`` (lower case) stay as written ("ext" of a phone
    number). With ``hex_digits``, hexadecimal digits stay hexadecimal ("fe80" -> "3b1c")."""
    kept = {i for m in _LETTERS.finditer(original) if m.group(0).lower() in keep_words for i in range(*m.span())}
    out: list[str] = []
    state = seed
    for i, ch in enumerate(original):
        if i in kept or not (ch.isdigit() or (ch.isascii() and ch.isalpha())):
            out.append(ch)
            continue
        # The state advances only on digits and letters, so one value gets the same new characters
        # whatever its separators ("617-555-0199" and "(617) 555 0199").
        state = (state * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
        pick = state >> 33
        if hex_digits and ch in _HEX:
            digit = "0123456789abcdef"[pick % 16]
            out.append(digit.upper() if ch.isupper() else digit)
        elif ch.isdigit():
            out.append(str(pick % 10))
        elif ch.isascii() and ch.isalpha():
            letter = string.ascii_lowercase[pick % 26]
            out.append(letter.upper() if ch.isupper() else letter)
        else:
            out.append(ch)
    result = "".join(out)
    if result == original and hex_digits and any(i not in kept and c in _HEX for i, c in enumerate(original)):
        return reshape(original, seed + 1, keep_words, hex_digits)  # a 1-in-16**n draw: draw again
    if result == original:
        result = _bump_first(result, kept)
    return result


def _bump_first(text: str, kept: set[int]) -> str:
    for i, ch in enumerate(text):
        if i in kept:
            continue
        if ch.isdigit():
            return text[:i] + str((int(ch) + 1) % 10) + text[i + 1 :]
        if ch.isascii() and ch.isalpha():
            base = "A" if ch.isupper() else "a"
            return text[:i] + chr((ord(ch) - ord(base) + 1) % 26 + ord(base)) + text[i + 1 :]
    return text
