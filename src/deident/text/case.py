"""How upper-case a note is: one count of its letters (:class:`CaseProfile`), read by every stage that asks.

The lexicon detectors, the CRF's document-case feature, the span filter, reconciliation and the trusted phrases each
class a note's case with their own thresholds (and the name and place patterns the case of a window,
:func:`window_case`) (each model and rule was tuned with its own), and two of them class the
non-ASCII letters differently (the ``regex`` module's ``\\p{Lu}``/``\\p{Ll}``, or ``str.isupper``/``str.isalpha``).
They all start from the same counts: the ASCII capitals and small letters, counted in C, and the few distinct
non-ASCII characters with how often each occurs, classed here once per reading.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

import regex

from deident.text.charset import ascii_case_counts, letter_counts

_UPPER = regex.compile(r"\p{Lu}+")
_LOWER = regex.compile(r"\p{Ll}+")

# _letter_case's answers, memoised (a pure function of one character).
_letter_cases: dict[str, str] = {}


def _letter_case(char: str) -> str:
    """ "upper" for an upper-case letter (\\p{Lu}), "lower" for a lower-case one (\\p{Ll}), else ""."""
    case = _letter_cases.get(char)
    if case is None:
        case = _letter_cases[char] = "upper" if _UPPER.fullmatch(char) else "lower" if _LOWER.fullmatch(char) else ""
    return case


class CaseMode(StrEnum):
    """Case convention of a whole note."""

    MIXED = "mixed"
    UPPER = "upper"
    LOWER = "lower"


@dataclass(frozen=True, slots=True)
class CaseProfile:
    """The letter counts of a text: ``ascii_upper`` and ``ascii_lower`` ASCII letters, and ``others``, how often
    each non-ASCII character occurs (see :func:`deident.text.charset.letter_counts`)."""

    ascii_upper: int
    ascii_lower: int
    others: Counter[str]

    @classmethod
    def of(cls, text: str) -> CaseProfile:
        return cls(*letter_counts(text))

    def unicode_letters(self) -> tuple[int, int]:
        """(upper-case, lower-case) letters by the ``regex`` module's classes ``\\p{Lu}`` and ``\\p{Ll}``."""
        upper, lower = self.ascii_upper, self.ascii_lower
        for char, count in self.others.items():  # the distinct non-ASCII characters, by their letter class
            case = _letter_case(char)
            if case == "upper":
                upper += count
            elif case == "lower":
                lower += count
        return upper, lower

    def upper_fraction(self) -> float:
        """Fraction of letters (``str.isalpha``) that are upper case (``str.isupper``); 0 without letters."""
        upper = self.ascii_upper
        letters = upper + self.ascii_lower
        for char, count in self.others.items():  # the distinct non-ASCII characters, as str.isalpha and str.isupper say
            letters += count if char.isalpha() else 0
            upper += count if char.isupper() else 0
        return upper / letters if letters else 0.0

    def case_mode(self) -> CaseMode:
        """The lexicon's note case: UPPER when >= 85% of cased letters (``\\p{Lu}``, ``\\p{Ll}``) are capitals, LOWER
        when <= 3% are, else MIXED."""
        upper, lower = self.unicode_letters()
        total = upper + lower
        if total == 0:
            return CaseMode.MIXED
        share = upper / total
        if share >= 0.85:
            return CaseMode.UPPER
        if share <= 0.03:
            return CaseMode.LOWER
        return CaseMode.MIXED

    def ascii_case(self) -> str:
        """The CRF's document case (ASCII letters only): "UP" when over 80% are capitals, "LO" when over 97% are
        small, "NONE" without ASCII letters, else "MX"."""
        upper, lower = self.ascii_upper, self.ascii_lower
        letters = upper + lower
        if letters == 0:
            return "NONE"
        if upper / letters > 0.8:
            return "UP"
        if lower / letters > 0.97:
            return "LO"
        return "MX"


def window_case(text: str, start: int) -> str:
    """The name and place patterns' case around ``start`` (notes switch case between sections): "upper", "lower" or
    "mixed" for the ASCII letters within 160 characters, "upper" when capitals outnumber small letters three to one,
    "lower" when small letters outnumber capitals forty to one. A window, so not the note's profile."""
    upper, lower = ascii_case_counts(text[max(0, start - 160) : start + 160])
    if upper + lower == 0:
        return "mixed"
    if upper > 3 * lower:
        return "upper"
    if upper * 40 < lower:
        return "lower"
    return "mixed"


def case_mode(text: str) -> CaseMode:
    """:meth:`CaseProfile.case_mode` of ``text``."""
    return CaseProfile.of(text).case_mode()


def upper_fraction(text: str) -> float:
    """:meth:`CaseProfile.upper_fraction` of ``text``: the fraction of its letters that are upper case."""
    return CaseProfile.of(text).upper_fraction()


__all__ = ["CaseMode", "CaseProfile", "case_mode", "upper_fraction", "window_case"]
