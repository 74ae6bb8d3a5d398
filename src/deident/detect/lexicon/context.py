"""Context cues that decide whether an ambiguous lexicon match becomes a candidate.

Common-English-word status (wordfreq), clinical terms, and role triggers near a match. The note's case mode (ICU
notes are often ALL CAPS or all lower case, where capitalisation says nothing) is
:meth:`deident.text.case.CaseProfile.case_mode`, read from the note's view.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from deident.core.labels import Label
from deident.detect.lexicon.data import load_lexicon, load_veto_terms
from deident.text.wordfrequency import table_zipf

# A word at or above this Zipf frequency is frequent in English. For names the shipped
# common_words list (built from wordfreq by scripts/build_lexicons.py) says which are also ordinary
# words ("will", "hope", "brown" but not "john", "smith"); other frequent words are only "frequent".
COMMON_WORD_ZIPF = 4.0
# Below this a token is unknown to wordfreq in practice: only such tokens are tried fuzzily.
RARE_WORD_ZIPF = 2.0


def is_common_word(word: str) -> bool:
    """An ordinary English word: listed in common_words, or not a lexicon name and frequent."""
    lowered = word.lower()
    if lowered in load_lexicon("common_words"):
        return True
    return table_zipf(lowered) >= COMMON_WORD_ZIPF and lowered not in _names()


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    return load_lexicon("first_names") | load_lexicon("last_names")


# Names that are not ordinary words but very frequent in English text ("robert", and loanword
# surnames such as "post", "real") still need some context; less frequent ones ("susan") do not.
FREQUENT_WORD_ZIPF = 4.6


def is_frequent_word(word: str) -> bool:
    return table_zipf(word.lower()) >= FREQUENT_WORD_ZIPF


def is_clinical_term(word: str) -> bool:
    """A clinical term, abbreviation, unit, device or eponym from the veto data."""
    return word.lower() in load_veto_terms()


# Words before a name that tell its role, with how strongly they announce a name: an honorific
# ("Dr.", "Mrs.") almost always does, a role noun ("wife", "nurse") often, a verb ("called") less.
HONORIFIC, ROLE, VERB = "honorific", "role", "verb"
TRIGGER_BOOST: dict[str, float] = {HONORIFIC: 0.45, ROLE: 0.3, VERB: 0.2}
BEFORE_TRIGGERS: dict[str, tuple[Label, str]] = {
    **dict.fromkeys("dr drs doctor".split(), (Label.DOCTOR, HONORIFIC)),
    **dict.fromkeys(
        "attending resident fellow intern md np pa rn nurse covering surgeon cardiologist neurologist physician "
        "dictated signed cosigned".split(),
        (Label.DOCTOR, ROLE),
    ),
    **dict.fromkeys("per paged page notified".split(), (Label.DOCTOR, VERB)),
    **dict.fromkeys("reach reached contact contacted call".split(), (Label.RELATIVE, VERB)),
    **dict.fromkeys(
        "wife husband daughter son mother father mom dad sister brother niece nephew aunt uncle cousin "
        "grandson granddaughter grandmother grandfather friend partner fiance fiancee girlfriend boyfriend "
        "hcp proxy daughters sons sisters brothers neighbor spouse".split(),
        (Label.RELATIVE, ROLE),
    ),
    **dict.fromkeys("mr mrs ms miss mister".split(), (Label.PATIENT, HONORIFIC)),
    "name": (Label.PATIENT, ROLE),
}
MULTIWORD_BEFORE_TRIGGERS: dict[str, tuple[Label, str]] = {
    "spoke with": (Label.PATIENT, VERB),
    "talked with": (Label.PATIENT, VERB),
    "talked to": (Label.PATIENT, VERB),
    "spoke to": (Label.PATIENT, VERB),
    "called by": (Label.PATIENT, VERB),
    "seen by": (Label.DOCTOR, VERB),
    "discussed with": (Label.DOCTOR, VERB),
    "aware by": (Label.DOCTOR, VERB),
    "ask for": (Label.RELATIVE, VERB),
    "spoke w": (Label.PATIENT, VERB),
    "visited by": (Label.RELATIVE, VERB),
}
AFTER_TRIGGERS: dict[str, tuple[Label, str]] = dict.fromkeys(
    "md rn np pa phd dds crnp rrt".split(), (Label.DOCTOR, ROLE)
)
PLACE_TRIGGERS: frozenset[str] = frozenset("from in to at near lives live resides transferred moved visiting".split())


@dataclass(frozen=True, slots=True)
class Trigger:
    """A trigger next to a match: its role label, strength and a PHI-free evidence note."""

    label: Label
    strength: str
    evidence: str

    @property
    def boost(self) -> float:
        return TRIGGER_BOOST[self.strength]


def name_trigger(text: str, normalised: str, start: int, end: int) -> Trigger | None:
    """A role trigger right before (up to two words back) or right after a match."""
    line_start = text.rfind("\n", max(0, start - 40), start) + 1
    before = normalised[max(line_start, start - 40) : start].split()[-3:]
    if before:
        last = before[-1]
        if last in BEFORE_TRIGGERS:
            label, strength = BEFORE_TRIGGERS[last]
            # "MS/COMFORT", "MR/MRI": a slash joins abbreviations, it never follows an honorific.
            if strength != HONORIFIC or "/" not in text[max(line_start, start - 3) : start]:
                return Trigger(label, strength, f"trigger:{last}")
        pair = " ".join(before[-2:])
        if pair in MULTIWORD_BEFORE_TRIGGERS:
            return Trigger(*MULTIWORD_BEFORE_TRIGGERS[pair], "trigger:" + pair.replace(" ", "_"))
        # "Dr. John Smith", "wife Mary Ann": a trigger two words back, over a capitalised word.
        # Weaker than a direct honorific: "PER DR RONAYNE GOOD PEDAL PULSES" must not make "GOOD" a name.
        if len(before) >= 2 and BEFORE_TRIGGERS.get(before[-2], (None, VERB))[1] == HONORIFIC:
            return Trigger(BEFORE_TRIGGERS[before[-2]][0], ROLE, f"trigger_two_back:{before[-2]}")
    after = normalised[end : end + 12].split()[:1]
    if after and after[0] in AFTER_TRIGGERS and text[end : end + 1] in {" ", ","}:
        return Trigger(*AFTER_TRIGGERS[after[0]], f"trigger_after:{after[0]}")
    return None


# Words right after a name that people, not things, do in notes ("bill called", "Gerry Masci arrived",
# "NP Jen aware"), Sibanda 2006 style local context; normalised text, so punctuation is a space.
_FOLLOWING_VERB = regex.compile(
    r" {1,3}(?:(?:was|were|has|had|have|is|also|then|just|finally|already) {1,3})?"
    r"(?P<verb>called|calls|phoned|visited|visits|visiting|updated|aware|arrived|spoke|speaks|reached|paged|"
    r"notified|came in|in to visit|at bedside|at the bedside)(?![a-z0-9])"
    r"|(?P<age> {1,3}is an? {1,3}\d{1,3} {0,2}(?:yr|yo|y o|year|years))(?![a-z])"
)
_HAS_DIGIT = regex.compile(r"\d")
# A phone number or a phone label right after a name: "Lopie Certusi cell# 410-...", "bill 555-1234".
_FOLLOWING_PHONE = regex.compile(
    r" {1,4}(?:[a-z]{2,12} {1,3})?(?:(?:cell|home|work|phone|tel|mobile|pager|beeper|ph|c|h|w) {1,4}"
    r"(?:no {1,3}|number {1,3})?)?(?:\d{3} {0,3})?\d{3} {0,3}\d{4}(?!\d)"
)


# First two letters of the words _FOLLOWING_VERB can start with: most matches are followed by
# none of them, and this check spares the regular expression.
_FOLLOWING_VERB_STARTS = frozenset("ca ph vi up aw ar sp re pa no in at wa we ha is al th ju fi".split())


def name_followup(normalised: str, end: int) -> Trigger | None:
    """A cue right after a match: a person's verb ("called", "is a 70 yr") or a phone number."""
    window = normalised[end : end + 40]
    # The verb pattern needs a word from its lists (or more blanks) after one blank; the phone pattern needs digits.
    if window[1:3] in _FOLLOWING_VERB_STARTS or window[1:2] == " ":
        verb = _FOLLOWING_VERB.match(window)
        if verb is not None:
            if verb.group("age"):
                return Trigger(Label.PATIENT, VERB, "followed_by:age")
            return Trigger(Label.RELATIVE, VERB, "followed_by:" + verb.group("verb").replace(" ", "_"))
    if _may_hold_digit(window) and _FOLLOWING_PHONE.match(window):
        return Trigger(Label.RELATIVE, ROLE, "followed_by:phone")
    return None


