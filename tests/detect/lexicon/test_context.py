"""Context cues: what follows a name (person verbs, age statements, phone numbers) and triggers."""

from __future__ import annotations

import random

import pytest

from deident.core.labels import Label
from deident.detect.lexicon import context
from deident.detect.lexicon.context import Trigger, name_followup, name_trigger
from deident.text.normalise import normalise


def _after_first_word(text: str) -> tuple[str, int]:
    normalised = normalise(text)
    return normalised, normalised.index(" ")


@pytest.mark.parametrize(
    ("text", "label", "evidence"),
    [
        ("ronald called twice", Label.RELATIVE, "followed_by:called"),
        ("RONALD CALLED TWICE", Label.RELATIVE, "followed_by:called"),
        ("Dolores, was updated by MD", Label.RELATIVE, "followed_by:updated"),
        ("DOLORES VISITED THIS PM", Label.RELATIVE, "followed_by:visited"),
        ("jen aware of plan", Label.RELATIVE, "followed_by:aware"),
        ("kowalczyk is a 64 yr old", Label.PATIENT, "followed_by:age"),
        ("KOWALCZYK IS A 64YO", Label.PATIENT, "followed_by:age"),
        ("Baltuzzi cell# 555-201-3344", Label.RELATIVE, "followed_by:phone"),
        ("MARLENE (DAUGHTER) 555-201-3344", Label.RELATIVE, "followed_by:phone"),
        ("marlene 201-3344", Label.RELATIVE, "followed_by:phone"),
    ],
)
def test_followup_cues(text: str, label: Label, evidence: str):
    normalised, end = _after_first_word(text)
    cue = name_followup(normalised, end)
    assert cue is not None
    assert (cue.label, cue.evidence) == (label, evidence)


@pytest.mark.parametrize(
    "text",
    [
        "lasix given 40 mg",
        "LASIX GIVEN 40 MG",
        "bp 120/80 hr 72",
        "pt calling out overnight",  # "calling" is not "called"
        "x is a good candidate",
        "DOSE 12.5 MG",
        "count 5553344556677",  # a long digit run is no phone number
    ],
)
def test_no_followup_cue(text: str):
    normalised, end = _after_first_word(text)
    assert name_followup(normalised, end) is None


@pytest.mark.parametrize(
    ("text", "word", "evidence"),
    [
        ("Dr. Walker aware", "Walker", "trigger:dr"),
        ("MRS HOPE AT BEDSIDE", "HOPE", "trigger:mrs"),
        ("dr john smith paged", "smith", "trigger_two_back:dr"),
        ("unable to reach ronald", "ronald", "trigger:reach"),
        ("visited by dolores", "dolores", "trigger:visited_by"),
    ],
)
def test_triggers(text: str, word: str, evidence: str):
    start = text.index(word)
    trigger = name_trigger(text, normalise(text), start, start + len(word))
    assert trigger is not None and trigger.evidence == evidence


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("MS/COMFORT: PT RESTING", "COMFORT"),  # mental status, not an honorific
        ("mr/mri done", "mri"),
        ("pt resting comfortably", "comfortably"),
    ],
)
def test_no_trigger(text: str, word: str):
    start = text.index(word)
    assert name_trigger(text, normalise(text), start, start + len(word)) is None


def _followup_by_regex_alone(normalised: str, end: int) -> Trigger | None:
    """name_followup without its cheap pre-checks: both patterns tried on every window."""
    window = normalised[end : end + 40]
    verb = context._FOLLOWING_VERB.match(window)
    if verb is not None:
        if verb.group("age"):
            return Trigger(Label.PATIENT, context.VERB, "followed_by:age")
        return Trigger(Label.RELATIVE, context.VERB, "followed_by:" + verb.group("verb").replace(" ", "_"))
    if context._FOLLOWING_PHONE.match(window):
        return Trigger(Label.RELATIVE, context.ROLE, "followed_by:phone")
    return None


_FOLLOWUP_PIECES = (
    " ", "  ", "called ", "was ", "is a ", "is an ", "70 ", "yr", "years", "cell ", "555 ", "1234", "410 555 1234",
    "no ", "came in", "at the bedside", "aware", "x", "ok", "\u0661\u0662\u0663", "é", "wife", "phone", "in to visit",
)  # fmt: skip


def test_name_followup_pre_checks_keep_every_cue() -> None:
    """The cheap checks before the followup patterns never change the answer."""
    rng = random.Random(23)
    cues = 0
    for _ in range(6000):
        # A match ends before a blank (or the end of the text); what follows is words, numbers and blanks.
        normalised = "".join((rng.choice(("", " ", " ", "  ")), *rng.choices(_FOLLOWUP_PIECES, k=rng.randint(0, 9))))
        expected = _followup_by_regex_alone(normalised, 0)
        assert name_followup(normalised, 0) == expected, normalised
        cues += expected is not None
    assert cues > 300
