from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import regex

from deident.core.document import AnnotatedDocument
from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.io import write_corpus
from deident.synth import STYLES, generate_corpus, generate_note
from deident.synth.vocab import words
from deident.text.tokenize import tokenize

NAME_LABELS = {Label.PATIENT, Label.DOCTOR, Label.RELATIVE, Label.USERNAME}


@pytest.fixture(scope="module")
def corpus() -> list[AnnotatedDocument]:
    return generate_corpus(200, seed=11)


def _texts(docs: list[AnnotatedDocument], label: Label) -> list[str]:
    return [d.text[s.start : s.end] for d in docs for s in d.spans if s.label is label]


def test_same_seed_gives_identical_bytes(tmp_path: Path) -> None:
    write_corpus(generate_corpus(40, seed=3), tmp_path / "a.jsonl")
    write_corpus(generate_corpus(40, seed=3), tmp_path / "b.jsonl")
    write_corpus(generate_corpus(40, seed=4), tmp_path / "c.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert (tmp_path / "a.jsonl").read_bytes() != (tmp_path / "c.jsonl").read_bytes()


def test_a_note_does_not_depend_on_the_notes_before_it(corpus: list[AnnotatedDocument]) -> None:
    alone = generate_note(11, 37, STYLES[37 % len(STYLES)])
    assert alone == corpus[37]


def test_span_offsets_are_valid_and_tight(corpus: list[AnnotatedDocument]) -> None:
    for doc in corpus:
        previous_end = 0
        for span in doc.spans:
            covered = doc.text[span.start : span.end]
            assert 0 <= span.start < span.end <= len(doc.text)
            assert covered == covered.strip() and covered, (doc.id, span)
            assert span.start >= previous_end, ("overlap", doc.id, span)
            previous_end = span.end


def test_every_label_occurs(corpus: list[AnnotatedDocument]) -> None:
    counts = Counter(s.label for d in corpus for s in d.spans)
    assert set(counts) == set(Label)


def test_styles_are_taken_in_turn_and_look_their_part(corpus: list[AnnotatedDocument]) -> None:
    by_style: dict[str, list[AnnotatedDocument]] = {}
    for doc in corpus:
        by_style.setdefault(doc.document.metadata.get_extra("style") or "", []).append(doc)
    assert {k: len(v) for k, v in by_style.items()} == dict.fromkeys(STYLES, 50)

    def share(style: str, test: object) -> float:
        docs = by_style[style]
        return sum(bool(test(d)) for d in docs) / len(docs)  # type: ignore[operator]

    assert share("discharge", lambda d: "record date" in d.text.lower() or "discharge" in d.text.lower()) > 0.9
    assert share("discharge", lambda d: any(s.label is Label.DOCTOR for s in d.spans)) > 0.95
    assert share("nursing", lambda d: d.text.count(";") >= 3) > 0.9
    assert share("psych", lambda d: {Label.RELATIVE, Label.PROFESSION} <= {s.label for s in d.spans}) > 0.9
    assert share("forum", lambda d: any(s.label is Label.USERNAME for s in d.spans)) == 1.0


def test_nursing_case_variants() -> None:
    docs = generate_corpus(300, seed=5, styles=["nursing"])
    cases = Counter(d.document.metadata.get_extra("case") for d in docs)
    assert 0.2 < cases["upper"] / len(docs) < 0.4
    assert 0.2 < cases["lower"] / len(docs) < 0.4
    for doc in docs:
        case = doc.document.metadata.get_extra("case")
        if case == "upper":
            assert doc.text == doc.text.upper()
        elif case == "lower":
            assert doc.text == doc.text.lower()


@pytest.mark.parametrize(
    ("label", "shape"),
    [
        (Label.DATE, r"^\d{1,2}/\d{1,2}$"),
        (Label.DATE, r"^\d{2}/\d{2}/\d{4}$"),
        (Label.DATE, r"^(?i:[a-z]+) \d{1,2}(st|nd|rd|th)$"),
        (Label.DATE, r"^\d{1,2} (?i:[a-z]{3}) \d{4}$"),
        (Label.DATE, r"^\d{4}-\d{2}-\d{2}$"),
        (Label.DATE, r"^'\d\d$"),
        (Label.DATE, r"^(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)$"),
        (Label.PATIENT, r"^[\w'-]+, [\w'-]+$"),
        (Label.DOCTOR, r"^\w\. [\w'-]+$"),
        (Label.PHONE, r"^\(\d{3}\) \d{3}-\d{4}$"),
        (Label.PHONE, r"^\d{3}\.\d{3}\.\d{4}$"),
        (Label.ZIP, r"^\d{5}$"),
        (Label.EMAIL, r"^\S+@\S+\.\w+$"),
        (Label.IPADDR, r"^\d+\.\d+\.\d+\.\d+$"),
        (Label.SSN, r"^\d{3}-\d{2}-\d{4}$"),
    ],
)
def test_value_shapes_vary(corpus: list[AnnotatedDocument], label: Label, shape: str) -> None:
    pattern = regex.compile(shape)
    assert any(pattern.search(text) for text in _texts(corpus, label))


@pytest.mark.parametrize("context", [r"\d+ yo\b", r"\d+-year-old", r"(?i:aged) \d+", r"\d+ y/o"])
def test_age_phrasings(corpus: list[AnnotatedDocument], context: str) -> None:
    pattern = regex.compile(context, regex.IGNORECASE)
    assert any(pattern.search(d.text) for d in corpus)


def test_names_with_hyphens_possessives_and_word_names(corpus: list[AnnotatedDocument]) -> None:
    names = [d.text[s.start : s.end] for d in corpus for s in d.spans if s.label in NAME_LABELS]
    assert any("-" in name for name in names)
    assert any(d.text[s.end : s.end + 2] == "'s" for d in corpus for s in d.spans if s.label in NAME_LABELS)
    word_names = {w.lower() for w in words()["word_first_names"] + words()["word_last_names"]}
    assert sum(name.lower() in word_names for name in names) >= 20


DISTRACTORS = [
    r"\b7\.\d\d/\d+/\d+\b",  # blood gas
    r"\b\d{2,3}/\d{2,3}\b(?= (on|after|with))",  # BP in "BP was 120/80 on arrival"
    r"\bPOD #?\d\b",
    r"\b(?i:percocet|vicodin) \d+(\.\d)?/\d+",
    r"\bpain \d+/10\b",
    r"\b(?i:A&Ox|AOx|MAE x)\d\b",
    r"(?<=\s)(?i:x)\d\b(?!-)",  # "x3", unlike the phone extension "x5-1234"
    r"(?i)\b(foley|swan-ganz|dobhoff|hickman|jackson-pratt)\b",
    r"(?i)\b(parkinson's|alzheimer's|crohn's|hodgkin's|graves')",
    r"(?i)\btemp rose to\b",
    r"(?i)\b(today|yesterday|overnight|tomorrow)\b",
    r"(?i)\bhope(s? to| is to| for)\b",
]


@pytest.mark.parametrize("pattern", DISTRACTORS)
def test_distractors_are_present_and_unannotated(corpus: list[AnnotatedDocument], pattern: str) -> None:
    compiled = regex.compile(pattern)
    found = 0
    for doc in corpus:
        for match in compiled.finditer(doc.text):
            found += 1
            hits = [s for s in doc.spans if s.start < match.end() and match.start() < s.end]
            # a person may really be called Foley or Hickman; any other overlap is a generator bug
            assert all(h.label in NAME_LABELS for h in hits), (doc.id, pattern, [h.label for h in hits])
    assert found >= 3, pattern


def test_unknown_style_is_refused() -> None:
    with pytest.raises(ConfigurationError):
        generate_corpus(2, seed=0, styles=["radiology"])


def test_spans_start_and_end_on_token_boundaries(corpus: list[AnnotatedDocument]) -> None:
    # "74yo" keeps the age inside one plain token, as real notes do; the aggressive tokenizer splits it
    for doc in corpus:
        tokens = tokenize(doc.text, aggressive=True)
        starts, ends = {t.start for t in tokens}, {t.end for t in tokens}
        for span in doc.spans:
            assert span.start in starts and span.end in ends, (doc.id, span)
