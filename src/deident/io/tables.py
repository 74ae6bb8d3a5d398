"""Documents from table rows and back; shared by the CSV and Parquet formats.

Reading: ``text_col`` holds the note; ``id_col`` the id (default: a column named "id" when there is
one, else the 1-based row number); ``patient_col`` the patient id. A column "spans" holds the spans
as JSON (``[{"start", "end", "label"}]``) and a column "deident_metadata" the document metadata as
JSON; both are optional. Every other column is kept in ``metadata.extra`` (keys ``col:<name>``,
absent for nulls) together with the column order (``table:columns``) and, for Parquet, the column
types, so that writing the documents gives back the same table: same columns in the same order,
same rows, with the text column holding the document text and the spans column (added last when
the table had none and there are spans) holding the spans.
Documents that did not come from a table are written as columns id, text, deident_metadata, spans.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deident.core.document import AnnotatedDocument, DocumentMetadata
from deident.core.errors import InputFormatError
from deident.core.spill import Spill
from deident.io.jsonl import document_to_record, record_to_document

SPANS_COLUMN = "spans"
METADATA_COLUMN = "deident_metadata"
COLUMNS_KEY = "table:columns"
TYPES_KEY = "table:types"
ROLE_KEYS = {"text": "table:text_col", "id": "table:id_col", "patient": "table:patient_col"}
COLUMN_PREFIX = "col:"


@dataclass(frozen=True)
class TableColumns:
    """Which columns play which part; ``id`` None means row numbers."""

    names: tuple[str, ...]
    text: str
    id: str | None
    patient: str | None
    author: str | None = None  # kept as a column too (it is passed through); also read into metadata.author


def missing_column_problem(wanted: str, column_count: int) -> str:
    """The message for a missing column. The header's names are not quoted: a file without a header
    row (or not a table at all) has its first record there, note text and identifiers included."""
    return (
        f"no column {wanted!r} among the header's {column_count} columns "
        "(does the file have a header row? name the columns with --text-col, --id-col, --patient-col)"
    )


def choose_columns(
    names: Sequence[str],
    path: Path,
    text_col: str,
    id_col: str | None,
    patient_col: str | None,
    author_col: str | None = None,
) -> TableColumns:
    """Check the columns are named once each and the wanted ones exist (InputFormatError naming the
    file and column otherwise: a column given twice would lose one of them)."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            count = list(names).count(name)
            raise InputFormatError(
                path, "header", f"column {name!r} is named {count} times; give each column its own name"
            )
        seen.add(name)
    for wanted in (text_col, id_col, patient_col, author_col):
        if wanted is not None and wanted not in names:
            raise InputFormatError(path, "header", missing_column_problem(wanted, len(names)))
    if id_col is None and "id" in names and text_col != "id":
        id_col = "id"
    return TableColumns(tuple(names), text_col, id_col, patient_col, author_col)


def rows_to_documents(
    path: Path,
    columns: TableColumns,
    rows: Iterable[tuple[str, Sequence[str | None]]],
    types: Sequence[str] | None = None,
) -> list[AnnotatedDocument]:
    """Documents from rows of strings (None for nulls); each row comes with its position ("line 3")."""
    return list(iter_rows_to_documents(path, columns, rows, types))


def iter_rows_to_documents(
    path: Path,
    columns: TableColumns,
    rows: Iterable[tuple[str, Sequence[str | None]]],
    types: Sequence[str] | None = None,
) -> Iterator[AnnotatedDocument]:
    """:func:`rows_to_documents` one row at a time (memory holds the ids seen, to refuse a repeated one)."""
    table_extra = {COLUMNS_KEY: json.dumps(list(columns.names), ensure_ascii=False)}
    for role, key in ROLE_KEYS.items():
        column = getattr(columns, role)
        if column is not None:
            table_extra[key] = column
    if types is not None:
        table_extra[TYPES_KEY] = json.dumps(list(types))
    special = {columns.text, columns.id, columns.patient, SPANS_COLUMN, METADATA_COLUMN}
    seen: dict[str, int] = {}
    for number, (where, row) in enumerate(rows, start=1):
        values = dict(zip(columns.names, row, strict=True))
        text = values[columns.text]
        if text is None:
            raise InputFormatError(path, where, f"column {columns.text!r} is empty (null)")
        doc_id = values[columns.id] if columns.id is not None else str(number)
        if doc_id is None or doc_id == "":
            raise InputFormatError(path, where, f"column {columns.id!r} is empty")
        metadata: dict[str, Any] = _json_column(path, where, values, METADATA_COLUMN, dict, "a JSON object")
        extra = dict(metadata.get("extra") or {})
        extra.update(table_extra)
        for name, value in values.items():
            if name not in special and value is not None:
                extra[COLUMN_PREFIX + name] = value
        metadata["extra"] = extra
        if columns.patient is not None and values[columns.patient] not in (None, ""):
            metadata["patient_id"] = values[columns.patient]
        if columns.author is not None and values[columns.author] not in (None, ""):
            metadata["author"] = values[columns.author]
        spans: list[Any] = _json_column(path, where, values, SPANS_COLUMN, list, "a JSON list")
        record = {"id": doc_id, "text": text, "metadata": metadata, "spans": spans}
        item = record_to_document(record, path, where)
        if item.id in seen:
            # The positions, never the id (often an MRN): as check_unique says it.
            raise InputFormatError(path, where, f"duplicate document id (documents {seen[item.id]} and {number})")
        seen[item.id] = number
        yield item


