"""Label correction of name (and place) candidates by the field that introduces them.

"Patient: Maria Lopez" names the patient whatever a name list or the CRF calls it (often DOCTOR, from the
letters' signatures it has seen). Where the field-value rule (:mod:`deident.detect.patterns.fields`) found a name
after its field, every other name candidate overlapping it takes the field's label, so that the union keeps one
label for the name and a surrogate of the right kind replaces it.
"""

from __future__ import annotations

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
    out: list[Span] = []
    for span in spans:
        field = next((f for f in fields if f.overlaps(span)), None)
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
