"""Invented UK and Canadian notes with exact gold spans: the identifiers, names and layouts of text written outside
US ICUs (issue 17).

``uk_letter``: NHS clinic, discharge and referral letters: a practice or trust letterhead, "Dear Dr X", "Re: Name,
DOB ...", NHS numbers (valid mod-11 check digit), hospital numbers, UK postcodes and streets, UK phone numbers in
Ofcom's drama ranges ("020 7946 0958", "+44 7700 900123", "07700 900 123"), day-first dates ("12/03/2024",
"12 March 2024"), GP practices, next of kin, "cc:" lines.

``ca_note``: Canadian clinic and referral notes: provincial health card numbers (Ontario OHIP with its version code,
BC PHN with a valid check digit, Quebec RAMQ), SIN (valid Luhn), postal codes ("K1A 0B1"), North American phones in
the fictional 555-01xx range, addresses with a province, names from faker's en_CA and fr_CA locales.

Both carry hard negatives that look like PHI and are not: strength "4/5", a "3/6 murmur", blood pressure, doses,
ratios, times, scores, ward and bay numbers. Ages (under 90) and provinces or countries are not PHI under HIPAA's
Safe Harbor and are not gold. Templates are data below; slots are filled by the note's own cast so that a person or
place mentioned twice is the same.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass

from faker import Faker

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.labels import Label
from deident.synth.builder import NoteBuilder, Piece
from deident.synth.phi import MONTHS, _ordinal, digits
from deident.synth.vocab import country_cities, faker_for

STYLES: tuple[str, ...] = ("uk_letter", "ca_note")

_SLOT = re.compile(r"\{([A-Za-z_0-9]+)(?:\.(\w+))?(?::(\w+))?\}")


@dataclass(frozen=True)
class _Person:
    first: str
    last: str
    female: bool


@dataclass
class _Cast:
    """The people, places and numbers of one note, drawn once so that a second mention is the same value."""

    patient: _Person
    doctor: _Person
    gp: _Person
    relative: _Person
    relation: str
    practice: str
    city: str
    street: str
    postcode: str
    province: str
    note_date: dt.date
    dob: dt.date


# --- UK values -------------------------------------------------------------------------------------------------------

_UK_STREET_TYPES = ("Road", "Street", "Lane", "Avenue", "Close", "Drive", "Crescent", "Way", "Gardens", "Terrace")
_UK_PRACTICE_FORMS = (
    "{} Medical Centre",
    "{} Surgery",
    "{} Health Centre",
    "{} Medical Practice",
    "{} Road Surgery",
    "{} Family Practice",
)
_UK_TRUSTS = (
    "{} General Hospital",
    "{} Royal Infirmary",
    "{} University Hospitals NHS Foundation Trust",
    "St {}'s Hospital",
    "{} Community Hospital",
)


def nhs_number(rng: random.Random) -> str:
    """Ten digits with the NHS mod-11 check digit (a draw whose check would be 10 is drawn again)."""
    while True:
        body = [rng.randrange(10) for _ in range(9)]
        check = 11 - sum(d * (10 - i) for i, d in enumerate(body)) % 11
        if check == 11:
            check = 0
        if check != 10:
            return "".join(map(str, body)) + str(check)


def _uk_phone(rng: random.Random) -> str:
    """Numbers from Ofcom's ranges for drama (never assigned), written as people write them."""
    london, leeds, mobile = f"7946 0{digits(rng, 3)}", f"496 0{digits(rng, 3)}", f"900{digits(rng, 3)}"
    return rng.choice(
        (
            f"020 {london}",
            f"(020) {london}",
            f"+44 20 {london}",
            f"+44 (0)20 {london}",
            f"0113 {leeds}",
            f"0161 {leeds}",
            f"07700 {mobile}",
            f"07700 {mobile[:3]} {mobile[3:]}",
            f"+44 7700 {mobile}",
            f"+447700{mobile}",
        )
    )


