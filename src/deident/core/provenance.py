"""Typed provenance of a span: the detector proposals (parts) a merged candidate was built from.

Stage 2's union (:mod:`deident.stage2.union`) merges overlapping stage-1 spans into one candidate; the
candidate keeps each proposal as a :class:`Part` in ``Span.parts``, as data, so the span filter's
features and the explanations read it without parsing. Like a span, a part holds offsets, never text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from deident.core.labels import Label
from deident.core.values import make_plain

if TYPE_CHECKING:  # span.py imports this module; the type alone is needed here
    from deident.core.span import Span


class Confirmation(StrEnum):
    """How a validator confirmed a span's structure: what the span filter never overrules.

    Set by a pattern's validator (:class:`deident.detect.patterns.rules.Hit`) or by the pattern itself
    (``Pattern.confirms``), only where the structure itself was checked, not guessed from context; or by a site's
    list detector for a whole listed entry (:mod:`deident.site.detectors`).
    """

    CHECKSUM = "checksum"  # a check digit held: a valid SSN (python-stdnum), a VIN, a Luhn-valid card number
    PHONE = "phone"  # parsed by phonenumbers as a possible full number (area code included)
    EMAIL = "email"  # a local part, "@" and a domain with a top-level domain
    URL = "url"  # a scheme ("https://") or "www.", or a host name ending in a known top-level domain
    IP = "ip"  # parsed by ipaddress
    FULL_DATE = "full-date"  # day, month and year that make a real calendar date
    SITE_LIST = "site-list"  # a whole entry of the site configuration's lists (deident.site): the site says it is PHI


@dataclass(frozen=True, slots=True)
class Part:
    """One detector's proposal inside a merged candidate (offsets are the part's own, not the candidate's);
    ``confirmed`` says how its validator confirmed its structure (None: not confirmed)."""

    source: str
    label: Label
    start: int
    end: int
    score: float | None
    confirmed: Confirmation | None = None

    def __post_init__(self) -> None:
        # Plain Python values only, as in a span (deident.core.values).
        make_plain(self, "part")


def part_score(score: float | None) -> float | None:
    """A proposal's score as the union keeps it: rounded to 6 significant digits.

    Why: parts travelled as text ("%.6g") when the shipped span filter was trained, and its features read
    them at that precision; exact scores would move its probabilities (and the output) in the last digits.
    """
    return None if score is None else float(f"{score:.6g}")


def part_of(span: Span) -> Part:
    """A span as a single proposal (its own source, label, offsets and exact score)."""
    return Part(span.source, span.label, span.start, span.end, span.score, span.confirmed)


def parts_of(span: Span) -> tuple[Part, ...]:
    """The proposals a candidate was built from: its parts, or the span itself when it is not merged."""
    return span.parts or (part_of(span),)


def source_family(source: str) -> str:
    """ "patterns.date" -> "patterns"; "crf" -> "crf"."""
    return source.split(".", 1)[0]


def confirmation_of(span: Span) -> Confirmation | None:
    """How a validator confirmed ``span``'s structure: its own flag, or that of the first of its parts (in the
    union's priority order) of the span's own category; None when none was confirmed."""
    if span.confirmed is not None:
        return span.confirmed
    category = span.category
    for part in span.parts:
        if part.confirmed is not None and part.label.category is category:
            return part.confirmed
    return None
