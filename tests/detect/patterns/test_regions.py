"""The region codes and names that the location and postcode rules share."""

from __future__ import annotations

from deident.detect.patterns.regions import CA_PROVINCE_CODES, US_STATE_CODES, US_STATE_NAMES


def test_us_states_territories_and_the_district() -> None:
    assert {"MA", "TX", "PR", "GU", "DC"} <= set(US_STATE_CODES)
    assert {"Massachusetts", "Puerto Rico", "District of Columbia"} <= set(US_STATE_NAMES)
    assert len(US_STATE_CODES) == len(set(US_STATE_CODES)) == len(US_STATE_NAMES)


def test_canada_posts_thirteen_province_and_territory_codes() -> None:
    assert len(set(CA_PROVINCE_CODES)) == 13
    assert {"ON", "QC", "BC", "NU", "YT"} <= set(CA_PROVINCE_CODES)
