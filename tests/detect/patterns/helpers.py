"""Shared helpers for the pattern detector tables: run a detector on a synthetic note."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Detector
from deident.detect.patterns import pattern_detectors
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.hints import scan_hints
from deident.detect.patterns.rules import Pattern

# A case is (note text, expected PHI substring or None for "no span at all", expected label).
Case = tuple[str, str | None, Label | None]


def found(detector: Detector, text: str) -> list[tuple[str, Label]]:
    return [(text[s.start : s.end], s.label) for s in detector.detect(Document("t", text))]


def params(cases: Sequence[Case], known_failures: frozenset[tuple[str, str | None]] = frozenset()) -> list[object]:
    """pytest params; (text, expected) pairs in ``known_failures`` are expected to fail (strict xfail)."""
    return [
        pytest.param(
            *case, id=f"{case[0][:40]}->{case[1]}", marks=pytest.mark.xfail(strict=True, reason="known failure")
        )
        if (case[0], case[1]) in known_failures
        else pytest.param(*case, id=f"{case[0][:40]}->{case[1]}")
        for case in cases
    ]


def check_positive(detector: Detector, text: str, expected: str | None, label: Label | None) -> None:
    spans = found(detector, text)
    assert (expected, label) in spans, f"expected {(expected, label)} among {spans}"


def check_negative(detector: Detector, text: str, forbidden: str | None, label: Label | None) -> None:
    spans = found(detector, text)
    if forbidden is None:
        assert spans == [], f"expected no spans, got {spans}"
    else:
        assert not any(forbidden in covered or covered in forbidden for covered, _ in spans), spans


def random_texts(rng: random.Random, pieces: Sequence[str], count: int, fewest: int, most: int) -> list[str]:
    """``count`` texts, each ``fewest`` to ``most`` pieces drawn with ``rng`` (equivalence-test fodder)."""
    return ["".join(rng.choices(pieces, k=rng.randint(fewest, most))) for _ in range(count)]


SAMPLE = (
    "Mr. Nicholson is a 93 yo man, s/p CABG '92, seen 7/22/05 by Dr. Griffin (pager 83554). "
    "MRN: 1234567. Lives at 19 Clover St., Baltimore, MD 21201. WIFE ANNA CALLED 410-322-1419; "
    "spoke with daughter lisa. Room 12. In 1992 and summer 2004 he fell; e. welsh aware. "
    "Jean Hudson, RN. Hank Przybylo (son). christmas at home, moved from Trenton, NJ. aged 82. fax: 617-555-0100."
)


def all_patterns() -> list[Pattern]:
    return [p for d in pattern_detectors() if isinstance(d, PatternDetector) for p in d.patterns]


# Pieces that digit-led rules care about: digit runs of every length, separators, units, months, ordinals.
DIGIT_PIECES = (
    "1", "7", "12", "31", "123", "555", "1234", "1999", "2006", "0630", "12345", "1234567", "/", "/", "-", "-", ".",
    ".", ",", "'", " ", " ", "  ", "\t", "\n", "y", "yo", "y/o", " years old", "st", "th", "nd", " Jan", " of ", "mg",
    "x", "#", "s", "(", ")", ":", " PTCA", " stent", "in ", "since ", " Main St", "am", "%", "A", "+",
    # whole shapes of the rarer rules, so that each rule matches in some generated texts
    "1990s", "1990's", "50s", "80's", "202 267 1093", "240444-1243", "10.1.2.3", "123-45-6789", "45 years of age",
    "\n45 male", "11/21.93", "3/4.2005", " on 3/15 ", " 2005-07-22 ", " 555-1234 ", " 7/22/05 ", " 12-3 ",
    " 12/22/05 ", " 2005/07/22 ", " 555 - 1234 ", " 45 yr ", "\n101 male", " 74' ", " to Quillfield 3 ",
    " AB 12 34 56 C ", " JG103759A ", "D", " GB", "dob=", "=", " 97 YEARS F ", " years m", "f/u",
    " Quillan Flats,", " on 5/29-6/1 ", " 10/01/10/02 ", " CHOLE6/95 ", " 3/4 - 3/9 ", " 5/29/19-6/1/19 ",
)  # fmt: skip


def digit_texts() -> list[str]:
    rng = random.Random(20261122)
    texts = [SAMPLE, SAMPLE.upper(), SAMPLE.lower()] + ["".join(rng.choices(DIGIT_PIECES, k=30)) for _ in range(1500)]
    return texts + list(NATIONAL_PHONE_TEXTS) + list(LATER_RULE_TEXTS)


# Whole shapes of digit-led rules added after the random texts were fixed, each in three texts (appended, so that the
# random texts stay as they were).
LATER_RULE_TEXTS = (
    "celebrated her 95th birthday, 90th bday",
    "HIS 101ST BIRTHDAY x92nd b-day",
    "(3rd birthday) 1st bday.",
    # a name, a comma and the age
    "Quorvane, 82F; Ann, 7 yo x, 45M",
    "TOBIAH, 78 Y/O M. Kiochao, 67-year-old",
    "Tobiah Q., 101 y.o. man",
)


# Numbers written nationally, checked IDs and postcodes (after the random texts, which stay as they were).
NATIONAL_PHONE_TEXTS = (
    "Tel 020 7946 0958, mob 07700900123 or 0412 345 678.", "(02) 9876 5432 and 01 234 5678; 0800 1200 1600",
    "x0161 496 0000 /029 2018 3000 12 0113-496-0000",
    # after dashes, and pairs of numbers with a slash (each in three texts)
    "SON---07700 900123 -07700 900124 2-0800 1200", "x--0161 496 0000 (-020 7946 0958)", "a -0412 345 678-",
    " 555-0199/555-0142 617-555-0199/0142", "x555-0199/555-0142 (617 555 0199/617-555-0142)",
    "900-1300/800-1200, 1/555-0199/555-0142 555-0199 / 0142",
    # checked IDs found by shape, each in three texts
    "IBAN GB82 WEST 1234 5698 7654 32, xGB82 1234 5678", "DE89370400440532013000.", "(IE29 AIBK 9311 5212 3456 78)",
    "DEA AB1234563, 5AB1234563", "BJ6125341; ZZ1234563", "x FB1234569 q",
    "MBI 1EG4-TE5-MK73, x1EG4TE5MK73", "2AC3DF6GH78 or 1EG4-TE5MK73", "(9XY7-AC8-CD90)",
    # postcodes
    "Leeds LS1 4AP, xSW1A 1AA", "London SW1A 1AA and EC1A 1BB", "M60 1NW; B33 8TH; L4 5 disc",
    "Ottawa, ON K1A 0B1", "T2N1N4 or xK1A 0B1", "(H2X-1Y4)", "ZIP 21201-3456", "21201-3456.",
    "10000-2000 ml 02134-1234",
    # a one-digit country code before a dashed North American shape
    " 7-495-123-4567 x2-555-555-5555", "(6-064-516-4243) -3-555-555-5555", "1-617-555-0199, 9-114-066-2685.",
    # postcode shapes of any capitals at an address line's end
    "5 Main St\nKelbury\nZU9 4HI\nTel", "x ZU9 4HI, QQ1 4IK", "AB12 3CD\n", "Kelbury ON N1H 7U6\n", "Q8K 2C6, W3C-1H3",
    # a patient's initials set off before the age
    "J.S., a 62-year-old man", "x T. Q., an 45 yo (TQ, a 7 y/o)", "AB, a 101 years old; CD,  a 9-yr-old",
    # a continental postcode before its town
    "Storgata 1,\n0155 Oslo.", "x, 8001 Zürich\n12345 Berlin", "a,1012 LG Amsterdam, 75001 Paris,x 2019 Boston",
    # French dates and Quebec street addresses
    "Date: 15 mars 2019", "vu le 1er août 2020, 3 mai", "x21 février 1966 (4 juin 2001)",
    "1176, chemin Thibault", "45 rue de la Gauchetière; 3 rue x", "(8 boul. René-Lévesque) 12, avenue Smith",
    # a month and a four-digit year
    "CABG 9/2002, PCI 11/2004", "x09-2002 (12/2019) 3-2000", "13/2005 1/1899.4/2031",
    # a person's age set off after the name
    "Tamsin, 34, from x", "Quorvane, aged 52, was; Ann, 120, x", "Quorvane, 52 years old, who; Bo,  7 yo,",
    "Ann (34) and Bo ( aged 7 F)", "x (119 yo) or (7)", "(52yrs) x(34) 1, 2, 3 (4)",
    # an age and the sex before a case's history
    "91F with CHF; 92 M s/p fall", "x93M w/ (91 F who) 8F,with", "Tmax 101 F with; 1234F with 93 Mwith 9 F  adm",
    # a street whose type is joined to its name, the number after it
    "Quorvanestraße 5, Kerkstraat 12B", "x Berliner Straße  12 (Storgatan 3-4) xweg 5", "Hauptstr. 7.5 Ufer 12345",
    "Brantiskweg\t9 Agata 3 Dijk 4 Kirkevej 1, Ahokatu 22a.",
    # numeric dates with blanks around their separators
    "DOB: 03 / 04 / 1950, 3 . 4 . 2021 x12 - 3 - 2019", "1950 / 03 / 04 (2019 -07- 22) 4 - 5 - 10 13 / 13 / 2019",
    "03/ 04/ 1950 1 -2 - 2000 x2019  /  07/22 3 / 4 / 21",
    # a range of days joined by a dash before the month
    "4-6 March 2019, 1-3 Nov, 6-4 March x3--4 May 2-3 may 12th-14th Jan 30-32 Feb L4-5 Mar",
)  # fmt: skip


def digit_led_patterns() -> list[Pattern]:
    return [p for p in all_patterns() if p.hints.digit_run is not None]


def with_hints(pattern: Pattern, **changes: object) -> Pattern:
    """``pattern`` with some of its speed hints changed (a reference without a fast path, say)."""
    return dataclasses.replace(pattern, hints=dataclasses.replace(pattern.hints, **changes))  # type: ignore[arg-type]


def anchors_of(pattern: Pattern) -> tuple[str, ...]:
    """The anchors the planner uses for ``pattern`` (written or derived)."""
    return scan_hints(pattern).anchors or ()
