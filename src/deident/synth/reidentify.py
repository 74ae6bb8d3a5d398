"""Re-identified training corpora (after Sibanda & Uzuner 2006): every gold PHI span of an annotated
corpus replaced by a fresh surrogate of the same label, offsets recomputed.

Three kinds of variant:

* ``reidentified``: surrogates from broad generators (names of many origins in every written form, dates in
  every common format, national and international phones, IDs of varied shapes, addresses, hospitals);
* ``ambiguous``: names and places that are also common English words or clinical terms ("Will", "Hope",
  "Brown", "Cross", "Foley", "Mobile", "Reading");
* ``unseen``: names and places that are pronounceable pseudo-words found in no lexicon of the detectors and
  unknown to wordfreq.

Each variant is deterministic for (corpus, seed, kind, variant index): a patient's notes draw from one random
stream seeded by those and the patient id, so a patient stays one consistent cast within a variant: the same
original string (case-insensitively) maps to the same surrogate, and name *tokens* map consistently (a surname
used alone stays that surname, initials become the surrogate's initials). The note's casing at a span is kept
(ALL CAPS and lower case). Text outside the spans is never changed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
import string
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache

from faker import Faker

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata, KnownIdentifiers
from deident.core.labels import Category, Label
from deident.core.span import Span, remove_overlaps
from deident.synth.phi import MONTHS, WEEKDAYS, digits, format_date, identifier, profession
from deident.synth.vocab import faker_for, us_cities, words, world_cities
from deident.text.wordfrequency import table_zipf


class Kind(StrEnum):
    """Which of Sibanda's corpora a variant imitates."""

    REIDENTIFIED = "reidentified"
    AMBIGUOUS = "ambiguous"
    UNSEEN = "unseen"


_KIND_TAG = {Kind.REIDENTIFIED: "r", Kind.AMBIGUOUS: "a", Kind.UNSEEN: "u"}
NAME_LABELS = frozenset({Label.PATIENT, Label.DOCTOR, Label.RELATIVE})

# Latin-script Faker locales whose person providers give names of distinct origins (accents, particles such
# as "van der", "Ó", "Mac", apostrophes, Iberian two-part surnames) with their weights.
NAME_LOCALES: tuple[tuple[str, float], ...] = (
    ("en_US", 0.30), ("en_GB", 0.06), ("en_IE", 0.04), ("ga_IE", 0.02), ("en_IN", 0.05), ("es_ES", 0.05),
    ("es_MX", 0.06), ("pt_BR", 0.04), ("pt_PT", 0.02), ("it_IT", 0.04), ("fr_FR", 0.04), ("de_DE", 0.03),
    ("de_AT", 0.01), ("nl_NL", 0.04), ("nl_BE", 0.01), ("pl_PL", 0.03), ("cs_CZ", 0.01), ("hu_HU", 0.01),
    ("tr_TR", 0.02), ("sv_SE", 0.01), ("fi_FI", 0.01), ("da_DK", 0.01), ("ro_RO", 0.01), ("hr_HR", 0.01),
    ("yo_NG", 0.02), ("fil_PH", 0.02), ("id_ID", 0.01), ("zu_ZA", 0.01), ("fr_CA", 0.01),
)  # fmt: skip
# Surname particles and prefixes by language (the locale's first two letters), applied to a locale's own surnames.
PARTICLES: dict[str, tuple[str, ...]] = {
    "nl": ("van", "van der", "van den", "de", "ter"),
    "de": ("von", "von der", "zu"),
    "fr": ("de", "du", "Le", "D'"),
    "it": ("di", "De", "Della", "D'", "Lo"),
    "es": ("de", "de la", "del"),
    "pt": ("da", "dos", "de"),
    "en": ("O'", "O’", "Mc", "Mac"),
}
PHONE_LOCALES = ("en_GB", "en_AU", "en_IN", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "en_CA", "pt_BR", "en_IE")

