from __future__ import annotations

import pytest

from deident.core.document import Document, DocumentMetadata, KnownIdentifiers
from deident.core.labels import Label
from deident.detect.lexicon import KnownIdentifierDetector


def _doc(text: str, **known: tuple[str, ...]) -> Document:
    return Document("d", text, DocumentMetadata(known=KnownIdentifiers(**known)))


def _found(doc: Document) -> set[tuple[str, Label]]:
    return {(doc.text[s.start : s.end], s.label) for s in KnownIdentifierDetector().detect(doc)}


@pytest.mark.parametrize(
    ("text", "known", "expected"),
    [
        ("Mr. Smith's wife at bedside", {"names": ("John Smith",)}, ("Smith", Label.PATIENT)),
        ("JOHN SMITH ADMITTED", {"names": ("John Smith",)}, ("JOHN SMITH", Label.PATIENT)),
        ("Pt Smith, John seen", {"names": ("John Smith",)}, ("Smith, John", Label.PATIENT)),
        ("seen by J. Smith", {"names": ("John Smith",)}, ("J. Smith", Label.PATIENT)),
        ("JS resting comfortably", {"names": ("John Smith",)}, ("JS", Label.PATIENT)),
        ("Mr. Smtih resting", {"names": ("John Smith",)}, ("Smtih", Label.PATIENT)),  # fuzzy
        ("MCDONNEL FAMILY", {"names": ("Ann McDonnell",)}, ("MCDONNEL", Label.PATIENT)),
        ("daughter mary jones called", {"relatives": ("Mary Jones",)}, ("mary jones", Label.RELATIVE)),
        ("MRN 12345678 on label", {"mrns": ("123-456-78",)}, ("12345678", Label.MEDICALRECORD)),
        ("mrn 123-456-78", {"mrns": ("12345678",)}, ("123-456-78", Label.MEDICALRECORD)),
        (
            "lives at 12 elm street alone",
            {"addresses": ("12 Elm Street, Springfield",)},
            ("12 elm street", Label.STREET),
        ),
    ],
)
def test_known_identifier_found(text: str, known: dict[str, tuple[str, ...]], expected: tuple[str, Label]):
    assert expected in _found(_doc(text, **known))


@pytest.mark.parametrize(
    ("text", "known"),
    [
        ("hx of MS, on copaxone", {"names": ("Mary Smith",)}),  # initials that are an abbreviation
        ("smithson avenue", {"names": ("John Smith",)}),  # whole words only
        ("123456789", {"mrns": ("12345678",)}),
        ("pt resting", {}),
    ],
)
def test_known_identifier_not_found(text: str, known: dict[str, tuple[str, ...]]):
    assert _found(_doc(text, **known)) == set()


def test_common_word_part_is_weaker_and_says_so():
    doc = _doc("Will call family. Hope Will is ok", names=("Will Hope",))
    spans = KnownIdentifierDetector().detect(doc)
    parts = [s for s in spans if "known:part" in s.evidence]
    assert parts and all("common_word" in s.evidence and (s.score or 0) < 0.9 for s in parts)


def test_evidence_is_phi_free():
    doc = _doc("Mr. Smith", names=("John Smith",))
    for span in KnownIdentifierDetector().detect(doc):
        assert span.source == "lexicon.known"
        assert not any("smith" in note.lower() for note in span.evidence)
