from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.core.span import Span
from deident.stage2.union import Part, parts_of, union_candidates

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
    assert {p.source for p in parts_of(merged)} == {"crf", "lexicon.last"}
    assert "lexicon.last: list=surnames" in merged.evidence


def test_union_is_idempotent():
    spans = [Span(0, 6, P, "crf", 0.8, ("x",)), Span(3, 10, D, "lexicon.last"), Span(20, 28, DT, "patterns.date")]
    once = union_candidates(spans)
    twice = union_candidates(once)
    assert [(s.start, s.end, s.label, s.source, s.score, s.evidence) for s in once] == [
        (s.start, s.end, s.label, s.source, s.score, s.evidence) for s in twice
    ]


def test_union_is_deterministic_under_input_order():
    spans = [Span(0, 6, P, "crf", 0.8), Span(3, 10, D, "lexicon.last"), Span(2, 5, DT, "patterns.date")]
    a = union_candidates(spans)
    b = union_candidates(list(reversed(spans)))
    assert [(s.start, s.end, s.label, s.source, s.evidence) for s in a] == [
        (s.start, s.end, s.label, s.source, s.evidence) for s in b
    ]


def test_union_is_idempotent_with_parts_from_one_detector():
    spans = [Span(0, 6, P, "crf", 0.8, ("a",)), Span(3, 10, P, "crf", 0.6, ("b",))]
    once = union_candidates(spans)
    twice = union_candidates(once)
    assert once[0].evidence == twice[0].evidence
    assert len(parts_of(twice[0])) == 2


def test_part_parse_reads_every_label_and_refuses_unknown_ones():
    for label in Label:
        part = Part("crf", label, 3, 9, 0.25)
        assert Part.parse(part.as_evidence()) == part
    assert Part.parse("part:crf|PATIENT|1|2|") == Part("crf", Label.PATIENT, 1, 2, None)
    assert Part.parse("crf: part-like") is None and Part.parse("part:too|few") is None
    with pytest.raises(ValueError):
        Part.parse("part:crf|NOT_A_LABEL|1|2|0.5")


@pytest.mark.parametrize(("description", "spans", "expected"), CASES, ids=[c[0] for c in CASES])
def test_parts_and_evidence_in_one_pass(description, spans, expected):
    from deident.stage2.union import own_evidence, parts_and_evidence

    given = [Span(s, e, lab, src, sc, (f"note {s}", "part:broken")) for s, e, lab, src, sc in spans]
    for span in (*given, *union_candidates(given)):
        assert parts_and_evidence(span) == (parts_of(span), own_evidence(span))
