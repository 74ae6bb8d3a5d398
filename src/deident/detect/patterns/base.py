"""Rules as data: named regex patterns with optional validators, and the detector that runs a table of them.

A :class:`Pattern` is a record (name, label, regex source, validator, base score). Regexes are compiled
once, lazily, with the ``regex`` module. Every pattern must use bounded quantifiers only, so that a
match attempt costs at most a constant amount of work per start position (no catastrophic backtracking).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
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
    # For digit-led rules: every match starts at the first digit of a maximal digit run whose length lies in
    # this range and whose next character is in ``run_followers`` (empty: any; end of text always passes).
    # One shared digit-run scan then tries the regex only there, instead of one full scan per rule.
    digit_run: tuple[int, int] | None = None
    run_followers: str = ""
    # Optionally, a regex (a superset of what the rule needs) for the text right after the run; it narrows the
    # shared digit-run scan so that fewer runs reach Python ("80 " is no age unless a "y" follows).
    run_next: str = ""

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


def search_before(source: str, text: str, end: int, width: int) -> regex.Match[str] | None:
    """``rx(source)`` searched in the ``width`` characters before ``end`` (a validator's look at the context).

    Searched with pos/endpos rather than on a slice, so ``\\Z`` anchors at ``end`` and lookbehinds still see
    the text before the window; write ``source`` as a reverse pattern (``(?r)``) to get the nearest match.
    """
    return rx(source).search(text, max(0, end - width), end)


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
    digit_led: tuple[Pattern, ...] = ()
    digit_led_regexes: tuple[regex.Pattern[str], ...] = ()
    # by_run_length[n]: (index into digit_led, followers) of the rules a digit run of length n may start.
    by_run_length: tuple[tuple[tuple[int, str], ...], ...] = ()
    # Finds only the digit runs (by length and next character) that some digit-led rule may start at.
    digit_runs: regex.Pattern[str] | None = None


def _run_next(pattern: Pattern) -> str:
    """What may follow a digit run that ``pattern`` starts at, as a regex ("" for anything)."""
    if pattern.run_next:
        return pattern.run_next
    if pattern.run_followers:
        return "[" + regex.escape("".join(sorted(set(pattern.run_followers)))) + r"]|\Z"
    return ""


def _digit_run_source(digit_led: tuple[Pattern, ...], longest: int) -> str:
    branches = []
    for length in range(1, longest + 1):
        candidates = [p for p in digit_led if p.digit_run and p.digit_run[0] <= length <= p.digit_run[1]]
        if not candidates:
            continue
        nexts = sorted({_run_next(p) for p in candidates})
        branch = rf"\d{{{length}}}(?!\d)"
        if "" not in nexts:
            branch += "(?=" + "|".join(f"(?:{n})" for n in nexts) + ")"
        branches.append(branch)
    return r"(?<!\d)(?:" + "|".join(branches) + ")"


_WORD_END = " \t\n\r\f\v.,;:!?-#'\"/()[]<>=+*&@%$^`{}|~\\0123456789"


_GAPS = tuple("".join(g) for n in (1, 2, 3) for g in itertools.product(" \t", repeat=n))


def _spellings(anchor: str) -> list[str]:
    """A phrase anchor ("at bedside") with every blank run that ``words`` lets its regex match (1-3 blanks)."""
    spellings = [""]
    for i, word in enumerate(anchor.split(" ")):
        spellings = [s + gap + word for s in spellings for gap in (_GAPS if i else ("",))]
    return spellings


@lru_cache(maxsize=64)
def _plan(patterns: tuple[Pattern, ...]) -> _Plan:
    anchored = tuple(p for p in patterns if p.anchors)
    automaton = None
    if anchored:
        by_anchor: dict[str, list[int]] = {}
        for index, pattern in enumerate(anchored):
            for anchor in pattern.anchors:
                for spelling in _spellings(anchor.lower()):
                    by_anchor.setdefault(spelling, []).append(index)
        automaton = ahocorasick.Automaton()
        for anchor, indices in by_anchor.items():
            # Keyed with the character after the word, so only whole-word occurrences are reported
            # (far fewer hits than every substring, e.g. "pa" in "patient").
            for delimiter in _WORD_END:
                automaton.add_word(anchor + delimiter, (len(anchor) + 1, tuple(indices)))
        automaton.make_automaton()
    digit_led = tuple(p for p in patterns if not p.anchors and p.digit_run is not None)
    scanned = tuple(p for p in patterns if not p.anchors and p.digit_run is None)
    longest = max((p.digit_run[1] for p in digit_led if p.digit_run), default=0)
    by_run_length = tuple(
        tuple(
            (i, p.run_followers)
            for i, p in enumerate(digit_led)
            if p.digit_run is not None and p.digit_run[0] <= n <= p.digit_run[1]
        )
        for n in range(longest + 1)
    )
    return _Plan(
        scanned,
        anchored,
        automaton,
        tuple(p.compiled for p in scanned),
        tuple(p.compiled for p in anchored),
        digit_led,
        tuple(p.compiled for p in digit_led),
        by_run_length,
        compile_source(_digit_run_source(digit_led, longest), False) if digit_led else None,
    )


def digit_run_matches(plan: _Plan, text: str) -> Iterator[tuple[int, regex.Match[str]]]:
    """The matches of the digit-led rules (index into ``plan.digit_led``, match), tried only where they can start.

    Equivalent to a ``finditer`` scan per rule: runs are visited left to right, and a rule is not tried
    again before the end of its previous match (matches of one rule never overlap).
    """
    if plan.digit_runs is None:
        return
    resume = [0] * len(plan.digit_led)
    by_length = plan.by_run_length
    for run in plan.digit_runs.finditer(text):
        start, end = run.span()
        follower = text[end : end + 1]
        for index, followers in by_length[end - start]:
            if start < resume[index] or (followers and follower not in followers):
                continue
            match = plan.digit_led_regexes[index].match(text, start)
            if match is not None:
                resume[index] = match.end() if match.end() > start else start + 1
                yield index, match


def _digit_run_hits(plan: _Plan, text: str) -> list[tuple[Pattern, Hit]]:
    out: list[tuple[Pattern, Hit]] = []
    for index, match in digit_run_matches(plan, text):
        pattern = plan.digit_led[index]
        out.extend((pattern, h) for h in _validated(pattern, text, match))
    return out


def _anchored_hits(plan: _Plan, text: str) -> list[tuple[Pattern, Hit]]:
    lower = text.lower()
    if len(lower) != len(text) or plan.automaton is None:  # case folding moved offsets: scan instead
        return [(p, h) for p in plan.anchored for h in find_hits(p, text)]
    out: list[tuple[Pattern, Hit]] = []
    tried: set[tuple[int, int]] = set()
    # A trailing blank lets an anchor that ends the text be reported too (keys end with a delimiter).
    for last, (length, indices) in plan.automaton.iter(lower + " "):
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
    # Names of patterns whose finds are also tagged wherever the same word(s) recur in the note: a site or
    # person named once in context ("transferred to Calvert") is PHI everywhere in that note.
    repeated: frozenset[str] = frozenset()

    @cached_property
    def plan(self) -> _Plan:
        """The compiled plan (built on first use; the same for every document)."""
        return _plan(self.patterns)

    def detect(self, document: Document) -> list[Span]:
        return _detect(self.name, self.plan, document.text, self.repeated)


@dataclass(frozen=True)
class CombinedPatternDetector:
    """All pattern families in one pass over the text: one Aho-Corasick scan, one digit-run scan.

    Gives exactly the spans of running each family's ``PatternDetector`` in turn (each span keeps its
    family's ``source``), at a fraction of the cost of one pass per family.
    """

    families: tuple[PatternDetector, ...]
    name: str = "patterns"

    @cached_property
    def plan(self) -> _Plan:
        return _plan(tuple(p for family in self.families for p in family.patterns))

    @cached_property
    def family_of(self) -> dict[str, int]:
        return {p.name: i for i, family in enumerate(self.families) for p in family.patterns}

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        by_family: list[list[tuple[Pattern, Hit]]] = [[] for _ in self.families]
        family_of = self.family_of
        for pattern, hit in _find(self.plan, text):
            by_family[family_of[pattern.name]].append((pattern, hit))
        spans: list[Span] = []
        for family, found in zip(self.families, by_family, strict=True):
            spans.extend(_resolve(family.name, found, text, family.repeated))
        return sort_spans(spans)


def detect_with(source: str, patterns: tuple[Pattern, ...], text: str) -> list[Span]:
    """Run a family's patterns over ``text``.

    At equal offsets the higher score wins (then the pattern name, for determinism); spans that another
    span of the family contains are dropped, so the output is free of redundant spans.
    """
    return _detect(source, _plan(patterns), text)


def _add_repeats(
    source: str, text: str, best: dict[tuple[int, int], tuple[float, str, Span]], names: frozenset[str]
) -> None:
    lower = text.lower()
    if len(lower) != len(text):
        return
    seen: set[str] = set()
    for score, name, span in list(best.values()):
        key = lower[span.start : span.end]
        if name not in names or key in seen or len(key) < 2:
            continue
        seen.add(key)
        position = lower.find(key)
        while position >= 0:
            end = position + len(key)
            whole_word = (position == 0 or not lower[position - 1].isalnum()) and (
                end == len(lower) or not lower[end].isalnum()
            )
            if whole_word and (position, end) not in best:
                repeat = Span(
                    position,
                    end,
                    span.label,
                    source=source,
                    score=round(score * 0.8, 4),
                    evidence=(f"pattern:{name}", "repeated-in-note"),
                )
                best[(position, end)] = (score * 0.8, name, repeat)
            position = lower.find(key, position + 1)


def _find(plan: _Plan, text: str) -> list[tuple[Pattern, Hit]]:
    found: list[tuple[Pattern, Hit]] = []
    for pattern, compiled in zip(plan.scanned, plan.scanned_regexes, strict=True):
        for match in compiled.finditer(text):
            found.extend((pattern, h) for h in _validated(pattern, text, match))
    found.extend(_digit_run_hits(plan, text))
    found.extend(_anchored_hits(plan, text))
    return found


def _detect(source: str, plan: _Plan, text: str, repeated: frozenset[str] = frozenset()) -> list[Span]:
    return _resolve(source, _find(plan, text), text, repeated)


def _resolve(
    source: str, found: list[tuple[Pattern, Hit]], text: str, repeated: frozenset[str] = frozenset()
) -> list[Span]:
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
    if repeated:
        _add_repeats(source, text, best, repeated)
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
