"""Line and sentence segmentation with character offsets."""

from __future__ import annotations

from dataclasses import dataclass

import regex


@dataclass(frozen=True, slots=True)
class Segment:
    """A line or sentence at ``[start, end)`` (trailing newline excluded)."""

    start: int
    end: int


def lines(text: str) -> list[Segment]:
    """Every line, empty ones included, without its line break."""
    out: list[Segment] = []
    pos = 0
    for match in regex.finditer(r"\r\n|\n|\r", text):
        out.append(Segment(pos, match.start()))
        pos = match.end()
    out.append(Segment(pos, len(text)))
    return out


# A sentence ends at . ! ? or ; followed by space and an upper-case letter or digit, or at a blank
# line. Abbreviations common in notes (Dr. Mr. pt. etc.) do not end one.
_ABBREVIATIONS = frozenset(
    "dr mr mrs ms st pt vs no approx apprx fig e.g i.e etc jr sr prof hosp dept inc co corp mt ft ave".split()
)
_BOUNDARY = regex.compile(r"(?<=[.!?])\s+(?=[\p{Lu}\d\"'(])|\n\s*\n")


def sentences(text: str) -> list[Segment]:
    """Sentence-like segments; a heuristic splitter robust to all-caps and lower-case notes."""
    out: list[Segment] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        before = text[start : match.start()]
        last_word = regex.search(r"([\p{L}.]+)\.$", before)
        if last_word and last_word.group(1).lower().rstrip(".") in _ABBREVIATIONS:
            continue
        _append_trimmed(out, text, start, match.start())
        start = match.end()
    _append_trimmed(out, text, start, len(text))
    return out


def _append_trimmed(out: list[Segment], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        out.append(Segment(start, end))


def at_line_start(text: str, position: int) -> bool:
    """Whether only white space stands between the start of ``position``'s line (after its "\\n") and ``position``:
    read backwards in short pieces, so the cost is the white space before it, not the length of the line (a note
    may be one line of a megabyte)."""
    end = position
    while end > 0:
        start = max(0, end - 64)
        piece = text[start:end]
        newline = piece.rfind("\n")
        if newline >= 0:
            return not piece[newline + 1 :].strip()
        if piece.strip():
            return False
        end = start
    return True
