"""Parquet tables (pyarrow): one document per row; see :mod:`deident.io.tables`.

Column values are kept as strings in metadata with each column's Arrow type; the writer casts them
back, so ints, floats, booleans, dates and timestamps round-trip. Types without a simple name
(e.g. time-zone timestamps, lists) come back as strings.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument
from deident.core.errors import InputFormatError
from deident.io.tables import choose_columns, iter_rows_to_documents, spilled_table

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


# Rows decoded at a time when reading, and the most rows (or characters of text) in one row group when writing:
# memory holds about one batch, whatever the table's size.
READ_BATCH_ROWS = 256
ROW_GROUP_ROWS = 50_000
ROW_GROUP_CHARS = 8_000_000


def read_parquet(
    path: str | Path,
    text_col: str = "text",
    id_col: str | None = None,
    patient_col: str | None = None,
    author_col: str | None = None,
) -> list[AnnotatedDocument]:
    return list(iter_parquet(path, text_col, id_col, patient_col, author_col))


def iter_parquet(
    path: str | Path,
    text_col: str = "text",
    id_col: str | None = None,
    patient_col: str | None = None,
    author_col: str | None = None,
) -> Iterator[AnnotatedDocument]:
    """The table's documents a batch of rows at a time (a file, or a folder of files read as one dataset)."""
    import pyarrow as pa

    path = Path(path)
    try:
        schema, batches = _batches(path)
    except (pa.ArrowInvalid, OSError) as err:
        raise InputFormatError(path, None, f"not a readable Parquet file ({type(err).__name__})") from None
    names = schema.names
    columns = choose_columns(names, path, text_col, id_col, patient_col, author_col)
    text_type = schema.field(text_col).type
    if not pa.types.is_string(text_type) and not pa.types.is_large_string(text_type):
        raise InputFormatError(path, f"column {text_col!r}", "the text column must hold strings")

    def rows() -> Iterator[tuple[str, list[str | None]]]:
        number = 0
        try:
            for batch in batches:
                values = [[_as_text(v) for v in batch.column(name).to_pylist()] for name in names]
                for i in range(batch.num_rows):
                    number += 1
                    yield f"row {number}", [col[i] for col in values]
        except (pa.ArrowInvalid, OSError) as err:
            problem = f"not a readable Parquet file ({type(err).__name__})"
            raise InputFormatError(path, f"row {number + 1}", problem) from None

    yield from iter_rows_to_documents(path, columns, rows(), [str(field.type) for field in schema])


def _batches(path: Path) -> tuple[pa.Schema, Iterator[pa.RecordBatch]]:
    """The schema and the record batches of a Parquet file, or of a folder of them (a dataset, as
    ``pyarrow.parquet.read_table`` reads it: files in name order, hive partitions as columns)."""
    import pyarrow.parquet as pq

    if path.is_dir():
        import pyarrow.dataset as ds

        partitioning = ds.HivePartitioning.discover(infer_dictionary=True)  # as read_table reads a folder
        dataset = ds.dataset(path, format="parquet", partitioning=partitioning)
        scanned = dataset.to_batches(batch_size=READ_BATCH_ROWS, use_threads=False)
        return dataset.schema, iter(scanned)
    # buffer_size: column chunks are read a buffer at a time, not whole (a row group may be large).
    parquet = pq.ParquetFile(path, buffer_size=1 << 20, pre_buffer=False)
    return parquet.schema_arrow, parquet.iter_batches(batch_size=READ_BATCH_ROWS)


def _column(values: list[str | None], type_name: str | None) -> pa.Array[Any]:
    """The values as a column of their Arrow type, or of strings when they have none or do not cast to it."""
    import pyarrow as pa

    strings = pa.array(values, pa.string())
    if type_name is None or type_name in ("string", "large_string"):
        return strings
    try:
        # pyarrow-stubs types type_for_alias for literal aliases only; this one is read from a schema.
        return strings.cast(pa.type_for_alias(type_name))  # type: ignore[call-overload]
    except (ValueError, pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return strings


def _groups(rows: Iterable[list[str | None]]) -> Iterator[list[list[str | None]]]:
    """Rows cut into row groups (by count and by characters, so a group of long notes stays small)."""
    group: list[list[str | None]] = []
    chars = 0
    for row in rows:
        group.append(row)
        chars += sum(len(v) for v in row if v is not None)
        if len(group) >= ROW_GROUP_ROWS or chars >= ROW_GROUP_CHARS:
            yield group
            group, chars = [], 0
    if group:
        yield group


def write_parquet(documents: Iterable[AnnotatedDocument], path: str | Path) -> Path:
    """Write the table atomically a row group at a time: the notes are spilled to an unnamed file beside the
    output while the columns are learnt (they depend on every note) and each typed column is checked to cast
    back to its type in every group (else the column is written as strings), then written from it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with spilled_table(documents, path.parent) as (shape, spill):
        columns, types = shape.columns(), shape.types()
        typed = [i for i, name in enumerate(types) if name not in (None, "string", "large_string")]
        for group in _groups(shape.row(item) for item in spill) if typed else ():
            for i in list(typed):
                if _column([row[i] for row in group], types[i]).type == pa.string():
                    types[i] = None  # some value is not of the column's type: the column is written as strings
                    typed.remove(i)
        schema = pa.schema([pa.field(name, pa.string()) for name in columns])
        with atomic_write(path, "wb", encoding=None) as handle:
            writer: pq.ParquetWriter | None = None
            try:
                for group in _groups(shape.row(item) for item in spill):
                    arrays = [_column([row[i] for row in group], types[i]) for i in range(len(columns))]
                    table = pa.table(arrays, names=columns)
                    if writer is None:
                        writer = pq.ParquetWriter(handle, table.schema)
                    writer.write_table(table)
                if writer is None:  # no rows: the columns alone
                    writer = pq.ParquetWriter(handle, schema)
                    writer.write_table(schema.empty_table())
            finally:
                if writer is not None:
                    writer.close()
    return path
