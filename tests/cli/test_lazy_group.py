"""deident.cli.lazy_group and its use in deident.cli.app: a command's module is imported only when that command
runs, and ``deident --help`` lists every command exactly as its docstring would."""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer
from typer.core import TyperCommand, TyperGroup
from typer.testing import CliRunner

from deident.cli.app import app

GROUP = typer.main.get_command(app)
assert isinstance(GROUP, TyperGroup)
LAZY = dict(getattr(GROUP, "lazy_commands", {}))

# Prints the command modules (deident.cli.*_cmd) and heavy libraries imported after running ``deident ARGS``.
PROBE = """
import sys
from deident.cli.app import main
sys.argv = ["deident", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
heavy = ("numpy", "scipy", "faker", "sklearn", "numba", "wordfreq", "pyarrow", "fastapi")
loaded = [m for m in sys.modules if (m.startswith("deident.cli.") and m.endswith("_cmd")) or m in heavy]
print("LOADED", " ".join(sorted(loaded)))
"""


def loaded_after(*args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120, check=True
    )
    line = next(line for line in result.stdout.splitlines() if line.startswith("LOADED"))
    return line.split()[1:]


def test_every_command_but_version_is_lazy() -> None:
    assert set(GROUP.list_commands(typer.Context(GROUP))) == {*LAZY, "version"}
    assert len(LAZY) >= 13


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["-h"], ["version"], []])
def test_start_up_imports_no_command_module_nor_heavy_library(args: list[str]) -> None:
    assert loaded_after(*args) == []


def test_a_command_imports_its_own_module_only() -> None:
    assert loaded_after("keygen", "--help") == ["deident.cli.keygen_cmd"]


@pytest.mark.parametrize("name", sorted(LAZY))
@pytest.mark.parametrize("limit", [12, 45, 60, 80, 10_000])
def test_listed_summary_is_what_the_docstring_gives(name: str, limit: int) -> None:
    command = GROUP.get_command(typer.Context(GROUP), name)
    assert command is not None
    listed = TyperCommand(name, help=LAZY[name].summary).get_short_help_str(limit)
    assert listed == command.get_short_help_str(limit)


@pytest.mark.parametrize("name", sorted(LAZY))
def test_help_lists_each_command(name: str) -> None:
    result = CliRunner().invoke(app, ["--help"], terminal_width=200)
    assert result.exit_code == 0
    assert f"  {name} " in result.output


def test_unknown_command_suggests_a_lazy_one() -> None:
    result = CliRunner().invoke(app, ["rn"])
    assert result.exit_code == 2
    assert "No such command 'rn'. Did you mean 'run'?" in result.output
