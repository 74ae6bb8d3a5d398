"""Cross-validating the whole default pipeline (``deident cv --pipeline default``), with its ablation.

For each of K folds (grouped by patient: no patient's notes on both sides) the default pipeline is trained on the
other folds' notes (:func:`deident.model.train_pipeline.train_pipeline_model`: the CRF, the span filter on the
out-of-fold candidates of its own inner folds, the calibration) and run on the fold's notes, each patient's notes
together as ``detect``/``run`` do. The rows of the ablation add one part at a time:

- ``rules``: the pattern and dictionary detectors with the veto (:func:`deident.pipelines.rules_pipeline`);
- ``CRF``: the CRF alone at its threshold (:func:`deident.pipelines.crf_pipeline`);
- ``stage 1``: rules and the CRF at the candidate threshold, the veto (:func:`deident.pipelines.stage1_pipeline`);
- ``stage 1 + filter``: the union and the span filter at its calibrated operating point, nothing after it;
- ``stage 1 + filter + reconciliation``: the default pipeline with name completion and reconciliation across each
  patient's notes (trusted phrases as the model says).

Figures (binary token P/R/F1/F2, fully contained and any-overlap instance recall) are pooled over the folds' notes
and given per fold; the filter's threshold sweep (stage 1 + filter at each threshold) gives the precision-recall
curve. Stage 1 runs once per fold: the rows after it reuse its spans.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deident.core.document import AnnotatedDocument, Document, patient_groups, patient_or_note
from deident.core.pipeline import FunctionStage, Pipeline
from deident.core.span import Span
from deident.detect.crf.features import SpanProvider
from deident.detect.crf.train import patient_folds
from deident.evaluate import evaluate_corpus
from deident.model.bundle import ModelBundle
from deident.model.train_pipeline import PipelineTrainConfig, train_pipeline_model
from deident.pipelines import CANDIDATE_THRESHOLD, crf_pipeline, default_pipeline, rules_pipeline, stage1_pipeline

Progress = Callable[[str], None]

ROWS = ("rules", "CRF", "stage 1", "stage 1 + filter", "stage 1 + filter + reconciliation")
# Span filter thresholds of the precision-recall sweep (probability that a candidate is PHI).
FILTER_SWEEP = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9)
_FILTER_ONLY = {"filter": True, "trusted_phrases": False, "reconcile": False, "name_completion": False}
_WITH_RECONCILIATION = {"filter": True, "reconcile": True}


def _quiet(message: str) -> None:
    del message


@dataclass(frozen=True)
class PipelineCvResult:
    """Pooled and per-fold figures of every ablation row, and the filter's pooled threshold sweep."""

    pooled: dict[str, dict[str, float]]
    folds: list[dict[str, Any]]
    sweep: list[dict[str, float]]
    group_by: str

    def as_dict(self) -> dict[str, Any]:
        return {"group_by": self.group_by, "pooled": self.pooled, "folds": self.folds, "filter_sweep": self.sweep}


def figures(gold: Sequence[AnnotatedDocument], predicted: Sequence[Sequence[Span]]) -> dict[str, float]:
    """Binary token P/R/F1/F2 and instance recall of ``predicted`` (one span tuple per gold note)."""
    report = evaluate_corpus(gold, [d.with_spans(tuple(s)) for d, s in zip(gold, predicted, strict=True)]).to_dict()
    token, instance = report["binary_token"], report["instance"]
    return {
        "precision": round(token["precision"], 4),
        "recall": round(token["recall"], 4),
        "f1": round(token["f1"], 4),
        "f2": round(token["f2"], 4),
        "recall_fully_contained": round(instance["recall_fully_contained"], 4),
        "recall_any_overlap": round(instance["recall_any_overlap"], 4),
    }


def run_by_patient(pipeline: Pipeline, documents: Sequence[Document]) -> list[tuple[Span, ...]]:
    """The pipeline over the notes, each patient's notes together (as ``detect`` and ``run`` chunk them)."""
    out: list[tuple[Span, ...]] = [() for _ in documents]
    for group in patient_groups(documents, patient_or_note):
        for i, spans in zip(group, pipeline.run_many([documents[i] for i in group]), strict=True):
            out[i] = spans
    return out


