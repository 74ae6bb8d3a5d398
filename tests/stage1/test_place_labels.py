import pytest

from deident.core import Document, Label, Span
from deident.stage1.place_labels import correct_place_labels, place_key

TEXT = "Wife called from Bermuda, moving from Florida. Seen at U Maryland; Per RN from VA; lives in Towson."


@pytest.mark.parametrize(
    ("piece", "label", "expected"),
    [
        ("Bermuda,", Label.LOCATION_OTHER, Label.COUNTRY),
        ("Florida.", Label.CITY, Label.STATE),
        ("U Maryland", Label.LOCATION_OTHER, Label.LOCATION_OTHER),  # only the whole text counts
        ("VA", Label.LOCATION_OTHER, Label.LOCATION_OTHER),  # abbreviations are left alone
        ("Towson", Label.CITY, Label.CITY),
        ("Florida", Label.PATIENT, Label.PATIENT),  # only place labels are corrected
        ("Florida", Label.HOSPITAL, Label.HOSPITAL),
    ],
)
def test_correct_place_labels(piece, label, expected):
    start = TEXT.index(piece)
    span = Span(start, start + len(piece), label, "crf", 0.4)
    (got,) = correct_place_labels(Document("d", TEXT), (span,))
    assert (got.start, got.end, got.label) == (span.start, span.end, expected)
    assert (got is span) is (expected is label)


@pytest.mark.parametrize(("text", "key"), [("Florida.", "florida"), ("  New\tYork ", "new york"), ("(Peru)", "peru")])
def test_place_key(text, key):
    assert place_key(text) == key
