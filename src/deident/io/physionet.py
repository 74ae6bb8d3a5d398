"""PhysioNet deid corpus format (Neamatullah et al. 2008).

``X.text`` holds records ``START_OF_RECORD=<patient>||||<note>||||`` + newline + note text +
``||||END_OF_RECORD`` + newline, records separated by a blank line. Annotations live beside it in
``X.phrase`` (``<patient> <note> <start> <end> <type> <words>``, offsets [start, end) into the note
text). Document ids are ``<patient>_<note>``; patient and note numbers are kept as metadata.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import regex

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import InputFormatError, SpanAlignmentError
from deident.core.labels import PHYSIONET_TO_LABEL, Label
from deident.core.span import Span
from deident.io.corpus_files import not_valid

_HEADER = regex.compile(r"START_OF_RECORD=([^|\r\n]*)\|\|\|\|([^|\r\n]*)\|\|\|\|\r?\n")
_END = "||||END_OF_RECORD"
_BAD_NUMBER = regex.compile(r"[|\s]")
_YEAR = regex.compile(r"(?:19|20)\d\d|'\d\d")
_BLOCK_BYTES = 1 << 18


def phrase_path_for(text_path: Path) -> Path:
    """The annotation file beside a ``.text`` file: ``X.phrase``, else ``X-phi.phrase``."""
    for candidate in (text_path.with_suffix(".phrase"), text_path.with_name(text_path.stem + "-phi.phrase")):
        if candidate.exists():
            return candidate
    return text_path.with_suffix(".phrase")


def document_id(patient: str, note: str) -> str:
    return f"{patient}_{note}"


def parse_text(content: str, path: Path | None = None) -> list[Document]:
    """Parse the records of a ``.text`` file's content."""
    return list(_records(iter((content,)), path))


def iter_text(text_path: Path) -> Iterator[Document]:
    """The records of a ``.text`` file one at a time, the file read in blocks (memory holds one record and
    the ids seen, for the duplicate check)."""
    return _records(_blocks(text_path), text_path)


def _blocks(path: Path) -> Iterator[str]:
    """The file's text in blocks, line breaks untouched (phrase offsets count both characters of a CR LF); a
    byte order mark (as Windows tools write) is dropped."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    offset = 0
    with path.open("rb") as handle:
        while True:
            data = handle.read(_BLOCK_BYTES)
            try:
                text = decoder.decode(data, final=not data)
            except UnicodeDecodeError as err:
                problem = not_valid("UTF-8", data[:4] if offset == 0 else b"", encoding_option=False)
                raise InputFormatError(path, f"byte {offset + err.start}", problem) from None
            offset += len(data)
            if text:
                yield text
            if not data:
                return


def _records(blocks: Iterator[str], path: Path | None) -> Iterator[Document]:
    """Scan the records as the blocks come. ``buffer[pos:]`` is the text not scanned yet (what is before
    ``pos`` is dropped when the next block is read) and ``line`` the line ``pos`` is on, for messages."""
    buffer = ""
    pos = 0
    line = 1
    seen: set[str] = set()

    def read() -> bool:
        nonlocal buffer, pos
        block = next(blocks, None)
        if block is None:
            return False
        buffer = buffer[pos:] + block
        pos = 0
        return True

    while True:
        while True:
            skip = pos
            while skip < len(buffer) and buffer[skip] in "\r\n":
                skip += 1
            line += buffer.count("\n", pos, skip)
            pos = skip
            if pos < len(buffer) or not read():
                break
        if pos >= len(buffer):
            return
        while buffer.find("\n", pos) < 0 and read():
            pass  # a header is one line
        header = _HEADER.match(buffer, pos)
        if header is None:
            raise InputFormatError(path, f"line {line}", "expected 'START_OF_RECORD=<patient>||||<note>||||'")
        patient, note = header.group(1).strip(), header.group(2).strip()
        body = searched = header.end()  # the note's text starts at ``body``
        while (end := buffer.find(_END, searched)) < 0:
            searched = max(body, len(buffer) - len(_END) + 1)  # a marker may start in the text not searched yet
            shift = pos
            if not read():
                raise InputFormatError(path, f"line {line}", "record has no '||||END_OF_RECORD'")
            body, searched = body - shift, searched - shift
        doc_id = document_id(patient, note)
        if doc_id in seen:
            raise InputFormatError(
                path, f"line {line}", "duplicate record (the same patient and note numbers as an earlier one)"
            )
        seen.add(doc_id)
        yield Document(doc_id, buffer[body:end], DocumentMetadata(patient_id=patient, note_id=note))
        consumed = end + len(_END)
        line += buffer.count("\n", pos, consumed)
        pos = consumed


@dataclass(frozen=True)
class _PhraseLine:
    number: int
    start: int
    end: int
    type_name: str
    words: tuple[str, ...]


def _phrase_lines(content: str, path: Path | None) -> dict[str, list[_PhraseLine]]:
    """A ``.phrase`` file's lines by document id, each checked on its own (the offsets are checked against
    the note's text by :func:`_phrase_spans`)."""
    found: dict[str, list[_PhraseLine]] = {}
    for number, raw in enumerate(content.splitlines(), start=1):
        if not raw.strip():
            continue
        fields = raw.split()
        where = f"line {number}"
        if len(fields) < 5:
            raise InputFormatError(path, where, "expected '<patient> <note> <start> <end> <type> <text>'")
        patient, note, start_s, end_s, type_name = fields[:5]
        try:
            start, end = int(start_s), int(end_s)
        except ValueError:
            raise InputFormatError(path, where, "start and end must be integers") from None
        if type_name not in PHYSIONET_TO_LABEL:
            raise InputFormatError(path, where, "unknown PhysioNet PHI type in field 5")
        found.setdefault(document_id(patient, note), []).append(
            _PhraseLine(number, start, end, type_name, tuple(fields[5:]))
        )
    return found


