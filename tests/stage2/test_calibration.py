from __future__ import annotations

import math

import pytest

from deident.core.labels import Label
from deident.core.span import Span
from deident.stage2.calibration import calibration_table, choose_threshold, expected_at, token_scores, with_choice

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
