from __future__ import annotations

import ipaddress

import pytest

from deident.core.labels import Label
from deident.replace.names import name_pools
from deident.replace.surrogates import GENERIC_PLACE_WORDS, draw, draw_name_token, facility_kind


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
    "original", ["fe80::1ff:fe23:4567:890a", "2001:db8::ff00:42:8329", "192.168.1.20", "10.0.0.255"]
)
def test_ip_addresses_stay_valid(original: str) -> None:
    for seed in range(50):
        new = draw(Label.IPADDR, original, seed)
        assert new != original
        assert ipaddress.ip_address(new).version == ipaddress.ip_address(original).version


@pytest.mark.parametrize(
    ("label", "original", "word"),
    [
        (Label.PHONE, "617-555-0199 ext 12", "ext"),
        (Label.PHONE, "(617) 555-0199 x45", "x45"[0]),
        (Label.FAX, "617-555-0142 EXT. 9", "EXT."),
        (Label.PHONE, "pager 61234", "pager"),
    ],
)
def test_phone_extension_words_are_kept(label: Label, original: str, word: str) -> None:
    for seed in range(20):
        new = draw(label, original, seed)
        assert word in new and new != original
        assert [c.isdigit() for c in new] == [c.isdigit() for c in original]


# (label, original, the kind of facility its surrogates must name)
FACILITIES = [
    (Label.HOSPITAL, "Greenfield Nursing Home", "nursing home"),
    (Label.HOSPITAL, "Quarry Hill Nursing and Rehab", "nursing home"),
    (Label.LOCATION_OTHER, "Ardmoor Manor", "nursing home"),
    (Label.HOSPITAL, "Mercy Hospital", "hospital"),
    (Label.HOSPITAL, "St. Quimby's Medical Center", "hospital"),
    (Label.HOSPITAL, "Zorn Family Clinic", "clinic"),
    (Label.LOCATION_OTHER, "Brookhaven Rehabilitation Hospital", "rehab"),
    (Label.DEPARTMENT, "Quimby 4 unit", "unit"),
    (Label.DEPARTMENT, "Quimby Ward", "unit"),
]


@pytest.mark.parametrize(("label", "original", "kind"), FACILITIES)
def test_facilities_keep_their_kind_and_read_as_names(label: Label, original: str, kind: str) -> None:
    for seed in range(30):
        new = draw(label, original, seed)
        assert facility_kind(new) == kind, new
        # a surname (or "St." and a first name) before the kind: real words, never letter soup
        name = new.split()[1] if new.startswith("St. ") else new.split()[0]
        pools = name_pools()
        assert name in pools["last"] or name in pools["female"] or name in pools["male"], new
        words = original.replace("'s", "").replace(".", "").split()
        distinctive = {w for w in words if w.casefold() not in GENERIC_PLACE_WORDS and not w.isdigit()}
        assert not distinctive & set(new.split()), new
        assert (any(c.isdigit() for c in new)) is (any(c.isdigit() for c in original))


def test_a_department_is_a_unit_not_a_company() -> None:
    for seed in range(30):
        new = draw(Label.DEPARTMENT, "Quimby 4", seed)
        assert not set(new.replace(",", " ").split()) & {"LLC", "Inc", "PLC", "Ltd", "Group", "and"}, new
        assert new.split()[0] in name_pools()["last"]


def test_a_facility_name_without_its_kind_word_stays_a_name() -> None:
    for seed in range(10):
        new = draw(Label.HOSPITAL, "Holy Cross", seed)
        assert facility_kind(new) is None and new[0].isupper()


def test_a_saint_keeps_its_possessive() -> None:
    for seed in range(10):
        new = draw(Label.LOCATION_OTHER, "St. Quimby's", seed)
        assert new.startswith("St. ") and new.endswith("'s") and "Quimby" not in new
