"""Safe Harbor's own rules: ZIP codes to three digits (bare ones included), ages and years over 89."""

from __future__ import annotations

import pytest

from deident.core.document import Document, DocumentMetadata
from deident.core.labels import Label
from deident.core.span import Span
from deident.replace import Mode, ReplaceOptions, Replacer, SecretKey
from deident.replace.safe_harbor import RESTRICTED_ZIP3, bare_zip_spans, over_89, safe_harbor_age

KEY = SecretKey.from_text("safe-harbor-test-key-01")

# (text, the location span before the number if any, whether the five digits are a ZIP code)
BARE_ZIPS = [
    ("zip code is 02144.", None, True),
    ("Home zip: 02144", None, True),
    ("postal code 02144-1203", None, True),
    ("lives in 02144 with wife", None, True),
    ("Somerville, MA 02144", None, True),
    ("Quimby, Vermont 05751", None, True),
    ("lives in Quarrytown 02150 with wife", "Quarrytown", True),
    ("lives in Quarrytown, 02150", "Quarrytown", True),
    # hard negatives: counts, values, ranges, decimals, ids in other contexts
    ("WBC 12000, plt 15000", None, False),
    ("gave 10000 units of heparin", None, False),
    ("MRN 02144", None, False),
    ("paid $12000 in 2019", None, False),
    ("range 10000-20000", None, False),
    ("value 12345.5", None, False),
    ("zip code 123456", None, False),
    ("Quarrytown\n02150 units", "Quarrytown", False),
]


@pytest.mark.parametrize(("text", "place", "is_zip"), BARE_ZIPS)
def test_bare_zip_spans(text: str, place: str | None, is_zip: bool) -> None:
    spans = []
    if place is not None:
        start = text.index(place)
        spans.append(Span(start, start + len(place), Label.CITY))
    found = bare_zip_spans(text, spans)
    assert bool(found) is is_zip
    assert all(span.label is Label.ZIP for span in found)


def test_bare_zip_inside_a_span_is_left_to_it() -> None:
    text = "Address: 12 Elm St, Quarrytown, MA 02150"
    assert bare_zip_spans(text, [Span(9, len(text), Label.LOCATION_OTHER)]) == []


def test_safe_harbor_mode_removes_a_bare_zip() -> None:
    text = "Lives in Quarrytown 02150. Zip code is 03601."
    city = Span(9, 19, Label.CITY)
    replaced = Replacer(ReplaceOptions(Mode.SAFE_HARBOR, KEY)).replace(Document("d", text, DocumentMetadata()), [city])
    assert "02150" not in replaced.text and "03601" not in replaced.text
    assert replaced.text.endswith(" 021. Zip code is 000.")
    assert [s.label for s in replaced.spans] == [Label.CITY, Label.ZIP, Label.ZIP]
    # the other modes replace what detection found, nothing more
    tagged = Replacer(ReplaceOptions(Mode.TAG)).replace(Document("d", text), [city])
    assert "02150" in tagged.text


def test_restricted_zip3_is_the_hhs_list() -> None:
    assert len(RESTRICTED_ZIP3) == 17 and {"036", "059", "893"} <= RESTRICTED_ZIP3


@pytest.mark.parametrize(
    ("age", "old", "written"),
    [
        ("93", True, "90+"),
        ("90 yo", True, "90+ yo"),
        ("89", False, "89"),
        ("ninety", True, "90+"),
        ("5", False, "5"),
        ("eighty-nine", False, "eighty-nine"),
        ("one hundred", True, "90+"),
    ],
)
def test_ages_over_89(age: str, old: bool, written: str) -> None:
    assert over_89(age) is old
    assert safe_harbor_age(age) == written
