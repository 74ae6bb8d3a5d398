"""English number words up to a few hundred ("ninety-two", "one hundred and one"): the words and their value, for
rules that read numbers written out (ages) and for schemes that compare them with a limit."""

from __future__ import annotations

import regex

UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_VALUES = {
    **{w: i for i, w in enumerate(UNITS, 1)},
    **{w: i for i, w in enumerate(TEENS, 10)},
    **{w: 10 * i for i, w in enumerate(TENS, 2)},
}
_WORD = regex.compile(r"[^\W\d_]+")


def number_value(text: str) -> int | None:
    """The value of the number words in ``text`` ("Ninety-two" 92, "one hundred and one" 101; "hundred" multiplies
    what comes before it, other number words add), or None where it holds none."""
    value = 0
    found = False
    for word in _WORD.findall(text.lower()):
        if word == "hundred":
            value = max(value, 1) * 100
            found = True
        elif word in _VALUES:
            value += _VALUES[word]
            found = True
    return value if found else None


__all__ = ["TEENS", "TENS", "UNITS", "number_value"]