def _uk_date(day: dt.date, rng: random.Random) -> str:
    month = MONTHS[day.month - 1]
    return rng.choice(
        (
            f"{day.day:02d}/{day.month:02d}/{day.year}",
            f"{day.day}/{day.month}/{day.year}",
            f"{day.day} {month} {day.year}",
            f"{_ordinal(day.day)} {month} {day.year}",
            f"{day.day:02d}.{day.month:02d}.{day.year}",
            f"{day.day:02d}-{month[:3]}-{day.year}",
            f"{day.day:02d}/{day.month:02d}/{day.year % 100:02d}",
        )
    )


# --- Canadian values -------------------------------------------------------------------------------------------------

_CA_STREET_TYPES = ("Street", "Avenue", "Road", "Drive", "Crescent", "Boulevard", "Court", "Way")
_FR_STREET_TYPES = ("rue", "avenue", "boulevard", "chemin")
_CA_CLINICS = ("{} Family Health Team", "{} Medical Clinic", "{} Community Health Centre", "{} Walk-In Clinic")
_CA_HOSPITALS = ("{} General Hospital", "{} Regional Health Centre", "Hôpital {}", "{} Memorial Hospital")
# Provinces with the health card each issues (its trigger words and a number of its shape).
_PROVINCES = {"ON": "Ontario", "BC": "British Columbia", "QC": "Quebec"}


def _luhn_complete(body: str) -> str:
    """``body`` with the Luhn check digit appended."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return body + str(-total % 10)


def sin_number(rng: random.Random) -> str:
    """A Social Insurance Number with a valid Luhn check digit (first digit 1-7 or 9, as issued)."""
    return _luhn_complete(rng.choice("1234567") + digits(rng, 7))


def bc_phn(rng: random.Random) -> str:
    """A BC Personal Health Number: 9, eight digits, and its mod-11 check digit (stdnum.ca.bc_phn's rule)."""
    weights = (2, 4, 8, 5, 10, 9, 7, 3)
    while True:
        body = digits(rng, 8)
        check = 11 - sum(w * int(d) for w, d in zip(weights, body, strict=True)) % 11
        if check < 10:
            return f"9{body}{check}"


def _health_card(province: str, last: str, first: str, rng: random.Random) -> tuple[str, str]:
    """(field name, number) of the province's health card."""
    if province == "ON":
        number = _luhn_complete(digits(rng, 9))  # Ontario's number ends in a Luhn check digit
        version = "".join(rng.choice(string.ascii_uppercase) for _ in range(2))
        shaped = rng.choice(
            (f"{number[:4]}-{number[4:7]}-{number[7:]}-{version}", f"{number[:4]} {number[4:7]} {number[7:]} {version}")
        )
        return rng.choice(("OHIP", "OHIP #", "Health card", "HCN")), shaped
    if province == "BC":
        phn = bc_phn(rng)
        return rng.choice(("PHN", "BC PHN", "Personal Health Number")), rng.choice(
            (phn, f"{phn[:4]} {phn[4:7]} {phn[7:]}")
        )
    letters = (_ascii_letters(last)[:3] + _ascii_letters(first)[:1]).upper().ljust(4, "X")
    number = digits(rng, 8)
    return rng.choice(("RAMQ", "NAM", "Health card")), f"{letters} {number[:4]} {number[4:]}"


def _ascii_letters(word: str) -> str:
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if ch.isascii() and ch.isalpha())


def _ca_phone(rng: random.Random) -> str:
    area = rng.choice(("416", "613", "604", "514", "403", "902", "905", "647", "778", "819"))
    line = f"01{digits(rng, 2)}"
    return rng.choice(
        (
            f"({area}) 555-{line}",
            f"{area}-555-{line}",
            f"{area} 555 {line}",
            f"+1 {area} 555 {line}",
            f"1-{area}-555-{line}",
        )
    )


_MOIS = (
    "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre",
    "décembre",
)  # fmt: skip


def _ca_date(day: dt.date, rng: random.Random, french: bool) -> str:
    if french:
        return rng.choice((day.isoformat(), f"{day.day} {_MOIS[day.month - 1]} {day.year}"))
    month = MONTHS[day.month - 1]
    return rng.choice(
        (
            day.isoformat(),
            f"{month} {day.day}, {day.year}",
            f"{month[:3]} {day.day}, {day.year}",
            f"{day.day:02d}/{day.month:02d}/{day.year}",
        )
    )


