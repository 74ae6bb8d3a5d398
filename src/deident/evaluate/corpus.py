"""Evaluate predicted spans against gold spans over a corpus: document matching, views, totals.

Documents are matched by id. A gold document without a prediction counts as predicting nothing;
predictions for documents absent from the gold corpus are counted and ignored; a document whose
predicted text differs from its gold text is an error naming the document id (never its text).

Two views are computed:

- ``full``: every label;
- ``hipaa``: only HIPAA identifiers (``Label.is_hipaa``). CONDITIONAL labels (AGE, DATE, ZIP) are
  counted in full, an approximation: Safe Harbor requires only ages over 89, date elements other
  than the year and some ZIP digits, so the HIPAA figures cover more than the strict requirement.
  Label-agnostic metrics (binary token, instance) keep predictions of every label, since a removed
  token is removed whatever its label, and leave out of the binary count the tokens touched only by
  non-HIPAA gold spans. Label-sensitive metrics (typed token, entity) keep HIPAA labels on both sides.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from deident.core.document import AnnotatedDocument, patient_or_note
from deident.core.errors import DeidentError
from deident.core.labels import Category, Label
from deident.core.span import Span
from deident.evaluate.bootstrap import DEFAULT_LEVEL, BootstrapIntervals, GroupCounts, bootstrap_intervals
from deident.evaluate.counts import Counts, FScores, InstanceCounts, add_fields
from deident.evaluate.metrics import (
    NONE,
    Breakdown,
    TokenGrid,
    binary_token_counts,
    confusion_counts,
    entity_counts,
    instance_counts,
    typed_token_counts,
)
from deident.text.tokenize import whitespace_tokens

HIPAA_LABELS: frozenset[Label] = frozenset(label for label in Label if label.is_hipaa)
RELAXED_END_TOLERANCE = 2


class EvaluationInputError(DeidentError):
    """Gold and predicted corpora cannot be compared (duplicate ids, differing texts)."""


@dataclass(frozen=True, slots=True)
class ViewCounts:
    """Counts of every metric in one view, for one document or summed over a corpus."""

    binary_token: Breakdown[Counts]
    typed_token: Breakdown[Counts]
    entity_strict: Breakdown[Counts]
    entity_relaxed: Breakdown[Counts]
    instance: Breakdown[InstanceCounts]

    def __add__(self, other: ViewCounts) -> ViewCounts:
        return add_fields(self, other)


def _empty_view() -> ViewCounts:
    return ViewCounts(
        Breakdown(Counts()), Breakdown(Counts()), Breakdown(Counts()), Breakdown(Counts()), Breakdown(InstanceCounts())
    )


@dataclass(frozen=True, slots=True)
class DocumentEvaluation:
    """Counts for one document in both views, and its confusion of types (full view)."""

    tokens: int
    full: ViewCounts
    hipaa: ViewCounts
    confusion: Counter[tuple[str, str]]


def evaluate_document(
    text: str, gold: Sequence[Span], pred: Sequence[Span], *, relaxed_end_tolerance: int = RELAXED_END_TOLERANCE
) -> DocumentEvaluation:
    """Count every metric for one document (see deident.evaluate.metrics for the definitions)."""
    grid = TokenGrid.of(whitespace_tokens(text))
    full = ViewCounts(
        binary_token_counts(grid, gold, pred),
        typed_token_counts(grid, gold, pred),
        entity_counts(gold, pred, 0),
        entity_counts(gold, pred, relaxed_end_tolerance),
        instance_counts(text, gold, pred),
    )
    gold_h = [s for s in gold if s.label in HIPAA_LABELS]
    gold_other = [s for s in gold if s.label not in HIPAA_LABELS]
    pred_h = [s for s in pred if s.label in HIPAA_LABELS]
    hipaa = ViewCounts(
        binary_token_counts(grid, gold_h, pred, ignored_gold=gold_other, row_labels=HIPAA_LABELS),
        typed_token_counts(grid, gold_h, pred_h),
        entity_counts(gold_h, pred_h, 0),
        entity_counts(gold_h, pred_h, relaxed_end_tolerance),
        instance_counts(text, gold_h, pred, row_labels=HIPAA_LABELS),
    )
    return DocumentEvaluation(len(grid), full, hipaa, confusion_counts(gold, pred))


@dataclass(frozen=True, slots=True)
class MacroScores(FScores):
    """Macro average over documents, as in the i2b2 2014 evaluation script.

    precision and recall are the means over the evaluated (gold) documents of each document's
    precision and recall; ``*_sd`` are their population standard deviations; F1 and F2 are computed
    from the mean precision and mean recall. Unlike the i2b2 script (which scores a document with
    an empty denominator 0.0), a document follows deident's convention: 1.0 when it has neither gold
    nor predicted spans, else 0.0 for the empty ratio.
    """

    precision: float = 1.0
    recall: float = 1.0
    precision_sd: float = 0.0
    recall_sd: float = 0.0
    documents: int = 0

    @classmethod
    def of(cls, per_document: Sequence[Counts]) -> MacroScores:
        if not per_document:
            return cls()
        precisions = [c.precision for c in per_document]
        recalls = [c.recall for c in per_document]
        return cls(_mean(precisions), _mean(recalls), _sd(precisions), _sd(recalls), len(per_document))

    def to_dict(self) -> dict[str, float | int]:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "f2": self.f2,
            "precision_sd": self.precision_sd,
            "recall_sd": self.recall_sd,
            "documents": self.documents,
        }


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _sd(values: Sequence[float]) -> float:
    mean = _mean(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))


@dataclass(frozen=True, slots=True)
class ViewReport:
    """Corpus totals of one view (``"full"`` or ``"hipaa"``) plus the entity macro averages."""

    name: str
    counts: ViewCounts
    entity_strict_macro: MacroScores
    entity_relaxed_macro: MacroScores

    def to_dict(self) -> dict[str, Any]:
        c = self.counts
        return {
            "binary_token": _breakdown_dict(c.binary_token),
            "typed_token": _breakdown_dict(c.typed_token),
            "entity": {
                "strict": {"micro": _breakdown_dict(c.entity_strict), "macro": self.entity_strict_macro.to_dict()},
                "relaxed": {"micro": _breakdown_dict(c.entity_relaxed), "macro": self.entity_relaxed_macro.to_dict()},
            },
            "instance": _breakdown_dict(c.instance),
        }


def _breakdown_dict(breakdown: Breakdown[Counts] | Breakdown[InstanceCounts]) -> dict[str, Any]:
    """The overall row's figures at top level, then rows per category and per label (enum order)."""
    return {
        **breakdown.overall.to_dict(),
        "by_category": {
            cat.value: breakdown.by_category[cat].to_dict() for cat in Category if cat in breakdown.by_category
        },
        "by_label": {
            label.value: breakdown.by_label[label].to_dict() for label in Label if label in breakdown.by_label
        },
    }


