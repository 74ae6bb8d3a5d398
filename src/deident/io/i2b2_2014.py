"""i2b2/UTHealth 2014 and CEGS N-GRID 2016 XML: one document per ``.xml`` file, a folder is a corpus.

``<deIdi2b2><TEXT><![CDATA[...]]></TEXT><TAGS><NAME id="P0" start="16" end="21" text="..."
TYPE="PATIENT" comment=""/>...</TAGS></deIdi2b2>``. The element name is the category, TYPE the
sub-type. The note text is taken from the raw CDATA (an XML parser would turn ``\\r\\n`` into
``\\n`` and shift every offset), so offsets stay exact; the TAGS are parsed with ElementTree with the
text masked out. Each tag's ``text`` attribute is checked against the note. The document id is the
file stem (path relative to the folder); ids "<patient>_<note>" give patient and note metadata.
Span evidence is kept in the ``comment`` attribute (joined by "; "). A merged span's parts and other
metadata are not kept.
The writer puts a carriage return outside the CDATA as ``&#13;`` (a parser keeps it; a raw one it would
turn into a line feed, shifting offsets for other tools) and refuses a note holding a character XML 1.0
cannot hold (e.g. a form feed or a lone surrogate), naming the note by position, so every file it
writes is well-formed XML that standard parsers accept.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

import regex

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import InputFormatError, SpanAlignmentError
from deident.core.labels import CATEGORY_DEFAULT, Category, Label
from deident.core.span import Span
from deident.io.corpus_files import (
    LONE_SURROGATE,
    NOT_XML,
    file_for_id,
    find_unwritable,
    folder_files,
    metadata_from_id,
    read_exact,
    refuse_unwritable,
)

ROOT_TAG = "deIdi2b2"
_TEXT_OPEN = regex.compile(r"<TEXT\s*(/?)>")
_CDATA_OPEN = "<![CDATA["
_CDATA_CLOSE = "]]>"
_ATTRIBUTE_WHITESPACE = regex.compile(r"\r\n|[\r\n\t]")
_EVIDENCE_SEPARATOR = "; "


def looks_like_i2b2_2014(path: Path) -> bool:
    """True when the start of an .xml file names the deIdi2b2 root element."""
    with path.open("rb") as handle:
        return f"<{ROOT_TAG}".encode() in handle.read(4096)


def _line_of(content: str, pos: int) -> str:
    return f"line {content.count(chr(10), 0, pos) + 1}"


def _extract_text(content: str, path: Path | None) -> tuple[str, int, int]:
    """The note text, and the [start, end) of the TEXT element's body in ``content``."""
    opening = _TEXT_OPEN.search(content)
    if opening is None:
        raise InputFormatError(path, None, "no <TEXT> element")
    if opening.group(1):  # <TEXT/>
        return "", opening.end(), opening.end()
    parts: list[str] = []
    pos = body_start = opening.end()
    while True:
        if pos >= len(content):
            raise InputFormatError(path, _line_of(content, opening.start()), "<TEXT> is never closed")
        if content.startswith(_CDATA_OPEN, pos):
            close = content.find(_CDATA_CLOSE, pos + len(_CDATA_OPEN))
            if close < 0:
                raise InputFormatError(path, _line_of(content, pos), "CDATA section is never closed")
            parts.append(content[pos + len(_CDATA_OPEN) : close])
            pos = close + len(_CDATA_CLOSE)
        elif content.startswith("</TEXT", pos):
            return "".join(parts), body_start, pos
        elif content[pos] == "<":
            raise InputFormatError(path, _line_of(content, pos), "unexpected markup inside <TEXT>")
        else:
            nxt = content.find("<", pos)
            nxt = len(content) if nxt < 0 else nxt
            parts.append(html.unescape(content[pos:nxt]))
            pos = nxt


def _label_of(element: ET.Element, path: Path | None, where: str) -> Label:
    type_name = element.get("TYPE")
    try:
        if type_name:
            return Label.parse(type_name)
        return CATEGORY_DEFAULT[Category(element.tag.upper())]
    except ValueError:
        raise InputFormatError(path, where, "unknown PHI type") from None


