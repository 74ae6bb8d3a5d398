from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.synth.builder import NoteBuilder


def test_spans_cover_exactly_the_labelled_pieces() -> None:
    builder = NoteBuilder()
    builder.extend([("Seen by Dr. ", None), ("Baker", Label.DOCTOR), (" on ", None), ("7/22", Label.DATE), (".", None)])
    text, spans = builder.build()
    assert text == "Seen by Dr. Baker on 7/22."
    assert [(text[s.start : s.end], s.label) for s in spans] == [("Baker", Label.DOCTOR), ("7/22", Label.DATE)]
    assert all(s.source == "synth" for s in spans)


@pytest.mark.parametrize(
    ("case", "expected_text", "expected_span"),
    [
        ("mixed", "Straße Rose", "Rose"),
        ("upper", "STRASSE ROSE", "ROSE"),  # "ß".upper() is two characters: offsets must still hold
        ("lower", "straße rose", "rose"),
    ],
)
def test_case_variants_keep_offsets_exact(case: str, expected_text: str, expected_span: str) -> None:
    builder = NoteBuilder(case=case)
    builder.extend([("Straße ", None), ("Rose", Label.RELATIVE)])
    text, spans = builder.build()
    assert text == expected_text
    assert [text[s.start : s.end] for s in spans] == [expected_span]


def test_empty_pieces_add_nothing() -> None:
    builder = NoteBuilder()
    builder.add("", Label.PATIENT)
    assert builder.build() == ("", ())
    assert builder.length == 0
