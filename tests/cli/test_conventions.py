"""The conventions every ``deident`` command keeps (issue 20): -h, --version, choices and exit statuses in --help,
--verbose/--quiet, --encoding, ranges, "-" for stdin/stdout, one-line errors, inputs checked first, no output over an
input, an empty input refused, install hints naming real extras."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

from deident import __version__
from deident.cli import app as app_module
from deident.cli.app import app, main
from deident.cli.conventions import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_USAGE,
    FormatChoice,
    PipelineChoice,
    SchemeChoice,
)
from deident.io.formats import FORMATS, read_corpus
from deident.pipelines import PIPELINE_NAMES
from deident.schemes import DEPRECATED_SCHEMES, SCHEMES

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
_GROUP = typer.main.get_command(app)
assert isinstance(_GROUP, TyperGroup)
COMMANDS = sorted(_GROUP.list_commands(typer.Context(_GROUP)))
# The commands that read a corpus or table.
READERS = ["audit", "convert", "cv", "detect", "evaluate", "reidentify", "review", "run", "spark", "train"]
NOTE = "Seen by Dr. Kowalski on 3/14."


def deident(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "COLUMNS": "40"}
    return subprocess.run(
        [sys.executable, "-m", "deident", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        input=stdin,
    )


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    path = tmp_path / "notes.jsonl"
    path.write_text(json.dumps({"id": "1", "text": NOTE}) + "\n", encoding="utf-8")
    return path


def test_every_command_is_covered() -> None:
    assert len(COMMANDS) >= 14 and "run" in COMMANDS and "version" in COMMANDS


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)])
def test_h_is_help_and_help_shows_the_exit_statuses(command: list[str]) -> None:
    short, long = runner.invoke(app, [*command, "-h"]), runner.invoke(app, [*command, "--help"])
    assert short.exit_code == 0 and short.output == long.output
    text = " ".join(short.output.split())
    assert f"{EXIT_USAGE} usage error" in text and f"{EXIT_INPUT} input error" in text
    assert f"{EXIT_INTERNAL} internal error" in text
    # Plain help: no rich boxes; options show no type metavars such as <bool> or <str>.
    options = [line for line in short.output.splitlines() if line.lstrip().startswith("-")]
    assert not any(re.search(r"<(bool|str|list\[\w+\])>", line) for line in options), short.output
    assert "╭" not in short.output


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS if name != "version")])
def test_version_on_the_app_and_every_command(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--version"])
    assert result.exit_code == 0 and result.output.strip() == __version__


@pytest.mark.parametrize("command", [name for name in COMMANDS if name != "version"])
def test_verbose_and_quiet_on_every_command(command: str) -> None:
    text = runner.invoke(app, [command, "-h"]).output
    assert "--verbose" in text and "--quiet" in text


@pytest.mark.parametrize("command", READERS)
def test_encoding_on_every_reader(command: str) -> None:
    assert "--encoding" in runner.invoke(app, [command, "-h"]).output


@pytest.mark.parametrize(
    ("command", "option", "shown"),
    [
        ("run", "--mode", "tag|redact|mask|surrogate|safe-harbor"),
        ("run", "--format", "physionet|jsonl|i2b2-2014"),
        ("run", "--pipeline", "default|stage1|rules|crf"),
        ("detect", "--scheme", "i2b2-2014|physionet|hipaa|hipaa-identifiers"),
        ("detect", "--to", "physionet|jsonl"),
        ("convert", "--from", "physionet|jsonl"),
        ("serve", "--mode", "tag|redact|mask"),
        ("spark", "--pipeline", "default|stage1"),
        ("review", "--order", "input|uncertainty"),
        ("cv", "--group-by", "patient|document"),
        ("reidentify", "--kind", "reidentified|ambiguous|unseen"),
        ("train", "--scheme", "i2b2-2014|physionet"),
    ],
)
def test_choices_are_shown_in_help(command: str, option: str, shown: str) -> None:
    text = runner.invoke(app, [command, "-h"]).output
    line = next(line for line in text.splitlines() if line.strip().startswith(f"{option} "))
    assert shown in line, line


def test_the_choices_are_the_librarys_names() -> None:
    assert {f.value for f in FormatChoice} == set(FORMATS)
    assert {p.value for p in PipelineChoice} == set(PIPELINE_NAMES)
    assert {s.value for s in SchemeChoice} == set(SCHEMES) | set(DEPRECATED_SCHEMES)


@pytest.mark.parametrize(
    "args",
    [
        ["run", "NOTES", "-o", "out.jsonl", "--recall-target", "1.5"],
        ["detect", "NOTES", "-o", "out.jsonl", "--recall-target", "-0.1"],
        ["serve", "--recall-target", "1.5"],
        ["serve", "--port", "70000"],
        ["spark", "NOTES", "-o", "out", "--recall-target", "2"],
        ["run", "NOTES", "-o", "out.jsonl", "--jobs", "0"],
        ["run", "NOTES", "-o", "out.jsonl", "--chunk-size", "0"],
        ["train", "NOTES", "-o", "model", "--threshold", "1.5"],
        ["cv", "NOTES", "--folds", "1"],
        ["review", "NOTES", "-o", "out.jsonl", "--reviewer", "AB", "--uncertain-margin", "2"],
        ["run", "NOTES", "-o", "out.jsonl", "--mode", "shred"],
        ["run", "NOTES", "-o", "out.jsonl", "--verbose", "--quiet"],
    ],
)
def test_values_out_of_range_are_usage_errors(args: list[str], notes: Path, tmp_path: Path) -> None:
    args = [str(notes) if a == "NOTES" else a for a in args]
    result = runner.invoke(app, args)
    assert result.exit_code == EXIT_USAGE, result.output
    assert not (tmp_path / "out.jsonl").exists()


def test_run_reads_stdin_and_writes_stdout(notes: Path, tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["run", "-", "-o", "-", "--format", "jsonl", "--pipeline", "rules", "--quiet"], input=notes.read_text()
    )
    assert result.exit_code == 0, result.output
    written = [json.loads(line) for line in result.stdout.splitlines()]
    assert written[0]["id"] == "1" and "Kowalski" not in written[0]["text"]
    assert not Path("-").exists() and not (tmp_path / "-").exists()


def test_run_to_stdout_keeps_a_report_only_where_named(notes: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    args = ["run", str(notes), "-o", "-", "--format", "jsonl", "--pipeline", "rules", "--report", str(report)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(report.read_text())["documents"] == 1
    assert result.stdout.count("\n") == 1  # the notes only: the summary went to stderr


def test_stdout_takes_the_inputs_format_by_default(notes: Path) -> None:
    ran = runner.invoke(app, ["run", str(notes), "-o", "-", "--pipeline", "rules", "--quiet"])
    detected = runner.invoke(app, ["detect", str(notes), "-o", "-", "--pipeline", "rules", "--quiet"])
    assert ran.exit_code == 0 and detected.exit_code == 0, ran.output + detected.output
    assert json.loads(ran.stdout)["id"] == "1" and json.loads(detected.stdout)["spans"]


def test_detect_reads_stdin_and_writes_stdout(notes: Path) -> None:
    args = ["detect", "-", "-o", "-", "--format", "jsonl", "--pipeline", "rules", "--quiet"]
    result = runner.invoke(app, args, input=notes.read_text())
    assert result.exit_code == 0, result.output
    detected = json.loads(result.stdout)
    assert detected["text"] == NOTE and {s["label"] for s in detected["spans"]} >= {"DOCTOR", "DATE"}
    assert not Path("-").exists()


def test_convert_reads_stdin_and_writes_stdout(notes: Path) -> None:
    result = runner.invoke(app, ["convert", "-", "-", "--from", "jsonl", "--to", "csv"], input=notes.read_text())
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["id,text", f"1,{NOTE}"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["convert", "-", "-", "--from", "jsonl"], "stdout (-) needs its format: give --to"),
        (["detect", "-", "-o", "out.jsonl"], "stdin (-) needs its format: give --format"),
        (["run", "-", "-o", "-", "--format", "brat"], "holds one file"),
    ],
)
def test_a_stream_needs_a_one_file_format(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*args, "--pipeline", "rules"] if args[0] != "convert" else args, input="")
    assert message in str(result.exception)


def test_an_error_is_one_line_on_a_pipe_and_nothing_precedes_it(tmp_path: Path) -> None:
    missing = "a-rather-long-folder-name/" * 6 + "notes.jsonl"
    result = deident("run", missing, "-o", "out.jsonl", cwd=tmp_path)  # COLUMNS=40: rich would wrap
    assert result.returncode == EXIT_INPUT
    assert result.stderr == f"error: {missing}: no such file or folder\n"


def test_a_usage_error_is_one_line_on_a_pipe(tmp_path: Path) -> None:
    result = deident("run", "notes.jsonl", "-o", "out.jsonl", "--mode", "a-mode-that-does-not-exist", cwd=tmp_path)
    assert result.returncode == EXIT_USAGE
    errors = [line for line in result.stderr.splitlines() if "error" in line.lower()]
    assert errors == [
        "Error: Invalid value for '--mode': Value error, 'a-mode-that-does-not-exist' is not one of 'tag', 'redact', "
        "'mask', 'surrogate', 'safe-harbor'."
    ], result.stderr


def test_summary_lines_are_not_wrapped_on_a_pipe(notes: Path, tmp_path: Path) -> None:
    result = deident("run", str(notes), "-o", "out.jsonl", "--pipeline", "rules", cwd=tmp_path)  # COLUMNS=40
    assert result.returncode == 0
    assert any(
        line.startswith("1 documents, ") and line.endswith("out.jsonl.report.html")
        for line in result.stderr.splitlines()
    )


def test_inputs_are_checked_before_the_model_loads(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"id": "1", "text": "ok"}\n[broken\n')
    result = deident("run", "bad.jsonl", "-o", "out.jsonl", "--model", "no-such-model", cwd=tmp_path)
    assert result.returncode == EXIT_INPUT
    assert result.stderr.startswith("error: bad.jsonl, line 2") and result.stderr.count("\n") == 1


def test_exit_statuses_usage_input_internal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert deident("run", "--no-such-option", cwd=tmp_path).returncode == EXIT_USAGE
    assert deident("detect", "missing.jsonl", "-o", "x.jsonl", cwd=tmp_path).returncode == EXIT_INPUT

    def broken() -> None:
        raise ValueError("Kowalski")  # a third-party message may quote a note

    monkeypatch.setattr(app_module, "app", broken)
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == EXIT_INTERNAL
    stderr = capsys.readouterr().err
    assert stderr.startswith("error: internal error (ValueError)") and "Kowalski" not in stderr


def test_quiet_prints_nothing_and_verbose_prints_stage_timings(notes: Path, tmp_path: Path) -> None:
    quiet = deident("run", str(notes), "-o", "quiet.jsonl", "--pipeline", "rules", "--quiet", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""
    args = ["detect", str(notes), "-o", "verbose.jsonl", "--pipeline", "rules", "--verbose"]
    verbose = deident(*args, cwd=tmp_path)
    assert verbose.returncode == 0, verbose.stderr
    stages = re.findall(r"^stage (\w+): \d+\.\d\d s$", verbose.stderr, flags=re.MULTILINE)
    assert stages == ["read", "load", "detect", "write"]
    assert "Kowalski" not in verbose.stderr


def test_quiet_silences_train_and_synth(tmp_path: Path) -> None:
    from tests.detect.crf.synthetic import synthetic_corpus

    from deident.io import write_corpus

    write_corpus(synthetic_corpus(12), tmp_path / "train.jsonl")
    args = ["train", "train.jsonl", "-o", "model", "--pipeline", "crf", "--clusters", "0", "--iterations", "5"]
    trained = deident(*args, "--no-providers", "--no-source", "--quiet", cwd=tmp_path)
    assert trained.returncode == 0 and trained.stderr == "", trained.stderr
    synth = deident("synth", "-o", "synth.jsonl", "--notes", "2", "--quiet", cwd=tmp_path)
    assert synth.returncode == 0 and synth.stderr == "" and (tmp_path / "synth.jsonl").exists()


def test_run_reads_the_encoding_given(tmp_path: Path) -> None:
    source = tmp_path / "notes.csv"
    source.write_bytes("id,text\n1,Seen by Dr. Müller.\n".encode("latin-1"))
    args = ["run", str(source), "-o", str(tmp_path / "out.csv"), "--pipeline", "rules", "--encoding", "latin-1"]
    assert runner.invoke(app, [*args, "--quiet"]).exit_code == 0
    assert read_corpus(tmp_path / "out.csv")[0].text == "Seen by Dr. [**DOCTOR**]."


@pytest.mark.parametrize("command", ["run", "detect", "convert"])
@pytest.mark.parametrize("where", ["same", "inside"])
def test_an_input_is_never_overwritten(command: str, where: str, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    note = folder / "a.txt"
    note.write_text(NOTE)
    source, output = (note, note) if where == "same" else (folder, folder / "out")
    args = {
        "run": ["run", str(source), "-o", str(output), "--pipeline", "rules", "--overwrite"],
        "detect": ["detect", str(source), "-o", str(output), "--pipeline", "rules"],
        "convert": ["convert", str(source), str(output)],
    }[command]
    result = runner.invoke(app, args)
    assert result.exit_code != 0 and "that is the input" in str(result.exception)
    assert note.read_text() == NOTE and sorted(p.name for p in folder.iterdir()) == ["a.txt"]


@pytest.mark.parametrize("command", ["run", "detect", "convert", "evaluate"])
def test_an_empty_input_is_an_input_error(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n\n")  # no notes, though not 0 bytes
    for source in (empty, blank):
        args = {
            "run": ["run", str(source), "-o", "out.jsonl", "--pipeline", "rules"],
            "detect": ["detect", str(source), "-o", "out.jsonl", "--pipeline", "rules"],
            "convert": ["convert", str(source), "out.csv"],
            "evaluate": ["evaluate", str(source), str(source)],
        }[command]
        result = deident(*args, cwd=tmp_path)
        assert result.returncode == EXIT_INPUT, result.stderr
        assert result.stderr == f"error: {source}: empty input (no notes)\n"
        assert not (tmp_path / "out.jsonl").exists()


def test_install_hints_name_real_extras() -> None:
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    hints = [
        match
        for path in (ROOT / "src" / "deident").rglob("*.py")
        for match in re.findall(r"pip install \S*deident\S*", path.read_text(encoding="utf-8"))
    ]
    assert hints
    for hint in hints:
        named = re.search(r"deident\[([\w-]+)\]", hint)
        assert named is not None and named.group(1) in extras, hint


def test_an_install_hint_keeps_its_extra_when_printed(capsys: pytest.CaptureFixture[str]) -> None:
    app_module._error('the REST service needs fastapi and uvicorn: pip install "deident[service]"')
    assert (
        capsys.readouterr().err == 'error: the REST service needs fastapi and uvicorn: pip install "deident[service]"\n'
    )
