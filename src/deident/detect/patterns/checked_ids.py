"""ID numbers whose published format has a validator, one rule per kind: a regex proposes, a validator confirms.

IBAN (ISO 13616 mod 97), UK NHS number (mod 11), Canadian SIN (Luhn), Canadian provincial health card numbers
(British Columbia's PHN by its mod 11 digit, Ontario's OHIP number by its Luhn digit, Quebec's RAMQ number by its
shape), US NPI (Luhn over the "80840" prefix), DEA registration number (its check digit) and the US Medicare
Beneficiary Identifier (its positional format). Those
that need a trigger ("NHS No", "SIN", "NPI") keep a number of the right shape after it even when its check digit
fails (a mistyped number is as identifying), only unconfirmed and weaker; those found by shape alone need the
check to hold.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import regex
from stdnum import iban, luhn, verhoeff
from stdnum.ca import bc_phn
from stdnum.ca import sin as ca_sin
from stdnum.gb import nhs as gb_nhs

from deident.core.labels import Label
from deident.core.provenance import Confirmation
from deident.detect.patterns.rules import LEADER, Hit, Pattern, ScanHints, Validator, unit_follows, words

# What may stand between a trigger and its number: "NHS No: ", "SIN #", "NPI number is ".
_GAP = (
    r"(?![\w])[ \t]{0,2}(?:#|no\.?|num(?:ber)?|number)?[ \t]{0,2}(?:" + LEADER + r"|[:#=.])?[ \t]{0,2}(?:is[ \t]{1,2})?"
)
_END = r"(?![\w]|[-./][A-Za-z0-9])"

NHS_TRIGGERS = ("nhs", "nhs number", "nhs no", "new nhs number")
SIN_TRIGGERS = ("sin", "social insurance", "social insurance number", "social ins")
# Provincial health cards: Ontario (OHIP, "health card number" HCN), British Columbia (PHN), Quebec (RAMQ's "numéro
# d'assurance maladie", NAM) and the generic names (ASCII, so the scan planner derives them as anchors).
HEALTH_CARD_TRIGGERS = (
    "health card", "health card number", "health card no", "hcn", "ohip", "ohip number", "phn", "bc phn",
    "personal health number", "ramq", "nam", "health insurance number",
    "provincial health number", "carte soleil",
)  # fmt: skip
# Their shapes: ten digits (OHIP, in 4-3-3 groups, with a two-letter version code after it), or RAMQ's four letters
# (three of the surname, one of the first name) and eight digits, in 4-4-4 groups.
_HEALTH_CARD = r"\d{4}[ -]?\d{3}[ -]?\d{3}(?:[ -]?[A-Z]{2})?|[A-Z]{4}[ -]?\d{4}[ -]?\d{4}"
NPI_TRIGGERS = ("npi", "national provider identifier", "national provider id")

# DEA registrant types (the first letter) as the DEA publishes them.
_DEA_FIRST = "ABCDEFGHJKLMPRSTUX"
# MBI letters: A-Z without S, L, O, I, B and Z (CMS MBI format specification).
_MBI_ALPHA = "[AC-HJKMNP-RT-Y]"
_MBI_ALNUM = "[AC-HJKMNP-RT-Y0-9]"


def nhs_number_ok(digits: str) -> bool:
    """A UK NHS number: ten digits whose last is the mod 11 check digit of the first nine."""
    return len(digits) == 10 and bool(gb_nhs.is_valid(digits))


def sin_ok(digits: str) -> bool:
    """A Canadian Social Insurance Number: nine digits, a first digit that is issued, a valid Luhn digit."""
    return bool(ca_sin.is_valid(digits))


def health_card_ok(digits: str) -> bool:
    """A Canadian health card number with a check digit: BC's PHN (9 then eight digits and a mod 11 digit) or
    Ontario's ten-digit OHIP number (Luhn). Quebec's RAMQ number has no public check and is never confirmed."""
    if len(digits) != 10:
        return False
    return bool(bc_phn.is_valid(digits)) if digits[0] == "9" else bool(luhn.is_valid(digits))


def _health_card(text: str, m: regex.Match[str]) -> list[Hit]:
    if m["p"][0].isalpha():  # RAMQ: its shape after its trigger is all there is to check
        return [Hit(m.start("p"), m.end("p"), score=0.9)]
    return _triggered(health_card_ok)(text, m)


def npi_ok(digits: str) -> bool:
    """A US National Provider Identifier: ten digits starting 1 or 2, Luhn-valid with the prefix 80840."""
    return len(digits) == 10 and digits.isdigit() and digits[0] in "12" and bool(luhn.is_valid("80840" + digits))


def dea_ok(number: str) -> bool:
    """A DEA registration number: a registrant letter, a letter (or 9), seven digits; the last digit is the last
    digit of (d1 + d3 + d5) + 2 * (d2 + d4 + d6)."""
    if len(number) != 9 or number[0] not in _DEA_FIRST or not (number[1].isalpha() or number[1] == "9"):
        return False
    digits = number[2:]
    if not digits.isdigit():
        return False
    d = [int(c) for c in digits]
    return (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10 == d[6]


def iban_ok(number: str) -> bool:
    """An IBAN: a country code, two check digits and that country's BBAN length, passing mod 97."""
    return bool(iban.is_valid(number))


