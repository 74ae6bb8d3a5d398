"""High-sensitivity pattern detectors, one per PHI family (rules as data, see ``base``)."""

from __future__ import annotations

from deident.core.pipeline import Detector
from deident.detect.patterns.ages import age_detector
from deident.detect.patterns.base import Hit, Pattern, PatternDetector
from deident.detect.patterns.contact import contact_detector
from deident.detect.patterns.dates import date_detector
from deident.detect.patterns.ids import id_detector
from deident.detect.patterns.locations import location_detector
from deident.detect.patterns.names import name_detector


def pattern_detectors() -> tuple[Detector, ...]:
    """All pattern detectors, in a fixed order: date, contact, id, age, location, name."""
    return (date_detector(), contact_detector(), id_detector(), age_detector(), location_detector(), name_detector())


__all__ = [
    "Hit",
    "Pattern",
    "PatternDetector",
    "age_detector",
    "contact_detector",
    "date_detector",
    "id_detector",
    "location_detector",
    "name_detector",
    "pattern_detectors",
]
