"""Label correction of name (and place) candidates by the field that introduces them.

"Patient: Maria Lopez" names the patient whatever a name list or the CRF calls it (often DOCTOR, from the
letters' signatures it has seen). Where the field-value rule (:mod:`deident.detect.patterns.fields`) found a name
after its field, every other name candidate overlapping it takes the field's label, so that the union keeps one
label for the name and a surrogate of the right kind replaces it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate

from deident.core.document import Document
from deident.core.labels import Category, Label
from deident.core.span import Span

FIELD_SOURCE = "patterns.field"
# Candidates of these categories over a field's name are that name: "Patient: Tremblay, Jean-Luc" is no place, whatever
# the CRF made of it. (Dates, contacts and IDs keep their own labels: their rules know where they end.)
RELABELLED_CATEGORIES = frozenset({Category.NAME, Category.LOCATION})
# A user name stays one whatever field stands before it ("Re: sunny_daze").
KEPT_LABELS = frozenset({Label.USERNAME})


def correct_field_labels(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    """Relabel name and place candidates that overlap a name found after a field with that field's label."""
    del document  # the offsets say all
    fields = [s for s in spans if s.source == FIELD_SOURCE and s.category is Category.NAME]
    if not fields:
        return spans
    first_field = _FirstOverlap(fields)
    out: list[Span] = []
    for span in spans:
        field = first_field(span)
        if (
            field is None
            or span.source == FIELD_SOURCE
            or span.category not in RELABELLED_CATEGORIES
            or span.label in KEPT_LABELS
            or span.label is field.label
        ):
            out.append(span)
        else:
            out.append(span.with_label(field.label).with_evidence(f"relabel: {field.label.value} field"))
    return tuple(out)


class _FirstOverlap:
    """The first of ``fields`` (in their order) that overlaps a span, found by binary search over the fields sorted
    by start instead of a look at every field per span (a note of thousands of "Name:" lines)."""

    def __init__(self, fields: list[Span]) -> None:
        self.ordered = sorted(range(len(fields)), key=lambda i: fields[i].start)
        self.fields = fields
        self.starts = [fields[i].start for i in self.ordered]
        self.reach = list(accumulate((fields[i].end for i in self.ordered), max))  # furthest end so far

    def __call__(self, span: Span) -> Span | None:
        # Fields starting before the span ends, from the first whose prefix reaches past the span's start.
        stop = bisect_left(self.starts, span.end)
        first = bisect_right(self.reach, span.start, 0, stop)
        found = [i for i in self.ordered[first:stop] if self.fields[i].end > span.start]
        return self.fields[min(found)] if found else None
