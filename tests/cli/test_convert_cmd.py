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


def test_a_lossy_target_is_warned_about_with_counts(fixtures: Path, tmp_path: Path):
    source = tmp_path / "in.jsonl"
    source.write_text(
        '{"id": "a", "text": "Works as a nurse.\\nBye", "spans": [{"start": 11, "end": 16, "label": "PROFESSION"}]}\n'
    )
    lossy = runner.invoke(app, ["convert", str(source), str(tmp_path / "out.text")])
    assert lossy.exit_code == 0, lossy.output
    assert "warning: 1 spans get a coarser label (PhysioNet has 10 types" in lossy.output
    assert "nurse" not in lossy.output
    to_conll = runner.invoke(app, ["convert", str(source), str(tmp_path / "out.conll")])
    assert "warning: 1 notes hold line breaks" in to_conll.output
    lossless = runner.invoke(app, ["convert", str(source), str(tmp_path / "out.jsonl")])
    assert lossless.exit_code == 0 and "warning" not in lossless.output


def test_physionet_and_back_restores_the_folded_labels(tmp_path: Path):
    from deident.io import read_corpus

    source = tmp_path / "in.jsonl"
    source.write_text(
        '{"id": "a", "text": "Works as a nurse at Mercy Hospital, mail q@x.org.", "spans": ['
        '{"start": 11, "end": 16, "label": "PROFESSION"}, {"start": 20, "end": 34, "label": "HOSPITAL"}, '
        '{"start": 41, "end": 48, "label": "EMAIL"}]}\n'
    )
    assert runner.invoke(app, ["convert", str(source), str(tmp_path / "mid.text")]).exit_code == 0
    folded = [s.label.value for s in read_corpus(tmp_path / "mid.text")[0].spans]
    assert folded != ["PROFESSION", "HOSPITAL", "EMAIL"]  # evaluate and detect read the 10 types
    back = runner.invoke(app, ["convert", str(tmp_path / "mid.text"), str(tmp_path / "back.jsonl")])
    assert back.exit_code == 0, back.output
    restored = read_corpus(tmp_path / "back.jsonl")[0]
    assert [s.label.value for s in restored.spans] == ["PROFESSION", "HOSPITAL", "EMAIL"]
    assert restored == read_corpus(source)[0]
