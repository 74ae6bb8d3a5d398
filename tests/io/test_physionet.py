from pathlib import Path

import pytest

from deident.core import AnnotatedDocument, ConfigurationError, Document, InputFormatError, Label
from deident.core.document import DocumentMetadata
from deident.io import read_corpus, write_corpus


def test_read_fixture(fixtures: Path):
    docs = read_corpus(fixtures / "mini.text")
    assert [d.id for d in docs] == ["1_1", "1_2", "2_1"]
    first = docs[0]
    assert first.document.metadata.patient_id == "1"
    assert [s.text_of(first.text) for s in first.spans][:3] == ["67", "3/14", "Mercy"]
    assert first.spans[0].label is Label.AGE


def test_round_trip_exact(fixtures: Path, tmp_path: Path):
    docs = read_corpus(fixtures / "mini.text")
    write_corpus(docs, tmp_path / "out.text")
    assert (tmp_path / "out.text").read_text() == (fixtures / "mini.text").read_text()
    again = read_corpus(tmp_path / "out.text")
    assert [(d.id, d.text, d.spans) for d in again] == [(d.id, d.text, d.spans) for d in docs]


def test_misaligned_phrase_is_reported(fixtures: Path, tmp_path: Path):
    (tmp_path / "bad.text").write_text((fixtures / "mini.text").read_text())
    (tmp_path / "bad.phrase").write_text("1 1 9 11 Age 67\n")
    with pytest.raises(InputFormatError) as err:
        read_corpus(tmp_path / "bad.text")
    assert "bad.phrase, line 1" in str(err.value)
    assert "67" not in str(err.value).split("line 1")[1]


def test_broken_record_names_line(tmp_path: Path):
    (tmp_path / "x.text").write_text("START_OF_RECORD=1||||1||||\nno end marker\n")
    with pytest.raises(InputFormatError, match=r"x.text, line 1"):
        read_corpus(tmp_path / "x.text")


def test_shared_corpus_round_trip(shared_corpus: Path, tmp_path: Path):
    docs = read_corpus(shared_corpus)
    assert len(docs) == 1414
    write_corpus(docs, tmp_path / "rt.jsonl")
    back = read_corpus(tmp_path / "rt.jsonl")
    write_corpus(back, tmp_path / "rt.text")
    assert (tmp_path / "rt.text").read_text() == shared_corpus.read_text()
    assert [d.spans for d in read_corpus(tmp_path / "rt.text")] == [d.spans for d in docs]


def test_carriage_returns_are_kept(fixtures: Path, tmp_path: Path):
    """Phrase offsets count \\r\\n as two characters; the reader must not translate line ends."""
    (tmp_path / "crlf.text").write_bytes((fixtures / "mini.text").read_bytes().replace(b"\n", b"\r\n"))
    docs = read_corpus(tmp_path / "crlf.text")
    assert [d.id for d in docs] == ["1_1", "1_2", "2_1"]
    assert "\r\n" in docs[0].text
    write_corpus(docs, tmp_path / "again.text")
    assert [d.text for d in read_corpus(tmp_path / "again.text")] == [d.text for d in docs]


def test_a_byte_order_mark_is_accepted(tmp_path: Path):
    (tmp_path / "c.text").write_bytes(b"\xef\xbb\xbfSTART_OF_RECORD=1||||2||||\nSeen 3/4.\n||||END_OF_RECORD\n")
    (tmp_path / "c.phrase").write_bytes(b"\xef\xbb\xbf1 2 5 8 Date 3/4\n")
    docs = read_corpus(tmp_path / "c.text")
    assert [(d.id, d.text, [(s.start, s.end) for s in d.spans]) for d in docs] == [("1_2", "Seen 3/4.\n", [(5, 8)])]


@pytest.mark.parametrize("marker", ["||||END_OF_RECORD\nSTART_OF_RECORD=9||||9||||\n", "||||END_OF_RECORD"])
def test_a_record_marker_inside_a_note_is_refused_not_cut(tmp_path: Path, marker: str):
    """Such a note used to be written as is and read back as two notes."""
    docs = [AnnotatedDocument(Document("1_1", "fine")), AnnotatedDocument(Document("1_2", f"pasted {marker}tail"))]
    with pytest.raises(ConfigurationError, match=r"^note 2: its text holds the record end marker .* at offset 7"):
        write_corpus(docs, tmp_path / "c.text")
    assert not (tmp_path / "c.text").exists()


def test_a_record_start_marker_inside_a_note_is_text(tmp_path: Path):
    docs = [AnnotatedDocument(Document("1_1", "pasted START_OF_RECORD=2||||3||||\nstill the same note"))]
    write_corpus(docs, tmp_path / "c.text")
    assert [d.text for d in read_corpus(tmp_path / "c.text")] == [docs[0].text]


def test_a_patient_id_without_a_note_id_is_kept(tmp_path: Path):
    """Every such note used to be filed under patient 0 (one surrogate table for all patients)."""
    docs = [
        AnnotatedDocument(Document("a", "one", DocumentMetadata(patient_id="17"))),
        AnnotatedDocument(Document("b", "two", DocumentMetadata(patient_id="18"))),
    ]
    write_corpus(docs, tmp_path / "c.text")
    back = read_corpus(tmp_path / "c.text")
    assert [d.document.metadata.patient_id for d in back] == ["17", "18"]
