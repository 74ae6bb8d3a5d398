"""CONTACT pattern table: phones in many shapes, pagers, faxes, e-mail, URL, IP; and numeric negatives."""

from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.detect.patterns import contact_detector

from .helpers import Case, check_negative, check_positive, params

P = Label.PHONE

POSITIVES: list[Case] = [
    ("son cell# 410-322-1419 Home# 603-960-5357", "410-322-1419", P),
    ("call (800) 000-0000 for results", "(800) 000-0000", P),
    ("office (617)555-0199 x1234 today", "(617)555-0199 x1234", P),
    ("reach her at 617.555.0199 tonight", "617.555.0199", P),
    ("wife Carol (201/324/1423) confirms", "(201/324/1423)", P),
    ("dtr - 212- 476- 8356.", "212- 476- 8356", P),
    ("son dave (240444-1243) was in", "(240444-1243)", P),
    ("they can be reached at 202 2671093. pt", "202 2671093", P),
    ("DAUGHTER-KRISSY---301 944-5032 &", "301 944-5032", P),
    ("home phone 555 3456 after 5", "555 3456", P),
    ("call 555-3456 after 5", "555-3456", P),
    ("Pager 83554.", "83554", P),
    ("Pager #54321 \nTime 3:00pm", "54321", P),
    ("can be reached at beeper number 55037 for", "55037", P),
    ("PG 33445\n", "33445", P),
    ("+44 20 7946 0958 is the UK number", "+44 20 7946 0958", P),
    ("fax: 617-555-0100 to the office", "617-555-0100", Label.FAX),
    ("email jane.doe@example.org today", "jane.doe@example.org", Label.EMAIL),
    ("see https://www.example.com/path?x=1.", "https://www.example.com/path?x=1", Label.URL),
    ("see www.hospital.org for info", "www.hospital.org", Label.URL),
    ("from 192.168.10.25 overnight", "192.168.10.25", Label.IPADDR),
    ("call 555-1000 after 5", "555-1000", P),
    ("son's cell 410-322-1400", "410-322-1400", P),
]
NEGATIVES: list[Case] = [
    ("UO 100-1200 cc over the shift", None, None),
    ("given 2 units at 1900 - 0700 shift", None, None),
    ("ABG 7.35/40/80/24/-1 on 40%", None, None),
    ("plt 250000 and wbc 12.5", None, None),
    ("heparin 850 units/hr, ptt 65.4", None, None),
    ("version 1.2.3 of the pump", None, None),
    ("page 2 of the consent", None, None),
    ("SVR 900-1300, CO via fick 5", None, None),
    ("Pt voiding 575-1000 cc/hr", None, None),
    ("IS 750-1000.RR 13-18", None, None),
    ("WIDE COMPLEX TACHYCARDIA, WITH HR 100-1112. EKG DONE", None, None),
    ("CPAP/PS 16, PEEP VT 460. 2100 BECAME TACHYPNEIC", None, None),
    ("abg on these settings: 80/48/7.45.34.7. he", None, None),
]
CASE_VARIANTS = [(t.upper(), e.upper() if e else None, lab) for t, e, lab in POSITIVES if lab is P] + [
    (t.lower(), e.lower() if e else None, lab) for t, e, lab in POSITIVES if lab is P
]
KNOWN_FAILURES: frozenset[str] = frozenset()
HARD: list[Case] = [("(301 273 45166) both have", "(301 273 45166)", P)]


@pytest.mark.parametrize(("text", "expected", "label"), params(POSITIVES + CASE_VARIANTS + HARD, KNOWN_FAILURES))
def test_finds_contacts(text: str, expected: str, label: Label) -> None:
    check_positive(contact_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "forbidden", "label"), params(NEGATIVES))
def test_ignores_clinical_numbers(text: str, forbidden: str | None, label: Label | None) -> None:
    check_negative(contact_detector(), text, forbidden, label)
