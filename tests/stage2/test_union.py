from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.core.provenance import Confirmation, Part, parts_of
from deident.core.span import Span
from deident.stage2.union import union_candidates

P, D, DT, PH, ID, LOC = Label.PATIENT, Label.DOCTOR, Label.DATE, Label.PHONE, Label.IDNUM, Label.LOCATION_OTHER

# (description, input spans as (start, end, label, source, score), expected (start, end, label, n_parts))
CASES = [
    ("single span kept", [(0, 5, P, "crf", 0.9)], [(0, 5, P, 1)]),
    ("longer contains shorter", [(0, 10, P, "crf", 0.9), (0, 5, P, "lexicon.first", None)], [(0, 10, P, 2)]),
    (
        "partial same category -> union, longer part labels",
        [(0, 6, P, "crf", 0.8), (3, 10, D, "lexicon.last", None)],
        [(0, 10, D, 2)],
    ),
    (
        "pattern DATE beats CRF label, same extent",
        [(0, 8, DT, "patterns.date", None), (0, 8, P, "crf", 0.99)],
        [(0, 8, DT, 2)],
    ),
    (
        "pattern PHONE beats longer CRF label inside",
        [(2, 8, PH, "patterns.phone", None), (0, 10, P, "crf", 0.6)],
        [(0, 10, P, 1), (2, 8, PH, 1)],
    ),
    (
        "CRF ID around pattern ID -> the pattern's extent",
        [(2, 8, ID, "patterns.mrn", None), (0, 10, ID, "crf", 0.6)],
        [(2, 8, ID, 2)],
    ),
    (
        "CRF phone reaching over its trigger word -> the pattern's extent",
        [(6, 18, PH, "patterns.contact", None), (0, 18, PH, "crf", 0.98)],
        [(6, 18, PH, 2)],
    ),
    (
        "CRF NAME extension past a pattern NAME still grows it (names have no fixed extent)",
        [(0, 5, P, "patterns.name", 0.9), (0, 9, P, "crf", 0.9)],
        [(0, 9, P, 2)],
    ),
    (
        "lexicon LOCATION loses to longer CRF NAME containing it",
        [(0, 12, P, "crf", 0.7), (6, 12, LOC, "lexicon.city", None)],
        [(0, 12, P, 2)],
    ),
    (
        "different categories partially overlapping both kept",
        [(0, 6, P, "crf", 0.7), (4, 12, LOC, "lexicon.city", None)],
        [(0, 6, P, 1), (4, 12, LOC, 1)],
    ),
    (
        "disjoint spans untouched",
        [(0, 3, P, "crf", 0.5), (5, 9, DT, "patterns.date", None)],
        [(0, 3, P, 1), (5, 9, DT, 1)],
    ),
    (
        "chain of overlaps merges",
        [(0, 4, P, "crf", 0.5), (3, 7, P, "crf", 0.5), (6, 10, P, "lexicon.last", None)],
        [(0, 10, P, 3)],
    ),
]


@pytest.mark.parametrize(("description", "spans", "expected"), CASES, ids=[c[0] for c in CASES])
def test_union_policy(description, spans, expected):
    got = union_candidates([Span(s, e, lab, src, sc) for s, e, lab, src, sc in spans])
    assert [(s.start, s.end, s.label, len(parts_of(s))) for s in got] == expected


def test_merged_span_keeps_sources_scores_and_evidence():
    a = Span(0, 6, P, "crf", 0.8, ("crf: marginal",))
    b = Span(3, 10, P, "lexicon.last", None, ("list=surnames",))
    (merged,) = union_candidates([a, b])
    assert merged.source == "crf+lexicon.last"
    assert merged.score == pytest.approx(0.8)
    assert merged.parts == (Part("lexicon.last", P, 3, 10, None), Part("crf", P, 0, 6, 0.8))
    assert merged.evidence == ("lexicon.last: list=surnames", "crf: crf: marginal")  # text for people only


def test_union_is_idempotent():
    spans = [Span(0, 6, P, "crf", 0.8, ("x",)), Span(3, 10, D, "lexicon.last"), Span(20, 28, DT, "patterns.date")]
    once = union_candidates(spans)
    twice = union_candidates(once)
    assert [(s.start, s.end, s.label, s.source, s.score, s.evidence, s.parts) for s in once] == [
        (s.start, s.end, s.label, s.source, s.score, s.evidence, s.parts) for s in twice
    ]


