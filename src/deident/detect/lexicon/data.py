"""Lexicon data shipped as package data: loaded lazily, once per process, exceptions applied."""

from __future__ import annotations

import gzip
from functools import cache, lru_cache
from importlib import resources

from deident.core.errors import ConfigurationError
from deident.core.labels import Label

LEXICON_PACKAGE = "deident.resources.lexicons"

# Lexicons of the dictionary detectors and the pattern rules (file stems). pycountry is a build-time dependency only:
# the country codes (web domains) and language names the rules read are shipped as lists.
LEXICON_NAMES: tuple[str, ...] = (
    "first_names",
    "last_names",
    "cities",
    "us_counties",
    "states",
    "countries",
    "company_suffixes",
    "common_words",
    "country_codes",
    "languages",
)


def _read_lines(filename: str) -> list[str]:
    """Non-empty, non-comment lines of a package data file (plain or .gz)."""
    root = resources.files(LEXICON_PACKAGE)
    for candidate in (filename, f"{filename}.gz"):
        path = root / candidate
        if path.is_file():
            raw = path.read_bytes()
            if candidate.endswith(".gz"):
                raw = gzip.decompress(raw)
            text = raw.decode("utf-8")
            return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    raise ConfigurationError(f"lexicon data file {filename!r} is missing from {LEXICON_PACKAGE}")


@cache
def load_lexicon(name: str) -> frozenset[str]:
    """The lower-case items of lexicon ``name`` minus its exceptions list."""
    if name not in LEXICON_NAMES:
        raise ConfigurationError(f"unknown lexicon {name!r}; known: {', '.join(LEXICON_NAMES)}")
    items = {line.lower() for line in _read_lines(f"{name}.txt")}
    try:
        exceptions = {line.lower() for line in _read_lines(f"{name}.exceptions.txt")}
    except ConfigurationError:
        exceptions = set()
    return frozenset(items - exceptions)


@lru_cache(maxsize=1)
def load_veto_terms() -> dict[str, str]:
    """Clinical terms that look like names or places: lower-case term -> kind (eponym, device, ...)."""
    out: dict[str, str] = {}
    for line in _read_lines("veto_terms.tsv"):
        term, _, kind = line.partition("\t")
        out[term.strip().lower()] = kind.strip() or "clinical"
    return out


@lru_cache(maxsize=1)
def load_hospital_shapes() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(prefixes, suffixes) of hospital names such as "St. X" and "X Medical Center"."""
    shapes = _hospital_rows()
    return tuple(shapes.get("prefix", ())), tuple(shapes.get("suffix", ()))


@lru_cache(maxsize=1)
def load_hospital_name_suffixes() -> tuple[str, ...]:
    """Heads that name a practice only after a listed surname or place ("Evans Surgery", not "Cardiac Surgery")."""
    return tuple(_hospital_rows().get("name_suffix", ()))


@lru_cache(maxsize=1)
def load_hospital_names() -> tuple[str, ...]:
    """Multi-word names shared by many hospitals ("sacred heart", "good samaritan")."""
    return tuple(_hospital_rows().get("name", ()))


@lru_cache(maxsize=1)
def _hospital_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in _read_lines("hospital_shapes.tsv"):
        kind, _, word = line.partition("\t")
        rows.setdefault(kind.strip(), []).append(word.strip().lower())
    return rows


@lru_cache(maxsize=1)
def load_states_and_countries() -> dict[str, Label]:
    """Lower-case names of countries and US states, each with its label: places that Safe Harbor leaves and that
    stage 1 relabels. A name on both lists is the state ("Georgia" in US notes)."""
    table = dict.fromkeys(load_lexicon("countries"), Label.COUNTRY)
    table.update(dict.fromkeys(load_lexicon("states"), Label.STATE))
    return table


@lru_cache(maxsize=1)
def load_stop_words() -> frozenset[str]:
    """Function words that never start or end a place or organisation name."""
    return frozenset(line.lower() for line in _read_lines("stop_words.txt"))


@lru_cache(maxsize=1)
def load_specialty_words() -> frozenset[str]:
    """Words of medical specialties and services ("cardiology", "sleep", "medicine"): a department named only
    with them ("the cardiology clinic") names no facility."""
    return frozenset(line.lower() for line in _read_lines("specialty_words.txt"))


@lru_cache(maxsize=1)
def load_drug_names() -> frozenset[str]:
    """Lower-case drug names and synonyms, minus the few that are also given names or surnames
    ("Camila", "Hana").

    The list ships as drug_names.txt, written by scripts/build_lexicons.py from the PyPI package
    drug-named-entity-recognition (MIT licence, Fast Data Science Ltd; data from DrugBank open data
    (CC0), MeSH, MedlinePlus, NHS, PubChem and Wikipedia (CC BY-SA 3.0)); names of at most three
    words and 40 characters. Importing that package takes seconds, so it is a build-time dependency.
    """
    drugs = set(_read_lines("drug_names.txt"))
    return frozenset(drugs - load_lexicon("first_names") - load_lexicon("last_names"))
