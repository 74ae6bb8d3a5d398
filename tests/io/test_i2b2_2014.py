import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from deident.core import AnnotatedDocument, Document, InputFormatError, Label, Span
from deident.core.errors import ConfigurationError, SpanAlignmentError
from deident.io import read_corpus
from deident.io.i2b2_2014 import format_document, parse_document, read_i2b2_2014, write_i2b2_2014


def test_reads_folder_with_exact_offsets(fixtures: Path):
    docs = read_corpus(fixtures / "i2b2_2014")
    assert [d.id for d in docs] == ["110-01", "110-02"]
    first = docs[0]
    assert first.text.startswith("\r\nRecord date: 2067-05-03\r\n")  # CDATA kept byte for byte
    assert [(s.label, s.text_of(first.text)) for s in first.spans] == [
        (Label.DATE, "2067-05-03"),
        (Label.DOCTOR, "Quinn"),
        (Label.PATIENT, "Ng"),
        (Label.AGE, "84"),
        (Label.HOSPITAL, "Lakeside Clinic"),
    ]
    assert {s.label for s in docs[1].spans} == {Label.PROFESSION, Label.DOCTOR, Label.LOCATION_OTHER}


def test_single_file_is_one_document(fixtures: Path):
    docs = read_i2b2_2014(fixtures / "i2b2_2014" / "110-02.xml")
    assert [d.id for d in docs] == ["110-02"]


def test_round_trip_tricky(tricky, key, tmp_path: Path):
    write_i2b2_2014(tricky, tmp_path / "out")
    back = read_corpus(tmp_path / "out")
    assert key(back) == key(tricky)
    assert [d.document.metadata.patient_id for d in back] == ["7", "7", "8", "9"]


def test_cdata_terminator_is_split(tricky):
    xml = format_document(tricky[0])
    assert "]]]]><![CDATA[>" in xml
    assert parse_document(xml, "x").text == tricky[0].text


def test_line_break_in_tag_text_survives_an_xml_parser(tricky):
    import xml.etree.ElementTree as ET

    item = tricky[2]
    xml = format_document(item)
    street = next(s for s in item.spans if s.label is Label.STREET)
    element = ET.fromstring(xml.split("?>", 1)[1]).find("TAGS")
    assert element is not None
    assert element[4].get("text") == street.text_of(item.text)


def test_type_other_is_location_other(tricky):
    xml = format_document(parse_document(_doc('<LOCATION id="P0" start="0" end="3" text="Elm" TYPE="OTHER" />'), "d"))
    assert 'TYPE="OTHER"' in xml and "<LOCATION " in xml


def test_evidence_kept_in_comment(fixtures: Path, tmp_path: Path):
    docs = read_corpus(fixtures / "mini.text")
    write_i2b2_2014(docs, tmp_path / "x")
    back = read_corpus(tmp_path / "x")
    assert back[0].spans[0].evidence == ("physionet:Age",)


def test_overlapping_spans_are_kept(tmp_path: Path):
    from deident.core import Span
    from deident.core.document import AnnotatedDocument, Document

    doc = AnnotatedDocument(Document("a", "Dr John Smith"), (Span(3, 13, Label.DOCTOR), Span(3, 7, Label.PATIENT)))
    write_i2b2_2014([doc], tmp_path / "o")
    assert read_corpus(tmp_path / "o")[0].spans == doc.spans


def _doc(tags: str, text: str = "Elm St, seen by Kim") -> str:
    return f"<deIdi2b2>\n<TEXT><![CDATA[{text}]]></TEXT>\n<TAGS>\n{tags}\n</TAGS>\n</deIdi2b2>\n"


@pytest.mark.parametrize(
    ("tags", "error", "position"),
    [
        ('<NAME id="P7" start="0" end="3" text="Kim" TYPE="DOCTOR" />', SpanAlignmentError, "tag P7"),
        ('<NAME id="P2" start="16" end="99" text="Kim" TYPE="DOCTOR" />', InputFormatError, "tag P2"),
        ('<NAME id="P3" start="x" end="19" TYPE="DOCTOR" />', InputFormatError, "tag P3"),
        ('<NAME id="P4" start="16" end="19" TYPE="BOSS" />', InputFormatError, "tag P4"),
        ('<NAME id="P5" start="16" end="19" TYPE="DOCTOR">', InputFormatError, "line 5"),
    ],
)
def test_malformed_tags_name_file_and_tag(tmp_path: Path, tags: str, error: type, position: str):
    path = tmp_path / "bad.xml"
    path.write_text(_doc(tags))
    with pytest.raises(error) as caught:
        read_corpus(path)
    message = str(caught.value).replace(str(tmp_path), "")
    assert f"bad.xml, {position}" in message
    assert "Kim" not in message and "Elm" not in message


def test_unclosed_text_is_reported(tmp_path: Path):
    path = tmp_path / "cut.xml"
    path.write_text("<deIdi2b2>\n<TEXT><![CDATA[Kim was here")
    with pytest.raises(InputFormatError, match=r"cut.xml, line 2"):
        read_corpus(path)


def test_whitespace_normalised_text_attribute_is_accepted(tmp_path: Path):
    path = tmp_path / "ws.xml"
    path.write_text(_doc('<LOCATION id="P0" start="0" end="9" text="Elm St, " TYPE="STREET" />', "Elm St,\r\nKim"))
    (doc,) = read_corpus(path)
    assert doc.text == "Elm St,\r\nKim"
    assert doc.spans[0].end == 9


def test_carriage_returns_survive_a_standard_xml_parser(tmp_path: Path):
    """A raw \\r in CDATA is turned into \\n by XML parsers (offsets shift for other tools)."""
    text = "Seen by Dr. Brandt\r\non 3/4.\rEnd ]]> here"
    start = text.index("Brandt")
    item = AnnotatedDocument(Document("1_1", text), (Span(start, start + 6, Label.DOCTOR),))
    write_i2b2_2014([item], tmp_path)
    parsed = ET.parse(tmp_path / "1_1.xml").getroot().find("TEXT")
    assert parsed is not None and parsed.text == text
    assert [(d.text, d.spans) for d in read_i2b2_2014(tmp_path)] == [(text, item.spans)]


@pytest.mark.parametrize("character", ["\x0c", "\x00", "\x1b", "\ufffe", "\ud83d"])
def test_a_character_xml_cannot_hold_is_refused_by_position(tmp_path: Path, character: str):
    docs = [AnnotatedDocument(Document("1", "fine")), AnnotatedDocument(Document("2", f"page{character}break"))]
    with pytest.raises(ConfigurationError, match=r"^note 2: its text holds .* at offset 4, which i2b2-2014"):
        write_i2b2_2014(docs, tmp_path / "out")
    assert not (tmp_path / "out").exists()
