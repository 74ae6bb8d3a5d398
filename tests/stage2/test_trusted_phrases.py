from __future__ import annotations

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.stage2.trusted_phrases import TrustedPhraseStage, harvest_trusted_phrases

# (text, expected (string, source))
CASES = [
    ("Attending: John Smith was here", [("John Smith", "trusted.attending")]),
    ("ATTENDING: DR JOHN SMITH. PT WELL", [("JOHN SMITH", "trusted.attending")]),
    ("Referred by: Dr. Zyx Qwerty", [("Zyx Qwerty", "trusted.referred_by")]),
    ("Signed by Mary Jones RN", [("Mary Jones", "trusted.signed_by")]),
    ("Mary K. Jones, RN\nnext line", [("Mary K. Jones", "trusted.signature")]),
    ("attending: smith came by", [("smith", "trusted.attending")]),
    ("Pt signed consent form", []),
    ("Seen by Dr. Smith today", []),  # "Dr." alone only confirms a proposed span
    ("Attending: the team", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_harvest(text, expected):
    found = harvest_trusted_phrases(Document("d", text))
    assert [(text[s.start : s.end], s.source) for s in found] == expected
    assert all(s.label is Label.DOCTOR for s in found)


def test_title_confirms_a_proposed_span():
    text = "Seen by Dr. Smith today"
    found = harvest_trusted_phrases(Document("d", text), (Span(12, 17, Label.PATIENT, "crf", 0.6),))
    assert [(text[s.start : s.end], s.source) for s in found] == [("Smith", "trusted.title")]


def test_stage_adds_only_new_spans():
    text = "Attending: John Smith"
    doc = Document("d", text)
    existing = (Span(11, 21, Label.DOCTOR, "crf", 0.9),)
    assert TrustedPhraseStage()(doc, existing) == existing
    added = TrustedPhraseStage()(doc, ())
    assert [(s.start, s.end) for s in added] == [(11, 21)]
