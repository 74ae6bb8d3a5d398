"""Invented notes with names in the layouts where names were half replaced."""

from __future__ import annotations

import random

import pytest

from deident.core.labels import Category
from deident.synth.generate import generate_note
from deident.synth.name_layouts import LAYOUTS, layout_corpus, layout_note


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("unseen", [False, True])
def test_every_name_token_is_a_gold_span(layout: str, unseen: bool) -> None:
    note = layout_note(layout, random.Random(5), unseen=unseen, note_id="n")
    assert note.spans and all(s.category is Category.NAME for s in note.spans)
    for span in note.spans:
        value = span.text_of(note.text)
        assert value.strip() == value and value and not any(c in value for c in "\n\t:()\"'")
    assert {s.label.value for s in note.spans} >= {"PATIENT", "RELATIVE"}


def test_one_case_layouts_are_written_in_one_case() -> None:
    assert layout_note("lower_case", random.Random(1), unseen=False, note_id="n").text.islower()
    assert layout_note("upper_case", random.Random(1), unseen=False, note_id="n").text.isupper()
    assert "\u00a0" in layout_note("no_break_space", random.Random(1), unseen=False, note_id="n").text


def test_the_corpus_is_deterministic_and_covers_every_layout() -> None:
    first = list(layout_corpus(2, 7))
    assert [(n.id, n.text, n.spans) for n in first] == [(n.id, n.text, n.spans) for n in layout_corpus(2, 7)]
    assert {n.id.rsplit("-", 1)[0] for n in first} == set(LAYOUTS)


def test_name_layouts_is_a_synth_style() -> None:
    note = generate_note(3, 0, "name_layouts")
    assert note.document.metadata.get_extra("style") == "name_layouts"
    assert note.document.metadata.get_extra("layout") in LAYOUTS
    assert note == generate_note(3, 0, "name_layouts")
