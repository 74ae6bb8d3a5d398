from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.detect.crf.synthetic import synthetic_corpus
from typer.testing import CliRunner

from deident.cli.app import app
from deident.io import write_corpus

runner = CliRunner()


def test_cv_prints_folds_pooled_and_sweep(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(40, patients=8), tmp_path / "corpus.jsonl")
    args = ["cv", str(tmp_path / "corpus.jsonl"), "--folds", "4", "--group-by", "patient", "--clusters", "0"]
    args += ["--iterations", "40", "--no-providers", "--json", str(tmp_path / "cv.json")]
    pytest.importorskip("matplotlib")
    args += ["--plot", str(tmp_path / "pr.png")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    for expected in ("fold 1", "fold 4", "pooled", "threshold  precision", " notes, "):
        assert expected in result.output
    figures = json.loads((tmp_path / "cv.json").read_text())
    assert len(figures["folds"]) == 4 and figures["pooled"]["binary_token"]["recall"] > 0.9
    assert (tmp_path / "pr.png").read_bytes()[:4] == b"\x89PNG"


def test_cv_needs_enough_patients(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(6, patients=2), tmp_path / "corpus.jsonl")
    result = runner.invoke(app, ["cv", str(tmp_path / "corpus.jsonl"), "--folds", "5", "--no-providers"])
    assert result.exit_code != 0
