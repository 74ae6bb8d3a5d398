"""The allow and deny lists as pipeline stages: pure functions of (document, spans)."""

from __future__ import annotations

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.provenance import Confirmation
from deident.core.span import Span
from deident.site.stages import AllowListStage, DenyListStage

TEXT = "Bristol stool chart 4; moved to Bristol; Florence Nightingale Ward; the Annexe."


def at(word: str, label: Label = Label.CITY, occurrence: int = 0) -> Span:
    start = -1
    for _ in range(occurrence + 1):
        start = TEXT.index(word, start + 1)
    return Span(start, start + len(word), label, "test", 0.9)


@pytest.mark.parametrize(
    ("terms", "span", "kept"),
    [
        (("Bristol stool",), at("Bristol"), False),  # inside an allowed phrase
        (("Bristol stool",), at("Bristol", occurrence=1), True),  # the same word elsewhere
        (("bristol  STOOL",), at("Bristol"), False),  # matched like the lexicons: case and blanks normalised
        (("Nightingale",), at("Florence Nightingale", Label.PATIENT), True),  # a span containing an allowed word
        (("Nightingale Ward",), at("Nightingale", Label.PATIENT), False),
        (("Bristol stoo",), at("Bristol"), True),  # whole words only
    ],
)
def test_allow_list(terms: tuple[str, ...], span: Span, kept: bool) -> None:
    out = AllowListStage(terms)(Document("n", TEXT), (span,))
    assert out == ((span,) if kept else ())


def test_deny_list_adds_a_confirmed_span() -> None:
    stage = DenyListStage(((Label.HOSPITAL, ("the annexe",)),))
    (span,) = stage(Document("n", TEXT), ())
    assert TEXT[span.start : span.end] == "the Annexe"
    assert (span.label, span.source, span.confirmed) == (Label.HOSPITAL, "site.deny", Confirmation.SITE_LIST)


def test_deny_list_replaces_the_spans_inside_and_keeps_a_covering_one() -> None:
    stage = DenyListStage(((Label.HOSPITAL, ("the Annexe",)), (Label.DEPARTMENT, ("Nightingale Ward",))))
    inside = at("Annexe", Label.LOCATION_OTHER)
    covering = at("Florence Nightingale Ward", Label.DEPARTMENT)
    other = at("Bristol")
    out = stage(Document("n", TEXT), (other, covering, inside))
    assert [(TEXT[s.start : s.end], s.label) for s in out] == [
        ("Bristol", Label.CITY),
        ("Florence Nightingale Ward", Label.DEPARTMENT),
        ("the Annexe", Label.HOSPITAL),
    ]


def test_deny_list_label_of_the_first_list() -> None:
    stage = DenyListStage(((Label.ORGANIZATION, ("the Annexe",)), (Label.HOSPITAL, ("THE ANNEXE",))))
    (span,) = stage(Document("n", TEXT), ())
    assert span.label is Label.ORGANIZATION


def test_stages_without_matches_return_their_input() -> None:
    spans = (at("Bristol"),)
    assert AllowListStage(("Kestrel",))(Document("n", TEXT), spans) == spans
    assert DenyListStage(((Label.HOSPITAL, ("Kestrel",)),))(Document("n", TEXT), spans) == spans
