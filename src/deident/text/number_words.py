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
_DIGITS = regex.compile(r"\d+")


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


def written_number(text: str) -> tuple[regex.Match[str] | None, int | None]:
    """The first run of digits in ``text`` and its value ("aged 91": the match of "91", 91), else no match and the
    value of its number words ("ninety-two": None, 92), else (None, None): an age as written, read once for the
    rules that compare it with a limit and the writers that replace its digits."""
    match = _DIGITS.search(text)
    return match, int(match.group(0)) if match is not None else number_value(text)


__all__ = ["TEENS", "TENS", "UNITS", "number_value", "written_number"]
