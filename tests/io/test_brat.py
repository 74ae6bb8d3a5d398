from pathlib import Path

import pytest

from deident.core import InputFormatError, Label
from deident.core.errors import SpanAlignmentError
from deident.io import read_corpus
from deident.io.brat import read_brat, write_brat


def test_reads_folder_with_discontinuous_and_other_lines(fixtures: Path):
    docs = read_corpus(fixtures / "brat")
    assert [d.id for d in docs] == ["note_1", "sub/note_2"]
    first = docs[0]
    assert [(s.label, s.text_of(first.text)) for s in first.spans] == [
        (Label.PATIENT, "Jo Lee"),
        (Label.LOCATION_OTHER, "Oak"),
        (Label.LOCATION_OTHER, "Park"),
        (Label.DATE, "4/5"),
        (Label.PATIENT, "Max"),  # category name NAME stands for its default sub-type
    ]
    assert docs[1].spans == ()
    assert first.document.metadata.patient_id == "note" and first.document.metadata.note_id == "1"


@pytest.mark.parametrize("name", ["note_1.txt", "note_1.ann"])
def test_single_pair(fixtures: Path, name: str):
    (doc,) = read_corpus(fixtures / "brat" / name)
    assert doc.id == "note_1" and len(doc.spans) == 5


def test_round_trip_tricky(tricky, key, tmp_path: Path):
    write_brat(tricky, tmp_path / "out")
    assert (tmp_path / "out" / "7_2.ann").read_text() == ""
    assert key(read_brat(tmp_path / "out")) == key(tricky)
    assert (tmp_path / "out" / "7_1.txt").read_bytes() == tricky[0].text.encode()


@pytest.mark.parametrize(
    ("ann", "error", "position"),
    [
        ("T1\tPATIENT 0 3\tLee\n", SpanAlignmentError, "line 1 (T1)"),
        ("#1\tnote\nT2\tPATIENT 4 99\tLee\n", InputFormatError, "line 2 (T2)"),
        ("T3\tBOSS 4 7\tLee\n", InputFormatError, "line 1 (T3)"),
        ("T4\tPATIENT four 7\tLee\n", InputFormatError, "line 1"),
    ],
)
def test_malformed_ann(tmp_path: Path, ann: str, error: type, position: str):
    (tmp_path / "d.txt").write_text("Kim Lee\n")
    (tmp_path / "d.ann").write_text(ann)
    with pytest.raises(error) as caught:
        read_corpus(tmp_path)
    message = str(caught.value).replace(str(tmp_path), "")
    assert f"d.ann, {position}" in message
    assert "Kim" not in message and "Lee" not in message


def test_ann_without_txt(tmp_path: Path):
    (tmp_path / "lost.ann").write_text("T1\tPATIENT 0 3\tKim\n")
    with pytest.raises(InputFormatError, match=r"lost\.ann"):
        read_brat(tmp_path)
