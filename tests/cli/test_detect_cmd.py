"""``deident detect`` on the command line: spans written beside the text, and the operating point stated."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from deident.cli.app import app
from deident.io import read_corpus

runner = CliRunner()


def _said(result: Result) -> str:
    """What the command printed, stdout and stderr (click 8.2 mixes them into ``output``), on one line."""
    return " ".join(result.output.split())


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], "operating point: the model's default; expected token recall"),
        (["--recall-target", "0.9"], "operating point: recall target 0.9; expected token recall"),
    ],
)
def test_detect_writes_phrase_and_states_the_operating_point(
    tmp_path: Path, fixtures: Path, args: list[str], expected: str
) -> None:
    out = tmp_path / "pred.text"
    result = runner.invoke(app, ["detect", str(fixtures / "mini.text"), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    assert out.exists() and out.with_suffix(".phrase").exists()
    assert len(read_corpus(out)) == len(read_corpus(fixtures / "mini.text"))
    assert expected in _said(result)


def test_rules_pipeline_has_no_calibrated_operating_point(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "pred.text"
    result = runner.invoke(app, ["detect", str(fixtures / "mini.text"), "-o", str(out), "--pipeline", "rules"])
    assert result.exit_code == 0, result.output
    assert "operating point" not in _said(result)
