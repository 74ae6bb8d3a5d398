from pathlib import Path

import pytest

from deident.core import ConfigurationError, InputFormatError, Label, Span
from deident.core.document import AnnotatedDocument, Document
from deident.io import read_corpus, write_corpus
from deident.io.i2b2_2006 import i2b2_2006_type, read_i2b2_2006, write_i2b2_2006


def test_reads_inline_tags(fixtures: Path):
    docs = read_corpus(fixtures / "i2b2_2006.xml")
    assert [d.id for d in docs] == ["101", "102"]
    first = docs[0]
    assert first.text.startswith("\nAdmitted to St. Rose on 03/04 by Dr. Lamb & team;")
    assert [(s.label, s.text_of(first.text)) for s in first.spans] == [
        (Label.HOSPITAL, "St. Rose"),
        (Label.DATE, "03/04"),
        (Label.DOCTOR, "Lamb"),
        (Label.IDNUM, "88-123"),
        (Label.LOCATION_OTHER, "Elm Grove"),
        (Label.PHONE, "555-0100"),
        (Label.AGE, "91"),
        (Label.PATIENT, "Ray Ott"),
    ]
    assert docs[1].spans == ()


def test_round_trip_tricky(tricky, key, tmp_path: Path):
    write_i2b2_2006(tricky, tmp_path / "out.xml")
    assert key(read_i2b2_2006(tmp_path / "out.xml")) == key(tricky)


def test_fixture_round_trip_is_byte_identical(fixtures: Path, tmp_path: Path):
    docs = read_corpus(fixtures / "i2b2_2006.xml")
    write_corpus(docs, tmp_path / "again.xml")
    assert (tmp_path / "again.xml").read_text() == (fixtures / "i2b2_2006.xml").read_text()


@pytest.mark.parametrize(
    ("label", "type_name"),
    [
        (Label.PATIENT, "PATIENT"),
        (Label.RELATIVE, "PATIENT"),
        (Label.HOSPITAL, "HOSPITAL"),
        (Label.STREET, "LOCATION"),
        (Label.MEDICALRECORD, "ID"),
        (Label.FAX, "PHONE"),
        (Label.AGE, "AGE"),
    ],
)
def test_type_mapping(label: Label, type_name: str):
    assert i2b2_2006_type(label) == type_name


def test_overlaps_cannot_be_inline(tmp_path: Path):
    doc = AnnotatedDocument(Document("a", "Dr John Smith"), (Span(3, 13, Label.DOCTOR), Span(3, 7, Label.PATIENT)))
    with pytest.raises(ConfigurationError, match="overlapping"):
        write_i2b2_2006([doc], tmp_path / "o.xml")


@pytest.mark.parametrize(
    ("body", "position"),
    [
        ('<RECORD ID="5"><TEXT>Kim <PHI TYPE="BOSS">Lee</PHI></TEXT></RECORD>', "record 1 (ID 5), tag 1"),
        ("<RECORD><TEXT>Kim Lee</TEXT></RECORD>", "record 1"),
        ('<RECORD ID="5"><TEXT>Kim <PHI TYPE="PATIENT">Lee</TEXT></RECORD>', "line 1, column"),
        ('<RECORD ID="5"><TEXT>Kim Lee</TEXT></RECORD><RECORD ID="5"><TEXT>x</TEXT></RECORD>', None),
    ],
)
def test_malformed_input_names_file_and_position(tmp_path: Path, body: str, position: str | None):
    path = tmp_path / "bad.xml"
    path.write_text(f"<ROOT>{body}</ROOT>")
    with pytest.raises(InputFormatError) as caught:
        read_i2b2_2006(path)
    message = str(caught.value).replace(str(tmp_path), "")
    assert "bad.xml" in message and (position is None or position in message)
    assert "Kim" not in message and "Lee" not in message
