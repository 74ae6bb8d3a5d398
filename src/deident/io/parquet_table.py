"""Parquet tables (pyarrow): one document per row; see :mod:`deident.io.tables`.

Column values are kept as strings in metadata with each column's Arrow type; the writer casts them
back, so ints, floats, booleans, dates and timestamps round-trip. Types without a simple name
(e.g. time-zone timestamps, lists) come back as strings.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument
from deident.core.errors import InputFormatError
from deident.io.tables import choose_columns, documents_to_table, rows_to_documents

if TYPE_CHECKING:
    import pyarrow as pa

# pyarrow is imported where a Parquet file is read or written: importing it costs ~0.2 s, which every
# de-identification would otherwise pay through deident.io.


def _as_text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return json.dumps(value, ensure_ascii=False, default=str)


def read_parquet(
    path: str | Path,
    text_col: str = "text",
    id_col: str | None = None,
    patient_col: str | None = None,
    author_col: str | None = None,
) -> list[AnnotatedDocument]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    try:
        table = pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as err:
        raise InputFormatError(path, None, f"not a readable Parquet file ({type(err).__name__})") from None
    names = table.column_names
    columns = choose_columns(names, path, text_col, id_col, patient_col, author_col)
    if not pa.types.is_string(table.schema.field(text_col).type) and not pa.types.is_large_string(
        table.schema.field(text_col).type
    ):
        raise InputFormatError(path, f"column {text_col!r}", "the text column must hold strings")
    values = [[_as_text(v) for v in table.column(name).to_pylist()] for name in names]
    rows = ((f"row {i + 1}", [col[i] for col in values]) for i in range(table.num_rows))
    return rows_to_documents(path, columns, rows, [str(field.type) for field in table.schema])


def _column(values: list[str | None], type_name: str | None) -> pa.Array[Any]:
    import pyarrow as pa

    strings = pa.array(values, pa.string())
    if type_name is None or type_name in ("string", "large_string"):
        return strings
    try:
        # pyarrow-stubs types type_for_alias for literal aliases only; this one is read from a schema.
        return strings.cast(pa.type_for_alias(type_name))  # type: ignore[call-overload]
    except (ValueError, pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return strings


def write_parquet(documents: Iterable[AnnotatedDocument], path: str | Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    table = documents_to_table(list(documents))
    arrays = [_column([row[i] for row in table.rows], table.types[i]) for i in range(len(table.columns))]
    out = pa.table(arrays, names=table.columns) if table.columns else pa.table({})
    with atomic_write(path, "wb", encoding=None) as handle:
        pq.write_table(out, handle)
    return path
