"""Text normalisations: the lexicon's length-preserving form of a note (:func:`normalise`) and the comparison key of
a candidate string (:func:`normalise_key`).

:func:`normalise` lower-cases and turns every character that is not a letter or digit into a space, keeping
offsets: the lexicon matcher, the veto and the per-note view (:class:`deident.text.note_view.NoteView`) share it.
"""

from __future__ import annotations

import re

import regex

from deident.text.charset import ascii_bytes, ascii_like

# ASCII characters other than letters and digits become spaces; non-ASCII ones are handled apart.
_ASCII_TO_SPACE = {i: " " for i in range(128) if not chr(i).isalnum()}
_NON_ASCII = regex.compile(r"[^\x00-\x7f]")
_NON_ASCII_RUNS = re.compile(r"([^\x00-\x7f]+)")  # split() keeps them, at the odd positions


def _non_ascii_char(match: regex.Match[str]) -> str:
    char = match.group()
    return char if char.isalnum() else " "


# The same mapping as a bytes table: ASCII text (most notes) is normalised by bytes.translate in C.
_ASCII_TABLE = bytes((ord(chr(i).lower()) if chr(i).isalnum() else ord(" ")) if i < 128 else i for i in range(256))


def normalise(text: str) -> str:
    """Lower-case with letters and digits kept and everything else a space; same length as ``text``."""
    if ascii_like(text):  # a non-ASCII symbol becomes "?", then a space, as below
        return ascii_bytes(text).translate(_ASCII_TABLE).decode("ascii")
    lowered = text.lower()
    if len(lowered) != len(text):
        return _normalise_unicode(text)
    # The ASCII runs through the bytes table in C, the few non-ASCII runs character by character: the same mapping
    # (the text is lower-cased whole first, as below, so that a final sigma stays final).
    pieces = _NON_ASCII_RUNS.split(lowered)
    for i in range(0, len(pieces), 2):
        pieces[i] = pieces[i].encode("ascii").translate(_ASCII_TABLE).decode("ascii")
    for i in range(1, len(pieces), 2):
        pieces[i] = "".join(c if c.isalnum() else " " for c in pieces[i])
    return "".join(pieces)


def _normalise_unicode(text: str) -> str:
    """:func:`normalise` character by character (any text)."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters lower-case to two (e.g. "İ"); keep those as they are
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    lowered = lowered.translate(_ASCII_TO_SPACE)
    if not lowered.isascii():
        lowered = _NON_ASCII.sub(_non_ascii_char, lowered)
    return lowered


def normalise_key(text: str) -> str:
    """The comparison key of a candidate string: case-folded, spaces collapsed, possessive dropped."""
    key = " ".join(text.split()).casefold()
    for suffix in ("'s", "’s", "'", "’"):
        if key.endswith(suffix):
            key = key[: -len(suffix)]
            break
    return key


__all__ = ["normalise", "normalise_key"]
