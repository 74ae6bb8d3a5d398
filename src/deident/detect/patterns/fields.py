"""FIELD patterns: header and form lines "Field: value" whose field name says what PHI the value is.

"Patient: Maria Lopez | DOB: ...", "Re: LOPEZ, Maria M.", "Next of kin: Jose Lopez", "Signed: Dr A. Patel",
"Employer: Acme Freight Ltd", "City: Kitorkisville" (Lee 2017's attribute-value pairs, Szarvas's structured parts).
The field vocabulary and the label each field gives its value are data (``resources/fields.tsv``). A field counts
where it starts a line or follows a separator ("|", ";", a tab, two blanks) and a colon follows it; the value runs to
the end of the line or the next separator, and is kept only when it looks like what the field announces (a name, an
address, a town, a name of an organisation).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import regex

from deident.core.labels import Category, Label
from deident.detect.lexicon.data import load_specialty_words
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.names import PARTICLES, STOP_WORDS, clinical_terms, is_name_word, known_names
from deident.detect.patterns.rules import LEADER, Hit, Pattern, search_before, words
from deident.text.case import window_case
from deident.text.wordfrequency import zipf

# Titles and honorifics that may open a name value: "Dr A. Patel", "Sister Mary Jones", "Rev. J. Okafor".
NAME_TITLES = frozenset(
    "dr doctor mr mrs ms miss mx master prof professor sister sr nurse rev reverend fr father pastor rabbi sir dame"
    " lady lord dr.".split()
)
# Values that say there is none: no PHI to remove.
EMPTY_VALUES = frozenset(
    "none n/a na nil unknown not known not applicable not stated declined retired unemployed self self-employed"
    " student housewife homemaker same as above see above tbc tbd pending".split()
)
# Fields whose value names a person only when it has two words at least: a reply's subject line ("Re: sunny_daze")
# holds a user name, a letter's ("Re: Maria Lopez") the patient.
ONE_WORD_NOT_ENOUGH = frozenset({"re"})
_FIELD_START = r"(?r)(?:\A|\n|[|;\t]|[ ]{2})[ \t]{0,4}\Z"
# Fields that often follow a value on the same line ("Patient: Maria Lopez DOB: ..."), besides the vocabulary's own.
OTHER_FIELDS = ("dob", "d.o.b", "date of birth", "mrn", "nhs no", "nhs number", "hospital no", "age", "sex", "gender",
                "date", "tel", "phone", "mobile", "email", "ward", "room", "bed", "ref")  # fmt: skip
_NAME_TOKEN = regex.compile(r"[^\W\d_](?:[\w'’\-]{0,30}[^\W\d_])?\.?|,")
_MAX_NAME_WORDS = 5
_MAX_PARTICLES = 2
# An elided particle glued to a surname by an apostrophe ("O'Young", "D'Souza", "L'Estrange", "Mc'Kay"): the word
# is judged by its stem, which a dictionary may know as a word ("Young") where it knows no "o'young".
_ELIDED_PARTICLE = regex.compile(r"(?i)^(?:o|d|l|mc|mac)'(?=[^\W\d_]{2})")


def _name_parts(word: str) -> list[str]:
    """The parts of a name word to judge: its hyphen parts, each without an elided particle."""
    parts = (part for part in word.replace("’", "'").split("-") if part)
    return [_ELIDED_PARTICLE.sub("", part) for part in parts]


def _is_particle(word: str, mode: str) -> bool:
    """A surname particle ("de", "van", "Der"), written in lower or title case where the text has case."""
    return word.lower() in PARTICLES and (mode != "mixed" or word.islower() or word.istitle())


@lru_cache(maxsize=1)
def field_labels() -> dict[str, Label]:
    """The packaged field vocabulary: field name (lower case) -> the label of its value."""
    table: dict[str, Label] = {}
    raw = resources.files("deident.resources").joinpath("fields.tsv").read_text(encoding="utf-8")
    for line in raw.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        field, label = line.split("\t")
        table[field.strip().lower()] = Label[label.strip()]
    return table


@lru_cache(maxsize=2)
def _value_end(tab_ends: bool = True) -> regex.Pattern[str]:
    """Where a value ends: a separator (a tab only where ``tab_ends``), two blanks, or the next "Field:" on the
    line."""
    fields = words(*field_labels(), *OTHER_FIELDS)
    separators = r"[|;\t]" if tab_ends else r"[|;]"
    return regex.compile(r"[ ]{2,}|" + separators + r"|[ \t](?=" + fields + r"[ \t]{0,2}:)", regex.IGNORECASE)


def _value_span(text: str, m: regex.Match[str], tab_ends: bool = True) -> tuple[int, int] | None:
    """The value's offsets: up to the first separator, without the blanks and punctuation around it."""
    start, end = m.start("v"), m.end("v")
    cut = _value_end(tab_ends).search(text, start, end)
    if cut is not None:
        end = cut.start()
    while end > start and text[end - 1] in " \t,:-":
        end -= 1  # (a full stop may be an initial's: each kind of value decides)
    if end <= start or text[start:end].lower() in EMPTY_VALUES:
        return None
    return start, end


