from __future__ import annotations

import json
from pathlib import Path

import pytest

from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.detect.crf.tagger import CrfModel
from deident.detect.crf.train import (
    TrainConfig,
    choose_threshold,
    cross_validate,
    patient_folds,
    train_model,
)
from deident.model.manifest import sha256_file

from .conftest import FAST
from .synthetic import TEST_DOCTORS, TEST_RELATIVES, synthetic_corpus


def test_manifest_records_training(trained_model: Path) -> None:
    manifest = json.loads((trained_model / "manifest.json").read_text())
    assert manifest["kind"] == "crf"
    assert manifest["training_data"]["documents"] == 80
    assert manifest["training_data"]["alignment"]["unaligned"] == 0
    assert set(manifest["labels"]) == {"DOCTOR", "RELATIVE", "LOCATION_OTHER", "DATE"}
    assert manifest["threshold_chosen_on"] == "dev"
    assert manifest["metrics"]["dev"]["binary_token"]["recall"] >= 0.95
    assert {"crf.all.crfsuite", "triggers.tsv", "lexicon.tsv", "clusters.tsv"} <= set(manifest["files"])
    assert manifest["learned"]["triggers"] > 0


def test_a_trained_model_loads_as_a_crf_bundle(trained_model: Path) -> None:
    from deident.api import Deidentifier
    from deident.core.errors import ModelError
    from deident.model.bundle import BundleKind, ModelBundle

    assert ModelBundle.read(trained_model).kind is BundleKind.CRF
    note = "Pt seen by Dr. Hargrove this am, plan discussed."
    for pipeline in ("crf", "stage1"):
        deid = Deidentifier.load(trained_model, pipeline, preload=False)
        assert deid.detect(note) == deid.detect(note) and deid.operating_point is None
    with pytest.raises(ModelError, match="no span filter"):
        Deidentifier.load(trained_model, "default", preload=False)


def test_tagging_recovers_planted_unseen_names(trained_model: Path) -> None:
    model = CrfModel.load(trained_model)
    test = synthetic_corpus(30, seed=123, doctors=TEST_DOCTORS, relatives=TEST_RELATIVES)
    planted = [(d, s) for d in test for s in d.spans if s.label in (Label.DOCTOR, Label.RELATIVE)]
    found = 0
    for doc, gold in planted:
        predicted = model.spans(doc.document)
        found += any(p.overlaps(gold) for p in predicted)
    assert planted and found / len(planted) >= 0.9


def test_triggers_learned_from_context(trained_model: Path) -> None:
    triggers = (trained_model / "triggers.tsv").read_text()
    assert "dr\t-1\tNAME" in triggers or "dr\t-2\tNAME" in triggers


def test_lexicon_file_holds_no_readable_names(trained_model: Path) -> None:
    text = (trained_model / "lexicon.tsv").read_text()
    assert "Smith" not in text and "smith" not in text and len(text.splitlines()) > 5


def test_same_data_gives_the_same_model_file(tmp_path: Path) -> None:
    docs = synthetic_corpus(30)
    train_model(docs, tmp_path / "a", FAST)
    train_model(docs, tmp_path / "b", FAST)
    for name in ("crf.all.crfsuite", "triggers.tsv", "lexicon.tsv", "manifest.json"):
        if name == "manifest.json":
            a = json.loads((tmp_path / "a" / name).read_text())
            b = json.loads((tmp_path / "b" / name).read_text())
            a.pop("training_seconds"), b.pop("training_seconds")
            assert a == b
        else:
            assert sha256_file(tmp_path / "a" / name) == sha256_file(tmp_path / "b" / name)


def test_two_models_and_easyadapt(tmp_path: Path) -> None:
    target = synthetic_corpus(30)
    source = synthetic_corpus(30, seed=5, caps=True)
    manifest = train_model(
        target, tmp_path / "m", TrainConfig(max_iterations=40, clusters=0, split_models=True), source_docs=source
    )
    assert [m["name"] for m in manifest["models"]] == ["quantitative", "namelike"]
    assert manifest["easyadapt"] and manifest["training_data"]["source_documents"] == 30
    model = CrfModel.load(tmp_path / "m")
    spans = model.spans(target[0].document)
    assert all(s.source == "crf" for s in spans)


def test_refuses_to_overwrite_a_folder_that_is_not_a_model(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(ConfigurationError):
        train_model(synthetic_corpus(5), tmp_path, FAST)


def test_patient_folds_keep_patients_together() -> None:
    docs = synthetic_corpus(50, patients=10)
    folds = patient_folds(docs, 5)
    assert sorted(i for f in folds for i in f) == list(range(50))
    for fold in folds:
        patients = {docs[i].document.patient_id for i in fold}
        others = {docs[i].document.patient_id for f in folds if f is not fold for i in f}
        assert not patients & others
    assert patient_folds(docs, 5) == folds
    with pytest.raises(ConfigurationError):
        patient_folds(docs, 20)


@pytest.mark.parametrize(
    ("target", "expected"),
    [(0.9, 0.3), (0.99, 0.01), (1.0, 0.1)],  # unreachable target: best F2
)
def test_choose_threshold(target: float, expected: float) -> None:
    sweep = [
        {"threshold": 0.01, "recall": 0.99, "precision": 0.5, "f2": 0.70},
        {"threshold": 0.1, "recall": 0.95, "precision": 0.8, "f2": 0.91},
        {"threshold": 0.3, "recall": 0.9, "precision": 0.9, "f2": 0.90},
    ]
    assert choose_threshold(sweep, target) == expected


def test_cross_validation_reports_folds_and_pooled(tmp_path: Path) -> None:
    docs = synthetic_corpus(40, patients=8)
    result = cross_validate(docs, tmp_path, folds=4, config=FAST)
    assert [f["fold"] for f in result.folds] == [1, 2, 3, 4]
    assert result.pooled["binary_token"]["recall"] > 0.9
    thresholds = [row["threshold"] for row in result.sweep]
    assert thresholds == sorted(thresholds)
    recalls = [row["recall"] for row in result.sweep]
    assert recalls == sorted(recalls, reverse=True)  # a higher threshold never finds more