def _json_column(
    path: Path,
    where: str,
    values: dict[str, str | None],
    column: str,
    kind: type[dict[str, Any]] | type[list[Any]],
    kind_name: str,
) -> Any:
    """The JSON value held in ``column`` (an empty ``kind`` when the column is absent, null or empty).

    InputFormatError naming the file, row and column when it is not JSON or not a ``kind``.
    """
    raw = values.get(column)
    if not raw:
        return kind()
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        raise InputFormatError(path, where, f"column {column!r} is not valid JSON") from None
    if not isinstance(value, kind):
        raise InputFormatError(path, where, f"column {column!r} must hold {kind_name}")
    return value


@dataclass(frozen=True)
class Table:
    """Columns, rows of strings (None for null) and, when known, each column's Arrow type name."""

    columns: list[str]
    rows: list[list[str | None]]
    types: list[str | None]


def _spans_json(item: AnnotatedDocument) -> str:
    return json.dumps(document_to_record(item)["spans"], ensure_ascii=False)


def _metadata_json(item: AnnotatedDocument, drop_table: bool) -> str | None:
    meta = item.document.metadata.as_dict()
    if drop_table:
        extra = {
            k: v
            for k, v in dict(item.document.metadata.extra).items()
            if not k.startswith(COLUMN_PREFIX) and not k.startswith("table:")
        }
        meta.pop("extra", None)
        if extra:
            meta["extra"] = extra
        if ROLE_KEYS["patient"] in dict(item.document.metadata.extra):
            meta.pop("patient_id", None)
    return json.dumps(meta, ensure_ascii=False, sort_keys=True) if meta else None


def documents_to_table(items: Sequence[AnnotatedDocument]) -> Table:
    shape = TableShape()
    for item in items:
        shape.observe(item)
    return Table(shape.columns(), [shape.row(item) for item in items], shape.types())


class TableShape:
    """The columns a table of documents gets, learnt one document at a time (``observe`` each, then ``row``
    each): they depend on every document (whether all came from the same table, whether any has spans or
    metadata), so a streaming writer observes them all before it writes a row."""

    def __init__(self) -> None:
        self.count = 0
        self.first: DocumentMetadata | None = None  # the first document's metadata (its dialect, for CSV)
        self._layout: str | None = None
        self._roles: dict[str, str | None] = {}
        self._uniform = True
        self._any_spans = False
        self._any_metadata = False
        self._getters: list[Callable[[AnnotatedDocument], str | None]] | None = None

    def observe(self, item: AnnotatedDocument) -> None:
        meta = item.document.metadata
        if self.first is None:
            self.first = meta
            self._layout = meta.get_extra(COLUMNS_KEY)
            self._roles = {role: meta.get_extra(key) for role, key in ROLE_KEYS.items()}
        elif self._uniform and (
            meta.get_extra(COLUMNS_KEY) != self._layout
            or any(meta.get_extra(k) != self._roles[r] for r, k in ROLE_KEYS.items())
        ):
            self._uniform = False
        self._any_spans = self._any_spans or bool(item.spans)
        if not self._any_metadata:  # (for documents not from one table; known only at the end)
            self._any_metadata = _metadata_json(item, drop_table=False) is not None
        self.count += 1

    @property
    def from_one_table(self) -> bool:
        """Whether every document so far came from the same table (then it is written back with its columns)."""
        return self._uniform and self._layout is not None

    def table_columns(self) -> list[str]:
        """The original table's columns (when the documents came from one table)."""
        return list(json.loads(self._layout)) if self._layout is not None else []

    def columns(self) -> list[str]:
        if not self.from_one_table:
            return (
                ["id", "text"]
                + ([METADATA_COLUMN] if self._any_metadata else [])
                + ([SPANS_COLUMN] if self._any_spans else [])
            )
        columns = self.table_columns()
        return [*columns, SPANS_COLUMN] if self._any_spans and SPANS_COLUMN not in columns else columns

    def types(self) -> list[str | None]:
        """Each column's Arrow type name where the table had one (Parquet), else None."""
        columns = self.columns()
        if not self.from_one_table or self.first is None:
            return [None] * len(columns)
        raw = self.first.get_extra(TYPES_KEY)
        types: list[str | None] = json.loads(raw) if raw else [None] * len(self.table_columns())
        return types + [None] * (len(columns) - len(types))

    def row(self, item: AnnotatedDocument) -> list[str | None]:
        if not self.from_one_table:
            row: list[str | None] = [item.id, item.text]
            if self._any_metadata:
                row.append(_metadata_json(item, drop_table=False))
            if self._any_spans:
                row.append(_spans_json(item))
            return row
        if self._getters is None:
            self._getters = [self._getter(name) for name in self.columns()]
        return [get(item) for get in self._getters]

    def _getter(self, name: str) -> Callable[[AnnotatedDocument], str | None]:
        roles = {r: c for r, c in self._roles.items() if c is not None}
        if name == roles.get("text"):
            return lambda item: item.text
        if name == roles.get("id"):
            return lambda item: item.id
        if name == roles.get("patient"):
            return lambda item: item.document.metadata.patient_id
        if name == SPANS_COLUMN:
            return _spans_json
        if name == METADATA_COLUMN:
            return lambda item: _metadata_json(item, drop_table=True)
        key = COLUMN_PREFIX + name
        return lambda item: item.document.metadata.get_extra(key)


@contextmanager
def spilled_table(
    documents: Iterable[AnnotatedDocument], directory: Path
) -> Iterator[tuple[TableShape, Spill[AnnotatedDocument]]]:
    """The documents spilled, one at a time, to an unnamed file in ``directory`` while their table's shape is
    learnt: what a streaming table writer needs before it writes the first row."""
    shape = TableShape()
    with Spill[AnnotatedDocument].anonymous(directory) as spill:
        for item in documents:
            shape.observe(item)
            spill.add(item)
        yield shape, spill
