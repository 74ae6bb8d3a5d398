"""The ``deident`` entry point: errors end in one line on stderr with the documented exit status, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deident.cli.conventions import EXIT_INPUT, EXIT_TERMINATED, EXIT_USAGE


def deident(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        [sys.executable, "-m", "deident", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], status: int, *needles: str) -> None:
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr and "Exception" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.stderr
    for needle in needles:
        assert needle in errors[0], errors[0]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "ok.jsonl").write_text(json.dumps({"id": "1", "text": "Seen by Dr. Kowalski."}) + "\n")
    return tmp_path


def test_invalid_utf8_in_jsonl_names_the_line(work: Path) -> None:
    (work / "bad.jsonl").write_bytes(b'{"id": "1", "text": "ok"}\n{"id": "2", "text": "Kowalski \xff\xfe"}\n')
    result = deident("run", "bad.jsonl", "-o", "out.jsonl", "--pipeline", "rules", "--quiet", cwd=work)
    assert_one_line_error(result, EXIT_INPUT, "bad.jsonl, line 2", "not valid UTF-8")
    assert "Kowalski" not in result.stderr


def test_a_folder_given_as_a_single_file_format(work: Path) -> None:
    (work / "folder").mkdir()
    shutil.copy(work / "ok.jsonl", work / "folder" / "a.jsonl")
    result = deident("run", "folder", "--format", "jsonl", "-o", "out.jsonl", "--pipeline", "rules", cwd=work)
    assert_one_line_error(result, EXIT_USAGE, "folder: a folder", "'jsonl' reads one file")


def test_an_output_that_cannot_be_written(work: Path) -> None:
    (work / "a-file").write_text("x")  # a path under a file cannot be created, even by root
    result = deident("run", "ok.jsonl", "-o", "a-file/out.jsonl", "--pipeline", "rules", "--quiet", cwd=work)
    assert_one_line_error(result, EXIT_INPUT, "a-file")


def test_warnings_are_one_line(work: Path) -> None:
    key = work / "key"
    key.write_text("f745c9da2db9fe2993e7a565e8a1769fedc504a998377dc9b7823ca5942ed188\n")
    key.chmod(0o644)
    args = ["run", "ok.jsonl", "-o", "out.jsonl", "--pipeline", "rules", "--quiet", "--mode", "surrogate"]
    result = deident(*args, "--key", "key", cwd=work)
    assert result.returncode == 0, result.stderr
    assert "warning: key: the key file can be read by other users (mode 644); chmod 600 it" in result.stderr
    assert "warnings.warn" not in result.stderr


@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs Java")
def test_spark_reads_a_csv_by_its_extension(work: Path) -> None:
    pytest.importorskip("pyspark")
    (work / "notes.csv").write_text('id,text\n1,"Seen by Dr. Kowalski."\n')
    args = ["spark", "notes.csv", "-o", "out", "--pipeline", "rules", "--master", "local[1]"]
    result = deident(*args, cwd=work)
    assert result.returncode == 0, result.stderr
    assert "1 rows de-identified" in result.stdout and (work / "out" / "_SUCCESS").exists()
    unknown = deident("spark", "notes.dat", "-o", "out2", "--pipeline", "rules", cwd=work)
    assert_one_line_error(unknown, EXIT_USAGE, "notes.dat", "--format")


def test_sigterm_ends_a_run_without_leaving_a_copy_of_its_notes(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"  # the run's temporary folder: the copy of stdin and the spilled notes go there
    scratch.mkdir()
    note = "Seen by Dr. Kowalski on 3/14/2021 at Mercy Hospital, call 617-555-0123. " * 3
    notes = "".join(json.dumps({"id": str(i), "text": note}) + "\n" for i in range(40_000))  # 9 MB: seconds of work
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(scratch)}
    args = ["run", "-", "-o", "out.jsonl", "--format", "jsonl", "--pipeline", "rules", "--quiet"]
    process = subprocess.Popen(
        [sys.executable, "-m", "deident", *args], cwd=tmp_path, stdin=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert process.stdin is not None
    process.stdin.write(notes.encode())
    process.stdin.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(scratch.glob("*/stdin*")):
        time.sleep(0.02)
    assert process.poll() is None, "the run ended before it could be stopped"
    process.send_signal(signal.SIGTERM)
    assert process.stderr is not None
    process.wait(timeout=120)
    stderr = process.stderr.read().decode()
    assert process.returncode == EXIT_TERMINATED, stderr
    assert stderr.strip().splitlines()[-1] == "error: terminated"
    assert list(scratch.rglob("*")) == []
    assert not (tmp_path / "out.jsonl").exists()
