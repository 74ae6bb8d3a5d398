import random

import pytest

from deident.text import SectionDetector, lines, sentences, tokenize, whitespace_tokens


@pytest.mark.parametrize(
    ("text", "aggressive", "expected"),
    [
        ("Dr. O'Brien", False, ["Dr", ".", "O", "'", "Brien"]),
        ("rangeImpression", True, ["range", "Impression"]),
        ("rangeImpression", False, ["rangeImpression"]),
        ("57yo winterHx", True, ["57", "yo", "winter", "Hx"]),
        ("7/22/05", False, ["7", "/", "22", "/", "05"]),
        ("MRI", True, ["MRI"]),
        ("", False, []),
    ],
)
def test_tokenize(text, aggressive, expected):
    tokens = tokenize(text, aggressive=aggressive)
    assert [t.text for t in tokens] == expected
    assert all(text[t.start : t.end] == t.text for t in tokens)


def test_token_repr_hides_text():
    assert "Smith" not in repr(tokenize("Smith")[0])


def test_whitespace_tokens():
    assert whitespace_tokens(" a bc\nd ") == [(1, 2), (3, 5), (6, 7)]


def test_lines_and_sentences():
    text = "Pt seen by Dr. Smith. He is stable.\n\nPlan: home"
    assert [text[s.start : s.end] for s in lines(text)] == ["Pt seen by Dr. Smith. He is stable.", "", "Plan: home"]
    assert [text[s.start : s.end] for s in sentences(text)] == ["Pt seen by Dr. Smith.", "He is stable.", "Plan: home"]


def test_sections():
    text = "HPI: fell at home.\nPMH: CAD; MEDS: lasix\nNEURO: alert\nsocial history: lives alone"
    found = SectionDetector.default().find(text)
    assert [s.name for s in found] == ["HPI", "PMH", "MEDICATIONS", "NEURO", "SOCIAL"]
    assert text[found[2].heading_start : found[2].heading_end] == "MEDS"
    assert found[0].end == found[1].start


def _unicode_texts(seed: int, count: int = 400) -> list[str]:
    """Random texts of letters (accented, Greek, Cyrillic, CJK), digits of several scripts, combining marks,
    connectors, symbols and white space of several kinds."""
    rng = random.Random(seed)
    alphabet = (
        "abcXYZ019_ -.,'\n\t"
        "\u00e9\u00c9\u00df\u0131\u0130\u017f\u212a\u03b1\u0391\u0436\u0416\u4e2d\u0301\u0308"
        "\u0663\u00b2\u00bd\u2167\u203f\u2019\u00b0\u00a0\u2009\u2028\u3000\u00b5"
    )
    return ["".join(rng.choices(alphabet, k=rng.randint(0, 60))) for _ in range(count)]


@pytest.mark.parametrize("aggressive", [False, True])
def test_token_columns_equal_tokenize_on_any_text(aggressive: bool) -> None:
    from deident.text.tokenize import token_columns

    for text in _unicode_texts(11):
        starts, ends, texts, newlines = token_columns(text, aggressive)
        tokens = tokenize(text, aggressive)
        assert list(zip(starts, ends, texts, strict=True)) == [(t.start, t.end, t.text) for t in tokens], repr(text)
        previous = 0
        expected_newlines = []
        for i, t in enumerate(tokens):
            expected_newlines.append(i == 0 or "\n" in text[previous : t.start])
            previous = t.end
        assert newlines == expected_newlines, repr(text)
