"""Patient-bootstrap intervals: deterministic, around the point estimate, honest about dependence."""

from __future__ import annotations

import pytest

from deident.evaluate.bootstrap import GroupCounts, bootstrap_intervals
from deident.evaluate.counts import Counts, InstanceCounts


def group(tp: int, fp: int, fn: int, gold: int | None = None, contained: int | None = None) -> GroupCounts:
    gold = tp + fn if gold is None else gold
    instances = InstanceCounts(gold=gold, fully_contained=tp if contained is None else contained)
    return GroupCounts(Counts(gold=tp + fn, pred=tp + fp, gold_found=tp, pred_correct=tp), instances)


def test_identical_patients_give_a_point_interval() -> None:
    ci = bootstrap_intervals([group(9, 1, 1)] * 20, resamples=200)
    assert (ci.recall.low, ci.recall.high) == (0.9, 0.9)
    assert (ci.precision.low, ci.precision.high) == (0.9, 0.9)
    assert ci.groups == 20 and ci.resamples == 200


def test_the_interval_holds_the_pooled_estimate_and_is_deterministic() -> None:
    groups = [group(10, 0, 0), group(5, 2, 5), group(8, 1, 2), group(10, 3, 0), group(3, 0, 7)] * 4
    first = bootstrap_intervals(groups, resamples=500, seed=3)
    assert first == bootstrap_intervals(groups, resamples=500, seed=3)
    recall = sum(g.binary_token.tp for g in groups) / sum(g.binary_token.tp + g.binary_token.fn for g in groups)
    assert first.recall.low < recall < first.recall.high
    assert 0.0 <= first.fully_contained.low <= first.fully_contained.high <= 1.0


def test_misses_concentrated_in_one_patient_widen_the_interval() -> None:
    # The same pooled recall (180/200): spread over every patient, or all in one patient's notes.
    spread = [group(9, 0, 1)] * 20
    clustered = [group(10, 0, 0)] * 18 + [group(0, 0, 10), group(0, 0, 10)]
    narrow = bootstrap_intervals(spread, resamples=500)
    wide = bootstrap_intervals(clustered, resamples=500)
    assert narrow.recall.high - narrow.recall.low < wide.recall.high - wide.recall.low


def test_no_groups_and_bad_settings() -> None:
    empty = bootstrap_intervals([], resamples=10)
    assert empty.groups == 0 and empty.recall.low != empty.recall.low  # nan: nothing to resample
    with pytest.raises(ValueError):
        bootstrap_intervals([group(1, 0, 0)], resamples=0)
    with pytest.raises(ValueError):
        bootstrap_intervals([group(1, 0, 0)], level=1.0)
