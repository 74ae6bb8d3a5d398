"""CSV and TSV tables: one document per row; see :mod:`deident.io.tables` for columns and metadata.

Read strictly with the csv module (quoted fields may hold line breaks, kept exactly): a quote left
open, a row with more or fewer fields than the header and a column name given twice are errors naming
the file and line, never merged rows or a lost column. The delimiter is "," (a tab for ``.tsv`` and
``.tab`` files) unless given; the quote character is '"' unless given. Written in the "excel" dialect
with ``\\r\\n`` row ends, with the delimiter and quote character the table was read with (recorded in
``metadata.extra`` as ``table:delimiter`` and ``table:quotechar``) and a UTF-8 byte order mark when the
input had one (``table:bom``). CSV has no nulls: an empty cell is "".
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import InputFormatError
from deident.io.corpus_files import not_valid
from deident.io.tables import choose_columns, iter_rows_to_documents, spilled_table

DELIMITER_KEY = "table:delimiter"
QUOTECHAR_KEY = "table:quotechar"
BOM_KEY = "table:bom"
_TAB_SUFFIXES = (".tsv", ".tab")
_BOM = "\ufeff"


def default_delimiter(path: Path) -> str:
    return "\t" if path.suffix.lower() in _TAB_SUFFIXES else ","


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
    delimiter: str | None = None,
    quotechar: str = '"',
) -> list[AnnotatedDocument]:
    return list(iter_csv(path, text_col, id_col, patient_col, encoding, author_col, delimiter, quotechar))


def iter_csv(
    path: str | Path,
    text_col: str = "text",
    id_col: str | None = None,
    patient_col: str | None = None,
    encoding: str = "utf-8",
    author_col: str | None = None,
    delimiter: str | None = None,
    quotechar: str = '"',
) -> Iterator[AnnotatedDocument]:
    """The table's documents one row at a time (memory holds one row and the ids seen)."""
    path = Path(path)
    delimiter = delimiter or default_delimiter(path)
    _allow_long_fields()
    row_start = 1  # the line the row being read starts on (a quoted field may span lines)
    try:
        with path.open(encoding=encoding, newline="") as handle:
            reader = csv.reader(handle, delimiter=delimiter, quotechar=quotechar, strict=True)
            header = next(reader, None)
            if header is None:
                raise InputFormatError(path, "line 1", "empty file: expected a header row")
            bom = bool(header) and header[0].startswith(_BOM)
            if bom:
                header[0] = header[0][1:]
            columns = choose_columns(header, path, text_col, id_col, patient_col, author_col)
            dialect = {}
            if delimiter != default_delimiter(path):
                dialect[DELIMITER_KEY] = delimiter
            if quotechar != '"':
                dialect[QUOTECHAR_KEY] = quotechar
            if bom:
                dialect[BOM_KEY] = "1"

            def rows() -> Iterator[tuple[str, Sequence[str | None]]]:
                nonlocal row_start
                row_start = reader.line_num + 1
                for row in reader:
                    if row:  # csv gives blank lines as empty rows
                        if len(row) != len(header):
                            raise InputFormatError(
                                path, f"line {row_start}", f"{len(row)} fields where the header has {len(header)}"
                            )
                        yield f"line {row_start}", row
                    row_start = reader.line_num + 1

            for item in iter_rows_to_documents(path, columns, rows()):
                if dialect:
                    meta = item.document.metadata.with_extra(**dialect)
                    item = AnnotatedDocument(Document(item.id, item.text, meta), item.spans)
                yield item
    except csv.Error as err:
        problem = (
            "a quoted field is never closed (unbalanced quote)"
            if "end of data" in str(err)
            else f"malformed CSV ({err}; is a quote unbalanced?)"
        )
        raise InputFormatError(path, f"row starting on line {row_start}", problem) from None
    except UnicodeDecodeError as err:
        with path.open("rb") as raw:
            head = raw.read(4)
        problem = not_valid(encoding, head, hint=" (see --encoding)")
        raise InputFormatError(path, f"byte {err.start}", problem) from None


def write_csv(documents: Iterable[AnnotatedDocument], path: str | Path) -> Path:
    """Write the table atomically, one row at a time: the notes are spilled to an unnamed file beside the
    output while the columns are learnt (they depend on every note), then written from it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with spilled_table(documents, path.parent) as (shape, spill):
        delimiter, quotechar, bom = default_delimiter(path), '"', False
        if shape.first is not None:  # the dialect the table was read with (its first row's: all rows share it)
            delimiter = shape.first.get_extra(DELIMITER_KEY) or delimiter
            quotechar = shape.first.get_extra(QUOTECHAR_KEY) or quotechar
            bom = shape.first.get_extra(BOM_KEY) == "1"
        with atomic_write(path) as handle:
            if bom:
                handle.write(_BOM)
            writer = csv.writer(handle, delimiter=delimiter, quotechar=quotechar)
            writer.writerow(shape.columns())
            for item in spill:
                writer.writerow(["" if v is None else v for v in shape.row(item)])
    return path
