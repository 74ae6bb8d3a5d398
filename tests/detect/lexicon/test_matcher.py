from __future__ import annotations

import random

import pytest

from deident.detect.lexicon.matcher import CaseShape, LexiconMatcher, MultiLexiconMatcher, case_shape
from deident.text.normalise import normalise


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


_PARTS = (
    {"city": ["New York", "York", "San Francisco", "Winston-Salem", "Jackson"], "state": ["New York", "Georgia"]},
    {"first": ["Jackson", "Georgia", "Mary", "Ann"], "last": ["smith", "o'brien", "Mary Ann", "York"]},
    {"cue": ["dr", "dr. smith", "st", "medical center", "new"]},
)
_WORDS = ("new", "york", "san", "francisco", "winston", "salem", "jackson", "georgia", "mary", "ann", "smith", "o",
          "brien", "dr", "st", "medical", "center", "newyork", "the", "x")  # fmt: skip
_GAPS = (" ", "  ", "-", ". ", "'", ", ", "\n", "_")


def _random_texts() -> list[str]:
    rng = random.Random(3)
    texts = []
    for _ in range(400):
        words = rng.choices(_WORDS, k=rng.randint(0, 12))
        text = "".join(rng.choice([w, w.upper(), w.title()]) + rng.choice(_GAPS) for w in words)
        texts.append(text[: rng.randint(0, len(text))])
    return texts


def test_multi_matcher_gives_each_part_its_own_matches() -> None:
    """One automaton over several matchers finds, for each, exactly what that matcher's find_all finds."""
    parts = [LexiconMatcher(p) for p in _PARTS]
    multi = MultiLexiconMatcher(parts)
    matched = [0] * len(parts)
    for text in ["New York Jackson", "dr. smith at new york medical center", *_random_texts()]:
        together = multi.find_all(normalise(text))
        for i, part in enumerate(parts):
            assert together[i] == part.find_all(text), (i, text)
            matched[i] += bool(together[i])
    assert min(matched) >= 50, "the generated texts must exercise every part"


@pytest.mark.parametrize(("key", "names"), [("New York", ("city", "state")), ("YORK", ("city",)), ("boston", ())])
def test_names_of_and_membership(key: str, names: tuple[str, ...]) -> None:
    matcher = LexiconMatcher(_PARTS[0])
    assert matcher.names_of(key) == names
    assert (key in matcher) is bool(names)
