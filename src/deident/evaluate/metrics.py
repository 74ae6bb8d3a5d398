"""Per-document counting for every evaluation metric (pure functions of gold and predicted spans).

Units and matching rules (each function's docstring gives the exact definition):

- binary token: whitespace tokens (maximal runs of non-whitespace characters,
  :func:`deident.text.whitespace_tokens`), PHI if any character lies in a span; labels ignored;
- typed token: (token, label) pairs; a token touched by spans of two labels is two units;
- entity: spans, matched on label and offsets, strictly or with a tolerance on the end offset;
- instance: gold spans, reached by predictions of any label (fully contained / any overlap);
- confusion: gold label against the predicted label that overlaps it most.

Spans are treated as sets: identical (start, end, label) spans count once.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import regex

from deident.core.labels import Category, Label
from deident.core.span import Span
from deident.evaluate.counts import Counts, InstanceCounts

C = TypeVar("C", Counts, InstanceCounts)
K = TypeVar("K", Category, Label)

NONE = "none"  # the confusion matrix's row/column for "no span on this side"
_NON_SPACE = regex.compile(r"\S")  # the same notion of whitespace as whitespace_tokens


@dataclass(frozen=True, slots=True)
class Breakdown(Generic[C]):
    """One metric's counts overall, per main category and per sub-type (label)."""

    overall: C
    by_category: Mapping[Category, C] = field(default_factory=dict)
    by_label: Mapping[Label, C] = field(default_factory=dict)

    def __add__(self, other: Breakdown[C]) -> Breakdown[C]:
        return Breakdown(
            self.overall + other.overall,
            _sum_maps(self.by_category, other.by_category),
            _sum_maps(self.by_label, other.by_label),
        )


def _sum_maps(a: Mapping[K, C], b: Mapping[K, C]) -> dict[K, C]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out[key] + value if key in out else value
    return out


def _additive(by_label: Mapping[Label, C], zero: C) -> Breakdown[C]:
    """Breakdown of a metric whose units belong to exactly one label, so categories and the
    overall row are sums of label rows."""
    by_category: dict[Category, C] = {}
    overall = zero
    for label, counts in by_label.items():
        by_category[label.category] = by_category.get(label.category, zero) + counts
        overall = overall + counts
    return Breakdown(overall, by_category, dict(by_label))


