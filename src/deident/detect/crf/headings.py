"""Section headings learned from the training notes (Sibanda 2006, Szarvas 2007): the ``learned_headings`` switch.

The hand-written heading table (``resources/sections.tsv``) gives the ``sec=`` feature; a hospital's own note
types have headings it does not list. At training time every heading-shaped string (where the table's headings
are recognised: at a line start or after "; " / ". ", followed by ":" or " -"; letters and single spaces, at most
:data:`MAX_WORDS` words) is counted, and those found in at least ``min_notes`` notes of at least ``min_patients``
patients become the model's ``headings.tsv``. A training name must never become a heading: a string that covers a
gold PHI span anywhere is rejected, and so is one holding a word of the first- or last-name lists that is not also
a common word. Tokens then get ``lsec=NAME`` for the learned heading whose section they lie in, the same in
training, in the crfsuite reference and in the compiled tagger (:func:`heading_features`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import regex

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument
from deident.core.errors import ModelError
from deident.detect.crf.learned import doc_group, read_rows
from deident.detect.lexicon.data import load_lexicon, load_stop_words, load_veto_terms
from deident.text.sections import SectionDetector, section_token_ranges
from deident.text.wordfrequency import zipf

MAX_WORDS = 4
MIN_NOTES = 5
MIN_PATIENTS = 3
MAX_HEADINGS = 500
COMMON_ZIPF = 5.0  # a name-list word this frequent in English ("will", "may", "social") may head a section
# Where SectionDetector recognises a heading, with any heading-shaped string in place of its table.
_CANDIDATE = regex.compile(
    rf"(?:^|(?<=[;.]\s{{1,3}}))[ \t]*(?P<h>[A-Za-z]+(?: [A-Za-z]+){{0,{MAX_WORDS - 1}}})[ \t]*(?::|\s-(?=\s))",
    regex.MULTILINE,
)


def heading_candidates(text: str) -> list[tuple[int, int, str]]:
    """(start, end, lower-cased heading) of every heading-shaped string of ``text``."""
    return [(m.start("h"), m.end("h"), m.group("h").lower()) for m in _CANDIDATE.finditer(text)]


def _may_be_a_name(word: str) -> bool:
    if word in load_stop_words() or word in load_veto_terms() or zipf(word) >= COMMON_ZIPF:
        return False
    return word in load_lexicon("first_names") or word in load_lexicon("last_names")


def learn_headings(
    docs: Iterable[AnnotatedDocument],
    min_notes: int = MIN_NOTES,
    min_patients: int = MIN_PATIENTS,
    max_headings: int = MAX_HEADINGS,
) -> tuple[str, ...]:
    """The heading-shaped strings of at least ``min_notes`` notes of at least ``min_patients`` patients, none of
    them ever over a gold PHI span nor holding a (not common) name-list word; most frequent first."""
    notes: dict[str, int] = {}
    patients: dict[str, set[str]] = {}
    over_phi: set[str] = set()
    for doc in docs:
        seen: set[str] = set()
        for start, end, heading in heading_candidates(doc.text):
            if any(span.start < end and span.end > start for span in doc.spans):
                over_phi.add(heading)
            seen.add(heading)
        group = doc_group(doc)
        for heading in seen:
            notes[heading] = notes.get(heading, 0) + 1
            patients.setdefault(heading, set()).add(group)
    kept = [
        h
        for h, count in notes.items()
        if count >= min_notes
        and len(patients[h]) >= min_patients
        and h not in over_phi
        and not any(_may_be_a_name(w) for w in h.split())
    ]
    kept.sort(key=lambda h: (-notes[h], h))
    return tuple(kept[:max_headings])


def section_name(heading: str) -> str:
    """The ``lsec=`` value of a learned heading."""
    return heading.replace(" ", "_")


def heading_detector(headings: Sequence[str]) -> SectionDetector | None:
    """A section detector for the learned headings (None without any)."""
    return SectionDetector(tuple((h, section_name(h)) for h in headings)) if headings else None


def heading_features(detector: SectionDetector | None, text: str, starts: Sequence[int]) -> list[str | None]:
    """Per token (by start offset, in order) ``lsec=NAME`` of the learned-heading section it lies in, else None."""
    out: list[str | None] = [None] * len(starts)
    if detector is None:
        return out
    for section, first, last in section_token_ranges(detector.find(text), starts):
        out[first:last] = [f"lsec={section.name}"] * (last - first)
    return out


def save_headings(headings: Sequence[str], path: Path) -> None:
    with atomic_write(path) as fh:
        fh.write("# section heading learned from the training notes (lower case), most frequent first\n")
        for heading in headings:
            fh.write(f"{heading}\n")


def load_headings(path: Path) -> tuple[str, ...]:
    headings = tuple(row[0] for row in read_rows(path, 1))
    if any(not h.replace(" ", "").isalpha() for h in headings):
        raise ModelError(f"{path}: a learned heading holds characters other than letters and spaces")
    return headings


__all__ = ["heading_candidates", "heading_detector", "heading_features", "learn_headings", "load_headings"]
