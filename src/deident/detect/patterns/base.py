"""Rules as data: named regex patterns with optional validators, and the detector that runs a table of them.

A :class:`Pattern` is a record (name, label, regex source, validator, base score). Regexes are compiled
once, lazily, with the ``regex`` module. Every pattern must use bounded quantifiers only, so that a
match attempt costs at most a constant amount of work per start position (no catastrophic backtracking).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import ahocorasick
import regex

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span, sort_spans

# A unit or dose word right after a number: "5/10 mg", "2-3 L", "100-1200 cc" are not dates or phones.
UNIT_AFTER = (
    r"[ \t]{0,2}(?:mg|mcg|ug|g|gm|grams?|kg|ml|cc|l|liters?|units?|u|meq|mmol|amps?|tabs?|caps?|puffs?|drops?|gtts?"
    r"|strength|ns|nss|hns|%|mmhg|cm|mm|sec|mins?|hrs?|hours?|days?|weeks?|wks?|x|times|doses?|bottles?|bags?"
    r"|ratio|score|scale|breaths?|bpm|l/min|lpm|cmh2o|inch|inches|feet|ft|lbs?|pounds|oz|qd|bid|tid|qid|prn"
    r"|q\d|po|iv|sq|sc|im|pr|sl|fio2|peep|ps)\b"
)


@dataclass(frozen=True, slots=True)
class Hit:
    """A validated match: offsets into the text, an optional relabel and extra evidence notes."""

    start: int
    end: int
    label: Label | None = None
    evidence: tuple[str, ...] = ()
    score: float | None = None


# A validator sees the whole text and the match; it returns the hits to emit (possibly trimmed,
# split or relabelled), or an empty sequence to reject the match.
Validator = Callable[[str, "regex.Match[str]"], "list[Hit]"]


@dataclass(frozen=True, slots=True)
class Pattern:
    """One named rule. ``group`` names the capture group that is the PHI (the trigger stays outside)."""

    name: str
    label: Label
    source: str
    score: float = 0.8
    validator: Validator | None = field(default=None, compare=False)
    group: int | str = 0
    ignore_case: bool = True
    # Lower-case literals at which every match starts (the first word of each trigger). When given, an
    # Aho-Corasick scan finds the candidate positions and the regex only runs there: searching for a
    # large alternation of words is far slower than matching it at a known position.
    anchors: tuple[str, ...] = ()

    @property
    def compiled(self) -> regex.Pattern[str]:
        return compile_source(self.source, self.ignore_case)


@lru_cache(maxsize=1024)
def compile_source(source: str, ignore_case: bool) -> regex.Pattern[str]:
    return regex.compile(source, regex.IGNORECASE if ignore_case else 0)


def rx(source: str) -> regex.Pattern[str]:
    """A case-insensitive helper regex, compiled on first use and cached."""
    return compile_source(source, True)


def unit_follows(text: str, end: int) -> bool:
    return rx(UNIT_AFTER).match(text, end) is not None


def _validated(pattern: Pattern, text: str, match: regex.Match[str]) -> list[Hit]:
    if pattern.validator is not None:
        return pattern.validator(text, match)
    start, end = match.span(pattern.group)
    return [Hit(start, end)] if 0 <= start < end else []


def find_hits(pattern: Pattern, text: str) -> list[Hit]:
    """All validated hits of one pattern in ``text``, by a full regex scan."""
    hits: list[Hit] = []
    for match in pattern.compiled.finditer(text):
        hits.extend(_validated(pattern, text, match))
    return hits


def anchor_words(*phrases: str) -> tuple[str, ...]:
    """The anchors of a trigger list: the first word of each phrase, lower-cased."""
    return tuple(sorted({p.split()[0].lower() for p in phrases}))


@dataclass(frozen=True)
class _Plan:
    scanned: tuple[Pattern, ...]
    anchored: tuple[Pattern, ...]
    automaton: ahocorasick.Automaton | None
    scanned_regexes: tuple[regex.Pattern[str], ...] = ()
    anchored_regexes: tuple[regex.Pattern[str], ...] = ()


_WORD_END = " \t\n\r.,;:!?-#'\"/()[]<>=+*&@0123456789"


@lru_cache(maxsize=64)
def _plan(patterns: tuple[Pattern, ...]) -> _Plan:
    anchored = tuple(p for p in patterns if p.anchors)
    automaton = None
    if anchored:
        by_anchor: dict[str, list[int]] = {}
        for index, pattern in enumerate(anchored):
            for anchor in pattern.anchors:
                by_anchor.setdefault(anchor.lower(), []).append(index)
        automaton = ahocorasick.Automaton()
        for anchor, indices in by_anchor.items():
            # Keyed with the character after the word, so only whole-word occurrences are reported
            # (far fewer hits than every substring, e.g. "pa" in "patient").
            for delimiter in _WORD_END:
                automaton.add_word(anchor + delimiter, (len(anchor) + 1, tuple(indices)))
        automaton.make_automaton()
    scanned = tuple(p for p in patterns if not p.anchors)
    return _Plan(scanned, anchored, automaton, tuple(p.compiled for p in scanned), tuple(p.compiled for p in anchored))


def _anchored_hits(plan: _Plan, text: str) -> list[tuple[Pattern, Hit]]:
    lower = text.lower()
    if len(lower) != len(text) or plan.automaton is None:  # case folding moved offsets: scan instead
        return [(p, h) for p in plan.anchored for h in find_hits(p, text)]
    out: list[tuple[Pattern, Hit]] = []
    tried: set[tuple[int, int]] = set()
    for last, (length, indices) in plan.automaton.iter(lower):
        start = last - length + 1
        if start > 0 and lower[start - 1].isalnum():
            continue  # an anchor begins a word
        for index in indices:
            if (index, start) in tried:
                continue
            tried.add((index, start))
            pattern = plan.anchored[index]
            match = plan.anchored_regexes[index].match(text, start)
            if match is not None:
                out.extend((pattern, h) for h in _validated(pattern, text, match))
    return out


@dataclass(frozen=True)
class PatternDetector:
    """Runs a table of patterns of one PHI family; implements the ``Detector`` protocol."""

    name: str
    patterns: tuple[Pattern, ...]

    @cached_property
    def plan(self) -> _Plan:
        """The compiled plan (built on first use; the same for every document)."""
        return _plan(self.patterns)

    def detect(self, document: Document) -> list[Span]:
        return _detect(self.name, self.plan, document.text)


def detect_with(source: str, patterns: tuple[Pattern, ...], text: str) -> list[Span]:
    """Run a family's patterns over ``text``.

    At equal offsets the higher score wins (then the pattern name, for determinism); spans that another
    span of the family contains are dropped, so the output is free of redundant spans.
    """
    return _detect(source, _plan(patterns), text)


def _detect(source: str, plan: _Plan, text: str) -> list[Span]:
    found: list[tuple[Pattern, Hit]] = []
    for pattern, compiled in zip(plan.scanned, plan.scanned_regexes, strict=True):
        for match in compiled.finditer(text):
            found.extend((pattern, h) for h in _validated(pattern, text, match))
    found.extend(_anchored_hits(plan, text))
    best: dict[tuple[int, int], tuple[float, str, Span]] = {}
    for pattern, hit in found:
        score = hit.score if hit.score is not None else pattern.score
        key = (hit.start, hit.end)
        rank = (score, pattern.name)
        old = best.get(key)
        if old is not None and (old[0], old[1]) >= rank:
            continue
        span = Span(
            hit.start,
            hit.end,
            hit.label or pattern.label,
            source=source,
            score=score,
            evidence=(f"pattern:{pattern.name}", *hit.evidence),
        )
        best[key] = (score, pattern.name, span)
    kept: list[Span] = []
    reach = -1
    for span in sort_spans(v[2] for v in best.values()):
        # sort_spans puts longer spans first at equal start, so a container precedes what it contains.
        if span.end <= reach:
            continue
        kept.append(span)
        reach = max(reach, span.end)
    return kept


def words(*alternatives: str) -> str:
    """A non-capturing alternation of literal phrases (longest first), spaces matching any blank run."""
    parts = sorted(set(alternatives), key=lambda s: (-len(s), s))
    return "(?:" + "|".join(regex.escape(p).replace(r"\ ", r"[ \t]{1,3}") for p in parts) + ")"