def _name_hit(text: str, start: int, end: int, label: Label, named: bool = False) -> Hit | None:
    """The name a value opens with, titles skipped: "Maria Lopez", "LOPEZ, Maria M.", "K. Rosa", "Dr A. Patel".
    A comma continues the name only after a lone surname, and then only with first names (known, or rare words written
    as names) or initials. ``named``: the field's own name says it holds a name ("Patient name:", "Surname:"), so a
    value typed in small letters is judged as the words after a title are ("Patient name: kelbur, tobiah")."""
    mode = window_case(text, start)
    kept: list[tuple[int, int]] = []
    particles: list[tuple[int, int]] = []  # "de la" before a surname: kept only once the surname follows
    after_comma = False
    previous_end = start
    crossed_tab = False
    for tok in _NAME_TOKEN.finditer(text, start, end):
        gap = text[previous_end : tok.start()]
        previous_end = tok.end()
        if any(ch.isdigit() for ch in gap):
            break  # "Patient: Quorvane 72 F": the age and sex after the name are none of it
        new_cell = "\t" in gap and bool(kept)
        if new_cell:
            # A form's cells: "Name:<TAB>C.<TAB>Quorvane", "Next of kin:<TAB>Quorvane<TAB>T<TAB>son". The name goes
            # on into the next cell, one tab on, only while it is one word or initials, and only with a word that is
            # a name on its own ("Patient:<TAB>Quorvane<TAB>Stable" is a status in the next cell).
            one_word = len(kept) == 1 or all(e - s <= 2 for s, e in kept)
            if crossed_tab or gap.count("\t") > 1 or not one_word:
                break
            crossed_tab = True
        piece = tok[0]
        if piece == ",":
            if after_comma or len(kept) != 1 + bool(particles):
                break
            after_comma = True
            continue
        bare = piece.rstrip(".")
        lower = bare.lower()
        if not kept and not after_comma and not particles and (lower in NAME_TITLES or piece.lower() in NAME_TITLES):
            continue
        if not kept and not after_comma and len(particles) < _MAX_PARTICLES and _is_particle(piece, mode):
            particles.append((tok.start(), tok.end()))
            continue
        if len(bare) == 1:
            ok = bare.isupper()  # an initial: "A. Patel", "Rosa K"
        elif named and _SPELLED_OUT.fullmatch(bare):
            # a name spelled out letter by letter where the field says it is a name, as a form asks or to slip past
            # readers: "Name: T-O-B-I-A-H" (not "Patient: C-O-P-D exacerbation")
            ok = True
        elif after_comma:
            # "Tremblay, Jean-Luc": a known first name, or a word no dictionary knows written as a name (the weak
            # test: "Smith, Stable" is a status after a surname, not a first name).
            ok = all(
                part.lower() in known_names() or is_name_word(part, mode, named) for part in _name_parts(bare)
            ) and (mode != "mixed" or bare[0].isupper() or named)
        else:
            parts = _name_parts(bare)
            # The first word must be a name on its own (a known name or a rare word): "Patient: Stable overnight"
            # is a status, not a name; after it the shape is evidence enough.
            strong = bool(kept) and not new_cell
            if named and not kept and mode == "mixed" and bare[0].islower():
                # typed in small letters where the note has case: a listed name or a word no dictionary knows
                # ("Name: kelbur, tobiah"; not "Name: afebrile overnight")
                ok = lower not in clinical_terms() and all(_unwritten_name(part.lower()) for part in parts)
            else:
                ok = (
                    lower not in STOP_WORDS
                    and (strong or lower not in clinical_terms())  # "Name: Tylenol 500 mg"
                    and all(is_name_word(part, mode, strong) for part in parts)
                )
        if not ok:
            break
        if not kept and particles:
            kept.append((particles[0][0], particles[-1][1]))  # the particles and the surname are one word
        kept.append((tok.start(), tok.end()))
        if len(kept) >= _MAX_NAME_WORDS:
            break
    if not kept or all(e - s <= 2 for s, e in kept):
        return None  # initials alone name no one
    first, last = kept[0][0], kept[-1][1]
    if text[last - 1] == "." and last - kept[-1][0] > 2:
        last -= 1  # a full stop after a word, not an initial's
    return Hit(first, last, label)


# Three letters or more, each alone, joined by hyphens: a word spelled out ("T-O-B-I-A-H").
_SPELLED_OUT = regex.compile(r"[^\W\d_](?:-[^\W\d_]){2,30}")


def _unwritten_name(lower: str) -> bool:
    """A listed name that is no stop word, or a word no dictionary knows."""
    return lower not in STOP_WORDS and (lower in known_names() or zipf(lower) == 0.0)


def _without_full_stop(text: str, start: int, end: int) -> int:
    return end - 1 if end - start > 1 and text[end - 1] == "." else end


