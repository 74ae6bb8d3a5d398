import dataclasses
import random
import time
from dataclasses import replace

import numpy as np
import pytest

from deident.core import Label, Span, merge_adjacent, remove_overlaps, sort_spans
from deident.core.labels import PHYSIONET_TO_LABEL, Category, SafeHarbor
from deident.core.provenance import Part


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
