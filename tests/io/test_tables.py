from pathlib import Path

import pytest

from deident.core import InputFormatError, Label, Span
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.io.tables import COLUMNS_KEY, ROLE_KEYS, TableShape, choose_columns, documents_to_table, rows_to_documents

NAMES = ("id", "text", "deident_metadata", "spans")


def _read(metadata: str | None, spans: str | None):
    columns = choose_columns(NAMES, Path("t.csv"), "text", None, None)
    return rows_to_documents(Path("t.csv"), columns, [("line 2", ("a", "Seen today", metadata, spans))])


@pytest.mark.parametrize(
    ("metadata", "spans", "problem"),
    [
        ("{", None, "column 'deident_metadata' is not valid JSON"),
        ("[]", None, "column 'deident_metadata' must hold a JSON object"),
        (None, "[", "column 'spans' is not valid JSON"),
        (None, "{}", "column 'spans' must hold a JSON list"),
    ],
)
def test_bad_json_columns_name_file_row_and_column(metadata: str | None, spans: str | None, problem: str) -> None:
    with pytest.raises(InputFormatError) as error:
        _read(metadata, spans)
    assert (error.value.path, error.value.position, error.value.problem) == ("t.csv", "line 2", problem)


@pytest.mark.parametrize(("metadata", "spans"), [(None, None), ("", ""), ("{}", "[]")])
def test_absent_or_empty_json_columns_mean_no_metadata_and_no_spans(metadata: str | None, spans: str | None) -> None:
    (doc,) = _read(metadata, spans)
    assert doc.spans == () and doc.document.metadata.patient_id is None


def test_json_columns_are_read() -> None:
    (doc,) = _read('{"patient_id": "P1"}', '[{"start": 0, "end": 4, "label": "DATE"}]')
    assert doc.document.metadata.patient_id == "P1"
    assert [(s.start, s.end, s.label.value) for s in doc.spans] == [(0, 4, "DATE")]


def _from_table(doc_id: str, columns: str, spans: tuple[Span, ...] = ()) -> AnnotatedDocument:
    extra = {COLUMNS_KEY: columns, ROLE_KEYS["text"]: "text", ROLE_KEYS["id"]: "id", "col:ward": "W"}
    return AnnotatedDocument(Document(doc_id, "Seen today", DocumentMetadata().with_extra(**extra)), spans)


@pytest.mark.parametrize(
    ("late", "columns"),
    [
        # The last note has spans: every row gets a spans cell.
        (_from_table("9", '["id", "text", "ward"]', (Span(0, 4, Label.DATE),)), ["id", "text", "ward", "spans"]),
        # The last note comes from another table: no table's columns, the rows' metadata as JSON.
        (_from_table("9", '["id", "text"]'), ["id", "text", "deident_metadata"]),
    ],
)
def test_the_columns_depend_on_every_document_not_the_first(late: AnnotatedDocument, columns: list[str]) -> None:
    items = [_from_table(str(n), '["id", "text", "ward"]') for n in range(3)] + [late]
    table = documents_to_table(items)
    assert table.columns == columns
    assert all(len(row) == len(columns) for row in table.rows)
    shape = TableShape()
    for item in items:
        shape.observe(item)
    assert [shape.row(item) for item in items] == table.rows
