"""Quoted names: a quoted phrase shaped as a person's name becomes a name span; quoted speech, drugs and clinical
phrases do not."""

from __future__ import annotations

import pytest

from deident.core.document import Document
from deident.core.labels import Category, Label
from deident.core.span import Span
from deident.detect.crf.learned import token_hash
from deident.stage2.name_completion import NameCompletion
from deident.stage2.quoted_names import SOURCE, quoted_names


def _found(text: str, spans: tuple[Span, ...] = (), clinical: tuple[str, ...] = ()) -> list[str]:
    out = quoted_names(Document("n", text), spans, frozenset(token_hash(w) for w in clinical))
    return [s.text_of(text) for s in out if s.source == SOURCE]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('Pt states "Quorvane Tilbetski" is her legal name.', "Quorvane Tilbetski"),
        ("Contact 'Dubrierko Utraeski' (mother) if unwell.", "Dubrierko Utraeski"),
        ("Contact \u2018Dubrierko Utraeski\u2019 today.", "Dubrierko Utraeski"),
        ("\u201cLeazaistous Chuquaski-Pioprorkett\u201d reviewed the chart.", "Leazaistous Chuquaski-Pioprorkett"),
        ('"Olivier McQuorvan-O\'Tilbet" reviewed the chart.', "Olivier McQuorvan-O'Tilbet"),
        # a listed first name beside a word no dictionary knows; three words
        ('Pt states "Maria Quorvane" is her name.', "Maria Quorvane"),
        ('Known as "Anna Maria Quorvane" at home.', "Anna Maria Quorvane"),
        # an initial, with its full stop or without, before or after the surname
        ('Pt states "Quorvane S." is her legal name.', "Quorvane S."),
        ('Pt states "J. K. Tilbetski" is her legal name.', "J. K. Tilbetski"),
        ("Contact 'T Quorvane' (mother) if unwell.", "T Quorvane"),
    ],
)
def test_a_quoted_name_is_found(text: str, name: str) -> None:
    assert _found(text) == [name]


@pytest.mark.parametrize(
    ("text", "clinical"),
    [
        # quoted speech, drugs, clinical phrases, common words
        ('Pt says she is "Feeling Better" today.', ()),
        ('Started "Metoprolol Succinate" at home.', ()),
        ('Takes "Lasix" daily.', ()),
        ("Patient: 'Alert and oriented'", ()),
        ('Exam: "Alert Oriented" x3.', ()),
        ('Told "Quorvane Pleural" effusion seen.', ("pleural",)),
        # names only of listed words: no evidence a quote is more than words
        ('She said "Maria Anna" sang.', ()),
        # one word, four words, lower case, mismatched quotes, a word glued to the quote
        ('Pt states "Quorvane" is her name.', ()),
        ('Pt states "Quorvane Tilbetski Zembrowa Ulstrik" is it.', ()),
        ('Pt states "quorvane tilbetski" is it.', ()),
        ("Pt states \"Quorvane Tilbetski' is it.", ()),
        ('x"Quorvane Tilbetski" is it.', ()),
        # a month, a kinship word
        ('Seen "March Quorvane" ago.', ()),
        ('Called "Wife Quorvane" today.', ()),
        # initials alone, or beside words a dictionary knows
        ('Contact "J. K." if needed.', ()),
        ('Pt said "Feeling Better S." today.', ()),
    ],
)
def test_nothing_else_is_found(text: str, clinical: tuple[str, ...]) -> None:
    assert _found(text, clinical=clinical) == []


def test_names_and_places_inside_are_replaced_other_spans_block() -> None:
    text = 'Pt states "Quorvane Tilbetski" is her legal name.'
    place = Span(11, 19, Label.CITY, "crf", 0.4)
    name = Span(20, 29, Label.DOCTOR, "crf", 0.9)
    out = quoted_names(Document("n", text), (place, name))
    # labelled as the name found inside it; with none (a place only), as the patient's
    assert [(s.text_of(text), s.label) for s in out] == [("Quorvane Tilbetski", Label.DOCTOR)]
    out = quoted_names(Document("n", text), (place,))
    assert [(s.text_of(text), s.label) for s in out] == [("Quorvane Tilbetski", Label.PATIENT)]
    date = Span(11, 19, Label.DATE, "patterns.date", 0.9)
    assert quoted_names(Document("n", text), (date,)) == (date,)
    crossing = Span(4, 19, Label.DOCTOR, "crf", 0.9)
    assert quoted_names(Document("n", text), (crossing,)) == (crossing,)


def test_name_completion_stage_finds_quoted_names() -> None:
    text = 'Pt states "Quorvane Tilbetski" is her legal name.'
    (span,) = NameCompletion()(Document("n", text), ())
    assert span.text_of(text) == "Quorvane Tilbetski" and span.category is Category.NAME
