"""Cross-validation of the whole default pipeline: folds grouped by patient, every ablation row, pooled figures."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from deident.core.document import AnnotatedDocument, Document, patient_or_note
from deident.detect.crf.train import TrainConfig
from deident.model import cv_pipeline
from deident.model.cv_pipeline import ROWS, cross_validate_pipeline
from deident.model.train_pipeline import PipelineTrainConfig
from tests.detect.crf.synthetic import synthetic_corpus


def test_no_patient_is_in_both_the_training_and_the_test_notes_of_a_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    trained_on: list[set[str]] = []
    tested_on: list[set[str]] = []
    train = cv_pipeline.train_pipeline_model
    predict = cv_pipeline.fold_predictions

    def training(docs: Sequence[AnnotatedDocument], out_dir: Path, *args: Any, **kwargs: Any) -> dict[str, Any]:
        trained_on.append({patient_or_note(d.document) for d in docs})
        return train(docs, out_dir, *args, **kwargs)

    def predicting(bundle: Any, scheme: str, documents: Sequence[Document], *args: Any) -> Any:
        tested_on.append({patient_or_note(d) for d in documents})
        return predict(bundle, scheme, documents, *args)

    monkeypatch.setattr(cv_pipeline, "train_pipeline_model", training)
    monkeypatch.setattr(cv_pipeline, "fold_predictions", predicting)
    corpus = synthetic_corpus(24, seed=11, patients=6)
    config = PipelineTrainConfig(crf=TrainConfig(max_iterations=10, clusters=0), folds=2)
    result = cross_validate_pipeline(corpus, folds=3, config=config, sweep=(0.5,))
    assert len(trained_on) == len(tested_on) == 3
    everyone = {patient_or_note(d.document) for d in corpus}
    for train_patients, test_patients in zip(trained_on, tested_on, strict=True):
        assert test_patients and not train_patients & test_patients
        assert train_patients | test_patients == everyone
    assert set().union(*tested_on) == everyone and sum(len(t) for t in tested_on) == len(everyone)
    assert tuple(result.pooled) == ROWS and [row["threshold"] for row in result.sweep] == [0.5]
    assert sum(fold["notes"] for fold in result.folds) == len(corpus)


def test_reconciliation_row_is_the_default_pipeline_and_the_filter_row_only_filters(tmp_path: Path) -> None:
    """The rows after stage 1 reuse its spans: they equal the pipelines built in full."""
    from deident.model.bundle import ModelBundle
    from deident.model.train_pipeline import train_pipeline_model
    from deident.pipelines import default_pipeline

    corpus = synthetic_corpus(16, seed=12, patients=4)
    config = PipelineTrainConfig(crf=TrainConfig(max_iterations=10, clusters=0), folds=2)
    train_pipeline_model(corpus[:12], tmp_path / "m", config)
    bundle = ModelBundle.read(tmp_path / "m")
    documents = [d.document for d in corpus[12:]]
    rows, swept = cv_pipeline.fold_predictions(bundle, config.scheme, documents, (0.3,))
    full = default_pipeline(bundle, config.scheme, stage2={"reconcile": True})
    assert rows["stage 1 + filter + reconciliation"] == cv_pipeline.run_by_patient(full, documents)
    only = {"trusted_phrases": False, "reconcile": False, "name_completion": False}
    assert rows["stage 1 + filter"] == cv_pipeline.run_by_patient(
        default_pipeline(bundle, config.scheme, stage2=only), documents
    )
    at = default_pipeline(bundle, config.scheme, stage2=only, filter_thresholds=0.3)
    assert swept[0.3] == cv_pipeline.run_by_patient(at, documents)
