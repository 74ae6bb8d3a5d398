import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from deident.core import InputFormatError, Label, Span
from deident.core.document import AnnotatedDocument, Document
from deident.io import ReadOptions, parquet_table, read_corpus, write_corpus
from deident.io.parquet_table import iter_parquet, read_parquet, write_parquet


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


def _ids_table(path: Path, rows: int) -> None:
    pq.write_table(
        pa.table({"id": pa.array(range(rows), pa.int64()), "text": [f"note {n}" for n in range(rows)]}), path
    )


def test_read_a_batch_at_a_time_and_written_a_row_group_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(parquet_table, "READ_BATCH_ROWS", 4)
    monkeypatch.setattr(parquet_table, "ROW_GROUP_ROWS", 4)
    _ids_table(tmp_path / "in.parquet", 10)
    rows = iter_parquet(tmp_path / "in.parquet")
    assert next(rows).id == "0"
    docs = [*read_parquet(tmp_path / "in.parquet")]
    assert [d.id for d in docs] == [str(n) for n in range(10)]
    write_parquet(iter(docs), tmp_path / "out.parquet")
    assert pq.ParquetFile(tmp_path / "out.parquet").metadata.num_row_groups == 3
    assert pq.read_table(tmp_path / "out.parquet").equals(pq.read_table(tmp_path / "in.parquet"))


def test_a_column_that_stops_casting_in_a_later_row_group_is_strings_in_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # The ids come back as ints until one is replaced by a pseudonym: the whole column is written as strings
    # (a row group of another type than the first would be refused, or lose the later ids).
    monkeypatch.setattr(parquet_table, "ROW_GROUP_ROWS", 4)
    _ids_table(tmp_path / "in.parquet", 10)
    docs = read_parquet(tmp_path / "in.parquet")
    docs[9] = AnnotatedDocument(Document("a1f3", docs[9].text, docs[9].document.metadata), docs[9].spans)
    write_parquet(docs, tmp_path / "out.parquet")
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.schema.field("id").type == pa.string()
    assert table.column("id").to_pylist() == [*(str(n) for n in range(9)), "a1f3"]


def test_a_repeated_id_in_a_later_batch_names_its_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(parquet_table, "READ_BATCH_ROWS", 2)
    pq.write_table(pa.table({"id": ["a", "b", "c", "d", "b"], "text": ["x"] * 5}), tmp_path / "dup.parquet")
    with pytest.raises(InputFormatError, match=r"dup\.parquet, row 5: duplicate document id \(documents 2 and 5\)"):
        read_parquet(tmp_path / "dup.parquet")


def test_a_write_that_fails_half_way_leaves_no_file(tmp_path: Path):
    docs = read_parquet(_table_at(tmp_path))

    def failing() -> Iterator[AnnotatedDocument]:
        yield from docs[:5]
        raise RuntimeError("stopped")

    with pytest.raises(RuntimeError, match="stopped"):
        write_parquet(failing(), tmp_path / "out" / "half.parquet")
    assert list((tmp_path / "out").iterdir()) == []  # neither the file nor a temporary one


def _table_at(tmp_path: Path) -> Path:
    _ids_table(tmp_path / "in.parquet", 10)
    return tmp_path / "in.parquet"
