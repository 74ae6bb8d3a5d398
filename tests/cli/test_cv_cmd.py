from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.detect.crf.synthetic import synthetic_corpus
from typer.testing import CliRunner

from deident.cli.app import app
from deident.io import write_corpus

runner = CliRunner()


def test_cv_of_the_default_pipeline_prints_every_ablation_row_and_writes_json_and_plot(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(30, patients=6), tmp_path / "corpus.jsonl")
    args = ["cv", str(tmp_path / "corpus.jsonl"), "--folds", "3", "--group-by", "patient", "--filter-folds", "2"]
    args += ["--clusters", "0", "--iterations", "15", "--no-providers", "--json", str(tmp_path / "cv.json")]
    pytest.importorskip("matplotlib")
    args += ["--plot", str(tmp_path / "pr.png")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = ("rules", "CRF", "stage 1", "stage 1 + filter", "stage 1 + filter + reconciliation")
    table = result.stdout.splitlines()
    for row in rows:
        assert any(line.startswith(f"{row} ") and len(line.split()) == len(row.split()) + 6 for line in table), row
    assert "filter threshold  precision" in result.stdout
    figures = json.loads((tmp_path / "cv.json").read_text())
    assert set(figures["pooled"]) == set(rows) and len(figures["folds"]) == 3
    assert all(set(fold["rows"]) == set(rows) for fold in figures["folds"])
    assert sum(fold["notes"] for fold in figures["folds"]) == 30
    assert figures["pooled"]["stage 1"]["recall"] > 0.9 and figures["filter_sweep"]
    assert {"precision", "recall", "f1", "f2", "recall_fully_contained"} <= set(figures["pooled"]["CRF"])
    assert (tmp_path / "pr.png").read_bytes()[:4] == b"\x89PNG"


def test_cv_of_the_crf_prints_folds_pooled_and_sweep(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(40, patients=8), tmp_path / "corpus.jsonl")
    args = ["cv", str(tmp_path / "corpus.jsonl"), "--pipeline", "crf", "--folds", "4", "--group-by", "patient"]
    args += ["--clusters", "0"]
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
    for pipeline in ("crf", "default"):
        args = ["cv", str(tmp_path / "corpus.jsonl"), "--folds", "5", "--no-providers", "--pipeline", pipeline]
        assert runner.invoke(app, args).exit_code != 0


def test_train_and_cv_have_no_tfidf_option_any_more(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(6, patients=3), tmp_path / "corpus.jsonl")
    for command in (["cv"], ["train", "-o", str(tmp_path / "m")]):
        assert runner.invoke(app, [*command, str(tmp_path / "corpus.jsonl"), "--tfidf"]).exit_code == 2


def test_cv_trains_each_fold_with_the_mixture_of_its_own_notes_and_the_context_features(
    tmp_path: Path, monkeypatch
) -> None:
    import deident.model.cv_pipeline as cv_pipeline

    trained: list[tuple[set[str], dict]] = []
    real = cv_pipeline.train_pipeline_model

    def recording(train, fold_dir, config, **kwargs):
        manifest = real(train, fold_dir, config, **kwargs)
        trained.append(
            (
                {d.document.id for d in train},
                {
                    **manifest["training_data"],
                    "features": manifest["features"],
                    "filter": manifest["span_filter"].get("trained_on"),
                },
            )
        )
        return manifest

    monkeypatch.setattr(cv_pipeline, "train_pipeline_model", recording)
    write_corpus(synthetic_corpus(24, patients=6), tmp_path / "corpus.jsonl")
    args = ["cv", str(tmp_path / "corpus.jsonl"), "--folds", "3", "--filter-folds", "2", "--clusters", "0"]
    args += ["--iterations", "10", "--no-providers", "--augment", "reidentified:1", "--json", str(tmp_path / "cv.json")]
    args += ["--context-features", "trigger_window", "--filter-augment", "unseen:1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    folds = json.loads((tmp_path / "cv.json").read_text())["folds"]
    assert len(trained) == 3
    all_ids = set().union(*(ids for ids, _ in trained))
    for train_ids, data in trained:
        assert data["mixture"]["variants"] == {"reidentified": 1} and data["features"]["trigger_window"] is True
        assert data["filter"] == {"notes": len(train_ids), "variants": {"unseen": 1}, "seed": 0}
        # each fold trains on its own notes and one variant of each, never on a variant of a held-out note
        assert data["learned_from"]["documents"] == len(train_ids) and data["documents"] == 2 * len(train_ids)
        assert len(all_ids - train_ids) == 24 - len(train_ids)
    assert sum(fold["notes"] for fold in folds) == 24


def test_cv_refuses_a_mixture_for_the_crf_alone(tmp_path: Path) -> None:
    write_corpus(synthetic_corpus(8, patients=4), tmp_path / "corpus.jsonl")
    args = ["cv", str(tmp_path / "corpus.jsonl"), "--pipeline", "crf", "--augment", "reidentified:1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "--augment" in result.output
