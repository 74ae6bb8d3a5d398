from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.replace.consistency import PatientSurrogates, normalise
from deident.replace.keys import SecretKey
from deident.replace.names import name_pools

KEY = SecretKey.from_text("consistency-key-0001")


def test_same_value_same_surrogate_in_any_case() -> None:
    table = PatientSurrogates(KEY, "p1", [(Label.DOCTOR, "Kowalski"), (Label.DOCTOR, "KOWALSKI")])
    assert table.name("Kowalski").upper() == table.name("KOWALSKI")
    assert table.name("Kowalski's") == table.name("Kowalski") + "'s"


def test_same_across_tables_of_one_patient() -> None:
    one = PatientSurrogates(KEY, "p1", [(Label.DOCTOR, "Kowalski")])
    two = PatientSurrogates(KEY, "p1", [(Label.DOCTOR, "Kowalski"), (Label.RELATIVE, "Anna")])
    assert one.name("Kowalski") == two.name("Kowalski")


def test_phone_layouts_share_digits() -> None:
    table = PatientSurrogates(KEY, "p1", [(Label.PHONE, "617-555-0199"), (Label.PHONE, "(617) 555 0199")])
    a, b = table.value(Label.PHONE, "617-555-0199"), table.value(Label.PHONE, "(617) 555 0199")
    assert [c for c in a if c.isdigit()] == [c for c in b if c.isdigit()]
    assert a[3] == "-" and b[0] == "("


def test_no_two_originals_share_a_surrogate_and_none_reuses_an_original() -> None:
    # Many last names for one patient: the pool is 1,000 names, so unresolved draws would collide.
    originals = [f"Name{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(300)]
    table = PatientSurrogates(KEY, "p1", [(Label.DOCTOR, o) for o in originals])
    surrogates = [table.name(o) for o in originals]
    assert len(set(surrogates)) == len(originals)
    assert not {s.casefold() for s in surrogates} & {o.casefold() for o in originals}


def test_surrogate_never_repeats_another_original_of_the_patient() -> None:
    names = ["John", "Peter", "Mary", "Anna", "James", "Robert", "Linda", "David", "Susan", "Karen"]
    table = PatientSurrogates(KEY, "p1", [(Label.RELATIVE, n) for n in names])
    assert not {table.name(n) for n in names} & set(names)


def test_initials_change() -> None:
    table = PatientSurrogates(KEY, "p1", [(Label.PATIENT, "J"), (Label.PATIENT, "K")])
    assert table.name("J") not in ("J", "K") and table.name("K") not in ("J", "K")
    assert table.name("J") != table.name("K")


def test_keys_and_patients_differ() -> None:
    other_key = SecretKey.from_text("consistency-key-0002")
    names = [f"Surname{i}" for i in range(20)]

    def all_surrogates(key: SecretKey, patient: str) -> list[str]:
        table = PatientSurrogates(key, patient, [(Label.DOCTOR, n) for n in names])
        return [table.name(n) for n in names]

    assert all_surrogates(KEY, "p1") == all_surrogates(KEY, "p1")
    assert all_surrogates(KEY, "p1") != all_surrogates(other_key, "p1")
    assert all_surrogates(KEY, "p1") != all_surrogates(KEY, "p2")


def test_normalise() -> None:
    assert normalise(Label.PHONE, "(617) 555-0199") == "6175550199"
    assert normalise(Label.HOSPITAL, "Mercy  Hospital's") == "mercy hospital"


def _is_person_name(text: str) -> bool:
    pools = name_pools()
    known = {n.casefold() for pool in pools.values() for n in pool}
    return all(word.casefold() in known for word in text.split())


# (label, original, whether it is replaced by a person's name)
PERSONS = [
    (Label.PATIENT, "Zelda Quarrington", True),
    (Label.DOCTOR, "Quarrington", True),
    (Label.RELATIVE, "Zelda Quarrington", True),
    (Label.USERNAME, "Zelda Quarrington", True),  # a username written as a name
    (Label.USERNAME, "zquarr_1987", False),  # a handle gets a handle
    (Label.LOCATION_OTHER, "Zelda Quarrington", True),  # a first name and a surname, mislabelled as a place
    (Label.CITY, "Zelda Quarrington", True),
    (Label.LOCATION_OTHER, "Quarrington", True),  # the patient's own name elsewhere
    (Label.LOCATION_OTHER, "Brookhaven", False),
    (Label.LOCATION_OTHER, "Zelda Nursing Home", False),
    (Label.STREET, "Zelda Quarrington", False),  # a street is named after people
    (Label.HOSPITAL, "Mary Quarrington", False),
    (Label.CITY, "Virginia Beach", False),  # a first name, but a listed place
    (Label.LOCATION_OTHER, "Santa Clara", False),
]


@pytest.mark.parametrize(("label", "original", "person"), PERSONS)
def test_a_person_gets_a_person_name_whatever_the_sub_label(label: Label, original: str, person: bool) -> None:
    table = PatientSurrogates(KEY, "p1", [(Label.PATIENT, "Zelda Quarrington"), (label, original)])
    assert table.is_person(label, original) is person
    if person:
        new = table.name(original)
        assert _is_person_name(new) and len(new.split()) == len(original.split())
        assert not set(new.split()) & set(original.split())


def test_generic_facility_words_may_be_shared() -> None:
    """'Nursing Home' of one original does not forbid 'X Nursing Home' (which sent it to letter soup)."""
    table = PatientSurrogates(KEY, "p1", [(Label.HOSPITAL, "Greenfield Nursing Home")])
    new = table.value(Label.HOSPITAL, "Greenfield Nursing Home")
    assert new.endswith(" Nursing Home") and new.split()[0] in name_pools()["last"]


def test_phone_extension_word_survives_consistency() -> None:
    table = PatientSurrogates(KEY, "p1", [(Label.PHONE, "617-555-0199 ext 12")])
    new = table.value(Label.PHONE, "617-555-0199 ext 12")
    assert " ext " in new and new != "617-555-0199 ext 12"


def test_a_name_or_initial_that_is_also_a_generic_word_still_changes() -> None:
    """Generic words may be shared by values only: "M" or "Ward" of a name never survive."""
    originals = [(Label.PATIENT, "M"), (Label.PATIENT, "X"), (Label.DOCTOR, "Ward"), (Label.DOCTOR, "House")]
    for patient in (f"p{i}" for i in range(40)):
        table = PatientSurrogates(KEY, patient, originals)
        for _, original in originals:
            assert table.name(original).casefold() != original.casefold()


@pytest.mark.parametrize(
    ("label", "original"),
    [(Label.EMAIL, "zq@example.org"), (Label.EMAIL, "zquarr@gmail.com"), (Label.URL, "https://www.zquarr.com")],
)
def test_web_addresses_get_faker_values_not_letter_soup(label: Label, original: str) -> None:
    """Their generic words ("example", "com", "www") no longer send every draw to the reshaped fallback."""
    for patient in ("p1", "p2", "p3"):
        new = PatientSurrogates(KEY, patient, [(label, original)]).value(label, original)
        assert new != original and "zq" not in new
        if label is Label.EMAIL:
            assert new.split("@")[1] in {"example.org", "example.com", "example.net"}, new
        else:
            assert new.startswith(("http://", "https://")) and new.rstrip("/").endswith(
                (".com", ".org", ".net", ".biz", ".info")
            ), new
