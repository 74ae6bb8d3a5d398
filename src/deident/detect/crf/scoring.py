"""Figures for training and cross-validation: the evaluator's when it is installed, else a small
binary token-level fallback (whitespace tokens; a token is PHI when any span overlaps it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deident.core.document import AnnotatedDocument
from deident.core.span import Span
from deident.text.tokenize import whitespace_tokens


def _binary_counts(gold: AnnotatedDocument, predicted: Sequence[Span]) -> tuple[int, int, int]:
    def marks(spans: Sequence[Span], bounds: list[tuple[int, int]]) -> list[bool]:
        out = [False] * len(bounds)
        ordered = sorted((s.start, s.end) for s in spans)
        j = 0
        for i, (start, end) in enumerate(bounds):
            while j < len(ordered) and ordered[j][1] <= start:
                j += 1
            k = j
            while k < len(ordered) and ordered[k][0] < end:
                if ordered[k][1] > start:
                    out[i] = True
                    break
                k += 1
        return out

    bounds = whitespace_tokens(gold.text)
    truth = marks(gold.spans, bounds)
    guess = marks(predicted, bounds)
    tp = sum(1 for t, g in zip(truth, guess, strict=True) if t and g)
    return tp, sum(guess) - tp, sum(truth) - tp


def binary_token_scores(gold: Sequence[AnnotatedDocument], predicted: Sequence[Sequence[Span]]) -> dict[str, float]:
    """Binary (PHI or not) token-level precision, recall, F1 and F2 pooled over documents."""
    tp = fp = fn = 0
    for doc, spans in zip(gold, predicted, strict=True):
        a, b, c = _binary_counts(doc, spans)
        tp, fp, fn = tp + a, fp + b, fn + c
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0

    def f(beta: float) -> float:
        denom = beta * beta * precision + recall
        return (1 + beta * beta) * precision * recall / denom if denom else 0.0

    return {"precision": precision, "recall": recall, "f1": f(1.0), "f2": f(2.0), "tp": tp, "fp": fp, "fn": fn}


def evaluate(gold: Sequence[AnnotatedDocument], predicted: Sequence[Sequence[Span]]) -> dict[str, Any]:
    """``{"binary_token": {...}, ...}``: deident.evaluate's figures if available, else the fallback."""
    try:
        from deident.evaluate import evaluate_corpus
    except ImportError:
        return {"binary_token": binary_token_scores(gold, predicted), "evaluator": "crf-fallback"}
    pred_docs = [AnnotatedDocument(doc.document, tuple(spans)) for doc, spans in zip(gold, predicted, strict=True)]
    result = evaluate_corpus(gold, pred_docs).to_dict()
    result["evaluator"] = "deident.evaluate"
    return result
