"""PHI values for one note: a consistent cast of people and places, and the surface shapes
(date formats, age phrasings, phone shapes, ID shapes) in which a note mentions them.

Every function returns pieces ``(text, label-or-None)`` so that context words around a value
("Dr. ", "'s", ", MD") stay outside the gold span.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from dataclasses import dataclass

from faker import Faker

from deident.core.labels import Label
from deident.synth.builder import Piece
from deident.synth.vocab import NAME_LOCALE_WEIGHTS, NAME_LOCALES, faker_for, faker_jobs, us_cities, words, world_cities

RELATIONS_F = ("wife", "daughter", "mother", "sister", "niece", "granddaughter", "aunt", "girlfriend", "partner")
RELATIONS_M = ("husband", "son", "father", "brother", "nephew", "grandson", "uncle", "boyfriend", "partner")
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class Person:
    first: str
    middle: str
    last: str
    female: bool
    relation: str = ""  # for relatives: "wife", "son", ...


@dataclass(frozen=True)
class Cast:
    """The people and places one note talks about, drawn once so that mentions repeat."""

    patient: Person
    doctors: tuple[Person, ...]
    relatives: tuple[Person, ...]
    hospital_city: tuple[str, str]
    home_city: tuple[str, str]
    note_date: dt.date
    age: int


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _person(fake: Faker, rng: random.Random, female: bool, relation: str = "") -> Person:
    vocab = words()
    locale = rng.choices(NAME_LOCALES, NAME_LOCALE_WEIGHTS)[0]
    local = faker_for(locale) if locale != "en_US" else fake
    if locale != "en_US":
        local.seed_instance(rng.getrandbits(48))
    draw = rng.random()
    if draw < 0.12:
        first = rng.choice(vocab["word_first_names"])
    elif draw < 0.35:
        first = rng.choice(vocab["common_first_names_f" if female else "common_first_names_m"])
    else:
        first = local.first_name_female() if female else local.first_name_male()
    draw = rng.random()
    last = rng.choice(vocab["word_last_names"]) if draw < 0.12 else local.last_name()
    if rng.random() < 0.08:
        last = f"{last}-{local.last_name()}"
    middle = local.first_name_female() if female else local.first_name_male()
    return Person(first.split()[0], middle.split()[0], last, female, relation)


def make_cast(fake: Faker, rng: random.Random) -> Cast:
    patient = _person(fake, rng, rng.random() < 0.5)
    doctors = tuple(_person(fake, rng, rng.random() < 0.45) for _ in range(4))
    relatives = []
    for _ in range(rng.randint(2, 4)):
        female = rng.random() < 0.55
        relation = rng.choice(RELATIONS_F if female else RELATIONS_M)
        relatives.append(_person(fake, rng, female, relation))
    cities = us_cities()
    note_date = dt.date(2000, 1, 1) + dt.timedelta(days=rng.randrange(0, 365 * 25))
    age = rng.randint(90, 104) if rng.random() < 0.12 else rng.randint(18, 89)
    return Cast(patient, doctors, tuple(relatives), rng.choice(cities), rng.choice(cities), note_date, age)


# --- names ----------------------------------------------------------------------------------------

NAME_FORMS = (
    "full", "first", "last", "title", "lastfirst", "initial", "middle", "initials", "poss", "dr", "sig", "first_last",
)  # fmt: skip


def _misspell(name: str, rng: random.Random) -> str:
    """A typo as forum writers make them: a swapped, dropped or doubled letter."""
    if len(name) < 4:
        return name
    i = rng.randrange(1, len(name) - 2)
    kind = rng.randrange(3)
    if kind == 0:
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]
    if kind == 1:
        return name[:i] + name[i + 1 :]
    return name[:i] + name[i] + name[i:]


def name_pieces(person: Person, form: str, label: Label, rng: random.Random) -> list[Piece]:
    """A mention of ``person`` in the requested form; "any" picks a form suited to the label."""
    if form == "any":
        if label is Label.DOCTOR:
            form = rng.choice(("dr", "dr", "full", "sig", "last", "initial", "lastfirst", "first_last"))
        elif label is Label.PATIENT:
            form = rng.choice(("full", "title", "title", "last", "first", "lastfirst", "poss", "initial", "middle"))
        else:
            form = rng.choice(("first", "first", "full", "title", "poss"))
    title = "Ms." if person.female else "Mr."
    if person.female and rng.random() < 0.3:
        title = "Mrs."
    full = f"{person.first} {person.last}"
    match form:
        case "first":
            return [(person.first, label)]
        case "last":
            return [(person.last, label)]
        case "full" | "first_last":
            return [(full, label)]
        case "title":
            return [(f"{title} ", None), (person.last, label)]
        case "lastfirst":
            return [(f"{person.last}, {person.first}", label)]
        case "initial":
            return [(f"{person.first[0]}. {person.last}", label)]
        case "middle":
            return [(f"{person.first} {person.middle[0]}. {person.last}", label)]
        case "initials":
            return [(f"{person.first[0]}{person.middle[0]}{person.last[0]}".upper(), label)]
        case "poss":
            return [(person.last if rng.random() < 0.5 else person.first, label), ("'s", None)]
        case "dr":
            return [(rng.choice(("Dr. ", "Dr ", "dr. ", "DR. ")), None), (person.last, label)]
        case "sig":
            return [
                (f"{person.first} {person.middle[0]}. {person.last}", label),
                (rng.choice((", MD", ", M.D.", " MD", ", RN", ", NP", ", PA-C")), None),
            ]
        case "typo":
            return [(_misspell(rng.choice((person.first, person.last)), rng), label)]
        case "lower":
            return [(rng.choice((person.first, full)).lower(), label)]
    raise ValueError(f"unknown name form {form!r}")


# --- ages and dates ---------------------------------------------------------------------------------

AGE_FORMS = ("yo", "y/o", "year-old", "aged", "yo_tight", "years", "decade", "bare")


def age_pieces(age: int, form: str, rng: random.Random, female: bool = False) -> list[Piece]:
    value = str(age)
    if form == "any":
        form = rng.choice(AGE_FORMS)
    match form:
        case "yo":
            return [(value, Label.AGE), (" yo", None)]
        case "y/o":
            return [(value, Label.AGE), (rng.choice((" y/o", " y.o.", " yr old")), None)]
        case "year-old":
            return [(value, Label.AGE), (rng.choice(("-year-old", " year old", "-yr-old")), None)]
        case "aged":
            return [(rng.choice(("aged ", "age ", "age: ")), None), (value, Label.AGE)]
        case "yo_tight":
            return [(value, Label.AGE), (rng.choice(("yo", "y/o", "yo", "yr")), None)]
        case "years":
            return [(value, Label.AGE), (" years", None)]
        case "decade":
            return [("in her " if female else "in his ", None), (f"{age // 10 * 10}s", Label.AGE)]
        case "bare":
            return [(value, Label.AGE)]
    raise ValueError(f"unknown age form {form!r}")


DATE_FORMS = (
    "mdy", "mdy_pad", "md", "mdy_short", "iso", "long", "long_ord", "month_ord", "dmy", "month_year",
    "year", "apos_year", "weekday", "mon_d", "dash", "dmy_dot", "md_dash", "ord_of",
)  # fmt: skip


def format_date(day: dt.date, form: str, rng: random.Random | None = None) -> str:
    """``day`` written in ``form`` ("any": one of DATE_FORMS, drawn with ``rng``, which also picks between
    the variants of a form; without it the first variant)."""
    if form == "any":
        form = (rng or random.Random(0)).choice(DATE_FORMS)
    month, mon = MONTHS[day.month - 1], MONTHS[day.month - 1][:3]
    match form:
        case "mdy":
            return f"{day.month}/{day.day}/{day.year}"
        case "mdy_pad":
            return f"{day.month:02d}/{day.day:02d}/{day.year}"
        case "md":
            return f"{day.month}/{day.day}"
        case "mdy_short":
            return f"{day.month}/{day.day}/{day.year % 100:02d}"
        case "iso":
            return day.isoformat()
        case "long":
            return f"{month} {day.day}, {day.year}"
        case "long_ord":
            return f"{month} {_ordinal(day.day)}"
        case "month_ord":
            return f"{mon} {_ordinal(day.day)}"
        case "dmy":
            return f"{day.day} {mon} {day.year}"
        case "month_year":
            return f"{month} {day.year}" if rng is None or rng.random() < 0.7 else f"{month} of {day.year}"
        case "year":
            return str(day.year)
        case "apos_year":
            return f"'{day.year % 100:02d}"
        case "weekday":
            return WEEKDAYS[day.weekday()]
        case "mon_d":
            return f"{mon} {day.day}"
        case "dash":
            return f"{day.month:02d}-{day.day:02d}-{day.year}"
        case "dmy_dot":
            return f"{day.day:02d}.{day.month:02d}.{day.year}"
        case "md_dash":
            return f"{day.month}-{day.day}"
        case "ord_of":
            return f"{_ordinal(day.day)} of {month}"
        # Forms that only re-identification writes (it keeps a gold date's own shape).
        case "md_pad":
            return f"{day.month:02d}/{day.day:02d}"
        case "yy":
            return f"{day.year % 100:02d}"
        case "my":
            return f"{day.month}/{day.year}"
        case "dmony":
            return f"{day.day:02d}-{mon}-{day.year}"
        case "long_ord_year":
            return f"{month} {_ordinal(day.day)}, {day.year}"
        case "month":
            return month
        case "ordinal":
            return _ordinal(day.day)
    raise ValueError(f"unknown date form {form!r}")


# --- contact and identifiers ------------------------------------------------------------------------


def digits(rng: random.Random, n: int) -> str:
    """``n`` random decimal digits (a leading zero allowed)."""
    return "".join(rng.choice(string.digits) for _ in range(n))


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_uppercase) for _ in range(n))


def phone(rng: random.Random) -> str:
    area, exch, line = f"{rng.randint(201, 989)}", f"{rng.randint(200, 999)}", digits(rng, 4)
    shapes = (
        f"({area}) {exch}-{line}",
        f"{area}-{exch}-{line}",
        f"{area}.{exch}.{line}",
        f"{area} {exch} {line}",
        f"{exch}-{line}",
        f"1-{area}-{exch}-{line}",
        f"+1 {area} {exch} {line}",
        f"{area}{exch}{line}",
        f"({area}){exch}-{line}",
        f"x{digits(rng, 1)}-{digits(rng, 4)}",
        f"{area}-{exch}-{line} ext {digits(rng, 3)}",
    )
    return rng.choice(shapes)


def identifier(label: Label, fake: Faker, rng: random.Random) -> str:
    """An identifier value shaped like the kind ``label`` names (context words come from templates)."""
    match label:
        case Label.SSN:
            return fake.ssn() if rng.random() < 0.7 else digits(rng, 9)
        case Label.MEDICALRECORD:
            return rng.choice(
                (digits(rng, 7), digits(rng, 8), f"{digits(rng, 3)}-{digits(rng, 2)}-{digits(rng, 2)}",
                 f"{digits(rng, 2)}-{digits(rng, 6)}", f"{_letters(rng, 1)}{digits(rng, 7)}")
            )  # fmt: skip
        case Label.HEALTHPLAN:
            return rng.choice(
                (f"{_letters(rng, 3)}{digits(rng, 9)}", f"{digits(rng, 1)}{_letters(rng, 2)}{digits(rng, 1)}-"
                 f"{_letters(rng, 2)}{digits(rng, 1)}-{_letters(rng, 2)}{digits(rng, 2)}", digits(rng, 11) + "A")
            )  # fmt: skip
        case Label.ACCOUNT:
            return rng.choice((digits(rng, 10), f"{digits(rng, 4)}-{digits(rng, 6)}", fake.bban()[:12]))
        case Label.LICENSE:
            return rng.choice(
                (f"{_letters(rng, 2)}{digits(rng, 7)}", digits(rng, 10), f"{_letters(rng, 1)}{digits(rng, 6)}",
                 f"{_letters(rng, 1)}{digits(rng, 3)}-{digits(rng, 4)}-{digits(rng, 4)}")
            )  # fmt: skip
        case Label.VEHICLE:
            return fake.license_plate() if rng.random() < 0.6 else fake.vin()
        case Label.DEVICE:
            return rng.choice(
                (f"{_letters(rng, 3)}{digits(rng, 6)}", f"{digits(rng, 2)}-{digits(rng, 5)}",
                 f"{_letters(rng, 2)}-{digits(rng, 4)}-{_letters(rng, 1)}")
            )  # fmt: skip
        case Label.BIOID:
            return rng.choice(
                (f"S{digits(rng, 2)}-{digits(rng, 5)}", f"{_letters(rng, 2)}{digits(rng, 2)}-{digits(rng, 4)}",
                 f"{digits(rng, 2)}:{_letters(rng, 1)}{digits(rng, 5)}")
            )  # fmt: skip
        case Label.IDNUM:
            return rng.choice((digits(rng, 6), digits(rng, 5), f"{_letters(rng, 1)}{digits(rng, 5)}",
                               f"{digits(rng, 4)}-{digits(rng, 3)}"))  # fmt: skip
        case Label.ROOM:
            return rng.choice(
                (f"{rng.randint(1, 12)}{digits(rng, 2)}", f"{rng.randint(2, 9)}{digits(rng, 2)}{rng.choice('AB')}",
                 str(rng.randint(1, 30)), f"{rng.randint(1, 20)}-{digits(rng, 2)}")
            )  # fmt: skip
    raise ValueError(f"no identifier shape for {label}")


def username(person: Person, fake: Faker, rng: random.Random) -> str:
    shapes = (
        fake.user_name(),
        f"{person.first.lower()}{digits(rng, 2)}",
        f"{person.first[0].lower()}{person.last.lower().replace('-', '')}",
        f"{fake.word()}_{fake.word()}{rng.randint(1, 99)}",
        f"{person.first}{person.last[0]}",
        f"{fake.word().capitalize()}{fake.word().capitalize()}",
    )
    return rng.choice(shapes)


def profession(rng: random.Random) -> str:
    if rng.random() < 0.25:
        return rng.choice(faker_jobs()).lower()
    return rng.choice(words()["professions"])


def hospital(cast: Cast, rng: random.Random) -> str:
    vocab = words()
    city = cast.hospital_city[0]
    stem = rng.choice(
        (
            city,
            city,
            cast.doctors[-1].last,
            f"St. {cast.doctors[-1].first}'s",
            f"{city} {rng.choice(vocab['word_last_names'])}",
        )
    )
    return f"{stem} {rng.choice(vocab['hospital_suffixes'])}"


def department(cast: Cast, rng: random.Random) -> str:
    vocab = words()
    specialty = rng.choice(vocab["specialties"])
    return rng.choice(
        (f"{specialty} Clinic", f"{specialty} Associates", f"{rng.choice(vocab['ward_names'])} {rng.randint(3, 22)}",
         f"{cast.doctors[-2].last} {specialty} Center", f"{specialty} Department", f"{specialty} Unit")
    )  # fmt: skip


def organization(cast: Cast, fake: Faker, rng: random.Random) -> str:
    if rng.random() < 0.55:
        return fake.company()
    stem = rng.choice((cast.home_city[0], fake.last_name()))
    return f"{stem} {rng.choice(words()['org_suffixes'])}"


def location_other(cast: Cast, fake: Faker, rng: random.Random) -> str:
    template = rng.choice(words()["landmarks"])
    return template.replace("{last}", fake.last_name()).replace("{city}", cast.home_city[0])


def country(fake: Faker, rng: random.Random) -> str:
    return rng.choice(words()["countries"]) if rng.random() < 0.75 else fake.country()


def foreign_city(rng: random.Random) -> tuple[str, str]:
    return rng.choice(world_cities())
