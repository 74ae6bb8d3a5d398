from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
import httpx
from tests.review.conftest import NOTE_A, NOTE_B, invented_notes

from deident.api import Deidentifier
from deident.cli.review_cmd import allowed_hosts, is_loopback
from deident.io.jsonl import write_jsonl
from deident.review.session import load_notes

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture
def notes_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.jsonl"
    write_jsonl(invented_notes(), path)
    return path


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("review.example.org", False),
    ],
)
def test_is_loopback(host, loopback):
    assert is_loopback(host) is loopback


def test_allowed_hosts_are_this_machine_and_the_bound_host():
    assert allowed_hosts("10.0.0.5") == frozenset({"127.0.0.1", "localhost", "::1", "10.0.0.5"})
    assert allowed_hosts("0.0.0.0") == frozenset({"*"})  # every interface: any name, the token still needed


def test_notes_are_detected_through_the_facade(notes_file):
    notes = load_notes(notes_file, Deidentifier.load(pipeline="rules", preload=False))
    first = notes[0]
    assert {first.text[s.start : s.end] for s in first.spans} >= {"Kowalski", "3/14/2019", "617-555-0143"}
    assert all(s.source != "patterns.test" for n in notes for s in n.spans)  # detected, not the file's spans


def test_server_refuses_without_token_and_logs_no_phi(tmp_path, notes_file):
    command = [
        sys.executable,
        "-m",
        "deident",
        "review",
        str(notes_file),
        "--spans",
        str(notes_file),
        "-o",
        str(tmp_path / "out.jsonl"),
        "--reviewer",
        "ann",
        "--port",
        "0",
    ]
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = []
        deadline = time.monotonic() + 60
        url = None
        while url is None and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            lines.append(line)
            found = re.search(r"open (http://127\.0\.0\.1:\d+/)\?token=(\S+)", line)
            if found:
                url, token = found[1], found[2]
        assert url is not None, "".join(lines)
        for _ in range(100):  # the URL is printed just before the server binds
            try:
                httpx.get(url + "api/session", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert httpx.get(url + "api/notes/0").status_code == 403
        assert httpx.get(url + "api/notes/0?token=wrong").status_code == 403
        headers = {"X-Review-Token": token}
        assert httpx.get(url + "api/notes/0", headers=headers).json()["text"] == NOTE_A
        assert httpx.get(url + "api/notes/1", headers=headers).json()["text"] == NOTE_B
        start = NOTE_A.index("617")
        action = {"note": "note-a", "action": "add", "start": start, "end": start + 12, "label": "PHONE"}
        assert httpx.post(url + "api/actions", json=action, headers=headers).status_code == 200
        assert httpx.post(url + "api/actions", json={"note": "Kowalski"}, headers=headers).status_code == 422
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    logged = "".join(lines) + out + err
    for phi in ("Kowalski", "Mercy", "617-555", "Brandt", "Fairview", "note-a", "/api/"):
        assert phi not in logged
