"""Date shifting keeps the written format; intervals survive; nothing is left as written."""

from __future__ import annotations

import datetime as dt

import pytest

from deident.replace.dates import date_offset, shift_date_text
from deident.replace.keys import SecretKey

# (original, offset in days, expected)
SHIFTS = [
    ("7/22", 400, "8/26"),
    ("7/22/1992", 400, "8/26/1993"),
    ("07/02/92", 400, "08/06/93"),
    ("July 22nd", 400, "August 26th"),
    ("Jul. 22, 1992", 400, "Aug. 26, 1993"),
    ("22nd of July", 400, "26th of August"),
    ("JUNE 3", 400, "JULY 8"),
    ("dec 25", 400, "jan 29"),
    ("Sept 3", 400, "Oct 8"),
    ("1992", 400, "1993"),
    ("92", 400, "93"),
    ("'92", 400, "'93"),
    ("2012-03-04", 400, "2013-04-08"),
    ("7/92", 400, "8/93"),
    ("12/1996", 400, "1/1998"),
    ("7/22-7/25", 400, "8/26-8/29"),
    ("3/14 10:30", 400, "4/18 10:30"),
    ("Tuesday", 400, "Wednesday"),
    ("22/7/1992", 400, "26/8/1993"),
    ("7/22/1992", -800, "5/14/1990"),
    ("2/29", 365, "2/28"),
    # zero padding is the date's, not each part's: "30" of a padded date becomes "08", not "8"
    ("2015-09-30", 100, "2016-01-08"),
    ("2015-11-30", 100, "2016-03-09"),
    ("2015-9-3", 30, "2015-10-3"),
    ("03/14/2021", 85, "06/07/2021"),
    ("14/03/2021", 85, "07/06/2021"),
    ("12/14/2021", -7, "12/7/2021"),
    ("3/14/2021", 85, "6/7/2021"),
    ("03/14", 85, "06/07"),
]


@pytest.mark.parametrize(("original", "offset", "expected"), SHIFTS)
def test_shift_keeps_format(original: str, offset: int, expected: str) -> None:
    assert shift_date_text(original, offset) == expected


REDUCED = [("7/22/1992", "1992"), ("July 22nd, 1992", "1992"), ("7/22", ""), ("'92", "'92"), ("2012-03-04", "2012")]


@pytest.mark.parametrize(("original", "expected"), REDUCED)
def test_reduce_to_year(original: str, expected: str) -> None:
    assert shift_date_text(original, 0, reduce_to_year=True) == expected


@pytest.mark.parametrize("text", ["Christmas", "the weekend", ""])
def test_unrecognised_returns_none(text: str) -> None:
    assert shift_date_text(text, 400) is None


def test_intervals_survive() -> None:
    key = SecretKey.from_text("k" * 20)
    offset = date_offset(key, "patient-1")
    first, second = shift_date_text("3/1/2010", offset), shift_date_text("3/15/2010", offset)
    assert first is not None and second is not None
    a = dt.datetime.strptime(first, "%m/%d/%Y")
    b = dt.datetime.strptime(second, "%m/%d/%Y")
    assert (b - a).days == 14


@pytest.mark.parametrize("patient", [str(n) for n in range(60)])
def test_offset_always_changes_year_and_month_day(patient: str) -> None:
    offset = date_offset(SecretKey.from_text("k" * 20), patient)
    assert abs(offset) > 365 and offset % 7 != 0
    for original in ("7/22", "1992", "2/28/2000", "Dec 31"):
        assert shift_date_text(original, offset) != original


def test_preserve_weekday() -> None:
    offset = date_offset(SecretKey.from_text("k" * 20), "p", preserve_weekday=True)
    assert offset % 7 == 0
    assert shift_date_text("Tuesday", offset) == "Tuesday"


def test_offset_depends_on_patient_and_key() -> None:
    key = SecretKey.from_text("k" * 20)
    offsets = {date_offset(key, str(n)) for n in range(20)}
    assert len(offsets) > 15
    assert date_offset(key, "1") == date_offset(SecretKey.from_text("k" * 20), "1")
    assert date_offset(key, "1") != date_offset(SecretKey.from_text("j" * 20), "1")
