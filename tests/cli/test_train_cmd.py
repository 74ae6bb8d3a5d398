from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.detect.crf.synthetic import synthetic_corpus
from typer.testing import CliRunner

from deident.cli.app import app
from deident.core.errors import ConfigurationError
from deident.detect.crf.train import train_model
from deident.io import write_corpus

runner = CliRunner()


def test_train_writes_a_verified_model(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(40), tmp_path / "train.jsonl")
    write_corpus(synthetic_corpus(10, seed=42), tmp_path / "dev.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "model"), "--dev", str(tmp_path / "dev.jsonl")]
    result = runner.invoke(
        app, [*args, "--clusters", "0", "--iterations", "40", "--no-providers", "--pipeline", "crf", "--no-source"]
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "model" / "manifest.json").read_text())
    assert manifest["threshold_chosen_on"] == "dev" and manifest["providers"] == []
    assert manifest["kind"] == "crf" and "span_filter" not in manifest
    assert "dev binary token" in result.output


def test_train_rejects_a_foreign_output_folder(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(5), tmp_path / "train.jsonl")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "thesis.docx").write_text("x")
    result = runner.invoke(app, ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "out"), "--no-source"])
    assert result.exit_code != 0
    assert (tmp_path / "out" / "thesis.docx").exists()


def test_train_with_a_mixture_records_it(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(20), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "model"), "--clusters", "0"]
    mix = ["--augment", "reidentified:1,ambiguous:1", "--synth", "8", "--synth-styles", "nursing", "--mix-seed", "2"]
    result = runner.invoke(
        app, [*args, "--iterations", "20", "--no-providers", "--pipeline", "crf", "--no-source", *mix]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "model" / "manifest.json").read_text())["training_data"]
    assert data["documents"] == 20 + 2 * 20 + 8
    assert data["mixture"]["variants"] == {"reidentified": 1, "ambiguous": 1}
    assert data["mixture"]["synth_notes"] == 8 and data["mixture"]["synth_styles"] == ["nursing"]
    assert data["learned_from"]["documents"] == 20


def test_train_rejects_an_unknown_variant_kind(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(5), tmp_path / "train.jsonl")
    result = runner.invoke(app, ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), "--augment", "x:1"])
    assert result.exit_code != 0


def test_train_writes_a_default_pipeline_model_that_every_path_loads(tmp_path: Path) -> None:
    from deident.api import Deidentifier
    from deident.io import read_corpus

    write_corpus(synthetic_corpus(30), tmp_path / "train.jsonl")
    write_corpus(synthetic_corpus(6, seed=9), tmp_path / "test.jsonl")
    model = tmp_path / "model"
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(model), "--clusters", "0", "--iterations", "15"]
    result = runner.invoke(app, [*args, "--filter-folds", "2", "--filter-recall-target", "0.95", "--no-source"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((model / "manifest.json").read_text())
    assert manifest["kind"] == "default" and manifest["scheme"] == "i2b2-2014"
    assert (model / "span_filter.json").exists() and manifest["span_filter"]["thresholds"]
    assert manifest["metrics"]["filter_calibration"]["recall_target"] == 0.95
    deid = Deidentifier.load(model)
    assert deid.operating_point is not None and "training notes" in deid.operating_point.basis
    out = tmp_path / "p.jsonl"
    detected = runner.invoke(app, ["detect", str(tmp_path / "test.jsonl"), "-o", str(out), "--model", str(model)])
    assert detected.exit_code == 0, detected.output
    assert sum(len(d.spans) for d in read_corpus(tmp_path / "p.jsonl")) > 0


def test_train_default_pipeline_needs_patients_for_its_folds(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(3), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), "--filter-folds", "5", "--no-source"]
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    assert "cannot fill 5 folds" in str(result.exception) and not (tmp_path / "m" / "manifest.json").exists()


@pytest.mark.parametrize("target", ["1.5", "0", "-0.2", "f3", "recall"])
def test_train_refuses_a_recall_target_that_is_no_rate(tmp_path: Path, target: str) -> None:
    write_corpus(synthetic_corpus(3), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), "--filter-recall-target", target]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "filter-recall-target" in result.output
    assert not (tmp_path / "m").exists()


def test_train_sets_the_filter_at_its_best_out_of_fold_f2_when_asked(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(20), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), "--clusters", "0", "--iterations", "10"]
    result = runner.invoke(
        app, [*args, "--filter-folds", "2", "--no-source", "--no-providers", "--filter-recall-target", "F2"]
    )
    assert result.exit_code == 0, result.output
    calibration = json.loads((tmp_path / "m" / "manifest.json").read_text())["metrics"]["filter_calibration"]
    assert calibration["recall_target"] is None and calibration["rule"] == "best F2"
    rows = json.loads((tmp_path / "m" / "span_filter.json").read_text())["calibration"]["rows"]
    best = max(5 * r["precision"] * r["recall"] / (4 * r["precision"] + r["recall"] or 1) for r in rows)
    chosen = calibration["chosen"]
    assert chosen["rule"] == "best F2" and any(
        r["threshold"] == chosen["threshold"]
        and 5 * r["precision"] * r["recall"] / (4 * r["precision"] + r["recall"] or 1) == best
        for r in rows
    )


