"""``deident.synth.reidentify`` and ``deident reidentify``: re-identified variants of an annotated corpus.

Every note here is invented; the names are made up.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deident.cli.app import app
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.labels import Category, Label
from deident.core.span import Span
from deident.io.formats import read_corpus, write_corpus
from deident.synth.reidentify import (
    DATE_OUT_FORMS,
    Kind,
    ReidentifyStats,
    ambiguous_vocab,
    date_shape,
    format_date,
    in_lexicons,
    match_case,
    pseudo_word,
    reidentify_corpus,
    reidentify_variant,
    split_affixes,
)

runner = CliRunner()
P, D, R = Label.PATIENT, Label.DOCTOR, Label.RELATIVE

Piece = tuple[str, Label | None]


def note(doc_id: str, patient: str | None, pieces: list[Piece]) -> AnnotatedDocument:
    text, spans = "", []
    for value, label in pieces:
        if label is not None:
            spans.append(Span(len(text), len(text) + len(value), label, source="gold"))
        text += value
    return AnnotatedDocument(Document(doc_id, text, DocumentMetadata(patient_id=patient, note_id=doc_id)), tuple(spans))


def corpus() -> list[AnnotatedDocument]:
    return [
        note(
            "7_1",
            "7",
            [
                ("Mr. ", None),
                ("Quillon Tennaway", P),
                (" was seen by Dr. ", None),
                ("Arbeckson", D),
                (" on ", None),
                ("3/14/2019", Label.DATE),
                (". ", None),
                ("TENNAWAY", P),
                (" called ", None),
                ("(617-555-0199)", Label.PHONE),
                (". His wife ", None),
                ("Marla", R),
                (" lives in ", None),
                ("Oakhurstvale", Label.CITY),
                (", ", None),
                ("NJ", Label.STATE),
                (" ", None),
                ("07755", Label.ZIP),
                (". Age ", None),
                ("93", Label.AGE),
                (". MRN ", None),
                ("12345678", Label.MEDICALRECORD),
                (". Signed ", None),
                ("Tennaway, Quillon", P),
                (" and ", None),
                ("Q. Tennaway", P),
                (" by ", None),
                ("arbeckson", D),
                (" at ", None),
                ("Brindlemoor General Hospital", Label.HOSPITAL),
                (" on ", None),
                ("March 2nd", Label.DATE),
                (".", None),
            ],
        ),
        note(
            "7_2",
            "7",
            [
                ("f/u: ", None),
                ("tennaway", P),
                (" spoke with ", None),
                ("Dr. Arbeckson", D),
                (" re ", None),
                ("4/2", Label.DATE),
                (". ", None),
                ("QT", P),
                (" ok. Wife ", None),
                ("MARLA", R),
                (" at ", None),
                ("ST. ELSWITH'S", Label.HOSPITAL),
                (" fax ", None),
                ("617 555 0142", Label.FAX),
                (" email ", None),
                ("q.tennaway@example.org", Label.EMAIL),
                (".", None),
            ],
        ),
        note(
            "8_1",
            "8",
            [
                ("Pt ", None),
                ("Oriane Vasquelle", P),
                (" (", None),
                ("Vasquelle O", P),
                (") seen ", None),
                ("2019-03-14", Label.DATE),
                (" by ", None),
                ("Jarn", D),
                (", works at ", None),
                ("Zentrakon Ltd", Label.ORGANIZATION),
                (", lives ", None),
                ("12 Ferrow Lane", Label.STREET),
                (", near ", None),
                ("Glenwick Park", Label.LOCATION_OTHER),
                (". SSN ", None),
                ("123-45-6789", Label.SSN),
                (".", None),
            ],
        ),
    ]


def replaced_pairs(
    docs: list[AnnotatedDocument], out: list[AnnotatedDocument]
) -> list[tuple[AnnotatedDocument, Span, AnnotatedDocument, Span]]:
    pairs: list[tuple[AnnotatedDocument, Span, AnnotatedDocument, Span]] = []
    for old, new in zip(docs, out, strict=True):
        assert len(old.spans) == len(new.spans)
        pairs.extend((old, a, new, b) for a, b in zip(old.spans, new.spans, strict=True))
    return pairs


KINDS = [kind.value for kind in Kind]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_span_is_replaced_and_offsets_cover_it(kind: str, seed: int) -> None:
    docs = corpus()
    out = reidentify_variant(docs, seed, kind, 0)
    for old, a, new, b in replaced_pairs(docs, out):
        before, after = a.text_of(old.text), b.text_of(new.text)
        assert b.label == a.label
        assert after.strip(), (kind, seed, a.label)
        assert split_affixes(after)[1].casefold() != split_affixes(before)[1].casefold()
        assert "\n" not in after
    for old, new in zip(docs, out, strict=True):
        # Text outside spans is unchanged: the gaps between spans are the same strings.
        def gaps(doc: AnnotatedDocument) -> list[str]:
            bounds = [0, *(x for s in doc.spans for x in (s.start, s.end)), len(doc.text)]
            return [doc.text[bounds[i] : bounds[i + 1]] for i in range(0, len(bounds), 2)]

        assert gaps(old) == gaps(new)
        AnnotatedDocument(new.document, new.spans)  # the document's own validation


@pytest.mark.parametrize("kind", KINDS)
def test_variant_is_deterministic_and_variants_differ(kind: str) -> None:
    docs = corpus()
    first = reidentify_corpus(docs, 2, seed=5, kind=kind)
    again = reidentify_corpus(docs, 2, seed=5, kind=kind)
    assert [(d.id, d.text, d.spans) for d in first] == [(d.id, d.text, d.spans) for d in again]
    assert [d.text for d in first[:3]] != [d.text for d in first[3:]]
    other = reidentify_corpus(docs, 1, seed=6, kind=kind)
    assert [d.text for d in other] != [d.text for d in first[:3]]


def test_ids_get_a_variant_suffix_and_patients_stay_one_patient() -> None:
    docs = corpus()
    out = reidentify_corpus(docs, 2, seed=0)
    assert [d.id for d in out] == ["7_1-r0", "7_2-r0", "8_1-r0", "7_1-r1", "7_2-r1", "8_1-r1"]
    pids = [d.document.patient_id for d in out]
    assert pids[0] == pids[1] != pids[2]
    assert pids[0] != pids[3]
    assert not {"7", "8"} & set(pids)
    assert all(d.document.metadata.get_extra("reidentify_variant") in ("0", "1") for d in out)


def test_metadata_identifiers_are_dropped_and_the_note_date_shifted() -> None:
    import datetime as dt

    from deident.core.document import KnownIdentifiers

    meta = DocumentMetadata(
        patient_id="9", note_id="1", author="Quillon Tennaway", note_date=dt.date(2019, 3, 14),
        known=KnownIdentifiers(names=("Quillon Tennaway",), mrns=("12345678",)),
    )  # fmt: skip
    doc = AnnotatedDocument(Document("9_1", "Seen by Arbeckson.", meta), (Span(8, 17, D),))
    (out,) = reidentify_variant([doc], 0, Kind.REIDENTIFIED, 0)
    assert out.document.metadata.author is None
    assert not out.document.metadata.known
    assert out.document.metadata.note_date not in (None, dt.date(2019, 3, 14))


@pytest.mark.parametrize(
    ("original", "new", "expected"),
    [
        ("TENNAWAY", "Ó Briain", "Ó BRIAIN"),
        ("tennaway", "van der Berg", "van der berg"),
        ("Tennaway", "McAdams", "McAdams"),
        ("Q.", "J.", "J."),
        ("12/3", "March 4th", "March 4th"),
        ("ST. ELSWITH'S", "Mercy Hospital", "MERCY HOSPITAL"),
    ],
)
def test_match_case(original: str, new: str, expected: str) -> None:
    assert match_case(original, new) == expected


@pytest.mark.parametrize("seed", range(6))
def test_casing_is_kept(seed: int) -> None:
    docs = corpus()
    out = reidentify_variant(docs, seed, Kind.REIDENTIFIED, 0)
    for old, a, new, b in replaced_pairs(docs, out):
        before, after = a.text_of(old.text), b.text_of(new.text)
        letters_before = [c for c in before if c.isalpha()]
        letters_after = [c for c in after if c.isalpha()]
        if len(letters_before) >= 2 and all(c.isupper() for c in letters_before):
            assert all(not c.islower() for c in letters_after), (before, after)
        elif letters_before and all(c.islower() for c in letters_before):
            assert all(not c.isupper() for c in letters_after), (before, after)


def _texts(docs: list[AnnotatedDocument], out: list[AnnotatedDocument], original: str) -> list[str]:
    return [
        b.text_of(new.text) for old, a, new, b in replaced_pairs(docs, out) if a.text_of(old.text).lower() == original
    ]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(5))
def test_consistency_within_a_patient(kind: str, seed: int) -> None:
    docs = corpus()
    out = reidentify_variant(docs, seed, kind, 0)
    # The same string within a patient maps to the same surrogate (case aside), across the patient's notes; a bare
    # name may be written in a fuller form of the same person ("Tennaway" -> "J. Smith" beside "Smith").
    for original in ("tennaway", "arbeckson", "marla"):
        values = {v.casefold() for v in _texts(docs, out, original)}
        core = min(values, key=len)
        assert all(core in value for value in values), (original, values)
    # A surname inside a full name stays that surname (written forms vary: "Last, First", "F. Last", "Last F"; the
    # "First L." form writes it as an initial): every mention shares the surrogate surname.
    mentions = [
        v for o in ("tennaway", "quillon tennaway", "tennaway, quillon", "q. tennaway") for v in _texts(docs, out, o)
    ]
    spelled = [v.casefold() for v in mentions if not re.fullmatch(r"\S+ \w\.", v)]
    common = set.intersection(*({w for w in re.split(r"[\s,.]+", v) if len(w) > 1} for v in spelled))
    assert common, mentions
    first = {v.casefold() for v in _texts(docs, out, "quillon tennaway")}
    assert first
    # "Dr. Arbeckson" keeps its title and maps the surname like the bare mention.
    (titled,) = _texts(docs, out, "dr. arbeckson")
    assert titled.startswith("Dr. ")
    assert titled[4:].casefold() == min(_texts(docs, out, "arbeckson"), key=len).casefold()


def test_initials_follow_the_surrogate_person() -> None:
    docs = corpus()
    for seed in range(8):
        out = reidentify_variant(docs, seed, Kind.REIDENTIFIED, 0)
        (initial,) = _texts(docs, out, "q. tennaway")
        (full,) = _texts(docs, out, "quillon tennaway")
        surname = min(_texts(docs, out, "tennaway"), key=len)
        if re.fullmatch(r"\w\. .+", initial) and full.endswith(surname) and not full.startswith(surname):
            assert initial[0] == full[0], (initial, full)


def test_name_forms_are_produced() -> None:
    docs = corpus()
    forms: Counter[str] = Counter()
    for seed in range(30):
        stats = ReidentifyStats()
        reidentify_variant(docs, seed, Kind.REIDENTIFIED, 0, stats)
        forms.update(stats.forms)
    for form in ("first+last", "last+first", "finit+last", "last+finit", "initials", "last", "first"):
        assert forms[form] > 0, forms
    assert sum(forms[f] for f in ("last_first", "initial_last", "last_initial", "first_initial")) > 0, forms


def test_ages_over_89_stay_over_89_and_dates_stay_dates() -> None:
    docs = corpus()
    for seed in range(10):
        out = reidentify_variant(docs, seed, Kind.REIDENTIFIED, 0)
        for _old, a, new, b in replaced_pairs(docs, out):
            after = b.text_of(new.text)
            if a.label is Label.AGE:
                assert int(after) > 89
            elif a.label is Label.DATE:
                assert date_shape(after) is not None, after
            elif a.label in (Label.PHONE, Label.FAX):
                assert sum(c.isdigit() for c in after) >= 7, after


def test_names_come_from_many_origins() -> None:
    docs = corpus()
    values: set[str] = set()
    for seed in range(60):
        out = reidentify_variant(docs, seed, Kind.REIDENTIFIED, 0)
        values.update(b.text_of(new.text) for _, a, new, b in replaced_pairs(docs, out) if a.label in (P, D, R))
    assert any(not v.isascii() for v in values)  # accents
    assert any("-" in v or "'" in v or "’" in v for v in values)  # hyphens, apostrophes


def _name_tokens(docs: list[AnnotatedDocument], out: list[AnnotatedDocument], labels: set[Label]) -> list[str]:
    tokens: list[str] = []
    for _, a, new, b in replaced_pairs(docs, out):
        if a.label in labels:
            tokens.extend(t for t in re.findall(r"[^\W\d_]+", b.text_of(new.text)) if len(t) > 1)
    return tokens


@pytest.mark.parametrize("seed", range(4))
def test_ambiguous_values_are_common_words(seed: int) -> None:
    docs = corpus()
    out = reidentify_variant(docs, seed, Kind.AMBIGUOUS, 0)
    vocab = {w.lower() for values in ambiguous_vocab().values() for w in values}
    tokens = _name_tokens(docs, out, {P, D, R, Label.CITY})
    initials = {b.text_of(new.text).lower() for o, a, new, b in replaced_pairs(docs, out) if a.text_of(o.text) == "QT"}
    tokens = [t for t in tokens if t.lower() not in initials and t.lower() not in {"dr"}]
    assert tokens
    assert all(t.lower() in vocab for t in tokens), tokens


@pytest.mark.parametrize("seed", range(4))
def test_unseen_values_are_in_no_lexicon(seed: int) -> None:
    docs = corpus()
    out = reidentify_variant(docs, seed, Kind.UNSEEN, 0)
    initials = {b.text_of(new.text).lower() for o, a, new, b in replaced_pairs(docs, out) if a.text_of(o.text) == "QT"}
    tokens = [t for t in _name_tokens(docs, out, {P, D, R, Label.CITY}) if t.lower() not in initials | {"dr"}]
    assert tokens
    assert not [t for t in tokens if in_lexicons(t)], tokens


def test_pseudo_words_are_unseen() -> None:
    import random

    rng = random.Random(0)
    words = [pseudo_word(rng) for _ in range(50)]
    assert len(set(words)) > 45
    assert not any(in_lexicons(w) for w in words)
    assert in_lexicons("Smith") and in_lexicons("Boston")


@pytest.mark.parametrize("label", list(Label))
@pytest.mark.parametrize("kind", KINDS)
def test_every_label_gets_a_surrogate(label: Label, kind: str) -> None:
    docs = [note("1_1", "1", [("Seen: ", None), ("Xyzzo 123", label), (" today.", None)])]
    out = reidentify_variant(docs, 0, kind, 0)
    (span,) = out[0].spans
    value = span.text_of(out[0].text)
    assert value.strip() and value != "Xyzzo 123"
    assert out[0].text.startswith("Seen: ") and out[0].text.endswith(" today.")
    if label.category is Category.AGE:
        assert re.search(r"\d", value)


def test_overlapping_spans_are_counted_not_broken() -> None:
    text = "Seen by Quillon Tennaway today."
    spans = (Span(8, 24, P), Span(16, 24, P))
    doc = AnnotatedDocument(Document("1_1", text, DocumentMetadata(patient_id="1")), spans)
    stats = ReidentifyStats()
    (out,) = reidentify_variant([doc], 0, Kind.REIDENTIFIED, 0, stats)
    assert stats.overlapping == 1
    assert out.text.startswith("Seen by ") and out.text.endswith(" today.")


def test_cli_writes_jsonl_and_reads_back(tmp_path: Path) -> None:
    source = tmp_path / "gold.jsonl"
    write_corpus(corpus(), source)
    out = tmp_path / "reid.jsonl"
    args = ["reidentify", str(source), "-o", str(out), "--variants", "2", "--seed", "3", "--kind", "ambiguous"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    docs = read_corpus(out)
    assert len(docs) == 6
    assert sum(len(d.spans) for d in docs) == 2 * sum(len(d.spans) for d in corpus())
    assert "Tennaway" not in result.output and "Arbeckson" not in result.output
    assert "PATIENT" in result.output
    again = tmp_path / "again.jsonl"
    assert runner.invoke(app, [*args[:3], str(again), *args[4:]]).exit_code == 0
    assert again.read_bytes() == out.read_bytes()


def test_cli_writes_physionet(tmp_path: Path) -> None:
    source = tmp_path / "gold.jsonl"
    write_corpus(corpus(), source)
    out = tmp_path / "reid.text"
    result = runner.invoke(app, ["reidentify", str(source), "-o", str(out), "--kind", "unseen"])
    assert result.exit_code == 0, result.output
    assert out.with_suffix(".phrase").exists()
    docs = read_corpus(out)  # the reader checks every offset against its words
    assert sum(len(d.spans) for d in docs) == sum(len(d.spans) for d in corpus())


def test_cli_refuses_an_unknown_kind(tmp_path: Path) -> None:
    source = tmp_path / "gold.jsonl"
    write_corpus(corpus(), source)
    result = runner.invoke(app, ["reidentify", str(source), "-o", str(tmp_path / "x.jsonl"), "--kind", "odd"])
    assert result.exit_code == 2  # a usage error: --kind lists its choices
    assert "'odd' is not one of 'reidentified', 'ambiguous', 'unseen'" in result.output


@pytest.mark.parametrize("seed", range(8))
def test_a_name_annotated_as_adjacent_spans_stays_one_name(seed: int) -> None:
    pieces: list[Piece] = [
        ("Signed ", None), ("QUILLON", D), (" ", None), ("V.", D), (" ", None), ("TENNAWAY", D), (" and ", None),
        ("q.", D), (" ", None), ("tennaway", D), (". Later ", None), ("Tennaway", D), (" agreed.", None),
    ]  # fmt: skip
    doc = note("3_1", "3", pieces)
    (out,) = reidentify_variant([doc], seed, Kind.REIDENTIFIED, 0)
    first, middle, last, q, last2, last3 = (s.text_of(out.text) for s in out.spans)
    assert re.fullmatch(r"[A-Z]\.", middle)
    assert first.isupper() and last.isupper() and " " not in first
    assert last.casefold() == last2.casefold()
    assert last.casefold() in last3.casefold()  # a bare surname may be written in a fuller form ("J. Smith")
    assert re.fullmatch(r"[a-z]\.", q)
    assert out.text.startswith("Signed ") and out.text.endswith(" agreed.")


@pytest.mark.parametrize("form", DATE_OUT_FORMS)
def test_every_date_form_is_a_recognised_date_shape(form: str) -> None:
    import datetime as dt

    for day in (dt.date(2019, 3, 14), dt.date(2001, 11, 2), dt.date(1998, 12, 31)):
        assert date_shape(format_date(day, form)) is not None, (form, format_date(day, form))


@pytest.mark.parametrize(
    ("value", "shape"),
    [("3/14", "md"), ("03/14/2019", "mdy"), ("14-Mar-2019", "dmony"), ("March 14th", "mon_d"), ("2019-03-14", "iso"),
     ("3/14/19", "mdy_short"), ("2019", "year"), ("Tuesday", "weekday"), ("Christmas", "holiday")],
)  # fmt: skip
def test_date_shapes(value: str, shape: str) -> None:
    assert date_shape(value) == shape
