from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from deident.core.errors import ConfigurationError
from deident.detect.crf.tagger import available_providers
from deident.detect.crf.train import TrainConfig
from deident.model.train_pipeline import PipelineTrainConfig, default_jobs, train_pipeline_model
from tests.detect.crf.synthetic import synthetic_corpus


def _without_timings(value: Any) -> Any:
    """The manifest less its wall-clock figures, the one thing two identical trainings may differ in."""
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if not k.endswith("_seconds")}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _files(model: Path) -> dict[str, bytes]:
    return {str(p.relative_to(model)): p.read_bytes() for p in sorted(model.rglob("*")) if p.is_file()}


def test_parallel_folds_write_the_same_model_as_sequential_ones(tmp_path: Path) -> None:
    docs = synthetic_corpus(24)
    config = PipelineTrainConfig(crf=TrainConfig(max_iterations=15, clusters=4), folds=3)
    providers = available_providers()[:2]  # rebuilt by name in the spawned processes
    messages: list[str] = []
    train_pipeline_model(docs, tmp_path / "one", config, providers=providers, jobs=1)
    train_pipeline_model(docs, tmp_path / "two", config, providers=providers, jobs=2, progress=messages.append)
    assert any("in 2 processes" in m for m in messages)  # the pool did run
    one, two = _files(tmp_path / "one"), _files(tmp_path / "two")
    assert one.keys() == two.keys() and "span_filter.json" in one
    manifest_one, manifest_two = one.pop("manifest.json"), two.pop("manifest.json")
    assert one == two
    assert _without_timings(json.loads(manifest_one)) == _without_timings(json.loads(manifest_two))


def test_jobs_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="--jobs"):
        train_pipeline_model(synthetic_corpus(6), tmp_path / "m", jobs=0)


def test_default_jobs_is_at_most_two() -> None:
    assert 1 <= default_jobs() <= 2


@pytest.mark.parametrize(("fold_mixture", "fold_factor"), [(False, 1), (True, 2)])
def test_the_fold_crfs_train_on_the_notes_alone_unless_told_to_take_the_mixture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fold_mixture: bool, fold_factor: int
) -> None:
    import deident.model.train_pipeline as train_pipeline
    from deident.detect.crf.mixture import Mixture, parse_augment

    sizes: list[tuple[int, int]] = []  # (notes trained on, notes learned from) of each CRF, the model's first
    real = train_pipeline._train_crfs

    def recording(jobs_list, *args, **kwargs):  # type: ignore[no-untyped-def]
        sizes.extend((len(job.train_docs), len(job.learn_docs or job.train_docs)) for job in jobs_list)
        return real(jobs_list, *args, **kwargs)

    monkeypatch.setattr(train_pipeline, "_train_crfs", recording)
    config = PipelineTrainConfig(
        crf=TrainConfig(max_iterations=5, clusters=0),
        folds=2,
        mixture=Mixture(augment=parse_augment("reidentified:1")),
        fold_mixture=fold_mixture,
    )
    manifest = train_pipeline_model(synthetic_corpus(12), tmp_path / "m", config)
    assert sizes[0] == (24, 12)  # the model's CRF: the notes and one variant of each
    assert len(sizes) == 3 and all(trained == fold_factor * learned for trained, learned in sizes[1:])
    expected = "notes and mixture" if fold_mixture else "notes alone"
    assert manifest["metrics"]["filter_calibration"]["fold_crfs"] == expected


def test_the_filter_learns_from_the_variants_it_is_given(tmp_path: Path) -> None:
    from deident.detect.crf.mixture import parse_augment
    from deident.stage2.filter.span_classifier import load_filter

    docs = synthetic_corpus(12)
    base = PipelineTrainConfig(crf=TrainConfig(max_iterations=5, clusters=0), folds=2)
    plain = train_pipeline_model(docs, tmp_path / "plain", base)
    config = PipelineTrainConfig(
        crf=TrainConfig(max_iterations=5, clusters=0), folds=2, filter_augment=parse_augment("unseen:1,reidentified:1")
    )
    manifest = train_pipeline_model(docs, tmp_path / "mixed", config)
    assert load_filter(tmp_path / "plain").info["trained_notes"] == 12
    assert load_filter(tmp_path / "mixed").info["trained_notes"] == 36  # the notes and two variants of each
    assert manifest["span_filter"]["trained_on"] == {
        "notes": 12,
        "variants": {"unseen": 1, "reidentified": 1},
        "seed": 0,
    }
    assert "trained_on" not in plain["span_filter"]
    # the CRF is the same: the variants go to the filter only
    crfs = [m["file"] for m in plain["models"]]
    assert crfs == [m["file"] for m in manifest["models"]]
    assert all((tmp_path / "plain" / f).read_bytes() == (tmp_path / "mixed" / f).read_bytes() for f in crfs)
