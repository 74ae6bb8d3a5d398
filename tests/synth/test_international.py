"""UK and Canadian synthetic notes (deident.synth.international): exact gold spans, valid check digits, determinism."""

from __future__ import annotations

import random

import pytest
from stdnum.ca import bc_phn, sin
from stdnum.gb import nhs

from deident.core.labels import Label
from deident.synth.generate import check_styles, generate_corpus, generate_note
from deident.synth.international import bc_phn as make_phn
from deident.synth.international import nhs_number, sin_number

STYLES = ("uk_letter", "ca_note")


def test_styles_are_known() -> None:
    assert check_styles(STYLES) == STYLES


@pytest.mark.parametrize("style", STYLES)
def test_notes_are_deterministic_and_spans_exact(style: str) -> None:
    notes = generate_corpus(40, 5, (style,))
    assert [n.document.text for n in notes] == [n.document.text for n in generate_corpus(40, 5, (style,))]
    for note in notes:
        text = note.document.text
        assert note.spans, "every note has PHI"
        for span in note.spans:
            value = text[span.start : span.end]
            assert value == value.strip() and value, (style, span.label)
        # the hard negatives are never gold
        for negative in ("4/5", "3/6", "2/6", "5/5", "142/88", "Ward 7B", "09:30", "14:20"):
            at = text.find(negative)
            assert at < 0 or not any(s.start <= at < s.end for s in note.spans), negative
        assert note.document.metadata.get_extra("style") == style


def test_generated_numbers_pass_their_checks() -> None:
    rng = random.Random(3)
    for _ in range(200):
        assert nhs.is_valid(nhs_number(rng))
        assert sin.is_valid(sin_number(rng))
        assert bc_phn.is_valid(make_phn(rng))


@pytest.mark.parametrize(("style", "labels"), [("uk_letter", {Label.MEDICALRECORD}), ("ca_note", {Label.HEALTHPLAN})])
def test_each_style_writes_its_identifiers(style: str, labels: set[Label]) -> None:
    seen = {span.label for i in range(30) for span in generate_note(9, i, style).spans}
    assert labels <= seen
    assert {Label.PATIENT, Label.DOCTOR, Label.DATE, Label.PHONE, Label.ZIP, Label.STREET, Label.CITY} <= seen


def test_uk_nhs_numbers_in_notes_are_valid() -> None:
    for i in range(30):
        note = generate_note(2, i, "uk_letter")
        for span in note.spans:
            value = note.document.text[span.start : span.end]
            digits = "".join(c for c in value if c.isdigit())
            if span.label is Label.MEDICALRECORD and len(digits) == 10 and not value[0].isalpha():
                assert nhs.is_valid(digits)
