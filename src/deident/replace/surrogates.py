"""Surrogate generators per category. Each draw is seeded from the HMAC of the value (a faker
instance re-seeded per value, never global random state), so a value always gets the same draw."""

from __future__ import annotations

import functools
import string

from faker import Faker

from deident.core.labels import Category, Label
from deident.replace.names import name_pools
from deident.replace.shape import reshape

_INSTITUTION_WORDS = ("hospital", "medical center", "clinic", "health center", "infirmary", "nursing home", "rehab")
_HOSPITAL_SUFFIXES = ("Hospital", "Medical Center", "General Hospital", "Memorial Hospital", "Regional Medical Center")
# Labels whose values keep their exact layout with new digits and letters.
RESHAPED = frozenset(
    {
        Label.PHONE,
        Label.FAX,
        Label.SSN,
        Label.MEDICALRECORD,
        Label.HEALTHPLAN,
        Label.ACCOUNT,
        Label.LICENSE,
        Label.VEHICLE,
        Label.DEVICE,
        Label.BIOID,
        Label.IDNUM,
        Label.ZIP,
        Label.ROOM,
        Label.IPADDR,
    }
)


@functools.lru_cache(maxsize=1)
def _faker() -> Faker:
    return Faker("en_US")


def draw_name_token(kind: str, seed: int) -> str:
    """A first name of the same gender, a last name, or an initial letter."""
    if kind == "initial":
        return string.ascii_uppercase[seed % 26]
    pool = name_pools()[kind]
    return pool[seed % len(pool)]


def draw(label: Label, original: str, seed: int) -> str:
    """A plausible replacement for ``original`` of type ``label`` (names and dates are handled
    by their own modules). Faker values come in their natural case; callers apply the original's."""
    if label in RESHAPED:
        return reshape(original, seed)
    fake = _faker()
    fake.seed_instance(seed)
    stripped = original.strip()
    if label.category is Category.LOCATION and _looks_like_abbreviation(stripped):
        return reshape(original, seed)
    match label:
        case Label.HOSPITAL:
            value = _institution(original, fake)
        case Label.CITY:
            value = fake.city()
        case Label.STATE:
            value = fake.state_abbr() if len(stripped) == 2 else fake.state()
        case Label.COUNTRY:
            value = fake.country()
        case Label.STREET:
            value = fake.street_address()
        case Label.DEPARTMENT | Label.ORGANIZATION:
            value = fake.company()
        case Label.PROFESSION:
            value = fake.job()
        case Label.USERNAME:
            value = fake.user_name()
        case Label.EMAIL:
            return fake.email()
        case Label.URL:
            return fake.url()
        case Label.LOCATION_OTHER:
            value = _institution(original, fake) if _has_institution_word(original) else fake.city()
        case _:
            value = fake.city()
    return value


def _looks_like_abbreviation(text: str) -> bool:
    return 1 < len(text) <= 4 and text.isalpha() and (text.isupper() or text.islower())


def _has_institution_word(text: str) -> bool:
    low = text.casefold()
    return any(word in low for word in _INSTITUTION_WORDS)


def _institution(original: str, fake: Faker) -> str:
    low = original.casefold().strip()
    if low in _INSTITUTION_WORDS:  # only a kind of place ("Hospital"): another kind
        others = [w for w in _INSTITUTION_WORDS if not set(w.split()) & set(low.split())]
        return others[fake.random_int(0, len(others) - 1)].title()
    suffix = next((w.title() for w in _INSTITUTION_WORDS if low.endswith(w)), None)
    if suffix is None:
        suffix = _HOSPITAL_SUFFIXES[fake.random_int(0, len(_HOSPITAL_SUFFIXES) - 1)]
    return f"{fake.last_name()} {suffix}"
