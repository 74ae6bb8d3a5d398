"""AGE patterns, as i2b2 2014 annotates them: the number of "58 year old", "57yo", "98y", "aged 82", "80s".

Every age is found; ages over 89 (a HIPAA Safe Harbor identifier) carry the evidence note "age>89".
"""

from __future__ import annotations

from functools import lru_cache

import regex

from deident.core.labels import Label
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.rules import Hit, Pattern, ScanHints, search_before, unit_follows, words
from deident.text.number_words import TEENS, TENS, UNITS, number_value

MAX_AGE = 125
HIPAA_AGE_LIMIT = 89

# The first digit of an age, not glued to a word, decimal or ratio; digit-first so the engine skips quickly.
_D1 = r"\d(?<![\w.,/-]\d)"
_D1_PREV = r"[^\w.,/-]"  # what may stand before a run that _D1 starts
_SEP = r"[ \t]{0,2}-?[ \t]{0,2}"
# What may follow an age number before its year word ("58 yo", "58-year-old", "58 y"):
# the digit-run prefilter only tries age rules where this matches.
_YEAR_WORD_NEXT = r"[ \t]{0,2}-?[ \t]{0,2}[yY]"
# The sex as notes give it after an age ("82 years F", "60 yr old gentleman, welder"); one list for the age rules
# and the professions after an age.
SEX_WORDS = ("m", "f", "male", "female", "man", "woman", "gentleman", "lady", "boy", "girl")
PERSON_WORDS = words(
    *SEX_WORDS, "gent", "wm", "wf", "bm", "bf", "hm", "hf", "yo", "y/o", "s/p", "w/", "with", "admitted", "presents",
    "presented", "pt", "patient", "old",
)  # fmt: skip


# What opens a case's history after "91F": "with", "w/", "s/p", "admitted", "presenting" ...
_CASE_OPENER = r"(?i:with|w/|s/p|h/o|hx|pmh|admitted|adm|presents|presenting|presented|transferred|who|c/o)(?![\w/])"
# Words of a temperature before "101 F", within a few characters.
_TEMPERATURE_BEFORE = regex.compile(
    r"(?i)\b(?:t|temp|temperature|tmax|tm|tc|t\s?max|febrile|fever|afebrile)[\s:=]{0,3}\Z"
)


def _compact_age(text: str, m: regex.Match[str]) -> list[Hit]:
    if _TEMPERATURE_BEFORE.search(text, max(0, m.start() - 16), m.start()):
        return []
    return _age(text, m)


# "aged", "age:", "age of" before an age, with ">" or "over" ("age > 89").
AGED = r"\b(?:aged|age|ages|age[ \t]{0,2}[:=]|age[ \t]{1,2}of)[ \t]{0,2}[:=]?[ \t]{0,2}(?:>|over[ \t]{1,2})?"
AGED_WORDS = ("aged", "age", "ages")


def _age(text: str, m: regex.Match[str]) -> list[Hit]:
    return _age_hit(m, int(m["a"].lower().rstrip("'s")))


def _age_hit(m: regex.Match[str], value: int) -> list[Hit]:
    """The age in group "a" when ``value`` is one (up to MAX_AGE), marked "age>89" past the HIPAA limit."""
    if not 0 <= value <= MAX_AGE:
        return []
    evidence = ("age>89",) if value > HIPAA_AGE_LIMIT else ()
    return [Hit(m.start("a"), m.end("a"), evidence=evidence)]


def _decade(text: str, m: regex.Match[str]) -> list[Hit]:
    # A possessive only: "in the 90's" is a decade of years or a lab value ("sats in the 90s"), not an age.
    before = r"(?r)\bin[ \t]{1,2}(?:his|her|their)[ \t]{1,2}(?:(?:early|mid|late)[ \t-]{1,2})?\Z"
    if search_before(before, text, m.start(), 30) is None:
        return []
    return _age(text, m)


def _bare_y(text: str, m: regex.Match[str]) -> list[Hit]:
    # "98y" without "old": reject "3y" in dosing or durations ("x 3y", "3y ago" stays an age in i2b2).
    if unit_follows(text, m.end()):
        return []
    return _age(text, m)


