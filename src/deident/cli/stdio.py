"""``-`` as a command's input (stdin) or output (stdout): the stream goes through a file in a private temporary
folder, so every reader and writer works on it unchanged; ``--format`` names what the stream holds."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from deident.core.errors import ConfigurationError, InputFormatError
from deident.io.formats import get_format

STDIO = Path("-")
STDIN_NAME = "<stdin>"


def is_stdio(path: Path | None) -> bool:
    return path is not None and str(path) == "-"


def stream_format(fmt: str | None, option: str, direction: str) -> str:
    """The format of stdin or stdout: named by ``option``, one file that a stream can hold."""
    if fmt is None:
        raise ConfigurationError(f"{direction} (-) needs its format: give {option}")
    corpus_format = get_format(fmt)
    # PhysioNet keeps its spans in a second file and a folder format is many files: a stream holds one.
    if corpus_format.directory or corpus_format.name == "physionet":
        raise ConfigurationError(f"{option} {corpus_format.name}: {direction} (-) holds one file; use jsonl or csv")
    return corpus_format.name


def stream_path(folder: Path, stem: str, fmt: str) -> Path:
    """The file in ``folder`` that stands for the stream (its extension names the format)."""
    return folder / f"{stem}{get_format(fmt).extensions[0]}"


def read_stdin(folder: Path, fmt: str | None, option: str = "--format") -> Path:
    """stdin copied to a file in ``folder``; an empty stdin is an input error."""
    path = stream_path(folder, "stdin", stream_format(fmt, option, "stdin"))
    with path.open("wb") as copy:
        shutil.copyfileobj(sys.stdin.buffer, copy)
    if path.stat().st_size == 0:
        raise InputFormatError(STDIN_NAME, None, "empty input")
    return path


def write_stdout(path: Path) -> None:
    """The file written for ``-o -`` copied to stdout."""
    sys.stdout.flush()
    with path.open("rb") as written:
        shutil.copyfileobj(written, sys.stdout.buffer)
    sys.stdout.buffer.flush()


@contextmanager
def stdin_named(path: Path | None) -> Iterator[None]:
    """Errors about ``path``, the stdin copy, name ``<stdin>``, not the temporary file (None: not stdin)."""
    try:
        yield
    except InputFormatError as err:
        if path is not None and err.path is not None and Path(err.path) == path:
            raise InputFormatError(STDIN_NAME, err.position, err.problem) from None
        raise
