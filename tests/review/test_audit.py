from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from deident.cli.app import app as cli_app
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata, KnownIdentifiers
from deident.core.labels import Label
from deident.core.span import Span
from deident.io.jsonl import write_jsonl
from deident.review.audit import RiskClass, audit, audit_document


def _doc(text: str, replaced: tuple[str, ...] = (), known: KnownIdentifiers | None = None) -> AnnotatedDocument:
    spans = tuple(Span(text.index(p), text.index(p) + len(p), Label.PATIENT) for p in replaced)
    return AnnotatedDocument(Document("d1", text, DocumentMetadata(known=known or KnownIdentifiers())), spans)


def _classes(document: AnnotatedDocument, candidates=()) -> dict[str, tuple[str, ...]]:
    items, _ = audit_document(document, candidates)
    return {document.text[i.start : i.end]: tuple(c.value for c in i.classes) for i in items}


@pytest.mark.parametrize(
    ("text", "token", "risk_class"),
    [
        ("Pt seen with wife Zorbatine today, resting comfortably.", "Zorbatine", RiskClass.UNKNOWN_WORD),
        ("Labs drawn. MRN 40213377 on the wristband.", "40213377", RiskClass.IDENTIFIER_DIGITS),
        ("Labs drawn. Call 617-555-0143 for results.", "617", RiskClass.IDENTIFIER_DIGITS),
        ("Labs drawn. Call 617-555-0143 for results.", "0143", RiskClass.IDENTIFIER_DIGITS),
        ("Follow up on 10/12/2094 in clinic.", "2094", RiskClass.IDENTIFIER_DIGITS),
        ("Account AC20931177 noted.", "AC20931177", RiskClass.IDENTIFIER_DIGITS),
    ],
)
def test_positives(text, token, risk_class):
    assert risk_class.value in _classes(_doc(text)).get(token, ())


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("Given lasix 40 mg and metoprolol overnight, resting.", "lasix"),  # a drug
        ("Given lasix 40 mg and metoprolol overnight, resting.", "40"),  # a dose
        ("Heart rate 88, temperature 37.2, resting comfortably.", "37"),  # a measurement
        ("BP 120/80, pH 7.354, urine 1200/1450 ml.", "1200"),  # measurements with many digits
        ("BP 120/80, pH 7.354, urine 1200/1450 ml.", "354"),
        ("The patient was resting comfortably with the family.", "patient"),  # an ordinary word
        ("Seen by Dr. Zorbatine, plan discussed.", "Zorbatine"),  # replaced: not audited
    ],
)
def test_hard_negatives(text, token):
    assert token not in _classes(_doc(text, replaced=("Zorbatine",) if "Dr." in text else ()))


# The facility_name sign (invented facilities): the head noun left after a replaced name, or the word before it.
@pytest.mark.parametrize(
    ("text", "replaced", "token"),
    [
        ("Pt transferred from Kestrelmoor Hospital today.", ("Kestrelmoor",), "Hospital"),
        ("PT ADMITTED FROM MD HOSPITAL AT 1900.", (), "MD"),
        ("Pt admitted from MD Hospital at 1900.", (), "MD"),
        ("Will go to Brackwell Rehab when stable.", (), "Brackwell"),
        ("resident of oakhurst nh, baseline confused.", (), "oakhurst"),
        ("Seen at Fenwold Medical Center in May.", (), "Fenwold"),
    ],
)
def test_facility_name_positives(text, replaced, token):
    assert RiskClass.FACILITY_NAME.value in _classes(_doc(text, replaced=replaced)).get(token, ())


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("Pt transferred to the hospital by ambulance.", "the"),
        ("Day 3 in hospital, afebrile.", "in"),
        ("Pt to go to rehab when stable.", "to"),
        ("Was seen at his clinic last week.", "his"),
        ("Tele monitoring per medical center policy.", "medical"),
        ("Transferred from OSH. Hospital course complicated.", "OSH"),  # a full stop between them
    ],
)
def test_facility_name_hard_negatives(text, token):
    assert RiskClass.FACILITY_NAME.value not in _classes(_doc(text)).get(token, ())


def test_known_identifier_still_present_ranks_first():
    known = KnownIdentifiers(names=("Ellen Quarrington",), mrns=("40213377",))
    text = "Spoke with Quarrington about MRN 40213377 and the Zorbatine case."
    result = audit([_doc(text, known=known)])
    top = result.items[0]
    assert RiskClass.KNOWN_IDENTIFIER in top.classes
    assert text[top.start : top.end] in {"Quarrington", "40213377"}
    assert result.counts_by_class()["known_identifier"] == 2


def test_dropped_candidate_only_outside_replaced_text():
    text = "Seen by Orlov and Baines today."
    orlov = Span(text.index("Orlov"), text.index("Orlov") + 5, Label.DOCTOR, "lexicon.name", 0.6)
    baines = Span(text.index("Baines"), text.index("Baines") + 6, Label.DOCTOR, "lexicon.name", 0.6)
    found = _classes(_doc(text, replaced=("Baines",)), [orlov, baines])
    assert "dropped_candidate" in found["Orlov"] and "Baines" not in found


def test_agreeing_classes_rank_above_one_class():
    text = "Wife Zorbatine called; unit Quelvany also."
    cand = Span(text.index("Zorbatine"), text.index("Zorbatine") + 9, Label.RELATIVE, "lexicon.name", 0.5)
    result = audit([_doc(text)], [[cand]])
    assert text[result.items[0].start : result.items[0].end] == "Zorbatine"


def test_summary_has_counts_only():
    text = "Pt seen with wife Zorbatine today, MRN 40213377."
    summary = audit([_doc(text)]).summary()
    dumped = json.dumps(summary)
    assert "Zorbatine" not in dumped and "40213377" not in dumped
    assert summary["risky_tokens"] == 2 and summary["documents_with_risk"] == 1


def test_top_share_of_audited_tokens():
    result = audit([_doc("Zorbatine " + "and " * 198 + "40213377")])
    assert result.tokens_audited == 200
    assert len(result.top(0.01)) == 2


def test_audit_command(tmp_path):
    path = tmp_path / "out.jsonl"
    write_jsonl([_doc("Pt seen with wife Zorbatine today, MRN 40213377.")], path)
    plain = CliRunner().invoke(cli_app, ["audit", str(path), "--no-candidates"])
    assert plain.exit_code == 0, plain.output
    assert "unknown_word" in plain.stdout and "Zorbatine" not in plain.stdout  # offsets only by default
    shown = CliRunner().invoke(cli_app, ["audit", str(path), "--no-candidates", "--show-text", "--json"])
    data = json.loads(shown.stdout)
    assert {row["text"] for row in data["sample"]} == {"Zorbatine", "40213377"}