# --- the cast --------------------------------------------------------------------------------------------------------


def _person(fake: Faker, rng: random.Random) -> _Person:
    female = rng.random() < 0.5
    first = fake.first_name_female() if female else fake.first_name_male()
    last = fake.last_name()
    if rng.random() < 0.08:
        last = f"{last}-{fake.last_name()}"
    return _Person(first.split()[0], last, female)


def _cast(country: str, fake: Faker, rng: random.Random) -> _Cast:
    note_date = dt.date(2012, 1, 1) + dt.timedelta(days=rng.randrange(365 * 13))
    dob = note_date - dt.timedelta(days=rng.randrange(365 * 18, 365 * 89))
    patient, doctor, gp = _person(fake, rng), _person(fake, rng), _person(fake, rng)
    relative = _person(fake, rng)
    relative = _Person(relative.first, patient.last if rng.random() < 0.6 else relative.last, relative.female)
    relation = rng.choice(
        ("wife", "daughter", "mother", "sister") if relative.female else ("husband", "son", "brother")
    )
    stem = fake.last_name()
    if country == "GB":
        city = rng.choice(country_cities("GB"))
        street = f"{rng.randint(1, 240)} {fake.last_name()} {rng.choice(_UK_STREET_TYPES)}"
        if rng.random() < 0.15:
            street = f"Flat {rng.randint(1, 30)}, {street}"
        practice = rng.choice(_UK_PRACTICE_FORMS).format(stem)
        return _Cast(
            patient, doctor, gp, relative, relation, practice, city, street, fake.postcode(), "", note_date, dob
        )
    province = rng.choice(tuple(_PROVINCES))
    city = rng.choice(country_cities("CA", province))
    if province == "QC" and rng.random() < 0.7:
        street = f"{rng.randint(10, 9999)}, {rng.choice(_FR_STREET_TYPES)} {fake.last_name()}"
    else:
        street = f"{rng.randint(10, 9999)} {fake.last_name()} {rng.choice(_CA_STREET_TYPES)}"
    if rng.random() < 0.15:
        street = f"Unit {rng.randint(1, 40)}, {street}" if rng.random() < 0.5 else f"{rng.randint(100, 2400)}-{street}"
    postcode = fake.postcode()
    postcode = postcode if " " in postcode or rng.random() < 0.2 else f"{postcode[:3]} {postcode[3:]}"
    practice = rng.choice(_CA_CLINICS).format(stem)
    return _Cast(patient, doctor, gp, relative, relation, practice, city, street, postcode, province, note_date, dob)


# --- templates -------------------------------------------------------------------------------------------------------
# Slots: {P}, {D}, {G}, {R} a person (patient, doctor, GP/family physician, relative) with a form after ":" (full,
# first, last, title = "Mrs Last", lastfirst = "LAST, First", initial = "J. Last"); {REL} the relation word;
# {DATE.0} the letter's date, {DATE.dob} the birth date, {DATE} another date; {PHONE}, {STREET}, {CITY}, {POSTCODE},
# {PRACTICE}, {HOSPITAL}, {NHS}, {HOSPNO}, {SIN}, {CARD} (the field name and number of the province's health card),
# {PROV} (not PHI), {EMAIL}.

