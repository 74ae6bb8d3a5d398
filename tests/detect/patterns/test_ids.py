"""ID pattern table: SSN, triggered record/account/plan/licence/vehicle/device numbers, shapes; negatives."""

from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.detect.patterns import id_detector
from deident.detect.patterns.ids import vin_check_digit_ok

from .helpers import Case, check_negative, check_positive, params

POSITIVES: list[Case] = [
    ("SSN 123-45-6789 on file", "123-45-6789", Label.SSN),
    ("SSN 123.45.6789 on file", "123.45.6789", Label.SSN),
    # UK National Insurance number, in pairs or together; a MAC address of a device
    ("My National Insurance number is AB 12 34 56 C.", "AB 12 34 56 C", Label.SSN),
    ("NI no JG103759A on the claim", "JG103759A", Label.SSN),
    # after its name, any prefix: HMRC's example number and a mistyped prefix
    ("NI number QQ 12 34 56 C on the form", "QQ 12 34 56 C", Label.SSN),
    ("NINO: GB123456A (check)", "GB123456A", Label.SSN),
    # a UK bank's sort code after its name
    ("Sort code: 40-47-84, account 71234567.", "40-47-84", Label.ACCOUNT),
    ("sort code 404784 and acct ending 12", "404784", Label.ACCOUNT),
    ("Sortcode is 20 00 00", "20 00 00", Label.ACCOUNT),
    ("pump MAC 00:1A:2B:3C:4D:5E logged", "00:1A:2B:3C:4D:5E", Label.DEVICE),
    ("mac 00-1a-2b-3c-4d-5e", "00-1a-2b-3c-4d-5e", Label.DEVICE),
    ("social security number: 123456789.", "123456789", Label.SSN),
    # after its trigger, an identifier typed in groups: blanks, or a dash with blanks around it
    ("SSN: 123 - 45 - 6789 on file", "123 - 45 - 6789", Label.SSN),
    ("SSN 123- 45- 6789", "123- 45- 6789", Label.SSN),
    ("SSN 123-45 6789", "123-45 6789", Label.SSN),
    ("MRN: 123 456 789 seen today", "123 456 789", Label.MEDICALRECORD),
    # a printed form's dot leaders after the field
    ("MRN.............88122310", "88122310", Label.MEDICALRECORD),
    ("MRN#: 00 12 34 56", "00 12 34 56", Label.MEDICALRECORD),
    ("Chart # 12 34 567 reviewed", "12 34 567", Label.MEDICALRECORD),
    ("Patient ID 2018 - 004512", "2018 - 004512", Label.MEDICALRECORD),
    ("Acct # 1234 5678 9012", "1234 5678 9012", Label.ACCOUNT),
    ("Health plan ID: XJH 123 456 789", "XJH 123 456 789", Label.HEALTHPLAN),
    ("Medicare number 1EG4 TE5 MK73", "1EG4 TE5 MK73", Label.HEALTHPLAN),
    ("licence no: D123 4567 8901", "D123 4567 8901", Label.LICENSE),
    # the groups end before a count, a time, a date or a times sign
    ("MRN 1234567 2 days ago", "1234567", Label.MEDICALRECORD),
    ("MRN 1234567 12:30 seen", "1234567", Label.MEDICALRECORD),
    ("MRN 1234567 03/04/2021", "1234567", Label.MEDICALRECORD),
    ("MRN 1234567 x2", "1234567", Label.MEDICALRECORD),
    ("Acct 1234 5678 9012 ml", "1234 5678", Label.ACCOUNT),
    ("MRN: 1234567 confirmed", "1234567", Label.MEDICALRECORD),
    ("medical record # A-2034981", "A-2034981", Label.MEDICALRECORD),
    # Scotland's patient number, a hospital's own
    ("CHI number: 0101011234 on file", "0101011234", Label.MEDICALRECORD),
    ("Hospital No: U3434168", "U3434168", Label.MEDICALRECORD),
    ("acct # AB-12345 billed", "AB-12345", Label.ACCOUNT),
    ("Policy no. XJ12345 (BCBS)", "XJ12345", Label.HEALTHPLAN),
    ("medicaid id 99887766A", "99887766A", Label.HEALTHPLAN),
    ("driver's license S1234567 seen", "S1234567", Label.LICENSE),
    ("plate 7ABC123 towed", "7ABC123", Label.VEHICLE),
    ("car vin 1M8GDM9AXKP042788 registered", "1M8GDM9AXKP042788", Label.VEHICLE),
    ("pacemaker serial # PZK123456 interrogated", "PZK123456", Label.DEVICE),
    ("should arrive this morning (ref # 8336652).", "8336652", Label.IDNUM),
    ("claim number 55-66-7788-9 pending", "55-66-7788-9", Label.IDNUM),
    ("requisition K2034981 sent", "K2034981", Label.IDNUM),
    ("PT'S CAR (FUK7121) LEFT IN GARAGE", "FUK7121", Label.VEHICLE),
    ("pt's truck (izq 794) towed", "izq 794", Label.VEHICLE),
    # a plate in two groups after the word
    ("still drives her car, plate KQX 013 most days", "KQX 013", Label.VEHICLE),
    ("license plate # 7DMR 20 on file", "7DMR 20", Label.VEHICLE),
    ("plate H48-HKY towed", "H48-HKY", Label.VEHICLE),
    # a British plate (two letters, two digits, three letters), after its British names or a verb
    ("The car's licence plate was KX19 ABC.", "KX19 ABC", Label.VEHICLE),
    ("registration number KX19 ABC on the form", "KX19 ABC", Label.VEHICLE),
    ("number plate AB12CDE noted", "AB12CDE", Label.VEHICLE),
    ("his plate was 7ABC123 per security", "7ABC123", Label.VEHICLE),
    ("still drives her truck, plate 727n lol", "727n", Label.VEHICLE),  # a word after a plate is no part of it
    # A transcription footer's job and document numbers.
    ("DD: 02/03/2017 / Job #: 104943 / cc: dr. Tate", "104943", Label.IDNUM),
    ("T: 7/16/14  D: 7/16/14 / Job: M00760  Doc: 949630", "949630", Label.IDNUM),
    # a prefix joined by a colon to a letter-led part
    ("Accession # 11:C58868", "11:C58868", Label.IDNUM),
    ("Pathology specimen 04:C09567 sent; results pending.", "04:C09567", Label.IDNUM),
    ("specimen 73:k14437 sent to path", "73:k14437", Label.IDNUM),
    # a pathology report's and an encounter's numbers
    ("Path # SP-19-12345 shows adenocarcinoma", "SP-19-12345", Label.IDNUM),
    ("Surgical Pathology #: S19-4567 benign", "S19-4567", Label.IDNUM),
]
NEGATIVES: list[Case] = [
    # a clock time after the trigger or the number: two numbers a colon joins
    ("ID: 12:30 seen; case 10:45 pm", None, None),
    # a count, a size or a length of time after a report's or an encounter's word
    ("path showed adenoca; path pending x2 days; slide 2 of 4; encounter 2 of 3; path 10 mm margin", None, None),
    ("MRN 1234567 12:30 arrived", "12:30", Label.MEDICALRECORD),
    ("levels L4 12 34 56 A noted", "12 34 56", Label.SSN),  # no National Insurance prefix starts with a digit
    ("GB 12 34 56 A", "12 34 56", Label.SSN),  # a prefix HMRC never allocates
    ("NI no. 12 34 56 A; national insurance pending", "12 34 56", Label.SSN),  # no prefix letters after the word
    ("ratio 10:42:33:12:01 ok", "10:42:33", Label.DEVICE),  # five pairs: no MAC address
    # a sort code is six digits in pairs, after its name
    ("sort code the samples by 12-14-16-18 hours", None, None),
    ("codes sorted 40-47-84", None, None),
    ("referred by NHS 111 service; call NHS 24 out of hours", None, None),
    # "plate" in the laboratory, or followed by a number and a word
    ("blood agar plate 2 days old, plate count 24 hrs, plates 3 and 4 grew", None, None),
    ("HEPARIN INCREASED TO 1000U/HR, NEG BY 1500CC", None, None),
    ("EXTUBATED AT 1145AM WITH STABLE ABG", None, None),
    ("ID=95.8-97.2 WARMING BLANKET ON", None, None),
    ("pager #54321 for questions", None, None),
    ("room #402 and bed 3", None, None),
    ("L4-5 disc, C5-6, T12 fracture", None, None),
    ("FiO2 40%, PO2 88, SpO2 97", None, None),
    ("case manager aware", None, None),
    ("id consult following", None, None),
    ("SSN unknown; 000-00-0000 placeholder", None, None),
    ("doc aware of labs, job done", None, None),
    ("came by car (2 hours) with wife", None, None),
    ("per chart 2 days ago; chart 3 times; chart 12 34", None, None),
    ("van (wheelchair) arranged", None, None),
    # a plate that fixes a bone, a registration that is a time, a quantity in brackets
    ("ORIF with plate 12 holes; registration was 14 days ago; registration no 2 of 3", None, None),
    ("left in his truck (10mg pills); plate was removed in surgery", None, None),
]
CASE_VARIANTS = [(t.upper(), e.upper() if e else None, lab) for t, e, lab in POSITIVES if lab is not Label.VEHICLE] + [
    (t.lower(), e.lower() if e else None, lab) for t, e, lab in POSITIVES if not any(c.isalpha() for c in e or "")
]


@pytest.mark.parametrize(("text", "expected", "label"), params(POSITIVES + CASE_VARIANTS))
def test_finds_ids(text: str, expected: str, label: Label) -> None:
    check_positive(id_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "forbidden", "label"), params(NEGATIVES))
def test_ignores_non_ids(text: str, forbidden: str | None, label: Label | None) -> None:
    check_negative(id_detector(), text, forbidden, label)


@pytest.mark.parametrize(("vin", "ok"), [("1M8GDM9AXKP042788", True), ("1M8GDM9AYKP042788", False), ("SHORT", False)])
def test_vin_check_digit(vin: str, ok: bool) -> None:
    assert vin_check_digit_ok(vin) is ok
