"""The rule vocabulary: every rule compiles, is bounded (no catastrophic backtracking) and is named once; the helpers
that validators use look where they should."""

from __future__ import annotations

import pytest

from deident.detect.patterns.rules import Pattern, search_before, word_after

from .helpers import (
    all_patterns,
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


def test_pattern_names_are_unique_and_namespaced() -> None:
    names = [p.name for p in all_patterns()]
    assert len(names) == len(set(names))
    assert all("." in n for n in names)


@pytest.mark.parametrize("pattern", all_patterns(), ids=lambda p: p.name)
def test_every_pattern_compiles_and_is_bounded(pattern: Pattern) -> None:
    assert pattern.compiled is not None
    assert _unbounded_quantifiers(pattern.source) == [], "use bounded quantifiers ({m,n}) only"


def test_quantifier_checker_catches_unbounded_repetition() -> None:
    assert _unbounded_quantifiers(r"(a+)+b") and _unbounded_quantifiers(r"\d{2,}") and _unbounded_quantifiers(r"x*")
    assert not _unbounded_quantifiers(r"[+*]\d{1,3}\+")


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


@pytest.mark.parametrize(
    ("text", "end", "expected"),
    [
        ("Quinton catheter", 7, "catheter"),
        ("Smith  TEAM here", 5, "team"),
        ("Smith\nteam", 5, None),  # only on the same line
        ("Smith    team", 5, None),  # at most three blanks
        ("Smith, team", 5, None),
        ("Smith", 5, None),
        ("Smith 3 team", 5, None),
    ],
)
def test_word_after(text: str, end: int, expected: str | None) -> None:
    assert word_after(text, end) == expected
