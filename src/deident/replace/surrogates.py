"""Surrogate generators per category. Each draw is seeded from the HMAC of the value (a faker
instance re-seeded per value, never global random state), so a value always gets the same draw."""

from __future__ import annotations

import functools
import string
from typing import TYPE_CHECKING

import regex

from deident.core.labels import Category, Label
from deident.replace.names import name_pools
from deident.replace.shape import reshape

if TYPE_CHECKING:  # faker is imported when a surrogate is first drawn: tag mode never needs it
    from faker import Faker

# Facilities by kind: the words that mark the kind in a name, and generic forms of names of that kind
# ({last}: a surname, {first}: a first name, {n}: a floor number). The first marker found decides.
FACILITY_KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "nursing home": (
        ("nursing home", "nursing facility", "nursing center", "skilled nursing", "snf", "rest home", "manor",
         "nursing and rehab", "nursing and rehabilitation", "nursing rehab",
         "assisted living", "long term care", "care center", "retirement home"),
        ("{last} Nursing Home", "{last} Manor", "{last} Nursing and Rehabilitation Center", "{last} House"),
    ),
    "rehab": (
        ("rehabilitation", "rehab"),
        ("{last} Rehabilitation Hospital", "{last} Rehabilitation Center", "{last} Rehab"),
    ),
    "clinic": (
        ("clinic", "health center", "health centre", "medical group", "practice", "associates", "urgent care"),
        ("{last} Clinic", "{last} Family Health Center", "{last} Community Health Center", "{last} Medical Group"),
    ),
    "unit": (
        ("unit", "ward", "floor", "wing", "pod", "icu", "micu", "sicu", "ccu", "nicu", "picu"),
        ("{last} {n}", "{last} Unit", "{last} {n} West", "{last} {n} East"),
    ),
    "hospital": (
        ("hospital", "medical center", "medical centre", "med ctr", "infirmary", "hosp", "sanatorium", "hospice"),
        ("{last} Hospital", "{last} Memorial Hospital", "{last} General Hospital", "St. {first} Hospital",
         "{last} Regional Medical Center", "{last} Medical Center"),
    ),
}  # fmt: skip
# Words of facility names that name no one (a surrogate may repeat them: "X Nursing Home" -> "Y Nursing Home").
GENERIC_PLACE_WORDS = frozenset(
    word
    for markers, forms in FACILITY_KINDS.values()
    for phrase in (*markers, *forms)
    for word in phrase.casefold().replace(".", " ").split()
    if not word.startswith("{")
) | frozenset("st saint mt mount of the and center centre medical health care general memorial regional".split())
_SAINT = regex.compile(r"(?:st\.?|saint|ste\.?)\s", regex.IGNORECASE)
# Words of a phone number that are not digits to replace ("617-555-0199 ext 12", "x45", "pager 1234").
PHONE_WORDS = frozenset(
    "ext extn extension x ex tel telephone ph phone fax f pager pgr beeper bpr cell mobile home work office or and"
    " h w m c o t p".split()
)
# Words of e-mail addresses and URLs that name no one ("zq@example.org" -> "achang@example.net").
WEB_WORDS = frozenset(
    "http https www com org net edu gov mil info biz io us uk ca mail email example gmail yahoo hotmail aol outlook"
    " icloud live msn".split()
)
_IPV4_OCTET = regex.compile(r"(?<![\w.:])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])")
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
    from faker import Faker

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
        return reshape_value(label, original, seed)
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
        case Label.DEPARTMENT:
            value = _institution(original, fake, default_kind="unit")
        case Label.ORGANIZATION:
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
            is_facility = _has_institution_word(original) or _SAINT.match(stripped) is not None
            value = _institution(original, fake) if is_facility else fake.city()
        case _:
            value = fake.city()
    return value


def _looks_like_abbreviation(text: str) -> bool:
    return 1 < len(text) <= 4 and text.isalpha() and (text.isupper() or text.islower())


def reshape_value(label: Label, original: str, seed: int) -> str:
    """New digits and letters in the layout of ``original``, valid for its label: a phone number keeps
    its extension words, an IP address stays a valid address (octets up to 255, hexadecimal IPv6)."""
    if label in (Label.PHONE, Label.FAX):
        return reshape(original, seed, keep_words=PHONE_WORDS)
    if label is Label.IPADDR:
        if ":" in original:
            return reshape(original, seed, hex_digits=True)
        return _IPV4_OCTET.sub(lambda m: _ipv4(m.group(0), seed), reshape(original, seed))
    return reshape(original, seed)


def _ipv4(original: str, seed: int) -> str:
    """Octets of the same widths, each at most 255 ("192.168.1.20" -> "203.114.7.91")."""
    octets = []
    state = seed
    for old in original.split("."):
        state = (state * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
        low, high = {1: (0, 9), 2: (10, 99)}.get(len(old), (100, 255))
        octets.append(str(low + (state >> 33) % (high - low + 1)))
    return ".".join(octets)


def facility_kind(text: str) -> str | None:
    """The kind of facility a name names ("nursing home", "rehab", "clinic", "unit", "hospital"), if any."""
    words = " " + " ".join(regex.findall(r"[^\W_]+", text.casefold())) + " "
    for kind, (markers, _) in FACILITY_KINDS.items():
        if any(f" {marker} " in words for marker in markers):
            return kind
    return None


def _has_institution_word(text: str) -> bool:
    return facility_kind(text) is not None


def _institution(original: str, fake: Faker, default_kind: str | None = None) -> str:
    """A facility name of the same kind: the original's own head ("Nursing Home", "Medical Center")
    after a new name, or a generic form of its kind."""
    stripped = original.strip()
    low = " ".join(regex.findall(r"[^\W_]+", stripped.casefold()))
    kind = facility_kind(stripped) or default_kind
    if kind is not None and low in FACILITY_KINDS[kind][0]:  # only a kind of place ("Hospital"): another kind
        others = [k for k in FACILITY_KINDS if k != kind and k != "unit"]
        return others[fake.random_int(0, len(others) - 1)].title()
    last = _surname(fake)
    name = f"St. {fake.first_name()}" if _SAINT.match(stripped) else last
    if kind is None:  # a name without its head noun ("Holy Cross" of "Holy Cross Hospital", "St. Anne's")
        return name + ("'s" if _SAINT.match(stripped) and regex.search(r"['’]s\Z", stripped) else "")
    markers, forms = FACILITY_KINDS[kind]
    words = stripped.split()
    for size in (3, 2, 1):  # keep the original's own head as written, and a floor number before it
        head = " ".join(words[-size:])
        if len(words) > size and " ".join(regex.findall(r"[^\W_]+", head.casefold())) in markers:
            numbers = "".join(f" {fake.random_int(2, 12)}" for word in words[:-size] if word.isdigit())
            return f"{name}{numbers} {head}"
    form = forms[fake.random_int(0, len(forms) - 1)]
    return form.format(last=last, first=fake.first_name(), n=fake.random_int(2, 12))


def _surname(fake: Faker) -> str:
    """A surname that is not itself a word of facility names ("Ward", "House", "Manor")."""
    while (last := fake.last_name()).casefold() in GENERIC_PLACE_WORDS:
        pass
    return last
