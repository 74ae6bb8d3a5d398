"""PhysioNet deid corpus format (Neamatullah et al. 2008).

``X.text`` holds records ``START_OF_RECORD=<patient>||||<note>||||`` + newline + note text +
``||||END_OF_RECORD`` + newline, records separated by a blank line. Annotations live beside it in
``X.phrase`` (``<patient> <note> <start> <end> <type> <words>``, offsets [start, end) into the note
text). Document ids are ``<patient>_<note>``; patient and note numbers are kept as metadata.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import regex

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import InputFormatError, SpanAlignmentError
from deident.core.labels import PHYSIONET_TO_LABEL, Label
from deident.core.span import Span

_HEADER = regex.compile(r"START_OF_RECORD=([^|\r\n]*)\|\|\|\|([^|\r\n]*)\|\|\|\|\r?\n")
_END = "||||END_OF_RECORD"
_BAD_NUMBER = regex.compile(r"[|\s]")
_YEAR = regex.compile(r"(?:19|20)\d\d|'\d\d")


def phrase_path_for(text_path: Path) -> Path:
    """The annotation file beside a ``.text`` file: ``X.phrase``, else ``X-phi.phrase``."""
    for candidate in (text_path.with_suffix(".phrase"), text_path.with_name(text_path.stem + "-phi.phrase")):
        if candidate.exists():
            return candidate
    return text_path.with_suffix(".phrase")


def document_id(patient: str, note: str) -> str:
    return f"{patient}_{note}"


def parse_text(content: str, path: Path | None = None) -> list[Document]:
    """Parse the records of a ``.text`` file."""
    docs: list[Document] = []
    pos = 0
    seen: set[str] = set()
    while True:
        while pos < len(content) and content[pos] in "\r\n":
            pos += 1
        if pos >= len(content):
            break
        header = _HEADER.match(content, pos)
        if header is None:
            line = content.count("\n", 0, pos) + 1
            raise InputFormatError(path, f"line {line}", "expected 'START_OF_RECORD=<patient>||||<note>||||'")
        end = content.find(_END, header.end())
        if end < 0:
            line = content.count("\n", 0, pos) + 1
            raise InputFormatError(path, f"line {line}", "record has no '||||END_OF_RECORD'")
        patient, note = header.group(1).strip(), header.group(2).strip()
        doc_id = document_id(patient, note)
        if doc_id in seen:
            line = content.count("\n", 0, pos) + 1
            raise InputFormatError(
                path, f"line {line}", "duplicate record (the same patient and note numbers as an earlier one)"
            )
        seen.add(doc_id)
        docs.append(Document(doc_id, content[header.end() : end], DocumentMetadata(patient_id=patient, note_id=note)))
        pos = end + len(_END)
    return docs


def parse_phrase(content: str, documents: dict[str, Document], path: Path | None = None) -> dict[str, list[Span]]:
    """Parse a ``.phrase`` file against its documents, checking every offset against its words."""
    spans: dict[str, list[Span]] = {doc_id: [] for doc_id in documents}
    for number, raw in enumerate(content.splitlines(), start=1):
        if not raw.strip():
            continue
        fields = raw.split()
        where = f"line {number}"
        if len(fields) < 5:
            raise InputFormatError(path, where, "expected '<patient> <note> <start> <end> <type> <text>'")
        patient, note, start_s, end_s, type_name = fields[:5]
        words = fields[5:]
        doc = documents.get(document_id(patient, note))
        if doc is None:
            raise InputFormatError(path, where, "no record in the .text file has this line's patient and note numbers")
        try:
            start, end = int(start_s), int(end_s)
        except ValueError:
            raise InputFormatError(path, where, "start and end must be integers") from None
        if not 0 <= start < end <= len(doc.text):
            raise InputFormatError(
                path, where, f"offsets [{start}, {end}) outside a note of {len(doc.text)} characters"
            )
        label = PHYSIONET_TO_LABEL.get(type_name)
        if label is None:
            raise InputFormatError(path, where, "unknown PhysioNet PHI type in field 5")
        if words and doc.text[start:end].split() != words:
            raise SpanAlignmentError(path, where, f"offsets [{start}, {end}) do not cover the phrase's words")
        spans[doc.id].append(Span(start, end, label, source="gold", evidence=(f"physionet:{type_name}",)))
    return spans


def read_physionet(text_path: str | Path, phrase_path: str | Path | None = None) -> list[AnnotatedDocument]:
    """Read a ``.text`` file and, when present, its ``.phrase`` annotations."""
    text_path = Path(text_path)
    try:
        # newline="" keeps \r\n as it is: phrase offsets count both characters. utf-8-sig: a byte order
        # mark (as Windows tools write) is accepted.
        with text_path.open(encoding="utf-8-sig", newline="") as handle:
            content = handle.read()
    except UnicodeDecodeError as err:
        raise InputFormatError(text_path, f"byte {err.start}", "not valid UTF-8") from None
    documents = parse_text(content, text_path)
    by_id = {doc.id: doc for doc in documents}
    ann_path = Path(phrase_path) if phrase_path is not None else phrase_path_for(text_path)
    spans: dict[str, list[Span]] = {}
    if ann_path.exists():
        spans = parse_phrase(ann_path.read_text(encoding="utf-8-sig"), by_id, ann_path)
    return [AnnotatedDocument(doc, tuple(spans.get(doc.id, ()))) for doc in documents]


def physionet_type(span: Span, text: str) -> str:
    """The PhysioNet type for a span; the covered text tells initials and bare years apart."""
    covered = span.text_of(text).strip(" .")
    original = next((e.split(":", 1)[1] for e in span.evidence if e.startswith("physionet:")), None)
    if original is not None and PHYSIONET_TO_LABEL.get(original) == span.label:
        return original
    match span.label:
        case Label.DOCTOR:
            return "HCPName"
        case Label.PATIENT | Label.USERNAME:
            return "PTNameInitial" if len(covered) == 1 else "PTName"
        case Label.RELATIVE:
            return "RelativeProxyName"
        case Label.DATE:
            return "DateYear" if _YEAR.fullmatch(covered) else "Date"
        case Label.AGE:
            return "Age"
        case Label.PHONE | Label.FAX:
            return "Phone"
        case _ if span.category.value == "LOCATION":
            return "Location"
        case _:
            return "Other"


def format_text(documents: Iterable[AnnotatedDocument | Document]) -> str:
    records = []
    for item in documents:
        doc = item.document if isinstance(item, AnnotatedDocument) else item
        patient, note = _numbers(doc)
        records.append(f"START_OF_RECORD={patient}||||{note}||||\n{doc.text}{_END}\n")
    return "\n".join(records)


def format_phrase(documents: Iterable[AnnotatedDocument]) -> str:
    lines = []
    for item in documents:
        patient, note = _numbers(item.document)
        for span in item.spans:
            words = " ".join(span.text_of(item.text).split())
            lines.append(f"{patient} {note} {span.start} {span.end} {physionet_type(span, item.text)} {words}".rstrip())
    return "".join(line + "\n" for line in lines)


def write_physionet(documents: Iterable[AnnotatedDocument], text_path: str | Path) -> tuple[Path, Path]:
    """Write ``X.text`` and ``X.phrase`` atomically; returns both paths."""
    items = list(documents)
    text_path = Path(text_path)
    phrase_path = text_path.with_suffix(".phrase")
    with atomic_write(phrase_path) as handle:
        handle.write(format_phrase(items))
    with atomic_write(text_path) as handle:
        handle.write(format_text(items))
    return text_path, phrase_path


def unwritable(item: AnnotatedDocument) -> str | None:
    """Why a note cannot go into a ``.text`` file (field and offset only), or None: the format has no
    escape, so a record marker inside the note would cut it into two notes on reading."""
    found = item.text.find(_END)
    if found >= 0:
        return f"its text holds the record end marker {_END!r} at offset {found}"
    patient, note = _numbers_unchecked(item.document)
    for name, value in (("patient", patient), ("note", note)):
        if not value or _BAD_NUMBER.search(value):
            return f"its {name} number is empty or holds '|', white space or a line break"
    return None


def _numbers_unchecked(doc: Document) -> tuple[str, str]:
    """Patient and note numbers: from the metadata, else from an id "<patient>_<note>"; a patient id
    without a note id is kept (the note number is then the document id)."""
    patient, note = doc.metadata.patient_id, doc.metadata.note_id
    if patient is None or note is None:
        head, sep, tail = doc.id.rpartition("_")
        if patient is not None:
            note = tail if sep and head == patient else doc.id
        elif note is not None:
            patient = head if sep and tail == note else "0"
        else:
            patient, note = (head, tail) if sep else ("0", doc.id)
    return patient, note


def written_id(item: AnnotatedDocument) -> str:
    """The id a document has when its ``.text`` record is read back."""
    return document_id(*_numbers(item.document))


def _numbers(doc: Document) -> tuple[str, str]:
    patient, note = _numbers_unchecked(doc)
    for value in (patient, note):
        if "|" in value or "\n" in value or " " in value:
            raise ValueError(
                f"document {doc.id!r}: patient/note ids for PhysioNet output may not contain '|', spaces or newlines"
            )
    return patient, note
