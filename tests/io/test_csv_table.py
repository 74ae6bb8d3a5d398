from collections.abc import Iterator
from pathlib import Path

import pytest

from deident.core import InputFormatError, Label, Span
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.io import ReadOptions, read_corpus, write_corpus
from deident.io.csv_table import iter_csv, read_csv, write_csv


def test_reads_columns_and_keeps_the_rest(fixtures: Path):
    docs = read_corpus(fixtures / "table.csv", options=ReadOptions(text_col="body", patient_col="mrn"))
    assert [d.id for d in docs] == ["n1", "n2"]  # the "id" column is used when present
    assert docs[0].text == 'Pt Åsa Berg, 71.\r\nSeen "today".'
    assert docs[0].document.metadata.patient_id == "A1"
    assert docs[0].document.metadata.get_extra("col:site") == "north"
    assert docs[1].text == "" and docs[1].document.metadata.patient_id is None


def test_author_column_is_read_into_the_metadata_and_kept(tmp_path: Path):
    path = tmp_path / "posts.csv"
    path.write_bytes(b"id,poster,body\r\np1,bramblefoot77,hi all\r\np2,,no author\r\n")
    docs = read_corpus(path, options=ReadOptions(text_col="body", author_col="poster"))
    assert [d.document.metadata.author for d in docs] == ["bramblefoot77", None]
    write_csv(docs, tmp_path / "again.csv")
    assert (tmp_path / "again.csv").read_bytes() == path.read_bytes()


def test_same_table_back(fixtures: Path, tmp_path: Path):
    docs = read_csv(fixtures / "table.csv", text_col="body", patient_col="mrn")
    write_csv(docs, tmp_path / "again.csv")
    assert (tmp_path / "again.csv").read_bytes() == (fixtures / "table.csv").read_bytes()


def test_same_table_back_through_jsonl(fixtures: Path, tmp_path: Path):
    write_corpus(read_csv(fixtures / "table.csv", text_col="body", patient_col="mrn"), tmp_path / "t.jsonl")
    write_corpus(read_corpus(tmp_path / "t.jsonl"), tmp_path / "again.csv")
    assert (tmp_path / "again.csv").read_bytes() == (fixtures / "table.csv").read_bytes()


def test_spans_column_is_added_and_read_back(fixtures: Path, tmp_path: Path):
    docs = read_csv(fixtures / "table.csv", text_col="body", patient_col="mrn")
    docs[0] = docs[0].with_spans([Span(3, 11, Label.PATIENT)])
    write_csv(docs, tmp_path / "spans.csv")
    header = (tmp_path / "spans.csv").read_text().splitlines()[0]
    assert header == "site,mrn,body,id,spans"
    back = read_csv(tmp_path / "spans.csv", text_col="body", patient_col="mrn")
    assert back[0].spans == docs[0].spans and back[1].spans == ()
    write_csv(back, tmp_path / "spans2.csv")
    assert (tmp_path / "spans2.csv").read_bytes() == (tmp_path / "spans.csv").read_bytes()


def test_row_numbers_when_there_is_no_id(tmp_path: Path):
    (tmp_path / "t.csv").write_text("note,x\nhello,1\nbye,2\n")
    docs = read_corpus(tmp_path / "t.csv", options=ReadOptions(text_col="note"))
    assert [d.id for d in docs] == ["1", "2"]
    write_csv(docs, tmp_path / "u.csv")
    assert (tmp_path / "u.csv").read_bytes() == b"note,x\r\nhello,1\r\nbye,2\r\n"


def test_round_trip_tricky(tricky, key, tmp_path: Path):
    write_corpus(tricky, tmp_path / "t.csv")
    back = read_corpus(tmp_path / "t.csv")
    assert key(back) == key(tricky)
    assert [d.document.metadata.patient_id for d in back] == ["7", "7", "8", "9"]


def test_long_fields_are_allowed(tmp_path: Path):
    (tmp_path / "long.csv").write_text("text\n" + "a" * 300_000 + "\n")
    assert len(read_csv(tmp_path / "long.csv")[0].text) == 300_000


