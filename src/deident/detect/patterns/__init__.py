"""High-sensitivity pattern detectors, one per PHI family.

Rules as data: the vocabulary in ``rules`` (a rule and its speed hints; ``hints`` derives those that follow from
the regex), the scan planner in ``plan`` and the detectors that run tables of rules in ``detector``; one module
per family holds its rules and validators.
"""

from __future__ import annotations

from deident.core.pipeline import Detector
from deident.detect.patterns.ages import age_detector
from deident.detect.patterns.contact import contact_detector
from deident.detect.patterns.dates import date_detector
from deident.detect.patterns.detector import CombinedPatternDetector, PatternDetector
from deident.detect.patterns.fields import field_detector
from deident.detect.patterns.ids import id_detector
from deident.detect.patterns.locations import location_detector
from deident.detect.patterns.names import name_detector
from deident.detect.patterns.professions import profession_detector
from deident.detect.patterns.rules import Hit, Pattern, ScanHints


def pattern_detectors(phone_regions: tuple[str, ...] | None = None) -> tuple[Detector, ...]:
    """All pattern detectors, in a fixed order: date, contact, id, age, location, name, field, profession; phone
    numbers without a country code are read in ``phone_regions`` (default: the contact family's)."""
    return (
        date_detector(),
        contact_detector() if phone_regions is None else contact_detector(phone_regions),
        id_detector(),
        age_detector(),
        location_detector(),
        name_detector(),
        field_detector(),
        profession_detector(),
    )


def preload() -> None:
    """Load the tables the pattern rules otherwise load on their first use (the language names and country codes), as
    :func:`deident.detect.lexicon.preload` does for the lexicons."""
    from deident.detect.patterns.contact import _address_domains
    from deident.detect.patterns.names import _language_names

    _language_names()
    _address_domains()


def combined_pattern_detector(phone_regions: tuple[str, ...] | None = None) -> CombinedPatternDetector:
    """Every family of ``pattern_detectors()`` in one pass: the same spans, with far fewer scans of the text."""
    families = tuple(d for d in pattern_detectors(phone_regions) if isinstance(d, PatternDetector))
    return CombinedPatternDetector(families)


__all__ = [
    "CombinedPatternDetector",
    "Hit",
    "Pattern",
    "PatternDetector",
    "ScanHints",
    "age_detector",
    "combined_pattern_detector",
    "contact_detector",
    "date_detector",
    "field_detector",
    "id_detector",
    "location_detector",
    "name_detector",
    "pattern_detectors",
    "preload",
    "profession_detector",
]
