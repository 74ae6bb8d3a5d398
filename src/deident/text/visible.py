"""The visible view of a note: the text a reader sees, which detection runs on, with a map back to the original.

Invisible characters inside a value hide it from every pattern: ``617-555-01<ZWSP>99`` is no phone number to a regular
expression, and ``MRN 5550<SHY>1234`` matches only up to the soft hyphen. Copy-pasted, exported and OCR'd notes carry
such characters, and so does anyone who wants PHI to slip through. The view:

- skips format characters (Unicode category Cf: zero-width space and (non-)joiners, soft hyphen, byte order mark,
  word joiner, bidirectional marks and isolates) and control characters (category Cc) other than white space
  (tab, line feed, carriage return and the other line and page breaks stay: they separate as a newline does);
- skips combining marks on a digit (``5\u0301``);
- reads every Unicode decimal digit (full-width ``\uff15``, Arabic-Indic, Devanagari, ...) as its ASCII digit;
- reads every other space character (Unicode category Zs: no-break, thin, en and em spaces, ...) as a plain space,
  so that "Dr\u00a0Ann\u00a0Smith" is the name the trigger patterns know;
- reads look-alikes of ASCII punctuation as the ASCII character: every dash (Unicode category Pd: hyphen, en and em
  dash, ...) and the minus sign as "-", the fraction and division slashes as "/", and the full-width and small forms
  (``\uff0f``, ``\uff20``, ``\ufe63``), the vertical forms of comma, colon, semicolon, "!" and "?", the Greek
  question mark and the one dot leader (``\u2024``) as the ASCII mark they are a form of, so that "3\u20134\u20131950"
  (en dashes, as a word processor writes them) is a date, "617\uff0d555\uff0d0199" a phone number and "Dr\u2024 Ann"
  a title and a name;
- reads an HTML character reference (``&nbsp;``, ``&#160;``, ``&eacute;``, ``&#39;``), as notes exported from web pages
  and rich-text fields carry them, as the character it stands for (then as above: a no-break space as a space, an
  invisible one skipped), so that "Patient:&nbsp;Fairweather" is the field and the name the patterns know.

A span found in the view maps back to the original (:meth:`VisibleText.original`) so that it covers the whole original
value, the invisible characters inside it included. A note with none of these characters has no view
(:func:`visible_view` returns None) and is detected as it is: same output, no cost beyond one scan in C.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field

import regex

# ASCII characters the view skips: controls other than white space (\t \n \x0b \x0c \r \x1c-\x1f).
_ASCII_HIDDEN = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
# Any character the view skips: format characters and non-space controls (regex's set difference, version 1).
_HIDDEN = r"[\p{Cf}\p{Cc}--[\t\n\x0b\x0c\r\x1c-\x1f\x85]]"
_OTHER_DIGIT = r"[\p{Nd}--[0-9]]"
_OTHER_SPACE = r"[\p{Zs}--[ ]]"
# Look-alikes of ASCII punctuation and the full-width and small forms of ASCII characters (digits are read above).
# And the other marks whose compatibility form is an ASCII full stop, comma, colon, semicolon, "!" or "?": the one dot
# leader ("Dr\u2024 Ann"), the Greek question mark (a semicolon) and the vertical presentation forms.
_LOOKALIKE = (
    r"[\p{Pd}\u2212\u2044\u2215\u2024\u037e\ufe10\ufe13-\ufe16\uff01-\uff5e\ufe50-\ufe6b--[\-0-9\uff10-\uff19]]"
)
_LOOKALIKE_DASHES = {"\u2212": "-", "\u2044": "/", "\u2215": "/"}
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# The categories of the non-ASCII characters that may change: format, control, decimal digit, combining marks, spaces,
# dashes; and the look-alikes of other categories (slashes, the minus sign, full-width and small forms).
_CHANGED_CATEGORIES = frozenset(("Cf", "Cc", "Nd", "Mn", "Mc", "Me", "Zs", "Pd"))
_CHANGED_LOOKALIKE = regex.compile(_LOOKALIKE, regex.V1)
# A character the view skips wherever it stands, and one it reads as a space (for HTML character references).
_SKIPPED_ALONE = regex.compile(rf"(?V1){_HIDDEN}|\p{{M}}")
_OTHER_SPACE_CHAR = regex.compile(_OTHER_SPACE, regex.V1)
# _maybe_changed's answers, memoised (a pure function of one character; few distinct ones occur).
_maybe: dict[str, bool] = {}
# An HTML character reference: numeric or named (html.unescape decides which names exist).
_ENTITY = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
_ENTITY_RE = re.compile(_ENTITY)
# Whether a text needs a view: a character to skip, a non-ASCII digit, or a combining mark on a digit.
_NEEDS_VIEW = regex.compile(rf"(?V1){_HIDDEN}|{_OTHER_DIGIT}|{_OTHER_SPACE}|{_LOOKALIKE}|\p{{Nd}}\p{{M}}")
# What the view changes, left to right: after a digit, a run of hidden characters and marks (skipped); elsewhere a
# run of hidden characters (skipped); a non-ASCII digit (read as its ASCII digit); another space (read as " ").
_CHANGE = regex.compile(
    rf"(?V1)(?P<skip>(?<=\p{{Nd}})(?:{_HIDDEN}|\p{{M}})+|{_HIDDEN}+)|(?P<digit>{_OTHER_DIGIT})|(?P<space>{_OTHER_SPACE})"
    rf"|(?P<lookalike>{_LOOKALIKE})|(?P<entity>{_ENTITY})"
)


@dataclass(frozen=True, slots=True)
class VisibleText:
    """A note's visible text and where its characters come from.

    ``breaks`` are the view positions before which characters were skipped, ascending; ``shifts[i]`` is how many
    characters were skipped before view position ``breaks[i]`` in all, so the view character at ``p`` is the original
    character at ``p + shifts[i]`` for the last ``breaks[i] <= p`` (``p`` itself before the first break).
    ``references`` maps the original position of each HTML character reference read as a character to the
    reference's end, so that a span ending on that character covers the whole reference.
    """

    text: str = field(repr=False)
    breaks: tuple[int, ...]
    shifts: tuple[int, ...]
    references: Mapping[int, int] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:  # never the text (PHI)
        return f"VisibleText(chars={len(self.text)}, skipped={self.shifts[-1] if self.shifts else 0})"

    def _position(self, view_position: int) -> int:
        """The original position of the view character at ``view_position``."""
        index = bisect_right(self.breaks, view_position) - 1
        return view_position + (self.shifts[index] if index >= 0 else 0)

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The original offsets of the view's ``[start, end)`` (non-empty): from its first character to its last, the
        skipped characters between them included."""
        last = self._position(end - 1)
        return self._position(start), self.references.get(last, last + 1)


