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
from deident.cli.serve_cmd import TOKEN_ENV, is_loopback, service_token
from deident.core.errors import ConfigurationError
from deident.core.secret_files import SecretFileWarning

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
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


def test_serve_refuses_an_unknown_mode_as_a_usage_error() -> None:
    result = runner.invoke(app, ["serve", "--pipeline", "rules", "--mode", "shred"])
    assert result.exit_code == 2 and "'shred' is not one of 'tag', 'redact'" in result.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("workers", [[], ["--workers", "0"]], ids=["worker-processes", "in-process"])
def test_serve_answers_http(workers: list[str]) -> None:
    port = _free_port()
    command = [sys.executable, "-m", "deident", "serve", "--pipeline", "rules", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--ephemeral-key", *workers],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 240  # spawned workers load the model: slow on a loaded machine
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
        # one ephemeral key for the whole service: consecutive requests (each worker in turn) agree
        surrogate = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/deidentify",
            data=b'{"text": "Call Dr. Kowalski at 617-555-0123.", "mode": "surrogate"}',
            headers={"Content-Type": "application/json"},
        )
        answers = []
        for _ in range(3):
            with urllib.request.urlopen(surrogate, timeout=30) as r:
                answers.append(r.read())
        assert answers[0] == answers[1] == answers[2] and b"Kowalski" not in answers[0]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        *((host, True) for host in ("127.0.0.1", "127.3.4.5", "::1", "[::1]", "localhost")),
        *((host, False) for host in ("0.0.0.0", "::", "10.1.2.3", "deid.example.org")),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_non_loopback_host_needs_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    result = runner.invoke(app, ["serve", "--pipeline", "rules", "--host", "0.0.0.0"])
    assert isinstance(result.exception, ConfigurationError)
    assert "--token-file" in str(result.exception) and TOKEN_ENV in str(result.exception)
    assert service_token("127.0.0.1", None) is None  # loopback: no token needed


def test_the_token_comes_from_a_file_or_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TOKEN_ENV, "  env-token-0123456789abcdef \n")
    assert service_token("0.0.0.0", None) == "env-token-0123456789abcdef"
    token_file = tmp_path / "token"
    token_file.write_text("file-token-0123456789abcdef\n")
    token_file.chmod(0o600)
    assert service_token("0.0.0.0", token_file) == "file-token-0123456789abcdef"


@pytest.mark.parametrize("token", ["short", "has spaces in the token text", "tab\tin-the-token-0123456"])
def test_weak_tokens_are_refused(token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TOKEN_ENV, token)
    with pytest.raises(ConfigurationError, match="at least 16 printable characters") as raised:
        service_token("0.0.0.0", None)
    assert token not in str(raised.value)


def test_a_token_file_others_can_read_is_warned_about(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("file-token-0123456789abcdef\n")
    token_file.chmod(0o644)
    with pytest.warns(SecretFileWarning, match="chmod 600"):
        service_token("127.0.0.1", token_file)