@pytest.mark.parametrize(
    ("content", "options", "position", "problem"),
    [
        ("note,x\nKim,1\n", ReadOptions(), "header", "'text'"),
        ("text,x\nKim,1\n", ReadOptions(patient_col="mrn"), "header", "'mrn'"),
        ("text,x\nKim,1\n", ReadOptions(author_col="poster"), "header", "'poster'"),
        ("text,x\nKim,1\nLee\n", ReadOptions(), "line 3", "fields"),
        ('text,spans\nKim,"[{""start"": 0}]"\n', ReadOptions(), "line 2", "bad span"),
        ("text,id\nKim,a\nLee,a\n", ReadOptions(), "line 3", "duplicate document id (documents 1 and 2)"),
        # A stray opening quote used to swallow every later row into one cell (5 rows in, 2 out, exit 0).
        ('id,text\n1,Kim\n2,"Lee\n3,Kim\n4,Lee\n5,Kim\n', ReadOptions(), "line 3", "unbalanced quote"),
        ('id,text\n1,Kim\n2,"Lee\n3,Kim\n4,"Lee"\n5,Kim\n', ReadOptions(), "line 3", "quote"),
        # A column named twice used to come out as two copies of the second.
        ("id,text,text\n1,Kim,Lee\n", ReadOptions(), "header", "'text' is named 2 times"),
        ("id,text\n1,Kim,Lee\n", ReadOptions(), "line 2", "3 fields where the header has 2"),
        ("id;text\n1;Kim\n", ReadOptions(), "header", "no column 'text'"),
    ],
)
def test_malformed(tmp_path: Path, content: str, options: ReadOptions, position: str | None, problem: str):
    (tmp_path / "bad.csv").write_text(content)
    with pytest.raises(InputFormatError) as caught:
        read_corpus(tmp_path / "bad.csv", options=options)
    message = str(caught.value).replace(str(tmp_path), "")
    assert "bad.csv" in message and problem in message and (position is None or position in message)
    assert "Kim" not in message and "Lee" not in message


def test_delimiter_quotechar_and_encoding_options(tmp_path: Path):
    path = tmp_path / "semi.csv"
    path.write_bytes("id;text\n1;'Dr. Müller; seen'\n2;plain\n".encode("latin-1"))
    options = ReadOptions(delimiter=";", quotechar="'", encoding="latin-1")
    docs = read_corpus(path, options=options)
    assert [d.text for d in docs] == ["Dr. Müller; seen", "plain"]
    write_corpus(docs, tmp_path / "again.csv")  # the dialect is kept; the encoding becomes UTF-8
    assert (tmp_path / "again.csv").read_bytes().decode() == "id;text\r\n1;'Dr. Müller; seen'\r\n2;plain\r\n"
    with pytest.raises(InputFormatError, match=r"semi\.csv, byte 16: not valid utf-8 \(see --encoding\)"):
        read_corpus(path, options=ReadOptions(delimiter=";", quotechar="'"))


def test_a_utf16_table_read_as_utf8_names_the_encoding_to_give(tmp_path: Path):
    path = tmp_path / "wide.csv"
    path.write_bytes("id,text\n1,Dr. Quorvane\n".encode("utf-16"))
    with pytest.raises(InputFormatError, match=r"wide\.csv, byte 0: .*utf-16 byte order mark; give --encoding utf-16$"):
        read_corpus(path)
    assert [d.text for d in read_corpus(path, options=ReadOptions(encoding="utf-16"))] == ["Dr. Quorvane"]


def test_tsv_by_extension(tmp_path: Path):
    path = tmp_path / "notes.tsv"
    path.write_text("id\ttext\n1\tSeen, today\n")
    docs = read_corpus(path)
    assert docs[0].text == "Seen, today"
    write_corpus(docs, tmp_path / "out.tsv")
    assert (tmp_path / "out.tsv").read_bytes() == b"id\ttext\r\n1\tSeen, today\r\n"


def test_a_byte_order_mark_is_accepted_and_kept(tmp_path: Path):
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbfid,text\r\n1,note\r\n")
    docs = read_corpus(path)
    assert [(d.id, d.text) for d in docs] == [("1", "note")]
    write_corpus(docs, tmp_path / "again.csv")
    assert (tmp_path / "again.csv").read_bytes() == path.read_bytes()
    write_corpus(read_corpus(tmp_path / "again.csv"), tmp_path / "x.jsonl")
    write_corpus(read_corpus(tmp_path / "x.jsonl"), tmp_path / "back.csv")  # through JSONL too
    assert (tmp_path / "back.csv").read_bytes() == path.read_bytes()


def test_rows_are_read_one_at_a_time(tmp_path: Path):
    # The rows before a malformed one come out before the error: the table is never read whole.
    path = tmp_path / "t.csv"
    path.write_text('id,text\n1,first\n2,second\n3,"open\n')
    rows = iter_csv(path)
    assert [next(rows).id, next(rows).id] == ["1", "2"]
    with pytest.raises(InputFormatError, match=r"t\.csv, row starting on line 4: a quoted field is never closed"):
        next(rows)


def test_writing_takes_the_documents_one_at_a_time_and_atomically(tmp_path: Path):
    docs = [AnnotatedDocument(Document(str(n), f"note {n}", DocumentMetadata(patient_id="7"))) for n in range(5)]
    write_csv(docs, tmp_path / "list.csv")
    write_csv(iter(docs), tmp_path / "stream.csv")
    assert (tmp_path / "stream.csv").read_bytes() == (tmp_path / "list.csv").read_bytes()

    def failing() -> Iterator[AnnotatedDocument]:
        yield from docs[:3]
        raise RuntimeError("stopped")

    with pytest.raises(RuntimeError, match="stopped"):
        write_csv(failing(), tmp_path / "out" / "half.csv")
    assert list((tmp_path / "out").iterdir()) == []  # neither the file nor a temporary one