# Surnames that are also clinical terms, eponyms of signs, devices and procedures, or body words, written
# from general medical knowledge (not from any corpus): Sibanda's "ambiguous PHI".
CLINICAL_SURNAMES = (
    "Foley", "Swan", "Ganz", "Holter", "Doppler", "Whipple", "Nissen", "Hickman", "Murphy", "Babinski",
    "Homan", "Graves", "Addison", "Cushing", "Wilson", "Parkinson", "Bell", "Down", "Hodgkin", "Crohn",
    "Apgar", "Glasgow", "Guthrie", "Bishop", "Hartmann", "Kocher", "Pfannenstiel", "Mallory", "Weiss",
    "Cross", "Bone", "Block", "Hand", "Foot", "Head", "Mass", "Pain", "Payne", "Salt", "Nurse", "Cough",
    "Heart", "Lung", "Vane", "Shunt", "Drain", "Stent", "Sling", "Cast", "Pulse", "Lamb", "Leach", "Rash",
    "Blood", "Vein", "Hart", "Fever", "Chill", "Bolus", "Lowe", "Sharp", "Sore", "Fallot", "Wolff",
)  # fmt: skip
AMBIGUOUS_FIRST = (
    "Will", "Hope", "Bill", "Grace", "Faith", "Joy", "Mark", "June", "April", "May", "Rich", "Sandy", "Dawn",
    "Art", "Gene", "Pat", "Frank", "Ivy", "Rose", "Iris", "Sue", "Don", "Jack", "Bob", "Rob", "Guy", "Penny",
    "Ray", "Chase", "Drew", "Sky", "Summer", "Autumn", "Amber", "Crystal", "Pearl", "Ruby", "Hunter", "Max",
    "Chip", "Buck", "Rusty", "Cliff", "Dale", "Glen", "Grant", "Miles", "Lance", "Chance", "Carol", "Holly",
)  # fmt: skip
AMBIGUOUS_PLACES = (
    "Mobile", "Reading", "Bath", "Deal", "Hope", "Normal", "Wells", "Sandwich", "Marathon", "Independence",
    "Liberty", "Eureka", "Orange", "Rugby", "Derby", "Hull", "Bury", "March", "Cork", "Split", "Nice", "Mold",
    "Truth", "Riverside", "Fairview", "Mission", "Friendship", "Harmony", "Unity", "Temple", "Warren", "Concord",
    "Providence", "Boulder", "Buffalo", "Phoenix", "Troy", "Victoria", "Salem", "Dover", "Paradise",
)  # fmt: skip
AMBIGUOUS_STATES = ("Washington", "Georgia", "Virginia", "Indiana", "Nevada", "Maine", "Carolina")
HOLIDAYS = ("Christmas", "Thanksgiving", "Easter", "New Year's", "Labor Day", "Memorial Day", "Halloween")
TITLES = frozenset(
    {"dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "prof", "prof.", "doctor", "sr.", "fr."}
)
SUFFIXES = frozenset({"jr", "jr.", "sr", "ii", "iii", "iv", "md", "m.d.", "rn", "np", "pa", "phd", "do"})
_TITLE_BEFORE = re.compile(r"(?:\b(?:dr|mr|mrs|ms|miss|prof|doctor|dear)\.?\s*)$", re.IGNORECASE)
_INITIAL = re.compile(r"[^\W\d_]\.?")
_WORD = re.compile(r"[^\W\d_][^\W\d_'’\-]*(?:['’\-][^\W\d_]+)*\.?")


# --- vocabularies ----------------------------------------------------------------------------------------


@cache
def _lexicon_words() -> frozenset[str]:
    """Every word the detectors' lexicons list (names, places, common words, drugs, clinical terms)."""
    from deident.detect.lexicon.data import LEXICON_NAMES, load_drug_names, load_lexicon, load_veto_terms

    out: set[str] = set()
    for name in LEXICON_NAMES:
        for item in load_lexicon(name):
            out.add(item)
            out.update(item.split())
    out.update(load_drug_names())
    out.update(load_veto_terms())
    return frozenset(out)


def in_lexicons(word: str) -> bool:
    """True when a lexicon lists ``word`` (or any of its parts) or wordfreq knows it."""
    parts = [p for p in re.split(r"[\s\-'’]+", word.lower()) if p]
    return word.lower() in _lexicon_words() or any(p in _lexicon_words() or table_zipf(p) > 0 for p in parts)


@cache
def ambiguous_vocab() -> dict[str, tuple[str, ...]]:
    """First names, surnames and places that are also common English words or clinical terms: Faker's
    English name lists intersected with Faker's English word list and frequent wordfreq words, plus the
    hand-written lists above and in ``resources/synth/words.json``."""
    from faker.providers.lorem.en_US import Provider as Lorem
    from faker.providers.person.en_US import Provider as Person

    common = {w for w in Lorem.word_list if table_zipf(w) >= 3.5}
    first = {n for n in Person.first_names if n.lower() in common}
    first |= set(AMBIGUOUS_FIRST) | set(words()["word_first_names"])
    last = {n for n in Person.last_names if n.lower() in common} | set(CLINICAL_SURNAMES)
    last |= set(words()["word_last_names"])
    cities = {c for c, _ in us_cities() if c.isalpha() and c.lower() in common} | set(AMBIGUOUS_PLACES)
    return {"first": tuple(sorted(first)), "last": tuple(sorted(last)), "places": tuple(sorted(cities))}


_ONSETS = ("b", "br", "c", "d", "dr", "f", "g", "gr", "h", "j", "k", "kl", "l", "m", "n", "p", "pr", "qu", "r",
           "s", "st", "t", "tr", "v", "z", "zh", "th", "sh", "ch", "")  # fmt: skip
_NUCLEI = ("a", "e", "i", "o", "u", "ai", "ea", "ie", "ou", "y", "ae", "io")
_CODAS = ("", "", "", "n", "r", "l", "s", "th", "nd", "rk", "x", "v", "m", "sk", "nt")
_ENDINGS = ("", "", "", "", "a", "o", "is", "ane", "ett", "ova", "ski", "ard", "elle", "ek")


def pseudo_word(rng: random.Random, syllables: int | None = None) -> str:
    """A pronounceable capitalised pseudo-word that no lexicon lists and wordfreq does not know."""
    for _ in range(200):
        n = syllables or rng.choice((2, 2, 3))
        word = "".join(rng.choice(_ONSETS) + rng.choice(_NUCLEI) for _ in range(n)) + rng.choice(_CODAS)
        word = (word + rng.choice(_ENDINGS)).capitalize()
        if 4 <= len(word) <= 11 and not re.search("[aeiouy]{3}", word.lower()) and not in_lexicons(word):
            return word
    raise RuntimeError("could not draw an unseen pseudo-word")


# --- casing and pieces -------------------------------------------------------------------------------------


def match_case(original: str, new: str) -> str:
    """``new`` in the casing style of ``original``: ALL CAPS and all lower case are kept, else as generated."""
    letters = [c for c in original if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return new.upper()
    if letters and all(c.islower() for c in letters):
        return new.lower()
    return new


_EDGE_PUNCT = ' \t\r\n:;,()[]{}"<>*|'


def split_affixes(value: str) -> tuple[str, str, str]:
    """(prefix, core, suffix): surrounding spaces and punctuation kept outside the replaced core."""
    core = value.strip(_EDGE_PUNCT)
    if not core:
        return "", value, ""
    start = value.index(core)
    return value[:start], core, value[start + len(core) :]


def reshape(value: str, rng: random.Random) -> str:
    """The same shape with fresh characters: digits for digits, letters for letters (case kept)."""
    out = []
    for i, char in enumerate(value):
        if char.isdigit():
            out.append(rng.choice("123456789" if i == 0 else string.digits))
        elif char.isalpha() and char.isascii():
            letter = rng.choice(string.ascii_uppercase)
            out.append(letter if char.isupper() else letter.lower())
        else:
            out.append(char)
    return "".join(out)


# --- people ---------------------------------------------------------------------------------------------------


@dataclass
class _Person:
    first: str
    middle: str
    last: str


@dataclass
class _Slot:
    """One original person as the note mentions them, and their surrogate."""

    first: str | None
    last: str | None
    person: _Person


@dataclass
class _Cast:
    """A patient's surrogates within one variant: every map is keyed by the lower-cased original."""

    kind: Kind
    rng: random.Random
    date_shift: int
    first: dict[str, str] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)
    initials: dict[str, str] = field(default_factory=dict)
    slots: list[_Slot] = field(default_factory=list)
    values: dict[tuple[Label, str], str] = field(default_factory=dict)
    forms: Counter[str] = field(default_factory=Counter)


def _faker(locale: str, rng: random.Random) -> Faker:
    fake = faker_for(locale)
    fake.seed_instance(rng.getrandbits(48))
    return fake


def _first_name(kind: Kind, rng: random.Random) -> str:
    if kind is Kind.AMBIGUOUS:
        return rng.choice(ambiguous_vocab()["first"])
    if kind is Kind.UNSEEN:
        return pseudo_word(rng, rng.choice((2, 2, 3)))
    locales, weights = zip(*NAME_LOCALES, strict=True)
    fake = _faker(rng.choices(locales, weights)[0], rng)
    name = fake.first_name_female() if rng.random() < 0.5 else fake.first_name_male()
    return name.split()[0]


def _surname(kind: Kind, rng: random.Random) -> str:
    if kind is Kind.AMBIGUOUS:
        return rng.choice(ambiguous_vocab()["last"])
    if kind is Kind.UNSEEN:
        name = pseudo_word(rng)
        return f"{name}-{pseudo_word(rng, 2)}" if rng.random() < 0.08 else name
    locales, weights = zip(*NAME_LOCALES, strict=True)
    locale = rng.choices(locales, weights)[0]
    fake = _faker(locale, rng)
    name = fake.last_name()
    draw = rng.random()
    prefixes = PARTICLES.get(locale[:2], ())
    if draw < 0.06:
        name = f"{name}-{fake.last_name()}"
    elif draw < 0.12 and locale.startswith(("es", "pt")):
        name = f"{name} {fake.last_name()}"  # two-part Iberian surname
    elif draw < 0.22 and prefixes and " " not in name and "'" not in name:
        prefix = rng.choice(prefixes)
        name = prefix + name if prefix.endswith(("'", "’", "Mc", "Mac")) else f"{prefix} {name}"
    return name


def _new_person(cast: _Cast) -> _Person:
    return _Person(_first_name(cast.kind, cast.rng), _first_name(cast.kind, cast.rng), _surname(cast.kind, cast.rng))


def _fresh(table: dict[str, str], key: str, draw: Callable[[], str]) -> str:
    """The surrogate recorded for ``key``, drawn (never equal to ``key``) on first use."""
    if key not in table:
        for _ in range(30):
            value = draw()
            if value.lower() != key:
                break
        table[key] = value
    return table[key]


def _is_first(token: str) -> bool | None:
    """Lexicon evidence: True first name only, False surname only, None both or neither."""
    from deident.detect.lexicon.data import load_lexicon

    low = token.lower().rstrip(".")
    first, last = low in load_lexicon("first_names"), low in load_lexicon("last_names")
    if first != last:
        return first
    return None


def _in_name_lexicon(token: str) -> bool:
    from deident.detect.lexicon.data import load_lexicon

    low = token.lower().rstrip(".")
    return low in load_lexicon("first_names") or low in load_lexicon("last_names")


def _initial(name: str) -> str:
    letters = [c for c in name if c.isalpha() and c.isupper()] or [c for c in name if c.isalpha()]
    return letters[0].upper() if letters else "X"


def _slot(cast: _Cast, first: str | None, last: str | None) -> _Slot:
    """The person slot a mention (first and/or last token, lower case) belongs to, made when new."""
    for slot in cast.slots:
        if last is not None and slot.last == last and (first is None or slot.first in (None, first)):
            slot.first = slot.first or first
            return slot
        if first is not None and slot.first == first and (last is None or slot.last is None):
            slot.last = slot.last or last
            return slot
    person = _new_person(cast)
    if first is not None:
        person.first = _fresh(cast.first, first, lambda: _first_name(cast.kind, cast.rng))
    if last is not None:
        person.last = _fresh(cast.last, last, lambda: _surname(cast.kind, cast.rng))
    slot = _Slot(first, last, person)
    cast.slots.append(slot)
    return slot


NAME_FORMS = ("first_last", "last_first", "initial_last", "last_initial", "first_initial", "first_middle_last",
              "initials", "first", "last", "title_last")  # fmt: skip


def render_name(person: _Person, form: str, rng: random.Random) -> str:
    """A written form of a surrogate person."""
    match form:
        case "first_last":
            return f"{person.first} {person.last}"
        case "last_first":
            middle = f" {_initial(person.middle)}." if rng.random() < 0.5 else ""
            return f"{person.last}, {person.first}{middle}"
        case "initial_last":
            return f"{_initial(person.first)}{rng.choice(('. ', '.', ' '))}{person.last}"
        case "last_initial":
            return f"{person.last} {_initial(person.first)}{rng.choice(('', '.'))}"
        case "first_initial":
            return f"{person.first} {_initial(person.last)}."
        case "first_middle_last":
            return f"{person.first} {_initial(person.middle)}. {person.last}"
        case "initials":
            mid = _initial(person.middle) if rng.random() < 0.4 else ""
            return f"{_initial(person.first)}{mid}{_initial(person.last)}"
        case "first":
            return person.first
        case "last":
            return person.last
        case "title_last":
            return f"{rng.choice(('Dr. ', 'Dr ', 'Mr. ', 'Ms. ', 'Mrs. '))}{person.last}"
    raise ValueError(f"unknown name form {form!r}")


def render_initials(tokens: list[str], seps: list[str], roles: list[str], person: _Person) -> str:
    """A mention made of initials only, written with the surrogate person's initials."""
    letters = {"finit": person.first, "linit": person.last, "minit": person.middle}
    out: list[str] = []
    for k, (token, role) in enumerate(zip(tokens, roles, strict=True)):
        out.append(_initial(letters[role]) + ("." if token.endswith(".") else "") if role in letters else token)
        if k < len(seps):
            out.append(seps[k])
    return "".join(out)


def _name_roles(tokens: list[str], seps: list[str], label: Label, cast: _Cast, before: str) -> list[str] | None:
    """Each token's role (first, last, middle, finit, linit, minit, keep) or None when the form is unclear."""
    words = [i for i, t in enumerate(tokens) if t.lower() not in TITLES | SUFFIXES]
    roles = ["keep"] * len(tokens)
    if not words:
        return None
    titled = any(t.lower() in TITLES for t in tokens[: words[0]]) or bool(_TITLE_BEFORE.search(before))
    kinds = ["init" if _INITIAL.fullmatch(tokens[i]) else "word" if _WORD.fullmatch(tokens[i]) else "?" for i in words]
    if "?" in kinds:
        return None
    comma = any("," in s for s in seps)
    if len(words) == 1:
        i = words[0]
        low = tokens[i].lower()
        if kinds[0] == "init":
            roles[i] = "linit" if titled else "finit"
        elif low in cast.last:
            roles[i] = "last"
        elif low in cast.first:
            roles[i] = "first"
        elif low in cast.initials or (len(tokens[i]) in (2, 3) and tokens[i].isupper() and not _in_name_lexicon(low)):
            roles[i] = "initials"
        elif titled:
            roles[i] = "last"
        else:
            evidence = _is_first(tokens[i])
            if evidence is None:
                prior = {Label.DOCTOR: 0.2, Label.PATIENT: 0.5, Label.RELATIVE: 0.7}.get(label, 0.5)
                evidence = cast.rng.random() < prior
            roles[i] = "first" if evidence else "last"
        return roles
    if comma:  # Last, First [M.]
        cut = next(k for k, s in enumerate(seps) if "," in s)
        for pos, i in enumerate(words):
            if i <= cut:
                roles[i] = "last" if kinds[pos] == "word" else "linit"
            elif pos == len(words) - 1 and kinds[pos] == "init" and len(words) > 2:
                roles[i] = "minit"
            else:
                roles[i] = "first" if kinds[pos] == "word" else "finit"
        return roles
    if kinds[-1] == "init" and kinds[0] == "word" and len(words) == 2:  # "Smith J" / "John S."
        first, low = tokens[words[0]], tokens[words[0]].lower()
        if low in cast.first or (low not in cast.last and (tokens[words[1]].endswith(".") or _is_first(first))):
            roles[words[0]], roles[words[1]] = "first", "linit"
        else:
            roles[words[0]], roles[words[1]] = "last", "finit"
        return roles
    for pos, i in enumerate(words):
        if pos == len(words) - 1:
            roles[i] = "last" if kinds[pos] == "word" else "linit"
        elif pos == 0:
            roles[i] = "first" if kinds[pos] == "word" else "finit"
        else:
            roles[i] = "middle" if kinds[pos] == "word" else "minit"
    return roles


def _name_surrogate(core: str, label: Label, cast: _Cast, before: str, expand: bool = True) -> str:
    tokens, seps = _split_name(core)
    roles = _name_roles(tokens, seps, label, cast, before)
    rng = cast.rng
    if roles is None:  # an unclear form: a sampled form of a fresh (or the recorded) person
        key = core.lower()
        if key not in cast.initials:
            form = rng.choice(NAME_FORMS[:-1])
            cast.forms[form] += 1
            cast.initials[key] = render_name(_slot(cast, None, None).person, form, rng)
        return cast.initials[key]
    lows = [t.lower().rstrip(".") for t in tokens]
    first = next((lows[i] for i, r in enumerate(roles) if r == "first"), None)
    last_words = [lows[i] for i, r in enumerate(roles) if r == "last"]
    last = " ".join(last_words) if last_words else None
    if roles.count("initials"):
        i = roles.index("initials")
        key = lows[i]
        if key not in cast.initials:
            slot = next(
                (s for s in cast.slots if s.first and s.last and (s.first[0] + s.last[0]) in (key, key[0] + key[-1])),
                None,
            )
            person = slot.person if slot else _new_person(cast)
            mid = _initial(person.middle) if len(key) == 3 else ""
            value = f"{_initial(person.first)}{mid}{_initial(person.last)}"
            if value.lower() == key:
                value = f"{_initial(_first_name(cast.kind, rng))}{mid}{_initial(person.last)}"
            cast.initials[key] = value
        cast.forms["initials"] += 1
        return "".join(cast.initials[key] if r == "initials" else tokens[k] for k, r in enumerate(roles))
    if first is None and last is None and "middle" not in roles:  # initials only ("J.", "J. K."): one map per string
        key = "\x00" + core.lower()
        if key not in cast.initials:
            person = _new_person(cast)
            for _ in range(10):
                if _initial(person.first) != _initial(core):
                    break
                person = _new_person(cast)
            cast.initials[key] = render_initials(tokens, seps, roles, person)
        cast.forms["+".join(r for r in roles if r != "keep")] += 1
        return cast.initials[key]
    slot = _slot(cast, first, last)
    person = slot.person
    if first is not None:
        person.first = _fresh(cast.first, first, lambda: _first_name(cast.kind, rng))
    if last is not None:
        person.last = _fresh(cast.last, last, lambda: _surname(cast.kind, rng))
    # A full two-part name may switch to another written form of the same person.
    full = [r for r in roles if r != "keep"]
    if expand and full in (["first", "last"], ["last", "first"], ["first", "minit", "last"]) and rng.random() < 0.35:
        form = rng.choice(("last_first", "initial_last", "last_initial", "first_initial", "first_middle_last"))
        cast.forms[form] += 1
        kept = [t for t, r in zip(tokens, roles, strict=True) if r == "keep" and t.lower() in TITLES]
        return " ".join([*kept, render_name(person, form, rng)])
    # A bare first name or surname (no title) sometimes becomes a fuller written form of the same person.
    titled = bool(_TITLE_BEFORE.search(before)) or any(t.lower() in TITLES for t in tokens)
    if expand and full in (["first"], ["last"]) and not titled and rng.random() < 0.2:
        form = rng.choice(("first_initial",) if full == ["first"] else ("initial_last", "last_initial", "first_last"))
        cast.forms[form] += 1
        return "".join(render_name(person, form, rng) if r != "keep" else t for t, r in zip(tokens, roles, strict=True))
    cast.forms["+".join(full)] += 1
    pieces = _render_tokens(tokens, roles, person, cast, joined_last=True)
    out: list[str] = []
    for k, piece in enumerate(pieces):
        out.append(piece)
        if k < len(seps) and not (roles[k] == "last" and roles[k + 1] == "last"):
            out.append(seps[k])
    return "".join(out).strip()


def _render_tokens(tokens: list[str], roles: list[str], person: _Person, cast: _Cast, joined_last: bool) -> list[str]:
    """Each token's surrogate: the person's parts and initials; with ``joined_last``, a surname written in several
    tokens ("van der Berg, J.") is written once, at its last token, else each surname token maps on its own."""
    out: list[str] = []
    final_last = max((i for i, r in enumerate(roles) if r == "last"), default=-1)
    for k, (token, role) in enumerate(zip(tokens, roles, strict=True)):
        dot = "." if token.endswith(".") else ""
        low = token.lower().rstrip(".")
        match role:
            case "first":
                piece = person.first + dot
            case "last" if k == final_last:
                piece = person.last + dot
            case "last":
                piece = "" if joined_last else _fresh(cast.last, low, lambda: _surname(cast.kind, cast.rng)) + dot
            case "middle":
                piece = _fresh(cast.first, low, lambda: _first_name(cast.kind, cast.rng)) + dot
            case "finit":
                piece = _initial(person.first) + dot
            case "linit":
                piece = _initial(person.last) + dot
            case "minit":
                piece = _initial(person.middle) + dot
            case _:
                piece = token
        out.append(piece)
    return out


def _split_name(core: str) -> tuple[list[str], list[str]]:
    parts = re.split(r"(\s*,\s*|\s+)", core)
    return parts[0::2], parts[1::2]


def name_group_surrogates(cores: list[str], gaps: list[str], label: Label, cast: _Cast, before: str) -> list[str]:
    """Surrogates for one name written as adjacent spans ("ROBERT" "V." "DEGIORGIO", "Q." "LANDER"): the roles
    come from the whole name, each span gets its own tokens' surrogates (and stays non-empty)."""
    tokens: list[str] = []
    seps: list[str] = []
    owner: list[int] = []
    for n, core in enumerate(cores):
        span_tokens, span_seps = _split_name(core)
        if tokens:
            seps.append(gaps[n - 1] or " ")
        tokens.extend(span_tokens)
        seps.extend(span_seps)
        owner.extend([n] * len(span_tokens))
    roles = _name_roles(tokens, seps, label, cast, before)
    lows = [t.lower().rstrip(".") for t in tokens]
    first = next((lows[i] for i, r in enumerate(roles or ()) if r == "first"), None)
    last = next((lows[i] for i, r in reversed(list(enumerate(roles or ()))) if r == "last"), None)
    if roles is None or "initials" in roles or (first is None and last is None):
        return [_name_surrogate(core, label, cast, before, expand=False) for core in cores]
    person = _slot(cast, first, last).person
    if first is not None:
        person.first = _fresh(cast.first, first, lambda: _first_name(cast.kind, cast.rng))
    if last is not None:
        person.last = _fresh(cast.last, last, lambda: _surname(cast.kind, cast.rng))
    full = [r for r in roles if r != "keep"]
    if full == ["first", "last"] and len(cores) == 2 and len(tokens) == 2 and cast.rng.random() < 0.3:
        # "John" "Smith" may become "J." "Smith", "Smith" "J" or "John" "S." (each span stays one token).
        form = cast.rng.choice(("initial_last", "last_initial", "first_initial"))
        cast.forms[form] += 1
        first_init, last_init = _initial(person.first), _initial(person.last)
        return {
            "initial_last": [f"{first_init}.", person.last],
            "last_initial": [person.last, first_init],
            "first_initial": [person.first, f"{last_init}."],
        }[form]
    cast.forms["+".join(full)] += 1
    pieces = _render_tokens(tokens, roles, person, cast, joined_last=False)
    out: list[str] = []
    position = 0
    for core in cores:
        span_tokens, span_seps = _split_name(core)
        mine = pieces[position : position + len(span_tokens)]
        position += len(span_tokens)
        text = "".join(p + (span_seps[k] if k < len(span_seps) else "") for k, p in enumerate(mine)).strip()
        out.append(text or person.last)
    return out


# --- dates ------------------------------------------------------------------------------------------------

_MONTH_RE = "|".join(m[:3] for m in MONTHS)
_DATE_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("md", r"(\d{1,2})/(\d{1,2})"),
        ("mdy", r"(\d{1,2})/(\d{1,2})/(\d{4})"),
        ("mdy_short", r"(\d{1,2})/(\d{1,2})/(\d{2})"),
        ("dash", r"(\d{1,2})-(\d{1,2})-(\d{2,4})"),
        ("md_dash", r"(\d{1,2})-(\d{1,2})"),
        ("iso", r"(\d{4})-(\d{1,2})-(\d{1,2})"),
        ("dmy_dot", r"(\d{1,2})\.(\d{1,2})\.(\d{2,4})"),
        ("year", r"(?:19|20)\d\d"),
        ("yy", r"\d\d"),
        ("apos_year", r"'\d\d"),
        ("my", r"(\d{1,2})/(\d{4})"),
        ("dmony", rf"(\d{{1,2}})[- ]({_MONTH_RE})[a-z]*\.?[- ](\d{{2,4}})"),
        ("long", rf"({_MONTH_RE})[a-z]*\.? (\d{{1,2}})(?:st|nd|rd|th)?,? (\d{{4}})"),
        ("mon_d", rf"({_MONTH_RE})[a-z]*\.? (\d{{1,2}})(?:st|nd|rd|th)?"),
        ("month_year", rf"({_MONTH_RE})[a-z]*\.?,? (?:of )?(\d{{4}})"),
        ("month", rf"({_MONTH_RE})[a-z]*\.?"),
        ("weekday", r"(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?"),
        ("ordinal", r"(\d{1,2})(?:st|nd|rd|th)"),
        ("ord_of", rf"(\d{{1,2}})(?:st|nd|rd|th) of ({_MONTH_RE})[a-z]*"),
        ("holiday", r"christmas|thanksgiving|easter|new year'?s?|labor day|memorial day|halloween"),
    )
)
DATE_OUT_FORMS = ("md", "mdy", "mdy_pad", "mdy_short", "dmony", "long", "long_ord_year", "long_ord", "iso", "mon_d",
                  "dash", "dmy_dot", "month_year", "ord_of", "md_pad")  # fmt: skip


