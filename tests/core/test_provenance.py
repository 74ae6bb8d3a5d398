"""The typed provenance record of merged candidates (deident.core.provenance)."""

from __future__ import annotations

import dataclasses

import pytest

from deident.core.labels import Label
from deident.core.provenance import Part, part_of, part_score, parts_of, source_family
from deident.core.span import Span

P, DT = Label.PATIENT, Label.DATE


@pytest.mark.parametrize(
    ("source", "family"),
    [
        ("crf", "crf"),
        ("patterns.date", "patterns"),
        ("lexicon.last.fuzzy", "lexicon"),
        ("", ""),
        ("trusted.", "trusted"),
    ],
)
def test_source_family(source: str, family: str) -> None:
    assert source_family(source) == family


@pytest.mark.parametrize(
    ("score", "kept"),
    [
        (None, None),
        (0.0, 0.0),
        (1.0, 1.0),
        (0.5, 0.5),
        (0.123456789, 0.123457),
        (0.9999996, 1.0),
        (1.23456789e-5, 1.23457e-05),
        (123456.7, 123457.0),
    ],
)
def test_part_score_keeps_six_significant_digits(score: float | None, kept: float | None) -> None:
    assert part_score(score) == kept
    # The precision of the former "%.6g" text form, which the shipped span filter was trained on.
    assert part_score(score) == (None if score is None else float(f"{score:.6g}"))


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        (Span(0, 5, P, "crf", 0.9), (Part("crf", P, 0, 5, 0.9),)),
        (Span(3, 9, DT, "patterns.date"), (Part("patterns.date", DT, 3, 9, None),)),
        (Span(0, 5, P, "crf", 0.123456789), (Part("crf", P, 0, 5, 0.123456789),)),  # its own score, exact
        (
            Span(0, 9, P, "crf+lexicon.last", 0.9, ("crf: crf:p=0.9",), (Part("lexicon.last", P, 4, 9, None),)),
            (Part("lexicon.last", P, 4, 9, None),),
        ),
    ],
)
def test_parts_of_is_the_parts_or_the_span_itself(span: Span, expected: tuple[Part, ...]) -> None:
    assert parts_of(span) == expected
    if not span.parts:
        assert part_of(span) == expected[0]


def test_part_is_frozen_hashable_and_text_free() -> None:
    part = Part("crf", P, 2, 7, 0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        part.start = 3  # type: ignore[misc]
    assert not hasattr(part, "__dict__")  # slotted
    assert len({part, Part("crf", P, 2, 7, 0.5), Part("crf", P, 2, 7, None)}) == 2
    assert {f.name for f in dataclasses.fields(Part)} == {"source", "label", "start", "end", "score", "confirmed"}


def test_span_parts_default_empty_and_ignored_by_equality_and_order() -> None:
    plain = Span(0, 5, P, "crf", 0.9)
    merged = Span(0, 5, P, "crf", 0.9, (), (Part("crf", P, 0, 5, 0.9),))
    assert plain.parts == ()
    assert plain == merged and hash(plain) == hash(merged) and not plain < merged
    # Span's helpers keep the parts (they describe where the candidate came from, not its extent).
    assert merged.with_label(DT).parts == merged.parts
    assert merged.with_evidence("filter: kept").parts == merged.parts
    assert merged.moved(1, 4).parts == merged.parts


def test_span_repr_shows_parts_without_text() -> None:
    text = "Seen by Zyxwerth."
    span = Span(8, 16, P, "crf", 0.9, (), (Part("crf", P, 8, 16, 0.9),))
    assert span.text_of(text) == "Zyxwerth"
    assert "Zyxwerth" not in repr(span) and "Part(source='crf'" in repr(span)
