"""Parametrised name and place cases, read from name_place_cases.tsv (known failures are xfail)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.lexicon import (
    HospitalShapeDetector,
    NameLexiconDetector,
    PlaceLexiconDetector,
    lexicon_detectors,
)
from deident.detect.lexicon.detectors import (
    _CAPITALISED_WORD,
    _capitalised_candidates,
    _fuzzy_candidate,
    whole_word_spans,
)
from deident.text.case import CaseMode, case_mode
from deident.text.normalise import normalise

from ..patterns.helpers import random_texts

HERE = Path(__file__).resolve().parent


def _rows(name: str) -> list[list[str]]:
    lines = (HERE / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]


KNOWN_FAILURES = {row[0]: row[1] for row in _rows("known_failures.tsv")}


def _cases() -> list[object]:
    out = []
    for case_id, expected, marked in _rows("name_place_cases.tsv"):
        marks = [pytest.mark.xfail(reason=KNOWN_FAILURES[case_id], strict=True)] if case_id in KNOWN_FAILURES else []
        out.append(pytest.param(marked, expected, id=case_id, marks=marks))
    return out


def _unmark(marked: str) -> tuple[str, int, int]:
    start = marked.index("[[")
    end = marked.index("]]") - 2
    return marked.replace("[[", "").replace("]]", ""), start, end


@pytest.fixture(scope="module")
def detectors() -> tuple:
    return lexicon_detectors()


@pytest.mark.parametrize(("marked", "expected"), _cases())
def test_case(detectors: tuple, marked: str, expected: str):
    text, start, end = _unmark(marked)
    doc = Document("case", text)
    spans = [s for det in detectors for s in det.detect(doc)]
    target = Span(start, end, Label.PATIENT)
    covering = [s for s in spans if s.overlaps(target)]
    if expected == "-":
        assert covering == []
    else:
        assert Label(expected) in {s.label for s in covering if s.start <= start and end <= s.end}


def test_case_table_is_well_formed():
    ids = [row[0] for row in _rows("name_place_cases.tsv")]
    assert len(ids) == len(set(ids))
    assert set(KNOWN_FAILURES) <= set(ids)


@pytest.mark.parametrize(
    ("text", "mode"),
    [("PT RESTING IN BED.", CaseMode.UPPER), ("pt resting in bed.", CaseMode.LOWER), ("Pt resting.", CaseMode.MIXED)],
)
def test_case_mode(text: str, mode: CaseMode):
    assert case_mode(text) is mode


def test_spans_carry_score_evidence_source_and_no_text():
    doc = Document("d", "Seen by Dr. Nguyen today.")
    (span,) = NameLexiconDetector().detect(doc)
    assert span.source == "lexicon.name"
    assert span.score is not None and 0.0 <= span.score <= 1.0
    assert "trigger:dr" in span.evidence and "lexicon:last_name" in span.evidence
    assert not any("nguyen" in note.lower() for note in span.evidence)


def test_min_score_zero_keeps_weak_candidates():
    doc = Document("d", "PT MAY GO HOME.")
    assert NameLexiconDetector().detect(doc) == []
    weak = NameLexiconDetector(min_score=0.0).detect(doc)
    assert any("common_word" in s.evidence for s in weak)


def test_deterministic():
    doc = Document("d", "Dr. Nguyen and wife Mary from Boston; transferred from Mercy Hospital.")
    first = [(s, s.score, s.evidence) for det in lexicon_detectors() for s in det.detect(doc)]
    second = [(s, s.score, s.evidence) for det in lexicon_detectors() for s in det.detect(doc)]
    assert first == second


@pytest.mark.parametrize("detector", [NameLexiconDetector(), PlaceLexiconDetector(), HospitalShapeDetector()])
def test_empty_document(detector: object):
    assert detector.detect(Document("d", "")) == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        "npn 7p-7a: Trevor Qwenzikar arrived in unit at 2200 from the ED.",
        "SPOKE WITH DAUGHTER MARGOT VRETSKOVA BY PHONE. MARGOT AWARE.",
        "social: bill called once overnight. family: bill and ronald visited.",
    ],
)
def test_one_name_span_per_offsets(text: str):
    spans = NameLexiconDetector().detect(Document("d", text))
    offsets = [(s.start, s.end) for s in spans]
    assert spans and len(offsets) == len(set(offsets))


def test_line_heading_finds_what_the_regex_module_finds() -> None:
    """The heading scan uses ``re`` for speed; it must find exactly the headings of the ``regex`` original."""
    import regex

    from deident.detect.lexicon.detectors import _LINE_HEADING

    original = regex.compile(r"^[ \t]*([A-Za-z][A-Za-z /&]{0,28}?)[ \t]*(?::|-(?=\s))", regex.MULTILINE)
    texts = [
        "Social: lives with wife\nFAMILY - daughter Ann\n  Contact:  son\nplan- none\nneuro -\tintact",
        "no heading here\n\n  a/b & c : x\r\nbp 120/80 - stable",
    ]
    # Every character after the dash: the lookahead's idea of a blank must agree too.
    texts += ["Social -" + chr(c) + "x" for c in range(0x3100) if not 0xD800 <= c < 0xE000]
    for text in texts:
        assert [m.span(1) for m in _LINE_HEADING.finditer(text)] == [m.span(1) for m in original.finditer(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Seen by Quortley and Abernathy today. Family visited. Plan: Continue Lasix.",
        "Mr Zanthopoulos and Mrs Zanthopoulos. Breathing Comfortably. Heparin Drip. Ohlsson Visited.",
        "Über Quortley, Zoë Xanthippe and Émile Zanthopoulos",
        "İstanbul Quortleyé Quortley\u0301 Quortley² ſtrand Zoë",  # dotted I, letters, a mark, a number around
        "no capitalised words here",
    ],
)
def test_capitalised_candidates_are_the_fuzzy_candidates_among_capitalised_words(text: str) -> None:
    every = [m.span() for m in _CAPITALISED_WORD.finditer(text)]
    normalised = normalise(text)
    assert _capitalised_candidates(text) == [s for s in every if _fuzzy_candidate(normalised[s[0] : s[1]])]


@pytest.mark.parametrize(
    ("text", "word", "spans"),
    [
        ("Quortley", "Quortley", [(0, 8)]),
        ("Quortley and Quortley.", "Quortley", [(0, 8), (13, 21)]),
        ("xQuortley Quortleys Quortley9 9Quortley _Quortley_", "Quortley", [(41, 49)]),
        ("QuortleyQuortley (Quortley)", "Quortley", [(18, 26)]),
        ("QUORTLEY quortley", "Quortley", []),
        ("", "Quortley", []),
    ],
)
def test_whole_word_spans(text: str, word: str, spans: list[tuple[int, int]]) -> None:
    assert whole_word_spans(text, word) == spans


_WORD_PIECES = (
    "Quortley", "Abernathy", "Quort", "ley", "Aber", " ", "  ", "\n", ".", ",", "-", "'", "_", "9", "x", "Q", "LEY",
    "Quortleys", "(", ")", "&", "Zanthopoulos", "\u00e9", "Zo\u00eb", "\u0130", "\u017f", "\u00b2", "\u0301", "\u2019",
    "\u00a0", "\u0663",
)  # fmt: skip


def test_whole_word_spans_find_what_the_capitalised_word_regex_finds() -> None:
    rng = random.Random(5)
    found = 0
    for text in random_texts(rng, _WORD_PIECES, 3000, 1, 12):
        every = [m.span() for m in _CAPITALISED_WORD.finditer(text)]
        for word in ("Quortley", "Abernathy", "Quort", "Zanthopoulos"):
            expected = [s for s in every if text[s[0] : s[1]] == word]
            assert whole_word_spans(text, word) == expected, (text, word)
            found += bool(expected)
    assert found > 500


# Facility names by the heads of UK and Canadian practices and clinics (issue 17), and clinical services that share a
# head word with them.
FACILITIES: list[tuple[str, str]] = [
    ("monitor his blood pressure at Young Medical Centre. I have", "Young Medical Centre"),
    ("Riverside Health Centre\n12 High Street", "Riverside Health Centre"),
    ("Dr Alan Freeman\nStephenson Medical Practice\n202 Burrows Way", "Stephenson Medical Practice"),
    ("Watkins Family Practice\n3 Crawford Crescent", "Watkins Family Practice"),
    ("referred by Dr. Jane Walker of Hanson Family Health Team for", "Hanson Family Health Team"),
    ("Duguay Community Health Centre\nClinic note", "Duguay Community Health Centre"),
    ("seen at Obrien Walk-In Clinic on", "Obrien Walk-In Clinic"),
    ("Leeds Teaching Hospitals NHS Trust\nDepartment", "Leeds Teaching Hospitals NHS Trust"),
    # descriptors between the name and the head, in one-case text too (invented names)
    ("pt adm 12/18 from zanyrard va medical center with hematemesis", "zanyrard va medical center"),
    ("dr quorvane at dyzhoford community hospital fixed it", "dyzhoford community hospital"),
    ("ADM FROM THEAKIOTON CHILDREN'S HOSPITAL WITH SYNCOPE", "THEAKIOTON CHILDREN'S HOSPITAL"),
    # a GP surgery: "Surgery" after a listed surname or place
    ("cc: Dr Annette Jones, Cartwright Surgery\n", "Cartwright Surgery"),
    ("Jackson Road Surgery\n108 Flynn Lane", "Jackson Road Surgery"),
    ("registered at Evans Surgery since 2010", "Evans Surgery"),
    # or after a rare word that is no specialty's adjective, or named after its street (invented names)
    ("Report to: Brantisk Surgery, 22 Fenwick Road.", "Brantisk Surgery"),
    ("GP: Dr Vavox, Mill Lane Surgery", "Mill Lane Surgery"),
    ("Registered with the Quelbury Road Surgery since 2010.", "Quelbury Road Surgery"),
    # a ward, wing or pavilion named as a practice is (invented names)
    ("bed 12, room 4B, Kelbury ward", "Kelbury ward"),
    ("Pt on Quelbine Ward since Monday", "Quelbine Ward"),
    ("Location: Quelbine Pavilion 4", "Quelbine Pavilion"),
    ("moved to the Brantisk Wing", "Brantisk Wing"),
    # long-term and residential care by the heads US and UK homes are named with (invented names)
    ("discharged to Quelbury Nursing and Rehabilitation Center", "Quelbury Nursing and Rehabilitation Center"),
    ("lives at Quelbury Care Home since 2019", "Quelbury Care Home"),
    ("admitted from Brantisk Skilled Nursing Facility", "Brantisk Skilled Nursing Facility"),
    ("resides at Quelbury Assisted Living", "Quelbury Assisted Living"),
    ("followed by Kelbury Medical Group", "Kelbury Medical Group"),
]
FACILITY_NEGATIVES: list[str] = [
    "seen by General Surgery today",
    "Cardiac Surgery consulted overnight",
    "Internal Medicine and Family Practice",
    "the health centre was closed",
    "under the NHS trust audit",
    "admitted under Day Surgery",
    "Plastic Surgery to see the wound",
    "referred to Hand Surgery and Breast Surgery",
    "Vascular Surgery, Colorectal Surgery and Trauma Surgery",
    "post Cataract Surgery review",
    "Bariatric Surgery, Hepatobiliary Surgery and Oculoplastic Surgery",
    "Keyhole Surgery. Septoplasty Surgery. Mohs Surgery. Transplant Surgery",
    "referred to brantisk surgery",
    # descriptors with no name before them, or a break between them
    "transferred to the community hospital today; seen at the va medical center",
    "pt adm from zanyrard va, medical center",
    # a ward, wing or pavilion named by its service or place in the building
    "moved to the Acute Medical Ward, then the Stroke Ward",
    "on Bariatric Ward since Monday",
    "admitted to the Observation Ward",
    "pt went to general ward",
    "in the Left Wing of the building",
    # a person whose surname is a ward's head, a double-barrelled surname
    "saw Charlene Ward today",
    "Mrs Martin-Ward visited",
    # the kinds of care named without a home's name, and a service with "and"
    "pt needs a skilled nursing facility; prefers care home; discussed rest home and assisted living",
    "Pt seen in Mental Health and Rehab clinic; nursing and rehab goals reviewed",
]


@pytest.mark.parametrize(("text", "expected"), FACILITIES)
def test_finds_facilities_by_their_head(text: str, expected: str) -> None:
    found = [text[s.start : s.end] for s in HospitalShapeDetector().detect(Document("d", text))]
    assert expected in found


@pytest.mark.parametrize("text", FACILITY_NEGATIVES)
def test_services_are_no_facilities(text: str) -> None:
    assert HospitalShapeDetector().detect(Document("d", text)) == []
