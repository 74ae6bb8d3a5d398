"""Confidence intervals by resampling patients (percentile bootstrap over groups of notes).

Notes of one patient share names, places and habits, so their errors are not independent: a
bootstrap over notes would give intervals that are too narrow. Whole patients are resampled with
replacement instead, and the binary-token recall and precision and the fully-contained instance
recall are recomputed from the summed counts of each resample. The seed is fixed, so the same
counts always give the same interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from deident.evaluate.counts import Counts, InstanceCounts

DEFAULT_RESAMPLES = 2000
DEFAULT_LEVEL = 0.95
_BLOCK = 100


@dataclass(frozen=True, slots=True)
class GroupCounts:
    """The counts of one group (a patient's notes) that the intervals are computed from."""

    binary_token: Counts
    instance: InstanceCounts

    def __add__(self, other: GroupCounts) -> GroupCounts:
        return GroupCounts(self.binary_token + other.binary_token, self.instance + other.instance)


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def as_list(self) -> list[float]:
        return [round(self.low, 4), round(self.high, 4)]


@dataclass(frozen=True, slots=True)
class BootstrapIntervals:
    """Percentile intervals of binary-token recall and precision and of fully-contained instance recall."""

    group_by: str
    groups: int
    resamples: int
    level: float
    seed: int
    recall: Interval
    precision: Interval
    fully_contained: Interval

    def to_dict(self) -> dict[str, Any]:
        return {
            "group_by": self.group_by,
            "groups": self.groups,
            "resamples": self.resamples,
            "level": self.level,
            "seed": self.seed,
            "binary_token_recall": self.recall.as_list(),
            "binary_token_precision": self.precision.as_list(),
            "instance_fully_contained": self.fully_contained.as_list(),
        }


def bootstrap_intervals(
    groups: Sequence[GroupCounts],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    level: float = DEFAULT_LEVEL,
    seed: int = 0,
    group_by: str = "patient",
) -> BootstrapIntervals:
    """Resample ``groups`` with replacement ``resamples`` times; the central ``level`` of each rate."""
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    if not 0.0 < level < 1.0:
        raise ValueError("level must be between 0 and 1")
    if not groups:
        empty = Interval(float("nan"), float("nan"))
        return BootstrapIntervals(group_by, 0, resamples, level, seed, empty, empty, empty)
    # One row per group: the numerators and denominators of the three rates (as Counts defines them).
    table = np.array(
        [
            (
                g.binary_token.gold_found,
                g.binary_token.gold,
                g.binary_token.pred_correct,
                g.binary_token.pred,
                g.instance.fully_contained,
                g.instance.gold,
            )
            for g in groups
        ],
        dtype=np.float64,
    )
    n = len(groups)
    rng = np.random.default_rng(seed)
    totals = np.empty((resamples, table.shape[1]))
    for first in range(0, resamples, _BLOCK):  # blocks bound memory on corpora of many patients
        size = min(_BLOCK, resamples - first)
        weights = rng.multinomial(n, np.full(n, 1.0 / n), size=size)
        totals[first : first + size] = weights @ table
    found, gold, correct, pred, contained, instances = totals.T
    tail = (1.0 - level) / 2.0

    def interval(numerator: np.ndarray, denominator: np.ndarray) -> Interval:
        # A resample with an empty denominator has no rate; the convention of the point estimate
        # (1.0 when nothing was there to find or to predict) applies.
        with np.errstate(invalid="ignore", divide="ignore"):
            rates = np.where(denominator > 0, numerator / np.maximum(denominator, 1.0), 1.0)
        low, high = np.quantile(rates, [tail, 1.0 - tail])
        return Interval(float(low), float(high))

    return BootstrapIntervals(
        group_by,
        n,
        resamples,
        level,
        seed,
        interval(found, gold),
        interval(correct, pred),
        interval(contained, instances),
    )
