"""Dictionary detectors: names and places from lexicons, hospital shapes, known identifiers."""

from __future__ import annotations

from deident.core.pipeline import Detector
from deident.detect.lexicon.detectors import (
    DEFAULT_MIN_SCORE,
    HospitalShapeDetector,
    NameLexiconDetector,
    OrganizationShapeDetector,
    PlaceLexiconDetector,
)
from deident.detect.lexicon.known import KnownIdentifierDetector


def lexicon_detectors(min_score: float = DEFAULT_MIN_SCORE, fuzzy: bool = True) -> tuple[Detector, ...]:
    """The dictionary detectors of the rules stage; ``min_score=0`` keeps every weak candidate."""
    return (
        NameLexiconDetector(min_score=min_score, fuzzy=fuzzy),
        PlaceLexiconDetector(min_score=min_score),
        HospitalShapeDetector(min_score=min_score),
        OrganizationShapeDetector(min_score=min_score),
        KnownIdentifierDetector(fuzzy=fuzzy),
    )


def preload() -> None:
    """Load every lazily loaded table now (lexicons, automata, word frequencies, drug names), e.g.
    before timing or forking workers; otherwise the first documents pay for it."""
    from deident.detect.lexicon.data import load_drug_names, load_veto_terms
    from deident.detect.lexicon.detectors import _heading_names, document_matcher
    from deident.detect.lexicon.fuzzy import name_index
    from deident.text.wordfrequency import table_zipf

    document_matcher()
    _heading_names()
    name_index()
    table_zipf("the")
    load_drug_names()
    load_veto_terms()


__all__ = [
    "HospitalShapeDetector",
    "KnownIdentifierDetector",
    "NameLexiconDetector",
    "OrganizationShapeDetector",
    "PlaceLexiconDetector",
    "lexicon_detectors",
    "preload",
]
