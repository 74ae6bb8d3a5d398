"""Section headings learned from the training notes (issue 18 item 6): what is learned, what is never learned (names,
PHI, rare strings), and the ``lsec=`` feature they give each token."""

from __future__ import annotations

from pathlib import Path

import pytest

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import ModelError
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.crf.features import FeatureConfig, FeatureExtractor, crf_tokens
from deident.detect.crf.headings import (
    heading_candidates,
    heading_detector,
    heading_features,
    learn_headings,
    load_headings,
    save_headings,
)
from deident.detect.crf.learned import LearnedData


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wound care: dressing changed", ["wound care"]),
        ("bp ok. Drains - none", ["drains"]),
        ("seen; Lines: clean\n  Diet: clears", ["lines", "diet"]),
        ("Review Of Systems: negative", ["review of systems"]),
    ],
)
def test_heading_candidates(text: str, expected: list[str]) -> None:
    assert [h for _, _, h in heading_candidates(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Pt (drain: clean)",  # not where a heading starts
        "Skin-intact",  # "-" without blanks around it
        "Plan for tomorrow morning and later: rest",  # more than four words
        "Flow 2L: nasal",  # a digit
        "Status post, see: below",  # a comma
    ],
)
def test_not_heading_candidates(text: str) -> None:
    assert heading_candidates(text) == []


def _note(number: int, patient: int, text: str, spans: tuple[Span, ...] = ()) -> AnnotatedDocument:
    meta = DocumentMetadata(patient_id=str(patient), note_id=str(number))
    return AnnotatedDocument(Document(f"{patient}_{number}", text, meta), spans)


def _corpus(heading: str, notes: int, patients: int, phi_in: int = -1) -> list[AnnotatedDocument]:
    """``notes`` notes spread over ``patients`` patients, each opening with ``heading``; note ``phi_in`` has a gold
    NAME span over the heading's first word."""
    docs = []
    for number in range(notes):
        text = f"{heading}: stable overnight\nNeuro: alert\n"
        spans = (Span(0, len(heading.split()[0]), Label.PATIENT, "gold"),) if number == phi_in else ()
        docs.append(_note(number, number % patients, text, spans))
    return docs


@pytest.mark.parametrize(
    ("heading", "notes", "patients", "phi_in", "learned"),
    [
        ("Wound care", 6, 3, -1, True),
        ("Wound care", 4, 3, -1, False),  # too few notes
        ("Wound care", 9, 2, -1, False),  # too few patients
        ("Wound care", 9, 3, 4, False),  # over a gold PHI span once: never a heading
        ("Agatha", 9, 3, -1, False),  # a first name, not a common word
        ("Mary notes", 9, 3, -1, False),  # a name among the words
        ("Hope", 9, 3, -1, True),  # in the name lists, but a common English word
        ("Social", 9, 3, -1, True),
    ],
)
def test_learn_headings(heading: str, notes: int, patients: int, phi_in: int, learned: bool) -> None:
    found = learn_headings(_corpus(heading, notes, patients, phi_in))
    assert (heading.lower() in found) is learned
    assert "neuro" in found or notes < 5 or patients < 3


def test_learn_headings_orders_by_note_count_and_caps() -> None:
    docs = [*_corpus("Wound care", 9, 3), *_corpus("Drains", 6, 3)]
    assert learn_headings(docs) == ("neuro", "wound care", "drains")
    assert learn_headings(docs, max_headings=1) == ("neuro",)


def test_heading_features_mark_each_learned_section() -> None:
    text = "Pt resting.\nWound care: clean\ndry. Drains - none\nNeuro: alert\n"
    tokens = crf_tokens(text)
    found = heading_features(heading_detector(("wound care", "drains")), text, [t.start for t in tokens])
    by_token = dict(zip((t.text for t in tokens), found, strict=False))
    assert by_token["Pt"] is None and by_token["resting"] is None
    assert by_token["clean"] == "lsec=wound_care" and by_token["Wound"] == "lsec=wound_care"
    assert by_token["none"] == "lsec=drains"
    assert by_token["alert"] == "lsec=drains"  # "neuro" is not learned here: the drains section goes on
    assert heading_features(None, text, [t.start for t in tokens]) == [None] * len(tokens)


def test_extractor_adds_lsec_only_when_switched_on() -> None:
    learned = LearnedData(headings=("wound care",))
    doc = Document("d", "Wound care: clean and dry\n")
    on = FeatureExtractor(FeatureConfig(learned_headings=True), learned).extract(doc)
    off = FeatureExtractor(FeatureConfig(), learned).extract(doc)
    assert all("lsec=wound_care" in feats for feats in on)
    assert not any(f.startswith("lsec=") for feats in off for f in feats)
    assert [[f for f in feats if not f.startswith("lsec=")] for feats in on] == off


def test_headings_file_round_trip_and_rejects_other_characters(tmp_path: Path) -> None:
    path = tmp_path / "headings.tsv"
    save_headings(("neuro", "wound care"), path)
    assert load_headings(path) == ("neuro", "wound care")
    path.write_text("neuro\nbed 12\n", encoding="utf-8")
    with pytest.raises(ModelError, match=r"headings\.tsv"):
        load_headings(path)
