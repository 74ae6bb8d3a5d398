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
    result = runner.invoke(app, [*args, "--clusters", "0", "--iterations", "40", "--no-providers"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "model" / "manifest.json").read_text())
    assert manifest["threshold_chosen_on"] == "dev" and manifest["providers"] == []
    assert "dev binary token" in result.output


def test_train_rejects_a_foreign_output_folder(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(5), tmp_path / "train.jsonl")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "thesis.docx").write_text("x")
    result = runner.invoke(app, ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "out")])
    assert result.exit_code != 0
    assert (tmp_path / "out" / "thesis.docx").exists()


def test_train_with_a_mixture_records_it(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(20), tmp_path / "train.jsonl")
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(tmp_path / "model"), "--clusters", "0"]
    mix = ["--augment", "reidentified:1,ambiguous:1", "--synth", "8", "--synth-styles", "nursing", "--mix-seed", "2"]
    result = runner.invoke(app, [*args, "--iterations", "20", "--no-providers", *mix])
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
