"""The model bundle: a model directory read and verified once, each component's part typed."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from deident.core.errors import ModelError
from deident.model import manifest as manifest_module
from deident.model.bundle import BundleKind, CrfSpec, FilterSpec, ModelBundle
from deident.model.manifest import default_model_dir, read_manifest, write_manifest


def crf_only_model(directory: Path) -> Path:
    """A minimal CRF-kind model directory (files need not be real CRFs: only the manifest is read)."""
    for name in ("triggers.tsv", "lexicon.tsv", "clusters.tsv", "crf.all.crfsuite"):
        (directory / name).write_text("x\n")
    write_manifest(
        directory,
        {
            "kind": "crf",
            "feature_set_version": 1,
            "data_files": {"triggers": "triggers.tsv", "lexicon": "lexicon.tsv", "clusters": "clusters.tsv"},
            "models": [{"name": "all", "file": "crf.all.crfsuite", "labels": ["DOCTOR"]}],
            "threshold": 0.2,
            "providers": ["patterns.date"],
        },
    )
    return directory


def _copy_of_bundled(tmp_path: Path) -> Path:
    copy = tmp_path / "model"
    shutil.copytree(default_model_dir(), copy, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    return copy


def _rewrite(directory: Path, **changes: object) -> None:
    data = read_manifest(directory)
    data.pop("files")
    data.update(changes)
    write_manifest(directory, data)


def test_bundled_model_is_a_default_pipeline_bundle() -> None:
    bundle = ModelBundle.read(default_model_dir())
    raw = json.loads((default_model_dir() / "manifest.json").read_text())
    assert bundle.kind is BundleKind.DEFAULT and raw["kind"] == "default"
    assert bundle.training_scheme == raw["scheme"]
    assert isinstance(bundle.crf, CrfSpec) and bundle.crf.threshold == raw["threshold"]
    assert [m.path.name for m in bundle.crf.models] == [m["file"] for m in raw["models"]]
    assert bundle.crf.providers == tuple(raw["providers"])
    assert isinstance(bundle.span_filter, FilterSpec) and bundle.span_filter.path.name == "span_filter.json"
    assert dict(bundle.span_filter.thresholds) == raw["span_filter"]["thresholds"]
    assert bundle.stage2.candidate_threshold == raw["candidate_threshold"]
    assert dict(bundle.stage2.parts) == raw["stage2"]


def test_a_crf_model_has_no_span_filter(tmp_path: Path) -> None:
    bundle = ModelBundle.read(crf_only_model(tmp_path))
    assert bundle.kind is BundleKind.CRF and bundle.span_filter is None and bundle.training_scheme is None
    assert bundle.crf.threshold == 0.2 and bundle.crf.data_files["lexicon"] == tmp_path / "lexicon.tsv"
    assert bundle.stage2.candidate_threshold is None and dict(bundle.stage2.parts) == {}
    with pytest.raises(ModelError, match="no span filter"):
        bundle.require_filter()


def test_an_older_crf_manifest_with_a_span_filter_reads_as_the_default_pipeline(tmp_path: Path) -> None:
    copy = _copy_of_bundled(tmp_path)
    _rewrite(copy, kind="crf")  # as bundled models said before the pipeline kind
    bundle = ModelBundle.read(copy)
    assert bundle.kind is BundleKind.DEFAULT and bundle.span_filter is not None
    assert bundle.span_filter.path == copy / "span_filter.json"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"kind": "other"}, "a 'other' model, expected one of 'crf', 'default'"),
        ({"span_filter": None}, "a 'default' model without a span filter entry"),
        ({"models": []}, "lists no CRF models"),
        ({"data_files": {"triggers": "triggers.tsv"}}, "does not name the learned data files"),
        ({"models": [{"name": "x", "file": "../crf.namelike.crfsuite"}]}, "bad file name"),
        ({"candidate_threshold": "low"}, "malformed manifest"),
        ({"span_filter": {"thresholds": {"names": 0.2}}}, "malformed manifest"),
    ],
)
def test_a_bad_manifest_fails_clearly_when_read(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    copy = _copy_of_bundled(tmp_path)
    _rewrite(copy, **changes)
    with pytest.raises(ModelError, match=message):
        ModelBundle.read(copy)


@pytest.mark.parametrize(("pipeline", "recall_target"), [("default", None), ("default", 0.95), ("stage1", None)])
def test_loading_verifies_the_manifest_once(
    monkeypatch: pytest.MonkeyPatch, pipeline: str, recall_target: float | None
) -> None:
    from deident.api import Deidentifier

    hashed: Counter[str] = Counter()
    real = manifest_module.sha256_file

    def counting(path: Path) -> str:
        hashed[path.name] += 1
        return real(path)

    monkeypatch.setattr(manifest_module, "sha256_file", counting)
    deid = Deidentifier.load(pipeline=pipeline, recall_target=recall_target, preload=False)
    counted = dict(hashed)
    files = read_manifest(default_model_dir())["files"]
    assert counted == dict.fromkeys(files, 1)
    assert (deid.operating_point is not None) is (pipeline == "default")


def _with_member(tmp_path: Path) -> Path:
    (tmp_path / "outer" / "second").mkdir(parents=True)
    outer = crf_only_model(tmp_path / "outer")
    member = crf_only_model(outer / "second")
    entry = {"directory": "second", "manifest_sha256": manifest_module.sha256_file(member / "manifest.json")}
    _rewrite(outer, ensemble=[entry])
    return outer


def test_an_ensemble_member_is_read_as_a_crf_spec(tmp_path: Path) -> None:
    outer = _with_member(tmp_path)
    bundle = ModelBundle.read(outer)
    assert [spec.directory for spec in bundle.ensemble] == [outer / "second"]
    assert bundle.ensemble[0].models[0].path == outer / "second" / "crf.all.crfsuite"
    assert ModelBundle.read(default_model_dir()).ensemble == ()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda outer: (outer / "second" / "manifest.json").write_text("{}"), "checksum mismatch for ensemble member"),
        (lambda outer: shutil.rmtree(outer / "second"), "ensemble member second is missing"),
        (lambda outer: (outer / "second" / "triggers.tsv").write_text("y\n"), "checksum mismatch for triggers.tsv"),
        (lambda outer: _rewrite(outer, ensemble=[{"directory": "../second"}]), "bad file name"),
        (lambda outer: _rewrite(outer, ensemble={"directory": "second"}), "'ensemble' must be a list"),
    ],
)
def test_a_damaged_ensemble_fails_clearly(tmp_path: Path, damage: object, message: str) -> None:
    outer = _with_member(tmp_path)
    damage(outer)  # type: ignore[operator]
    with pytest.raises(ModelError, match=message):
        ModelBundle.read(outer)