_UK_HEADERS = (
    "{HOSPITAL}\n{~Department of Cardiology|Respiratory Medicine|Diabetes and Endocrinology|Elderly Care}\n"
    "{STREET}\n{CITY}\n{POSTCODE}\nTel: {PHONE}\n\n{DATE.0}\n\n",
    "{PRACTICE}\n{STREET}, {CITY} {POSTCODE}\nTelephone: {PHONE}\n\nDate: {DATE.0}\n\n",
    "Our ref: {~AB|KL|RT}/{~cl|sec}\nDate dictated: {DATE.0}\nDate typed: {DATE.0}\n\n",
)
_UK_ADDRESSEE = (
    "Dr {G:full}\n{PRACTICE}\n{STREET2}\n{CITY}\n{POSTCODE2}\n\nDear Dr {G:last},\n\n",
    "Dr {G:initial}\nGeneral Practitioner\n{PRACTICE}\n\nDear Dr {G:last}\n\n",
    "Dear Colleague,\n\n",
)
_UK_RE = (
    "Re: {P:full}, DOB {DATE.dob}\nNHS No: {NHS}   Hospital No: {HOSPNO}\n{STREET}, {CITY}, {POSTCODE}\n\n",
    "Re: {P:lastfirst} (DOB: {DATE.dob})\nNHS Number: {NHS}\nAddress: {STREET}, {CITY} {POSTCODE}\n\n",
    "RE: {P:title} - D.O.B. {DATE.dob} - NHS {NHS}\n\n",
    "Patient: {P:full} | DOB: {DATE.dob} | NHS number: {NHS} | MRN: {HOSPNO}\n\n",
)
_UK_BODIES = (
    "Thank you for referring {P:title}, whom I saw in the {~cardiology|chest|diabetes} clinic on {DATE}. "
    "{P:first} is a 67 year old retired teacher who reports breathlessness on climbing one flight of stairs. "
    "On examination there was a 3/6 ejection systolic murmur, BP 142/88, pulse 76 regular, sats 96% on air. "
    "Power was 4/5 in the left arm. ECG showed sinus rhythm; eGFR 58, HbA1c 53 mmol/mol.\n\n",
    "I reviewed {P:title} today with {his} {REL}, {R:full}, who can be contacted on {PHONE}. "
    "{P:first} was admitted to Ward 7B (bay 3, bed 4) on {DATE} with a fall and was discharged on {DATE.0}. "
    "GCS 15/15 throughout, Hb 112 g/L. Ramipril 2.5 mg once daily was started at 09:30.\n\n",
    "Diagnosis: community-acquired pneumonia (CURB-65 score 2). {P:title} completed 5 days of amoxicillin "
    "500 mg three times daily. Fluid balance 1:1; FEV1/FVC ratio 0.65. Next of kin: {R:full} ({REL}), "
    "tel {PHONE}.\n\n",
    "Mrs {P:last} was seen in clinic on {DATE}. She was accompanied by her {REL} {R:first}. She has been "
    "taking paracetamol 1 g four times a day and codeine 30 mg as required. Mini-ACE 82/100.\n\n",
)
_UK_PLANS = (
    "Plan: I have arranged an echocardiogram and will review {P:title} in clinic in 6 weeks. Please could you "
    "check U&Es in 2 weeks.\n\n",
    "I would be grateful if you could continue to monitor {his} blood pressure at {PRACTICE}. I have not arranged "
    "routine follow-up.\n\n",
    "Should you have any questions please contact my secretary on {PHONE} or email {EMAIL}.\n\n",
)
_UK_SIGNOFFS = (
    "Yours sincerely,\n\n\nDr {D:full}\nConsultant {~Cardiologist|Physician|Geriatrician}\n\ncc: {P:full}, {STREET}, "
    "{CITY} {POSTCODE}\n",
    "Yours sincerely\n\n{D:full} MBBS MRCP\nSpecialty Registrar\n\ncc: Dr {G:full}, {PRACTICE}\n",
    "Kind regards,\n\nDr {D:initial}\nSigned: Dr {D:full}  {DATE.0}\n",
)
_CA_HEADERS = (
    "{HOSPITAL}\n{STREET2}, {CITY}, {PROV} {POSTCODE2}\nTel: {PHONE}  Fax: {FAX}\n\nDate of visit: {DATE.0}\n\n",
    "{PRACTICE}\nClinic note - {DATE.0}\n\n",
    "CONSULTATION NOTE\nDate: {DATE.0}\n\n",
)
_CA_IDS = (
    "Patient: {P:full}   DOB: {DATE.dob}\n{CARD}\nAddress: {STREET}, {CITY}, {PROV} {POSTCODE}\nPhone: {PHONE}\n\n",
    "Name: {P:lastfirst}\nDate of birth: {DATE.dob}\n{CARD}\nSIN: {SIN}\n\n",
    "Patient: {P:full} | DOB: {DATE.dob} | {CARD}\nHome: {STREET}, {CITY} {PROV}  {POSTCODE}\n\n",
    "Re: {P:full}, DOB {DATE.dob}\n{CARD}\n\n",
)
_CA_BODIES = (
    "{P:first} is a 54 year old {~accountant|retired nurse|truck driver} seen today for follow-up of type 2 "
    "diabetes. A1C 7.4%, BP 138/84, weight 92 kg. Metformin 850 mg twice daily continued. Strength 5/5 "
    "throughout, a 2/6 systolic murmur at the left sternal border.\n\n",
    "{P:title} was seen in the emergency department on {DATE} after a fall at home. {His} {REL} "
    "{R:full} ({PHONE}) brought {him} in. Room 12, bed 2. Given ketorolac 15 mg IV at 14:20. INR 2.1.\n\n",
    "Referred by Dr. {G:full} of {PRACTICE} for assessment of chest pain. Troponin negative x2, "
    "stress test 10 METs. Ratio 2:1 AV block excluded.\n\n",
)
_CA_PLANS = (
    "Plan: repeat bloodwork in 3 months; follow up with family physician Dr. {G:last}.\n\n",
    "Emergency contact: {R:full} ({REL}), {PHONE}.\n\n",
    "Please send reports to {EMAIL} or fax {FAX}.\n\n",
)
_CA_SIGNOFFS = (
    "Dr. {D:full}, MD, FRCPC\n",
    "Electronically signed by {D:full}, MD on {DATE.0}\n",
    "{D:initial}, NP\ncc: Dr. {G:full}\n",
)
_PARTS = {
    "uk_letter": (_UK_HEADERS, _UK_ADDRESSEE, _UK_RE, _UK_BODIES, _UK_PLANS, _UK_SIGNOFFS),
    "ca_note": (_CA_HEADERS, _CA_IDS, _CA_BODIES, _CA_PLANS, _CA_SIGNOFFS),
}
_SEX_WORDS = {"his": ("her", "his"), "him": ("her", "him"), "His": ("Her", "His")}


