"""The detectors that run tables of rules: :class:`PatternDetector` (one PHI family), :class:`CombinedPatternDetector`
(every family in one pass) and how a family's hits become spans (the best candidate per offsets, contained spans
dropped, and optionally the finds repeated wherever the same words recur in the note)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.provenance import Confirmation
from deident.core.span import Span, sort_spans
from deident.detect.patterns.plan import ScanPlan, build_plan, find_all
from deident.detect.patterns.rules import Hit, Pattern


@dataclass(frozen=True)
class PatternDetector:
    """Runs a table of patterns of one PHI family; implements the ``Detector`` protocol."""

    name: str
    patterns: tuple[Pattern, ...]
    # Names of patterns whose finds are also tagged wherever the same word(s) recur in the note: a site or
    # person named once in context ("transferred to Calvert") is PHI everywhere in that note.
    repeated: frozenset[str] = frozenset()

    @cached_property
    def plan(self) -> ScanPlan:
        """The compiled plan (built on first use; the same for every document)."""
        return build_plan(self.patterns)

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
    def plan(self) -> ScanPlan:
        return build_plan(tuple(p for family in self.families for p in family.patterns))

    @cached_property
    def family_of(self) -> dict[str, int]:
        return {p.name: i for i, family in enumerate(self.families) for p in family.patterns}

    def detect(self, document: Document) -> tuple[Span, ...]:
        text = document.text
        by_family: list[list[tuple[Pattern, Hit]]] = [[] for _ in self.families]
        family_of = self.family_of
        for pattern, hit in find_all(self.plan, text):
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
    return _detect(source, build_plan(patterns), text)


# A resolved candidate: its rank (score, then pattern name) and what its span gets (label, score, evidence). Spans
# are only built for the candidates that are kept.
_Candidate = tuple[float, str, Label, float, tuple[str, ...], Confirmation | None]


def _add_repeats(source: str, text: str, best: dict[tuple[int, int], _Candidate], names: frozenset[str]) -> None:
    lower = text.lower()
    if len(lower) != len(text):
        return
    seen: set[str] = set()
    for (start, end), (score, name, label, _, _, _) in list(best.items()):
        key = lower[start:end]
        if name not in names or key in seen or len(key) < 2:
            continue
        seen.add(key)
        position = lower.find(key)
        while position >= 0:
            stop = position + len(key)
            whole_word = (position == 0 or not lower[position - 1].isalnum()) and (
                stop == len(lower) or not lower[stop].isalnum()
            )
            if whole_word and (position, stop) not in best:
                evidence = (f"pattern:{name}", "repeated-in-note")
                best[(position, stop)] = (score * 0.8, name, label, round(score * 0.8, 4), evidence, None)
            position = lower.find(key, position + 1)


def _detect(source: str, plan: ScanPlan, text: str, repeated: frozenset[str] = frozenset()) -> list[Span]:
    return _resolve(source, find_all(plan, text), text, repeated)


def _resolve(
    source: str, found: list[tuple[Pattern, Hit]], text: str, repeated: frozenset[str] = frozenset()
) -> list[Span]:
    if not found:
        return []  # most families find nothing in most notes
    best: dict[tuple[int, int], _Candidate] = {}
    for pattern, hit in found:
        score = hit.score if hit.score is not None else pattern.score
        key = (hit.start, hit.end)
        old = best.get(key)
        confirmed = hit.confirmed or pattern.confirms
        if old is not None and (old[0], old[1]) >= (score, pattern.name):
            if confirmed is not None and old[5] is None:  # the same offsets, confirmed by another rule
                best[key] = (old[0], old[1], old[2], old[3], old[4], confirmed)
            continue
        if confirmed is None and old is not None:
            confirmed = old[5]
        best[key] = (
            score,
            pattern.name,
            hit.label or pattern.label,
            score,
            (f"pattern:{pattern.name}", *hit.evidence),
            confirmed,
        )
    if repeated:
        _add_repeats(source, text, best, repeated)
    kept: list[Span] = []
    reach = -1
    # Offsets are unique keys, so (start, longer first) is the order of sort_spans; a container precedes what it
    # contains.
    for (start, end), (_, _, label, score, evidence, confirmed) in sorted(best.items(), key=_document_order):
        if end <= reach:
            continue
        kept.append(Span(start, end, label, source=source, score=score, evidence=evidence, confirmed=confirmed))
        reach = max(reach, end)
    return kept


def _document_order(item: tuple[tuple[int, int], _Candidate]) -> tuple[int, int]:
    return item[0][0], -item[0][1]
