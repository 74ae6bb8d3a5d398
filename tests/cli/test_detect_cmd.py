"""``deident detect`` on the command line: spans written beside the text, and the operating point stated."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from deident.cli.app import app
from deident.core.errors import NoteTooLargeError
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


# Synthetic PhysioNet notes, two patients interleaved: patient 1's first note names the attending
# (the bundled model finds it confidently); its second note and patient 2's note only mention the name
# in a line the model misses alone.
# (after a comma: opening a sentence, a rare word before "UPDATED" is a name by a rule of its own)
MENTION = "NEURO: ALERT, QUILLFEATHER UPDATED BY PHONE. PLAN UNCHANGED."
INTERLEAVED = [
    ("1", "1", "Attending: Dr. Quillfeather\nPt resting comfortably."),
    ("2", "1", MENTION),
    ("1", "2", MENTION),
    ("3", "1", "no names in this note. lasix given with good effect."),
]


def _physionet(notes: list[tuple[str, str, str]]) -> str:
    return "".join(f"START_OF_RECORD={p}||||{n}||||\n{text}\n||||END_OF_RECORD\n\n" for p, n, text in notes)


@pytest.mark.parametrize(
    ("switches", "tagged"),
    [
        (["--reconcile"], [["Quillfeather"], [], ["QUILLFEATHER"], []]),
        (["--reconcile", "--chunk-size", "1"], [["Quillfeather"], [], ["QUILLFEATHER"], []]),  # patients stay whole
        (["--no-reconcile"], [["Quillfeather"], [], [], []]),
    ],
)
def test_detect_reconciles_each_patients_notes_together(
    tmp_path: Path, switches: list[str], tagged: list[list[str]]
) -> None:
    source = tmp_path / "notes.text"
    source.write_text(_physionet(INTERLEAVED), encoding="utf-8")
    out = tmp_path / "pred.text"
    result = runner.invoke(app, ["detect", str(source), "-o", str(out), *switches])
    assert result.exit_code == 0, result.output
    predicted = read_corpus(out)
    assert [(d.document.patient_id, d.document.metadata.note_id) for d in predicted] == [
        (p, n) for p, n, _ in INTERLEAVED
    ]
    assert [[d.text[s.start : s.end] for s in d.spans] for d in predicted] == tagged
    assert "quillfeather" not in result.output.lower()  # progress and summary never show note text


def test_detect_reads_the_author_column(tmp_path: Path) -> None:
    source = tmp_path / "posts.csv"
    source.write_text("id,poster,body\np1,bramblefoot77,bramblefoot here again. thx all\n", encoding="utf-8")
    found = []
    for extra in ([], ["--author-col", "poster"]):
        out = tmp_path / f"pred{len(extra)}.jsonl"
        result = runner.invoke(app, ["detect", str(source), "-o", str(out), "--text-col", "body", *extra])
        assert result.exit_code == 0, result.output
        (doc,) = read_corpus(out)
        found.append([doc.text[s.start : s.end] for s in doc.spans if s.label.value == "USERNAME"])
    assert found == [[], ["bramblefoot"]]


def test_detect_settles_the_heap_of_its_process(
    tmp_path: Path, fixtures: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import deident.cli.detect_cmd as detect_cmd

    calls: list[None] = []
    monkeypatch.setattr(detect_cmd, "settle_heap", lambda: calls.append(None))
    result = runner.invoke(
        app, ["detect", str(fixtures / "mini.text"), "-o", str(tmp_path / "p.text"), "--pipeline", "rules"]
    )
    assert result.exit_code == 0, result.output
    assert calls == [None]


def test_a_note_over_the_size_limit_stops_with_an_error_naming_it(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "pred.text"
    args = ["detect", str(fixtures / "mini.text"), "-o", str(out), "--pipeline", "rules"]
    result = runner.invoke(app, [*args, "--max-note-chars", "50"])
    assert isinstance(result.exception, NoteTooLargeError) and not out.exists()
    message = str(result.exception)
    assert "over the limit of 50" in message and "--max-note-chars" in message and "'1_1'" in message
    assert "Kowalski" not in message
    assert runner.invoke(app, [*args, "--max-note-chars", "100000"]).exit_code == 0


FACILITY_NOTE = '{"id": "n1", "text": "Transferred from Mercy Hospital overnight; daughter lives in Ohio."}\n'


@pytest.mark.parametrize(
    ("args", "found", "measured_note"),
    [
        ([], ["Mercy Hospital", "Ohio"], True),  # hipaa, the default: whole facility names, states
        (["--scheme", "physionet"], ["Mercy"], False),  # the PhysioNet corpus's convention, for scoring it
    ],
)
def test_detect_outputs_the_hipaa_scheme_unless_asked(
    tmp_path: Path, args: list[str], found: list[str], measured_note: bool
) -> None:
    source = tmp_path / "notes.jsonl"
    source.write_text(FACILITY_NOTE, encoding="utf-8")
    out = tmp_path / "pred.jsonl"
    result = runner.invoke(app, ["detect", str(source), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    (doc,) = read_corpus(out)
    assert [doc.text[s.start : s.end] for s in doc.spans] == found
    # The operating point was measured under physionet: a run under another scheme is told so.
    assert ("measured under the physionet convention, not this run's output scheme hipaa" in _said(result)) is (
        measured_note
    )
