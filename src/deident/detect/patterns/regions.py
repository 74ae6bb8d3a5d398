"""The states and territories of the US and the provinces and territories of Canada, by code and by name: what the
location and postcode rules read beside a town (:mod:`deident.detect.patterns.locations`,
:mod:`deident.detect.patterns.postcodes`)."""

from __future__ import annotations

import us

# The postal codes and names of the US states and territories, and of the District of Columbia (which newer releases of
# ``us`` list among them, older ones not: each once).
US_STATE_CODES: tuple[str, ...] = tuple(dict.fromkeys((*(s.abbr for s in us.states.STATES_AND_TERRITORIES), "DC")))
US_STATE_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys((*(s.name for s in us.states.STATES_AND_TERRITORIES), "District of Columbia"))
)
# Canada Post's codes of the provinces and territories.
CA_PROVINCE_CODES: tuple[str, ...] = ("AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT")

__all__ = ["CA_PROVINCE_CODES", "US_STATE_CODES", "US_STATE_NAMES"]
