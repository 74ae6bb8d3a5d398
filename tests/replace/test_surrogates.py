from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.replace.safe_harbor import safe_harbor_zip
from deident.replace.surrogates import draw, draw_name_token


@pytest.mark.parametrize(
    ("label", "original"),
    [
        (Label.HOSPITAL, "Mercy Hospital"),
        (Label.CITY, "Boston"),
        (Label.STATE, "MA"),
        (Label.STREET, "12 Elm St"),
        (Label.ORGANIZATION, "Acme Corp"),
        (Label.PROFESSION, "teacher"),
        (Label.EMAIL, "jane@example.org"),
        (Label.URL, "http://example.org"),
        (Label.LOCATION_OTHER, "CALVERT"),
        (Label.LOCATION_OTHER, "GH"),
        (Label.LOCATION_OTHER, "Hospital"),
        (Label.PHONE, "617-555-0199"),
        (Label.MEDICALRECORD, "MRN 0012345"),
        (Label.ZIP, "02139"),
    ],
)
def test_draw_is_deterministic_and_new(label: Label, original: str) -> None:
    values = {draw(label, original, seed) for seed in range(10)}
    assert draw(label, original, 3) == draw(label, original, 3)
    assert len(values) > 1
    assert original not in values or len(values) > 5


def test_abbreviations_keep_length() -> None:
    assert len(draw(Label.LOCATION_OTHER, "GH", 1)) == 2
    assert draw(Label.STATE, "MA", 1).isupper() and len(draw(Label.STATE, "MA", 1)) == 2


def test_only_a_kind_of_place_gets_another_kind() -> None:
    for seed in range(20):
        assert "hospital" not in draw(Label.LOCATION_OTHER, "Hospital", seed).lower()


def test_name_tokens() -> None:
    assert draw_name_token("initial", 2) == "C"
    assert draw_name_token("female", 5) != draw_name_token("female", 6)


@pytest.mark.parametrize(
    ("zip_code", "expected"), [("02139", "021"), ("03601", "000"), ("89301-1234", "000"), ("12", "000")]
)
def test_safe_harbor_zip(zip_code: str, expected: str) -> None:
    assert safe_harbor_zip(zip_code) == expected