@dataclass(frozen=True, slots=True)
class DocumentTally:
    """How the gold and predicted corpora matched up."""

    gold: int = 0
    predicted: int = 0  # gold documents that have a prediction
    missing_predictions: int = 0  # gold documents without one (evaluated as predicting nothing)
    unknown_predictions: int = 0  # predicted documents absent from gold (ignored)
    tokens: int = 0
    gold_spans: int = 0
    pred_spans: int = 0

    def to_dict(self) -> dict[str, int]:
        return {
            "gold": self.gold,
            "predicted": self.predicted,
            "missing_predictions": self.missing_predictions,
            "unknown_predictions": self.unknown_predictions,
            "tokens": self.tokens,
            "gold_spans": self.gold_spans,
            "pred_spans": self.pred_spans,
        }


@dataclass(frozen=True, slots=True)
class EvaluationReport:
    """Everything ``deident evaluate`` reports; :meth:`to_dict` gives the JSON form."""

    documents: DocumentTally
    full: ViewReport
    hipaa: ViewReport
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    relaxed_end_tolerance: int = RELAXED_END_TOLERANCE
    # Patient-bootstrap intervals of the full view's headline rates (None: not asked for).
    intervals: BootstrapIntervals | None = None

    def view(self, hipaa_only: bool = False) -> ViewReport:
        return self.hipaa if hipaa_only else self.full

    def confusion_labels(self) -> list[str]:
        """Labels occurring in the confusion matrix (enum order), then "none"."""
        seen = {label for pair in self.confusion for label in pair}
        return [label.value for label in Label if label.value in seen] + [NONE]

    def to_dict(self, *, hipaa_only: bool = False) -> dict[str, Any]:
        """JSON-ready report: the full view's metrics at top level, the HIPAA view under "hipaa".

        With ``hipaa_only`` the HIPAA view's metrics are at top level instead (and "view" says so).
        """
        labels = self.confusion_labels()
        out: dict[str, Any] = {
            "view": "hipaa" if hipaa_only else "full",
            "documents": self.documents.to_dict(),
            **self.view(hipaa_only).to_dict(),
        }
        if not hipaa_only:
            out["hipaa"] = self.hipaa.to_dict()
            out["confusion"] = {
                "labels": labels,
                "matrix": {g: {p: self.confusion[g, p] for p in labels if self.confusion[g, p]} for g in labels},
            }
        if self.intervals is not None and not hipaa_only:
            out["bootstrap"] = self.intervals.to_dict()
        out["settings"] = {
            "relaxed_end_tolerance": self.relaxed_end_tolerance,
            "zero_division": "1.0 when a row has neither gold nor predicted units, else 0.0",
        }
        return out