@dataclass(frozen=True, slots=True)
class TokenGrid:
    """A document's whitespace tokens as parallel sorted start and end offsets."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, tokens: Iterable[tuple[int, int]]) -> TokenGrid:
        pairs = list(tokens)
        return cls(tuple(s for s, _ in pairs), tuple(e for _, e in pairs))

    def __len__(self) -> int:
        return len(self.starts)

    def touched(self, span: Span) -> range:
        """Indices of the tokens sharing at least one character with ``span``."""
        first = bisect_right(self.ends, span.start)  # first token ending after the span starts
        stop = bisect_left(self.starts, span.end)  # first token starting at or after the span ends
        return range(first, max(first, stop))

    def tokens_by_label(self, spans: Iterable[Span]) -> dict[Label, set[int]]:
        out: dict[Label, set[int]] = defaultdict(set)
        for span in spans:
            out[span.label].update(self.touched(span))
        return dict(out)


def _union(sets: Iterable[set[int]]) -> set[int]:
    out: set[int] = set()
    for s in sets:
        out |= s
    return out


def binary_token_counts(
    grid: TokenGrid,
    gold: Collection[Span],
    pred: Collection[Span],
    *,
    ignored_gold: Collection[Span] = (),
    row_labels: Collection[Label] | None = None,
) -> Breakdown[Counts]:
    """Binary (PHI / not PHI) token counts; labels play no part in matching.

    A token is a maximal run of non-whitespace characters; it is gold PHI if any of its characters
    lies in a gold span, predicted PHI if any lies in a predicted span.
    Overall: TP = tokens both gold and predicted PHI, FP = predicted only, FN = gold only.
    Row of label (or category) L: gold units are the tokens touched by gold spans of L, found when
    touched by any prediction (recall side); predicted units are the tokens touched by predictions
    labelled L, correct when touched by any gold span (precision side).

    ``ignored_gold``: gold spans outside the evaluated view (e.g. non-HIPAA types in the HIPAA view);
    tokens touched only by them are left out of both sides, so removing them is neither rewarded nor
    penalised. ``row_labels``: the labels that get rows (default: all that occur).
    """
    gold_by = grid.tokens_by_label(gold)
    pred_by = grid.tokens_by_label(pred)
    any_gold = _union(gold_by.values())
    if ignored_gold:
        ignored = _union(grid.tokens_by_label(ignored_gold).values()) - any_gold
        pred_by = {label: tokens - ignored for label, tokens in pred_by.items()}
    any_pred = _union(pred_by.values())
    hits = len(any_gold & any_pred)
    overall = Counts(len(any_gold), len(any_pred), hits, hits)

    def row(labels: Iterable[Label]) -> Counts | None:
        labels = list(labels)
        g = _union(gold_by.get(label, set()) for label in labels)
        p = _union(pred_by.get(label, set()) for label in labels)
        if not g and not p:
            return None
        return Counts(len(g), len(p), len(g & any_pred), len(p & any_gold))

    present = {label for label in (gold_by.keys() | pred_by.keys()) if row_labels is None or label in row_labels}
    by_label = {label: counts for label in present if (counts := row([label])) is not None}
    categories: dict[Category, list[Label]] = defaultdict(list)
    for label in present:
        categories[label.category].append(label)
    by_category = {cat: counts for cat, labels in categories.items() if (counts := row(labels)) is not None}
    return Breakdown(overall, by_category, by_label)


def typed_token_counts(grid: TokenGrid, gold: Collection[Span], pred: Collection[Span]) -> Breakdown[Counts]:
    """Typed token counts: units are (token, label) pairs, a pair being gold when a gold span of that
    label touches the token and predicted when a predicted span of that label does.

    TP = pairs both gold and predicted (the token is found *with the right label*), FP = predicted
    pairs not in gold, FN = gold pairs not predicted. A token touched by two labels is two units:
    predicting one of them gives one TP and one FN (and a wrong label is one FN plus one FP).
    Rows filter pairs by label (categories: labels of the category), so categories and the overall
    row are sums of label rows. Labels must match exactly at sub-type level.
    """
    gold_by = grid.tokens_by_label(gold)
    pred_by = grid.tokens_by_label(pred)
    by_label: dict[Label, Counts] = {}
    for label in gold_by.keys() | pred_by.keys():
        g, p = gold_by.get(label, set()), pred_by.get(label, set())
        both = len(g & p)
        by_label[label] = Counts(len(g), len(p), both, both)
    return _additive(by_label, Counts())


def entity_counts(gold: Collection[Span], pred: Collection[Span], end_tolerance: int = 0) -> Breakdown[Counts]:
    """Entity (span) counts as in the i2b2 2014 evaluation.

    A gold and a predicted span match when their labels are equal, their starts are equal and their
    ends differ by at most ``end_tolerance`` characters: 0 is the strict measure (exact offsets and
    type), 2 the relaxed one. ``gold_found`` counts gold spans with a match, ``pred_correct``
    predicted spans with a match (equal to each other when strict). Rows filter spans by label;
    categories and the overall row are sums of label rows.
    """
    gold_set, pred_set = set(gold), set(pred)
    pred_ends: dict[tuple[int, Label], list[int]] = defaultdict(list)
    gold_ends: dict[tuple[int, Label], list[int]] = defaultdict(list)
    for span in pred_set:
        pred_ends[span.start, span.label].append(span.end)
    for span in gold_set:
        gold_ends[span.start, span.label].append(span.end)

    def matched(span: Span, other: Mapping[tuple[int, Label], list[int]]) -> bool:
        return any(abs(end - span.end) <= end_tolerance for end in other.get((span.start, span.label), ()))

    tallies: dict[Label, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for span in gold_set:
        tally = tallies[span.label]
        tally[0] += 1
        tally[2] += matched(span, pred_ends)
    for span in pred_set:
        tally = tallies[span.label]
        tally[1] += 1
        tally[3] += matched(span, gold_ends)
    return _additive({label: Counts(*t) for label, t in tallies.items()}, Counts())


def _merged_intervals(spans: Iterable[Span]) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    for span in sorted(spans, key=lambda s: s.start):
        if ends and span.start <= ends[-1]:
            ends[-1] = max(ends[-1], span.end)
        else:
            starts.append(span.start)
            ends.append(span.end)
    return starts, ends


def is_fully_contained(text: str, span: Span, starts: list[int], ends: list[int]) -> bool:
    """True when every non-whitespace character of ``span`` lies in one of the merged, sorted,
    disjoint intervals ``[starts[i], ends[i])``."""
    pos = span.start
    i = bisect_right(ends, pos)
    while pos < span.end:
        if i < len(starts) and starts[i] < span.end:
            if starts[i] > pos and _NON_SPACE.search(text, pos, starts[i]):
                return False
            pos = ends[i]
            i += 1
        else:
            return _NON_SPACE.search(text, pos, span.end) is None
    return True


def instance_counts(
    text: str, gold: Collection[Span], pred: Collection[Span], *, row_labels: Collection[Label] | None = None
) -> Breakdown[InstanceCounts]:
    """Instance recall counts over gold spans; predicted labels play no part.

    Fully contained (the BoB criterion): every non-whitespace character of the gold span lies in
    the union of predicted spans, possibly several (a gold span of whitespace only is vacuously
    contained). Any overlap: the gold span shares at least one character with a predicted span.
    Rows group gold spans by their label; a row's ``pred`` counts predicted spans of its labels and
    only serves the empty-row convention. ``row_labels`` limits the rows (default: all that occur).
    """
    starts, ends = _merged_intervals(pred)
    gold_set, pred_set = set(gold), set(pred)
    tallies: dict[Label, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    total = [0, len(pred_set), 0, 0]
    for span in gold_set:
        i = bisect_right(ends, span.start)
        overlap = i < len(starts) and starts[i] < span.end
        full = is_fully_contained(text, span, starts, ends)
        for tally in (tallies[span.label], total):
            tally[0] += 1
            tally[2] += full
            tally[3] += overlap
    for span in pred_set:
        if row_labels is None or span.label in row_labels:
            tallies[span.label][1] += 1
    by_label = {label: InstanceCounts(*t) for label, t in tallies.items() if row_labels is None or label in row_labels}
    rows = _additive(by_label, InstanceCounts())
    return Breakdown(InstanceCounts(*total), rows.by_category, rows.by_label)


def confusion_counts(gold: Collection[Span], pred: Collection[Span]) -> Counter[tuple[str, str]]:
    """Confusion of types, keyed (gold label, predicted label) with ``"none"`` for a missing side.

    Each gold span counts once: in the column of the predicted label that covers most of its
    characters among the predicted spans overlapping it (ties go to the alphabetically first
    label), or in column "none" when no predicted span overlaps it. Each predicted span overlapping
    no gold span counts once in row "none". So a row's total is the number of gold spans of that
    label, and row "none" holds the spurious predictions.
    """
    out: Counter[tuple[str, str]] = Counter()
    gold_list, pred_list = sorted(set(gold)), sorted(set(pred))
    for g in gold_list:
        overlap: dict[str, int] = defaultdict(int)
        for p in pred_list:
            if p.start >= g.end:
                break
            if p.end > g.start:
                overlap[p.label.value] += min(p.end, g.end) - max(p.start, g.start)
        column = min(overlap, key=lambda label: (-overlap[label], label)) if overlap else NONE
        out[g.label.value, column] += 1
    for p in pred_list:
        if not any(g.overlaps(p) for g in gold_list):
            out[NONE, p.label.value] += 1
    return out