def date_shape(core: str) -> str | None:
    for name, pattern in _DATE_SHAPES:
        if pattern.fullmatch(core):
            return name
    return None


def _parse_date(core: str, shape: str) -> dt.date | None:
    numbers = [int(n) for n in re.findall(r"\d+", core)]
    month_match = re.search(_MONTH_RE, core, re.IGNORECASE)
    month = [m[:3].lower() for m in MONTHS].index(month_match.group(0).lower()) + 1 if month_match else None
    try:
        match shape:
            case "md" | "md_dash":
                return dt.date(2000, numbers[0], numbers[1])
            case "mdy" | "mdy_short" | "dash":
                year = numbers[2] + (2000 if numbers[2] < 30 else 1900 if numbers[2] < 100 else 0)
                return dt.date(year, numbers[0], numbers[1])
            case "iso":
                return dt.date(numbers[0], numbers[1], numbers[2])
            case "dmy_dot":
                year = numbers[2] + (2000 if numbers[2] < 30 else 1900 if numbers[2] < 100 else 0)
                return dt.date(year, numbers[1], numbers[0])
            case "long" | "dmony" | "mon_d":
                assert month is not None
                day = numbers[0]
                year = numbers[-1] if len(numbers) > 1 else 2000
                year += 2000 if year < 30 else 1900 if year < 100 else 0
                return dt.date(year, month, day)
    except (ValueError, IndexError, AssertionError):
        return None
    return None