def _may_hold_digit(window: str) -> bool:
    """False only when ``window`` holds no digit: an ASCII window of letters and blanks is told apart by str methods,
    which are far cheaper than a regex search (most windows after a name are words)."""
    if window.isascii() and window.replace(" ", "").isalpha():
        return False
    return _HAS_DIGIT.search(window) is not None


# Sections where people other than clinicians are named (family, social, contacts).
PERSON_SECTIONS: frozenset[str] = frozenset({"SOCIAL", "FAMILY", "CONTACT"})
SECTION_BOOST = 0.15


# Words after which a listed place's name is a verb: a modal ("CAN CONVERSE", "will mobile"), or "to" after a word that
# governs an infinitive ("ABLE TO CONVERSE", "wants to reading"). "went to Converse", "going to Reading" stay places.
_MODALS = frozenset("can cannot could will would shall should may might must".split())
_INFINITIVE_GOVERNORS = frozenset(
    """
    able unable want wants wanted trying tries tried try need needs needed used learn learning begin began begins
    started starting continue continues continued like likes liked refuse refuses refused agree agrees agreed wish
    wishes wished plan plans planned hope hopes hoped expected how encouraged reminded asked instructed taught
    """.split()
)


def verb_position(normalised: str, start: int) -> bool:
    """Whether the word at ``start`` stands where a verb does: after a modal or after "to" that an infinitive's
    governor ("able", "wants", "how") opens."""
    before = normalised[max(0, start - 30) : start].split()[-2:]
    if not before:
        return False
    if before[-1] in _MODALS:
        return True
    return len(before) == 2 and before[-1] == "to" and before[0] in _INFINITIVE_GOVERNORS


def place_trigger(text: str, normalised: str, start: int) -> str | None:
    line_start = text.rfind("\n", max(0, start - 40), start) + 1
    before = normalised[max(line_start, start - 40) : start].split()[-1:]
    if before and before[-1] in PLACE_TRIGGERS:
        return f"trigger:{before[-1]}"
    return None


def sentence_initial(text: str, start: int) -> bool:
    """True when only spaces separate ``start`` from a line start or a sentence-ending mark."""
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if (
        i >= 0
        and text[i] == "."
        and text[max(0, i - 4) : i].lower().split()[-1:] in (["dr"], ["mr"], ["mrs"], ["ms"], ["st"])
    ):
        return False  # "Dr. Smith": the period ends an abbreviation, not a sentence
    return i < 0 or text[i] in "\n.!?:;-*#>)"
