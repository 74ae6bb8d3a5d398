"""The pattern machinery: the registry of detectors, bounded regexes, backtracking safety, determinism,
and the anchored (Aho-Corasick) fast path agreeing with a full regex scan."""

from __future__ import annotations

import dataclasses
import itertools
import random
import time

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Detector
from deident.core.span import sort_spans
from deident.detect.patterns import combined_pattern_detector, pattern_detectors
from deident.detect.patterns.base import (
    Pattern,
    PatternDetector,
    _anchored_hits,
    _plan,
    detect_with,
    digit_run_matches,
    find_hits,
    search_before,
)

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


# Pieces that digit-led rules care about: digit runs of every length, separators, units, months, ordinals.
_PIECES = (
    "1", "7", "12", "31", "123", "555", "1234", "1999", "2006", "0630", "12345", "1234567", "/", "/", "-", "-", ".",
    ".", ",", "'", " ", " ", "  ", "\t", "\n", "y", "yo", "y/o", " years old", "st", "th", "nd", " Jan", " of ", "mg",
    "x", "#", "s", "(", ")", ":", " PTCA", " stent", "in ", "since ", " Main St", "am", "%", "A", "+",
    # whole shapes of the rarer rules, so that each rule matches in some generated texts
    "1990s", "1990's", "50s", "80's", "202 267 1093", "240444-1243", "10.1.2.3", "123-45-6789", "45 years of age",
    "\n45 male", "11/21.93", "3/4.2005", " on 3/15 ", " 2005-07-22 ", " 555-1234 ", " 7/22/05 ", " 12-3 ",
    " 12/22/05 ", " 2005/07/22 ", " 555 - 1234 ", " 45 yr ", "\n101 male", " 74' ", " to Quillfield 3 ",
)  # fmt: skip


def _digit_texts() -> list[str]:
    rng = random.Random(20261122)
    return [SAMPLE, SAMPLE.upper(), SAMPLE.lower()] + ["".join(rng.choices(_PIECES, k=30)) for _ in range(1500)]


def _digit_led_patterns() -> list[Pattern]:
    return [p for p in _all_patterns() if p.digit_run is not None]


@pytest.mark.parametrize("pattern", _digit_led_patterns(), ids=lambda p: p.name)
def test_digit_run_dispatch_finds_what_a_full_scan_finds(pattern: Pattern) -> None:
    """The fast path (one digit-run scan, the rule tried where it can start) equals a regex scan of the rule."""
    plan = _plan((pattern,))
    matched = 0
    for text in _digit_texts():
        slow = [m.span() for m in pattern.compiled.finditer(text)]
        assert [m.span() for _, m in digit_run_matches(plan, text)] == slow, text
        matched += bool(slow)
    assert matched >= 3, "the generated texts must exercise this rule"


def test_digit_run_dispatch_matches_a_full_scan_per_family() -> None:
    texts = _digit_texts()[:300]
    for detector in pattern_detectors():
        assert isinstance(detector, PatternDetector)
        slow = tuple(dataclasses.replace(p, digit_run=None) for p in detector.patterns)
        for text in texts:
            assert detect_with(detector.name, detector.patterns, text) == detect_with(detector.name, slow, text), text


def test_digit_run_dispatch_is_used_by_digit_led_rules() -> None:
    plans = [_plan(d.patterns) for d in pattern_detectors() if isinstance(d, PatternDetector)]
    assert sum(len(p.digit_led) for p in plans) >= 20
    assert all(p.digit_runs is not None for p in plans if p.digit_led)


def test_anchor_at_the_end_of_the_text_is_found() -> None:
    # "Hospital" is the anchor and the last word: the name before it is found all the same.
    for text, expected in (("seen at Brambleton Hospital", "Brambleton"), ("SEEN AT BRAMBLETON HOSP", "BRAMBLETON")):
        assert expected in [text[s.start : s.end] for d in pattern_detectors() for s in d.detect(Document("t", text))]


@pytest.mark.parametrize("text", [SAMPLE, SAMPLE.upper(), SAMPLE.lower(), *_digit_texts()[3:40]])
def test_combined_detector_equals_the_families_run_in_turn(text: str) -> None:
    document = Document("t", text)
    expected = sort_spans([s for d in pattern_detectors() for s in d.detect(document)])
    assert combined_pattern_detector().detect(document) == expected
    assert expected or text not in (SAMPLE, SAMPLE.upper(), SAMPLE.lower())


@pytest.mark.parametrize(
    ("source", "text", "end", "width", "expected"),
    [
        (r"(?r)\bthe[ \t]{1,2}\Z", "on the 11th", 7, 5, (3, 7)),  # nearest match, anchored at end
        (r"(?r)\bthe[ \t]{1,2}\Z", "on the 11th", 7, 3, None),  # "the" starts outside the window
        (r"(?r)\bthe[ \t]{1,2}\Z", "the 11th", 4, 30, (0, 4)),  # a window past the start is clipped
        (r"(?r)(?<!x)ab\Z", "xab", 3, 2, None),  # the lookbehind sees the text before the window
    ],
)
def test_search_before_looks_only_at_the_window(
    source: str, text: str, end: int, width: int, expected: tuple[int, int] | None
) -> None:
    found = search_before(source, text, end, width)
    assert (found.span() if found else None) == expected
