"""Name candidates take the label of the field that introduces them ("Patient: Maria Lopez" is the patient)."""

from __future__ import annotations

import pytest

from deident.core import Document, Label, Span
from deident.stage1.field_labels import FIELD_SOURCE, correct_field_labels
from tests.cpu_time import least_cpu_seconds

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


def test_the_first_overlapping_field_is_found_as_a_scan_of_every_field_would() -> None:
    import random

    from deident.stage1.field_labels import _FirstOverlap

    rng = random.Random(7)
    for _ in range(200):
        fields = []
        for _ in range(rng.randint(1, 12)):
            start = rng.randint(0, 80)
            fields.append(Span(start, start + rng.randint(1, 15), Label.PATIENT, FIELD_SOURCE))
        first = _FirstOverlap(fields)
        for _ in range(30):
            start = rng.randint(0, 95)
            span = Span(start, start + rng.randint(1, 10), Label.DOCTOR, "crf")
            assert first(span) is next((f for f in fields if f.overlaps(span)), None)


def test_many_fields_take_time_linear_in_the_spans() -> None:
    seconds = []
    for lines in (2_000, 8_000):
        text = "".join(f"Patient: Quorvane Tilbet{i}\n" for i in range(lines))
        spans = []
        start = text.find("Quorvane")
        while start >= 0:
            spans += [Span(start, start + 8, Label.PATIENT, FIELD_SOURCE), Span(start, start + 8, Label.DOCTOR, "crf")]
            start = text.find("Quorvane", start + 8)
        seconds.append(least_cpu_seconds(correct_field_labels, Document("n", text), tuple(spans)))
    assert seconds[1] / seconds[0] < 8.0  # x16 when every span looked at every field