@lru_cache(maxsize=1)
def age_patterns() -> tuple[Pattern, ...]:
    A = Label.AGE
    return (
        Pattern(
            # The birthday a person turns: "celebrated her 95th birthday", "his 90th bday is Sunday".
            "age.birthday",
            A,
            r"(?P<a>" + _D1 + r"\d{0,2})(?:st|nd|rd|th)[ \t]{1,2}(?:birthday|bday|b-day)\b",
            0.9,
            _age,
            hints=ScanHints(digit_run=(1, 3), run_next=r"[sSnNrRtT][tTdDhH][ \t]{1,2}[bB]", run_prev=_D1_PREV),
        ),
        Pattern(
            "age.years_old",
            A,
            r"(?P<a>" + _D1 + r"\d{0,2})" + _SEP + r"(?:years?|yrs?|yr\.|y\.?)" + _SEP + r"(?:old|o\.?)\b",
            0.95,
            _age,
            hints=ScanHints(digit_run=(1, 3), run_next=_YEAR_WORD_NEXT, run_prev=_D1_PREV),
        ),
        Pattern(
            "age.yo",
            A,
            r"(?P<a>" + _D1 + r"\d{0,2})" + _SEP + r"(?:y/o|y\.o\.?|yo|y\.[ \t]?o\.?)(?:[mfw]\b|\b)",
            0.95,
            _age,
            hints=ScanHints(digit_run=(1, 3), run_next=_YEAR_WORD_NEXT, run_prev=_D1_PREV),
        ),
        Pattern(
            "age.years_of_age",
            A,
            r"(?P<a>" + _D1 + r"\d{0,2})[ \t]{0,2}(?:years?|yrs?)[ \t]{1,2}of[ \t]{1,2}age\b",
            0.95,
            _age,
            hints=ScanHints(digit_run=(1, 3), run_next=_YEAR_WORD_NEXT, run_prev=_D1_PREV),
        ),
        Pattern(
            "age.bare_y",
            A,
            r"(?P<a>" + _D1 + r"\d{0,2})[ \t]?(?:y|yr|yrs)(?![\w/.]|\.[ \t]?o)",
            0.6,
            _bare_y,
            hints=ScanHints(digit_run=(1, 3), run_next=_YEAR_WORD_NEXT, run_prev=_D1_PREV),
        ),
        Pattern(
            # "PT IS A 97 YEARS F", "82 years F, janitor": years, then the sex, without "old"
            "age.years_sex",
            A,
            r"(?P<a>" + _D1 + r"\d{0,2})[ \t]{0,2}(?:years?|yrs?)[ \t]{1,2}" + words(*SEX_WORDS) + r"(?![\w/])",
            0.9,
            _age,
            hints=ScanHints(digit_run=(1, 3), run_next=_YEAR_WORD_NEXT, run_prev=_D1_PREV),
        ),
        Pattern(
            # "Pt is a 87 F adm 1/12": after "is a" a number and the sex is an age ("14 F" alone is a catheter size)
            "age.article_sex",
            A,
            r"\b(?:is|was)[ \t]{1,2}an?[ \t]{1,2}(?P<a>\d{1,3})[ \t]{0,2}(?:m|f|male|female)(?![\w/])",
            0.85,
            _age,
        ),
        Pattern(
            # "91F with CHF", "Pt 93 M s/p fall", "91/F with CHF": an age and a capital M or F, then what opens a
            # case's history. A temperature ("Tmax 101 F with rigors") or a catheter's French size ("16F foley") is
            # none.
            "age.compact_sex",
            A,
            r"(?P<a>" + _D1 + r"\d{0,2})(?:[ \t]?|[ \t]?/[ \t]?)[MF](?![\w/])(?=[ \t,]{1,3}" + _CASE_OPENER + r")",
            0.8,
            _compact_age,
            ignore_case=False,
            hints=ScanHints(digit_run=(1, 3), run_next=r"[ \t]?/?[ \t]?[MF]", run_prev=_D1_PREV),
        ),
        Pattern(
            "age.aged",
            A,
            AGED + r"(?P<a>\d{1,3})(?![\w]|[./]\d)",
            0.9,
            _age,
            hints=ScanHints(anchors=AGED_WORDS),
        ),
        Pattern(
            "age.decade",
            A,
            # Searched from the decade's digits; the validator checks "in his/her (early|mid|late)" before it.
            r"(?P<a>\d(?<![\w.,/-]\d)0'?s)\b",
            0.85,
            _decade,
            hints=ScanHints(digit_run=(2, 2), run_next=r"['Ss]|\Z", run_prev=r"[^\w.,/-]"),
        ),
        Pattern(
            "age.line_initial",
            A,
            r"(?m)(?P<a>\d(?<=^[ \t]{0,4}\d)\d{1,2})[ \t]{1,2}(?=" + PERSON_WORDS + r"(?:\W|$))",
            0.5,
            _age,
            hints=ScanHints(digit_run=(2, 3), run_next=r"[ \t]{1,2}(?i:" + PERSON_WORDS + ")", run_prev=r"[ \t\n]"),
        ),
    )


