from __future__ import annotations

import datetime as dt
import random

import pytest

from deident.core.labels import Label
from deident.synth import phi

DAY = dt.date(2005, 7, 22)  # a Friday


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ("mdy", "7/22/2005"),
        ("mdy_pad", "07/22/2005"),
        ("md", "7/22"),
        ("mdy_short", "7/22/05"),
        ("iso", "2005-07-22"),
        ("long", "July 22, 2005"),
        ("long_ord", "July 22nd"),
        ("month_ord", "Jul 22nd"),
        ("dmy", "22 Jul 2005"),
        ("year", "2005"),
        ("apos_year", "'05"),
        ("weekday", "Friday"),
        ("mon_d", "Jul 22"),
        ("dash", "07-22-2005"),
        ("dmy_dot", "22.07.2005"),
        ("md_dash", "7-22"),
        ("ord_of", "22nd of July"),
    ],
)
def test_date_forms(form: str, expected: str) -> None:
    assert phi.format_date(DAY, form, random.Random(0)) == expected


def test_every_date_form_is_tabled() -> None:
    assert set(phi.DATE_FORMS) - {"month_year"} <= {
        "mdy", "mdy_pad", "md", "mdy_short", "iso", "long", "long_ord", "month_ord", "dmy", "year", "apos_year",
        "weekday", "mon_d", "dash", "dmy_dot", "md_dash", "ord_of",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("form", "age", "labelled", "context"),
    [
        ("yo", 58, "58", " yo"),
        ("year-old", 58, "58", "year"),
        ("aged", 91, "91", "ag"),
        ("decade", 58, "50s", "in h"),
        ("bare", 102, "102", ""),
    ],
)
def test_age_pieces_label_only_the_number(form: str, age: int, labelled: str, context: str) -> None:
    pieces = phi.age_pieces(age, form, random.Random(1))
    assert [text for text, label in pieces if label is Label.AGE] == [labelled]
    assert context in "".join(text for text, label in pieces if label is None)


PERSON = phi.Person(first="Rose", middle="Anne", last="Baker-Hill", female=True, relation="wife")


@pytest.mark.parametrize(
    ("form", "labelled", "unlabelled"),
    [
        ("full", "Rose Baker-Hill", ""),
        ("lastfirst", "Baker-Hill, Rose", ""),
        ("initial", "R. Baker-Hill", ""),
        ("middle", "Rose A. Baker-Hill", ""),
        ("initials", "RAB", ""),
        ("first", "Rose", ""),
        ("last", "Baker-Hill", ""),
    ],
)
def test_name_forms(form: str, labelled: str, unlabelled: str) -> None:
    pieces = phi.name_pieces(PERSON, form, Label.PATIENT, random.Random(0))
    assert [t for t, label in pieces if label is Label.PATIENT] == [labelled]
    assert "".join(t for t, label in pieces if label is None) == unlabelled


@pytest.mark.parametrize(("form", "context"), [("dr", "Dr"), ("sig", ","), ("title", "M"), ("poss", "'s")])
def test_name_context_stays_outside_the_span(form: str, context: str) -> None:
    pieces = phi.name_pieces(PERSON, form, Label.DOCTOR, random.Random(3))
    outside = "".join(t for t, label in pieces if label is None)
    assert context.lower() in outside.lower()
    assert all(context.lower() not in t.lower() for t, label in pieces if label is not None)


def test_misspelling_changes_the_name() -> None:
    rng = random.Random(0)
    assert any(phi.name_pieces(PERSON, "typo", Label.DOCTOR, rng)[0][0] not in {"Rose", "Baker-Hill"} for _ in range(5))


@pytest.mark.parametrize("label", [Label.SSN, Label.MEDICALRECORD, Label.HEALTHPLAN, Label.ACCOUNT, Label.LICENSE,
                                   Label.DEVICE, Label.BIOID, Label.IDNUM, Label.ROOM])  # fmt: skip
def test_identifiers_are_non_empty_single_tokens(label: Label) -> None:
    from deident.synth.vocab import faker_for

    fake = faker_for("en_US")
    fake.seed_instance(4)
    rng = random.Random(4)
    for _ in range(20):
        value = phi.identifier(label, fake, rng)
        assert value and value == value.strip() and " " not in value
