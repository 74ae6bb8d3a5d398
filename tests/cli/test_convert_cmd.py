from pathlib import Path

from typer.testing import CliRunner

from deident.cli.app import app
from deident.core import InputFormatError

runner = CliRunner()


def test_convert_chain_through_cli(fixtures: Path, tmp_path: Path):
    steps = [
        [str(fixtures / "mini.text"), str(tmp_path / "xml"), "--to", "i2b2-2014"],
        [str(tmp_path / "xml"), str(tmp_path / "c.jsonl")],
        [str(tmp_path / "c.jsonl"), str(tmp_path / "back.text")],
    ]
    for args in steps:
        result = runner.invoke(app, ["convert", *args])
        assert result.exit_code == 0, result.output
    assert (tmp_path / "back.text").read_bytes() == (fixtures / "mini.text").read_bytes()
    assert (tmp_path / "back.phrase").read_bytes() == (fixtures / "mini.phrase").read_bytes()


def test_convert_table_columns(fixtures: Path, tmp_path: Path):
    result = runner.invoke(
        app,
        [
            "convert",
            str(fixtures / "table.csv"),
            str(tmp_path / "t.jsonl"),
            "--text-col",
            "body",
            "--patient-col",
            "mrn",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "converted 2 documents" in result.output


def test_convert_reports_bad_input(tmp_path: Path):
    (tmp_path / "t.csv").write_text("note\nKim\n")
    result = runner.invoke(app, ["convert", str(tmp_path / "t.csv"), str(tmp_path / "o.jsonl")])
    assert isinstance(result.exception, InputFormatError)
    assert "no column 'text'" in str(result.exception)
