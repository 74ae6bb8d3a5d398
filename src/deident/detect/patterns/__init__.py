"""High-sensitivity pattern detectors, one per PHI family (rules as data, see ``base``)."""

from __future__ import annotations

from deident.core.pipeline import Detector
from deident.detect.patterns.ages import age_detector
from deident.detect.patterns.base import CombinedPatternDetector, Hit, Pattern, PatternDetector
from deident.detect.patterns.contact import contact_detector
from deident.detect.patterns.dates import date_detector
from deident.detect.patterns.ids import id_detector
from deident.detect.patterns.locations import location_detector
from deident.detect.patterns.names import name_detector
from deident.detect.patterns.professions import profession_detector


def pattern_detectors() -> tuple[Detector, ...]:
    """All pattern detectors, in a fixed order: date, contact, id, age, location, name, profession."""
    return (
        date_detector(),
        contact_detector(),
        id_detector(),
        age_detector(),
        location_detector(),
        name_detector(),
        profession_detector(),
    )


def combined_pattern_detector() -> CombinedPatternDetector:
    """Every family of ``pattern_detectors()`` in one pass: the same spans, with far fewer scans of the text."""
    families = tuple(d for d in pattern_detectors() if isinstance(d, PatternDetector))
    return CombinedPatternDetector(families)


__all__ = [
    "CombinedPatternDetector",
    "Hit",
    "Pattern",
    "PatternDetector",
    "age_detector",
    "combined_pattern_detector",
    "contact_detector",
    "date_detector",
    "id_detector",
    "location_detector",
    "name_detector",
    "pattern_detectors",
    "profession_detector",
]
