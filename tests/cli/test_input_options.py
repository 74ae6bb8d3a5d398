"""The table-input options shared by the commands that read corpora."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from deident.cli.app import app
from deident.cli.input_options import read_options
from deident.core.errors import ConfigurationError
from deident.io import read_corpus

runner = CliRunner()


@pytest.mark.parametrize("command", ["run", "detect", "convert", "evaluate", "train", "cv"])
def test_every_command_that_reads_tables_has_the_options(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for option in ("--delimiter", "--encoding", "--quotechar"):
        assert option in result.output


def test_read_options_are_checked() -> None:
    assert read_options("latin-1", "tab", "'").delimiter == "\t"
    with pytest.raises(ConfigurationError, match="--encoding"):
        read_options("no-such-encoding")
    with pytest.raises(ConfigurationError, match="--delimiter must be one character"):
        read_options(delimiter=";;")
    with pytest.raises(ConfigurationError, match="must differ"):
        read_options(delimiter="'", quotechar="'")


def test_run_reads_a_semicolon_latin1_table(tmp_path: Path) -> None:
    source = tmp_path / "notes.csv"
    source.write_bytes("id;text\n1;Seen by Dr. Müller\n".encode("latin-1"))
    out = tmp_path / "out.csv"
    args = ["run", str(source), "-o", str(out), "--delimiter", ";", "--encoding", "latin-1", "--quiet"]
    result = runner.invoke(app, [*args, "--pipeline", "rules"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().decode().startswith("id;text")
    assert len(read_corpus(out, options=read_options(delimiter=";"))) == 1