def _date_surrogate(core: str, cast: _Cast) -> str:
    rng = cast.rng
    shape = date_shape(core)
    day = _parse_date(core, shape) if shape else None
    if day is not None:
        day = day + dt.timedelta(days=cast.date_shift)
    else:
        day = dt.date(1995, 1, 1) + dt.timedelta(days=rng.randrange(0, 365 * 30))
    keep = {"year": 1.0, "yy": 1.0, "apos_year": 1.0, "md": 0.8, "md_dash": 0.8, "mon_d": 0.8}.get(shape or "", 0.65)
    if shape is not None and rng.random() < keep:
        form = shape
    elif shape is None and re.fullmatch(r"[^\W\d_ ]+\.?", core):  # an unparsed word: a month, weekday or holiday
        return rng.choice((MONTHS[rng.randrange(12)], WEEKDAYS[rng.randrange(7)], rng.choice(HOLIDAYS)))
    elif shape is None and rng.random() < 0.5:
        return reshape(core, rng)
    else:
        form = rng.choice(DATE_OUT_FORMS)
    if form == "holiday":
        return rng.choice(HOLIDAYS)
    return format_date(day, form)


# --- other labels --------------------------------------------------------------------------------------------


def _phone(core: str, rng: random.Random) -> str:
    draw = rng.random()
    if sum(c.isdigit() for c in core) < 7 or (draw < 0.5 and not core.isdigit()):
        return reshape(core, rng)  # a fragment or an extension keeps its shape; a full number may change
    area, exch, line = f"{rng.randint(201, 989)}", f"{rng.randint(200, 999)}", digits(rng, 4)
    if draw < 0.8:
        return rng.choice(
            (f"({area}) {exch}-{line}", f"{area}-{exch}-{line}", f"{area}.{exch}.{line}", f"+1 {area} {exch} {line}",
             f"1-{area}-{exch}-{line}", f"{exch}-{line}", f"{area}{exch}{line}", f"+1-{area}-{exch}-{line}",
             f"{area}-{exch}-{line} x{digits(rng, 3)}", f"({area}){exch}-{line}")
        )  # fmt: skip
    if draw < 0.9:
        uk = (f"020 {digits(rng, 4)} {digits(rng, 4)}", f"+44 20 {digits(rng, 4)} {digits(rng, 4)}",
              f"07{digits(rng, 3)} {digits(rng, 6)}", f"+44 7{digits(rng, 3)} {digits(rng, 6)}",
              f"0161 {digits(rng, 3)} {digits(rng, 4)}", f"(01{digits(rng, 3)}) {digits(rng, 6)}")  # fmt: skip
        return rng.choice(uk)
    return str(_faker(rng.choice(PHONE_LOCALES), rng).phone_number())


