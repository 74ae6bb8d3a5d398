from __future__ import annotations

import pytest

from deident.text.number_words import number_value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ninety-two", 92),
        ("Ninety Two", 92),
        ("NINETY-FIVE", 95),
        ("forty five", 45),
        ("seventeen", 17),
        ("one hundred", 100),
        ("one hundred and one", 101),
        ("a hundred and three", 103),
        ("hundred", 100),
        ("twenty", 20),
        ("nine", 9),
        ("92", None),  # digits are not number words
        ("none", None),
        ("", None),
        ("eightyish", None),  # a whole word only
    ],
)
def test_number_value(text: str, value: int | None) -> None:
    assert number_value(text) == value
