from __future__ import annotations

import pytest

from deident.detect.lexicon.matcher import CaseShape, LexiconMatcher, case_shape, normalise


@pytest.fixture(scope="module")
def matcher() -> LexiconMatcher:
    return LexiconMatcher(
        {"city": ["New York", "York", "San Francisco", "Winston-Salem"], "last": ["smith", "o'brien"]}
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pt from New York today", [("New York", ("city",))]),
        ("lives in san francisco", [("san francisco", ("city",))]),
        ("SMITH'S WIFE", [("SMITH", ("last",))]),
        ("O'Brien called", [("O'Brien", ("last",))]),
        ("from Winston Salem", [("Winston Salem", ("city",))]),
        ("smithson and blacksmith", []),  # whole words only
        ("york", [("york", ("city",))]),
        ("", []),
    ],
)
def test_longest_whole_word_matches(matcher: LexiconMatcher, text: str, expected: list[tuple[str, tuple[str, ...]]]):
    found = [(text[m.start : m.end], m.names) for m in matcher.find_longest(text)]
    assert found == expected


def test_find_all_keeps_overlaps(matcher: LexiconMatcher):
    text = "New York"
    assert [(m.start, m.end) for m in matcher.find_all(text)] == [(0, 8), (4, 8)]


@pytest.mark.parametrize(
    ("surface", "shape"),
    [
        ("Smith", CaseShape.CAPITALISED),
        ("SMITH", CaseShape.UPPER),
        ("smith", CaseShape.LOWER),
        ("New York", CaseShape.CAPITALISED),
        ("McDonald", CaseShape.CAPITALISED),
        ("sMITH", CaseShape.MIXED),
        ("J", CaseShape.CAPITALISED),
    ],
)
def test_case_shape(surface: str, shape: CaseShape):
    assert case_shape(surface) is shape


@pytest.mark.parametrize("text", ["O'Brien, Sjögren's—Dr. X_1", "İstanbul", "plain", "a\nb\tc"])
def test_normalise_preserves_length(text: str):
    out = normalise(text)
    assert len(out) == len(text)
    assert out == out.lower() or "İ" in out
    assert not any(c in out for c in "'_,.\n\t")


def test_empty_matcher_is_an_error():
    with pytest.raises(ValueError):
        LexiconMatcher({"empty": []})