def _identifier(label: Label, core: str, rng: random.Random) -> str:
    if rng.random() < 0.5 and any(c.isalnum() for c in core):
        return reshape(core, rng)
    fake = _faker("en_US", rng)
    if label in (Label.SSN, Label.MEDICALRECORD, Label.HEALTHPLAN, Label.ACCOUNT, Label.LICENSE, Label.VEHICLE,
                 Label.DEVICE, Label.BIOID, Label.IDNUM) and rng.random() < 0.6:  # fmt: skip
        return identifier(label, fake, rng)
    n = max(3, sum(c.isalnum() for c in core) + rng.randint(-2, 3))
    shapes = (
        digits(rng, n),
        "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(1, 3))) + digits(rng, n),
        f"{digits(rng, 3)}-{digits(rng, max(2, n - 3))}",
        f"{rng.choice(string.ascii_uppercase)}{digits(rng, 2)}-{digits(rng, 4)}",
        f"#{digits(rng, n)}",
    )
    return rng.choice(shapes)


def _age(core: str, rng: random.Random) -> str:
    match = re.search(r"\d+", core)
    old = int(match.group(0)) if match else 95
    new = rng.randint(90, 108) if old > 89 else rng.randint(1, 89)
    while new == old:
        new = rng.randint(90, 108) if old > 89 else rng.randint(1, 89)
    if match is None:
        return str(new)
    if core.endswith("s") and old % 10 == 0:  # "90s"
        new = new // 10 * 10 if new // 10 * 10 != old else (new // 10 + 1) * 10
    return core[: match.start()] + str(new) + core[match.end() :]


