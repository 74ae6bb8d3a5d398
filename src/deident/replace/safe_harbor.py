"""The HIPAA Safe Harbor rules that are not plain surrogates (45 CFR 164.514(b)(2)(i)).

- (B) ZIP codes: the initial three digits, or "000" where all ZIP codes with those three digits hold
  20,000 people or fewer (:data:`RESTRICTED_ZIP3`); a five-digit number standing where a ZIP code
  stands (after "zip", a city or a state, "lives in") counts as one even when detection missed it.
- (C) dates: every element but the year goes (no shifting); ages over 89 become "90+", and so do
  years that imply such an age: one 90 or more years before the patient's latest year, or any date
  of birth of a patient who is over 89.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex
import us

from deident.core.document import Document
from deident.core.labels import Category, Label
from deident.core.span import Span
from deident.replace.dates import AGED_90_PLUS, date_years, shift_date_text
from deident.text.number_words import written_number

SAFE_HARBOR_AGE = "90+"
# Three-digit ZIP prefixes whose areas held 20,000 people or fewer in the 2000 census (HHS
# de-identification guidance; 67 FR 53182, 53233-53234): Safe Harbor writes "000" for them.
RESTRICTED_ZIP3 = frozenset("036 059 063 102 203 556 692 790 821 823 830 831 878 879 884 890 893".split())
BARE_ZIP_SOURCE = "safe-harbor.zip"

# A date right after one of these is a date of birth ("DOB: 1/2/1930", "born in 1930").
_BIRTH_CONTEXT = regex.compile(
    r"(?:\bd\.?\s?o\.?\s?b\.?|\bdate\s+of\s+birth|\bbirth\s*(?:date|day)|\bborn(?:\s+(?:on|in))?)[\s:#=(-]*\Z",
    regex.IGNORECASE,
)
# A five-digit number (ZIP+4 included) that is not part of a longer number, a decimal or a range.
_FIVE_DIGITS = regex.compile(r"(?<![\d.,/:$#-])\d{5}(?:-\d{4})?(?![\d%/:]|[.,-]\d)")
_ZIP_WORD_BEFORE = regex.compile(
    r"\b(?:zip|zipcode|postal|post\s*code)(?:\s*code)?\s*(?:is|was|of)?[\s:#.=-]*\Z"
    r"|\b(?:lives|living|live|resides|residing|moved)\s+(?:in|at|to)\s+\Z",
    regex.IGNORECASE,
)
_LOCATION_GAP = regex.compile(r"[ \t,]{1,3}\Z")


@lru_cache(maxsize=1)
def _state_before() -> regex.Pattern[str]:
    codes = [s.abbr for s in us.states.STATES_AND_TERRITORIES] + ["DC"]
    names = [s.name for s in us.states.STATES_AND_TERRITORIES]
    alternatives = "|".join(regex.escape(n) for n in sorted(names, key=len, reverse=True))
    return regex.compile(rf"(?:\b(?:{'|'.join(codes)})\.?|\b(?i:{alternatives}))[ \t,]{{1,3}}\Z")


def safe_harbor_zip(original: str) -> str:
    """The first three digits of a ZIP code, or "000" for sparsely populated areas."""
    digits = "".join(c for c in original if c.isdigit())
    prefix = digits[:3]
    return "000" if prefix in RESTRICTED_ZIP3 or len(prefix) < 3 else prefix


def bare_zip_spans(text: str, spans: Sequence[Span]) -> list[Span]:
    """ZIP spans for five-digit numbers outside ``spans`` that stand where a ZIP code stands."""
    location_ends = {s.end for s in spans if s.category is Category.LOCATION}
    found = []
    for match in _FIVE_DIGITS.finditer(text):
        start, end = match.span()
        if any(s.start < end and start < s.end for s in spans):
            continue
        line_start = text.rfind("\n", 0, start) + 1
        before = text[max(line_start, start - 40) : start]
        gap = _LOCATION_GAP.search(before)
        after_location = gap is not None and start - len(gap.group(0)) in location_ends
        if after_location or _ZIP_WORD_BEFORE.search(before) or _state_before().search(before):
            found.append(Span(start, end, Label.ZIP, BARE_ZIP_SOURCE))
    return found


@dataclass(frozen=True)
class AgedYears:
    """What Safe Harbor aggregates for one patient: years before ``aged_before`` (90 or more years
    before the patient's latest year), and, when the patient is over 89, every date of birth."""

    aged_before: int | None = None
    over_89: bool = False

    @classmethod
    def of_patient(cls, items: Sequence[tuple[Document, Sequence[Span]]]) -> AgedYears:
        years = [
            year
            for doc, spans in items
            for s in spans
            if s.label is Label.DATE
            for year in date_years(s.text_of(doc.text))
        ]
        years += [doc.metadata.note_date.year for doc, _ in items if doc.metadata.note_date is not None]
        old = any(s.label is Label.AGE and over_89(s.text_of(doc.text)) for doc, spans in items for s in spans)
        return cls(max(years) - 89 if years else None, old)


def over_89(age: str) -> bool:
    """Whether an age as written is over 89 ("91", "ninety-two")."""
    value = written_number(age)[1]
    return value is not None and value > 89


def safe_harbor_date(text: str, span: Span, aged: AgedYears) -> str | None:
    """The date's year, never shifted; "[age 90+]" for a year that implies an age over 89. None for a
    date without a year (the caller tags it)."""
    line_start = text.rfind("\n", 0, span.start) + 1
    if aged.over_89 and _BIRTH_CONTEXT.search(text[max(line_start, span.start - 30) : span.start]):
        return AGED_90_PLUS
    reduced = shift_date_text(span.text_of(text), 0, reduce_to_year=True, aged_before=aged.aged_before)
    return reduced if reduced is not None and reduced.strip() else None


def safe_harbor_age(original: str) -> str:
    """Ages up to 89 are not identifiers and stay as written; older ones become "90+"."""
    match, value = written_number(original)
    if value is None or value <= 89:
        return original
    if match is None:
        return SAFE_HARBOR_AGE
    return original[: match.start()] + SAFE_HARBOR_AGE + original[match.end() :]
