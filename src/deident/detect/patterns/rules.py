"""The rule vocabulary: a rule (:class:`Pattern`), its speed hints (:class:`ScanHints`), what a validator returns
(:class:`Hit`) and the helpers that rule authors write rules and validators with.

A :class:`Pattern` is a record (name, label, regex source, validator, base score, speed hints). Regexes are
compiled once, lazily, with the ``regex`` module. Every pattern must use bounded quantifiers only, so that a
match attempt costs at most a constant amount of work per start position (no catastrophic backtracking).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import regex

from deident.core.labels import Label
from deident.core.provenance import Confirmation

# A unit or dose word right after a number: "5/10 mg", "2-3 L", "100-1200 cc" are not dates or phones.
UNIT_AFTER = (
    r"[ \t]{0,2}(?:mg|mcg|ug|g|gm|grams?|kg|ml|cc|l|liters?|units?|u|meq|mmol|amps?|tabs?|caps?|puffs?|drops?|gtts?"
    r"|strength|ns|nss|hns|%|mmhg|cm|mm|sec|mins?|hrs?|hours?|days?|weeks?|wks?|x|times|doses?|bottles?|bags?"
    r"|ratio|score|scale|breaths?|bpm|l/min|lpm|cmh2o|inch|inches|feet|ft|lbs?|pounds|oz|qd|bid|tid|qid|prn"
    r"|q\d|po|iv|sq|sc|im|pr|sl|fio2|peep|ps)\b"
)


# A printed form's leader between a field and its value: five or more dots, or three or more spaced ones
# ("Phone.........555 0143", "Name . . . . Ann Lee"). Not an ellipsis of three or four dots, which nursing notes put
# between phrases ("PAIN MNGMNT....WITH ONGOING EVALUATION"). (No underscores: a word character, which would hide the
# field's word end from the anchor scan.)
LEADER = r"(?:\.{5,60}|(?:\.[ \t]){3,30}\.?)"


class Hit(NamedTuple):
    """A validated match: offsets into the text, an optional relabel and extra evidence notes, and ``confirmed``
    when the validator confirmed the structure itself (a checksum, a parse; see
    :class:`~deident.core.provenance.Confirmation`). (A named tuple: the validators make thousands per pass, and a
    tuple is made several times faster than a frozen dataclass.)"""

    start: int
    end: int
    label: Label | None = None
    evidence: tuple[str, ...] = ()
    score: float | None = None
    confirmed: Confirmation | None = None


# A validator sees the whole text and the match; it returns the hits to emit (possibly trimmed,
# split or relabelled), or an empty sequence to reject the match.
Validator = Callable[[str, "regex.Match[str]"], "list[Hit]"]


@dataclass(frozen=True, slots=True)
class ScanHints:
    """Where a rule can match, so that the scan planner tries its regex only there: speed only, never output.

    A hint must never exclude a place where the regex (and validator) would give a hit; the planner's equality
    tests hold each kind to that. ``anchors`` and ``required_char`` are derived from the regex when left at
    ``None`` (see :mod:`deident.detect.patterns.hints`); the others are set by hand where a rule needs them.
    """

    # Lower-case literals at which every match starts (the trigger words or phrases). When given, an Aho-Corasick
    # scan finds the candidate positions and the regex only runs there: searching for a large alternation of words
    # is far slower than matching it at a known position. None: derived from the regex; (): none.
    anchors: tuple[str, ...] | None = None
    # For digit-led rules: every match starts at the first digit of a maximal digit run whose length lies in
    # this range. One shared digit-run scan then tries the regex only there, instead of one full scan per rule.
    digit_run: tuple[int, int] | None = None
    # Optionally, a regex (a superset of what the rule needs) for the text right after the run; the rule is only
    # tried where the first characters after the run fit it ("80 " is no age unless a "y" follows). It must tell
    # digits apart by ``\d`` only and use no ``\b``, ``\B`` or lookaround (checked when the plan is built).
    run_next: str = ""
    # Optionally, a regex for the one character right before the run: the rule is only tried where that character
    # fits it (the start of the text always passes). It must follow from the rule's own lookbehind ("5" after "x"
    # starts no date), so that no match is lost; like ``run_next`` it is decided once per context and remembered.
    run_prev: str = ""
    # Optionally, a cheap test ``(text, run start, run end) -> bool`` that is false only where the rule cannot match at
    # the run, for rules whose regex is costly and seldom matches (it is called before each attempt).
    run_check: Callable[[str, int, int], bool] | None = field(default=None, compare=False)
    # For a rule whose matches each lie on one line, from the newline before it (or the text's start: its regex
    # opens with ``(?:\n|^)``) to the line's end, and whose validator keeps only a match followed by nothing but
    # whitespace: only the last non-blank line can give a hit, so the regex is tried there alone instead of at
    # every newline.
    last_line: bool = False
    # For a scanned rule whose every match starts at a maximal digit run written as one of ``run_starts`` ("1") or at
    # one of the ``char_starts`` characters ("+"): the rule is tried only there, in order, as ``finditer`` would,
    # with the runs taken from the digit-run scan that is made anyway (a scan per rule costs far more).
    run_starts: tuple[str, ...] = ()
    char_starts: str = ""
    # For a scanned rule whose every match is the last n digits of a maximal digit run of at most ``longest``
    # digits, (n, longest): the rule is tried only at the ends of such runs, taken from the digit-run scan.
    run_tail: tuple[int, int] | None = None
    # For a scanned rule, a character that every match contains (its leading literal, say): a text without it is not
    # scanned at all ("@" for e-mail). A ``str`` membership test costs far less than starting a regex scan.
    # None: derived from the regex; "": none.
    required_char: str | None = None
    # For a scanned rule, a case-sensitive regex (lower case) that the lower-cased text of every match contains: an
    # ASCII text whose lower-cased form (made for the anchor scan anyway) holds no match of it is not scanned. Worth it
    # where the rule's first character is common and its regex costly there (".com" after every full stop).
    lower_gate: str = ""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One named rule. ``group`` names the capture group that is the PHI (the trigger stays outside).

    ``hints`` holds the rule's speed hints as written; the planner fills in those left to derivation
    (:func:`deident.detect.patterns.hints.scan_hints`). ``confirms``: every hit of the rule has its structure
    confirmed by the regex (and validator) alone, as a URL with its scheme is; a validator that confirms only some
    hits sets ``Hit.confirmed`` instead.
    """

    name: str
    label: Label
    source: str
    score: float = 0.8
    validator: Validator | None = field(default=None, compare=False)
    group: int | str = 0
    ignore_case: bool = True
    hints: ScanHints = ScanHints()
    confirms: Confirmation | None = None

    @property
    def compiled(self) -> regex.Pattern[str]:
        return compile_source(self.source, self.ignore_case)


