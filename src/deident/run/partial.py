"""Resumable output: per-chunk results in ``OUTPUT.partial/``, each committed atomically.

A killed run leaves whole chunk files only (atomic rename), so a restart skips the chunks already
written and redoes the rest: nothing is lost or duplicated. The manifest records the run's settings
(mode, key fingerprint, chunking); a restart with different settings is refused rather than mixing
outputs. What each chunk read is checked by the runner (a digest in each chunk's header). The final
output is assembled from the chunks only when all are present.

Chunk files are pure ASCII JSON lines (``ensure_ascii``): every Python string, lone surrogates and
line separators such as U+2028 included, is written as an escape and read back exactly; lines are
split on "\\n" only.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from deident.core.atomic import atomic_write
from deident.core.errors import ConfigurationError

MANIFEST = "manifest.json"
_CHUNK_PREFIX = "chunk-"
_CHUNK_SUFFIX = ".jsonl"


def partial_dir_for(output: Path) -> Path:
    return output.with_name(output.name + ".partial")


class PartialStore:
    """The chunk files of one output."""

    def __init__(self, output: Path) -> None:
        self.output = output
        self.path = partial_dir_for(output)

    def exists(self) -> bool:
        return self.path.exists()

    def open(self, manifest: Mapping[str, Any]) -> bool:
        """Start or resume; returns True when resuming. Refuses a partial output of another run."""
        manifest_path = self.path / MANIFEST
        if manifest_path.exists():
            try:
                previous = json.loads(manifest_path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                previous = None
            if previous != json.loads(json.dumps(dict(manifest))):
                raise ConfigurationError(
                    f"{self.path}: holds a partial run with other inputs or settings (or another key); "
                    "rerun with the same options to resume, or pass --overwrite to start again"
                )
            return True
        self.path.mkdir(parents=True, exist_ok=True)
        with atomic_write(manifest_path) as handle:
            handle.write(json.dumps(dict(manifest), indent=2, sort_keys=True))
        return False

    def chunk_path(self, index: int) -> Path:
        return self.path / f"{_CHUNK_PREFIX}{index:06d}{_CHUNK_SUFFIX}"

    def done(self) -> set[int]:
        found = set()
        for path in self.path.glob(f"{_CHUNK_PREFIX}*{_CHUNK_SUFFIX}"):
            number = path.name[len(_CHUNK_PREFIX) : -len(_CHUNK_SUFFIX)]
            if number.isdigit():
                found.add(int(number))
        return found

    def write_chunk(self, index: int, header: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> None:
        with atomic_write(self.chunk_path(index)) as handle:
            handle.write(json.dumps(dict(header)) + "\n")
            for record in records:
                handle.write(json.dumps(dict(record)) + "\n")

    def read_chunk(self, index: int) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
        # Not str.splitlines(): it also splits at U+2028, U+2029, U+0085, ... (chunks of older versions
        # hold those raw).
        lines = [line for line in self.chunk_path(index).read_text(encoding="utf-8").split("\n") if line]
        return json.loads(lines[0]), (json.loads(line) for line in lines[1:])

    def read_header(self, index: int) -> dict[str, Any]:
        with self.chunk_path(index).open("rb") as handle:
            header: dict[str, Any] = json.loads(handle.readline())
        return header

    def iter_records(self, index: int, lines_per_read: int = 64) -> Iterator[dict[str, Any]]:
        """A chunk's records one by one, ``lines_per_read`` at a time with the file closed in between, so that
        many chunks can be read side by side (merged) without holding them or a file handle each."""
        offset = 0
        header = True
        while True:
            lines = []
            with self.chunk_path(index).open("rb") as handle:
                handle.seek(offset)
                for _ in range(lines_per_read):
                    line = handle.readline()
                    if not line:
                        break
                    lines.append(line)
                offset = handle.tell()
            if not lines:
                return
            for line in lines:
                if header:
                    header = False
                elif line.strip():
                    yield json.loads(line)

    def staging(self) -> Path:
        """An empty folder in which the final output is written before it is moved into place."""
        stage = self.path / "assemble"
        if stage.exists():
            shutil.rmtree(stage)
        stage.mkdir(parents=True)
        return stage

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
