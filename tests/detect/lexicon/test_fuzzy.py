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
