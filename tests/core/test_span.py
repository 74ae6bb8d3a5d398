import dataclasses
import random
import time
from dataclasses import replace

import numpy as np
import pytest

from deident.core import Label, Span, disjoint_spans, merge_adjacent, remove_overlaps, sort_spans
from deident.core.labels import PHYSIONET_TO_LABEL, Category, SafeHarbor
from deident.core.provenance import Confirmation, Part


def test_span_is_immutable_and_holds_no_text():
    span = Span(4, 9, Label.PATIENT, source="test", score=0.9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        span.start = 4  # type: ignore[misc]
    assert "text" not in {f.name for f in dataclasses.fields(Span)}
    assert span.text_of("Mr. Smith was here") == "Smith"
    assert span.category is Category.NAME


@pytest.mark.parametrize(("start", "end"), [(-1, 3), (5, 5), (6, 2)])
def test_bad_offsets_rejected(start, end):
    with pytest.raises(ValueError):
        Span(start, end, Label.DATE)


def test_label_requires_enum():
    with pytest.raises(TypeError):
        Span(0, 1, "DATE")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("label", "category", "harbor"),
    [
        (Label.PATIENT, Category.NAME, SafeHarbor.REQUIRED),
        (Label.DOCTOR, Category.NAME, SafeHarbor.NOT_REQUIRED),
        (Label.RELATIVE, Category.NAME, SafeHarbor.REQUIRED),
        (Label.ZIP, Category.LOCATION, SafeHarbor.CONDITIONAL),
        (Label.AGE, Category.AGE, SafeHarbor.CONDITIONAL),
        (Label.SSN, Category.ID, SafeHarbor.REQUIRED),
        (Label.EMAIL, Category.CONTACT, SafeHarbor.REQUIRED),
        (Label.PROFESSION, Category.PROFESSION, SafeHarbor.NOT_REQUIRED),
        (Label.ORGANIZATION, Category.LOCATION, SafeHarbor.REQUIRED),
        (Label.HOSPITAL, Category.LOCATION, SafeHarbor.NOT_REQUIRED),
        (Label.URL, Category.CONTACT, SafeHarbor.REQUIRED),
    ],
)
def test_label_taxonomy(label, category, harbor):
    assert label.category is category
    assert label.safe_harbor is harbor


@pytest.mark.parametrize(
    ("name", "label"),
    [("OTHER", Label.LOCATION_OTHER), ("location-other", Label.LOCATION_OTHER), ("medicalrecord", Label.MEDICALRECORD)],
)
def test_label_parse(name, label):
    assert Label.parse(name) is label


def test_label_parse_unknown():
    with pytest.raises(ValueError):
        Label.parse("NOPE")


def test_physionet_mapping_covers_all_types():
    assert set(PHYSIONET_TO_LABEL) == {
        "HCPName",
        "PTName",
        "PTNameInitial",
        "RelativeProxyName",
        "Date",
        "DateYear",
        "Location",
        "Phone",
        "Age",
        "Other",
    }


def test_sort_and_overlaps():
    a, b, c = Span(0, 10, Label.DATE), Span(2, 4, Label.AGE), Span(12, 14, Label.DATE)
    assert sort_spans([c, b, a]) == (a, b, c)
    assert remove_overlaps([b, a, c]) == (a, c)


def _remove_overlaps_reference(spans):
    """The former quadratic implementation, kept as the reference the sweep must equal."""

    def rank(s):
        return (-s.length, -(s.score if s.score is not None else 1.0), s.start)

    kept = []
    for span in sorted(spans, key=rank):
        if not any(span.overlaps(k) for k in kept):
            kept.append(span)
    return sort_spans(kept)


def _identity(spans):
    return [(s.start, s.end, s.label, s.source, s.score) for s in spans]


@pytest.mark.parametrize("seed", range(40))
def test_remove_overlaps_equals_the_reference(seed):
    rng = random.Random(seed)
    labels = [Label.DATE, Label.DOCTOR, Label.PHONE]
    spans = []
    for i in range(rng.randint(0, 120)):
        start = rng.randint(0, 150)
        end = start + rng.choice([1, 1, 2, 3, 5, 8, 20, 60])
        score = rng.choice([None, 0.5, 0.9, 1.0, rng.random()])
        spans.append(Span(start, end, rng.choice(labels), f"s{i}", score))
    spans += spans[: rng.randint(0, 10)]  # exact duplicates
    assert _identity(remove_overlaps(spans)) == _identity(_remove_overlaps_reference(spans))


