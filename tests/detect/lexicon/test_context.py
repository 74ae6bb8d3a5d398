"""Context cues: what follows a name (person verbs, age statements, phone numbers) and triggers."""

from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.detect.lexicon.context import name_followup, name_trigger
from deident.detect.lexicon.matcher import normalise


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
