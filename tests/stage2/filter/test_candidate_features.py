from __future__ import annotations

import random

import pytest

from deident.core.document import Document, DocumentMetadata
from deident.core.labels import Label
from deident.core.span import Span
from deident.stage2.filter.candidate_features import (
    AUTOMATON_MAX_NEEDLE,
    build_contexts,
    candidate_features,
    case_class,
    crf_features,
    note_context,
    scaled_logit,
    substring_counts,
    word_shape,
)
from deident.stage2.union import union_candidates
from tests.cpu_time import least_cpu_seconds

TEXT = "HPI: Seen by Dr Zyxwerth today. Plan: call Zyxwerth at home."


def _features(text: str, spans: list[Span]) -> list[dict[str, float]]:
    doc = Document("d", text)
    return candidate_features(doc, union_candidates(spans))


@pytest.mark.parametrize(
    ("text", "shape", "case"),
    [
        ("Smith", "Xx", "title"),
        ("SMITH", "X", "upper"),
        ("smith", "x", "lower"),
        ("12/03/2020", "d/d/d", "none"),
        ("O'Neil", "X'Xx", "title"),
        ("DeVries", "XxXx", "mixed"),
        ("McDonald", "XxXx", "mixed"),
        ("John Smith", "Xx_Xx", "title"),
    ],
)
def test_shape_and_case(text, shape, case):
    assert word_shape(text) == shape
    assert case_class(text) == case


@pytest.mark.parametrize(
    ("feature", "value"),
    [
        ("src=crf", 1.0),
        ("src=lexicon.last", 1.0),
        ("score=crf", 0.7),
        ("fams=crf+lexicon", 1.0),
        ("n_families", 2.0),
        ("label=DOCTOR", 1.0),
        ("case=title", 1.0),
        ("note_case=mixed", 1.0),
        ("w-1=dr", 1.0),
        ("w-2=by", 1.0),
        ("w+1=today", 1.0),
        ("bg-=by_dr", 1.0),
        ("trig=dr", 1.0),
        ("section=HPI", 1.0),
        ("same_in_note_any", 1.0),
        ("ev=lexicon.last: list=surnames", 1.0),
        ("has_digit", 0.0),
        ("fams=crf+lexicon&cat=NAME", 1.0),
        ("fams=crf+lexicon&note=mixed", 1.0),
        ("crf_p=<0.9&fams=crf+lexicon", 1.0),
        ("crf_logit", scaled_logit(0.7, 1e-4)),
    ],
)
def test_candidate_features_table(feature, value):
    spans = [
        Span(16, 24, Label.DOCTOR, "crf", 0.7),
        Span(16, 24, Label.DOCTOR, "lexicon.last", None, ("list=surnames",)),
        Span(43, 51, Label.DOCTOR, "crf", 0.6),
    ]
    feats = _features(TEXT, spans)[0]
    assert feats[feature] == pytest.approx(value)


def test_features_never_contain_the_candidate_or_rare_context_words():
    text = "Seen by Qwertyson Zyxwerth yesterday."
    feats = _features(text, [Span(18, 26, Label.PATIENT, "crf", 0.9)])[0]
    joined = " ".join(feats).lower()
    assert "zyxwerth" not in joined and "qwertyson" not in joined
    assert feats["w-1=<Xx>"] == 1.0


def test_note_upper_fraction_feature():
    feats = _features("PT SEEN BY DR ZYXWERTH TODAY", [Span(14, 22, Label.DOCTOR, "crf", 0.9)])[0]
    assert feats["note_upper_frac"] == 1.0 and feats["note_case=upper"] == 1.0


def test_patient_context_counts_other_notes_of_the_same_patient():
    docs = [
        Document("1_1", "Zyxwerth visited.", DocumentMetadata(patient_id="1")),
        Document("1_2", "ZYXWERTH called.", DocumentMetadata(patient_id="1")),
        Document("1_3", "Nothing here.", DocumentMetadata(patient_id="1")),
        Document("2_1", "Zyxwerth again.", DocumentMetadata(patient_id="2")),
    ]
    cands = [
        [Span(0, 8, Label.PATIENT, "crf")],
        [Span(0, 8, Label.PATIENT, "crf")],
        [],
        [Span(0, 8, Label.PATIENT, "crf")],
    ]
    contexts = build_contexts(docs, cands)
    assert contexts[0].patient_notes == {"zyxwerth": 1}
    assert contexts[1].patient_notes == {"zyxwerth": 1}
    assert contexts[3].patient_notes == {}
    assert note_context(docs[0], cands[0]).note_counts == {"zyxwerth": 1}
    feats = candidate_features(docs[0], union_candidates(cands[0]), contexts[0])[0]
    assert feats["same_in_patient_any"] == 1.0
    alone = candidate_features(docs[3], union_candidates(cands[3]), contexts[3])[0]
    assert alone["same_in_patient_any"] == 0.0