def _city(kind: Kind, rng: random.Random, single_word: bool) -> str:
    if kind is Kind.AMBIGUOUS:
        return rng.choice(ambiguous_vocab()["places"])
    if kind is Kind.UNSEEN:
        return pseudo_word(rng) + rng.choice(("", "", "ton", "ville", "burg", "field", "ford"))
    for _ in range(20):
        name = rng.choice(us_cities())[0] if rng.random() < 0.75 else rng.choice(world_cities())[0]
        if not single_word or " " not in name:
            return name
    return name


def _stem(cast: _Cast) -> str:
    rng = cast.rng
    draw = rng.random()
    if draw < 0.4:
        return _city(cast.kind, rng, False)
    if draw < 0.75:
        return _surname(cast.kind, rng)
    return f"St. {_first_name(cast.kind, rng)}'s"


def _place(label: Label, core: str, cast: _Cast) -> str:
    rng, kind = cast.rng, cast.kind
    vocab = words()
    single = " " not in core.strip()
    match label:
        case Label.CITY:
            return _city(kind, rng, single)
        case Label.STATE:
            from deident.synth.vocab import state_names

            if kind is Kind.AMBIGUOUS:
                return rng.choice(AMBIGUOUS_STATES)
            abbr, name = rng.choice(sorted(state_names().items()))
            return abbr if len(core) <= 3 else name
        case Label.ZIP:
            if rng.random() < 0.7 and any(c.isdigit() for c in core):
                return reshape(core, rng)
            return str(_faker(rng.choice(("en_US", "en_US", "en_GB", "en_CA", "de_DE")), rng).postcode())
        case Label.STREET:
            if kind is Kind.UNSEEN:
                return f"{rng.randint(1, 9999)} {pseudo_word(rng)} {rng.choice(('St', 'Street', 'Ave', 'Road', 'Ln'))}"
            if kind is Kind.AMBIGUOUS:
                return f"{rng.randint(1, 999)} {_surname(kind, rng)} {rng.choice(('Street', 'Ave', 'Road'))}"
            return str(_faker(rng.choice(("en_US", "en_US", "en_US", "en_GB", "en_CA")), rng).street_address())
        case Label.COUNTRY:
            return rng.choice(vocab["countries"])
        case Label.HOSPITAL:
            return f"{_stem(cast)} {rng.choice(vocab['hospital_suffixes'])}"
        case Label.ORGANIZATION:
            if kind is Kind.REIDENTIFIED and rng.random() < 0.6:
                return str(_faker(rng.choice(("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT")), rng).company())
            return f"{_stem(cast)} {rng.choice(vocab['org_suffixes'])}"
        case Label.DEPARTMENT:
            return f"{rng.choice(vocab['specialties'])} {rng.choice(('Clinic', 'Unit', 'Department', 'Associates'))}"
        case Label.ROOM:
            return identifier(Label.ROOM, _faker("en_US", rng), rng)
    # LOCATION_OTHER and any other place: one word for one word, else a landmark, a ward or a city, state
    if single:
        return _city(kind, rng, True) if rng.random() < 0.75 else _surname(kind, rng)
    draw = rng.random()
    if draw < 0.35:
        return (
            rng.choice(vocab["landmarks"])
            .replace("{last}", _surname(kind, rng))
            .replace("{city}", _city(kind, rng, False))
        )
    if draw < 0.6:
        return f"{_city(kind, rng, False)}, {rng.choice(sorted(words()['countries']))}"
    if draw < 0.8:
        return f"{_stem(cast)} {rng.choice(vocab['hospital_suffixes'])}"
    return f"{_city(kind, rng, False)} {rng.choice(('Park', 'Heights', 'Center', 'Village', 'Square'))}"


