"""``deident run`` on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deident.cli.app import app
from deident.core.errors import ConfigurationError, NoteTooLargeError
from deident.io import read_corpus

runner = CliRunner()


def test_run_tag_with_phrase_spans(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "out.text"
    result = runner.invoke(
        app,
        ["run", str(fixtures / "mini.text"), "-o", str(out), "--spans", str(fixtures / "mini.phrase"), "--quiet"],
    )
    assert result.exit_code == 0, result.output
    docs = read_corpus(out)
    assert docs[0].text.startswith("Pt is a [**AGE**] yo man admitted [**DATE**]")
    report = json.loads((tmp_path / "out.text.report.json").read_text())
    assert report["documents"] == 3 and report["spans_total"] == 10 and report["mode"] == "tag"
    html = (tmp_path / "out.text.report.html").read_text()
    for original in ("Kowalski", "KOWALSKI", "Anna", "617-555-0199", "Mercy"):
        assert original not in html and original not in json.dumps(report)


def test_surrogate_needs_a_key(tmp_path: Path, fixtures: Path) -> None:
    args = ["run", str(fixtures / "mini.text"), "-o", str(tmp_path / "o.text"), "--mode", "surrogate"]
    result = runner.invoke(app, [*args, "--spans", str(fixtures / "mini.phrase")])
    assert isinstance(result.exception, ConfigurationError) and "--key" in str(result.exception)
    ok = runner.invoke(app, [*args, "--spans", str(fixtures / "mini.phrase"), "--ephemeral-key", "--quiet"])
    assert ok.exit_code == 0, ok.output
    report = json.loads((tmp_path / "o.text.report.json").read_text())
    assert report["ephemeral_key"] is True


@pytest.mark.parametrize("mode", ["tag", "redact", "mask", "surrogate", "safe-harbor"])
def test_every_mode_with_key_file(tmp_path: Path, fixtures: Path, mode: str) -> None:
    key = tmp_path / "key"
    key.write_text("0123456789abcdef0123456789abcdef\n")
    out = tmp_path / "out.jsonl"
    source = tmp_path / "in.jsonl"
    from deident.io import write_corpus

    write_corpus(read_corpus(fixtures / "mini.text"), source)
    args = ["run", str(source), "-o", str(out), "--spans", str(source), "--mode", mode, "--key", str(key), "--quiet"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    text = "\n".join(d.text for d in read_corpus(out))
    for original in ("Kowalski", "KOWALSKI", "Brandt", "Anna", "JOHN", "617-555-0199", "3/14"):
        assert original not in text


def test_bad_input_exits_non_zero_with_a_clear_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "text": "ok"}\n[broken\n')
    command = "from deident.cli.app import main; main()"
    args = ["run", str(bad), "-o", str(tmp_path / "out.jsonl"), "--spans", str(bad), "--quiet"]
    done = subprocess.run([sys.executable, "-c", command, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    message = " ".join(done.stderr.split())  # rich wraps long lines
    assert "bad.jsonl, line 2" in message and "Traceback" not in message
    assert not (tmp_path / "out.jsonl").exists()


def test_unknown_pipeline_fails_before_writing(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "out.text"
    result = runner.invoke(app, ["run", str(fixtures / "mini.text"), "-o", str(out), "--pipeline", "nope", "--quiet"])
    assert isinstance(result.exception, ConfigurationError) and "unknown pipeline" in str(result.exception)
    assert list(tmp_path.iterdir()) == []


MENTION = "NEURO: ALERT. QUILLFEATHER UPDATED BY PHONE. PLAN UNCHANGED."
# (patient, note, text), interleaved: only patient 1's first note names the attending where the model is sure.
NOTES = [
    ("1", "1", "Attending: Dr. Quillfeather\nPt resting comfortably."),
    ("2", "1", MENTION),
    ("1", "2", MENTION),
]


@pytest.mark.parametrize(
    ("switch", "replaced"), [("--reconcile", [True, False, True]), ("--no-reconcile", [True, False, False])]
)
def test_run_reconciles_a_patients_notes_with_the_switch(tmp_path: Path, switch: str, replaced: list[bool]) -> None:
    source = tmp_path / "notes.text"
    source.write_text("".join(f"START_OF_RECORD={p}||||{n}||||\n{t}\n||||END_OF_RECORD\n\n" for p, n, t in NOTES))
    out = tmp_path / "out.text"
    result = runner.invoke(app, ["run", str(source), "-o", str(out), switch, "--chunk-size", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert ["QUILLFEATHER" not in d.text.upper() for d in read_corpus(out)] == replaced
    assert "quillfeather" not in result.output.lower()


def test_run_stops_at_a_note_over_the_size_limit(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "out.text"
    args = ["run", str(fixtures / "mini.text"), "-o", str(out), "--pipeline", "rules", "--quiet"]
    result = runner.invoke(app, [*args, "--max-note-chars", "50"])
    assert isinstance(result.exception, NoteTooLargeError) and "over the limit of 50" in str(result.exception)
    assert not out.exists()
    assert runner.invoke(app, [*args, "--max-note-chars", "100000", "--overwrite"]).exit_code == 0
