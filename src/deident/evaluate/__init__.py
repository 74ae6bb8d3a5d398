"""Evaluation of predicted PHI spans against gold spans: token, entity and instance metrics."""

from deident.evaluate.corpus import (
    HIPAA_LABELS,
    DocumentEvaluation,
    DocumentTally,
    EvaluationInputError,
    EvaluationReport,
    MacroScores,
    ViewCounts,
    ViewReport,
    evaluate_corpus,
    evaluate_document,
)
from deident.evaluate.counts import Counts, InstanceCounts, f_beta, safe_ratio
from deident.evaluate.metrics import Breakdown, TokenGrid
from deident.evaluate.report import render_report, report_tables

__all__ = [
    "HIPAA_LABELS",
    "Breakdown",
    "Counts",
    "DocumentEvaluation",
    "DocumentTally",
    "EvaluationInputError",
    "EvaluationReport",
    "InstanceCounts",
    "MacroScores",
    "TokenGrid",
    "ViewCounts",
    "ViewReport",
    "evaluate_corpus",
    "evaluate_document",
    "f_beta",
    "render_report",
    "report_tables",
    "safe_ratio",
]
