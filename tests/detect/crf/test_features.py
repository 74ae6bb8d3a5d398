from __future__ import annotations

from dataclasses import dataclass

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.crf.features import (
    FeatureConfig,
    FeatureExtractor,
    case_class,
    crf_tokens,
    easyadapt,
    word_shape,
)
from deident.detect.crf.learned import LearnedData, token_hash
from deident.text.tokenize import tokenize


@pytest.mark.parametrize(
    "text",
    [
        "Pt 57yo M, rangeImpression: stable.\n\nSeen by Dr. Smith 3/4/2010 x1234",
        "ALL CAPS NOTE WITH 2L O2\n",
        "café Zoë naïve 12ab",  # non-ASCII goes through the foundation tokenizer
        "",
        "a_b--c\t\td",
        "ABCdefGHI aBC1d 2L.O2 x1234y rangeImpression5",  # every aggressive split point
        "  \r\n\x0b\x0c\x1c\x1d tail \n",  # white space of every kind, trailing spaces
        "||| a|b 12|34 __B__",
        "   \n\t ",  # white space only
        "x" + " \t\n" * 50 + "\x1c  ",  # a long run of white space before a last token that is no \s
    ],
)
@pytest.mark.parametrize("aggressive", [True, False])
def test_crf_tokens_match_the_foundation_tokenizer(text: str, aggressive: bool) -> None:
    expected = [(t.start, t.end, t.text) for t in tokenize(text, aggressive)]
    assert [(t.start, t.end, t.text) for t in crf_tokens(text, aggressive)] == expected


def test_newline_before_marks_line_starts() -> None:
    tokens = crf_tokens("a b\nc\n\nd")
    assert [t.newline_before for t in tokens] == [True, False, True, True]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Smith", "TI"),
        ("SMITH", "UP"),
        ("smith", "LO"),
        ("McDonald", "MX"),
        ("A", "U1"),
        ("123", "DG"),
        ("x12", "AN"),
        (".", "PU"),
    ],
)
def test_case_class(word: str, expected: str) -> None:
    assert case_class(word) == expected


@pytest.mark.parametrize(
    ("word", "short", "long"),
    [("Smith", "Xx", "Xxxx"), ("12/03/2010", "d/d/d", "dd/dd/ddd"), ("ABC", "X", "XXX"), ("O2", "Xd", "Xd")],
)
def test_word_shape(word: str, short: str, long: str) -> None:
    assert word_shape(word) == (short, long)
    assert word_shape(word) == (short, long)  # again, from the memo


def test_word_shape_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from deident.detect.crf import features

    monkeypatch.setattr(features, "_shapes", {})
    monkeypatch.setattr(features, "_SHAPE_MEMO_LIMIT", 3)
    words = ["Smith", "ab12", "X-ray", "O2", "12/03/2010", "Smith"]
    assert [word_shape(w) for w in words] == [
        ("Xx", "Xxxx"),
        ("xd", "xxdd"),
        ("X-x", "X-xxx"),
        ("Xd", "Xd"),
        ("d/d/d", "dd/dd/ddd"),
        ("Xx", "Xxxx"),
    ]
    assert len(features._shapes) <= 3


@pytest.mark.parametrize(
    ("word", "present", "absent"),
    [
        ("7", ("hasdig", "dg1", "num=1", "cc=DG"), ("fb=0",)),
        ("99", ("hasdig", "dg2", "num=8"), ()),
        ("2093", ("hasdig", "dg4"), ("num=8",)),
        ("x3", ("cc=AN",), ("hasdig", "dg2")),  # starts with a letter: frequency band, not digit features
        ("٣", ("hasdig", "dg1", "num=0"), ()),  # a decimal digit of another script
        ("²", ("hasdig", "dg1"), ("num=0",)),  # a digit int() refuses: no number feature (it used to raise)
        ("|", ("cc=PU", "cl=none"), ("hasdig", "fb=0")),
    ],
)
def test_digit_and_punctuation_features(word: str, present: tuple[str, ...], absent: tuple[str, ...]) -> None:
    own = FeatureExtractor(FeatureConfig(rare_masking=False)).type_info(word).own
    for feature in present:
        assert feature in own, feature
    for feature in absent:
        assert feature not in own, feature


def test_note_with_superscript_digit_extracts() -> None:
    extractor = FeatureExtractor()
    feats = _features("BSA 1.9 m² today", extractor)
    assert "dg1" in feats["²"] and not any(f.startswith("num=") for f in feats["²"])


@dataclass(frozen=True)
class _FakeProvider:
    name: str = "fake.names"

    def detect(self, document: Document) -> list[Span]:
        start = document.text.find("Smith")
        return [Span(start, start + 5, Label.DOCTOR, "fake.names")] if start >= 0 else []


def _features(text: str, extractor: FeatureExtractor) -> dict[str, list[str]]:
    doc = Document("d1", text)
    tokens = extractor.tokens(text)
    return {t.text: f for t, f in zip(tokens, extractor.extract(doc, tokens), strict=True)}