@dataclass
class _Filler:
    country: str
    cast: _Cast
    fake: Faker
    rng: random.Random
    french: bool

    def pieces(self, slot: str, index: str, form: str) -> list[Piece]:
        cast, rng = self.cast, self.rng
        people = {"P": (cast.patient, Label.PATIENT), "D": (cast.doctor, Label.DOCTOR), "G": (cast.gp, Label.DOCTOR)}
        people["R"] = (cast.relative, Label.RELATIVE)
        if slot in people:
            person, label = people[slot]
            return _name(person, form or "full", label)
        values: dict[str, Callable[[], list[Piece]]] = {
            "REL": lambda: [(cast.relation, None)],
            "DATE": lambda: [(self._date(index), Label.DATE)],
            "PHONE": lambda: [(self._phone(), Label.PHONE)],
            "FAX": lambda: [(self._phone(), Label.FAX)],
            "STREET": lambda: [(cast.street, Label.STREET)],
            "STREET2": lambda: [(self._street(), Label.STREET)],
            "CITY": lambda: [(cast.city, Label.CITY)],
            "POSTCODE": lambda: [(cast.postcode, Label.ZIP)],
            "POSTCODE2": lambda: [(self.fake.postcode(), Label.ZIP)],
            "PRACTICE": lambda: [(cast.practice, Label.HOSPITAL)],
            "HOSPITAL": lambda: [(self._hospital(), Label.HOSPITAL)],
            "NHS": lambda: [(self._nhs(), Label.MEDICALRECORD)],
            "HOSPNO": lambda: [(rng.choice(("RX", "K", "M", "")) + digits(rng, 7), Label.MEDICALRECORD)],
            "SIN": lambda: [(self._sin(), Label.SSN)],
            "CARD": self._card,
            "PROV": lambda: [(cast.province, None)],
            "EMAIL": lambda: [(self._email(), Label.EMAIL)],
        }
        return values[slot]()

    def _date(self, index: str) -> str:
        day = {"0": self.cast.note_date, "dob": self.cast.dob}.get(index)
        if day is None:
            day = self.cast.note_date - dt.timedelta(days=self.rng.randrange(1, 400))
        return _uk_date(day, self.rng) if self.country == "GB" else _ca_date(day, self.rng, self.french)

    def _phone(self) -> str:
        return _uk_phone(self.rng) if self.country == "GB" else _ca_phone(self.rng)

    def _street(self) -> str:
        types = _UK_STREET_TYPES if self.country == "GB" else _CA_STREET_TYPES
        return f"{self.rng.randint(1, 300)} {self.fake.last_name()} {self.rng.choice(types)}"

    def _hospital(self) -> str:
        forms = _UK_TRUSTS if self.country == "GB" else _CA_HOSPITALS
        return self.rng.choice(forms).format(self.cast.city if self.rng.random() < 0.5 else self.fake.last_name())

    def _nhs(self) -> str:
        number = nhs_number(self.rng)
        return self.rng.choice(
            (f"{number[:3]} {number[3:6]} {number[6:]}", number, f"{number[:3]}-{number[3:6]}-{number[6:]}")
        )

    def _sin(self) -> str:
        number = sin_number(self.rng)
        return self.rng.choice((f"{number[:3]} {number[3:6]} {number[6:]}", f"{number[:3]}-{number[3:6]}-{number[6:]}"))

    def _card(self) -> list[Piece]:
        patient = self.cast.patient
        field, number = _health_card(self.cast.province, patient.last, patient.first, self.rng)
        return [(f"{field}: ", None), (number, Label.HEALTHPLAN)]

    def _email(self) -> str:
        person = self.cast.doctor
        local = f"{_ascii_letters(person.first)}.{_ascii_letters(person.last)}".lower()
        domain = "nhs.net" if self.country == "GB" else self.fake.free_email_domain()
        return f"{local}@{domain}"


