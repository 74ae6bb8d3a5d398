"""Which texts the ASCII fast paths may take: ASCII, or ASCII with non-ASCII symbols only.

Several stages have a fast path for ASCII text (``re`` with ``re.ASCII``, ``bytes.translate``) and a
slower Unicode path. A single curly quote, dash or degree sign in a note used to send the whole note down
the slow path, halving the pipeline's speed. A non-ASCII *plain symbol* (punctuation or a symbol:
neither a letter, digit or mark nor white space, by ``str``'s tests and by the ``regex`` module's
Unicode classes, and its own lower and upper case) is a one-character token and a non-word character
on both paths, so a text whose only non-ASCII characters are plain symbols may take the ASCII path.
Each fast path that uses this is tested against its Unicode path.
"""

from __future__ import annotations

import re
from collections import Counter

import regex

_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_ASCII_UPPER = bytes(range(ord("A"), ord("Z") + 1))
_ASCII_LOWER = bytes(range(ord("a"), ord("z") + 1))
_NOT_WORD_OR_SPACE = regex.compile(r"[^\w\s]")
_SPACE = regex.compile(r"\s")
# plain_symbol's answers, memoised (a pure function of one character; few distinct ones occur).
_plain: dict[str, bool] = {}


def plain_symbol(char: str) -> bool:
    """A non-ASCII character that every tokenizer here treats as a symbol of its own (see the module's text)."""
    known = _plain.get(char)
    if known is None:
        known = _plain[char] = (
            not char.isascii()
            and not char.isalnum()
            and not char.isspace()
            and char.lower() == char == char.upper()
            and _NOT_WORD_OR_SPACE.fullmatch(char) is not None
        )
    return known


def ascii_like(text: str) -> bool:
    """``text`` is ASCII, or its non-ASCII characters are all plain symbols (:func:`plain_symbol`)."""
    return text.isascii() or all(map(plain_symbol, set(_NON_ASCII.findall(text))))


# case_distinct's answers, memoised.
_distinct: dict[str, bool] = {}


def case_distinct(char: str) -> bool:
    """A non-ASCII character that no case-insensitive match takes for an ASCII letter and that is no white space:
    its lower, upper and folded forms hold no ASCII character (unlike the Kelvin sign, the long s, "ß" or the
    "fi" ligature), it lower-cases to one character, and neither ``str`` nor the ``regex`` module calls it space.
    Plain symbols are case-distinct; so are most accented and non-Latin letters."""
    known = _distinct.get(char)
    if known is None:
        forms = char.lower() + char.upper() + char.casefold()
        known = _distinct[char] = (
            not char.isascii()
            and not char.isspace()
            and len(char.lower()) == 1
            and not any(c.isascii() for c in forms)
            and _SPACE.fullmatch(char) is None
        )
    return known


def ascii_case_distinct(text: str) -> bool:
    """``text`` is ASCII, or its non-ASCII characters are all :func:`case_distinct`: a case-insensitive search for
    ASCII words, anchored on ASCII white space, finds in it what a Unicode search finds."""
    return text.isascii() or all(map(case_distinct, set(_NON_ASCII.findall(text))))


def ascii_bytes(text: str) -> bytes:
    """An :func:`ascii_like` text as ASCII bytes of the same length: each non-ASCII symbol becomes "?" (also a
    plain symbol), so offsets, letters and digits are kept."""
    return text.encode("ascii", "replace")


def ascii_case_counts(text: str) -> tuple[int, int]:
    """(ASCII capitals, ASCII small letters) in ``text``, counted in C (other characters are dropped first)."""
    raw = text.encode("ascii", "ignore")
    return len(raw) - len(raw.translate(None, _ASCII_UPPER)), len(raw) - len(raw.translate(None, _ASCII_LOWER))


def letter_counts(text: str) -> tuple[int, int, Counter[str]]:
    """(ASCII capitals, ASCII small letters, how often each non-ASCII character occurs) in ``text``: the ASCII
    letters are counted in C, and the caller classes the few distinct non-ASCII characters of a note as it needs
    (see :class:`deident.text.case.CaseProfile`)."""
    upper, lower = ascii_case_counts(text)
    return upper, lower, Counter() if text.isascii() else Counter(_NON_ASCII.findall(text))


__all__ = [
    "ascii_bytes",
    "ascii_case_counts",
    "ascii_case_distinct",
    "ascii_like",
    "case_distinct",
    "letter_counts",
    "plain_symbol",
]
