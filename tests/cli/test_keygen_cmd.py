"""``deident keygen``."""

from __future__ import annotations

import stat
from pathlib import Path

from typer.testing import CliRunner

from deident.cli.app import app
from deident.core.errors import ConfigurationError
from deident.replace import SecretKey

runner = CliRunner()


def test_keygen_writes_a_private_usable_key(tmp_path: Path) -> None:
    key = tmp_path / "keys" / "site.key"
    result = runner.invoke(app, ["keygen", str(key)])
    assert result.exit_code == 0, result.output
    text = key.read_text().strip()
    assert len(text) == 64 and int(text, 16) >= 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert SecretKey.from_file(key).key_id in result.output and text not in result.output


def test_keygen_keys_differ(tmp_path: Path) -> None:
    runner.invoke(app, ["keygen", str(tmp_path / "a")])
    runner.invoke(app, ["keygen", str(tmp_path / "b")])
    assert (tmp_path / "a").read_text() != (tmp_path / "b").read_text()


def test_keygen_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    key = tmp_path / "k"
    runner.invoke(app, ["keygen", str(key)])
    first = key.read_text()
    result = runner.invoke(app, ["keygen", str(key)])
    assert isinstance(result.exception, ConfigurationError) and "exists already" in str(result.exception)
    assert key.read_text() == first
    assert runner.invoke(app, ["keygen", str(key), "--force"]).exit_code == 0
    assert key.read_text() != first
