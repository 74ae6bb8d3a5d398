from __future__ import annotations

import random

import pytest

from deident.core.labels import Label
from deident.core.provenance import Confirmation, Part, parts_of
from deident.core.span import Span
from deident.stage2.union import _resolve_indexed, _resolve_reference, union_candidates

P, D, DT, PH, ID, LOC = Label.PATIENT, Label.DOCTOR, Label.DATE, Label.PHONE, Label.IDNUM, Label.LOCATION_OTHER
AGE = Label.AGE

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
        "pattern AGE keeps its own extent and label against a longer CRF name around it ('a 68' of 'a 68 yo')",
        [(2, 4, AGE, "patterns.age", 0.95), (0, 4, P, "crf", 0.03)],
        [(0, 4, P, 1), (2, 4, AGE, 1)],
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


def _random_group(rng: random.Random, n: int) -> list[Span]:
    """``n`` spans over a short text, mostly short and some long, of mixed categories and detectors."""
    labels = (P, D, DT, PH, ID, LOC)
    sources = ("crf", "patterns.date", "patterns.contact", "patterns.name", "lexicon.name", "site.patterns")
    spans = []
    for _ in range(n):
        start = rng.randrange(0, 40 * n)
        length = rng.choice((1, 2, 3, 5, 8, 13)) if rng.random() < 0.9 else rng.randrange(65, 20 * n)
        score = rng.choice((None, 0.1, 0.5, 0.9, 1.0))
        spans.append(Span(start, start + length, rng.choice(labels), rng.choice(sources), score))
    return spans


def _key(span: Span) -> tuple:
    return (span.start, span.end, span.label, span.source, span.score, span.evidence, span.parts, span.confirmed)


@pytest.mark.parametrize("seed", range(40))
def test_the_indexed_resolution_equals_the_reference(seed: int) -> None:
    """The fast path of large groups (a note of nothing but dates under one long CRF span) gives exactly the
    reference's candidates, parts and evidence included."""
    rng = random.Random(seed)
    group = _random_group(rng, rng.choice((5, 50, 200, 600)))
    want = sorted(map(_key, _resolve_reference(group)))
    assert sorted(map(_key, _resolve_indexed(group))) == want


def test_a_run_of_dates_under_one_long_span_keeps_every_date() -> None:
    """20,000 dates inside one long CRF span of another category (a hostile note of nothing but dates): one group,
    resolved by the indexed path; each date keeps its extent and the long span stays a candidate of its own. (Its
    speed is measured by bench/bench_large_note.py, not here.)"""
    spans = [Span(5 * i, 5 * i + 4, DT, "patterns.date", None) for i in range(20_000)]
    spans.append(Span(0, 100_000, LOC, "crf", 0.2))
    merged = union_candidates(spans)
    assert len(merged) == 20_001
    assert sum(1 for s in merged if s.label is DT and s.end - s.start == 4) == 20_000
