"""AGE pattern table (i2b2 2014 style: the number only), the age>89 evidence, and negatives."""

from __future__ import annotations

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.detect.patterns import age_detector

from .helpers import Case, check_negative, check_positive, params

A = Label.AGE

POSITIVES: list[Case] = [
    ("58 year old man admitted", "58", A),
    ("a 58-year-old woman", "58", A),
    ("57yo M with CHF", "57", A),
    ("74 y/o male s/p VF arrest", "74", A),
    ("72 y.o. female", "72", A),
    ("98y male from rehab", "98", A),
    ("aged 82, lives alone", "82", A),
    ("age: 92 per family", "92", A),
    ("he is 67 years of age", "67", A),
    ("a man in his 80s with", "80s", A),
    ("woman in her late 90's", "90's", A),
    ("\n98 s/p left hip fx", "98", A),
    ("\n98 yo gentleman admitted", "98", A),
    # A stated age ends its clause; an age in parentheses after a family word.
    ("i'm 46, a welder from Tull", "46", A),
    ("father died of MI at 42. enjoys fishing", "42", A),
    ("parents divorced when he was 12; raised by", "12", A),
    ("so my grandson (41) had surgery", "41", A),
    ("she turned 70 and moved", "70", A),
    ("she turned 28 on november 25th", "28", A),
    ("I turned 91 last week", "91", A),
    ("she turns 92 next month", "92", A),
    ("Pt celebrated her 95th birthday last week", "95", A),
    ("his 90th bday is Sunday", "90", A),
    ("my grandpa is 97 and has been on warfarin", "97", A),
    # years and the sex without "old", or a number and the sex after "is a"
    ("PT IS A 97 YEARS F ADM 8/22 FROM HOME", "97", A),
    ("ID/CC: 82 years F, janitor, self-referred", "82", A),
    ("Seen today: 93 years gentleman with dementia", "93", A),
    ("Pt is a 87 F adm 1/12 from rehab", "87", A),
    # written in words (HIPAA: ages over 89 whatever their spelling)
    ("Ninety-two year old man with CHF", "Ninety-two", A),
    ("a ninety two year-old woman", "ninety two", A),
    # in words after "aged" or "age:", or before "yo", as digits are
    ("aged ninety four, lives alone", "ninety four", A),
    ("Age: one hundred and two", "one hundred and two", A),
    ("Ninety Four yo male", "Ninety Four", A),
    ("ninety four y/o female", "ninety four", A),
    ("she is one hundred and one years of age", "one hundred and one", A),
    ("Forty-five year old female, G2P2", "Forty-five", A),
]
NEGATIVES: list[Case] = [
    ("on the 95th day of the trial; the 90th percentile", None, None),
    ("temp 98.6 F orally", None, None),
    ("sats 98% on 2L", None, None),
    ("BP 98/40 after lasix", None, None),
    ("x 3 days of antibiotics", None, None),
    ("give 5 mg x1", None, None),
    ("sats in the 90's on 4L", None, None),
    ("born in the 1950s, moved in the 80s", None, None),
    ("she is 2L positive today", None, None),
    ("he was 3 days post op", None, None),
    ("pt died at 0400.", None, None),
    ("when he was 5 mg of lasix", None, None),
    ("son (see note) called", None, None),
    ("wife was 20 minutes late", None, None),
    ("daughter is 2 hours away", None, None),
    ("seventeen years ago she fell", None, None),
    ("placed 14 F foley, draining", None, None),  # a catheter size
    ("back pain for 3 years f/u with pcp", None, None),
    ("ninety-two percent of the time", None, None),
    ("stage one disease; age one-third of normal; page two", None, None),
    ("pt turned 3 times, turned q2 this shift", None, None),
    ("one hundred years of history", None, None),
]
# An age and a capital M or F before what opens a case's history: in text with case, and in capitals.
COMPACT_SEX: list[Case] = [
    ("91F with CHF, lives alone", "91", A),
    ("Pt 93 M s/p fall at home", "93", A),
    ("HPI: 72M w/ CAD presents with CP", "72", A),
    # a slash between the age and the sex
    ("91/F with CHF, lives alone", "91", A),
    ("Pt 93 / M s/p fall at home", "93", A),
]
COMPACT_SEX_NEGATIVES: list[Case] = [
    ("Tmax 101 F with rigors", None, None),  # a temperature
    ("Tmax 101/F with rigors", None, None),
    ("T 101.5 F with chills overnight", None, None),
    ("16F foley with good UO", None, None),  # a catheter's French size before a device
    ("HR 91 F. Pt 93 M.", None, None),  # nothing of a case's history after it
    ("ambulated 50 m with walker", None, None),  # metres in small letters
]
CASE_VARIANTS = [(t.upper(), e.upper(), lab) for t, e, lab in POSITIVES + COMPACT_SEX] + [
    (t.lower(), e.lower(), lab) for t, e, lab in POSITIVES
]


@pytest.mark.parametrize(("text", "expected", "label"), params(POSITIVES + COMPACT_SEX + CASE_VARIANTS))
def test_finds_ages(text: str, expected: str, label: Label) -> None:
    check_positive(age_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "forbidden", "label"), params(NEGATIVES + COMPACT_SEX_NEGATIVES))
def test_ignores_other_numbers(text: str, forbidden: str | None, label: Label | None) -> None:
    check_negative(age_detector(), text, forbidden, label)


@pytest.mark.parametrize(
    ("text", "over_89"),
    [
        ("93 yo woman", True),
        ("89 yo woman", False),
        ("aged 104", True),
        ("ninety-one year old", True),
        ("91F with CHF", True),
        ("Eighty-nine year old", False),
    ],
)
def test_flags_ages_over_89(text: str, over_89: bool) -> None:
    (span,) = age_detector().detect(Document("t", text))
    assert ("age>89" in span.evidence) is over_89
