"""JSONL corpus: one document per line,
``{"id", "text", "metadata", "spans": [{"start", "end", "label", ...}]}``.

Optional span keys "source", "score", "evidence" (notes for people) and "parts" (a merged candidate's
detector proposals, ``[{"source", "label", "start", "end", "score"}]``) are kept; a "text" key on a
span is checked against the document and never written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import InputFormatError, SpanAlignmentError
from deident.core.labels import Label
from deident.core.provenance import Part
from deident.core.span import Span
from deident.io.corpus_files import LONE_SURROGATE, not_valid


def iter_jsonl(path: str | Path) -> Iterator[AnnotatedDocument]:
    """Stream documents from a JSONL file."""
    path = Path(path)
    seen: dict[str, int] = {}
    # Binary lines end at b"\n" only (a stray "\r" is JSON whitespace or an error, never a line break; U+2028
    # and NEL stay inside their line); a byte order mark before the first record is accepted.
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if number == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            try:
                raw = line.decode("utf-8")
            except UnicodeDecodeError as err:
                problem = not_valid("UTF-8", line[:4] if number == 1 else b"", encoding_option=False)
                raise InputFormatError(path, f"line {number}, byte {err.start + 1}", problem) from None
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except json.JSONDecodeError as err:
                raise InputFormatError(
                    path, f"line {number}, column {err.colno}", f"invalid JSON ({err.msg})"
                ) from None
            item = record_to_document(record, path, f"line {number}")
            if item.id in seen:
                raise InputFormatError(path, f"line {number}", f"duplicate document id (first at line {seen[item.id]})")
            seen[item.id] = number
            yield item


def read_jsonl(path: str | Path) -> list[AnnotatedDocument]:
    return list(iter_jsonl(path))


def record_to_document(record: Any, path: Path | None, where: str) -> AnnotatedDocument:
    if not isinstance(record, dict):
        raise InputFormatError(path, where, "each line must be a JSON object")
    text = record.get("text")
    if not isinstance(text, str):
        raise InputFormatError(path, where, "missing string field 'text'")
    doc_id = record.get("id")
    if doc_id is None or isinstance(doc_id, (dict, list)):
        raise InputFormatError(path, where, "missing field 'id'")
    try:
        metadata = DocumentMetadata.from_dict(record.get("metadata") or {})
    except (ValueError, TypeError) as err:
        raise InputFormatError(path, where, f"bad metadata: {err}") from None
    spans = []
    for index, raw in enumerate(record.get("spans") or []):
        spot = f"{where}, span {index}"
        try:
            start, end = int(raw["start"]), int(raw["end"])
            label = Label.parse(str(raw["label"]))
        except (KeyError, TypeError, ValueError) as err:
            raise InputFormatError(
                path, spot, f"bad span ({type(err).__name__}: needs integer start, end and a known label)"
            ) from None
        if not 0 <= start < end <= len(text):
            raise InputFormatError(path, spot, f"offsets [{start}, {end}) outside a text of {len(text)} characters")
        if "text" in raw and text[start:end] != raw["text"]:
            raise SpanAlignmentError(path, spot, f"offsets [{start}, {end}) do not cover the span's 'text'")
        score = raw.get("score")
        try:
            parts = tuple(_part_from_record(part) for part in raw.get("parts", ()))
        except (AttributeError, KeyError, TypeError, ValueError) as err:
            raise InputFormatError(
                path, spot, f"bad span parts ({type(err).__name__}: each needs a source, a known label, start, end)"
            ) from None
        spans.append(
            Span(
                start,
                end,
                label,
                source=str(raw.get("source", "")),
                score=None if score is None else float(score),
                evidence=tuple(str(e) for e in raw.get("evidence", ())),
                parts=parts,
            )
        )
    return AnnotatedDocument(Document(str(doc_id), text, metadata), tuple(spans))


def document_to_record(item: AnnotatedDocument, with_details: bool = True) -> dict[str, Any]:
    spans = []
    for span in item.spans:
        entry: dict[str, Any] = {"start": span.start, "end": span.end, "label": span.label.value}
        if with_details:
            if span.source:
                entry["source"] = span.source
            if span.score is not None:
                entry["score"] = round(span.score, 6)
            if span.evidence:
                entry["evidence"] = list(span.evidence)
            if span.parts:
                entry["parts"] = [_part_record(part) for part in span.parts]
        spans.append(entry)
    record: dict[str, Any] = {"id": item.id, "text": item.text}
    metadata = item.document.metadata.as_dict()
    if metadata:
        record["metadata"] = metadata
    record["spans"] = spans
    return record


def _part_record(part: Part) -> dict[str, Any]:
    record: dict[str, Any] = {"source": part.source, "label": part.label.value, "start": part.start, "end": part.end}
    if part.score is not None:
        record["score"] = part.score  # as kept (6 significant digits, see provenance.part_score)
    return record


def _part_from_record(raw: Any) -> Part:
    score = raw.get("score")
    return Part(
        str(raw["source"]),
        Label.parse(str(raw["label"])),
        int(raw["start"]),
        int(raw["end"]),
        None if score is None else float(score),
    )


def dumps_line(record: Any) -> str:
    """One JSON line (no newline) that any UTF-8 writer can hold: characters are kept as they are,
    except lone surrogates, which become their ``\\uXXXX`` escape (``json.loads`` gives them back)."""
    line = json.dumps(record, ensure_ascii=False)
    return LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", line)


def write_jsonl(documents: Iterable[AnnotatedDocument], path: str | Path) -> Path:
    path = Path(path)
    with atomic_write(path) as handle:
        for item in documents:
            handle.write(dumps_line(document_to_record(item)) + "\n")
    return path
