"""Name candidates take the label of the field that introduces them ("Patient: Maria Lopez" is the patient)."""

from __future__ import annotations

import pytest

from deident.core import Document, Label, Span
from deident.stage1.field_labels import FIELD_SOURCE, correct_field_labels

TEXT = "Patient: Maria Lopez   DOB: 03/04/1956\nSigned: Dr A. Patel\nSeen with Dr Kim"


def _span(piece: str, label: Label, source: str) -> Span:
    start = TEXT.index(piece)
    return Span(start, start + len(piece), label, source, 0.5)


@pytest.mark.parametrize(
    ("piece", "label", "expected"),
    [
        ("Maria Lopez   DOB", Label.DOCTOR, Label.PATIENT),  # overlaps the field's name: the field decides
        ("Lopez", Label.DOCTOR, Label.PATIENT),
        ("Maria", Label.PATIENT, Label.PATIENT),
        ("03/04/1956", Label.DATE, Label.DATE),  # not a name: left alone
        ("Kim", Label.DOCTOR, Label.DOCTOR),  # no field before it
        ("Maria Lopez", Label.USERNAME, Label.USERNAME),  # a user name stays one
        ("Maria Lopez   DOB", Label.LOCATION_OTHER, Label.PATIENT),  # no place either
        ("Maria Lopez", Label.PHONE, Label.PHONE),  # contacts, IDs and dates keep theirs
    ],
)
def test_names_after_a_field_take_its_label(piece: str, label: Label, expected: Label) -> None:
    field = _span("Maria Lopez", Label.PATIENT, FIELD_SOURCE)
    span = _span(piece, label, "crf")
    got = correct_field_labels(Document("d", TEXT), (field, span))
    assert got[0] is field
    assert (got[1].start, got[1].end, got[1].label) == (span.start, span.end, expected)
    assert (got[1] is span) is (expected is label)


def test_without_a_field_name_nothing_changes() -> None:
    spans = (_span("Maria Lopez", Label.DOCTOR, "crf"), _span("Kim", Label.DOCTOR, "lexicon.names"))
    assert correct_field_labels(Document("d", TEXT), spans) is spans