def test_train_and_cv_refuse_a_corpus_without_gold_spans(tmp_path: Path) -> None:
    corpus = tmp_path / "notes.jsonl"
    write_corpus([item.with_spans([]) for item in synthetic_corpus(6)], corpus)
    for args in (["train", str(corpus), "-o", str(tmp_path / "model")], ["cv", str(corpus), "--folds", "2"]):
        result = runner.invoke(app, args)
        assert isinstance(result.exception, ConfigurationError), args
        assert "no gold spans" in str(result.exception) and str(corpus) in str(result.exception)
    assert not (tmp_path / "model").exists()
    with pytest.raises(ConfigurationError, match="no gold spans"):
        train_model([item.with_spans([]) for item in synthetic_corpus(3)], tmp_path / "model2")


def test_train_and_cv_refuse_zero_jobs(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(3), tmp_path / "train.jsonl")
    for command in (
        ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m")],
        ["cv", str(tmp_path / "train.jsonl")],
    ):
        result = runner.invoke(app, [*command, "--jobs", "0"])
        assert result.exit_code != 0 and "--jobs" in result.output


@pytest.fixture
def tiny_bundled_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A few invented all-caps notes in PhysioNet format standing in for the bundled corpus (training on the real
    one would take minutes)."""
    import deident.cli.train_cmd
    import deident.model.source

    path = tmp_path / "bundled" / "physionet-dev.text"
    path.parent.mkdir()
    write_corpus(synthetic_corpus(6, seed=5, caps=True), path)
    for module in (deident.model.source, deident.cli.train_cmd):
        monkeypatch.setattr(module, "bundled_source_path", lambda: path)
    return path


CRF_ONLY = ["--pipeline", "crf", "--clusters", "0", "--iterations", "5", "--no-providers"]


def _source_notes(model: Path) -> int:
    return int(json.loads((model / "manifest.json").read_text())["training_data"]["source_documents"])


def test_a_small_corpus_trains_with_the_bundled_source_and_says_so(tmp_path: Path, tiny_bundled_corpus: Path) -> None:
    write_corpus(synthetic_corpus(12), tmp_path / "train.jsonl")
    result = runner.invoke(app, ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), *CRF_ONLY])
    assert result.exit_code == 0, result.output
    assert result.output.count("the training corpus is small (12 notes") == 1
    assert _source_notes(tmp_path / "m") == 6


@pytest.mark.parametrize("refusal", [["--no-source"], ["--source", "none"]])
def test_the_bundled_source_can_be_refused(tmp_path: Path, tiny_bundled_corpus: Path, refusal: list[str]) -> None:
    write_corpus(synthetic_corpus(12), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), *CRF_ONLY, *refusal]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "small" not in result.output and _source_notes(tmp_path / "m") == 0


def test_source_bundled_is_read_as_physionet_whatever_format_is_given(
    tmp_path: Path, tiny_bundled_corpus: Path
) -> None:
    write_corpus(synthetic_corpus(12), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), *CRF_ONLY, "--format", "jsonl"]
    result = runner.invoke(app, [*args, "--source", "bundled"])
    assert result.exit_code == 0, result.output
    assert "small" not in result.output and _source_notes(tmp_path / "m") == 6


def test_no_source_and_a_source_contradict(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(4), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), "--source", "bundled", "--no-source"]
    result = runner.invoke(app, args)
    assert result.exit_code != 0 and not (tmp_path / "m").exists()


def test_train_gives_the_filter_the_variants_it_is_told_and_records_them(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(12), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), "--clusters", "0", "--iterations", "5"]
    args += ["--filter-folds", "2", "--no-source", "--no-providers", "--filter-augment", "unseen:1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "m" / "manifest.json").read_text())
    assert manifest["span_filter"]["trained_on"]["variants"] == {"unseen": 1}
    assert json.loads((tmp_path / "m" / "span_filter.json").read_text())["info"]["trained_notes"] == 24


def test_train_rejects_an_unknown_filter_variant_kind(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(5), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "m"), "--filter-augment", "strange:1"]
    result = runner.invoke(app, args)
    assert result.exit_code != 0 and "strange" in (result.output + str(result.exception))
    assert not (tmp_path / "m" / "manifest.json").exists()