@pytest.mark.parametrize(
    ("p", "eps", "expected"),
    [(0.5, 1e-4, 0.0), (1e-4, 1e-4, -1.0), (1.0, 1e-4, 1.0), (0.0, 1e-3, -1.0), (0.9, 1e-3, 0.3181)],
)
def test_scaled_logit_is_bounded_and_centred(p, eps, expected):
    assert scaled_logit(p, eps) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(
    ("spans", "expected"),
    [
        # A lone CRF span keeps its own evidence unprefixed.
        (
            [Span(16, 24, Label.DOCTOR, "crf", 0.02, ("crf:p=0.02", "crf:mean=0.01"))],
            {
                "crf_p=<0.03&fams=crf": 1.0,
                "crf_logit": scaled_logit(0.02, 1e-4),
                "crf_mean_logit": scaled_logit(0.01, 1e-3),
            },
        ),
        # Merged with a lexicon span: the union prefixes the CRF's notes with "crf: ".
        (
            [
                Span(16, 24, Label.DOCTOR, "crf", 0.95, ("crf:p=0.95", "crf:mean=0.90")),
                Span(16, 24, Label.DOCTOR, "lexicon.last", 0.4, ("crf:mean=0.10",)),
            ],
            {
                "crf_p=<0.99&fams=crf+lexicon": 1.0,
                "crf_logit": scaled_logit(0.95, 1e-4),
                "crf_mean_logit": scaled_logit(0.9, 1e-3),
            },
        ),
        # No CRF part: only the absence is a feature (another detector's look-alike note is ignored).
        ([Span(16, 24, Label.DOCTOR, "lexicon.last", 0.4, ("crf:mean=0.10",))], {"crf_absent": 1.0}),
    ],
)
def test_crf_features(spans, expected):
    (candidate,) = union_candidates(spans)
    fams = "+".join(sorted({s.source.split(".")[0] for s in spans}))
    feats = crf_features(candidate, fams)
    assert set(feats) == set(expected)
    for key, value in expected.items():
        assert feats[key] == pytest.approx(value, abs=1e-4)


def test_crf_features_read_the_typed_parts() -> None:
    from deident.core.provenance import Part
    from deident.stage2.filter.candidate_features import crf_features

    # The peak comes from the CRF's part, not from the candidate's own score (the lexicon's 0.9).
    crf = Part("crf", Label.PATIENT, 0, 5, 0.4)
    rule = Part("lexicon.name", Label.PATIENT, 0, 5, 0.9)
    merged = Span(0, 5, Label.PATIENT, "crf+lexicon.name", 0.9, ("crf: crf:mean=0.30",), (rule, crf))
    assert crf_features(merged, "crf+lexicon") == {
        "crf_logit": scaled_logit(0.4, 1e-4),
        "crf_p=<0.7&fams=crf+lexicon": 1.0,
        "crf_mean_logit": scaled_logit(0.3, 1e-3),
    }
    # Without parts a span is its own part: a lone CRF span, or a lexicon span with no CRF part.
    lone = Span(0, 5, Label.PATIENT, "crf", 0.4, ("crf:mean=0.30",))
    assert crf_features(lone, "crf+lexicon") == crf_features(merged, "crf+lexicon")
    assert crf_features(Span(0, 5, Label.PATIENT, "lexicon.name", 0.9), "lexicon") == {"crf_absent": 1.0}


def test_context_words_memoised_equal_their_definition(monkeypatch: pytest.MonkeyPatch) -> None:
    from deident.stage2.filter import candidate_features as cf

    monkeypatch.setattr(cf, "_CONTEXT_MEMO_LIMIT", 3)
    monkeypatch.setattr(cf, "_context_words", {})
    words = ["the", "Dr", "Quimby", "12", ",", "THE", "O'Neil", "the", "Quimby", "café"]
    for word in words + words:
        assert cf._context_word(word) == cf._context_word_of(word)
        assert len(cf._context_words) <= 3
    assert cf._context_word("Quimby") == "<Xx>" and cf._context_word("the") == "the"


def test_substring_counts_equal_str_count():
    rng = random.Random(5)
    for _ in range(2000):
        alphabet = rng.choice(["ab", "abc", "a\u00e9 ", "a\U0001f600b"])
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        needles = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(0, 8))}
        assert substring_counts(text, needles) == {needle: text.count(needle) for needle in needles}


@pytest.mark.parametrize("longest_in_automaton", [0, 2, AUTOMATON_MAX_NEEDLE])
def test_substring_counts_equal_str_count_whichever_way_a_needle_is_counted(monkeypatch, longest_in_automaton):
    # Needles longer than the limit are counted one by one; both ways must give str.count's answer.
    from deident.stage2.filter import candidate_features as cf

    monkeypatch.setattr(cf, "AUTOMATON_MAX_NEEDLE", longest_in_automaton)
    rng = random.Random(7)
    for _ in range(500):
        alphabet = rng.choice(["a", "ab", "a\u00e9 "])
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
        needles = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 90))) for _ in range(rng.randint(0, 6))}
        assert substring_counts(text, needles) == {needle: text.count(needle) for needle in needles}


def test_substring_counts_of_a_long_needle_in_a_run_of_one_character():
    # The automaton alone took the square of the needle's length here (20,000: about 0.25 s, 48,000: 1.6 s).
    text = "a" * 20_000
    assert substring_counts(text, {text, "a" * 7, "a" * 10_001}) == {text: 1, "a" * 7: 2857, "a" * 10_001: 1}


def _one_line_of_names(count: int) -> tuple[Document, list[Span]]:
    """A note of one line (no line break) with ``count`` distinct invented surnames, each a candidate."""
    rng = random.Random(count)
    syllables = ("".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(4)) for _ in range(count))
    words = [word.title() for word in syllables]
    spans, position = [], 0
    for word in words:
        spans.append(Span(position + 3, position + 3 + len(word), Label.DOCTOR, "crf", 0.6))
        position += len(word) + 8
    return Document("d", " ".join(f"Dr {w} saw" for w in words)), spans


def test_features_take_time_linear_in_the_candidates_of_a_long_line():
    # Counting each candidate's repeats and finding its line's start used to scan the whole note per candidate:
    # x11 for four times the candidates (of a one-line note four times longer); now about x4.
    candidate_features(*_one_line_of_names(50))  # loads the word frequencies
    seconds = []
    for count in (4_000, 16_000):
        document, spans = _one_line_of_names(count)
        seconds.append(least_cpu_seconds(candidate_features, document, spans))
    assert seconds[1] / seconds[0] < 7.0
