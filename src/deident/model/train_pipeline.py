"""Training everything the default pipeline needs into one model directory (BoB's two stages).

1. The CRF(s) on the training notes (plus the re-identified and synthetic mixture, and EasyAdapt source notes when
   given): :func:`deident.detect.crf.train.train_model`.
2. Out-of-fold stage-1 candidates: for each of K patient-grouped folds a CRF is trained without that fold's
   patients (same settings and mixture, the mixture built from the other folds only) and stage 1 (rules, that CRF
   at the candidate threshold, the veto, the scheme) runs on the fold's notes; the span filter so learns the
   errors stage 1 makes on patients it has not seen.
3. The span filter fitted on those candidates, its thresholds calibrated by cross-validation over the same folds
   for ``filter_recall_target`` (:func:`deident.stage2.filter.training.fit_span_filter`), written beside the CRF
   with the calibration table, and the manifest turned into a default-pipeline model (kind ``default``, scheme,
   candidate threshold, stage-2 switches), which every path (CLI, API, REST, Spark) loads with ``--model``.

The calibration is measured on the training notes, so the operating point such a model states is an estimate on
them; measure it on held-out notes with ``bench/held_out_estimate.py`` (which stores it in the model) or
``deident evaluate --bootstrap``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import ConfigurationError
from deident.core.span import Span
from deident.detect.crf.features import SpanProvider
from deident.detect.crf.mixture import Mixture, build_mixture
from deident.detect.crf.train import TrainConfig, train_model
from deident.model.bundle import BundleKind, ModelBundle
from deident.model.manifest import read_manifest, write_manifest
from deident.pipelines import CANDIDATE_THRESHOLD, stage1_pipeline
from deident.stage2.filter.span_classifier import save_filter
from deident.stage2.filter.training import (
    OutOfFoldCandidates,
    fit_span_filter,
    out_of_fold_candidates,
    patient_key,
)

Progress = Callable[[str], None]


def _quiet(message: str) -> None:
    del message


@dataclass(frozen=True)
class PipelineTrainConfig:
    """How to train a default-pipeline model (the CRF's own settings are ``crf``)."""

    crf: TrainConfig = field(default_factory=TrainConfig)
    scheme: str = "i2b2-2014"  # the convention stage 1 is cut to before the filter: the model's training scheme
    folds: int = 5
    filter_recall_target: float = 0.99
    patient_context: bool = True
    kind: str = "logistic"
    reconcile: bool = True
    trusted_phrases: bool = False
    mixture: Mixture = field(default_factory=Mixture)


def train_pipeline_model(
    train_docs: Sequence[AnnotatedDocument],
    out_dir: str | Path,
    config: PipelineTrainConfig = PipelineTrainConfig(),
    *,
    source_docs: Sequence[AnnotatedDocument] = (),
    providers: Sequence[SpanProvider] = (),
    progress: Progress = _quiet,
) -> dict[str, Any]:
    """Train the CRF, the out-of-fold span filter and its calibration into ``out_dir``; returns the manifest."""
    if not 0.0 < config.filter_recall_target <= 1.0:
        raise ConfigurationError("the filter's recall target must be a rate between 0 and 1")
    if config.folds < 2:
        raise ConfigurationError("the span filter needs at least 2 folds")
    patients = {patient_key(d.document) for d in train_docs}
    if len(patients) < config.folds:
        raise ConfigurationError(
            f"{len(patients)} patients cannot fill {config.folds} folds for the span filter; "
            "give fewer --filter-folds, more notes, or train the CRF alone (--pipeline crf)"
        )
    if not any(d.spans for d in train_docs):
        raise ConfigurationError("the training notes hold no gold spans: nothing to learn")
    out_dir = Path(out_dir)
    mixture = config.mixture
    progress(f"CRF on {len(train_docs)} notes" + ("" if mixture.empty else " and their mixture"))
    train_model(
        train_docs if mixture.empty else build_mixture(train_docs, mixture),
        out_dir,
        config.crf,
        source_docs=source_docs,
        providers=providers,
        progress=progress,
        learn_docs=None if mixture.empty else train_docs,
        mixture=None if mixture.empty else mixture.as_dict(),
    )
    oof = _out_of_fold(train_docs, config, source_docs, providers, progress)
    progress(f"span filter on {sum(len(c) for c in oof.candidates)} out-of-fold candidates")
    span_filter, table = fit_span_filter(oof, config.filter_recall_target, config.patient_context, kind=config.kind)
    manifest = read_manifest(out_dir)
    entry = save_filter(span_filter, out_dir)
    manifest.pop("files", None)
    manifest["kind"] = BundleKind.DEFAULT.value
    manifest["scheme"] = config.scheme
    manifest["candidate_threshold"] = CANDIDATE_THRESHOLD
    manifest["span_filter"] = entry
    manifest["stage2"] = {"trusted_phrases": config.trusted_phrases, "reconcile": config.reconcile}
    manifest.setdefault("metrics", {})["filter_calibration"] = {
        "folds": config.folds,
        "group_by": "patient",
        "recall_target": config.filter_recall_target,
        "chosen": table.get("chosen"),
        "basis": "out-of-fold candidates of the training notes (an estimate on them, optimistic for new notes)",
    }
    written = write_manifest(out_dir, manifest)
    ModelBundle.read(out_dir)  # verifies what was written
    return written


def _out_of_fold(
    docs: Sequence[AnnotatedDocument],
    config: PipelineTrainConfig,
    source_docs: Sequence[AnnotatedDocument],
    providers: Sequence[SpanProvider],
    progress: Progress,
) -> OutOfFoldCandidates:
    """:func:`out_of_fold_candidates` with a stage 1 whose CRF each fold trains without that fold's patients."""
    with tempfile.TemporaryDirectory(prefix="deident-fold-") as work:
        trained = 0

        def make_stage1(train: Sequence[AnnotatedDocument]) -> Callable[[Document], Sequence[Span]]:
            nonlocal trained
            mixed = train if config.mixture.empty else build_mixture(train, config.mixture)
            trained += 1
            progress(f"fold {trained}/{config.folds}: CRF on {len(mixed)} notes, stage 1 on the rest")
            fold_dir = Path(work) / f"fold_{trained}"
            train_model(
                mixed,
                fold_dir,
                config.crf,
                source_docs=source_docs,
                providers=providers,
                learn_docs=None if config.mixture.empty else train,
            )
            return stage1_pipeline(ModelBundle.read(fold_dir), config.scheme)

        return out_of_fold_candidates(docs, make_stage1, config.folds)
