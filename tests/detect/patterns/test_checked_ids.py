"""IDs with validators: IBAN, NHS number, SIN, NPI, DEA, MBI; insurance, authorisation and passport numbers after
their triggers. Positives and hard negatives (lab values, doses, ratios, times, rooms), all invented."""

from __future__ import annotations

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.provenance import Confirmation
from deident.detect.patterns import id_detector
from deident.detect.patterns.checked_ids import NAMED_CHECKS, dea_ok, iban_ok, nhs_number_ok, npi_ok, sin_ok

from .helpers import Case, check_positive, found, params

POSITIVES: list[Case] = [
    ("NHS No: 401 023 2137 on the letter", "401 023 2137", Label.MEDICALRECORD),
    ("NHS number 4857773457.", "4857773457", Label.MEDICALRECORD),
    ("NHS number . . . . 485 777 3457", "485 777 3457", Label.MEDICALRECORD),
    ("nhs no 401-023-2137", "401-023-2137", Label.MEDICALRECORD),
    # a mistyped check digit after the trigger is kept (weaker, unconfirmed)
    ("NHS No: 401 023 2138", "401 023 2138", Label.MEDICALRECORD),
    ("SIN: 130 692 544", "130 692 544", Label.SSN),
    ("Social Insurance Number 271-534-869", "271-534-869", Label.SSN),
    ("NPI 1234567893 on the claim", "1234567893", Label.LICENSE),
    ("national provider identifier: 1987654328", "1987654328", Label.LICENSE),
    ("prescriber DEA AB1234563 signed", "AB1234563", Label.LICENSE),
    ("BJ6125341 on the script", "BJ6125341", Label.LICENSE),
    ("IBAN GB82 WEST 1234 5698 7654 32 for refunds", "GB82 WEST 1234 5698 7654 32", Label.ACCOUNT),
    ("paid from DE89370400440532013000.", "DE89370400440532013000", Label.ACCOUNT),
    ("Medicare MBI 1EG4-TE5-MK73 active", "1EG4-TE5-MK73", Label.HEALTHPLAN),
    ("card 2AC3DF6GH78 on file", "2AC3DF6GH78", Label.HEALTHPLAN),
    ("OHIP 1234-567-890-AB", "1234-567-890-AB", Label.HEALTHPLAN),
    ("health card number: 9876543217", "9876543217", Label.HEALTHPLAN),
    ("PHN 9123456789", "9123456789", Label.HEALTHPLAN),
    # provincial health card numbers written in groups (issue 17): BC PHN, Ontario OHIP with its version code, RAMQ
    ("PHN: 9698 658 215\nAddress", "9698 658 215", Label.HEALTHPLAN),
    ("BC PHN 9698658215", "9698658215", Label.HEALTHPLAN),
    ("HCN: 1234 567 897 AY", "1234 567 897 AY", Label.HEALTHPLAN),
    ("Health card: 1234-567-897", "1234-567-897", Label.HEALTHPLAN),
    ("RAMQ: TREJ 5403 1512", "TREJ 5403 1512", Label.HEALTHPLAN),
    ("NAM: BOUM 3167 2208\n", "BOUM 3167 2208", Label.HEALTHPLAN),
    ("Group no. 004512 (employer plan)", "004512", Label.HEALTHPLAN),
    ("prior auth # PA-20931 approved", "PA-20931", Label.IDNUM),
    ("authorization number 77120034", "77120034", Label.IDNUM),
    ("Passport No: 533380006 (UK)", "533380006", Label.IDNUM),
    ("passport number C03005988", "C03005988", Label.IDNUM),
    ("claim # 2231-0045-77", "2231-0045-77", Label.IDNUM),
]

