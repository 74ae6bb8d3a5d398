"""Annotation schemes: which detected spans count as PHI under a corpus's or a rule's conventions.

Detectors find everything the i2b2/UTHealth 2014 guidelines call PHI. Other conventions are
narrower, and a scheme stage drops what they do not count, so that a pipeline can be scored
against (or deliver to) that convention:

- ``i2b2-2014``: everything (ages of any value, weekdays and holidays as N-GRID annotates them).
- ``physionet``: the PhysioNet deid gold standard (Neamatullah 2008), which follows HIPAA: ages only
  over 89; weekdays and holidays are not dates; professions, states and countries are not PHI; a
  facility's name is marked without its generic head noun ("Holy Cross" of "Holy Cross Hospital",
  "GH" of "GH EW", "Todd Hematology" of "Todd Hematology Center"), and a department named only by its
  specialty ("the cardiology clinic", "Sleep Medicine Unit") names no facility.
- ``hipaa-identifiers``: only the identifiers HIPAA Safe Harbor lists (45 CFR 164.514(b)(2)(i)(A)-(R);
  see :attr:`deident.core.Label.safe_harbor`): ages only over 89; weekdays alone are not dates;
  clinicians, care institutions, professions, states and countries are not counted.

How identifiers are written out under Safe Harbor (dates to the year, ages over 89 aggregated, ZIP
codes to three digits) is the replacement mode ``safe-harbor`` (:class:`deident.replace.Mode`), the
one thing called Safe Harbor. The scheme was once called ``safe-harbor`` too; that spelling still works,
with a warning.
- ``hipaa``: for users who remove PHI rather than score a corpus: everything ``i2b2-2014`` marks (names,
  professions, every place including states and countries, whole facility names with "Hospital", dates with
  weekdays, every contact and ID) except ages of 89 and under, which HIPAA lets stay.

Two conventions meet in a run and are kept apart: the *output scheme*, what the user gets
(:func:`output_scheme`: the one asked for, else the site configuration's, else :data:`DEFAULT_SCHEME`,
``hipaa``), and a model's *training scheme* (its manifest's ``scheme``, the convention its training notes
were annotated in and its operating point was measured under: ``physionet`` for the bundled model). The
training scheme never decides the output.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import regex

from deident.core.document import Document
from deident.core.errors import ConfigurationError
from deident.core.labels import Label, SafeHarbor
from deident.core.span import Span
from deident.text.number_words import number_value

_NUMBER = regex.compile(r"\d+")
_WEEKDAY_OR_HOLIDAY = regex.compile(
    r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\.?|"
    r"christmas(?:\s+eve)?|xmas|thanksgiving|easter|new\s+year'?s?(?:\s+(?:eve|day))?|"
    r"memorial\s+day|labor\s+day|independence\s+day|halloween|valentine'?s?(?:\s+day)?",
    regex.IGNORECASE,
)
# Generic head nouns after a facility's name, which some conventions leave out of the PHI span.
_FACILITY_HEAD = regex.compile(
    r"[\s,.;:()-]+(?:hospitals?|hosp|medical|med|centers?|centres?|ctr|clinics?|campus|er|ed|ew|"
    r"departments?|dept|units?|associates)[\s,.;:()-]*\Z",
    regex.IGNORECASE,
)
_BARE_FACILITY = regex.compile(
    r"[\s,.;:()-]*(?:the[ \t]+)?"
    r"(?:hospitals?|hosp|medical[ \t]+center|med[ \t]+ctr|centers?|centres?|ctr|clinic|campus|er|ed|ew)[\s,.;:()-]*",
    regex.IGNORECASE,
)
_FACILITY_LABELS = frozenset({Label.HOSPITAL, Label.DEPARTMENT, Label.LOCATION_OTHER, Label.ORGANIZATION})
_CENTRE_AFTER = regex.compile(r"[ \t]{1,2}cent(?:er|re)(?![\w':])", regex.IGNORECASE)
_CENTRE_KINDS = frozenset("rehab rehabilitation medical health care community cancer surgical dialysis".split())
# A facility's generic head noun right after a span of its name ("fall river" + " hospital", "st. david's
# rehabilitation" + " hospital"), which a convention that keeps heads counts in the name: detectors trained on the
# PhysioNet convention, which leaves heads out, may stop before it.
_HEAD_AFTER = regex.compile(
    r"[ \t]{1,2}(?:(?:regional|community|general|memorial|children'?s|rehabilitation|rehab|university|county)"
    r"[ \t]{1,2}){0,2}(?:hospital|infirmary|(?:medical|health|rehab(?:ilitation)?)[ \t]{1,2}cent(?:er|re)"
    r"|nursing[ \t]{1,2}home|care[ \t]{1,2}home)(?![\w':])",
    regex.IGNORECASE,
)
_WORD = regex.compile(r"[^\W\d_][\w'&-]*")
_GENERIC_JOINERS = frozenset({"the", "of", "and", "&", "for"})


def _names_no_facility(text: str) -> bool:
    """Only specialty words ("cardiology", "sleep medicine"): what is left of a generic department without its
    head noun ("the cardiology clinic")."""
    from deident.detect.lexicon.data import load_specialty_words  # the lexicons load only when a scheme cuts

    words = [w.lower() for w in _WORD.findall(text)]
    specialty = load_specialty_words()
    return any(w in specialty for w in words) and all(w in specialty or w in _GENERIC_JOINERS for w in words)


@dataclass(frozen=True)
class Scheme:
    """A PHI convention, as data."""

    name: str
    description: str
    max_unreported_age: int | None = None  # ages <= this are not PHI (None: every age is)
    weekdays_are_dates: bool = True
    labels: frozenset[Label] | None = None  # None: every label counts
    facility_head_nouns: bool = True  # False: "Hospital", "Center", "ER" after a facility's name are not PHI

    def apply(self, span: Span, text: str) -> Span | None:
        """The span as this scheme marks it, or None when the scheme does not count it as PHI."""
        if not self.keeps(span, text):
            return None
        if span.label not in _FACILITY_LABELS:
            return span
        if self.facility_head_nouns:
            if text[span.end - 1 : span.end] == ".":
                return span  # a sentence's end: "Med Ctr. Hospital: none" ("Hospital:" is a field, see _HEAD_AFTER)
            head = _HEAD_AFTER.match(text, span.end)
            if head is None and text[span.start : span.end].rsplit(None, 1)[-1].lower() in _CENTRE_KINDS:
                head = _CENTRE_AFTER.match(text, span.end)  # "corona rehab" + " center"
            if head is None:
                return span
            extended = span.moved(span.start, head.end())  # a place named with a hospital's head is the hospital
            return extended.with_label(Label.HOSPITAL) if span.label is Label.LOCATION_OTHER else extended
        if _BARE_FACILITY.fullmatch(text, span.start, span.end):
            return None  # "Hospital:", "the ER": a generic noun names no facility
        end = span.end
        while (head := _FACILITY_HEAD.search(text, span.start, end)) is not None:
            end = head.start()
        if end <= span.start or _names_no_facility(text[span.start : end]):
            return None  # "Cardiology Clinic", "the sleep medicine unit": a service, not a named facility
        return span if end == span.end else span.moved(span.start, end)

    def keeps(self, span: Span, text: str) -> bool:
        if self.labels is not None and span.label not in self.labels:
            return False
        covered = text[span.start : span.end]
        if span.label is Label.AGE and self.max_unreported_age is not None:
            numbers = [int(n) for n in _NUMBER.findall(covered)]
            if not numbers and (written := number_value(covered)) is not None:
                numbers = [written]  # "fifty-eight"
            if numbers and max(numbers) <= self.max_unreported_age:
                return False
        return not (
            span.label is Label.DATE and not self.weekdays_are_dates and _WEEKDAY_OR_HOLIDAY.fullmatch(covered.strip())
        )


SCHEMES: dict[str, Scheme] = {
    "i2b2-2014": Scheme("i2b2-2014", "i2b2/UTHealth 2014 and CEGS N-GRID: every PHI category"),
    "physionet": Scheme(
        "physionet",
        "PhysioNet deid gold standard (HIPAA): ages over 89 only; no weekdays or holidays, professions, states "
        "or countries; facility names without their generic head noun; no generic departments",
        max_unreported_age=89,
        weekdays_are_dates=False,
        labels=frozenset(label for label in Label if label not in {Label.PROFESSION, Label.STATE, Label.COUNTRY}),
        facility_head_nouns=False,
    ),
    "hipaa": Scheme(
        "hipaa",
        "every identifier i2b2-2014 marks, whole facility names included, except ages of 89 and under",
        max_unreported_age=89,
    ),
    "hipaa-identifiers": Scheme(
        "hipaa-identifiers",
        "only the 18 HIPAA Safe Harbor identifier kinds (45 CFR 164.514(b)(2)(i)); ages over 89 only",
        max_unreported_age=89,
        weekdays_are_dates=False,
        labels=frozenset(label for label in Label if label.safe_harbor is not SafeHarbor.NOT_REQUIRED),
    ),
}


# The output scheme of every path (CLI, API, REST, Spark) when neither the caller nor a site configuration names one.
DEFAULT_SCHEME = "hipaa"


def output_scheme(requested: str | None = None, site_default: str | None = None) -> str:
    """The name of the output scheme: ``requested``, else the site configuration's ``site_default``, else
    :data:`DEFAULT_SCHEME` (a model's training scheme is not asked: it is no user's choice)."""
    return requested or site_default or DEFAULT_SCHEME


# Old spellings -> current names.
DEPRECATED_SCHEMES = {"safe-harbor": "hipaa-identifiers"}


_WARNED: set[str] = set()  # one warning per old name and process, however many stages ask


def get_scheme(name: str) -> Scheme:
    if name in DEPRECATED_SCHEMES:
        current = DEPRECATED_SCHEMES[name]
        if name not in _WARNED:
            _WARNED.add(name)
            warnings.warn(
                f"scheme {name!r} is now called {current!r} (Safe Harbor is the replacement mode --mode safe-harbor)",
                FutureWarning,
                stacklevel=2,
            )
        name = current
    try:
        return SCHEMES[name]
    except KeyError:
        raise ConfigurationError(f"unknown scheme {name!r}; choose one of {', '.join(SCHEMES)}") from None


@dataclass(frozen=True)
class SchemeStage:
    """Drops spans that the scheme does not count as PHI."""

    scheme: Scheme

    @property
    def name(self) -> str:
        return f"scheme.{self.scheme.name}"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        kept = (self.scheme.apply(s, document.text) for s in spans)
        return tuple(s for s in kept if s is not None)