def _maybe_changed(char: str) -> bool:
    """Whether a non-ASCII character may be skipped or read as a digit (a mark only when it is on a digit)."""
    known = _maybe.get(char)
    if known is None:
        known = _maybe[char] = (
            unicodedata.category(char) in _CHANGED_CATEGORIES or _CHANGED_LOOKALIKE.fullmatch(char) is not None
        )
    return known


def _needs_view(text: str) -> bool:
    """Whether ``text`` has a character to skip or read otherwise: a search in C for ASCII text, else a look at the
    few distinct non-ASCII characters of a note first (the regex module's search is ten times slower)."""
    if _ASCII_HIDDEN.search(text) is not None:
        return True
    if "&" in text and any(_entity_char(m) is not None for m in _ENTITY_RE.findall(text)):
        return True
    if text.isascii() or not any(map(_maybe_changed, set(_NON_ASCII.findall(text)))):
        return False
    return _NEEDS_VIEW.search(text) is not None


def _ascii_lookalike(char: str) -> str:
    """The ASCII character that ``char`` (a match of _LOOKALIKE) stands for: "-" for a dash or the minus sign, "/" for
    a slash, else its compatibility form (full-width and small forms), or the character itself where that is not one
    ASCII character."""
    if char in _LOOKALIKE_DASHES:
        return _LOOKALIKE_DASHES[char]
    if unicodedata.category(char) == "Pd":
        return "-"
    plain = unicodedata.normalize("NFKC", char)
    return plain if len(plain) == 1 and plain.isascii() else char


def _entity_char(reference: str) -> str | None:
    """What the view reads for an HTML character reference: its character as the view reads that character (a space,
    an ASCII look-alike, an ASCII digit, or "" for one it skips), or None where ``reference`` names no single
    character."""
    char = html.unescape(reference)
    if char == reference or len(char) != 1 or char == "\ufffd":  # no character, or one that is none ("&#x110000;")
        return None
    if char in " \t\n":
        return char
    if _SKIPPED_ALONE.fullmatch(char):
        return ""
    if _OTHER_SPACE_CHAR.fullmatch(char):
        return " "
    if _CHANGED_LOOKALIKE.fullmatch(char):
        return _ascii_lookalike(char)
    value = unicodedata.decimal(char, None)
    return char if value is None else str(value)


def visible_view(text: str) -> VisibleText | None:
    """The visible view of ``text``, or None when it has nothing to skip or read differently (the view would be the
    text itself)."""
    if not _needs_view(text):
        return None
    pieces: list[str] = []
    breaks: list[int] = []
    shifts: list[int] = []
    references: dict[int, int] = {}
    last = skipped = 0
    for match in _CHANGE.finditer(text):
        start, end = match.span()
        pieces.append(text[last:start])
        if match.group("skip") is not None:
            breaks.append(start - skipped)
            skipped += end - start
            shifts.append(skipped)
        elif match.group("space") is not None:
            pieces.append(" ")
        elif match.group("lookalike") is not None:
            pieces.append(_ascii_lookalike(match.group()))
        elif match.group("entity") is not None:
            read = _entity_char(match.group())
            if read is None:  # no character reference after all ("&foo;"): as written
                pieces.append(match.group())
            else:
                # The character stands where "&" stood; the rest of the reference is skipped (all of it where the view
                # skips the character itself).
                pieces.append(read)
                breaks.append(start - skipped + len(read))
                skipped += end - start - len(read)
                shifts.append(skipped)
                if read:
                    references[start] = end
        else:
            digit = match.group()
            # A digit of a Unicode version newer than Python's (the regex module's tables may be) stays as it is.
            value = unicodedata.decimal(digit, None)
            pieces.append(digit if value is None else str(value))
        last = end
    pieces.append(text[last:])
    return VisibleText("".join(pieces), tuple(breaks), tuple(shifts), references)


__all__ = ["VisibleText", "visible_view"]
