from __future__ import annotations

import pytest

from deident.detect.lexicon.fuzzy import FuzzyIndex, fuzzy_name, max_distance


@pytest.mark.parametrize(
    ("token", "distance"),
    [
        ("smtih", 1),  # transposition counts once (Damerau)
        ("jonhson", 1),
        ("willaims", 1),
        ("mcdonnel", 2),  # 8+ letters allow two edits
        ("smith", None),  # exact matches are the automaton's job
        ("smit", None),  # too short to try
        ("xqzvwpk", None),
    ],
)
def test_fuzzy_name(token: str, distance: int | None):
    hit = fuzzy_name(token)
    assert (hit.distance if hit else None) == distance


@pytest.mark.parametrize(("token", "limit"), [("abcde", 1), ("abcdefg", 1), ("abcdefgh", 2), ("abcdefghijk", 2)])
def test_max_distance(token: str, limit: int):
    assert max_distance(token) == limit


def test_index_reports_lexicons_not_items():
    index = FuzzyIndex({"a": ["kowalski"], "b": ["kowalska"]})
    hit = index.lookup("kowalsky")
    assert hit is not None and hit.distance == 1 and set(hit.names) <= {"a", "b"}
    assert index.lookup("unrelated") is None


@pytest.mark.parametrize(
    "token", ["smithe", "jonathon", "marrry", "carlsonn", "wiliams", "aberrnatly", "abker", "klopfer", "pressure"]
)
def test_lookup_equals_the_exact_distance_over_every_choice(token: str) -> None:
    """The Levenshtein prefilter keeps every item within reach: the lookup equals the plain exact search."""
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein

    from deident.detect.lexicon.fuzzy import name_index

    index = name_index()
    limit = max_distance(token)
    lengths = range(len(token) - limit, len(token) + limit + 1)
    choices = [c for n in lengths for c in index._choices(n, token[0], token[1])]
    found = process.extractOne(token, choices, scorer=DamerauLevenshtein.distance, score_cutoff=limit, processor=None)
    expected = None if found is None or found[1] == 0 else (int(found[1]), index._owners[found[0]])
    hit = index.lookup(token)
    assert (None if hit is None else (hit.distance, hit.names)) == expected
