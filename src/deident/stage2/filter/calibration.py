"""Recall targeting: threshold -> expected recall and precision, from out-of-fold probabilities.

Level: **binary token** (the evaluator's unit: whitespace-separated tokens, PHI vs not PHI). A token
is *gold* when it shares a non-whitespace character with a gold span; its score is the highest filter
probability among the candidates overlapping it (1.0 for a candidate whose group has no model). A gold
token that no candidate touches keeps score ``-inf``, so stage-1 misses count against recall. At
threshold ``t`` a token is predicted PHI when its score >= t:
``recall = gold tokens predicted / gold tokens``, ``precision = gold tokens predicted / tokens predicted``.
Reconciliation (which only adds spans) is not included, so the table is conservative on recall.

The table is JSON-ready (a dict of lists and numbers) for a model manifest.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from typing import Any

from deident.core.span import Span
from deident.text.tokenize import whitespace_tokens

LEVEL = "binary-token"
F_BETA = 2.0  # recall counts twice precision: a missed name is a breach, an extra redaction a loss
DEFAULT_THRESHOLDS: tuple[float, ...] = (
    0.0, 0.001, 0.002, 0.005, *(round(i / 100, 2) for i in range(1, 100)), 0.995, 0.999,
)  # fmt: skip


def token_scores(
    text: str, gold: Sequence[Span], candidates: Sequence[Span], probabilities: Sequence[float | None]
) -> list[tuple[float, bool]]:
    """(score, is_gold) for each whitespace token that is gold or touched by a candidate."""
    out: list[tuple[float, bool]] = []
    for start, end in whitespace_tokens(text):

        def touches(s: Span, start: int = start, end: int = end) -> bool:
            lo, hi = max(s.start, start), min(s.end, end)
            return lo < hi and bool(text[lo:hi].strip())

        is_gold = any(touches(g) for g in gold)
        score = -math.inf
        for span, p in zip(candidates, probabilities, strict=True):
            if touches(span):
                score = max(score, 1.0 if p is None else p)
        if is_gold or score > -math.inf:
            out.append((score, is_gold))
    return out


def calibration_table(
    scores: Sequence[tuple[float, bool]], thresholds: Sequence[float] = DEFAULT_THRESHOLDS
) -> dict[str, Any]:
    """Expected recall and precision at each threshold (see the module docstring)."""
    gold = sorted(s for s, g in scores if g)
    other = sorted(s for s, g in scores if not g)
    rows = []
    for t in sorted(set(thresholds)):
        tp = len(gold) - bisect.bisect_left(gold, t)
        fp = len(other) - bisect.bisect_left(other, t)
        fn = len(gold) - tp
        rows.append(
            {
                "threshold": t,
                "recall": tp / len(gold) if gold else 1.0,
                "precision": tp / (tp + fp) if tp + fp else 1.0,
                "tp": tp,
                "fp": fp,
                "fn": fn,
            }
        )
    return {"level": LEVEL, "unit": "whitespace token", "n_gold": len(gold), "n_other": len(other), "rows": rows}


def choose_threshold(table: Mapping[str, Any], recall_target: float = 0.99) -> float:
    """The highest threshold whose expected recall reaches ``recall_target``.

    When no row reaches it, the threshold with the highest recall (the lowest threshold) is returned;
    :func:`expected_at` then tells the recall actually expected.
    """
    rows = sorted(table["rows"], key=lambda r: r["threshold"])
    if not rows:
        raise ValueError("empty calibration table")
    meeting = [r for r in rows if r["recall"] >= recall_target]
    if meeting:
        return float(meeting[-1]["threshold"])
    best = max(r["recall"] for r in rows)
    return float(min(r["threshold"] for r in rows if r["recall"] == best))


def expected_at(table: Mapping[str, Any], threshold: float) -> dict[str, Any]:
    """The row of the highest tabulated threshold <= ``threshold`` (the first row if none)."""
    rows = sorted(table["rows"], key=lambda r: r["threshold"])
    below = [r for r in rows if r["threshold"] <= threshold]
    return dict(below[-1] if below else rows[0])


def choose_f_beta_threshold(table: Mapping[str, Any], beta: float = F_BETA) -> float:
    """The threshold with the best F-beta (recall weighted ``beta`` times precision); ties go to the lowest
    threshold, the one that keeps the most. Needs no recall target, so a model's operating point can be chosen
    on its own training data (out-of-fold) rather than on notes kept for evaluation (F2: Ferrández 2012)."""
    from deident.evaluate.counts import f_beta  # a training-time rule: loading a model imports no evaluate module

    rows = sorted(table["rows"], key=lambda r: r["threshold"])
    if not rows:
        raise ValueError("empty calibration table")
    return float(max(rows, key=lambda r: (f_beta(r["precision"], r["recall"], beta), -r["threshold"]))["threshold"])


def with_choice(table: Mapping[str, Any], recall_target: float | None) -> dict[str, Any]:
    """The table plus a ``chosen`` entry: the rule (a recall target, or the best F2 when it is None), the
    threshold and the expected recall/precision there."""
    threshold = choose_threshold(table, recall_target) if recall_target is not None else choose_f_beta_threshold(table)
    row = expected_at(table, threshold)
    chosen = {
        "recall_target": recall_target,
        **({} if recall_target is not None else {"rule": f"best F{F_BETA:g}"}),
        "threshold": threshold,
        "recall": row["recall"],
        "precision": row["precision"],
    }
    return {**table, "chosen": chosen}


def token_group_scores(
    text: str,
    gold: Sequence[Span],
    candidates: Sequence[Span],
    groups: Sequence[str],
    probabilities: Sequence[float | None],
) -> list[tuple[dict[str, float], bool]]:
    """Like :func:`token_scores`, but keeps each group's best probability per token (``groups[i]`` is
    the filter group of ``candidates[i]``), so that per-group thresholds can be tried."""
    out: list[tuple[dict[str, float], bool]] = []
    for start, end in whitespace_tokens(text):

        def touches(s: Span, start: int = start, end: int = end) -> bool:
            lo, hi = max(s.start, start), min(s.end, end)
            return lo < hi and bool(text[lo:hi].strip())

        is_gold = any(touches(g) for g in gold)
        best: dict[str, float] = {}
        for span, group, p in zip(candidates, groups, probabilities, strict=True):
            if touches(span):
                best[group] = max(best.get(group, -math.inf), 1.0 if p is None else p)
        if is_gold or best:
            out.append((best, is_gold))
    return out


def recall_precision_at(
    tokens: Sequence[tuple[Mapping[str, float], bool]], thresholds: Mapping[str, float]
) -> tuple[float, float]:
    """Token recall and precision when a token is PHI if any group's score reaches its threshold."""
    n_gold = tp = fp = 0
    for best, is_gold in tokens:
        hit = any(p >= thresholds.get(g, 0.0) for g, p in best.items())
        n_gold += is_gold
        tp += hit and is_gold
        fp += hit and not is_gold
    return (tp / n_gold if n_gold else 1.0), (tp / (tp + fp) if tp + fp else 1.0)


def per_group_thresholds(
    tokens: Sequence[tuple[Mapping[str, float], bool]],
    groups: Sequence[str],
    recall_target: float,
    start: float,
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
    rounds: int = 2,
) -> dict[str, float]:
    """Coordinate ascent from the global threshold ``start``: each group's threshold in turn moves to the
    tabulated value with the best precision that keeps every gold token ``start`` keeps (ties keep the
    current value). Recall on ``tokens`` never drops (a looser rule, recall >= ``recall_target``, overfit
    the few gold tokens of slack and lost recall in outer cross-validation); nothing moves when ``start``
    misses ``recall_target``."""
    chosen = dict.fromkeys(groups, start)
    floor, precision = recall_precision_at(tokens, chosen)
    if floor < recall_target:
        return chosen
    for _ in range(rounds):
        changed = False
        for group in groups:
            for t in sorted(set(thresholds)):
                trial = {**chosen, group: t}
                r, p = recall_precision_at(tokens, trial)
                if r >= floor and p > precision:
                    chosen, precision, changed = trial, p, True
        if not changed:
            break
    return chosen
