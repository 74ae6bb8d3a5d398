"""Plain text: a ``.txt`` file is one document; a folder of ``.txt`` files is a corpus.

Ids are file paths relative to the folder without ``.txt`` (a single file: its stem), in sorted
order; ids "<patient>_<note>" give patient and note metadata. Text is kept byte for byte (line
breaks untouched); a file's UTF-8 byte order mark is not text, and is written again on output
(``metadata.extra["file:bom"]``). Spans and metadata, which plain text cannot hold, go to a JSONL sidecar:
``spans.jsonl`` in the folder, or ``X.spans.jsonl`` beside a single ``X.txt``, one line
``{"id", "metadata", "spans"}`` per document, in the corpus's order; it is read back when present.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import ConfigurationError, InputFormatError
from deident.io.corpus_files import exact_content, file_for_id, folder_files, metadata_from_id, read_exact
from deident.io.jsonl import document_to_record, record_to_document

SIDECAR = "spans.jsonl"
BOM_KEY = "file:bom"
_BOM = "\ufeff"
_BOM_BYTES = _BOM.encode("utf-8")


def sidecar_path(path: Path) -> Path:
    """The spans file of a folder corpus or of a single ``X.txt``."""
    return path / SIDECAR if path.is_dir() or path.suffix != ".txt" else path.with_name(path.stem + ".spans.jsonl")


def _sidecar_lines(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """The sidecar's JSON objects with their positions ("line N"), blank lines skipped."""
    for number, raw in enumerate(read_exact(path).split("\n"), start=1):
        if not raw.strip():
            continue
        where = f"line {number}"
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as err:
            raise InputFormatError(path, f"{where}, column {err.colno}", f"invalid JSON ({err.msg})") from None
        if not isinstance(record, dict):
            raise InputFormatError(path, where, "each line must be a JSON object")
        yield where, record


def _read_sidecar(path: Path, texts: dict[str, str]) -> dict[str, AnnotatedDocument]:
    """Documents of the sidecar by id; beside a single file, its one line names that file's document."""
    single = next(iter(texts.values())) if len(texts) == 1 and path.name != SIDECAR else None
    found: dict[str, AnnotatedDocument] = {}
    for where, record in _sidecar_lines(path):
        doc_id = str(record.get("id"))
        text = single if single is not None and not found else texts.get(doc_id)
        if text is None:
            raise InputFormatError(path, where, "no .txt file for this line's document id")
        found[doc_id] = record_to_document({**record, "text": text}, path, where)
    return found


def read_text_corpus(path: str | Path, encoding: str = "utf-8") -> list[AnnotatedDocument]:
    path = Path(path)
    if path.is_dir():
        return list(iter_text_folder(path, encoding))
    files = [(path.stem, path)]
    texts = {doc_id: read_exact(file, encoding) for doc_id, file in files}
    with_bom = {doc_id for doc_id, file in files if _starts_with_bom(file, texts[doc_id])}
    sidecar = sidecar_path(path)
    annotated = _read_sidecar(sidecar, texts) if sidecar.exists() else {}
    docs = list(annotated.values()) or [
        AnnotatedDocument(Document(doc_id, text, metadata_from_id(doc_id))) for doc_id, text in texts.items()
    ]
    return [_mark_bom(item) if item.id in with_bom or len(docs) == len(with_bom) == 1 else item for item in docs]


def iter_text_corpus(path: str | Path, encoding: str = "utf-8") -> Iterator[AnnotatedDocument]:
    """A folder's documents one file at a time (a single file is one document)."""
    path = Path(path)
    return iter_text_folder(path, encoding) if path.is_dir() else iter(read_text_corpus(path, encoding))


