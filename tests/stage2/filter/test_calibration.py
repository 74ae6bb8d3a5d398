from __future__ import annotations

import math

import pytest

from deident.core.labels import Label
from deident.core.span import Span
from deident.evaluate.counts import f_beta
from deident.stage2.filter.calibration import (
    F_BETA,
    calibration_table,
    choose_f_beta_threshold,
    choose_threshold,
    expected_at,
    per_group_thresholds,
    recall_precision_at,
    token_group_scores,
    token_scores,
    with_choice,
)

TABLE = {
    "level": "binary-token",
    "rows": [
        {"threshold": 0.1, "recall": 0.999, "precision": 0.80},
        {"threshold": 0.3, "recall": 0.995, "precision": 0.90},
        {"threshold": 0.5, "recall": 0.990, "precision": 0.93},
        {"threshold": 0.7, "recall": 0.970, "precision": 0.96},
        {"threshold": 0.9, "recall": 0.900, "precision": 0.99},
    ],
}


@pytest.mark.parametrize(
    ("target", "threshold"),
    [(0.99, 0.5), (0.995, 0.3), (0.95, 0.7), (0.8, 0.9), (0.999, 0.1), (0.9999, 0.1)],
)
def test_choose_threshold(target, threshold):
    assert choose_threshold(TABLE, target) == threshold


def test_expected_at_and_choice():
    assert expected_at(TABLE, 0.55)["precision"] == 0.93
    chosen = with_choice(TABLE, 0.99)["chosen"]
    assert chosen == {"recall_target": 0.99, "threshold": 0.5, "recall": 0.99, "precision": 0.93}


@pytest.mark.parametrize(
    ("rows", "threshold"),
    [
        # F2 weighs recall: 0.99/0.93 (F2 0.977) beats 0.97/0.96 (0.968) and 0.995/0.90 (0.974)
        ([(0.3, 0.995, 0.90), (0.5, 0.99, 0.93), (0.7, 0.97, 0.96)], 0.5),
        # a large precision gain for a small recall loss still wins
        ([(0.1, 0.999, 0.50), (0.4, 0.99, 0.95)], 0.4),
        # ties go to the lowest threshold (it keeps the most)
        ([(0.2, 0.98, 0.9), (0.6, 0.98, 0.9)], 0.2),
        # a table whose every row has no precision and no recall still answers
        ([(0.0, 0.0, 0.0), (0.5, 0.0, 0.0)], 0.0),
    ],
)
def test_choose_f_beta_threshold(rows, threshold):
    table = {"rows": [{"threshold": t, "recall": r, "precision": p} for t, r, p in rows]}
    assert choose_f_beta_threshold(table) == threshold


def test_the_f2_rule_weighs_recall_twice():
    # the evaluator's F-beta (precision, recall, beta), which the rule uses
    assert f_beta(1.0, 1.0, F_BETA) == 1.0 and f_beta(0.0, 0.0, F_BETA) == 0.0
    assert f_beta(0.6, 0.9, F_BETA) > f_beta(0.9, 0.6, F_BETA)
    assert f_beta(0.5, 0.8, 1.0) == pytest.approx(2 * 0.8 * 0.5 / 1.3)


def test_with_choice_without_a_target_takes_the_best_f2():
    chosen = with_choice(TABLE, None)["chosen"]
    assert chosen["recall_target"] is None and chosen["rule"] == "best F2"
    assert chosen["threshold"] == choose_f_beta_threshold(TABLE)


def test_calibration_table_counts_tokens():
    scores = [(0.9, True), (0.6, True), (-math.inf, True), (0.4, False), (0.95, False)]
    table = calibration_table(scores, thresholds=(0.0, 0.5, 0.92))
    rows = {r["threshold"]: r for r in table["rows"]}
    assert rows[0.0]["recall"] == pytest.approx(2 / 3) and rows[0.0]["precision"] == pytest.approx(2 / 4)
    assert rows[0.5]["tp"] == 2 and rows[0.5]["fp"] == 1
    assert rows[0.92]["tp"] == 0 and rows[0.92]["recall"] == 0.0
    assert table["n_gold"] == 3


def test_token_scores_use_max_probability_and_count_misses():
    text = "Seen by John Smith on 3/4 today"
    gold = [Span(8, 18, Label.DOCTOR), Span(22, 25, Label.DATE)]
    candidates = [Span(8, 12, Label.DOCTOR), Span(8, 18, Label.DOCTOR), Span(26, 31, Label.DATE)]
    scores = token_scores(text, gold, candidates, [0.9, 0.4, 0.2])
    assert sorted(scores) == sorted([(0.9, True), (0.4, True), (-math.inf, True), (0.2, False)])


def test_token_group_scores_keep_each_groups_best_probability():
    text = "Dr Qwer on 3/4 ok"
    gold = [Span(3, 7, Label.DOCTOR, "gold"), Span(11, 14, Label.DATE, "gold")]
    candidates = [
        Span(3, 7, Label.DOCTOR, "crf"),
        Span(3, 7, Label.DOCTOR, "lexicon.last"),
        Span(11, 14, Label.DATE, "patterns.date"),
        Span(15, 17, Label.CITY, "crf"),
    ]
    groups = ["names", "names", "numeric", "locations"]
    out = token_group_scores(text, gold, candidates, groups, [0.2, 0.6, None, 0.1])
    assert out == [({"names": 0.6}, True), ({"numeric": 1.0}, True), ({"locations": 0.1}, False)]


# (best probability per group, is gold) per token: numeric false positives score high, names low.
GROUP_TOKENS = [
    *[({"names": 0.9}, True)] * 8,
    ({"names": 0.3}, True),
    *[({"numeric": 0.9}, True)] * 8,
    *[({"numeric": 0.5}, False)] * 4,
    *[({"names": 0.2}, False)] * 2,
]


@pytest.mark.parametrize(
    ("thresholds", "recall", "precision"),
    [
        ({"names": 0.1, "numeric": 0.1}, 1.0, 17 / 23),
        ({"names": 0.25, "numeric": 0.6}, 1.0, 1.0),
        ({"names": 0.5, "numeric": 0.6}, 16 / 17, 1.0),
        ({}, 1.0, 17 / 23),  # a group without a threshold keeps everything
    ],
)
def test_recall_precision_at(thresholds, recall, precision):
    assert recall_precision_at(GROUP_TOKENS, thresholds) == pytest.approx((recall, precision))


def test_per_group_thresholds_drop_false_positives_without_losing_recall():
    grid = (0.1, 0.25, 0.4, 0.6, 0.95)
    chosen = per_group_thresholds(GROUP_TOKENS, ("names", "numeric"), 0.9, 0.1, grid)
    assert chosen == {"names": 0.25, "numeric": 0.6}
    # Recall never falls below what the global threshold kept, even when the target would allow it.
    assert recall_precision_at(GROUP_TOKENS, chosen)[0] == 1.0


def test_per_group_thresholds_leave_a_start_that_misses_the_target():
    chosen = per_group_thresholds(GROUP_TOKENS, ("names", "numeric"), 0.99, 0.95, (0.1, 0.95))
    assert chosen == {"names": 0.95, "numeric": 0.95}
