"""Errors. Messages name files and positions, never note text or PHI."""

from __future__ import annotations

from pathlib import Path


class DeidentError(Exception):
    """Base class of deident's own errors; the CLI prints these without a traceback."""


class InputFormatError(DeidentError):
    """Malformed input. ``position`` is human-readable ("line 12", "offset 345", "tag P3")."""

    def __init__(self, path: str | Path | None, position: str | None, problem: str) -> None:
        self.path = str(path) if path is not None else None
        self.position = position
        self.problem = problem
        where = self.path or "<input>"
        if position:
            where = f"{where}, {position}"
        super().__init__(f"{where}: {problem}")


class SpanAlignmentError(InputFormatError):
    """An annotation's offsets disagree with its recorded text. The text itself is not quoted."""


class ModelError(DeidentError):
    """A model directory is missing, corrupt or incompatible with this version of deident."""


class ConfigurationError(DeidentError):
    """Options that cannot work together, or a missing key for a surrogate mode."""


class NoteTooLargeError(DeidentError):
    """A note longer than the per-note limit (``--max-note-chars``): named by its id and size, never its text."""

    def __init__(self, note_id: str, chars: int, limit: int) -> None:
        self.note_id, self.chars, self.limit = note_id, chars, limit
        super().__init__(
            f"note {note_id!r}: {chars:,} characters, over the limit of {limit:,} per note "
            "(raise it with --max-note-chars, or split the note)"
        )
