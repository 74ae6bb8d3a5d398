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
