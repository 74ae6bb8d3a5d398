from __future__ import annotations

import pytest

from deident.text.number_words import number_value, written_number


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


@pytest.mark.parametrize(
    ("text", "digits", "value"),
    [
        ("91", "91", 91),
        ("aged 92 yrs", "92", 92),
        ("93yo, 2nd admission", "93", 93),  # the first run of digits only
        ("Ninety-two", None, 92),
        ("one hundred and one", None, 101),
        ("elderly", None, None),
    ],
)
def test_written_number_reads_digits_first_then_words(text: str, digits: str | None, value: int | None) -> None:
    match, read = written_number(text)
    assert (None if match is None else match.group(0)) == digits
    assert read == value
