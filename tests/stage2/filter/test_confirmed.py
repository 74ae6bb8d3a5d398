"""A validator-confirmed structure (checksum, parsed phone number, e-mail, URL, IP, full date) is never dropped by
the span filter: the confirmation is typed (``Span.confirmed``, ``Part.confirmed``), not guessed from strings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.provenance import Confirmation, confirmation_of, parts_of
from deident.core.span import Span
from deident.detect.patterns import combined_pattern_detector
from deident.stage2.filter.span_classifier import LinearModel, SpanFilter, SpanFilterStage
from deident.stage2.union import union_candidates

# (text, the detected string, its confirmation); all strings invented.
CONFIRMED = [
    ("SSN 536-22-1234 noted", "536-22-1234", Confirmation.CHECKSUM),
    ("VIN 1M8GDM9AXKP042788 on file", "1M8GDM9AXKP042788", Confirmation.CHECKSUM),
    ("card 4111 1111 1111 1111 on file", "4111 1111 1111 1111", Confirmation.CHECKSUM),
    ("card 5555-5555-5555-4444.", "5555-5555-5555-4444", Confirmation.CHECKSUM),
    ("amex 3782 822463 10005 ok", "3782 822463 10005", Confirmation.CHECKSUM),
    ("paid with 6011000990139424 today", "6011000990139424", Confirmation.CHECKSUM),
    ("call 617-555-0199 today", "617-555-0199", Confirmation.PHONE),
    ("call (617) 555-0199 today", "(617) 555-0199", Confirmation.PHONE),
    ("Reach her on +44 20 7946 0958.", "+44 20 7946 0958", Confirmation.PHONE),
    ("mail jo.doe@example.org now", "jo.doe@example.org", Confirmation.EMAIL),
    ("see https://example.org/x", "https://example.org/x", Confirmation.URL),
    ("see www.example.com", "www.example.com", Confirmation.URL),
    ("see clinic.example.org", "clinic.example.org", Confirmation.URL),
    ("host 10.1.2.3 up", "10.1.2.3", Confirmation.IP),
    ("seen 03/14/2011 and", "03/14/2011", Confirmation.FULL_DATE),
    ("seen 14.03.11 and", "14.03.11", Confirmation.FULL_DATE),
    ("on 2011-03-14 ok", "2011-03-14", Confirmation.FULL_DATE),
    ("on March 14, 2011 ok", "March 14, 2011", Confirmation.FULL_DATE),
    ("on 14 March 2011 ok", "14 March 2011", Confirmation.FULL_DATE),
    ("on 29 Feb 2012 ok", "29 Feb 2012", Confirmation.FULL_DATE),
]
# Detected, but nothing about their structure was checked: the filter may judge them.
UNCONFIRMED = [
    ("on 3/14 ok", "3/14"),
    ("in March 2011 ok", "March 2011"),
    ("on 14 March ok", "14 March"),
    ("in 2011 she", "2011"),
    ("MRN: 4433221", "4433221"),
    ("Job #: 104943", "104943"),
    ("SSN 666-12-3456", "666-12-3456"),  # found by its trigger; 666 is no SSN area, so no checksum holds
]


def _detected(text: str) -> list[Span]:
    return list(combined_pattern_detector().detect(Document("d", text)))


@pytest.mark.parametrize(("text", "string", "confirmation"), CONFIRMED)
def test_validators_confirm_the_structures_they_checked(text, string, confirmation):
    spans = [s for s in _detected(text) if s.text_of(text) == string]
    assert spans and spans[0].confirmed is confirmation


@pytest.mark.parametrize(("text", "string"), UNCONFIRMED)
def test_what_no_validator_checked_is_not_confirmed(text, string):
    spans = [s for s in _detected(text) if s.text_of(text) == string]
    assert spans and spans[0].confirmed is None


def test_impossible_dates_are_not_confirmed_as_full_dates():
    for text in ("on 2/30/2015 ok", "on 30 Feb 2015 ok", "on 2015-02-30 ok"):
        assert all(s.confirmed is None for s in _detected(text))


@pytest.mark.parametrize(
    "text",
    [
        "card 4111 1111 1111 1112 on file",  # the Luhn digit fails
        "card 9111 1111 1111 1111 on file",  # no issuer starts with 9
        "card 4111-1111 1111-1111 on file",  # mixed separators
        "card 41111 1111 1111 111 on file",  # not grouped as cards are printed
    ],
)
def test_card_shapes_that_fail_their_checks_are_not_confirmed(text):
    assert all(s.confirmed is None for s in _detected(text))


def _reject_everything() -> SpanFilter:
    model = LinearModel({}, -20.0)  # P(PHI) ~ 2e-9 for every candidate
    return SpanFilter(
        {"names": model, "numeric": model, "locations": model}, dict.fromkeys(("names", "numeric", "locations"), 0.5)
    )


@pytest.mark.parametrize(("text", "string", "confirmation"), CONFIRMED)
def test_a_filter_that_rejects_everything_keeps_confirmed_candidates(text, string, confirmation):
    # Scores lowered below the confident-detector rule: only the confirmation can keep them.
    candidates = union_candidates(replace(s, score=0.5) for s in _detected(text))
    kept = SpanFilterStage(_reject_everything())(Document("d", text), candidates)
    assert [s.text_of(text) for s in kept] == [string]
    assert kept[0].evidence[-1].endswith(f"kept: {confirmation} confirmed")


@pytest.mark.parametrize(("text", "string"), UNCONFIRMED)
def test_a_filter_that_rejects_everything_drops_unconfirmed_candidates(text, string):
    candidates = union_candidates(replace(s, score=0.5) for s in _detected(text))
    assert SpanFilterStage(_reject_everything())(Document("d", text), candidates) == ()


def test_a_merged_candidate_is_confirmed_through_its_parts():
    text = "seen 03/14/2011 and"
    date = next(s for s in _detected(text) if s.label is Label.DATE)
    crf = Span(5, 19, Label.DATE, "crf", 0.3)
    (merged,) = union_candidates([date, crf])
    assert merged.parts and {p.source for p in parts_of(merged)} == {"crf", "patterns.date"}
    assert next(p for p in merged.parts if p.source == "patterns.date").confirmed is Confirmation.FULL_DATE
    assert confirmation_of(merged) is Confirmation.FULL_DATE
    # The union is idempotent, the flag included.
    (again,) = union_candidates([merged])
    assert confirmation_of(again) is Confirmation.FULL_DATE and again.parts == merged.parts


def test_a_confirmed_part_of_another_category_confirms_nothing():
    part_only = Span(0, 20, Label.PATIENT, "crf", 0.3, parts=(), confirmed=None)
    merged = replace(
        part_only,
        parts=(
            *parts_of(part_only),
            *parts_of(Span(5, 15, Label.DATE, "patterns.date", 0.9, confirmed=Confirmation.FULL_DATE)),
        ),
    )
    assert confirmation_of(merged) is None


def test_the_confirmation_is_typed_not_guessed_from_strings():
    span = Span(0, 4, Label.DATE, "patterns.date", 0.2, evidence=("full-date", "pattern:date.iso"))
    assert confirmation_of(span) is None
    assert SpanFilterStage(_reject_everything())(Document("d", "2011"), (span,)) == ()