def test_remove_overlaps_is_near_linear():
    # 60,000 spans: short disjoint ones, each overlapped by a longer one made of pairs. The quadratic version
    # compared each with every kept span (about 10^9 comparisons: minutes); the sweep takes well under a second.
    spans = [Span(i * 10, i * 10 + 4, Label.DATE) for i in range(40_000)]
    spans += [Span(i * 20 + 2, i * 20 + 13, Label.PHONE) for i in range(20_000)]
    start = time.process_time()
    kept = remove_overlaps(spans)
    assert time.process_time() - start < 5.0
    assert len(kept) == 20_000 and all(s.label is Label.PHONE for s in kept)


def test_sort_spans_orders_equal_offsets_by_label_value_then_source():
    labels = list(Label)
    random.Random(3).shuffle(labels)
    spans = [Span(1, 5, label, source=source) for label in labels for source in ("b", "a")]
    spans += [Span(0, 5, Label.ZIP), Span(1, 6, Label.AGE), Span(2, 3, Label.AGE)]
    expected = sorted(spans, key=lambda s: (s.start, -s.end, s.label.value, s.source))
    assert sort_spans(spans) == tuple(expected)


def test_merge_adjacent():
    text = "Anna Maria Lopez"
    spans = [Span(0, 4, Label.PATIENT), Span(5, 10, Label.PATIENT), Span(11, 16, Label.PATIENT)]
    assert merge_adjacent(spans, text) == (Span(0, 16, Label.PATIENT),)


@pytest.mark.parametrize(
    ("start", "end", "score", "source"),
    [
        (np.int64(2), np.int32(7), np.float64(0.25), np.str_("crf")),
        (2, 7, np.float32(0.25), "crf"),
        (2, 7, 1, "crf"),
        (np.intp(2), 7, None, "crf"),
    ],
)
def test_span_fields_are_plain_python_values(start, end, score, source):
    # A numpy float64 is a float to isinstance and to every comparison; Spark's schema check rejects it.
    made = Span(start, end, Label.EMAIL, source, score)
    for span in (made, replace(Span(0, 1, Label.EMAIL), start=start, end=end, score=score, source=source)):
        assert (type(span.start), type(span.end), type(span.source)) == (int, int, str)
        assert span.score is None or type(span.score) is float
        assert (span.start, span.end, span.score) == (2, 7, None if score is None else float(score))
    part = Part(source, Label.EMAIL, start, end, score)
    assert (type(part.start), type(part.end), type(part.source)) == (int, int, str)
    assert part.score is None or type(part.score) is float


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"start": 1.0}, "offsets must be integers"),
        ({"end": "5"}, "offsets must be integers"),
        ({"start": True}, "offsets must be integers"),
        ({"score": "0.5"}, "scores must be real numbers"),
        ({"score": True}, "scores must be real numbers"),
        ({"source": 3}, "source must be a string"),
    ],
)
def test_span_fields_of_other_types_are_refused(fields, message):
    values = {"start": 1, "end": 5, "label": Label.DATE, "source": "x", "score": None, **fields}
    with pytest.raises(TypeError, match=message):
        Span(**values)


def test_span_sequences_are_tuples():
    span = Span(0, 4, Label.DATE, evidence=["a", "b"], parts=[Part("x", Label.DATE, 0, 4, 0.5)])  # type: ignore[arg-type]
    assert span.evidence == ("a", "b") and type(span.parts) is tuple and hash(span) == hash(Span(0, 4, Label.DATE))


