from pathlib import Path

import pytest

from deident.core import InputFormatError
from deident.io.tables import choose_columns, rows_to_documents

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
