"""The pattern machinery: the registry of detectors, bounded regexes, backtracking safety, determinism,
and the anchored (Aho-Corasick) fast path agreeing with a full regex scan."""

from __future__ import annotations

import itertools
import time

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Detector
from deident.detect.patterns import pattern_detectors
from deident.detect.patterns.base import Pattern, PatternDetector, _anchored_hits, _plan, find_hits

SAMPLE = (
    "Mr. Nicholson is a 93 yo man, s/p CABG '92, seen 7/22/05 by Dr. Griffin (pager 83554). "
    "MRN: 1234567. Lives at 19 Clover St., Baltimore, MD 21201. WIFE ANNA CALLED 410-322-1419; "
    "spoke with daughter lisa. Room 12. In 1992 and summer 2004 he fell; e. welsh aware. "
    "Jean Hudson, RN. Hank Przybylo (son). christmas at home, moved from Trenton, NJ. aged 82. fax: 617-555-0100."
)


def _unbounded_quantifiers(source: str) -> list[int]:
    """Offsets of '*', '+' or '{n,}' quantifiers outside character classes."""
    found: list[int] = []
    i, in_class = 0, False
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if source[i + 1 : i + 2] == "]":
                i += 1
        elif (c in "*+" and source[i - 1 : i] != "(") or (c == "{" and source[i:].split("}", 1)[0].endswith(",")):
            found.append(i)
        i += 1
    return found


def test_pattern_detectors_are_detectors_with_family_names() -> None:
    detectors = pattern_detectors()
    assert [d.name for d in detectors] == [
        "patterns.date",
        "patterns.contact",
        "patterns.id",
        "patterns.age",
        "patterns.location",
        "patterns.name",
    ]
    assert all(isinstance(d, Detector) for d in detectors)


def _all_patterns() -> list[Pattern]:
    return [p for d in pattern_detectors() if isinstance(d, PatternDetector) for p in d.patterns]


def test_pattern_names_are_unique_and_namespaced() -> None:
    names = [p.name for p in _all_patterns()]
    assert len(names) == len(set(names))
    assert all("." in n for n in names)


@pytest.mark.parametrize("pattern", _all_patterns(), ids=lambda p: p.name)
def test_every_pattern_compiles_and_is_bounded(pattern: Pattern) -> None:
    assert pattern.compiled is not None
    assert _unbounded_quantifiers(pattern.source) == [], "use bounded quantifiers ({m,n}) only"


def test_quantifier_checker_catches_unbounded_repetition() -> None:
    assert _unbounded_quantifiers(r"(a+)+b") and _unbounded_quantifiers(r"\d{2,}") and _unbounded_quantifiers(r"x*")
    assert not _unbounded_quantifiers(r"[+*]\d{1,3}\+")


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


@pytest.mark.parametrize("text", [SAMPLE, SAMPLE.upper(), SAMPLE.lower()])
def test_anchored_fast_path_matches_a_full_scan(text: str) -> None:
    for detector in pattern_detectors():
        assert isinstance(detector, PatternDetector)
        plan = _plan(detector.patterns)
        fast = sorted((p.name, h.start, h.end) for p, h in _anchored_hits(plan, text))
        slow = sorted({(p.name, h.start, h.end) for p in plan.anchored for h in find_hits(p, text)})
        assert sorted(set(fast)) == slow


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
