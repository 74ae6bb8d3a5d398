"""Note templates as data, and their rendering into a :class:`NoteBuilder`.

A style file (resources/synth/<style>.json) lists blocks; each block is kept with probability
``p`` and renders ``n`` = [min, max] of its ``options`` joined by ``join``. Pools shared by all
styles live in resources/synth/pools.json. Inside a template, braces hold a slot:

- ``{LABEL}``, ``{LABEL:form}``, ``{LABEL.i:form}``: a PHI value with that gold label (``i`` picks a
  cast member: the attending is ``DOCTOR.0``; ``DATE.0`` is the note date, ``DATE.dob`` the birth date;
  ``AGE`` is the patient's age, ``AGE.x`` anyone's, ``AGE.old`` an elderly relative's);
- ``{ADDRESS}``, ``{CITYSTATE}``, ``{RELATION.i}``: compound or context slots (see ``phi_pieces``);
- ``{he}``, ``{his}``, ``{man}``, ``{sex}``, ``{title}``: words agreeing with the patient's sex;
- ``{lower_name}``: a non-PHI look-alike from :mod:`deident.synth.distractors`;
- ``{@pool}``: a random template from a pool, rendered recursively;
- ``{~a|b|c}``: one of the literal alternatives (not PHI).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from dataclasses import dataclass, field
from functools import cache

import regex
from faker import Faker

from deident.core.labels import Label
from deident.synth import phi
from deident.synth.builder import NoteBuilder, Piece
from deident.synth.distractors import GENERATORS
from deident.synth.vocab import read_text, state_names, us_cities, words

SLOT = regex.compile(r"\{([^{}]*)\}")
MAX_DEPTH = 6
SEX_WORDS: dict[str, tuple[str, str]] = {
    "he": ("she", "he"),
    "He": ("She", "He"),
    "his": ("her", "his"),
    "His": ("Her", "His"),
    "him": ("her", "him"),
    "man": ("woman", "man"),
    "male": ("female", "male"),
    "sex": ("F", "M"),
    "title": ("Ms.", "Mr."),
}
"""Slots for words that agree with the patient's sex (female form first); not PHI."""


@dataclass(frozen=True)
class Block:
    options: tuple[str, ...]
    p: float = 1.0
    n: tuple[int, int] = (1, 1)
    join: str = "\n"


@dataclass(frozen=True)
class Style:
    name: str
    blocks: tuple[Block, ...]
    block_join: str
    case_weights: tuple[tuple[str, float], ...]  # ("upper", 0.3), ...: whole-note case variants


@cache
def load_style(name: str) -> Style:
    data = json.loads(read_text(f"{name}.json"))
    blocks = tuple(
        Block(
            options=tuple(block["options"]),
            p=float(block.get("p", 1.0)),
            n=(int(block.get("n", [1, 1])[0]), int(block.get("n", [1, 1])[1])),
            join=str(block.get("join", "\n")),
        )
        for block in data["blocks"]
    )
    case = data.get("case", {})
    weights = tuple((key, float(case[key])) for key in ("upper", "lower") if key in case)
    return Style(name, blocks, str(data.get("block_join", "\n\n")), weights)


@cache
def load_pools() -> dict[str, tuple[str, ...]]:
    data = json.loads(read_text("pools.json"))
    pools = {key: tuple(value) for key, value in data.items() if not key.startswith("_")}
    pools["nonphi"] = words()["nonphi_sentences"]  # non-PHI uses of name-like words ("temp rose", "bill")
    return pools