# (text, a piece that must not be tagged with the label)
NEGATIVES: list[tuple[str, str, Label]] = [
    ("4/5 strength in the left arm", "4/5", Label.LICENSE),
    ("3/6 murmur, ratio 1:2", "3/6", Label.ACCOUNT),
    ("NHS trust audit 2019", "2019", Label.MEDICALRECORD),
    ("NHS No: 401 023", "401 023", Label.MEDICALRECORD),
    ("sin 30 degrees of flexion", "30", Label.SSN),
    ("SIN 123 mg", "123", Label.SSN),
    ("DEA schedule II drug, 10 mg", "10", Label.LICENSE),
    ("AB1234567 lab accession", "AB1234567", Label.LICENSE),
    ("room 1234567890 bed 2", "1234567890", Label.LICENSE),
    ("GB82 ABCD 1234 5698 7654 33 is no IBAN", "GB82 ABCD 1234 5698 7654 33", Label.ACCOUNT),
    ("PO2 88 PCO2 40 FIO2 40%", "88", Label.ACCOUNT),
    ("1EG4-TE5MK73 one dash", "1EG4-TE5MK73", Label.HEALTHPLAN),
    ("1SG4-TE5-MK73 has an S", "1SG4-TE5-MK73", Label.HEALTHPLAN),
    ("auth 2 units at 0800", "0800", Label.IDNUM),
    ("passport expired 2019", "2019", Label.IDNUM),
    ("NPI 1234567890 mg", "1234567890", Label.LICENSE),
    ("nam 4/5 strength", "4/5", Label.HEALTHPLAN),
    ("health card renewed, 3/6 murmur", "3/6", Label.HEALTHPLAN),
    ("OHIP covers 3 visits, room 12", "3", Label.HEALTHPLAN),
]


@pytest.mark.parametrize(("text", "expected", "label"), params(POSITIVES))
def test_finds_checked_ids(text: str, expected: str, label: Label) -> None:
    check_positive(id_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "piece", "label"), NEGATIVES, ids=[n[0][:40] for n in NEGATIVES])
def test_ignores_numbers_that_fail_their_format(text: str, piece: str, label: Label) -> None:
    spans = found(id_detector(), text)
    assert not any(label is got and (piece in covered or covered in piece) for covered, got in spans), spans


@pytest.mark.parametrize(
    ("text", "confirmed"),
    [
        ("NHS No: 401 023 2137", True),
        ("NHS No: 401 023 2138", False),
        ("SIN: 130 692 544", True),
        ("SIN: 130 692 545", False),
        ("IBAN GB82 WEST 1234 5698 7654 32", True),
        ("DEA AB1234563", True),
    ],
)
def test_a_valid_check_digit_confirms(text: str, confirmed: bool) -> None:
    spans = [s for s in id_detector().detect(Document("t", text)) if s.confirmed is not None]
    assert bool(spans) is confirmed
    assert all(s.confirmed is Confirmation.CHECKSUM for s in spans)


@pytest.mark.parametrize(
    ("check", "number", "ok"),
    [
        (nhs_number_ok, "4010232137", True),
        (nhs_number_ok, "4010232138", False),
        (nhs_number_ok, "401023213", False),
        (sin_ok, "130692544", True),
        (sin_ok, "130692545", False),
        (sin_ok, "046454286", False),  # no SIN starts with 0
        (npi_ok, "1234567893", True),
        (npi_ok, "1234567890", False),
        (npi_ok, "3234567893", False),
        (dea_ok, "AB1234563", True),
        (dea_ok, "AB1234564", False),
        (dea_ok, "QB1234563", False),  # Q is no registrant type
        (iban_ok, "GB82WEST12345698765432", True),
        (iban_ok, "GB83WEST12345698765432", False),
    ],
)
def test_validators(check: object, number: str, ok: bool) -> None:
    assert callable(check)
    assert check(number) is ok


@pytest.mark.parametrize(
    ("name", "text", "valid"),
    [
        ("luhn", "RX12345674", True),  # the digits alone are checked
        ("luhn", "1234-5674", True),
        ("luhn", "RX12345675", False),
        ("luhn", "RX", False),
        ("verhoeff", "2363", True),
        ("verhoeff", "2364", False),
        ("nhs_number", "401 023 2137", True),
        ("nhs_number", "401 023 2138", False),
        ("sin", "130-692-544", True),
        ("npi", "1234567893", True),
        ("dea", "ab1234563", True),  # compared in capitals
        ("iban", "GB82 WEST 1234 5698 7654 32", True),
        ("iban", "GB82 WEST 1234 5698 7654 33", False),
    ],
)
def test_named_checks(name: str, text: str, valid: bool) -> None:
    assert NAMED_CHECKS[name](text) is valid