def test_union_is_deterministic_under_input_order():
    spans = [Span(0, 6, P, "crf", 0.8), Span(3, 10, D, "lexicon.last"), Span(2, 5, DT, "patterns.date")]
    a = union_candidates(spans)
    b = union_candidates(list(reversed(spans)))
    assert [(s.start, s.end, s.label, s.source, s.evidence, s.parts) for s in a] == [
        (s.start, s.end, s.label, s.source, s.evidence, s.parts) for s in b
    ]


def test_union_is_idempotent_with_parts_from_one_detector():
    spans = [Span(0, 6, P, "crf", 0.8, ("a",)), Span(3, 10, P, "crf", 0.6, ("b",))]
    once = union_candidates(spans)
    twice = union_candidates(once)
    assert once[0].evidence == twice[0].evidence == ("crf: b", "crf: a")  # the longer part first
    assert once[0].parts == twice[0].parts == (Part("crf", P, 3, 10, 0.6), Part("crf", P, 0, 6, 0.8))


# (description, input spans as (start, end, label, source, score), expected parts of the one candidate)
PART_CASES = [
    ("a lone span is its own part", [(0, 5, P, "crf", 0.9)], [Part("crf", P, 0, 5, 0.9)]),
    ("no score stays None", [(0, 5, P, "lexicon.first", None)], [Part("lexicon.first", P, 0, 5, None)]),
    (
        "parts in priority order: the pattern first, each with its own offsets",
        [(0, 10, DT, "crf", 0.6), (2, 8, DT, "patterns.date", None)],
        [Part("patterns.date", DT, 2, 8, None), Part("crf", DT, 0, 10, 0.6)],
    ),
    (
        "an absorbed part keeps its own label",
        [(0, 12, P, "crf", 0.7), (6, 12, LOC, "lexicon.city", None)],
        [Part("crf", P, 0, 12, 0.7), Part("lexicon.city", LOC, 6, 12, None)],
    ),
    (
        "the same proposal twice is one part",
        [(0, 5, P, "crf", 0.5), (0, 5, P, "crf", 0.5)],
        [Part("crf", P, 0, 5, 0.5)],
    ),
    (
        "scores keep 6 significant digits (the precision the shipped filter was trained on)",
        [(0, 5, P, "crf", 0.123456789), (0, 5, P, "lexicon.last", 1.0000004)],
        [Part("lexicon.last", P, 0, 5, 1.0), Part("crf", P, 0, 5, 0.123457)],
    ),
]


@pytest.mark.parametrize(("description", "spans", "expected"), PART_CASES, ids=[c[0] for c in PART_CASES])
def test_union_writes_typed_parts(description, spans, expected):
    (merged,) = union_candidates([Span(s, e, lab, src, sc, (f"note {s}",)) for s, e, lab, src, sc in spans])
    assert list(merged.parts) == expected == list(parts_of(merged))
    assert all(note.startswith(tuple(f"{p.source}: " for p in expected)) for note in merged.evidence)


def test_merged_score_is_the_exact_maximum_while_parts_are_rounded():
    (merged,) = union_candidates([Span(0, 5, P, "crf", 0.123456789)])
    assert merged.score == 0.123456789 and merged.parts[0].score == 0.123457


@pytest.mark.parametrize(
    ("spans", "expected"),
    [
        # a site's custom pattern outranks a built-in ID pattern of the same extent, and keeps its label
        (
            [Span(0, 10, Label.IDNUM, "patterns.id", 0.7), Span(0, 10, Label.MEDICALRECORD, "site.patterns", 0.5)],
            [(0, 10, Label.MEDICALRECORD)],
        ),
        # a whole site-list entry keeps its extent and label inside a longer CRF span of its category
        (
            [
                Span(0, 20, Label.LOCATION_OTHER, "crf", 0.9),
                Span(0, 13, Label.DEPARTMENT, "site.lists", 1.0, confirmed=Confirmation.SITE_LIST),
            ],
            [(0, 13, Label.DEPARTMENT)],
        ),
        # a part of a listed name is no site rule: the longer span wins as before
        (
            [Span(0, 12, Label.PATIENT, "crf", 0.9), Span(6, 12, Label.DOCTOR, "site.lists", 0.75)],
            [(0, 12, Label.PATIENT)],
        ),
    ],
)
def test_site_rules_come_first(spans: list[Span], expected: list[tuple[int, int, Label]]) -> None:
    assert [(s.start, s.end, s.label) for s in union_candidates(spans)] == expected