def iter_text_folder(folder: Path, encoding: str = "utf-8") -> Iterator[AnnotatedDocument]:
    """A folder's documents, each file read as its turn comes: those of the sidecar in its order (memory holds its
    spans and metadata, not the texts), then the files it lacks, in id order."""
    files = dict(folder_files(folder, ".txt"))
    sidecar = folder / SIDECAR
    records = _sidecar_records(sidecar, files) if sidecar.exists() else {}
    for doc_id, (where, record) in records.items():
        text = read_exact(files[doc_id], encoding)
        yield _bom_marked(record_to_document({**record, "text": text}, sidecar, where), files[doc_id])
    for doc_id, file in files.items():
        if doc_id not in records:
            text = read_exact(file, encoding)
            yield _bom_marked(AnnotatedDocument(Document(doc_id, text, metadata_from_id(doc_id))), file)


def _sidecar_records(path: Path, files: dict[str, Path]) -> dict[str, tuple[str, dict[str, object]]]:
    """A folder sidecar's lines by document id (the last line of an id wins, in the place of its first), with
    their positions; without their texts, which are read with each document."""
    found: dict[str, tuple[str, dict[str, object]]] = {}
    for where, record in _sidecar_lines(path):
        doc_id = str(record.get("id"))
        if doc_id not in files:
            raise InputFormatError(path, where, "no .txt file for this line's document id")
        found[doc_id] = (where, record)
    return found


def _bom_marked(item: AnnotatedDocument, file: Path) -> AnnotatedDocument:
    return _mark_bom(item) if _starts_with_bom(file, item.text) else item


def _starts_with_bom(file: Path, text: str) -> bool:
    """True when the file starts with a byte order mark that read_exact dropped (and that is not the
    doubled mark of a note that itself begins with U+FEFF, see exact_content)."""
    with file.open("rb") as handle:
        head = handle.read(3)
    return head == _BOM_BYTES and not text.startswith(_BOM)


def _mark_bom(item: AnnotatedDocument) -> AnnotatedDocument:
    meta = item.document.metadata.with_extra(**{BOM_KEY: "1"})
    return AnnotatedDocument(Document(item.id, item.text, meta), item.spans)


def _file_content(item: AnnotatedDocument) -> str:
    content = exact_content(item.text)
    if item.document.metadata.get_extra(BOM_KEY) == "1" and not content.startswith(_BOM):
        content = _BOM + content
    return content


def write_text_corpus(documents: Iterable[AnnotatedDocument], path: str | Path) -> Path:
    """Write a folder of ``<id>.txt`` (or one ``X.txt`` for a single document) and the sidecar, one document at a
    time (each file atomically; the sidecar last). A folder's notes are written into a staging folder beside it and
    moved in once every note is written, so a note refused or failed half-way leaves nothing in the folder."""
    path = Path(path)
    items = iter(documents)
    if path.suffix == ".txt" and not path.is_dir():
        first = list(itertools.islice(items, 2))
        if len(first) != 1:
            count = len(first) + sum(1 for _ in items)
            raise ConfigurationError(f"{path}: a single .txt file holds one document, not {count}; name a folder")
        with atomic_write(sidecar_path(path)) as sidecar:
            with atomic_write(path) as handle:
                handle.write(_file_content(first[0]))
            sidecar.write(_sidecar_record(first[0]))
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent))
    try:
        written: list[str] = []
        with atomic_write(sidecar_path(staging)) as sidecar:
            for item in items:
                note_file = file_for_id(staging, item.id, ".txt")
                with atomic_write(note_file) as handle:
                    handle.write(_file_content(item))
                written.append(note_file.relative_to(staging).as_posix())
                sidecar.write(_sidecar_record(item))
        path.mkdir(parents=True, exist_ok=True)
        for relative in written:
            if "/" in relative:  # an id with sub-folders ("7/1")
                (path / relative).parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / relative, path / relative)
        os.replace(sidecar_path(staging), sidecar_path(path))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return path


def _sidecar_record(item: AnnotatedDocument) -> str:
    record = document_to_record(item)
    del record["text"]
    return json.dumps(record, ensure_ascii=False) + "\n"
