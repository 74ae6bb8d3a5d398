"""Invented notes for the review tests (no real person)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.labels import Label
from deident.core.span import Span
from deident.io.jsonl import write_jsonl

NOTE_A = "Seen by Dr. Kowalski on 3/14/2019 at Mercy Hospital. Call 617-555-0143."
NOTE_B = "Mrs. Brandt was visited by her son Tobias Brandt in Fairview."


def _span(text: str, phrase: str, label: Label, evidence: tuple[str, ...] = ()) -> Span:
    start = text.index(phrase)
    return Span(start, start + len(phrase), label, "patterns.test", 0.9, evidence)


def invented_notes() -> list[AnnotatedDocument]:
    a = AnnotatedDocument(
        Document("note-a", NOTE_A, DocumentMetadata(patient_id="p1")),
        (
            _span(NOTE_A, "Kowalski", Label.DOCTOR),
            _span(NOTE_A, "3/14/2019", Label.DATE),
            _span(NOTE_A, "Mercy", Label.CITY, ("filter: location p=0.420 < t=0.500, kept: confident detector",)),
        ),
    )
    b = AnnotatedDocument(
        Document("note-b", NOTE_B, DocumentMetadata(patient_id="p2")),
        (
            _span(NOTE_B, "Brandt", Label.PATIENT),
            _span(NOTE_B, "Fairview", Label.CITY, ("filter: location p=0.950 >= t=0.500, kept",)),
        ),
    )
    return [a, b]


@pytest.fixture
def notes_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.jsonl"
    write_jsonl(invented_notes(), path)
    return path
