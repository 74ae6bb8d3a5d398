import pytest

from deident.core import Document, Label, Span
from deident.stage1.name_edges import trim_name_edges

TEXT = (
    "Spoke with Dr. Zyx Quill today; wife Anna Roe called; Jon Smith, RN here; the wife and son; per Sally MS."
    " Called ; niece. Hi Lorna! Dear Quorvane, thanks. Seen by Dr. Brantisk on 3/4; smith john mrn 4455667 seen"
)


@pytest.mark.parametrize(
    ("piece", "label", "expected"),
    [
        ("Dr. Zyx Quill", Label.DOCTOR, "Zyx Quill"),
        ("wife Anna Roe", Label.RELATIVE, "Anna Roe"),
        ("Jon Smith, RN", Label.DOCTOR, "Jon Smith"),
        ("Zyx Quill", Label.DOCTOR, "Zyx Quill"),  # nothing to trim
        ("wife and son", Label.RELATIVE, "wife and son"),  # "and" is no trigger word: only the edges go
        ("wife", Label.RELATIVE, "wife"),  # trigger words only: left whole for the filter to judge
        ("Dr. Zyx Quill", Label.HOSPITAL, "Dr. Zyx Quill"),  # only names are trimmed
        ("Sally MS", Label.PATIENT, "Sally"),
        ("; niece", Label.DOCTOR, "; niece"),  # punctuation is no name: nothing is left to keep, so left whole
        ("Hi Lorna", Label.PATIENT, "Lorna"),  # a greeting is not the name it greets
        ("Dear Quorvane", Label.DOCTOR, "Quorvane"),
        ("Quorvane, thanks", Label.DOCTOR, "Quorvane"),
        # a title's full stop, a record field and its number are no part of the name
        (". Brantisk", Label.DOCTOR, "Brantisk"),
        ("smith john mrn 4455667", Label.PATIENT, "smith john mrn 4455667"),  # the number alone: see below
    ],
)
def test_trim_name_edges(piece: str, label: Label, expected: str) -> None:
    start = TEXT.index(piece)
    span = Span(start, start + len(piece), label, "crf", 0.4)
    (got,) = trim_name_edges(Document("d", TEXT), (span,))
    assert TEXT[got.start : got.end] == expected
    assert got.label is label and got.source == "crf"
    assert (got is span) is (expected == piece)


def test_trimmed_span_explains_itself() -> None:
    start = TEXT.index("Dr. Zyx")
    (got,) = trim_name_edges(Document("d", TEXT), (Span(start, start + 13, Label.DOCTOR, "crf", 0.4),))
    assert any("trimmed" in note for note in got.evidence)


def test_a_number_at_the_edge_goes_only_where_another_span_holds_it() -> None:
    start = TEXT.index("smith john")
    end = start + len("smith john mrn 4455667")
    number = Span(end - 7, end, Label.MEDICALRECORD, "patterns.id", 0.9)
    name = Span(start, end, Label.PATIENT, "crf", 0.4)
    got = trim_name_edges(Document("d", TEXT), (name, number))
    assert [TEXT[s.start : s.end] for s in got] == ["smith john", "4455667"]