def evaluate_corpus(
    gold: Sequence[AnnotatedDocument],
    pred: Sequence[AnnotatedDocument],
    *,
    relaxed_end_tolerance: int = RELAXED_END_TOLERANCE,
    bootstrap: int = 0,
    level: float = DEFAULT_LEVEL,
    seed: int = 0,
) -> EvaluationReport:
    """Compare predicted with gold spans over the gold documents (matched by id).

    With ``bootstrap`` resamples, the report also holds ``level`` intervals of the binary-token recall
    and precision and the fully-contained instance recall, resampling whole patients (a note without
    a patient id is a patient of its own): see :mod:`deident.evaluate.bootstrap`.
    """
    pred_by_id = _index(pred, "predictions")
    gold_ids = set(_index(gold, "gold corpus"))
    unknown = sum(1 for doc_id in pred_by_id if doc_id not in gold_ids)

    full, hipaa = _empty_view(), _empty_view()
    strict_docs: list[Counts] = []
    relaxed_docs: list[Counts] = []
    strict_docs_h: list[Counts] = []
    relaxed_docs_h: list[Counts] = []
    confusion: Counter[tuple[str, str]] = Counter()
    predicted = tokens = gold_spans = pred_spans = 0
    by_patient: dict[str, GroupCounts] = {}
    for gold_doc in gold:
        pred_doc = pred_by_id.get(gold_doc.id)
        pred_spans_doc: tuple[Span, ...] = ()
        if pred_doc is not None:
            if pred_doc.text != gold_doc.text:
                raise EvaluationInputError(
                    f"document {gold_doc.id!r}: predicted text differs from the gold text "
                    f"({len(pred_doc.text)} vs {len(gold_doc.text)} characters)"
                )
            predicted += 1
            pred_spans_doc = pred_doc.spans
        result = evaluate_document(
            gold_doc.text, gold_doc.spans, pred_spans_doc, relaxed_end_tolerance=relaxed_end_tolerance
        )
        full += result.full
        hipaa += result.hipaa
        patient = patient_or_note(gold_doc.document)
        counts = GroupCounts(result.full.binary_token.overall, result.full.instance.overall)
        by_patient[patient] = by_patient[patient] + counts if patient in by_patient else counts
        strict_docs.append(result.full.entity_strict.overall)
        relaxed_docs.append(result.full.entity_relaxed.overall)
        strict_docs_h.append(result.hipaa.entity_strict.overall)
        relaxed_docs_h.append(result.hipaa.entity_relaxed.overall)
        confusion.update(result.confusion)
        tokens += result.tokens
        gold_spans += len(set(gold_doc.spans))
        pred_spans += len(set(pred_spans_doc))

    tally = DocumentTally(
        gold=len(gold),
        predicted=predicted,
        missing_predictions=len(gold) - predicted,
        unknown_predictions=unknown,
        tokens=tokens,
        gold_spans=gold_spans,
        pred_spans=pred_spans,
    )
    return EvaluationReport(
        tally,
        ViewReport("full", full, MacroScores.of(strict_docs), MacroScores.of(relaxed_docs)),
        ViewReport("hipaa", hipaa, MacroScores.of(strict_docs_h), MacroScores.of(relaxed_docs_h)),
        confusion,
        relaxed_end_tolerance,
        bootstrap_intervals(list(by_patient.values()), resamples=bootstrap, level=level, seed=seed)
        if bootstrap
        else None,
    )


def _index(docs: Sequence[AnnotatedDocument], what: str) -> dict[str, AnnotatedDocument]:
    out: dict[str, AnnotatedDocument] = {}
    for position, doc in enumerate(docs, start=1):
        if doc.id in out:  # the id is not quoted: ids are often MRNs
            raise EvaluationInputError(f"document {position} of the {what} repeats an earlier document's id")
        out[doc.id] = doc
    return out
