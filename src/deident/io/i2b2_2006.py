"""i2b2 2006 de-identification challenge XML: inline tags in one file.

``<ROOT><RECORD ID="1"><TEXT>... <PHI TYPE="DOCTOR">Smith</PHI> ...</TEXT></RECORD></ROOT>``.
Types map through ``I2B2_2006_TO_LABEL``. The 2006 scheme has fewer types than deident; where the
mapping back is lossy (RELATIVE written as PATIENT, say) the writer adds ``SUBTYPE="RELATIVE"``,
which the reader honours, so deident's own files round-trip exactly. Carriage returns are written
as ``&#13;`` so they survive XML parsing; a raw ``\\r\\n`` in a file from elsewhere reads as ``\\n``
(the format has no offsets, so nothing shifts). Overlapping spans cannot be written inline.
Document ids "<patient>_<note>" give patient and note metadata; other metadata is not kept.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

import regex

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import ConfigurationError, InputFormatError
from deident.core.labels import I2B2_2006_TO_LABEL, Category, Label
from deident.core.span import Span
from deident.io.corpus_files import check_unique, metadata_from_id, require_disjoint

_BY_CATEGORY: dict[Category, str] = {
    Category.NAME: "PATIENT",
    Category.PROFESSION: "LOCATION",
    Category.LOCATION: "LOCATION",
    Category.AGE: "AGE",
    Category.DATE: "DATE",
    Category.CONTACT: "PHONE",
    Category.ID: "ID",
}
_DIRECT: dict[Label, str] = {label: name for name, label in I2B2_2006_TO_LABEL.items()}
# Characters XML 1.0 cannot hold at all, not even as character references.
_NOT_XML = regex.compile(r"[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def looks_like_i2b2_2006(path: Path) -> bool:
    with path.open("rb") as handle:
        head = handle.read(4096)
    return b"<ROOT" in head or b"<RECORD" in head


def i2b2_2006_type(label: Label) -> str:
    """The 2006 TYPE for a label: the exact type when there is one, else its category's."""
    return _DIRECT.get(label) or _BY_CATEGORY[label.category]


def _label(element: ET.Element, path: Path, where: str) -> Label:
    subtype = element.get("SUBTYPE")
    type_name = (element.get("TYPE") or "").strip().upper()
    if subtype:
        try:
            return Label.parse(subtype)
        except ValueError:
            raise InputFormatError(path, where, "unknown PHI SUBTYPE") from None
    label = I2B2_2006_TO_LABEL.get(type_name)
    if label is None:
        raise InputFormatError(path, where, "unknown i2b2 2006 PHI TYPE")
    return label


def _parse_record(record: ET.Element, path: Path, number: int) -> AnnotatedDocument:
    doc_id = record.get("ID")
    where = f"record {number}"
    if not doc_id:
        raise InputFormatError(path, where, "RECORD has no ID attribute")
    where = f"record {number} (ID {doc_id})"
    text_element = record.find("TEXT")
    if text_element is None:
        raise InputFormatError(path, where, "RECORD has no TEXT element")
    pieces = [text_element.text or ""]
    spans: list[Span] = []
    length = len(pieces[0])
    for index, child in enumerate(text_element):
        spot = f"{where}, tag {index + 1}"
        if child.tag != "PHI":
            raise InputFormatError(path, spot, f"unexpected element <{child.tag}> inside TEXT")
        if len(child):
            raise InputFormatError(path, spot, "PHI tags cannot be nested")
        covered = child.text or ""
        if covered:
            spans.append(Span(length, length + len(covered), _label(child, path, spot), source="gold"))
        else:
            _label(child, path, spot)
        tail = child.tail or ""
        pieces += [covered, tail]
        length += len(covered) + len(tail)
    text = "".join(pieces)
    return AnnotatedDocument(Document(doc_id, text, metadata_from_id(doc_id)), tuple(spans))


def read_i2b2_2006(path: str | Path) -> list[AnnotatedDocument]:
    path = Path(path)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as err:
        line, column = err.position
        raise InputFormatError(path, f"line {line}, column {column}", "malformed XML") from None
    records = root.findall("RECORD") if root.tag != "RECORD" else [root]
    docs = [_parse_record(record, path, number) for number, record in enumerate(records, start=1)]
    check_unique([d.id for d in docs], path)
    return docs


def _escape(value: str) -> str:
    return html.escape(value, quote=False).replace("\r", "&#13;")


def format_corpus(items: list[AnnotatedDocument]) -> str:
    require_disjoint(items, "i2b2 2006 XML")
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<ROOT>\n']
    for item in items:
        bad = _NOT_XML.search(item.text)
        if bad:
            raise ConfigurationError(
                f"document {item.id!r}: offset {bad.start()} holds a character XML 1.0 cannot represent"
            )
        out.append(f'<RECORD ID="{html.escape(item.id, quote=True)}">\n<TEXT>')
        pos = 0
        for span in item.spans:
            out.append(_escape(item.text[pos : span.start]))
            type_name = i2b2_2006_type(span.label)
            subtype = "" if I2B2_2006_TO_LABEL[type_name] is span.label else f' SUBTYPE="{span.label.value}"'
            out.append(f'<PHI TYPE="{type_name}"{subtype}>{_escape(span.text_of(item.text))}</PHI>')
            pos = span.end
        out.append(_escape(item.text[pos:]))
        out.append("</TEXT>\n</RECORD>\n")
    out.append("</ROOT>\n")
    return "".join(out)


def write_i2b2_2006(documents: Iterable[AnnotatedDocument], path: str | Path) -> Path:
    path = Path(path)
    content = format_corpus(list(documents))
    with atomic_write(path) as handle:
        handle.write(content)
    return path
