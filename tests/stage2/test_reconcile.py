from __future__ import annotations

import pytest

from deident.core.document import Document, DocumentMetadata
from deident.core.labels import Label
from deident.core.span import Span
from deident.stage2.reconcile import ReconcileOptions, ReconcileStage, reconcile_document, reconcile_documents
from tests.cpu_time import least_cpu_seconds


def _seed(text: str, word: str, label: Label = Label.PATIENT, score: float | None = 0.9, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(word, start + 1)
    return Span(start, start + len(word), label, "crf", score)


def _tagged(text: str, spans: tuple[Span, ...]) -> list[tuple[str, Label]]:
    return [(text[s.start : s.end], s.label) for s in spans]


# (description, text, seed word, seed label, expected tagged strings)
CASES = [
    ("possessive", "Zyxwerth came. Zyxwerth's wife called.", "Zyxwerth", Label.PATIENT, ["Zyxwerth", "Zyxwerth"]),
    ("upper case variant", "Zyxwerth came. ZYXWERTH LATER.", "Zyxwerth", Label.PATIENT, ["Zyxwerth", "ZYXWERTH"]),
    ("lower case in lower note", "zyxwerth came. zyxwerth later.", "zyxwerth", Label.PATIENT, ["zyxwerth", "zyxwerth"]),
    ("common word not propagated", "BROWN came. brown secretions.", "BROWN", Label.PATIENT, ["BROWN"]),
    ("short common string not propagated", "Ng came. ng tube placed.", "Ng", Label.PATIENT, ["Ng"]),
    ("single letter not propagated", "Q came. Q later.", "Q", Label.PATIENT, ["Q"]),
    # two letters: a hospital's initials or a short surname, spread only where written as the seed was
    ("two-letter initials propagated as written", "From GH 7/23. GH notified. gh aware.", "GH", Label.HOSPITAL,
     ["GH", "GH"]),
    ("two-letter surname propagated as written", "Dr. Xu saw pt. Plan d/w Xu. XU INR 2.", "Xu", Label.DOCTOR,
     ["Xu", "Xu"]),
    ("two letters in another case not spread", "Dr. Od saw pt. Digoxin OD.", "Od", Label.DOCTOR, ["Od"]),
    ("whole words only", "Zyxwerth came. Zyxwerthson left.", "Zyxwerth", Label.PATIENT, ["Zyxwerth"]),
    ("place propagated", "From Quexburgh. Back to QUEXBURGH.", "Quexburgh", Label.CITY, ["Quexburgh", "QUEXBURGH"]),
    ("name parts and initial", "Anna Zyxwerth came. Zyxwerth ok. A. Zyxwerth signed.", "Anna Zyxwerth", Label.DOCTOR,
     ["Anna Zyxwerth", "Zyxwerth", "A. Zyxwerth"]),
    ("common first name part not propagated", "John Zyxwerth came. john was here.", "John Zyxwerth", Label.DOCTOR,
     ["John Zyxwerth"]),
    # a listed name that is also a common word: its mentions written with a capital, not the lower-case word
    ("common listed name part spread where capitalised", "Ruby Zyxwerth came. Ruby reports no pain. ruby laser used.",
     "Ruby Zyxwerth", Label.PATIENT, ["Ruby Zyxwerth", "Ruby"]),
    ("common surname not spread in an upper-case note", "FAIR ZYXWERTH CAME. CONDITION FAIR.",
     "FAIR ZYXWERTH", Label.PATIENT, ["FAIR ZYXWERTH"]),
    ("common listed name part not spread where written in capitals", "Fair Zyxwerth came. Condition: FAIR.",
     "Fair Zyxwerth", Label.PATIENT, ["Fair Zyxwerth"]),
    ("commonest words never spread", "Will Zyxwerth came. Will review later. May call.", "Will Zyxwerth",
     Label.PATIENT, ["Will Zyxwerth"]),
    ("common word that is no listed name not spread", "Little Zyxwerth came. Little change.", "Little Zyxwerth",
     Label.PATIENT, ["Little Zyxwerth"]),
    ("a combining mark inside a word", "i\u0307mren zyxwerth came. i\u0307mren reports pain.", "i\u0307mren zyxwerth",
     Label.PATIENT, ["i\u0307mren zyxwerth", "i\u0307mren"]),
    # longer than any name or place (a run of letters after "Dr" in a hostile note): not spread, and not searched for
    ("a string longer than any name not spread", "Dr " + "zyxwerth" * 13 + " seen. " + "zyxwerth" * 13 + " again.",
     "zyxwerth" * 13, Label.DOCTOR, ["zyxwerth" * 13]),
]  # fmt: skip


@pytest.mark.parametrize(("description", "text", "word", "label", "expected"), CASES, ids=[c[0] for c in CASES])
def test_propagation(description, text, word, label, expected):
    spans = reconcile_document(Document("d", text), [_seed(text, word, label)])
    assert _tagged(text, spans) == [(e, label) for e in expected]


def test_low_confidence_seed_is_not_propagated():
    text = "Zyxwerth came. Zyxwerth later."
    spans = reconcile_document(Document("d", text), [_seed(text, "Zyxwerth", score=0.2)])
    assert len(spans) == 1


def test_a_low_confidence_name_of_several_words_spreads_whole_not_its_words():
    text = "NEXT OF KIN: GBOWOADE ZYXWERTH (MOTHER)\nHER MOTHER GBOWOADE ZYXWERTH ATTENDED. GBOWOADE CALLED."
    spans = reconcile_document(Document("d", text), [_seed(text, "GBOWOADE ZYXWERTH", Label.RELATIVE, score=0.3)])
    assert _tagged(text, spans) == [("GBOWOADE ZYXWERTH", Label.RELATIVE)] * 2


def test_a_common_listed_first_name_spreads_in_a_one_case_note_its_surname_does_not():
    text = "PATIENT: JOE FAIR\nJOE REPORTS NO PAIN. CONDITION FAIR."
    spans = reconcile_document(Document("d", text), [_seed(text, "JOE FAIR", score=0.9)])
    assert _tagged(text, spans) == [("JOE FAIR", Label.PATIENT), ("JOE", Label.PATIENT)]


def test_lower_case_common_ish_word_in_mixed_case_note_is_skipped():
    text = "Mr Bolt came in. The bolt was loose."
    options = ReconcileOptions(max_zipf=4.0)
    spans = reconcile_document(Document("d", text), [_seed(text, "Bolt")], options)
    assert _tagged(text, spans) == [("Bolt", Label.PATIENT)]


def test_type_counting_makes_labels_consistent():
    text = "Zyxwerth saw pt. Zyxwerth called. Zyxwerth left."
    spans = [
        _seed(text, "Zyxwerth", Label.DOCTOR, nth=0),
        _seed(text, "Zyxwerth", Label.DOCTOR, nth=1),
        _seed(text, "Zyxwerth", Label.PATIENT, nth=2),
    ]
    out = reconcile_document(Document("d", text), spans)
    assert [s.label for s in out] == [Label.DOCTOR] * 3
    assert any("type count" in e for e in out[2].evidence)


def test_reconciliation_across_a_patients_notes_only():
    docs = [
        Document("1_1", "Zyxwerth visited.", DocumentMetadata(patient_id="1")),
        Document("1_2", "Called ZYXWERTH.", DocumentMetadata(patient_id="1")),
        Document("2_1", "Called Zyxwerth.", DocumentMetadata(patient_id="2")),
    ]
    out = reconcile_documents(docs, [[Span(0, 8, Label.RELATIVE, "crf", 0.95)], [], []])
    assert _tagged(docs[1].text, out[1]) == [("ZYXWERTH", Label.RELATIVE)]
    assert out[2] == ()
    assert out[1][0].source == "reconcile"
    assert "patient's notes" in out[1][0].evidence[0]


def test_existing_spans_are_not_duplicated_and_stage_matches_function():
    text = "Zyxwerth came. Zyxwerth later."
    spans = (_seed(text, "Zyxwerth"), _seed(text, "Zyxwerth", nth=1))
    doc = Document("d", text)
    assert ReconcileStage()(doc, spans) == reconcile_document(doc, spans) == spans


def test_evidence_is_phi_free():
    text = "Zyxwerth came. Zyxwerth later."
    out = reconcile_document(Document("d", text), [_seed(text, "Zyxwerth")])
    assert all("zyxwerth" not in e.lower() for s in out for e in s.evidence)


def test_propagation_precision_on_the_shared_corpus(shared_corpus):
    """Seeded with half of the gold NAME/LOCATION spans, every added span should be gold (measured 60/60)."""
    import random

    from deident.core.labels import Category
    from deident.io import read_corpus
    from deident.stage2.filter.span_classifier import is_positive

    corpus = read_corpus(shared_corpus)
    rng = random.Random(0)
    seeds = [
        tuple(s for s in d.spans if s.category in (Category.NAME, Category.LOCATION) and rng.random() < 0.5)
        for d in corpus
    ]
    out = reconcile_documents([d.document for d in corpus], seeds)
    added = [(d, x) for d, o in zip(corpus, out, strict=True) for x in o if x.source == "reconcile"]
    correct = sum(is_positive(x, d.spans, d.text) for d, x in added)
    assert len(added) >= 40
    assert correct / len(added) >= 0.95


@pytest.mark.parametrize(
    ("patients", "tagged_in_others"),
    [
        (("1", "1", "1"), [["ZYXWERTH"], ["Zyxwerth"]]),
        (("1", "1", "2"), [["ZYXWERTH"], []]),
        (("1", "2", "3"), [[], []]),
        (("1", None, None), [[], []]),
        ((None, None, None), [[], []]),
    ],
)
def test_stage_reconciles_the_notes_it_gets_together_per_patient(patients, tagged_in_others):
    texts = ("Zyxwerth visited.", "Called ZYXWERTH.", "Called Zyxwerth.")
    docs = [
        Document(f"n{i}", t, DocumentMetadata(patient_id=p))
        for i, (t, p) in enumerate(zip(texts, patients, strict=True))
    ]
    spans = [(Span(0, 8, Label.RELATIVE, "crf", 0.95),), (), ()]
    stage = ReconcileStage(ReconcileOptions(min_length=4))
    out = stage.apply_many(docs, spans)
    assert out == reconcile_documents(docs, spans, stage.options)
    assert [[d.text[s.start : s.end] for s in o] for d, o in zip(docs[1:], out[1:], strict=True)] == tagged_in_others
    pairs = list(zip(docs, spans, strict=True))
    assert [stage.apply_many([d], [s])[0] for d, s in pairs] == [stage(d, s) for d, s in pairs]


# (description, text, seed word, expected tagged strings): the strings reconciliation spreads pass the stage-1 veto.
VETO_CASES = [
    ("a device eponym seeded after a title", "Dr. Hickman saw pt. Hickman line flushed.", "Hickman", ["Hickman"]),
    ("an occurrence naming a product", "Mr Zyxwerth came. Zyxwerth catheter placed.", "Zyxwerth", ["Zyxwerth"]),
    ("a name that is no clinical word", "Mr Zyxwerth came. Zyxwerth later.", "Zyxwerth", ["Zyxwerth", "Zyxwerth"]),
]  # fmt: skip


@pytest.mark.parametrize(("description", "text", "word", "expected"), VETO_CASES, ids=[c[0] for c in VETO_CASES])
def test_propagated_strings_pass_the_veto(description, text, word, expected):
    spans = reconcile_document(Document("d", text), [_seed(text, word, Label.DOCTOR)])
    assert [text[s.start : s.end] for s in spans] == expected
    without = reconcile_document(Document("d", text), [_seed(text, word, Label.DOCTOR)], ReconcileOptions(veto=False))
    assert len(without) == 2  # without the veto, every occurrence is tagged


def _mentions(count: int) -> tuple[Document, list[Span]]:
    """``count`` confident mentions of one invented name, each a span, and one mention left untagged at the end."""
    spans = [Span(19 * i + 3, 19 * i + 14, Label.DOCTOR, "crf", 0.9) for i in range(count)]
    return Document("d", " ".join("Dr Wobblestone saw" for _ in range(count)) + " Wobblestone"), spans


def test_reconciliation_takes_time_linear_in_the_spans_of_a_note():
    # Each occurrence of a dictionary string used to be compared with every span of the note: x14 for four times
    # the spans; now about x4.
    reconcile_document(*_mentions(50))  # loads the tables
    seconds = []
    for count in (4_000, 16_000):
        document, spans = _mentions(count)
        seconds.append(least_cpu_seconds(reconcile_document, document, spans))
        found = reconcile_document(document, spans)
        assert len(found) == count + 1 and found[-1].source == "reconcile"
    assert seconds[1] / seconds[0] < 7.0


def test_a_weak_name_sharing_a_word_with_a_confident_one_spreads_its_other_words():
    text = "zeanaintova chiferko is 67. zeanaintova reports no pain. mrs chiferko will continue."
    weak = Span(0, 20, Label.PATIENT, "crf", 0.23)  # below the seed score: alone it would spread nothing
    start = text.index("chiferko will")
    confident = Span(start, start + 8, Label.PATIENT, "patterns.name", 0.92)
    found = {text[s.start : s.end] for s in reconcile_document(Document("d", text), (weak, confident))}
    assert "zeanaintova" in found
    # without a confident name sharing a word, the weak one stays a non-seed
    alone = {text[s.start : s.end] for s in reconcile_document(Document("d", text), (weak,))}
    assert alone == {"zeanaintova chiferko"}
