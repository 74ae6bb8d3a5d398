"""Text helpers of the stages: the note's upper-case fraction and the comparison key of a candidate string."""

from __future__ import annotations

import pytest

from deident.text.case import upper_fraction
from deident.text.normalise import normalise_key


@pytest.mark.parametrize(
    ("text", "key"), [("Smith's", "smith"), ("SMITH", "smith"), ("John   Smith", "john smith"), ("Jones'", "jones")]
)
def test_normalise_key(text, key):
    assert normalise_key(text) == key


@pytest.mark.parametrize(
    "text",
    ["", "123 !?", "ALL CAPS NOTE", "all lower", "Mixed Case 3/14", "Ünïcode ÄND ascii", "ǅ titlecase ß", "x\u0130y"],
)
def test_upper_fraction_counts_letters_as_str_methods_do(text):
    letters = sum(map(str.isalpha, text))
    expected = sum(map(str.isupper, text)) / letters if letters else 0.0
    assert upper_fraction(text) == expected
