"""CSV tables: one document per row; see :mod:`deident.io.tables` for columns and metadata.

Read with the csv module (quoted fields may hold line breaks, kept exactly); written in the
default "excel" dialect with ``\\r\\n`` row ends. CSV has no nulls: an empty cell is "".
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument
from deident.core.errors import InputFormatError
from deident.io.tables import choose_columns, documents_to_table, rows_to_documents


def _allow_long_fields() -> None:
    """Notes can be longer than the csv module's default field limit (128 KiB)."""
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 2


def read_csv(
    path: str | Path,
    text_col: str = "text",
    id_col: str | None = None,
    patient_col: str | None = None,
    encoding: str = "utf-8",
    author_col: str | None = None,
) -> list[AnnotatedDocument]:
    path = Path(path)
    _allow_long_fields()
    try:
        with path.open(encoding=encoding, newline="") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            if header is None:
                raise InputFormatError(path, "line 1", "empty file: expected a header row")
            if header and header[0].startswith("\ufeff"):
                header[0] = header[0][1:]
            columns = choose_columns(header, path, text_col, id_col, patient_col, author_col)

            def rows() -> Iterator[tuple[str, Sequence[str | None]]]:
                line = reader.line_num + 1
                for row in reader:
                    if not row:  # csv gives blank lines as empty rows
                        line = reader.line_num + 1
                        continue
                    if len(row) != len(header):
                        raise InputFormatError(
                            path, f"line {line}", f"{len(row)} fields where the header has {len(header)}"
                        )
                    yield f"line {line}", row
                    line = reader.line_num + 1

            return rows_to_documents(path, columns, rows())
    except csv.Error as err:
        raise InputFormatError(path, f"line {reader.line_num}", f"malformed CSV ({err})") from None
    except UnicodeDecodeError as err:
        raise InputFormatError(path, f"byte {err.start}", f"not valid {encoding}") from None


def write_csv(documents: Iterable[AnnotatedDocument], path: str | Path) -> Path:
    path = Path(path)
    table = documents_to_table(list(documents))
    with atomic_write(path) as handle:
        writer = csv.writer(handle)
        writer.writerow(table.columns)
        writer.writerows([["" if v is None else v for v in row] for row in table.rows])
    return path
