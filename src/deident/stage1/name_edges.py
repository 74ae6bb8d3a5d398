"""Trimming of titles, roles, kinship words, greetings and credentials off the edges of name candidates.

The CRF and the fuzzy lexicons sometimes take the trigger with the name ("Dr. Smith", "wife Anna",
"Smith RN"); the gold standards annotate the name alone, and a trigger left inside a span is both a
token-level false positive and a tag that hides clinical context ("wife" says who called). A NAME
span loses the single words at its start and end that are such triggers (the word lists of
:mod:`deident.detect.patterns.names`). A span with no name-like word between its trigger words
("wife", "wife and son") is left whole: there is no name inside it to keep, and whether it is PHI at
all is the span filter's decision.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from deident.core.document import Document
from deident.core.labels import Category
from deident.core.span import Span

_WORD = regex.compile(r"\S+")
_EDGE_PUNCTUATION = ".,;:()[]'\"-"


@lru_cache(maxsize=1)
def edge_words() -> frozenset[str]:
    """Lower-cased trigger words without their punctuation ("dr", "md", "wife", "rn")."""
    from deident.detect.patterns import names

    pieces = (
        *names.DOCTOR_TITLES_WORDS,
        *names.DOCTOR_ROLES_WORDS,
        *names.ROLE_SUFFIXES_WORDS,
        *names.PATIENT_TITLES_WORDS,
        *names.FAMILY_WORDS,
        *names.VOCATIVE_WORDS,  # "Hi Lorna", "Dear Quorvane": the greeting is not the name
        "ms",
    )
    # Single words only: "nurse practitioner" is trimmed a word at a time, as "nurse" and "practitioner" are not.
    # and the record fields written after a name ("tamsin quorvane dob")
    return frozenset(_key(p) for p in (*pieces, *names.RECORD_ID_WORDS) if " " not in p) - {""}


def _held_elsewhere(spans: tuple[Span, ...], span: Span, start: int, end: int) -> bool:
    """Whether a span other than ``span`` covers [start, end)."""
    return any(o is not span and o.start <= start and end <= o.end for o in spans)


def _at_edge(key: str, edges: frozenset[str], spans: tuple[Span, ...], span: Span, word: tuple[int, int]) -> bool:
    """A trigger word, a piece of punctuation alone (". Quorvane" of "Dr. Quorvane"), or a number that another span
    covers ("smith john mrn 4455667": the record number has its own span; a number no other span holds stays)."""
    return key in edges or not key or (key.isdigit() and _held_elsewhere(spans, span, *word))


def _key(word: str) -> str:
    return word.strip(_EDGE_PUNCTUATION).replace(".", "").lower().removesuffix("'s")


def trim_name_edges(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    """NAME spans without the title, role, kinship and credential words at their edges."""
    from deident.detect.patterns.names import NON_NAMES as stop

    edges = edge_words()
    out: list[Span] = []
    for span in spans:
        if span.category is not Category.NAME:
            out.append(span)
            continue
        words = [(m.start() + span.start, m.end() + span.start) for m in _WORD.finditer(span.text_of(document.text))]
        keys = [_key(document.text[s:e]) for s, e in words]
        first, last = 0, len(words) - 1
        while first <= last and _at_edge(keys[first], edges, spans, span, words[first]):
            first += 1
        while last >= first and _at_edge(keys[last], edges, spans, span, words[last]):
            last -= 1
        # A word of punctuation alone (key "") is no name either: "; niece" keeps no name once "niece" goes.
        if (
            first > last
            or (first == 0 and last == len(words) - 1)
            or all(k in stop or not k for k in keys[first : last + 1])
        ):
            out.append(span)  # nothing to trim, or no name-like word between the triggers ("wife and son")
            continue
        start, end = words[first][0], words[last][1]
        # A comma or colon left after the kept words belonged to the trimmed trigger ("Smith, RN").
        while end > start and document.text[end - 1] in ",;:":
            end -= 1
        out.append(span.moved(start, end).with_evidence("trimmed: title/role/kin words at the edge"))
    return tuple(out)
