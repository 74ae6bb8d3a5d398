"""Corpus formats by name, and detection from paths.

Each format is a reader (path -> documents) and optionally a writer (documents, path -> None).
The table is explicit: adding a format means adding a row here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deident.core.document import AnnotatedDocument
from deident.core.errors import ConfigurationError
from deident.io import jsonl, physionet


@dataclass(frozen=True)
class ReadOptions:
    """Options for table and plain-text inputs (ignored by formats that carry their own ids)."""

    text_col: str = "text"
    id_col: str | None = None
    patient_col: str | None = None
    encoding: str = "utf-8"
    annotations: Path | None = None  # an explicit annotation file (e.g. a .phrase) for the input


@dataclass(frozen=True)
class CorpusFormat:
    name: str
    extensions: tuple[str, ...]
    read: Callable[[Path, ReadOptions], list[AnnotatedDocument]]
    write: Callable[[Sequence[AnnotatedDocument], Path], None] | None = None
    description: str = ""
    directory: bool = False  # True when the format is a folder of files
    aliases: tuple[str, ...] = field(default=())


def _read_physionet(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return physionet.read_physionet(path, options.annotations)


def _write_physionet(docs: Sequence[AnnotatedDocument], path: Path) -> None:
    physionet.write_physionet(docs, path)


def _read_jsonl(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return jsonl.read_jsonl(path)


def _write_jsonl(docs: Sequence[AnnotatedDocument], path: Path) -> None:
    jsonl.write_jsonl(docs, path)


FORMATS: dict[str, CorpusFormat] = {
    "physionet": CorpusFormat(
        "physionet", (".text",), _read_physionet, _write_physionet, "PhysioNet deid .text with .phrase annotations"
    ),
    "jsonl": CorpusFormat("jsonl", (".jsonl", ".ndjson"), _read_jsonl, _write_jsonl, "one JSON document per line"),
}


def get_format(name: str) -> CorpusFormat:
    key = name.lower()
    for fmt in FORMATS.values():
        if key == fmt.name or key in fmt.aliases:
            return fmt
    raise ConfigurationError(f"unknown format {name!r}; known: {', '.join(sorted(FORMATS))}")


def detect_format(path: Path) -> CorpusFormat:
    """Guess a path's format from its extension (folders: from the files they hold)."""
    if path.is_dir():
        for fmt in FORMATS.values():
            if fmt.directory and fmt.extensions and any(path.glob(f"*{fmt.extensions[0]}")):
                return fmt
        raise ConfigurationError(f"{path}: cannot tell the format of this folder; name it with --from/--format")
    name = path.name.lower()
    for fmt in FORMATS.values():
        if not fmt.directory and any(name.endswith(ext) for ext in fmt.extensions):
            return fmt
    raise ConfigurationError(f"{path}: cannot tell the format from the extension; name it with --from/--format")


def read_corpus(
    path: str | Path, fmt: str | None = None, options: ReadOptions | None = None
) -> list[AnnotatedDocument]:
    path = Path(path)
    if not path.exists():
        raise ConfigurationError(f"{path}: no such file or folder")
    corpus_format = get_format(fmt) if fmt else detect_format(path)
    return corpus_format.read(path, options or ReadOptions())


def write_corpus(docs: Sequence[AnnotatedDocument], path: str | Path, fmt: str | None = None) -> None:
    path = Path(path)
    corpus_format = get_format(fmt) if fmt else _output_format(path)
    if corpus_format.write is None:
        raise ConfigurationError(f"format {corpus_format.name!r} can be read but not written")
    corpus_format.write(docs, path)


def _output_format(path: Path) -> CorpusFormat:
    if path.exists():
        return detect_format(path)
    name = path.name.lower()
    for fmt in FORMATS.values():
        if any(name.endswith(ext) for ext in fmt.extensions if ext):
            return fmt
    raise ConfigurationError(f"{path}: cannot tell the output format from the name; name it with --to/--format")
