"""``deident serve`` on the command line: option checks (the service itself: tests/service)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deident.cli.app import app
from deident.core.errors import ConfigurationError

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mode", "shred"], "unknown mode"),
        (["--key", "KEYFILE", "--ephemeral-key"], "either --key or --ephemeral-key"),
        (["--mode", "surrogate"], "needs a secret key"),
    ],
)
def test_serve_rejects_bad_options(args: list[str], message: str, tmp_path: Path) -> None:
    key = tmp_path / "key"
    key.write_text("serve-test-key-0000000001")
    args = [str(key) if a == "KEYFILE" else a for a in args]
    result = runner.invoke(app, ["serve", "--pipeline", "rules", *args])
    assert isinstance(result.exception, ConfigurationError)
    assert message in str(result.exception)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_answers_http(tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "deident", "serve", "--pipeline", "rules", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                    assert b'"status":"ok"' in r.read()
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.3)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/deidentify",
            data=b'{"text": "Call Dr. Kowalski at 617-555-0123."}',
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            body = r.read().decode()
        assert "617-555-0123" not in body and "Kowalski" not in body
    finally:
        proc.terminate()
        proc.wait(timeout=10)