def _organisation_hit(text: str, start: int, end: int, label: Label) -> Hit | None:
    end = _without_full_stop(text, start, end)
    value = text[start:end]
    value_words = value.split()
    if not 1 <= len(value_words) <= 6 or not any(c.isalpha() for c in value):
        return None
    if all(w.lower() in STOP_WORDS for w in value_words):
        return None
    if window_case(text, start) == "mixed" and not value_words[0][:1].isupper():
        return None  # "Employer: local council" is a description, not a name
    if label is Label.HOSPITAL and all(_generic_care_word(w) for w in value_words):
        return None  # "Ward: Acute Medical", "Facility: ICU": a service names no facility
    return Hit(start, end, label)


def _generic_care_word(word: str) -> bool:
    """A specialty's, clinical or function word, or an abbreviation without a vowel ("ICU", "CCU"), as the words of a
    service are; a word with a digit (a ward's number)."""
    lower = word.strip(",.()").lower()
    return (
        not lower
        or lower in STOP_WORDS
        or lower in clinical_terms()
        or lower in load_specialty_words()
        or lower in _CARE_SETTING_WORDS
        or not any(c in "aeiouy" for c in lower)
        or any(c.isdigit() for c in lower)
    )


# What a service's name is made of besides its specialty ("Acute Medical Ward", "Surgical Unit 3").
_CARE_SETTING_WORDS = frozenset(
    "acute medical surgical general intensive care critical high dependency step down stepdown unit ward wing "
    "floor level day short stay assessment admissions admission observation emergency department dept a&e "
    "rehab rehabilitation respite medicine surgery skilled nursing home residential assisted living stroke cardiac "
    "coronary neuro trauma burns burn maternity labour labor delivery neonatal paediatric pediatric geriatric elderly "
    "frail mental health psychiatric hospice palliative oncology renal dialysis transplant".split()
)


def _address_hit(text: str, start: int, end: int, label: Label) -> Hit | None:
    end = _without_full_stop(text, start, end)
    value = text[start:end]
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)) or len(value) > 100:
        return None
    return Hit(start, end, label)


def _place_hit(text: str, start: int, end: int, label: Label) -> Hit | None:
    """A town's name after its field ("City: Kitorkisville", "Place of birth: Brantisk, UK"): one to five words with no
    digit, capitalised where the text has case, none a clinical word and not all function words ("Town: n/a" is
    none)."""
    end = _without_full_stop(text, start, end)
    value = text[start:end]
    value_words = value.replace(",", " ").split()
    if not 1 <= len(value_words) <= 5 or any(c.isdigit() for c in value) or value.lower() in EMPTY_VALUES:
        return None
    if all(w.lower() in STOP_WORDS for w in value_words) or any(w.lower() in clinical_terms() for w in value_words):
        return None
    if window_case(text, start) == "mixed" and not value_words[0][:1].isupper():
        return None
    return Hit(start, end, label)


# A person's initials after a field that says so ("Patient initials: T.Q.", "Initials: TQ", "Subject initials T-Q"):
# two to four capitals, each perhaps with a full stop, a hyphen or a blank after it.
_INITIALS_VALUE = regex.compile(r"(?:[A-Z](?:\.[ \t]?|[ \t-])?){1,3}[A-Z]\.?(?![\w])")


def _field_value(text: str, m: regex.Match[str]) -> list[Hit]:
    if search_before(_FIELD_START, text, m.start(), 12) is None:
        return []  # "Drug name: ...": a field only where it opens the line or follows a separator
    label = field_labels().get(" ".join(m["f"].lower().split()))
    # A name may run on into the next cell (see _name_hit), so a tab does not end its value.
    value = _value_span(text, m, tab_ends=label is None or label.category is not Category.NAME)
    if label is None or value is None:
        return []
    start, end = value
    if m["f"].lower().endswith("initials"):
        initials = _INITIALS_VALUE.match(text, start, end)
        hit = None if initials is None else Hit(start, initials.end(), label)
    elif label.category is Category.NAME:
        hit = _name_hit(text, start, end, label, named="name" in m["f"].lower().split())
        if hit is not None and m["f"].lower() in ONE_WORD_NOT_ENOUGH and len(text[hit.start : hit.end].split()) < 2:
            hit = None  # "Re: DealWorker" on a message board answers a user; a letter's "Re:" names the patient
    elif label is Label.STREET:
        hit = _address_hit(text, start, end, label)
    elif label is Label.CITY:
        hit = _place_hit(text, start, end, label)
    else:
        hit = _organisation_hit(text, start, end, label)
    return [] if hit is None else [hit]


@lru_cache(maxsize=1)
def field_patterns() -> tuple[Pattern, ...]:
    return (
        Pattern(
            "field.value",
            Label.PATIENT,
            r"\b(?P<f>"
            + words(*field_labels())
            + r")[ \t]{0,2}(?::|"
            + LEADER
            + r"[ \t]{0,2}:?)[ \t]{0,4}(?P<v>[^\n]{1,120})",
            0.9,  # as strong as a name after "Dr.": the field says what the value is
            _field_value,
        ),
    )


def field_detector() -> PatternDetector:
    return PatternDetector("patterns.field", field_patterns())