# disjoint_spans: (text, spans as (start, end, label), expected kept spans as (covered text, label)).
_DATE, _NAME, _PLACE = Label.DATE, Label.PATIENT, Label.HOSPITAL
_DISJOINT_CASES = [
    # no overlap: every span kept as it is
    ("Mr Okafor seen 3/4/21.", [(3, 9, _NAME), (15, 21, _DATE)], [("Okafor", _NAME), ("3/4/21", _DATE)]),
    # one inside another: the longer alone, as remove_overlaps keeps it
    ("pgr 23456 ok", [(0, 9, _PLACE), (4, 9, Label.PHONE)], [("pgr 23456", _PLACE)]),
    # sticking out of a longer span: the part beyond it, trimmed to its letters and digits
    (
        "RE: Mrs Wilkinson - D.O.B. 18-Dec-1977 - NHS",
        [(8, 33, _NAME), (27, 38, _DATE)],
        [("Wilkinson - D.O.B. 18-Dec", _NAME), ("1977", _DATE)],
    ),
    (
        "Dr Simon Ford  13-May-2022",
        [(3, 16, Label.DOCTOR), (15, 26, _DATE)],
        [("Simon Ford  1", Label.DOCTOR), ("3-May-2022", _DATE)],
    ),
    # a span a validator confirmed keeps its extent, shorter or not; the other keeps what lies beyond it
    (
        "Dr Simon Ford  13-May-2022",
        [(3, 16, Label.DOCTOR), (15, 26, _DATE, Confirmation.FULL_DATE)],
        [("Simon Ford", Label.DOCTOR), ("13-May-2022", _DATE)],
    ),
    (
        "full number 4111 1111 1111 1111, exp",
        [(5, 31, Label.PHONE), (12, 31, Label.ACCOUNT, Confirmation.CHECKSUM)],
        [("number", Label.PHONE), ("4111 1111 1111 1111", Label.ACCOUNT)],
    ),
    # a shorter span across two kept ones: what lies between them, if it holds a letter or digit
    ("aaaaa bb cc ddddd", [(0, 8, _NAME), (9, 17, _NAME), (6, 11, _PLACE)], [("aaaaa bb", _NAME), ("cc ddddd", _NAME)]),
    (
        "aaaaa bb x cc ddddd",
        [(0, 8, _NAME), (11, 19, _NAME), (6, 13, _PLACE)],
        [("aaaaa bb", _NAME), ("x", _PLACE), ("cc ddddd", _NAME)],
    ),
    # a span on both sides of a shorter one kept before it is not possible (longer first), but one kept span inside
    # two losers' union is: each loser keeps its own side
    (
        "xx Okafor yy",
        [(3, 9, _NAME), (0, 5, _PLACE), (7, 12, _DATE)],
        [("xx", _PLACE), ("Okafor", _NAME), ("yy", _DATE)],
    ),
    # what sticks out holds no letter or digit: dropped
    ("Smith, 3/4", [(0, 6, _NAME), (0, 5, _PLACE), (3, 7, _DATE)], [("Smith,", _NAME)]),
]


@pytest.mark.parametrize(("text", "given", "expected"), _DISJOINT_CASES)
def test_disjoint_spans_keep_what_sticks_out(text, given, expected):
    kept = disjoint_spans([Span(s, e, label, "src", confirmed=(*rest, None)[0]) for s, e, label, *rest in given], text)
    assert [(span.text_of(text), span.label) for span in kept] == expected


@pytest.mark.parametrize("seed", range(40))
def test_disjoint_spans_cover_every_letter_and_digit(seed):
    rng = random.Random(seed)
    text = "".join(rng.choice("ab1 ,-.") for _ in range(200))
    labels = [Label.DATE, Label.DOCTOR, Label.PHONE]
    spans = []
    for i in range(rng.randint(0, 60)):
        start = rng.randint(0, 180)
        confirmed = Confirmation.FULL_DATE if rng.random() < 0.1 else None
        end = start + rng.choice([1, 2, 3, 5, 8, 20])
        spans.append(Span(start, end, rng.choice(labels), f"s{i}", rng.random(), confirmed=confirmed))
    kept = disjoint_spans(spans, text)
    covered = [0] * len(text)
    for span in kept:
        assert any(s.contains(span) and s.label is span.label for s in spans)  # a part of a given span, its label
        for i in range(span.start, span.end):
            covered[i] += 1
    assert max(covered, default=0) <= 1  # disjoint
    assert all(covered[i] for s in spans for i in range(s.start, s.end) if text[i].isalnum())
    alone = [s for s in spans if s.confirmed and not any(o.confirmed and o.overlaps(s) for o in spans if o is not s)]
    assert all((s.start, s.end, s.label) in {(k.start, k.end, k.label) for k in kept} for s in alone)  # kept whole
    partial = any(a.overlaps(b) and not (a.contains(b) or b.contains(a)) for a in spans for b in spans)
    if not partial and all(s.confirmed is None for s in spans):  # what remove_overlaps keeps
        assert _identity(kept) == _identity(remove_overlaps(spans))
