"""Checks of a command's input and output paths made before any model loads or anything is written."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from deident.core.errors import ConfigurationError, InputFormatError


def check_inputs(inputs: Sequence[Path]) -> None:
    """Each input exists and is not an empty file (an input error otherwise)."""
    for path in inputs:
        if not path.exists():
            raise InputFormatError(path, None, "no such file or folder")
        if path.is_file() and path.stat().st_size == 0:
            raise InputFormatError(path, None, "empty input (no notes)")


def check_not_empty(path: Path | str, count: int) -> None:
    """An input that held no notes is an input error, not a silent success."""
    if count == 0:
        raise InputFormatError(path, None, "empty input (no notes)")


def refuse_overwriting_inputs(inputs: Sequence[Path], outputs: Sequence[Path]) -> None:
    """No output may be an input or lie inside an input folder (--overwrite does not change that)."""
    for output in outputs:
        written = output.resolve()
        for path in inputs:
            source = path.resolve()
            if written == source or source in written.parents:
                raise ConfigurationError(f"{output}: that is the input {path} or inside it; choose another output")