def luhn_ok(digits: str) -> bool:
    """Digits whose last is the Luhn check digit of the others (card numbers, many hospital numbers)."""
    return len(digits) >= 2 and digits.isdigit() and bool(luhn.is_valid(digits))


def verhoeff_ok(digits: str) -> bool:
    """Digits whose last is the Verhoeff check digit of the others (Aadhaar and some hospital numbers)."""
    return len(digits) >= 2 and digits.isdigit() and bool(verhoeff.is_valid(digits))


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _compact(text: str) -> str:
    return "".join(c for c in text if c.isalnum()).upper()


# The checks above by name, for rules written elsewhere (a site's custom patterns): each takes the matched text, and
# a check of a number reads its digits alone ("RX 1234-5678" is checked as 12345678).
NAMED_CHECKS: dict[str, Callable[[str], bool]] = {
    "dea": lambda text: dea_ok(_compact(text)),
    "iban": lambda text: iban_ok(_compact(text)),
    "luhn": lambda text: luhn_ok(_digits(text)),
    "nhs_number": lambda text: nhs_number_ok(_digits(text)),
    "npi": lambda text: npi_ok(_digits(text)),
    "sin": lambda text: sin_ok(_digits(text)),
    "verhoeff": lambda text: verhoeff_ok(_digits(text)),
}


def _triggered(is_valid: Callable[[str], bool]) -> Validator:
    """A number after its trigger: confirmed when its check holds, else kept weaker and unconfirmed."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        if unit_follows(text, m.end("p")):
            return []
        if is_valid(_digits(m["p"])):
            return [Hit(m.start("p"), m.end("p"), score=0.95, confirmed=Confirmation.CHECKSUM)]
        return [Hit(m.start("p"), m.end("p"), score=0.7, evidence=("check-digit-failed",))]

    return check


def _iban(text: str, m: regex.Match[str]) -> list[Hit]:
    # Matched from its check digits (a digit-led scan); the country code is the two capitals before them.
    start = m.start() - 2
    number = text[start : m.end()].replace(" ", "")
    return [Hit(start, m.end(), confirmed=Confirmation.CHECKSUM)] if iban_ok(number) else []


def _dea(text: str, m: regex.Match[str]) -> list[Hit]:
    # Matched from its seven digits; the two letters before them are added here.
    start = m.start() - 2
    return [Hit(start, m.end(), confirmed=Confirmation.CHECKSUM)] if dea_ok(text[start : m.end()]) else []


def _mbi(text: str, m: regex.Match[str]) -> list[Hit]:
    if m[0].count("-") == 1:
        return []  # written whole or as 4-3-4, never with one dash
    return [Hit(m.start(), m.end())]


def _trigger_rule(
    name: str, label: Label, triggers: tuple[str, ...], number: str, is_valid: Callable[[str], bool]
) -> Pattern:
    return Pattern(
        name,
        label,
        r"\b" + words(*triggers) + _GAP + r"(?P<p>" + number + r")" + _END,
        0.9,
        _triggered(is_valid),
        group="p",
    )


@lru_cache(maxsize=1)
def checked_id_patterns() -> tuple[Pattern, ...]:
    """The rules of this module, in a fixed order."""
    return (
        _trigger_rule("id.nhs_number", Label.MEDICALRECORD, NHS_TRIGGERS, r"\d{3}[ -]?\d{3}[ -]?\d{4}", nhs_number_ok),
        _trigger_rule("id.sin", Label.SSN, SIN_TRIGGERS, r"\d{3}[ -]?\d{3}[ -]?\d{3}", sin_ok),
        _trigger_rule("id.npi", Label.LICENSE, NPI_TRIGGERS, r"\d{10}", npi_ok),
        Pattern(
            "id.health_card",
            Label.HEALTHPLAN,
            r"\b" + words(*HEALTH_CARD_TRIGGERS) + _GAP + r"(?P<p>" + _HEALTH_CARD + r")" + _END,
            0.9,
            _health_card,
            group="p",
        ),
        Pattern(
            "id.iban",
            Label.ACCOUNT,
            # Two check digits right after a country code, then the account number, unbroken or in groups of four.
            r"\d{2}(?<=(?<![\w])[A-Z]{2}\d{2})(?:[A-Z0-9]{10,30}|(?:[ ][A-Z0-9]{4}){2,7}(?:[ ][A-Z0-9]{1,3})?)(?![\w])",
            0.9,
            _iban,
            ignore_case=False,
            hints=ScanHints(digit_run=(2, 32), run_prev="[A-Z]"),
        ),
        Pattern(
            "id.dea",
            Label.LICENSE,
            r"\d{7}(?<=(?<![\w])[" + _DEA_FIRST + r"][A-Z]\d{7})(?![\w])",
            0.85,
            _dea,
            ignore_case=False,
            hints=ScanHints(digit_run=(7, 7), run_prev="[A-Z]"),
        ),
        Pattern(
            "id.mbi",
            Label.HEALTHPLAN,
            r"[1-9](?<![\w-][1-9])"
            + _MBI_ALPHA
            + _MBI_ALNUM
            + r"\d-?"
            + _MBI_ALPHA
            + _MBI_ALNUM
            + r"\d-?"
            + _MBI_ALPHA
            + r"{2}\d{2}(?![\w]|-\w)",
            0.8,
            _mbi,
            ignore_case=False,
            hints=ScanHints(digit_run=(1, 1), run_next=_MBI_ALPHA, run_prev=r"[^\w-]"),
        ),
    )