def _name(person: _Person, form: str, label: Label) -> list[Piece]:
    match form:
        case "first":
            return [(person.first, label)]
        case "last":
            return [(person.last, label)]
        case "title":
            return [("Mrs " if person.female else "Mr ", None), (person.last, label)]
        case "lastfirst":
            return [(person.last.upper(), label), (", ", None), (person.first, label)]
        case "initial":
            return [(f"{person.first[0]}.", label), (" ", None), (person.last, label)]
    return [(person.first, label), (" ", None), (person.last, label)]


def generate(
    style: str, rng: random.Random, note_id: str, patient_id: str, extra: tuple[tuple[str, str], ...]
) -> AnnotatedDocument:
    """One note of ``style`` (``uk_letter`` or ``ca_note``) drawn with ``rng``, with exact gold spans."""
    country = "GB" if style == "uk_letter" else "CA"
    french = country == "CA" and rng.random() < 0.3
    fake = faker_for("en_GB" if country == "GB" else "fr_CA" if french else "en_CA")
    fake.seed_instance(rng.getrandbits(48))
    cast = _cast(country, fake, rng)
    if french:
        cast.province = "QC"
        cast.city = rng.choice(country_cities("CA", "QC"))
        cast.street = f"{rng.randint(10, 9999)}, {rng.choice(_FR_STREET_TYPES)} {fake.last_name()}"
    filler = _Filler(country, cast, fake, rng, french)
    builder = NoteBuilder()
    for options in _PARTS[style]:
        _render(rng.choice(options), filler, builder)
    text, spans = builder.build()
    metadata = DocumentMetadata(patient_id=patient_id, note_id=note_id, note_date=cast.note_date, extra=extra)
    return AnnotatedDocument(Document(note_id, text, metadata), spans)


def _render(template: str, filler: _Filler, builder: NoteBuilder) -> None:
    position = 0
    for match in re.finditer(r"\{([^{}]*)\}", template):
        builder.add(template[position : match.start()])
        slot = match.group(1)
        if slot.startswith("~"):
            builder.add(filler.rng.choice(slot[1:].split("|")))
        elif slot in _SEX_WORDS:
            builder.add(_SEX_WORDS[slot][0 if filler.cast.patient.female else 1])
        else:
            parsed = _SLOT.fullmatch("{" + slot + "}")
            if parsed is None:
                raise ValueError("malformed slot in an international template")
            builder.extend(filler.pieces(parsed.group(1), parsed.group(2) or "", parsed.group(3) or ""))
        position = match.end()
    builder.add(template[position:])
