from __future__ import annotations

import pytest

from deident.replace.names import name_kind, name_tokens, render_name

SWAP = {
    "o'brien": "Novak",
    "john": "Peter",
    "smith": "Novak",
    "j": "K",
    "anna": "Maria",
    "mary": "Ruth",
    "jones": "Baker",
}


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        ("John Smith", "Peter Novak"),
        ("SMITH, JOHN", "NOVAK, PETER"),
        ("smith", "novak"),
        ("J. Smith", "K. Novak"),
        ("Smith's", "Novak's"),
        ("Dr. Smith", "Dr. Novak"),
        ("Mary Smith-Jones", "Ruth Novak-Baker"),
        ("Anna\nSmith", "Maria\nNovak"),
        ("O'Brien's", "Novak's"),
    ],
)
def test_render_name_keeps_shape(original: str, expected: str) -> None:
    assert render_name(original, lambda token: SWAP[token]) == expected


def test_name_tokens_skip_titles_and_possessives() -> None:
    assert name_tokens("Dr. Smith's") == ["smith"]
    assert name_tokens("SMITH, JOHN") == ["smith", "john"]


@pytest.mark.parametrize(
    ("token", "kind"), [("J", "initial"), ("Mary", "female"), ("john", "male"), ("Kowalski", "last")]
)
def test_name_kind(token: str, kind: str) -> None:
    assert name_kind(token) == kind