@dataclass
class Renderer:
    """Renders templates for one note (one instance per note: it holds that note's generators)."""

    cast: phi.Cast
    fake: Faker
    rng: random.Random
    builder: NoteBuilder
    used: set[tuple[str, int]] = field(default_factory=set)  # pool templates used in this note

    def render(self, template: str, depth: int = 0) -> None:
        if depth > MAX_DEPTH:
            raise ValueError("template pools nest too deeply")
        position = 0
        for match in SLOT.finditer(template):
            self.builder.add(template[position : match.start()])
            self._slot(match.group(1), depth)
            position = match.end()
        self.builder.add(template[position:])

    def _slot(self, slot: str, depth: int) -> None:
        if slot.startswith("@"):
            self.render(self._from_pool(slot[1:]), depth + 1)
        elif slot.startswith("~"):
            self.render(self.rng.choice(slot[1:].split("|")), depth + 1)
        elif slot in SEX_WORDS:
            self.builder.add(SEX_WORDS[slot][0 if self.cast.patient.female else 1])
        elif slot[:1].islower():
            self.builder.add(GENERATORS[slot](self.rng))
        else:
            head, _, form = slot.partition(":")
            name, _, index = head.partition(".")
            self.builder.extend(self.phi_pieces(name, index, form or "any"))

    def _from_pool(self, name: str) -> str:
        """A template from the pool, avoiding (a few tries) one this note has used already."""
        pool = load_pools()[name]
        choice = self.rng.randrange(len(pool))
        for _ in range(3):
            if (name, choice) not in self.used:
                break
            choice = self.rng.randrange(len(pool))
        self.used.add((name, choice))
        return pool[choice]

    def _pick(self, people: tuple[phi.Person, ...], index: str) -> phi.Person:
        return people[int(index) % len(people)] if index else self.rng.choice(people)

    def _date(self, index: str) -> dt.date:
        if index == "0":
            return self.cast.note_date
        if index == "dob":
            return self.cast.note_date - dt.timedelta(days=365 * self.cast.age + self.rng.randrange(365))
        return self.cast.note_date - dt.timedelta(days=int(self.rng.expovariate(1 / 400)))

    def phi_pieces(self, name: str, index: str, form: str) -> list[Piece]:
        """Pieces for an upper-case slot; raises KeyError for an unknown slot name."""
        cast, fake, rng = self.cast, self.fake, self.rng
        match name:
            case "PATIENT":
                return phi.name_pieces(cast.patient, form, Label.PATIENT, rng)
            case "DOCTOR":
                return phi.name_pieces(self._pick(cast.doctors, index), form, Label.DOCTOR, rng)
            case "RELATIVE":
                person = self._pick(cast.relatives, index)
                if form == "rel":
                    return [(f"{person.relation} ", None), *phi.name_pieces(person, "first", Label.RELATIVE, rng)]
                return phi.name_pieces(person, form, Label.RELATIVE, rng)
            case "RELATION":
                return [(self._pick(cast.relatives, index).relation, None)]
            case "USERNAME":
                person = cast.patient if index == "0" else self._pick(cast.relatives + cast.doctors, "")
                return [(phi.username(person, fake, rng), Label.USERNAME)]
            case "PROFESSION":
                job = phi.profession(rng)
                if form == "a":
                    return [("an " if job[0].lower() in "aeiou" else "a ", None), (job, Label.PROFESSION)]
                return [(job, Label.PROFESSION)]
            case "HOSPITAL":
                return [(phi.hospital(cast, rng), Label.HOSPITAL)]
            case "DEPARTMENT":
                return [(phi.department(cast, rng), Label.DEPARTMENT)]
            case "ORGANIZATION":
                return [(phi.organization(cast, fake, rng), Label.ORGANIZATION)]
            case "LOCATION_OTHER":
                return [(phi.location_other(cast, fake, rng), Label.LOCATION_OTHER)]
            case "STREET":
                return [(fake.street_address(), Label.STREET)]
            case "CITY":
                return [(self._city(form)[0], Label.CITY)]
            case "STATE":
                return [(self._state(form, cast.home_city[1]), Label.STATE)]
            case "COUNTRY":
                return [(phi.country(fake, rng), Label.COUNTRY)]
            case "ZIP":
                return [(fake.zipcode_plus4() if rng.random() < 0.15 else fake.zipcode(), Label.ZIP)]
            case "ADDRESS":
                city, state = cast.home_city
                return [
                    (fake.street_address(), Label.STREET),
                    (rng.choice((", ", "\n", " ")), None),
                    (city, Label.CITY),
                    (rng.choice((", ", " ")), None),
                    (self._state("any", state), Label.STATE),
                    (rng.choice((" ", "  ", ", ")), None),
                    (fake.zipcode_plus4() if rng.random() < 0.15 else fake.zipcode(), Label.ZIP),
                ]
            case "CITYSTATE":
                city, state = self._city(form)
                return [(city, Label.CITY), (rng.choice((", ", " ")), None), (self._state("any", state), Label.STATE)]
            case "FOREIGN":
                city, country = phi.foreign_city(rng)
                return [(city, Label.CITY), (", ", None), (country, Label.COUNTRY)]
            case "AGE":
                age = cast.age if index == "" else rng.randint(62, 101) if index == "old" else rng.randint(2, 99)
                return phi.age_pieces(age, form, rng, cast.patient.female)
            case "DATE":
                return [(phi.format_date(self._date(index), form, rng), Label.DATE)]
            case "PHONE":
                return [(phi.phone(rng), Label.PHONE)]
            case "FAX":
                return [(phi.phone(rng), Label.FAX)]
            case "EMAIL":
                return [(self._email(), Label.EMAIL)]
            case "URL":
                return [(self._url(), Label.URL)]
            case "IPADDR":
                return [(fake.ipv4() if rng.random() < 0.9 else fake.ipv6(), Label.IPADDR)]
        return [(phi.identifier(Label(name), fake, rng), Label(name))]

    def _city(self, form: str) -> tuple[str, str]:
        if form == "home" or (form == "any" and self.rng.random() < 0.5):
            return self.cast.home_city
        if form == "hospital":
            return self.cast.hospital_city
        if self.rng.random() < 0.2:
            return (self.fake.city(), self.fake.state_abbr())
        return self.rng.choice(us_cities())

    def _state(self, form: str, abbr: str) -> str:
        full = state_names().get(abbr, abbr)
        if form == "abbr" or (form == "any" and self.rng.random() < 0.6):
            return abbr
        return full

    def _email(self) -> str:
        person = self.rng.choice((self.cast.patient, *self.cast.relatives))
        number = self.rng.randint(1, 99)
        local = self.rng.choice(
            (f"{person.first}.{person.last}", f"{person.first[0]}{person.last}", f"{person.first}{number}")
        ).lower().replace("-", "")  # fmt: skip
        if not local.isascii() or self.rng.random() < 0.4:
            return self.fake.email()
        return f"{local}@{self.fake.free_email_domain()}"

    def _url(self) -> str:
        match self.rng.randrange(4):
            case 0:
                return self.fake.url()
            case 1:
                return self.fake.uri()
            case 2:
                return f"www.{self.fake.domain_name()}"
            case _:
                return f"https://{self.fake.domain_name()}/{self.fake.uri_path()}"
