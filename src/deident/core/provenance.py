"""Typed provenance of a span: the detector proposals (parts) a merged candidate was built from.

Stage 2's union (:mod:`deident.stage2.union`) merges overlapping stage-1 spans into one candidate; the
candidate keeps each proposal as a :class:`Part` in ``Span.parts``, as data, so the span filter's
features and the explanations read it without parsing. Like a span, a part holds offsets, never text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from deident.core.labels import Label

if TYPE_CHECKING:  # span.py imports this module; the type alone is needed here
    from deident.core.span import Span


@dataclass(frozen=True, slots=True)
class Part:
    """One detector's proposal inside a merged candidate (offsets are the part's own, not the candidate's)."""

    source: str
    label: Label
    start: int
    end: int
    score: float | None


def part_score(score: float | None) -> float | None:
    """A proposal's score as the union keeps it: rounded to 6 significant digits.

    Why: parts travelled as text ("%.6g") when the shipped span filter was trained, and its features read
    them at that precision; exact scores would move its probabilities (and the output) in the last digits.
    """
    return None if score is None else float(f"{score:.6g}")


def part_of(span: Span) -> Part:
    """A span as a single proposal (its own source, label, offsets and exact score)."""
    return Part(span.source, span.label, span.start, span.end, span.score)


def parts_of(span: Span) -> tuple[Part, ...]:
    """The proposals a candidate was built from: its parts, or the span itself when it is not merged."""
    return span.parts or (part_of(span),)


def source_family(source: str) -> str:
    """ "patterns.date" -> "patterns"; "crf" -> "crf"."""
    return source.split(".", 1)[0]
