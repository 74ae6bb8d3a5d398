"""Negative evidence: veto name-like and place-like candidates that are clinical words.

Drug names (drug-named-entity-recognition), eponymous diseases, signs and devices (Parkinson, Foley,
Swan-Ganz, Bell's palsy), units and clinical abbreviations (MAE, PERRLA, NPO) stay in the text.
Only NAME and place-like LOCATION candidates are vetoed: structured matches (DATE, CONTACT, ID, AGE,
ZIP, STREET, ROOM) never are, and neither is a candidate right after a strong name trigger
("Dr. Foley"). Each veto is explainable by a :class:`VetoRecord` (PHI-free: offsets and reasons).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import itemgetter

import regex

from deident.core.document import Document
from deident.core.labels import Category, Label
from deident.core.span import Span, sort_spans
from deident.detect.lexicon.data import load_drug_names as drug_names
from deident.detect.lexicon.data import load_veto_terms
from deident.detect.lexicon.matcher import LexiconMatcher
from deident.detect.patterns.locations import listed_city
from deident.detect.patterns.names import (
    CLINICIAN_AFTER,
    DOCTOR_ROLES_WORDS,
    FAMILY_WORDS,
    ROLE_QUALIFIER_WORDS,
    ROLE_SUFFIXES_WORDS,
    ROLE_WORD_ENDINGS,
    VOCATIVE_WORDS,
)
from deident.detect.patterns.rules import word_after
from deident.text.normalise import normalise
from deident.text.note_view import note_view

VETOABLE_LABELS: frozenset[Label] = frozenset(
    {
        Label.PATIENT,
        Label.DOCTOR,
        Label.RELATIVE,
        Label.USERNAME,
        Label.CITY,
        Label.STATE,
        Label.COUNTRY,
        Label.HOSPITAL,
        Label.ORGANIZATION,
        Label.DEPARTMENT,
        Label.LOCATION_OTHER,
    }
)
# Kin words, after which a name stands as after a title ("niece Amber", "uncle Will"; not "friend", "partner").
KIN_NAME_TRIGGERS: frozenset[str] = frozenset(
    "wife husband daughter daughters son sons mother father sister sisters brother brothers aunt uncle niece nephew"
    " cousin grandson granddaughter grandaughter grandmother grandfather grandma grandpa girlfriend boyfriend fiance"
    " fiancee stepdaughter stepson mom dad".split()
)
# A candidate right after one of these keeps its name reading ("Dr. Foley", "Mrs. Parkinson", "girlfriend Amber").
STRONG_NAME_TRIGGERS: frozenset[str] = (
    frozenset("dr drs doctor mr mrs ms mx miss mister prof professor".split()) | KIN_NAME_TRIGGERS
)
# An eponym's disease after a kin word is a family history, no relative's name: "mother Parkinson's", "aunt Crohn's
# disease", "FHx: father Marfan syndrome".
_EPONYM_DISEASE_AFTER = regex.compile(r"(?:'s|’s)?(?:[ \t]{1,2}(?:disease|syndrome|dz|ds)\b)|(?:'s|’s)(?!\w)", regex.I)
# Honorifics, which no convention counts as part of a name: a span of these alone names nobody ("Dr." is also a
# street suffix, but only with the street's name before it).
HONORIFICS: frozenset[str] = frozenset("dr drs doctor mr mrs ms mx mister prof professor".split())


@lru_cache(maxsize=1)
def _kin_phrases() -> frozenset[str]:
    """The kinship and contact-role words and phrases, normalised as span keys are ("son in law")."""
    return frozenset(" ".join(normalise(word).split()) for word in FAMILY_WORDS)


def _kin_words_only(key: str) -> bool:
    """Whether the normalised span text is a kinship or contact-role word or phrase, or a list of them, possessive
    or not: a relation names nobody ("wife's", "daughter", "health care proxy", "son-in-law")."""
    phrases = _kin_phrases()
    bare = key.removesuffix(" s")  # normalise splits the possessive off: "wife's" -> "wife s"
    words = bare.split()
    while len(words) > 1 and words[0] in _VOCATIVES:
        words = words[1:]  # a letter's or a post's greeting: "Dear Colleague", "Hi son"
    bare = " ".join(words)
    return bool(bare) and (bare in phrases or all(word in phrases for word in words))


# The one-word greetings that open a salutation (a kin word after one still names nobody).
_VOCATIVES = frozenset(word for word in VOCATIVE_WORDS if " " not in word)


@lru_cache(maxsize=1)
def _role_phrases() -> frozenset[tuple[str, ...]]:
    """Clinicians' roles, what qualifies them by shift or post, and their credentials, as word tuples normalised as
    span keys are."""
    phrases = (*DOCTOR_ROLES_WORDS, *ROLE_QUALIFIER_WORDS, *ROLE_SUFFIXES_WORDS)
    return frozenset(tuple(normalise(phrase).split()) for phrase in phrases)


def _role_words_only(key: str) -> bool:
    """Whether the normalised span text is a run of whole role phrases: a role names nobody ("Consultant
    Cardiologist", "charge nurse", "Attending Physician"). Whole phrases only: "House" is a name, "house officer" a
    role. A word with a specialist's ending is a role of one word ("Consultant Rheumatologist")."""
    words = key.split()
    phrases = _role_phrases()
    sizes = range(max(map(len, phrases)), 0, -1)
    at = 0
    while at < len(words):
        # the longest role phrase that starts here
        size = next((n for n in sizes if tuple(words[at : at + n]) in phrases), 0)
        if not size and words[at].endswith(ROLE_WORD_ENDINGS):
            size = 1
        if not size:
            return False
        at += size
    return bool(words)


# The rules that find a state code by the city before it or the ZIP code after it.
_STATE_IN_ADDRESS = frozenset(
    {
        "pattern:location.city_state",
        "pattern:location.state_zip",
        "pattern:location.city_ambiguous_state",
        "pattern:location.city_unpunctuated_state",
        "pattern:location.city_unpunctuated_ambiguous_state",
    }
)
_TRIGGER_EVIDENCE = regex.compile(r"^(?:trigger|name_trigger|honorific|title)\b", regex.I)
_WORD = regex.compile(r"[\p{L}\p{N}]+")


@dataclass(frozen=True, slots=True)
class VetoRecord:
    """Why a candidate was dropped: the span (offsets, label, source) and PHI-free reasons."""

    span: Span
    reasons: tuple[str, ...]


@lru_cache(maxsize=1)
def _veto_phrases() -> dict[str, str]:
    """Multi-word veto terms ("bell's palsy", "swan ganz"), normalised -> kind."""
    out: dict[str, str] = {}
    for term, kind in load_veto_terms().items():
        key = " ".join(normalise(term).split())
        if " " in key:
            out.setdefault(key, kind)
    return out


@lru_cache(maxsize=1)
def _veto_phrase_matcher() -> LexiconMatcher:
    return LexiconMatcher({"veto": _veto_phrases()})


@dataclass(frozen=True, slots=True)
class PhraseHits:
    """A note's multi-word veto terms as (start, end, kind), by start, with what finds the first that contains a span
    in one binary search: ``reach[i]`` is the furthest end among the first ``i + 1`` hits (a long note holds
    thousands of such terms, and a look at every one for each candidate took quadratic time)."""

    hits: tuple[tuple[int, int, str], ...]
    starts: tuple[int, ...]
    reach: tuple[int, ...]

    @classmethod
    def of(cls, hits: Sequence[tuple[int, int, str]]) -> PhraseHits:
        ordered = tuple(sorted(hits, key=itemgetter(0)))  # stable: hits of one start keep their order
        return cls(ordered, tuple(h[0] for h in ordered), tuple(accumulate((h[1] for h in ordered), max)))

    def containing(self, start: int, end: int) -> str | None:
        """The kind of the first hit (in order) that contains ``[start, end)``, None if none does."""
        # Hits before ``starting`` start at or before ``start``; the first whose end reaches ``end`` is where the
        # furthest end so far first reaches it.
        starting = bisect_right(self.starts, start)
        first = bisect_left(self.reach, end, 0, starting)
        return self.hits[first][2] if first < starting else None


def veto_reasons(document: Document, span: Span, phrases: PhraseHits | None = None) -> tuple[str, ...]:
    """Reasons to veto ``span`` (empty when it stays). ``phrases`` are the note's multi-word veto term hits."""
    if span.label not in VETOABLE_LABELS or span.category not in (Category.NAME, Category.LOCATION):
        return ()
    text = document.text
    surface = text[span.start : span.end]
    if not any(ch.isalnum() for ch in surface):
        return ("veto:no_letter_or_digit",)  # the CRF's tag on a note's last full stop ("FROM QUELBURY[.]")
    key = " ".join(normalise(surface).split())
    if (found := _WORD.findall(key)) and all(word in HONORIFICS for word in found):
        return ("veto:honorific_only",)  # a title with no name ("[Dr.] Faith Summers" as a place)
    if _has_strong_trigger(text, span, key):
        return ()
    if "pattern:location.hospital_name" in span.evidence and all(map(listed_city, key.split())):
        return ()  # "Orange Hospital", "Reading Hospital": a hospital named for its town, not a colour or an act
    if span.label is Label.STATE and not _STATE_IN_ADDRESS.isdisjoint(span.evidence):
        # "Corinth, TX", "MD 21201", "moved from Quelbury, CO to": the city or ZIP code beside it says it is a state,
        # not a treatment or a cardiac output
        return ()
    if _kin_words_only(key):
        return ("veto:kin_word_only",)  # "[Wife's] cell 617 555 2213", "[Daughter] Suzette called"
    if _role_words_only(key):
        # "Dr Tamsin Vell\n[Consultant Cardiologist]", "[General Practitioner]" taken for a place, "MD, [FRCPC]"
        return ("veto:role_word_only",)
    if all(word in _GENERIC_REFERENCE_WORDS for word in key.split()):
        return ("veto:generic_reference",)  # "[The patient] Quorvane states" taken for a place
    terms = load_veto_terms()
    reasons: list[str] = []
    for candidate in {key, key.removesuffix(" s"), surface.lower().strip()}:
        if candidate in terms:
            reasons.append(f"veto:{terms[candidate]}")
            break
    if not reasons and (key in drug_names() or surface.lower() in drug_names()):
        reasons.append("veto:drug")
    if not reasons and phrases is not None:
        kind = phrases.containing(span.start, span.end)
        if kind is not None:
            reasons.append(f"veto:{kind}_phrase")
    if not reasons:
        words = key.split()
        if len(words) > 1 and all(w in terms or w in drug_names() for w in words):
            reasons.append("veto:all_words_clinical")
    if not reasons and in_eponym_pair(text, span.start, span.end):
        reasons.append("veto:eponym_pair")
    if not reasons and span.category is Category.NAME and _names_a_product(text, span):
        reasons.append("veto:product_context")
    return tuple(reasons)


# The patient as a note refers to them, an article or a determiner (not "a", an initial too): a span of these words
# alone names nobody.
_GENERIC_REFERENCE_WORDS = frozenset("the an this that our my your his her their patient patients pt pts".split())


# A word naming a device or preparation right after a name-like word makes it a brand or an eponymous device
# ("Quinton catheter", "Anderson tubes", "Aloe Vesta oint", "Destin lotion"); so does a line site before it
# ("LSC Quentin", "R fem Quinton").
PRODUCT_WORDS = frozenset(
    "catheter catheters cath tube tubes lotion lotions cream creams oint ointment ointments drip drips drink drinks "
    "powder spray gel paste pump mattress dressing dressings boot boots stockings bed".split()
)
LINE_SITES = frozenset("lsc rsc lij rij fem femoral subclavian".split())


# Two capitalised names joined by "and" before a word that names a grade, scale, sign or disease are an
# eponym ("Hunt and Hess grade 3", "Mallory-Weiss" is one word already), whichever the names are.
EPONYM_HEADS = (
    "grade grades grading scale score scores classification class criteria stage staging type syndrome disease "
    "sign signs test maneuver manoeuvre procedure operation repair equation formula rule rules index reflex "
    "phenomenon triad technique method fracture shunt view position"
).split()
_EPONYM_PAIR = regex.compile(
    r"(?P<first>\p{Lu}[\p{L}'’-]+)[ \t]+(?i:and|&)[ \t]+(?P<second>\p{Lu}[\p{L}'’-]+?)(?:['’]s)?"
    rf"[ \t]+(?i:{'|'.join(EPONYM_HEADS)})\b"
)


# Pairs of surnames that name a scale, sign or syndrome together. Name completion never spreads a kept name to its
# partner in one of them ("hx Hunt and Hess."), but neither is vetoed for it: "Hunt and Hess at bedside" are people.
EPONYM_NAME_PAIRS = frozenset(
    tuple(pair.split())
    for pair in (
        "hunt hess", "kernig brudzinski", "spetzler martin", "child pugh", "mallory weiss", "guillain barre",
        "stevens johnson", "ehlers danlos", "creutzfeldt jakob", "charcot marie", "osler weber", "wolff parkinson",
        "dandy walker", "cheyne stokes", "brown sequard", "zollinger ellison", "epstein barr", "arnold chiari",
        "budd chiari", "lambert eaton", "hand schuller", "marchiafava bignami", "wernicke korsakoff",
    )
)  # fmt: skip


def in_eponym_pair(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies within the two names of an eponym pair ("Hunt and Hess grade 3")."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    window_end = min(end + 60, len(text) if line_end < 0 else line_end)
    for match in _EPONYM_PAIR.finditer(text, max(line_start, start - 40), window_end, overlapped=True):
        if match.start("first") <= start and end <= match.end("second"):
            return True
    return False


def _names_a_product(text: str, span: Span) -> bool:
    return word_after(text, span.end) in PRODUCT_WORDS or _word_before(text, span.start, 12) in LINE_SITES


def _word_before(text: str, start: int, width: int) -> str | None:
    """The last word (lower case) in the ``width`` characters before ``start`` on the same line, if any."""
    line_start = text.rfind("\n", max(0, start - width), start) + 1  # only the window counts: no scan of the line
    before = _WORD.findall(text[max(line_start, start - width) : start])
    return before[-1].lower() if before else None


# Rules whose names the shape of their line carries as a strong trigger would ("G. WHIPPLE RRT" signing a note).
SHAPED_NAME_EVIDENCE = frozenset({"pattern:name.signature_line"})
# Rules that take a place only after a phrase that says where someone lives or comes from ("lives in Orange", "son
# from Reading", "originally from Mobile"): a clinical word's other reading ("orange urine") has no such phrase.
PLACE_TRIGGER_EVIDENCE = frozenset(
    {"pattern:location.lives_in", "pattern:location.home_of", "pattern:location.family_from"}
)
# A name that a clinician's role or act right after it found ("G. FOLEY AWARE", "R. BLOCK NP").
CONTEXT_NAME_EVIDENCE = frozenset({CLINICIAN_AFTER})
# built once: the veto asks per span
_TRIGGER_SHAPED_EVIDENCE = SHAPED_NAME_EVIDENCE | PLACE_TRIGGER_EVIDENCE | CONTEXT_NAME_EVIDENCE


def _has_strong_trigger(text: str, span: Span, key: str) -> bool:
    """``key``: the span's text normalised as :func:`veto_reasons` keys it."""
    before = _word_before(text, span.start, 20)
    if before in KIN_NAME_TRIGGERS and _eponym_disease(text, span, key):
        return False
    if _strong_trigger_evidence(span.evidence) or not _TRIGGER_SHAPED_EVIDENCE.isdisjoint(span.evidence):
        return True
    return before in STRONG_NAME_TRIGGERS


def _eponym_disease(text: str, span: Span, key: str) -> bool:
    """An eponym written as its disease ("Parkinson's", "Crohn disease"): a family history's entry after a kin word."""
    return load_veto_terms().get(key) == "eponym" and _EPONYM_DISEASE_AFTER.match(text, span.end) is not None


@lru_cache(maxsize=4096)  # pure: a few hundred distinct evidence tuples make most spans
def _strong_trigger_evidence(evidence: tuple[str, ...]) -> bool:
    """Whether the evidence names a trigger and a strong name trigger ("trigger:dr")."""
    return any(_TRIGGER_EVIDENCE.match(note) for note in evidence) and any(
        note.split(":", 1)[-1].lower() in STRONG_NAME_TRIGGERS for note in evidence
    )


def phrase_hits(document: Document) -> PhraseHits:
    """The note's multi-word veto terms, as (start, end, kind), for :func:`veto_reasons`."""
    phrases = _veto_phrases()
    text = document.text
    normalised = note_view(document).normalised
    return PhraseHits.of(
        [
            (m.start, m.end, phrases.get(" ".join(normalised[m.start : m.end].split()), "clinical"))
            for m in _veto_phrase_matcher().find_all(text, normalised)
        ]
    )


@dataclass(frozen=True)
class VetoStage:
    """Stage ``(document, spans) -> spans`` dropping vetoed name-like and place-like candidates."""

    name: str = "filter.veto"

    def explain(self, document: Document, spans: tuple[Span, ...]) -> tuple[VetoRecord, ...]:
        """The vetoes this stage would apply, with reasons."""
        phrases = phrase_hits(document) if any(s.label in VETOABLE_LABELS for s in spans) else None
        records = []
        for span in spans:
            reasons = veto_reasons(document, span, phrases)
            if reasons:
                records.append(VetoRecord(span, reasons))
        return tuple(records)

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        vetoed = {id(r.span) for r in self.explain(document, spans)}
        return sort_spans(s for s in spans if id(s) not in vetoed)


def veto_stage() -> VetoStage:
    """The negative-evidence stage of the rules pipeline."""
    return VetoStage()