def _contact(label: Label, core: str, cast: _Cast) -> str:
    rng = cast.rng
    fake = _faker(rng.choice(("en_US", "en_GB", "fr_FR", "de_DE", "es_ES")), rng)
    match label:
        case Label.PHONE | Label.FAX:
            return _phone(core, rng)
        case Label.EMAIL:
            return str(fake.email())
        case Label.URL:
            return str(fake.url())
        case Label.IPADDR:
            return str(fake.ipv4() if rng.random() < 0.8 else fake.ipv6())
    return _phone(core, rng)


def _username(cast: _Cast) -> str:
    rng = cast.rng
    person = _new_person(cast)
    first, last = person.first.lower(), re.sub(r"[^\w]", "", person.last.lower())
    return rng.choice(
        (f"{first}{digits(rng, 2)}", f"{first[0]}{last}", f"{first}.{last}", f"{last}{first[0]}{rng.randint(1, 9)}",
         f"{first}_{last}", str(_faker("en_US", rng).user_name()))
    )  # fmt: skip


def surrogate(label: Label, core: str, cast: _Cast, before: str = "") -> str:
    """A fresh surrogate for one span's core, consistent within the cast, never equal to ``core``."""
    if label in NAME_LABELS:
        return _name_surrogate(core, label, cast, before)
    key = (label, core.lower())
    if key in cast.values:
        return cast.values[key]
    value = core
    for _ in range(30):
        match label.category:
            case Category.DATE:
                value = _date_surrogate(core, cast)
            case Category.AGE:
                value = _age(core, cast.rng)
            case Category.CONTACT:
                value = _contact(label, core, cast)
            case Category.ID:
                value = _identifier(label, core, cast.rng)
            case Category.LOCATION:
                value = _place(label, core, cast)
            case Category.PROFESSION:
                value = profession(cast.rng)
            case Category.NAME:
                value = _username(cast)
        if value.lower() != core.lower() and value.strip():
            break
    cast.values[key] = value
    return value


