"""What a format cannot hold of a corpus, kept beside it: a JSONL side file of original ids, metadata and order.

PhysioNet (ids become ``<patient>_<note>``), BRAT and the i2b2 formats (ids only, no document metadata;
folders are read in id order) lose part of a corpus. Their writers (through ``deident.io.formats``) read
the written corpus back and record, per document, what came back different: ``{"written_id", "id",
"metadata", "labels"}``, in the original order. Their readers apply it, so a conversion there and back keeps ids,
metadata (patients, note dates, extra fields) and order. Span labels a format folds (a PhysioNet ``.phrase``
keeps 10 types of the 31) are recorded too, but restored only when the reader is asked to
(``ReadOptions.restore_labels``, which ``deident convert`` sets): ``evaluate`` compares a PhysioNet prediction's
folded types with gold files folded the same way. The side
file is ``deident-metadata.jsonl`` inside a folder corpus, ``X.metadata.jsonl`` beside a file ``X``; none is
written (and a stale one is removed) when nothing was lost.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import InputFormatError
from deident.core.labels import Label
from deident.io.jsonl import dumps_line

FOLDER_SIDECAR = "deident-metadata.jsonl"
FILE_SUFFIX = ".metadata.jsonl"

Reader = Callable[[Path], list[AnnotatedDocument]]


def sidecar_path(path: Path, directory: bool) -> Path:
    return path / FOLDER_SIDECAR if directory else path.with_name(path.name + FILE_SUFFIX)


def write_sidecar(
    items: Sequence[AnnotatedDocument],
    path: Path,
    directory: bool,
    read_back: Reader,
    written_id: Callable[[AnnotatedDocument], str],
) -> None:
    """Compare the written corpus at ``path`` with ``items``; keep what differs in the side file."""
    back = read_back(path)
    by_id = {item.id: item for item in back}
    written = [written_id(item) for item in items]
    with sidecar_writer(path, directory) as sidecar:
        sidecar.lost = [d.id for d in back] != written
        for item, wid in zip(items, written, strict=True):
            sidecar.add(item, wid, by_id.get(wid))


class SidecarRecords:
    """The side file's records as the notes are written, one at a time (see :func:`sidecar_writer`)."""

    def __init__(self, handle: IO[str]) -> None:
        self._handle = handle
        self.lost = False

    def add(self, item: AnnotatedDocument, written_id: str, got: AnnotatedDocument | None) -> None:
        """The record of ``item``, written as ``written_id``; ``got`` is what the format reads back for it."""
        record: dict[str, Any] = {"written_id": written_id}
        if item.id != written_id:
            record["id"] = item.id
        if got is None or got.document.metadata != item.document.metadata:
            record["metadata"] = item.document.metadata.as_dict()
        if got is not None and _offsets(got) == _offsets(item) and _labels(got) != _labels(item):
            record["labels"] = _labels(item)
        self.lost = self.lost or len(record) > 1
        self._handle.write(dumps_line(record) + "\n")


@contextlib.contextmanager
def sidecar_writer(path: Path, directory: bool) -> Iterator[SidecarRecords]:
    """The side file of the corpus at ``path``, written atomically as records are added; when nothing was lost
    there is none (a stale one is removed)."""
    sidecar = sidecar_path(path, directory)
    with atomic_write(sidecar) as handle:
        records = SidecarRecords(handle)
        yield records
    if not records.lost:
        sidecar.unlink(missing_ok=True)


def _offsets(item: AnnotatedDocument) -> list[tuple[int, int]]:
    return [(span.start, span.end) for span in item.spans]


def _labels(item: AnnotatedDocument) -> list[str]:
    return [span.label.value for span in item.spans]


def apply_sidecar(
    docs: list[AnnotatedDocument], path: Path, directory: bool, restore_labels: bool = False
) -> list[AnnotatedDocument]:
    """The documents with the side file's ids, metadata and order, when there is one (and with
    ``restore_labels``, the span labels the format folded)."""
    sidecar = sidecar_path(path, directory)
    if not sidecar.is_file():
        return docs
    remaining = {item.id: item for item in docs}
    out = []
    for where, record in _records(sidecar):
        item = remaining.pop(str(record["written_id"]), None)
        if item is None:
            raise InputFormatError(sidecar, where, _NOT_OURS)
        out.append(_restored(item, record, sidecar, where, restore_labels))
    out.extend(remaining.values())
    return out


def iter_applied_sidecar(
    read: Callable[[], Iterable[AnnotatedDocument]], path: Path, directory: bool, restore_labels: bool = False
) -> Iterator[AnnotatedDocument]:
    """:func:`apply_sidecar` one document at a time, for a reader that streams (``read()`` gives the documents
    afresh at each call). A side file holds its records in the order the writer wrote the corpus: the two are
    read side by side after a first pass checks that they match, line for note; when they do not (the corpus
    was edited since), the documents are read whole and reordered."""
    sidecar = sidecar_path(path, directory)
    if not sidecar.is_file():
        yield from read()
        return
    pairs = itertools.zip_longest(read(), _records(sidecar))
    if not all(doc is not None and line is not None and doc.id == str(line[1]["written_id"]) for doc, line in pairs):
        yield from apply_sidecar(list(read()), path, directory, restore_labels)
        return
    for item, (where, record) in zip(read(), _records(sidecar), strict=True):
        yield _restored(item, record, sidecar, where, restore_labels)


_NOT_OURS = "not a record of this corpus's documents (remove the side file if the corpus changed)"


def _records(sidecar: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """The side file's records with their lines, read one line at a time."""
    with sidecar.open(encoding="utf-8-sig", newline="") as handle:
        for number, raw in enumerate(_lines(handle, sidecar), start=1):
            if not raw.strip():
                continue
            where = f"line {number}"
            try:
                record = json.loads(raw)
            except json.JSONDecodeError:
                raise InputFormatError(sidecar, where, _NOT_OURS) from None
            if not isinstance(record, dict) or "written_id" not in record:
                raise InputFormatError(sidecar, where, _NOT_OURS)
            yield where, record


def _lines(handle: IO[str], path: Path) -> Iterator[str]:
    """Lines split at line feeds only, not at a lone carriage return (which JSON keeps as white space)."""
    rest = ""
    try:
        while block := handle.read(1 << 16):
            *complete, rest = (rest + block).split("\n")
            yield from complete
    except UnicodeDecodeError:
        raise InputFormatError(path, None, "not valid UTF-8") from None
    yield rest


def _restored(
    item: AnnotatedDocument, record: dict[str, Any], sidecar: Path, where: str, restore_labels: bool
) -> AnnotatedDocument:
    metadata = item.document.metadata
    if "metadata" in record:
        try:
            metadata = DocumentMetadata.from_dict(record["metadata"])
        except (TypeError, ValueError):
            raise InputFormatError(sidecar, where, "bad metadata") from None
    spans = item.spans
    labels = record.get("labels")
    if restore_labels and labels is not None:
        if not isinstance(labels, list) or len(labels) != len(spans):
            raise InputFormatError(sidecar, where, "labels do not match the spans (remove the side file)")
        try:
            spans = tuple(span.with_label(Label(str(label))) for span, label in zip(spans, labels, strict=True))
        except ValueError:
            raise InputFormatError(sidecar, where, "an unknown label") from None
    return AnnotatedDocument(Document(str(record.get("id", item.id)), item.text, metadata), spans)
