from pathlib import Path

import pytest

from deident.core import ConfigurationError, InputFormatError, Label, Span
from deident.core.document import AnnotatedDocument, Document
from deident.io import read_corpus, write_corpus
from deident.io.conll import format_document, read_conll, write_conll


def _spaced(text: str) -> str:
    """What the reader can rebuild: every whitespace character becomes a space."""
    return "".join(" " if c.isspace() else c for c in text)


def test_round_trip_keeps_ids_spans_metadata_and_length(tricky, tmp_path: Path):
    write_conll(tricky, tmp_path / "out.conll")
    back = read_conll(tmp_path / "out.conll")
    assert [d.id for d in back] == [d.id for d in tricky]
    assert [d.text for d in back] == [_spaced(d.text) for d in tricky]
    assert [d.spans for d in back] == [d.spans for d in tricky]
    assert [d.document.metadata for d in back] == [d.document.metadata for d in tricky]


def test_adjacent_spans_get_their_own_b_tags(tricky):
    lines = format_document(tricky[2]).splitlines()
    assert "John\t0\t4\tB-PATIENT" in lines
    assert "Smith\t4\t9\tB-DOCTOR" in lines
    assert "/\t20\t21\tB-DATE" in lines  # "01/02" then "/2020": two DATE spans side by side


def test_sentences_are_separated_by_blank_lines(fixtures: Path):
    docs = read_corpus(fixtures / "mini.text")
    text = format_document(docs[0])
    assert ".\t51\t52\tO\n\nWife\t53\t57\tO" in text


def test_empty_document_keeps_its_id(tricky, tmp_path: Path):
    write_conll(tricky[1:2], tmp_path / "e.conll")
    (back,) = read_conll(tmp_path / "e.conll")
    assert back.id == "7_2" and back.text == "" and back.spans == ()


def test_two_column_file_without_offsets(fixtures: Path):
    (doc,) = read_corpus(fixtures / "bio.conll")
    assert doc.id == "bio"
    assert doc.text == "Dr Ann Lee saw pt on 3/4"
    assert [(s.label, s.text_of(doc.text)) for s in doc.spans] == [(Label.DOCTOR, "Ann Lee"), (Label.DATE, "3/4")]


def test_i_without_b_starts_a_span(tmp_path: Path):
    (tmp_path / "x.conll").write_text("Kim\t0\t3\tI-PATIENT\nLee\t4\t7\tI-DOCTOR\n")
    (doc,) = read_conll(tmp_path / "x.conll")
    assert [(s.start, s.end, s.label) for s in doc.spans] == [(0, 3, Label.PATIENT), (4, 7, Label.DOCTOR)]


def test_hash_token_is_not_a_comment(tmp_path: Path):
    doc = AnnotatedDocument(Document("h", "# 5"), ())
    write_conll([doc], tmp_path / "h.conll")
    assert read_conll(tmp_path / "h.conll")[0].text == "# 5"


def test_overlaps_are_refused(tmp_path: Path):
    doc = AnnotatedDocument(Document("a", "Dr John Smith"), (Span(3, 13, Label.DOCTOR), Span(3, 7, Label.PATIENT)))
    with pytest.raises(ConfigurationError, match="overlapping"):
        write_corpus([doc], tmp_path / "o.conll")


@pytest.mark.parametrize(
    ("content", "position"),
    [
        ("# doc_id = a\nKim\t0\t3\tB-BOSS\n", "line 2"),
        ("# doc_id = a\nKim\t0\t3\tO\nLee\t2\t5\tO\n", "line 3"),
        ("# doc_id = a\nKim\t0\t4\tO\n", "line 2"),
        ("# doc_id = a\nKim\tx\t3\tO\n", "line 2"),
        ("# doc_id = a\nKim\t0\t3\tX-PATIENT\n", "line 2"),
        ("# doc_id = a\nKim\t0\n", "line 2"),
        ("# doc_id = a\n# chars = many\nKim\t0\t3\tO\n", "line 2"),
    ],
)
def test_malformed_lines(tmp_path: Path, content: str, position: str):
    (tmp_path / "bad.conll").write_text(content)
    with pytest.raises(InputFormatError) as caught:
        read_conll(tmp_path / "bad.conll")
    message = str(caught.value).replace(str(tmp_path), "")
    assert f"bad.conll, {position}" in message
    assert "Kim" not in message
