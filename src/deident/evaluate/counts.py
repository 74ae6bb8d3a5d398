"""Match counts and the scores derived from them, with one convention for empty denominators.

Zero-denominator convention (used by every metric in deident.evaluate):
a ratio whose denominator is zero is **1.0 when both sides are empty** (no gold units and no
predicted units in that row: nothing to find and nothing claimed, so nothing went wrong) and
**0.0 otherwise** (e.g. precision with gold units but no predictions, recall with predictions but no
gold units). An F-score whose precision and recall are both 0 is 0.0.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Summable = TypeVar("_Summable", bound="DataclassInstance")


def safe_ratio(numerator: int, denominator: int, *, both_sides_empty: bool) -> float:
    """``numerator / denominator``; an empty denominator gives 1.0 if both sides are empty, else 0.0."""
    if denominator == 0:
        return 1.0 if both_sides_empty else 0.0
    return numerator / denominator


def add_fields(left: _Summable, right: _Summable) -> _Summable:
    """A dataclass of ``left``'s type whose every field is ``left``'s value plus ``right``'s (counts add up)."""
    return type(left)(*(getattr(left, f.name) + getattr(right, f.name) for f in fields(left)))


def f_beta(precision: float, recall: float, beta: float) -> float:
    """F-beta = (1 + beta²)·P·R / (beta²·P + R); 0.0 when the denominator is 0. F2 weighs recall 4x."""
    denominator = beta * beta * precision + recall
    if denominator == 0:
        return 0.0
    return (1 + beta * beta) * precision * recall / denominator


class FScores:
    """F1 and F2 from a class's ``precision`` and ``recall`` (shared by counts and macro averages)."""

    __slots__ = ()

    if TYPE_CHECKING:  # what subclasses provide, as fields or properties (read-only here, so either fits)

        @property
        def precision(self) -> float: ...

        @property
        def recall(self) -> float: ...

    @property
    def f1(self) -> float:
        return f_beta(self.precision, self.recall, 1.0)

    @property
    def f2(self) -> float:
        return f_beta(self.precision, self.recall, 2.0)


@dataclass(frozen=True, slots=True)
class Counts(FScores):
    """Match counts between gold and predicted units (tokens, (token, label) pairs or spans).

    ``gold``: gold units; ``pred``: predicted units; ``gold_found``: gold units matched by at least
    one predicted unit; ``pred_correct``: predicted units matched by at least one gold unit.
    With one-to-one matching (token sets, strict entities) ``gold_found == pred_correct`` is the
    usual TP. Where one predicted unit may match a different number of gold units (relaxed entity
    matching, per-label rows of label-agnostic metrics) the two differ, so precision uses
    ``pred_correct`` and recall uses ``gold_found``.

    - precision = pred_correct / pred
    - recall = gold_found / gold
    - F1, F2 = F-beta of those (beta 1 and 2)
    - tp = gold_found, fn = gold - gold_found, fp = pred - pred_correct
    Empty denominators follow the module's convention (1.0 only when gold == pred == 0).
    """

    gold: int = 0
    pred: int = 0
    gold_found: int = 0
    pred_correct: int = 0

    def __add__(self, other: Counts) -> Counts:
        return add_fields(self, other)

    @property
    def empty(self) -> bool:
        return self.gold == 0 and self.pred == 0

    @property
    def tp(self) -> int:
        return self.gold_found

    @property
    def fp(self) -> int:
        return self.pred - self.pred_correct

    @property
    def fn(self) -> int:
        return self.gold - self.gold_found

    @property
    def precision(self) -> float:
        return safe_ratio(self.pred_correct, self.pred, both_sides_empty=self.empty)

    @property
    def recall(self) -> float:
        return safe_ratio(self.gold_found, self.gold, both_sides_empty=self.empty)

    def to_dict(self) -> dict[str, float | int]:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "f2": self.f2,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "gold": self.gold,
            "pred": self.pred,
        }


@dataclass(frozen=True, slots=True)
class InstanceCounts:
    """Gold PHI instances (spans) and how many predictions reach them.

    ``gold``: gold spans; ``pred``: predicted spans in the same row (used only for the empty-row
    convention); ``fully_contained``: gold spans whose every non-whitespace character is covered by
    the union of predicted spans (any label, possibly several spans; the BoB criterion);
    ``any_overlap``: gold spans sharing at least one character with a predicted span (any label).

    - recall_fully_contained = fully_contained / gold
    - recall_any_overlap = any_overlap / gold
    With no gold spans both are 1.0 if the row has no predictions either, else 0.0.
    """

    gold: int = 0
    pred: int = 0
    fully_contained: int = 0
    any_overlap: int = 0

    def __add__(self, other: InstanceCounts) -> InstanceCounts:
        return add_fields(self, other)

    @property
    def recall_fully_contained(self) -> float:
        return safe_ratio(self.fully_contained, self.gold, both_sides_empty=self.pred == 0)

    @property
    def recall_any_overlap(self) -> float:
        return safe_ratio(self.any_overlap, self.gold, both_sides_empty=self.pred == 0)

    def to_dict(self) -> dict[str, float | int]:
        return {
            "recall_fully_contained": self.recall_fully_contained,
            "recall_any_overlap": self.recall_any_overlap,
            "gold": self.gold,
            "pred": self.pred,
            "fully_contained": self.fully_contained,
            "any_overlap": self.any_overlap,
        }
