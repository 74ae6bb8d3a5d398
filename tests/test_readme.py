"""The README's code blocks run as written: every ```python block (but Spark's, which needs a Spark session and
Java: tests/spark covers it) and every `deident ...` line of the ```bash blocks, on the bundled sample."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deident.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL)
PYTHON = [code for language, code in BLOCKS if language == "python" and "deident.spark" not in code]
COMMANDS = [
    line.strip()
    for language, code in BLOCKS
    if language in {"bash", "sh", "shell"}
    for line in code.splitlines()
    if line.strip().startswith("deident ")
]


def test_the_readme_has_code_blocks() -> None:
    assert PYTHON and len(COMMANDS) >= 4


@pytest.mark.parametrize("code", PYTHON, ids=[f"python-{n}" for n in range(len(PYTHON))])
def test_python_block_runs(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})


@pytest.mark.parametrize("command", COMMANDS)
def test_shell_command_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the README's paths are relative to the repository
    args = shlex.split(command.replace("/tmp/deid", str(tmp_path)), comments=True)[1:]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
