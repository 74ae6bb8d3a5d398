import datetime as dt
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from deident.core import InputFormatError, Label, Span
from deident.io import ReadOptions, read_corpus, write_corpus
from deident.io.parquet_table import read_parquet, write_parquet


@pytest.fixture
def table_path(tmp_path: Path) -> Path:
    table = pa.table(
        {
            "visit": pa.array([3, None], pa.int64()),
            "note": ["Pt Åsa Berg\r\nseen", ""],
            "score": [1.5, 2.0],
            "flag": [True, False],
            "day": pa.array([dt.date(2020, 1, 2), None], pa.date32()),
            "mrn": ["A1", "B2"],
        }
    )
    path = tmp_path / "t.parquet"
    pq.write_table(table, path)
    return path


def test_same_table_back(table_path: Path, tmp_path: Path):
    docs = read_corpus(table_path, options=ReadOptions(text_col="note", patient_col="mrn"))
    assert [d.id for d in docs] == ["1", "2"]
    assert docs[0].text == "Pt Åsa Berg\r\nseen" and docs[0].document.metadata.patient_id == "A1"
    write_parquet(docs, tmp_path / "again.parquet")
    assert pq.read_table(tmp_path / "again.parquet").equals(pq.read_table(table_path))


def test_spans_column(table_path: Path, tmp_path: Path):
    docs = read_parquet(table_path, text_col="note")
    docs[0] = docs[0].with_spans([Span(3, 11, Label.PATIENT)])
    write_parquet(docs, tmp_path / "s.parquet")
    assert pq.read_table(tmp_path / "s.parquet").column_names[-1] == "spans"
    assert read_parquet(tmp_path / "s.parquet", text_col="note")[0].spans == docs[0].spans


def test_round_trip_tricky(tricky, key, tmp_path: Path):
    write_corpus(tricky, tmp_path / "t.parquet")
    back = read_corpus(tmp_path / "t.parquet")
    assert key(back) == key(tricky)
    assert [d.document.metadata.note_id for d in back] == ["1", "2", "1", "1"]


def test_missing_column(table_path: Path):
    with pytest.raises(InputFormatError, match=r"t.parquet, header: no column 'body'"):
        read_parquet(table_path, text_col="body")


def test_text_column_must_be_strings(table_path: Path):
    with pytest.raises(InputFormatError, match=r"t.parquet, column 'visit'"):
        read_parquet(table_path, text_col="visit")


def test_not_parquet(tmp_path: Path):
    (tmp_path / "x.parquet").write_text("Kim Lee")
    with pytest.raises(InputFormatError, match=r"x\.parquet"):
        read_parquet(tmp_path / "x.parquet")
