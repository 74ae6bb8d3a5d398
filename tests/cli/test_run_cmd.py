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
from deident.run.runner import NoteFailedError

runner = CliRunner()
TEST_KEY = "f745c9da2db9fe2993e7a565e8a1769fedc504a998377dc9b7823ca5942ed188"  # from secrets.token_hex(32)


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
    key.write_text(TEST_KEY + "\n")
    key.chmod(0o600)
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
    assert done.returncode == 3  # an input error
    message = " ".join(done.stderr.split())  # rich wraps long lines
    assert "bad.jsonl, line 2" in message and "Traceback" not in message
    assert not (tmp_path / "out.jsonl").exists()


def test_unknown_pipeline_fails_before_writing(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "out.text"
    result = runner.invoke(app, ["run", str(fixtures / "mini.text"), "-o", str(out), "--pipeline", "nope", "--quiet"])
    assert result.exit_code == 2 and "'nope' is not one of 'default', 'stage1', 'rules', 'crf'" in result.output
    assert list(tmp_path.iterdir()) == []


# (after a comma: opening a sentence, a rare word before "UPDATED" is a name by a rule of its own)
MENTION = "NEURO: ALERT, QUILLFEATHER UPDATED BY PHONE. PLAN UNCHANGED."
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


def test_safe_harbor_cuts_dates_to_the_year_and_year_only_is_deprecated(tmp_path: Path) -> None:
    """--mode safe-harbor never shifts dates (it did unless --year-only was given); the old flag warns."""
    from deident.core.document import AnnotatedDocument, Document
    from deident.core.labels import Label
    from deident.core.span import Span
    from deident.io import write_corpus

    text = "Seen 7/22/1992 at 02139."
    source = tmp_path / "in.jsonl"
    write_corpus([AnnotatedDocument(Document("d", text), (Span(5, 14, Label.DATE), Span(18, 23, Label.ZIP)))], source)
    out = tmp_path / "out.jsonl"
    args = ["run", str(source), "-o", str(out), "--spans", str(source), "--mode", "safe-harbor", "--ephemeral-key"]
    result = runner.invoke(app, [*args, "--quiet"])
    assert result.exit_code == 0, result.output
    assert read_corpus(out)[0].text == "Seen 1992 at 021."
    again = runner.invoke(app, [*args, "--quiet", "--year-only", "--overwrite"])
    assert again.exit_code == 0 and "--year-only is ignored" in again.output
    assert read_corpus(out)[0].text == "Seen 1992 at 021."


@pytest.mark.parametrize("on_error", ["stop", "skip"])
def test_on_error_for_a_note_the_output_cannot_hold(tmp_path: Path, on_error: str) -> None:
    source = tmp_path / "in.csv"
    source.write_text('id,text,deident_metadata\n1,fine,\n2,also fine,"{""x"": ""\\udfff""}"\n', encoding="utf-8")
    out = tmp_path / "out.csv"
    result = runner.invoke(
        app, ["run", str(source), "-o", str(out), "--on-error", on_error, "--quiet", "--spans", str(source)]
    )
    if on_error == "stop":
        assert "note 2" in str(result.exception) and not out.exists()
        return
    assert result.exit_code == 0, result.output
    assert "1 notes skipped" in result.output
    assert [d.id for d in read_corpus(out)] == ["1"]
    skipped = json.loads((tmp_path / "out.csv.report.json").read_text())["skipped"][0]
    assert skipped["position"] == 2 and "id" not in skipped  # ids are not kept: the report names the position


def test_table_columns_are_dropped_unless_kept(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text("id,mrn,admit_date,text\nZ-1,QX-4417-ZZ,2021-03-14,Seen by Dr. Kowalski.\n", encoding="utf-8")
    base = ["run", str(source), "--pipeline", "rules", "--quiet"]
    result = runner.invoke(app, [*base, "-o", str(tmp_path / "default.csv")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "default.csv").read_text().splitlines()[0] == "id,text,spans"
    assert "QX-4417-ZZ" not in (tmp_path / "default.csv").read_text()
    chosen = ["--keep-col", "admit_date", "--pseudonymise-col", "mrn", "--keep-col", "id"]
    result = runner.invoke(app, [*base, "-o", str(tmp_path / "chosen.csv"), *chosen])
    assert result.exit_code == 0, result.output
    header, row = (tmp_path / "chosen.csv").read_text().splitlines()[:2]
    assert header == "id,mrn,admit_date,text,spans"
    assert row.startswith("Z-1,1,2021-03-14,Seen by Dr. [**DOCTOR**].")


def test_run_stops_at_a_note_over_the_size_limit(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "out.text"
    args = ["run", str(fixtures / "mini.text"), "-o", str(out), "--pipeline", "rules", "--quiet"]
    result = runner.invoke(app, [*args, "--max-note-chars", "50"])
    # --on-error stop (the default) names the note and the cause; the finished chunks are kept
    assert isinstance(result.exception, NoteFailedError) and "note 1" in str(result.exception)
    assert NoteTooLargeError.__name__ in str(result.exception)
    assert not out.exists()
    assert runner.invoke(app, [*args, "--max-note-chars", "100000", "--overwrite"]).exit_code == 0


@pytest.mark.parametrize(
    ("args", "kept"), [([], []), (["--scheme", "physionet"], ["Hospital", "Ohio"]), (["--scheme", "hipaa"], [])]
)
def test_run_removes_whole_facility_names_by_default(tmp_path: Path, args: list[str], kept: list[str]) -> None:
    source = tmp_path / "notes.jsonl"
    source.write_text('{"id": "n1", "text": "Transferred from Mercy Hospital; daughter lives in Ohio."}\n')
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["run", str(source), "-o", str(out), "--quiet", *args])
    assert result.exit_code == 0, result.output
    text = read_corpus(out)[0].text
    assert "Mercy" not in text and [w for w in ("Hospital", "Ohio") if w in text] == kept


@pytest.mark.parametrize(("args", "noted"), [([], True), (["--scheme", "physionet"], False)])
def test_run_says_its_operating_point_was_measured_under_physionet(
    tmp_path: Path, fixtures: Path, args: list[str], noted: bool
) -> None:
    out = tmp_path / "out.text"
    result = runner.invoke(app, ["run", str(fixtures / "mini.text"), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "operating point: the model's default; expected token recall" in said
    assert said.count("95% interval") == 2  # recall's and precision's, as detect prints them
    assert ("measured under the physionet convention, not this run's output scheme hipaa" in said) is noted
