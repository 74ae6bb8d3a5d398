"""Helpers shared by the format modules: files of a folder corpus, ids, exact text reading."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePosixPath

import regex

from deident.core.document import AnnotatedDocument, DocumentMetadata
from deident.core.errors import ConfigurationError, InputFormatError

_DIGITS = regex.compile(r"([0-9]+)")
LONE_SURROGATE = regex.compile(r"[\ud800-\udfff]")
# Characters XML 1.0 cannot hold, not even as character references (lone surrogates included).
NOT_XML = regex.compile(r"[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


# Byte order marks of the encodings a UTF-8 reader cannot read (UTF-32 first: its little-endian mark begins with
# UTF-16's), with the --encoding value that reads each.
_FOREIGN_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def not_valid(encoding: str, head: bytes, *, encoding_option: bool = True, hint: str = "") -> str:
    """The problem of a file that ``encoding`` cannot decode, naming the encoding its byte order mark announces
    ("not valid utf-8: it begins with a utf-16 byte order mark; give --encoding utf-16"; for a format read as
    UTF-8 only, ``encoding_option`` False: "...; convert it to UTF-8"); without such a mark, ``hint`` follows."""
    for mark, name in _FOREIGN_BOMS:
        if head.startswith(mark) and codecs.lookup(encoding).name != codecs.lookup(name).name:
            remedy = f"give --encoding {name}" if encoding_option else "convert it to UTF-8"
            return f"not valid {encoding}: it begins with a {name} byte order mark; {remedy}"
    return f"not valid {encoding}{hint}"


def read_exact(path: Path, encoding: str = "utf-8") -> str:
    """A file's text with its line breaks untouched (no universal-newline translation)."""
    data = path.read_bytes()
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as err:
        raise InputFormatError(path, f"byte {err.start}", not_valid(encoding, data[:4])) from None
    return text.removeprefix("\ufeff")


def exact_content(text: str) -> str:
    """What a file must hold for :func:`read_exact` to give back ``text``: read_exact drops one leading
    byte order mark, so a note that itself begins with U+FEFF is written with one more."""
    return "\ufeff" + text if text.startswith("\ufeff") else text


def folder_files(folder: Path, suffix: str) -> list[tuple[str, Path]]:
    """``(doc_id, path)`` for every ``*suffix`` file under ``folder`` (recursively), in natural order
    of ids (digit runs compare as numbers: "2_1" before "10_1", as PhysioNet files order records).

    The id is the path relative to the folder, without the suffix, with "/" separators."""
    found = []
    for path in folder.rglob(f"*{suffix}"):
        if path.is_file() and not path.name.startswith("."):
            rel = path.relative_to(folder).as_posix()
            found.append((rel[: -len(suffix)], path))
    return sorted(found, key=lambda pair: natural_key(pair[0]))


def natural_key(doc_id: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key comparing digit runs numerically; ties between "01" and "1" go by the text."""
    parts = [(0, int(part)) if part.isdigit() and part.isascii() else (1, part) for part in _DIGITS.split(doc_id)]
    return (*parts, (1, doc_id))


def file_for_id(folder: Path, doc_id: str, suffix: str) -> Path:
    """Where a document of a folder corpus goes; ids may hold "/" (sub-folders) but never escape."""
    parts = PurePosixPath(doc_id).parts
    if not parts or doc_id.startswith("/") or any(p in ("..", ".") for p in parts) or "\\" in doc_id:
        raise ConfigurationError("a document id cannot be used as a file name (empty, absolute, '.', '..' or '\\')")
    return folder.joinpath(*parts[:-1], parts[-1] + suffix)


def metadata_from_id(doc_id: str) -> DocumentMetadata:
    """Patient and note numbers from an id "<patient>_<note>" (as PhysioNet ids are); else none."""
    head, sep, tail = doc_id.rpartition("_")
    if sep and head and tail and "/" not in doc_id:
        return DocumentMetadata(patient_id=head, note_id=tail)
    return DocumentMetadata()


def require_disjoint(items: Sequence[AnnotatedDocument], format_name: str) -> None:
    """Inline and token formats cannot hold overlapping spans; say which document has them."""
    for position, item in enumerate(items, start=1):
        previous_end = -1
        for span in item.spans:  # sorted by start
            if span.start < previous_end:
                raise ConfigurationError(
                    f"document {position}: overlapping spans at offset {span.start} cannot be written as "
                    f"{format_name}; resolve overlaps first or use a standoff format (i2b2-2014, brat, jsonl)"
                )
            previous_end = max(previous_end, span.end)


def note_strings(item: AnnotatedDocument) -> Iterator[tuple[str, str]]:
    """``(field name, value)`` for every string a writer may put in a file: id, text and metadata."""
    yield "id", item.id
    yield "text", item.text
    yield from _strings("metadata", item.document.metadata.as_dict())


def _strings(name: str, value: object) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield name, value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from _strings(f"{name}.{key}", key)
            yield from _strings(f"{name}.{key}", inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from _strings(name, inner)


def find_unwritable(
    item: AnnotatedDocument, pattern: regex.Pattern[str], what: str, text_only: bool = False
) -> str | None:
    """Where a note holds a character matching ``pattern`` (described by ``what``), or None.

    The answer names the field and offset only, never the character or its neighbourhood."""
    for name, value in [("text", item.text)] if text_only else note_strings(item):
        found = pattern.search(value)
        if found is not None:
            return f"its {name} holds {what} at offset {found.start()}"
    return None


def refuse_unwritable(
    items: Sequence[AnnotatedDocument],
    format_name: str,
    unwritable: Callable[[AnnotatedDocument], str | None],
    start: int = 1,
) -> None:
    """ConfigurationError naming the first note (by position) ``unwritable`` finds a reason for, before
    anything is written (a UTF-8 encoder would otherwise fail half-way, or a parser read another note)."""
    for position, item in enumerate(items, start=start):
        problem = unwritable(item)
        if problem is not None:
            raise ConfigurationError(
                f"note {position}: {problem}, which {format_name} output cannot hold (JSONL can; or fix the note)"
            )


def check_unique(ids: Sequence[str], path: Path) -> None:
    """Ids are unique; the error gives the documents' positions, never the id (often an MRN)."""
    seen: dict[str, int] = {}
    for position, doc_id in enumerate(ids, start=1):
        if doc_id in seen:
            raise InputFormatError(path, None, f"duplicate document id (documents {seen[doc_id]} and {position})")
        seen[doc_id] = position