@lru_cache(maxsize=1024)
def compile_source(source: str, ignore_case: bool) -> regex.Pattern[str]:
    return regex.compile(source, regex.IGNORECASE if ignore_case else 0)


def validated(pattern: Pattern, text: str, match: regex.Match[str]) -> list[Hit]:
    """The hits that ``match`` of ``pattern`` gives: its validator's, or the span of its PHI group."""
    if pattern.validator is not None:
        return pattern.validator(text, match)
    start, end = match.span(pattern.group)
    return [Hit(start, end)] if 0 <= start < end else []


def rx(source: str) -> regex.Pattern[str]:
    """A case-insensitive helper regex, compiled on first use and cached."""
    return compile_source(source, True)


def unit_follows(text: str, end: int) -> bool:
    return rx(UNIT_AFTER).match(text, end) is not None


_WORD_AFTER = regex.compile(r"[ \t]{1,3}([A-Za-z]+)")


def word_after(text: str, end: int) -> str | None:
    """The ASCII word (lower case) that follows ``end`` after one to three blanks on the same line, if any."""
    found = _WORD_AFTER.match(text, end)
    return None if found is None else found[1].lower()


def search_before(source: str, text: str, end: int, width: int) -> regex.Match[str] | None:
    """``rx(source)`` searched in the ``width`` characters before ``end`` (a validator's look at the context).

    Searched with pos/endpos rather than on a slice, so ``\\Z`` anchors at ``end`` and lookbehinds still see
    the text before the window; write ``source`` as a reverse pattern (``(?r)``) to get the nearest match.
    """
    return rx(source).search(text, max(0, end - width), end)


def anchor_words(*phrases: str) -> tuple[str, ...]:
    """The anchors of a trigger list: the first word of each phrase, lower-cased."""
    return tuple(sorted({p.split()[0].lower() for p in phrases}))


def words(*alternatives: str) -> str:
    """A non-capturing alternation of literal phrases (longest first), spaces matching any blank run."""
    parts = sorted(set(alternatives), key=lambda s: (-len(s), s))
    return "(?:" + "|".join(regex.escape(p).replace(r"\ ", r"[ \t]{1,3}") for p in parts) + ")"