def _phrase_spans(doc: Document, lines: Iterable[_PhraseLine], path: Path | None) -> tuple[Span, ...]:
    spans = []
    for line in lines:
        start, end, where = line.start, line.end, f"line {line.number}"
        if not 0 <= start < end <= len(doc.text):
            raise InputFormatError(
                path, where, f"offsets [{start}, {end}) outside a note of {len(doc.text)} characters"
            )
        if line.words and tuple(doc.text[start:end].split()) != line.words:
            raise SpanAlignmentError(path, where, f"offsets [{start}, {end}) do not cover the phrase's words")
        label = PHYSIONET_TO_LABEL[line.type_name]
        spans.append(Span(start, end, label, source="gold", evidence=(f"physionet:{line.type_name}",)))
    return tuple(spans)


def _no_record(lines: dict[str, list[_PhraseLine]], path: Path | None) -> None:
    """Phrase lines left over once every note has taken its own: the first names a note the file lacks."""
    if lines:
        first = min(line.number for group in lines.values() for line in group)
        raise InputFormatError(
            path, f"line {first}", "no record in the .text file has this line's patient and note numbers"
        )


def parse_phrase(content: str, documents: dict[str, Document], path: Path | None = None) -> dict[str, list[Span]]:
    """Parse a ``.phrase`` file against its documents, checking every offset against its words."""
    lines = _phrase_lines(content, path)
    spans = {doc_id: list(_phrase_spans(doc, lines.pop(doc_id, ()), path)) for doc_id, doc in documents.items()}
    _no_record(lines, path)
    return spans


def read_physionet(text_path: str | Path, phrase_path: str | Path | None = None) -> list[AnnotatedDocument]:
    """Read a ``.text`` file and, when present, its ``.phrase`` annotations."""
    return list(iter_physionet(text_path, phrase_path))


def iter_physionet(text_path: str | Path, phrase_path: str | Path | None = None) -> Iterator[AnnotatedDocument]:
    """The notes of a ``.text`` file one at a time, with their ``.phrase`` annotations when present (the
    annotations, not the texts, are held in memory: a note's lines may be anywhere in the file)."""
    text_path = Path(text_path)
    ann_path = Path(phrase_path) if phrase_path is not None else phrase_path_for(text_path)
    lines = _phrase_lines(ann_path.read_text(encoding="utf-8-sig"), ann_path) if ann_path.exists() else {}
    for doc in iter_text(text_path):
        yield AnnotatedDocument(doc, _phrase_spans(doc, lines.pop(doc.id, ()), ann_path))
    _no_record(lines, ann_path)


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
    items = (item.document if isinstance(item, AnnotatedDocument) else item for item in documents)
    return "\n".join(_record(doc) for doc in items)


def format_phrase(documents: Iterable[AnnotatedDocument]) -> str:
    return "".join(_phrase(item) for item in documents)


def _record(doc: Document) -> str:
    patient, note = _numbers(doc)
    return f"START_OF_RECORD={patient}||||{note}||||\n{doc.text}{_END}\n"


def _phrase(item: AnnotatedDocument) -> str:
    patient, note = _numbers(item.document)
    lines = []
    for span in item.spans:
        words = " ".join(span.text_of(item.text).split())
        lines.append(f"{patient} {note} {span.start} {span.end} {physionet_type(span, item.text)} {words}".rstrip())
    return "".join(line + "\n" for line in lines)


WrittenNote = Callable[[AnnotatedDocument, AnnotatedDocument], None]


def write_physionet(
    documents: Iterable[AnnotatedDocument], text_path: str | Path, on_written: WrittenNote | None = None
) -> tuple[Path, Path]:
    """Write ``X.text`` and ``X.phrase`` one note at a time, each atomically (the ``.text`` last); returns both
    paths. ``on_written(note, read_back)`` gets each note with what its record and phrase lines read back as
    (parsed by the reader's own code), for the metadata side file."""
    text_path = Path(text_path)
    phrase_path = text_path.with_suffix(".phrase")
    seen: set[str] = set()
    with atomic_write(text_path) as text_file, atomic_write(phrase_path) as phrase_file:
        for position, item in enumerate(documents):
            record, phrase = _record(item.document), _phrase(item)
            text_file.write(("\n" if position else "") + record)
            phrase_file.write(phrase)
            if on_written is not None:
                (doc,) = _records(iter((record,)), text_path)
                if doc.id in seen:  # the whole file would not read back: refused before it is in place
                    raise InputFormatError(
                        text_path, f"note {position + 1}", "duplicate record (the same patient and note numbers)"
                    )
                seen.add(doc.id)
                back = _phrase_spans(doc, _phrase_lines(phrase, phrase_path).get(doc.id, ()), phrase_path)
                on_written(item, AnnotatedDocument(doc, back))
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