def _after_stage1(full: Pipeline, stage1: Pipeline, found: dict[str, tuple[Span, ...]]) -> Pipeline:
    """``full`` (a default pipeline) with its stage-1 stages replaced by the spans stage 1 already found."""
    head = full.stages[: len(stage1.stages)]
    if tuple(s.name for s in head) != stage1.stage_names:
        raise AssertionError("the default pipeline no longer starts with stage 1")
    given = FunctionStage("stage1", lambda document, _spans: found[document.id])
    return Pipeline((given, *full.stages[len(stage1.stages) :]), full.name)


def fold_predictions(
    bundle: ModelBundle, scheme: str, documents: Sequence[Document], sweep: Sequence[float] = FILTER_SWEEP
) -> tuple[dict[str, list[tuple[Span, ...]]], dict[float, list[tuple[Span, ...]]]]:
    """Each ablation row's spans of ``documents``, and stage 1 + filter's at each threshold of ``sweep``."""
    trained = bundle.stage2.candidate_threshold
    stage1 = stage1_pipeline(bundle, scheme, CANDIDATE_THRESHOLD if trained is None else trained)
    candidates = run_by_patient(stage1, documents)
    found = {d.id: s for d, s in zip(documents, candidates, strict=True)}

    def stage2(parts: dict[str, bool], thresholds: float | None = None) -> list[tuple[Span, ...]]:
        full = default_pipeline(bundle, scheme, stage2=parts, filter_thresholds=thresholds)
        return run_by_patient(_after_stage1(full, stage1, found), documents)

    rows = {
        "rules": run_by_patient(rules_pipeline(scheme), documents),
        "CRF": run_by_patient(crf_pipeline(bundle, scheme), documents),
        "stage 1": candidates,
        "stage 1 + filter": stage2(_FILTER_ONLY),
        "stage 1 + filter + reconciliation": stage2(_WITH_RECONCILIATION),
    }
    return rows, {t: stage2(_FILTER_ONLY, t) for t in sweep}


def cross_validate_pipeline(
    docs: Sequence[AnnotatedDocument],
    folds: int = 5,
    group_by: str = "patient",
    config: PipelineTrainConfig | None = None,
    providers: Sequence[SpanProvider] = (),
    progress: Progress = _quiet,
    work_dir: str | Path | None = None,
    sweep: Sequence[float] = FILTER_SWEEP,
    jobs: int = 1,
) -> PipelineCvResult:
    """Train the default pipeline on K-1 folds, run its ablation rows on the held-out fold; pool over the folds.
    ``jobs``: processes training each fold's CRFs (see :func:`train_pipeline_model`)."""
    config = config or PipelineTrainConfig()
    assignment = patient_folds(docs, folds, group_by)
    pooled_gold: list[AnnotatedDocument] = []
    pooled: dict[str, list[tuple[Span, ...]]] = {row: [] for row in ROWS}
    pooled_sweep: dict[float, list[tuple[Span, ...]]] = {t: [] for t in sweep}
    per_fold: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="deident-cv-", dir=work_dir) as work:
        for k, test_idx in enumerate(assignment):
            held = set(test_idx)
            train = [d for i, d in enumerate(docs) if i not in held]
            test = [docs[i] for i in test_idx]
            progress(f"fold {k + 1}/{folds}: training the default pipeline on {len(train)} notes")
            fold_dir = Path(work) / f"fold{k + 1}"
            train_pipeline_model(train, fold_dir, config, providers=providers, progress=progress, jobs=jobs)
            progress(f"fold {k + 1}/{folds}: running the ablation on {len(test)} notes")
            rows, swept = fold_predictions(ModelBundle.read(fold_dir), config.scheme, [d.document for d in test], sweep)
            per_fold.append(
                {
                    "fold": k + 1,
                    "notes": len(test),
                    "patients": len({patient_or_note(d.document) for d in test}),
                    "rows": {row: figures(test, rows[row]) for row in ROWS},
                }
            )
            pooled_gold.extend(test)
            for row in ROWS:
                pooled[row].extend(rows[row])
            for t in sweep:
                pooled_sweep[t].extend(swept[t])
    return PipelineCvResult(
        {row: figures(pooled_gold, pooled[row]) for row in ROWS},
        per_fold,
        [{"threshold": t, **figures(pooled_gold, pooled_sweep[t])} for t in sweep],
        group_by,
    )
