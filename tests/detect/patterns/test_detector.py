"""The detectors: the registry of families, determinism, the spans each family finds, backtracking safety on
large notes, and the combined detector giving what the families give in turn."""

from __future__ import annotations

import itertools
import time

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Detector
from deident.core.span import sort_spans
from deident.detect.patterns import combined_pattern_detector, id_detector, pattern_detectors

from .helpers import (
    SAMPLE,
    digit_texts,
)


def test_pattern_detectors_are_detectors_with_family_names() -> None:
    detectors = pattern_detectors()
    assert [d.name for d in detectors] == [
        "patterns.date",
        "patterns.contact",
        "patterns.id",
        "patterns.age",
        "patterns.location",
        "patterns.name",
        "patterns.field",
        "patterns.profession",
    ]
    assert all(isinstance(d, Detector) for d in detectors)


ADVERSARIAL = {
    "slashes": "1/1/1/1/1/" * 20_000,
    "dashes": "12-12-12-" * 22_000,
    "letters": "a" * 200_000,
    "capitalised words": "Aaaa Bbbb " * 20_000,
    "triggers": "Dr. Mr. wife son per RN, MD " * 7_000,
    "names after triggers": "dr smith jones and brown, " * 8_000,
    "digits and spaces": "301 273 4 " * 20_000,
    "dots": "1.2.3.4." * 25_000,
    "at signs": "a@b.c" * 40_000,
    "apostrophes": "'92'" * 50_000,
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_no_catastrophic_backtracking_on_200kb_notes(name: str) -> None:
    document = Document("adversarial", ADVERSARIAL[name][:200_000])
    for detector in pattern_detectors():  # warm up compilation and word lists outside the budget
        detector.detect(Document("warm", SAMPLE))
    start = time.process_time()
    for detector in pattern_detectors():
        detector.detect(document)
    # Generous: linear-time patterns take well under a second here; backtracking takes minutes.
    assert time.process_time() - start < 20.0


def test_spans_are_deterministic_sourced_and_explained() -> None:
    document = Document("sample", SAMPLE)
    for detector in pattern_detectors():
        first = detector.detect(document)
        assert first == detector.detect(document)
        assert [(s.start, s.end) for s in first] == sorted((s.start, s.end) for s in first)
        for span in first:
            assert span.source == detector.name
            assert span.evidence[0].startswith("pattern:")
            assert span.score is not None and 0.0 < span.score <= 1.0
        for a, b in itertools.pairwise(first):
            assert not a.contains(b), "contained spans of one family are dropped"


def test_sample_note_finds_each_family() -> None:
    document = Document("sample", SAMPLE)
    labels = {s.label for d in pattern_detectors() for s in d.detect(document)}
    assert {Label.DATE, Label.PHONE, Label.FAX, Label.MEDICALRECORD, Label.AGE, Label.ZIP, Label.STREET} <= labels
    assert {Label.DOCTOR, Label.PATIENT, Label.RELATIVE, Label.ROOM, Label.CITY, Label.STATE} <= labels


def test_shared_corpus_recall_floor(shared_corpus: object) -> None:
    """On physionet-dev, the pattern detectors keep at least the recall measured when they were built."""
    from deident.io import read_corpus

    docs = list(read_corpus(shared_corpus))  # type: ignore[arg-type]
    detectors = pattern_detectors()
    gold = found = 0
    for doc in docs:
        spans = [s for d in detectors for s in d.detect(doc.document)]
        for g in doc.spans:
            if g.label in {Label.DATE, Label.PHONE, Label.DOCTOR, Label.PATIENT, Label.RELATIVE}:
                gold += 1
                found += any(s.start <= g.start and g.end <= s.end for s in spans)
    assert found / gold >= 0.85


def test_anchor_at_the_end_of_the_text_is_found() -> None:
    # "Hospital" is the anchor and the last word: the name before it is found all the same.
    for text, expected in (("seen at Brambleton Hospital", "Brambleton"), ("SEEN AT BRAMBLETON HOSP", "BRAMBLETON")):
        assert expected in [text[s.start : s.end] for d in pattern_detectors() for s in d.detect(Document("t", text))]


@pytest.mark.parametrize("text", [SAMPLE, SAMPLE.upper(), SAMPLE.lower(), *digit_texts()[3:40]])
def test_combined_detector_equals_the_families_run_in_turn(text: str) -> None:
    document = Document("t", text)
    expected = sort_spans([s for d in pattern_detectors() for s in d.detect(document)])
    assert combined_pattern_detector().detect(document) == expected
    assert expected or text not in (SAMPLE, SAMPLE.upper(), SAMPLE.lower())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Seen by Smith saint patrick's day", ["saint patrick's day"]),
        ("SMITH SAINT PATRICK'S DAY", ["SAINT PATRICK'S DAY"]),
        ("home for patrick's day", ["patrick's day"]),
        ("christmas eve", ["christmas eve"]),
    ],
)
def test_holiday_is_found_whole(text: str, expected: list[str]) -> None:
    spans = combined_pattern_detector().detect(Document("t", text))
    assert [text[s.start : s.end] for s in spans if s.source == "patterns.date"] == expected


def test_overlapping_matches_of_one_rule_are_all_found() -> None:
    # The first "Dr." match may run over the second "Dr."; both names are found all the same, also where the
    # text's case folding changes its length (the full-scan fallback, here made by a dotted capital I).
    for text in ("Dr. Adams Dr. Baker", "Dr. Adams Dr. Baker İ"):
        found = [text[s.start : s.end] for s in combined_pattern_detector().detect(Document("t", text))]
        assert "Adams" in " ".join(found) and "Baker" in " ".join(found), found


def test_vin_is_found_through_the_run_tails() -> None:
    text = "VIN 1HGCM82633A004352; then 1HGCM82633A004353"
    spans = [s for s in combined_pattern_detector().detect(Document("t", text)) if s.source == "patterns.id"]
    assert [(text[s.start : s.end], s.label) for s in spans] == [("1HGCM82633A004352", Label.VEHICLE)]
    assert id_detector().detect(Document("t", text)) == spans