# Phrases after which a bare number is the speaker's or a person's age: "i'm 46, a police officer", "when he was
# 62;", "father died of MI at 42.", "turned 70 and". The number must end the clause (a unit after it is a dose or a
# count: "she is 2L positive", "he was 3 days post-op").
# Relatives whose age a note or post gives ("my grandpa is 97", "son (11)"): narrower than names.FAMILY_WORDS, whose
# caregivers, lawyers and proxies are seldom given an age ("proxy is 2 hours away").
_FAMILY_AGE_WORDS = (
    "son", "daughter", "sons", "daughters", "grandson", "granddaughter", "brother", "sister", "husband", "wife",
    "mother", "father", "mom", "dad", "child", "kid", "nephew", "niece", "cousin", "boyfriend", "girlfriend",
    "partner", "aunt", "uncle", "grandmother", "grandfather", "grandma", "grandpa", "stepson", "stepdaughter",
)  # fmt: skip
STATED_AGE_WORDS = (
    "i'm",
    "im",
    "i am",
    "when",
    "turned",
    "turns",
    "turning",
    "died",
    "passed away",
    *_FAMILY_AGE_WORDS,
)
_STATED_AGE = (
    r"\b(?:i'?m|i[ \t]am|when[ \t]{1,2}(?:he|she|i|they|we)[ \t]{1,2}(?:was|were)|turn(?:ed|s|ing)"
    r"|(?:died|passed[ \t]away)[^\n.;:]{0,40}?[ \t]at|" + words(*_FAMILY_AGE_WORDS) + r"[ \t]{1,2}(?:is|was))"
    r"[ \t]{1,2}(?P<a>\d{1,3})"
    # after the age: the sentence's end, a conjunction, or when ("I turned 91 last week", "she turns 92 next month")
    r"(?=[ \t]{0,2}(?:[,;)!?]|\.(?!\d)|$)|[ \t]{1,2}(?:and|but|now|here|on|yrs?|years|last|this|next|today|yesterday"
    r"|tomorrow|recently|soon)\b)"
)
# "my grandson (41)", "Son (12) and daughter": an age in parentheses right after a family word.
_FAMILY_AGE = r"\b" + words(*_FAMILY_AGE_WORDS) + r"[ \t]{0,2}\([ \t]{0,2}(?P<a>\d{1,3})[ \t]{0,2}\)"


# Ages written in words ("Ninety-two year old", "one hundred and one years of age"): HIPAA names ages over 89 whatever
# their spelling. A number of one to five words.
_WORD_GAP = r"(?:[ \t]{1,2}|[ \t]{0,2}-[ \t]{0,2})"
_BELOW_HUNDRED = r"(?:" + words(*TENS) + r"(?:" + _WORD_GAP + words(*UNITS) + r")?|" + words(*TEENS, *UNITS) + r")"
_WORD_NUMBER = (
    r"(?:one" + _WORD_GAP + r"hundred(?:" + _WORD_GAP + r"(?:and" + _WORD_GAP + r")?" + _BELOW_HUNDRED + r")?"
    r"|" + _BELOW_HUNDRED + r")"
)
_WORD_AGE = (
    r"\b(?P<a>" + _WORD_NUMBER + r")" + _WORD_GAP
    + r"(?:(?:years?|yrs?)(?:" + _WORD_GAP + r"old\b|[ \t]{1,2}of[ \t]{1,2}age\b)|y/o\b|y\.[ \t]?o\b\.?|yo\b)"
)  # fmt: skip
# The same after "aged" or "age:" as a number in digits is (age.aged): "aged ninety four", "Age: one hundred and two".
_AGED_WORD_AGE = AGED + r"(?P<a>" + _WORD_NUMBER + r")(?![\w-])"


def _word_age(text: str, m: regex.Match[str]) -> list[Hit]:
    value = number_value(m["a"])
    return _age_hit(m, value) if value else []  # number words never spell 0


def stated_age_patterns() -> tuple[Pattern, ...]:
    return (
        Pattern("age.stated", Label.AGE, _STATED_AGE, 0.6, _age, hints=ScanHints(anchors=STATED_AGE_WORDS)),
        Pattern("age.family_parenthesis", Label.AGE, _FAMILY_AGE, 0.7, _age),
        Pattern(
            "age.words",
            Label.AGE,
            _WORD_AGE,
            0.9,
            _word_age,
            hints=ScanHints(anchors=(*UNITS, *TEENS, *TENS)),  # by hand: the first number word
        ),
        Pattern(
            "age.aged_words",
            Label.AGE,
            _AGED_WORD_AGE,
            0.9,
            _word_age,
            hints=ScanHints(anchors=AGED_WORDS),  # by hand, as for age.aged
        ),
    )


def age_detector() -> PatternDetector:
    return PatternDetector("patterns.age", (*age_patterns(), *stated_age_patterns()))