def test_token_features_cover_the_issue_list() -> None:
    learned = LearnedData(triggers={("dr", -2): "NAME"}, lexicon={token_hash("smith"): "NAME"})
    extractor = FeatureExtractor(FeatureConfig(rare_masking=False), learned, {"smith": 3}, (_FakeProvider(),))
    feats = _features("Assessment: seen by Dr. Smith today\nplan", extractor)["Smith"]
    for expected in (
        "w=smith",
        "cc=TI",
        "sh=Xx",
        "p2=sm",
        "s3=ith",
        "len=5",
        "cl=3",
        "lex=NAME",
        "trg-2=NAME",
        "w-1=.",
        "w-2=dr",
        "w1=today",
        "b-1=.|smith",
        "b+1=smith|today",
        "s3=.|Xx|x",
        "hit:fake.names:DOCTOR",
        "sec=ASSESSMENT",
        "lp=4",
    ):
        assert expected in feats, expected
    assert any(f.startswith("fb=") for f in feats)
    first = _features("Assessment: seen by Dr. Smith today\nplan", extractor)["plan"]
    assert "bol" in first and "eol" in first and "de=0" in first


def test_section_feature_absent_before_any_heading() -> None:
    feats = _features("seen by Dr. Smith", FeatureExtractor())["Smith"]
    assert not any(f.startswith("sec=") for f in feats)


def test_extractor_is_deterministic_and_memo_free_of_documents() -> None:
    extractor = FeatureExtractor()
    doc = Document("d", "Wife Mary called 3/4.")
    assert extractor.extract(doc) == extractor.extract(doc)
    assert extractor.extract(Document("e", "")) == []


def test_easyadapt_doubles_with_domain_copies() -> None:
    assert easyadapt([["a", "b"]], "src") == [["a", "b", "src|a", "src|b"]]


def test_rare_words_lose_their_identity_but_keep_their_form() -> None:
    learned = LearnedData(vocabulary=frozenset({token_hash("seen"), token_hash("by")}))
    feats = _features("seen by Quimby", FeatureExtractor(FeatureConfig(rare_masking=True), learned))
    assert "w=seen" in feats["seen"] and "w1=by" in feats["seen"]
    assert "w=__rare__" in feats["Quimby"] and "b-1=by|__rare__" in feats["Quimby"]
    assert "sh=Xx" in feats["Quimby"] and "s3=mby" in feats["Quimby"]


@dataclass(frozen=True)
class _FixedProvider:
    name: str
    found: tuple[Span, ...]

    def detect(self, document: Document) -> list[Span]:
        return list(self.found)


def test_extract_with_given_hits_equals_running_providers() -> None:
    text = "Seen by Dr. Smith on 3/4 and Dr. Jones.\n"
    date = Span(21, 24, Label.DATE, "p.date")
    names = (Span(12, 17, Label.DOCTOR, "p.name"), Span(33, 38, Label.DOCTOR, "p.name"))
    providers = (_FixedProvider("p.name", names), _FixedProvider("p.date", (date,)))
    extractor = FeatureExtractor(providers=providers)
    doc = Document("d", text)
    expected = extractor.extract(doc)
    assert any("hit:p.date:DATE" in f for f in expected)
    unrelated = Span(0, 4, Label.DATE, "someone.else")
    assert extractor.extract(doc, hits=(unrelated, date, *reversed(names))) == expected
    assert extractor.extract(doc, hits=()) == FeatureExtractor().extract(doc)


@pytest.mark.parametrize(
    "keep",
    [
        frozenset({"bias", "cc=TI", "w-1=dr", "b-1=.|smith", "sh+1=d/d", "lp=0", "bol", "dc=MX|TI", "lex=NAME"}),
        frozenset({"w=seen", "s3=x|X.|Xx", "eol", "hit:p.date:DATE", "de=0"}),
        frozenset(),
    ],
)
def test_extract_with_keep_equals_filtered_extract(keep: frozenset[str]) -> None:
    learned = LearnedData(lexicon={token_hash("smith"): "NAME"})
    date = _FixedProvider("p.date", (Span(21, 24, Label.DATE, "p.date"),))
    full = FeatureExtractor(learned=learned, providers=(date,))
    kept = FeatureExtractor(learned=learned, providers=(date,), keep=keep)
    doc = Document("d", "Seen by Dr. Smith on 3/4 and Dr. Jones.\nSMITH called 3/5.\n")
    expected = [[f for f in feats if f in keep] for feats in full.extract(doc)]
    assert any(expected) or not keep
    assert kept.extract(doc) == expected


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("aggressive", [True, False])
def test_crf_tokens_match_the_foundation_tokenizer_on_random_text(seed: int, aggressive: bool) -> None:
    import random

    rng = random.Random(seed)
    alphabet = "aZbYcX09 1\t\n\r_.-|/:;'\x0b\x1c"
    for _ in range(50):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        expected = [(t.start, t.end, t.text) for t in tokenize(text, aggressive)]
        assert [(t.start, t.end, t.text) for t in crf_tokens(text, aggressive)] == expected, repr(text)
