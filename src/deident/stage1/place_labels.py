"""Label correction of place candidates by gazetteer (Lee 2017's error correction).

The CRF often calls a whole state or country name ("Florida", "Bermuda") a city or an "other"
location. When a location candidate's text is exactly a state or a country name from the bundled
lists, its label becomes STATE or COUNTRY, so that conventions which do not count states and
countries as PHI (HIPAA Safe Harbor, PhysioNet) drop it and the others type it right. Only the full
text of the span counts: "Maryland" becomes STATE, "U Maryland" stays what it was; abbreviations
("VA", "MD") are left alone because they are also words and titles.
"""

from __future__ import annotations

import regex

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.lexicon.data import load_states_and_countries

RELABELLED: frozenset[Label] = frozenset({Label.LOCATION_OTHER, Label.CITY})
_EDGE_PUNCTUATION = regex.compile(r"^[\s\p{P}]+|[\s\p{P}]+$")


def place_key(text: str) -> str:
    """Case-folded, spaces collapsed, edge punctuation dropped: "Florida." -> "florida"."""
    return " ".join(_EDGE_PUNCTUATION.sub("", text).split()).casefold()


def correct_place_labels(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    """Relabel location candidates whose whole text is a state or country name."""
    table = load_states_and_countries()
    out: list[Span] = []
    for span in spans:
        label = table.get(place_key(span.text_of(document.text))) if span.label in RELABELLED else None
        out.append(span if label is None else span.with_label(label).with_evidence(f"relabel: {label.value} list"))
    return tuple(out)