# --- documents and corpora ----------------------------------------------------------------------------------


def _stream_seed(*parts: object) -> int:
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class ReidentifyStats:
    """Counts only (never a value): documents, spans replaced per label, spans dropped as overlapping."""

    documents: int = 0
    spans: Counter[str] = field(default_factory=Counter)
    overlapping: int = 0
    forms: Counter[str] = field(default_factory=Counter)


_GROUP_GAP = re.compile(r"[ \t.,]{0,3}")


def _group_names(text: str, spans: Sequence[Span], cast: _Cast) -> dict[int, str]:
    """Surrogates for names annotated as several adjacent spans of one label (PhysioNet marks "ROBERT V.
    DEGIORGIO" as three), keyed by span index; every other span is left to :func:`surrogate`."""
    out: dict[int, str] = {}
    i = 0
    while i < len(spans):
        span, j = spans[i], i
        if span.label in NAME_LABELS:
            while (
                j + 1 < len(spans)
                and spans[j + 1].label == span.label
                and _GROUP_GAP.fullmatch(text[spans[j].end : spans[j + 1].start])
            ):
                j += 1
        if j > i:
            group = spans[i : j + 1]
            parts = [split_affixes(s.text_of(text)) for s in group]
            gaps = [
                parts[k][2] + text[group[k].end : group[k + 1].start] + parts[k + 1][0] for k in range(len(group) - 1)
            ]
            before = text[max(0, span.start - 12) : span.start] + parts[0][0]
            values = name_group_surrogates([p[1] for p in parts], gaps, span.label, cast, before)
            out.update({i + k: value for k, value in enumerate(values)})
        i = j + 1
    return out


def reidentify_document(
    doc: AnnotatedDocument, cast: _Cast, doc_id: str, metadata: DocumentMetadata, stats: ReidentifyStats | None = None
) -> AnnotatedDocument:
    """``doc`` with every gold span replaced by a surrogate from ``cast``; offsets recomputed."""
    text = doc.text
    spans = remove_overlaps(doc.spans)
    if stats is not None:
        stats.overlapping += len(doc.spans) - len(spans)
    grouped = _group_names(text, spans, cast)
    pieces: list[str] = []
    new_spans: list[Span] = []
    position = 0
    length = 0
    for index, span in enumerate(spans):
        gap = text[position : span.start]
        pieces.append(gap)
        length += len(gap)
        prefix, core, suffix = split_affixes(span.text_of(text))
        before = text[max(0, span.start - 12) : span.start] + prefix
        value = grouped.get(index) or surrogate(span.label, core, cast, before)
        value = match_case(core, " ".join(value.split()))  # one line: generators may write "Flat 2\nJones Road"
        if not value.strip() or value.casefold() == core.casefold():
            value = match_case(core, " ".join(surrogate(span.label, core + "~", cast, before).split()))
        new_text = prefix + value + suffix
        start = length + len(prefix)
        pieces.append(new_text)
        length += len(new_text)
        evidence = (*(e for e in span.evidence if not e.startswith("physionet:")), f"reidentify:{cast.kind}")
        # The new span has the original's extent: the replaced core with the same surrounding characters.
        new_spans.append(
            replace(span, start=start - len(prefix), end=start + len(value) + len(suffix), evidence=evidence)
        )
        position = span.end
        if stats is not None:
            stats.spans[span.label.value] += 1
    pieces.append(text[position:])
    document = Document(doc_id, "".join(pieces), metadata)
    if stats is not None:
        stats.documents += 1
    return AnnotatedDocument(document, tuple(new_spans))


def pseudonymous_patient_id(patient_id: str, seed: int, kind: Kind, variant: int) -> str:
    return f"{_KIND_TAG[kind]}{variant}{_stream_seed('patient', seed, kind, variant, patient_id) % 10**9:09d}"


def reidentify_variant(
    docs: Sequence[AnnotatedDocument],
    seed: int,
    kind: Kind | str = Kind.REIDENTIFIED,
    variant: int = 0,
    stats: ReidentifyStats | None = None,
) -> list[AnnotatedDocument]:
    """One variant of the corpus: deterministic for (corpus, seed, kind, variant)."""
    kind = Kind(kind)
    casts: dict[str, _Cast] = {}
    patient_ids: dict[str, str] = {}
    used: set[str] = set()
    out: list[AnnotatedDocument] = []
    for doc in docs:
        key = doc.document.patient_id if doc.document.patient_id is not None else f"\x00{doc.id}"
        if key not in casts:
            rng = random.Random(_stream_seed(seed, kind, variant, key))
            shift = rng.choice((-1, 1)) * rng.randint(30, 3 * 365)
            casts[key] = _Cast(kind, rng, shift)
            new_id = pseudonymous_patient_id(key, seed, kind, variant)
            while new_id in used:
                new_id += "x"
            used.add(new_id)
            patient_ids[key] = new_id
        meta = doc.document.metadata
        metadata = replace(
            meta,
            patient_id=patient_ids[key] if meta.patient_id is not None else None,
            author=None,
            note_date=meta.note_date + dt.timedelta(days=casts[key].date_shift) if meta.note_date else None,
            known=KnownIdentifiers(),
        ).with_extra(reidentify_kind=kind.value, reidentify_variant=str(variant))
        doc_id = f"{doc.id}-{_KIND_TAG[kind]}{variant}"
        out.append(reidentify_document(doc, casts[key], doc_id, metadata, stats))
    if stats is not None:
        for cast in casts.values():
            stats.forms.update(cast.forms)
    return out


def reidentify_corpus(
    docs: Sequence[AnnotatedDocument],
    variants: int,
    seed: int = 0,
    kind: Kind | str = Kind.REIDENTIFIED,
    stats: ReidentifyStats | None = None,
) -> list[AnnotatedDocument]:
    """``variants`` re-identified copies of ``docs``, variant by variant."""
    if variants < 1:
        raise ValueError("variants must be at least 1")
    out: list[AnnotatedDocument] = []
    for variant in range(variants):
        out.extend(reidentify_variant(docs, seed, kind, variant, stats))
    return out
