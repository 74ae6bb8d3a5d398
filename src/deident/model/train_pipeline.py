"""Training everything the default pipeline needs into one model directory (BoB's two stages).

1. The CRF(s) on the training notes (plus the re-identified and synthetic mixture, and EasyAdapt source notes when
   given): :func:`deident.detect.crf.train.train_model`.
2. Out-of-fold stage-1 candidates: for each of K patient-grouped folds a CRF is trained without that fold's
   patients (same settings; on the notes alone unless ``fold_mixture``, then with the mixture built from the other
   folds only) and stage 1 (rules, that CRF at the candidate threshold, the veto, the scheme) runs on the fold's
   notes; the span filter so learns the errors stage 1 makes on patients it has not seen. The fold CRFs learn from
   the notes alone by default: fitted on their candidates, the filter kept more held-out PHI at a better precision
   than fitted on those of mixture-trained fold CRFs (bench/README.md, "The default model retrained by deident
   train"), and they train in a third of the time.
3. The span filter fitted on those candidates, its thresholds calibrated by cross-validation over the same folds
   by ``filter_recall_target``, or at the best F2 when it is None
   (:func:`deident.stage2.filter.training.fit_span_filter`), written beside the CRF
   with the calibration table, and the manifest turned into a default-pipeline model (kind ``default``, scheme,
   candidate threshold, stage-2 switches), which every path (CLI, API, REST, Spark) loads with ``--model``.

With ``jobs`` > 1 the K + 1 CRFs (the model's and the folds') train in a pool of spawned processes, each given
the notes, the settings and the names of its feature providers (never a trained model) and writing its own
directory; the result is the same bytes as the sequential path's (CRFsuite training is deterministic).

The calibration is measured on the training notes, so the operating point such a model states is an estimate on
them; measure it on held-out notes with ``bench/held_out_estimate.py`` (which stores it in the model) or
``deident evaluate --bootstrap``.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import ConfigurationError
from deident.core.span import Span
from deident.detect.crf.features import SpanProvider
from deident.detect.crf.mixture import Mixture, build_mixture
from deident.detect.crf.tagger import available_providers
from deident.detect.crf.train import TrainConfig, train_model
from deident.model.bundle import BundleKind, ModelBundle
from deident.model.manifest import read_manifest, write_manifest
from deident.pipelines import CANDIDATE_THRESHOLD, stage1_pipeline
from deident.stage2.filter.span_classifier import save_filter
from deident.stage2.filter.training import (
    OutOfFoldCandidates,
    fit_span_filter,
    out_of_fold_candidates,
    patient_folds,
    patient_key,
)
from deident.synth.reidentify import Kind, reidentify_variant

Progress = Callable[[str], None]


def _quiet(message: str) -> None:
    del message


@dataclass(frozen=True)
class PipelineTrainConfig:
    """How to train a default-pipeline model (the CRF's own settings are ``crf``)."""

    crf: TrainConfig = field(default_factory=TrainConfig)
    scheme: str = "i2b2-2014"  # the convention stage 1 is cut to before the filter: the model's training scheme
    folds: int = 5
    filter_recall_target: float | None = 0.99  # None: the best F2 on the out-of-fold candidates
    patient_context: bool = True
    kind: str = "logistic"
    reconcile: bool = True
    trusted_phrases: bool = False
    mixture: Mixture = field(default_factory=Mixture)
    fold_mixture: bool = False  # the fold CRFs (the filter's candidates) train on the mixture too
    # Re-identified variants of the notes whose out-of-fold candidates the span filter learns from beside the
    # notes' own (Sibanda 2006): names and places it has never met, so that unfamiliar is not learned as wrong.
    filter_augment: tuple[tuple[Kind, int], ...] = ()


def train_pipeline_model(
    train_docs: Sequence[AnnotatedDocument],
    out_dir: str | Path,
    config: PipelineTrainConfig = PipelineTrainConfig(),
    *,
    source_docs: Sequence[AnnotatedDocument] = (),
    providers: Sequence[SpanProvider] = (),
    progress: Progress = _quiet,
    jobs: int = 1,
) -> dict[str, Any]:
    """Train the CRF, the out-of-fold span filter and its calibration into ``out_dir``; returns the manifest.

    ``jobs``: processes training the K + 1 CRFs (1: one after the other in this process)."""
    if jobs < 1:
        raise ConfigurationError("--jobs must be at least 1")
    if config.filter_recall_target is not None and not 0.0 < config.filter_recall_target <= 1.0:
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
    with tempfile.TemporaryDirectory(prefix="deident-fold-") as work:
        fold_dirs = [Path(work) / f"fold_{k + 1}" for k in range(config.folds)]
        crfs = [
            _crf_job(train_docs, out_dir, config, source_docs, providers),
            *fold_crf_jobs(train_docs, fold_dirs, config, source_docs, providers),
        ]
        _train_crfs(crfs, providers, jobs, progress)
        oof = filter_candidates(train_docs, fold_dirs, config, progress)
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
    if config.filter_augment:
        manifest["span_filter"]["trained_on"] = {
            "notes": len(train_docs),
            "variants": {kind.value: k for kind, k in config.filter_augment},
            "seed": config.mixture.seed,
        }
    manifest.setdefault("metrics", {})["filter_calibration"] = {
        "folds": config.folds,
        "group_by": "patient",
        "recall_target": config.filter_recall_target,
        "rule": "best F2" if config.filter_recall_target is None else "recall target",
        "fold_crfs": "notes and mixture" if config.fold_mixture and not config.mixture.empty else "notes alone",
        "chosen": table.get("chosen"),
        "basis": "out-of-fold candidates of the training notes (an estimate on them, optimistic for new notes)",
    }
    written = write_manifest(out_dir, manifest)
    ModelBundle.read(out_dir)  # verifies what was written
    return written


def fold_crf_jobs(
    train_docs: Sequence[AnnotatedDocument],
    fold_dirs: Sequence[Path],
    config: PipelineTrainConfig,
    source_docs: Sequence[AnnotatedDocument] = (),
    providers: Sequence[SpanProvider] = (),
) -> list[CrfJob]:
    """The CRF of each patient-grouped fold (``fold_dirs[k]`` trained without fold k's patients): on the notes
    alone, or with the mixture built from the other folds' notes when ``config.fold_mixture``."""
    fold_of = patient_folds(train_docs, len(fold_dirs))
    fold_config = config if config.fold_mixture else replace(config, mixture=Mixture())
    return [
        _crf_job(
            [d for d, f in zip(train_docs, fold_of, strict=True) if f != k],
            fold_dir,
            fold_config,
            source_docs,
            providers,
        )
        for k, fold_dir in enumerate(fold_dirs)
    ]


def filter_variants(
    train_docs: Sequence[AnnotatedDocument], config: PipelineTrainConfig
) -> list[list[AnnotatedDocument]]:
    """``config.filter_augment``'s re-identified variants of the notes, each a copy of the whole corpus in its order."""
    return [
        reidentify_variant(train_docs, config.mixture.seed, kind, variant)
        for kind, count in config.filter_augment
        for variant in range(count)
    ]


def filter_candidates(
    train_docs: Sequence[AnnotatedDocument],
    fold_dirs: Sequence[Path],
    config: PipelineTrainConfig,
    progress: Progress = _quiet,
) -> OutOfFoldCandidates:
    """The span filter's training candidates: stage 1 with fold k's CRF (:func:`fold_crf_jobs`) on fold k's notes
    and on their variants (:func:`filter_variants`)."""
    trained = iter(fold_dirs)

    def make_stage1(train: Sequence[AnnotatedDocument]) -> Callable[[Document], Sequence[Span]]:
        fold_dir = next(trained)
        progress(f"{fold_dir.name}: stage 1 on the notes of the patients its CRF did not see ({len(train)} it did)")
        return stage1_pipeline(ModelBundle.read(fold_dir), config.scheme)

    return out_of_fold_candidates(train_docs, make_stage1, len(fold_dirs), filter_variants(train_docs, config))


@dataclass(frozen=True)
class CrfJob:
    """One CRF to train: its notes (the mixture already built), settings and directory; providers by name, so that
    a spawned process rebuilds them rather than receiving pickled detectors."""

    train_docs: tuple[AnnotatedDocument, ...]
    out_dir: Path
    config: TrainConfig
    source_docs: tuple[AnnotatedDocument, ...]
    provider_names: tuple[str, ...]
    learn_docs: tuple[AnnotatedDocument, ...] | None
    mixture: dict[str, Any] | None


def _crf_job(
    docs: Sequence[AnnotatedDocument],
    out_dir: Path,
    config: PipelineTrainConfig,
    source_docs: Sequence[AnnotatedDocument],
    providers: Sequence[SpanProvider],
) -> CrfJob:
    """The CRF of ``docs`` with the pipeline's mixture built from them (its learned data from ``docs`` alone)."""
    mixture = config.mixture
    return CrfJob(
        tuple(docs if mixture.empty else build_mixture(docs, mixture)),
        out_dir,
        config.crf,
        tuple(source_docs),
        tuple(p.name for p in providers),
        None if mixture.empty else tuple(docs),
        None if mixture.empty else mixture.as_dict(),
    )


def default_jobs() -> int:
    """Two processes where there are two cores: the bundled recipe's 6 CRFs then train in 3 rounds instead of 6,
    and memory (each process holds the notes and a CRFsuite trainer) at most doubles; more is a choice."""
    return max(1, min(2, os.cpu_count() or 1))


def _train_crf(job: CrfJob, providers: Sequence[SpanProvider] | None = None, progress: Progress = _quiet) -> None:
    if providers is None:  # in a spawned process: the same detectors, rebuilt by name
        by_name = {p.name: p for p in available_providers()}
        providers = [by_name[name] for name in job.provider_names]
    train_model(
        job.train_docs,
        job.out_dir,
        job.config,
        source_docs=job.source_docs,
        providers=providers,
        progress=progress,
        learn_docs=job.learn_docs,
        mixture=job.mixture,
    )


def _train_crfs(jobs_list: Sequence[CrfJob], providers: Sequence[SpanProvider], jobs: int, progress: Progress) -> None:
    """Train every CRF of ``jobs_list``: in this process, or in ``jobs`` spawned ones when the providers are the
    standard detectors (custom ones cannot be rebuilt by name there)."""
    standard = {p.name for p in available_providers()}
    if jobs == 1 or len(jobs_list) == 1 or not {p.name for p in providers} <= standard:
        for n, job in enumerate(jobs_list):
            if n:
                progress(f"fold {n}/{len(jobs_list) - 1}: CRF on {len(job.train_docs)} notes")
            _train_crf(job, providers, progress if n == 0 else _quiet)
        return
    workers = min(jobs, len(jobs_list))
    progress(f"training {len(jobs_list)} CRFs (the model's and its folds') in {workers} processes")
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for done, _ in enumerate(pool.map(_train_crf, jobs_list), start=1):
            progress(f"CRF {done}/{len(jobs_list)} trained")
