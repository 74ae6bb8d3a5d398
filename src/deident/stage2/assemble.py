"""Assembling stage 2 behind a stage-1 pipeline: union -> filter -> trusted phrases -> reconciliation.

Each part can be switched off for ablations. Per-note stages only see one note; for patient-level
features and reconciliation across a patient's notes use :func:`run_stage2_many`.
"""

from __future__ import annotations

from collections.abc import Sequence

from deident.core.document import Document
from deident.core.pipeline import Pipeline, Stage
from deident.core.span import Span
from deident.stage2.reconcile import ReconcileOptions, ReconcileStage, reconcile_documents
from deident.stage2.span_classifier import SpanFilter, SpanFilterStage, filter_documents
from deident.stage2.trusted_phrases import TrustedPhraseStage
from deident.stage2.union import UnionStage, union_candidates


def stage2_stages(
    span_filter: SpanFilter | None,
    *,
    use_filter: bool = True,
    trusted: bool = True,
    reconcile: bool = True,
    reconcile_options: ReconcileOptions | None = None,
) -> tuple[Stage, ...]:
    """The stage-2 stages to append to stage 1 (``span_filter`` None or ``use_filter`` False: no filter)."""
    stages: list[Stage] = [UnionStage()]
    if use_filter and span_filter is not None:
        stages.append(SpanFilterStage(span_filter))
    if trusted:
        stages.append(TrustedPhraseStage())
    if reconcile:
        stages.append(ReconcileStage(reconcile_options or ReconcileOptions()))
    return tuple(stages)


def stage2_pipeline(
    stage1: Pipeline,
    span_filter: SpanFilter | None,
    *,
    use_filter: bool = True,
    trusted: bool = True,
    reconcile: bool = True,
    name: str = "default",
) -> Pipeline:
    """``stage1``'s stages followed by :func:`stage2_stages`."""
    extra = stage2_stages(span_filter, use_filter=use_filter, trusted=trusted, reconcile=reconcile)
    return Pipeline((*stage1.stages, *extra), name)


def run_stage2_many(
    stage1: Pipeline,
    documents: Sequence[Document],
    span_filter: SpanFilter | None,
    *,
    use_filter: bool = True,
    trusted: bool = True,
    reconcile: bool = True,
    reconcile_options: ReconcileOptions | None = None,
) -> list[tuple[Span, ...]]:
    """Run stage 1 and stage 2 over notes processed together (same-patient features and propagation)."""
    candidates = [union_candidates(stage1(doc)) for doc in documents]
    if use_filter and span_filter is not None:
        candidates = filter_documents(span_filter, documents, candidates)
    if trusted:
        harvest = TrustedPhraseStage()
        candidates = [harvest(doc, spans) for doc, spans in zip(documents, candidates, strict=True)]
    if reconcile:
        candidates = reconcile_documents(documents, candidates, reconcile_options)
    return candidates
