"""Every mode over annotated notes: no original PHI string survives, masks keep the layout,
surrogates are consistent per patient and per key, date intervals survive."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import pytest
import regex

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import ConfigurationError
from deident.core.labels import Category, Label
from deident.core.span import Span, disjoint_spans
from deident.io import read_corpus
from deident.replace import Mode, Replaced, ReplaceOptions, Replacer, SecretKey
from deident.text.number_words import number_value

KEY = SecretKey.from_text("replacer-test-key-0001")
OTHER_KEY = SecretKey.from_text("replacer-test-key-0002")
_FULL_DATE = regex.compile(r"(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})")


def replace_all(docs: Sequence[AnnotatedDocument], mode: Mode, key: SecretKey | None = KEY) -> list[Replaced]:
    replacer = Replacer(ReplaceOptions(mode, key if mode.needs_key else None))
    return replacer.replace_many([(d.document, d.spans) for d in docs])


def _word(text: str) -> regex.Pattern[str]:
    return regex.compile(r"(?<![^\W_])" + regex.escape(text) + r"(?![^\W_])", regex.IGNORECASE)


_YEAR_ALONE = regex.compile(r"(?:'?\d{2}|\d{4})s?", regex.IGNORECASE)  # "1992", "'92", "1980s"
_NUMBER = regex.compile(r"\d+")


def _kept_by_safe_harbor(span: Span, original: str) -> bool:
    """What Safe Harbor may leave as written: a year alone, an age up to 89."""
    if span.label is Label.DATE:
        return _YEAR_ALONE.fullmatch(original) is not None
    return span.label is Label.AGE and all(int(n) <= 89 for n in _NUMBER.findall(original))


def leaked(item: AnnotatedDocument, result: Replaced, mode: Mode | None = None) -> list[str]:
    """Originals (by label, never printed) that survive where they should not.

    * a span's own replacement never contains its original (as a whole word, any case);
    * other than dates (a shifted date may equal another real date of the patient: that is how
      intervals survive), no replacement in the note reproduces an original;
    * an original occurs in the output no more often than in the input's non-PHI text (annotators
      sometimes leave a mention unmarked; those stay, as they were never PHI to the tool).
    Short strings such as initials are checked the same way: whole words only.
    """
    problems = []
    spans = disjoint_spans(item.spans, item.text)
    assert len(spans) == len(result.spans)
    regions = [r.text_of(result.text) for r in result.spans]
    outside = list(item.text)
    for span in spans:
        outside[span.start : span.end] = [" "] * span.length
    outside_text = "".join(outside)
    for span, region in zip(spans, regions, strict=True):
        original = span.text_of(item.text).strip()
        if mode is Mode.SAFE_HARBOR and _kept_by_safe_harbor(span, original):
            continue
        pattern = _word(original)
        if pattern.search(region):
            problems.append(f"{span.label.value}: own replacement")
        if span.category in (Category.DATE, Category.AGE) and mode is Mode.SAFE_HARBOR:
            continue  # "3/4/1992" -> "1992" may equal another span that is the year alone, or an age
        if span.label is Label.DATE:
            continue
        if any(pattern.search(r) for r in regions):
            problems.append(f"{span.label.value}: another replacement")
        if len(pattern.findall(result.text)) > len(pattern.findall(outside_text)):
            problems.append(f"{span.label.value}: in the note")
    return problems


def check_mask(item: AnnotatedDocument, result: Replaced) -> None:
    assert len(result.text) == len(item.text)
    inside = {i for s in item.spans for i in range(s.start, s.end)}
    for i, (old, new) in enumerate(zip(item.text, result.text, strict=True)):
        if i not in inside or old.isspace():
            assert old == new
        else:
            assert new == "*"


def check_consistency(docs: Sequence[AnnotatedDocument], results: Sequence[Replaced]) -> None:
    """Per patient: one surrogate per name, one name per surrogate, one date shift for full dates."""
    surrogate_of: dict[tuple[str | None, str], set[str]] = defaultdict(set)
    original_of: dict[tuple[str | None, str], set[str]] = defaultdict(set)
    shifts: dict[str | None, set[int]] = defaultdict(set)
    for item, result in zip(docs, results, strict=True):
        patient = item.document.patient_id
        for span, new in zip(disjoint_spans(item.spans, item.text), result.spans, strict=True):
            old_text, new_text = span.text_of(item.text), new.text_of(result.text)
            if span.category is Category.NAME:
                old_key, new_key = " ".join(old_text.casefold().split()), " ".join(new_text.casefold().split())
                surrogate_of[(patient, old_key)].add(new_key)
                original_of[(patient, new_key)].add(old_key)
            if span.label is Label.DATE:
                old_match, new_match = _FULL_DATE.fullmatch(old_text.strip()), _FULL_DATE.fullmatch(new_text.strip())
                if old_match and new_match:
                    old_date, new_date = _date(old_match), _date(new_match)
                    if old_date and new_date:
                        shifts[patient].add((new_date - old_date).days)
    assert all(len(v) == 1 for v in surrogate_of.values())
    assert all(len(v) == 1 for v in original_of.values())
    assert all(len(v) == 1 for v in shifts.values())


def _date(match: regex.Match[str]) -> dt.date | None:
    month, day, year = (int(g) for g in match.groups())
    if year < 100:
        year += 1900 if year >= 30 else 2000
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


@pytest.fixture
def mini(fixtures: Path) -> list[AnnotatedDocument]:
    return read_corpus(fixtures / "mini.text")


@pytest.mark.parametrize("mode", list(Mode))
def test_no_phi_left_on_mini(mini: list[AnnotatedDocument], mode: Mode) -> None:
    results = replace_all(mini, mode)
    for item, result in zip(mini, results, strict=True):
        assert leaked(item, result, mode) == []
        assert [s.label for s in result.spans] == [s.label for s in disjoint_spans(item.spans, item.text)]
        # what it replaced, as detected (Safe Harbor's bare ZIP codes are its own, not the detector's)
        assert result.detected == disjoint_spans(item.spans, item.text)
    if mode is Mode.MASK:
        for item, result in zip(mini, results, strict=True):
            check_mask(item, result)
    if mode.needs_key:
        check_consistency(mini, results)


def test_tag_output(mini: list[AnnotatedDocument]) -> None:
    result = replace_all(mini, Mode.TAG)[0]
    assert result.text.startswith("Pt is a [**AGE**] yo man admitted [**DATE**] from [**LOCATION_OTHER**]")
    assert all(s.text_of(result.text) == f"[**{s.label.value}**]" for s in result.spans)


def test_surrogates_consistent_across_notes(mini: list[AnnotatedDocument]) -> None:
    first, second, _ = replace_all(mini, Mode.SURROGATE)
    doctor_in_first = first.spans[6].text_of(first.text)  # "Kowalski"
    doctor_in_second = second.spans[1].text_of(second.text)  # "KOWALSKI"
    assert doctor_in_first.upper() == doctor_in_second
    assert doctor_in_first[0].isupper() and doctor_in_first[1:].islower()


def test_same_key_same_output_other_key_other_output(mini: list[AnnotatedDocument]) -> None:
    one = [r.text for r in replace_all(mini, Mode.SURROGATE)]
    assert one == [r.text for r in replace_all(mini, Mode.SURROGATE)]
    other = [r.text for r in replace_all(mini, Mode.SURROGATE, OTHER_KEY)]
    assert one[0] != other[0]
    assert one[2] == other[2] == mini[2].text  # a note without PHI is untouched


def test_surrogate_modes_need_a_key() -> None:
    with pytest.raises(ConfigurationError, match="--key"):
        ReplaceOptions(Mode.SURROGATE)
    with pytest.raises(ConfigurationError, match="template"):
        ReplaceOptions(Mode.TAG, tag_template="{text}")


def test_overlapping_spans_are_resolved() -> None:
    doc = Document("d", "Seen by John Smith today")
    spans = [Span(8, 18, Label.DOCTOR), Span(13, 18, Label.PATIENT), Span(8, 12, Label.DOCTOR)]
    result = Replacer(ReplaceOptions(Mode.TAG)).replace(doc, spans)
    assert result.text == "Seen by [**DOCTOR**] today"


def _safe_harbor(text: str, labelled: Sequence[tuple[str, Label]], note_date: dt.date | None = None) -> str:
    """``text`` with each (piece, label) replaced in Safe Harbor mode (pieces are found left to right)."""
    spans, cursor = [], 0
    for piece, label in labelled:
        start = text.index(piece, cursor)
        spans.append(Span(start, start + len(piece), label))
        cursor = start + len(piece)
    doc = Document("d", text, DocumentMetadata(patient_id="p", note_date=note_date))
    return Replacer(ReplaceOptions(Mode.SAFE_HARBOR, KEY)).replace(doc, spans).text


# 45 CFR 164.514(b)(2)(i)(C): all elements of dates except the year; ages over 89 and date elements
# (years included) indicative of such age, aggregated into one category of 90 or older.
SAFE_HARBOR_DATES = [
    ("seen 7/22/1992 and 2015-09-30", [("7/22/1992", Label.DATE), ("2015-09-30", Label.DATE)], "seen 1992 and 2015"),
    ("on July 22nd, 2003.", [("July 22nd, 2003", Label.DATE)], "on 2003."),
    ("on 3rd of May 2011", [("3rd of May 2011", Label.DATE)], "on 2011"),
    ("back on 7/22 and Monday", [("7/22", Label.DATE), ("Monday", Label.DATE)], "back on [**DATE**] and [**DATE**]"),
    # A date of birth 90+ years before the patient's latest date: its year implies the age.
    (
        "DOB 01/02/1930, seen 03/04/2021",
        [("01/02/1930", Label.DATE), ("03/04/2021", Label.DATE)],
        "DOB [age 90+], seen 2021",
    ),
    # ... or when the patient's age is over 89, even with no other year to compare with.
    ("DOB: 01/02/1930, age 91", [("01/02/1930", Label.DATE), ("91", Label.AGE)], "DOB: [age 90+], age 90+"),
    ("born in 1931; 93 yo", [("1931", Label.DATE), ("93", Label.AGE)], "born in [age 90+]; 90+ yo"),
    # A year 90 years before the latest year is aggregated wherever it stands; 89 years is not.
    ("in 1931 and in 2021", [("1931", Label.DATE), ("2021", Label.DATE)], "in [age 90+] and in 2021"),
    ("in 1932 and in 2021", [("1932", Label.DATE), ("2021", Label.DATE)], "in 1932 and in 2021"),
    # The note's own date (here in 2020) counts as the patient's latest year.
    ("DOB: 5/6/1925.", [("5/6/1925", Label.DATE)], "DOB: [age 90+]."),
    # A date of birth of a patient not over 89 keeps its year.
    ("DOB 5/6/1950, 71 yo", [("5/6/1950", Label.DATE), ("71", Label.AGE)], "DOB 1950, 71 yo"),
]


@pytest.mark.parametrize(("text", "labelled", "expected"), SAFE_HARBOR_DATES)
def test_safe_harbor_dates_keep_only_the_year(text: str, labelled: list[tuple[str, Label]], expected: str) -> None:
    assert _safe_harbor(text, labelled, note_date=dt.date(2020, 5, 1)) == expected


SAFE_HARBOR_AGES = [
    ("Age 93, walks", "93", "Age 90+, walks"),
    ("a 91-year-old", "91", "a 90+-year-old"),
    ("ninety-two yo", "ninety-two", "90+ yo"),
    ("age 45", "45", "age 45"),  # ages up to 89 are not identifiers: kept as written
    ("89 yo", "89", "89 yo"),
]


@pytest.mark.parametrize(("text", "piece", "expected"), SAFE_HARBOR_AGES)
def test_safe_harbor_ages(text: str, piece: str, expected: str) -> None:
    assert _safe_harbor(text, [(piece, Label.AGE)]) == expected


# 45 CFR 164.514(b)(2)(i)(B): the initial three digits of a ZIP code, "000" where the three-digit
# area holds 20,000 people or fewer.
SAFE_HARBOR_ZIPS = [("02139", "021"), ("02139-4307", "021"), ("03601", "000"), ("89301", "000"), ("10001", "100")]


@pytest.mark.parametrize(("zip_code", "expected"), SAFE_HARBOR_ZIPS)
def test_safe_harbor_zip(zip_code: str, expected: str) -> None:
    assert _safe_harbor(f"lives at {zip_code}.", [(zip_code, Label.ZIP)]) == f"lives at {expected}."


def test_safe_harbor_removes_every_identifier_kind() -> None:
    """Every label gets a replacement that does not hold the original (Safe Harbor (b)(2)(i)(A)-(R))."""
    values = {
        Label.ZIP: "02139",
        Label.DATE: "7/22/1992",
        Label.AGE: "93",
        Label.PHONE: "617-555-0199",
        Label.FAX: "617-555-0142",
        Label.EMAIL: "zq@example.org",
        Label.URL: "www.zquarr.example.org",
        Label.IPADDR: "10.2.33.144",
        Label.SSN: "123-45-6789",
    }
    for label in Label:
        original = values.get(label, "Zebulon Quackenbush" if label.category is Category.NAME else "Quackenbush Oaks")
        replaced = _safe_harbor(f"x {original} y", [(original, label)])
        assert original not in replaced, label
        if label is Label.DATE:
            assert replaced == "x 1992 y"


def test_surrogate_mode_shifts_dates_and_ages() -> None:
    text = "Age 93, seen 7/22/1992"
    doc = Document("d", text, DocumentMetadata(patient_id="p"))
    spans = [Span(4, 6, Label.AGE), Span(13, 22, Label.DATE)]
    surrogate = Replacer(ReplaceOptions(Mode.SURROGATE, KEY)).replace(doc, spans)
    age = surrogate.spans[0].text_of(surrogate.text)
    assert age != "93" and int(age) > 89
    assert _FULL_DATE.fullmatch(surrogate.spans[1].text_of(surrogate.text))
    assert "1992" not in surrogate.text


@pytest.mark.parametrize(
    ("written", "over_89"), [("Ninety-two", True), ("one hundred and one", True), ("sixty", False)]
)
def test_surrogate_ages_written_in_words_keep_their_band(written: str, over_89: bool) -> None:
    doc = Document("d", f"{written} year old man", DocumentMetadata(patient_id="p"))
    surrogate = Replacer(ReplaceOptions(Mode.SURROGATE, KEY)).replace(doc, [Span(0, len(written), Label.AGE)])
    age = surrogate.spans[0].text_of(surrogate.text)
    assert age.isdigit() and (int(age) > 89) is over_89 and age != str(number_value(written))


def test_names_keep_shape() -> None:
    text = "SMITH, JOHN and Dr. Smith's note; J. Smith"
    doc = Document("d", text, DocumentMetadata(patient_id="p"))
    spans = [Span(0, 11, Label.PATIENT), Span(20, 27, Label.DOCTOR), Span(34, 42, Label.PATIENT)]
    result = Replacer(ReplaceOptions(Mode.SURROGATE, KEY)).replace(doc, spans)
    last_first, possessive, initial_last = (s.text_of(result.text) for s in result.spans)
    last, first = last_first.split(", ")
    assert last_first.isupper() and first != "JOHN" and last != "SMITH"
    assert possessive == last.title() + "'s"
    assert regex.fullmatch(r"[A-Z]\. " + last.title(), initial_last) and not initial_last.startswith("J.")


@pytest.mark.shared
def test_physionet_dev_every_mode(shared_corpus: Path) -> None:
    docs = read_corpus(shared_corpus)
    assert sum(len(d.spans) for d in docs) > 900
    for mode in Mode:
        results = replace_all(docs, mode)
        problems = [p for item, result in zip(docs, results, strict=True) for p in leaked(item, result, mode)]
        assert problems == [], mode
        if mode is Mode.MASK:
            for item, result in zip(docs, results, strict=True):
                check_mask(item, result)
        if mode.needs_key:
            check_consistency(docs, results)
    same = replace_all(docs, Mode.SURROGATE)
    again = replace_all(docs, Mode.SURROGATE)
    other = replace_all(docs, Mode.SURROGATE, OTHER_KEY)
    assert [r.text for r in same] == [r.text for r in again]
    # Two keys: names almost never agree (pools are finite); a note may rarely coincide when its
    # only PHI is a year that both keys' offsets move the same number of years.
    names = [
        (a.text_of(x.text).casefold(), b.text_of(y.text).casefold())
        for x, y in zip(same, other, strict=True)
        for a, b in zip(x.spans, y.spans, strict=True)
        if a.category is Category.NAME
    ]
    assert len(names) > 300
    assert sum(p == q for p, q in names) / len(names) < 0.02
    changed = sum(a.text != b.text for a, b in zip(same, other, strict=True) if a.spans)
    assert changed / sum(1 for r in same if r.spans) > 0.98


def test_output_spans_carry_no_evidence_about_the_original():
    from deident.core import Document, Label, Span
    from deident.core.provenance import Part
    from deident.replace import Mode, ReplaceOptions, Replacer

    text = "Seen by Dr. Kowalski today."
    start = text.index("Kowalski")
    part = Part("crf", Label.DOCTOR, start, start + 8, 1.0)  # its offsets reveal the original's lengths
    span = Span(start, start + 8, Label.DOCTOR, "crf", 0.9, ("crf: crf:p=1",), (part,))
    replaced = Replacer(ReplaceOptions(mode=Mode.TAG)).replace(Document("d", text), (span,))
    assert [(s.evidence, s.parts) for s in replaced.spans] == [((), ())]
    assert replaced.spans[0].label is Label.DOCTOR and replaced.spans[0].score == 0.9


@pytest.mark.parametrize("label", [Label.PATIENT, Label.DOCTOR, Label.RELATIVE, Label.USERNAME, Label.LOCATION_OTHER])
@pytest.mark.parametrize("mode", [Mode.SURROGATE, Mode.SAFE_HARBOR])
def test_a_person_is_replaced_by_a_person_whatever_the_label(label: Label, mode: Mode) -> None:
    from deident.replace.names import name_pools

    text = "Her daughter Zelda Quarrington called."
    span = Span(13, 30, label)
    replaced = Replacer(ReplaceOptions(mode, KEY)).replace(
        Document("d", text, DocumentMetadata(patient_id="p")), [span]
    )
    new = replaced.spans[0].text_of(replaced.text)
    known = {name for pool in name_pools().values() for name in pool}
    assert len(new.split()) == 2 and set(new.split()) <= known, new