def parse_document(content: str, doc_id: str, path: Path | None = None) -> AnnotatedDocument:
    """Parse the content of one i2b2 2014 XML file."""
    text, body_start, body_end = _extract_text(content, path)
    masked = content[:body_start] + "\n" * content.count("\n", body_start, body_end) + content[body_end:]
    try:
        root = ET.fromstring(masked)
    except ET.ParseError as err:
        line, column = err.position
        raise InputFormatError(path, f"line {line}, column {column}", "malformed XML") from None
    spans: list[Span] = []
    tags = root.find("TAGS")
    for index, element in enumerate(tags if tags is not None else ()):
        tag_id = element.get("id") or f"#{index}"
        where = f"tag {tag_id}"
        try:
            start, end = int(element.get("start", "")), int(element.get("end", ""))
        except ValueError:
            raise InputFormatError(path, where, "start and end must be integers") from None
        if not 0 <= start < end <= len(text):
            raise InputFormatError(path, where, f"offsets [{start}, {end}) outside a text of {len(text)} characters")
        label = _label_of(element, path, where)
        recorded = element.get("text")
        covered = text[start:end]
        # Attribute-value normalisation turns line breaks and tabs into spaces in files written by others.
        if recorded is not None and recorded != covered and recorded != _ATTRIBUTE_WHITESPACE.sub(" ", covered):
            raise SpanAlignmentError(path, where, f"offsets [{start}, {end}) do not cover the tag's text attribute")
        comment = element.get("comment") or ""
        evidence = tuple(comment.split(_EVIDENCE_SEPARATOR)) if comment else ()
        spans.append(Span(start, end, label, source="gold", evidence=evidence))
    return AnnotatedDocument(Document(doc_id, text, metadata_from_id(doc_id)), tuple(spans))


def read_i2b2_2014(path: str | Path, encoding: str = "utf-8") -> list[AnnotatedDocument]:
    """Read one .xml file or a folder of them (ids: paths relative to the folder, without .xml)."""
    path = Path(path)
    files = folder_files(path, ".xml") if path.is_dir() else [(path.stem, path)]
    return [parse_document(read_exact(file, encoding), doc_id, file) for doc_id, file in files]


def _attribute(value: str) -> str:
    """Escape an attribute so that a parser gives back exactly ``value`` (line breaks included)."""
    escaped = html.escape(value, quote=True)
    return escaped.replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#9;")


def _type_name(label: Label) -> str:
    return "OTHER" if label is Label.LOCATION_OTHER else label.value


def format_document(item: AnnotatedDocument) -> str:
    cdata = item.text.replace(_CDATA_CLOSE, "]]" + _CDATA_CLOSE + _CDATA_OPEN + ">")
    cdata = cdata.replace("\r", _CDATA_CLOSE + "&#13;" + _CDATA_OPEN)
    lines = [
        '<?xml version="1.0" encoding="UTF-8" ?>',
        f"<{ROOT_TAG}>",
        f"<TEXT>{_CDATA_OPEN}{cdata}{_CDATA_CLOSE}</TEXT>",
    ]
    lines.append("<TAGS>")
    for index, span in enumerate(item.spans):
        comment = _attribute(_EVIDENCE_SEPARATOR.join(span.evidence))
        covered = span.text_of(item.text)
        # XML cannot hold some characters even escaped; such a tag goes without its (optional) text.
        text_attribute = "" if NOT_XML.search(covered) else f'text="{_attribute(covered)}" '
        lines.append(
            f'<{span.category.value} id="P{index}" start="{span.start}" end="{span.end}" '
            f'{text_attribute}TYPE="{_type_name(span.label)}" comment="{comment}" />'
        )
    lines.append("</TAGS>")
    lines.append(f"</{ROOT_TAG}>")
    return "\n".join(lines) + "\n"


def unwritable(item: AnnotatedDocument) -> str | None:
    """Why a note cannot go into a well-formed XML 1.0 file (field and offset only), or None."""
    return find_unwritable(item, LONE_SURROGATE, "a lone surrogate (U+D800 to U+DFFF)") or find_unwritable(
        item, NOT_XML, "a character XML 1.0 cannot hold", text_only=True
    )


def write_i2b2_2014(documents: Iterable[AnnotatedDocument], folder: str | Path) -> Path:
    """Write one ``<id>.xml`` per document into ``folder`` (created if needed), each atomically."""
    folder = Path(folder)
    items = list(documents)
    refuse_unwritable(items, "i2b2-2014", unwritable)
    folder.mkdir(parents=True, exist_ok=True)
    for item in items:
        with atomic_write(file_for_id(folder, item.id, ".xml")) as handle:
            handle.write(format_document(item))
    return folder
