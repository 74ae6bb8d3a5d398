"""``deident.text.charset``: which texts may take the ASCII fast paths, and each fast path against its Unicode path
on texts whose only non-ASCII characters are symbols."""

from __future__ import annotations

import random

import pytest
import regex

from deident.text.charset import ascii_bytes, ascii_like, letter_counts, plain_symbol

SYMBOLS = "\u2019\u201c\u201d\u2013\u2014\u00b0\u2022\u00b1\u2026\u00d7\u20ac\u00a9\u2122\u2192"
NOT_PLAIN = "\u00e9\u00b5\u00b2\u00bd\u00a0\u2009\u017f\u212a\u0130\u0301\u2028\u00c9"


@pytest.mark.parametrize("char", list(SYMBOLS))
def test_punctuation_and_symbols_are_plain(char: str) -> None:
    assert plain_symbol(char)


@pytest.mark.parametrize("char", [*NOT_PLAIN, "a", "-", " "])
def test_letters_digits_marks_spaces_and_ascii_are_not(char: str) -> None:
    # é, micro sign, superscript two, one half, no-break and thin space, long s, Kelvin sign, dotted I, a combining
    # accent, the line separator, É; and ASCII characters, which need no test.
    assert not plain_symbol(char)


@pytest.mark.parametrize(
    ("text", "like"),
    [
        ("Pt seen 3/14.", True),
        ("Pt\u2019s temp 38\u00b0 \u2013 stable", True),
        ("Pt seen by Dr. Ren\u00e9e", False),
        ("Temp\u00a0high", False),
        ("", True),
    ],
)
def test_ascii_like(text: str, like: bool) -> None:
    assert ascii_like(text) is like


def test_ascii_bytes_keep_offsets() -> None:
    text = "Pt\u2019s 38\u00b0 ok"
    raw = ascii_bytes(text)
    assert len(raw) == len(text)
    assert raw == b"Pt?s 38? ok"


@pytest.mark.parametrize(
    ("text", "upper", "lower", "others"),
    [
        ("", 0, 0, {}),
        ("Pt OK 12", 3, 1, {}),
        ("Jos\u00e9 \u00c9MILE 38\u00b0 \u00e9", 5, 2, {"\u00e9": 2, "\u00c9": 1, "\u00b0": 1}),
        ("\u6771\u4eac", 0, 0, {"\u6771": 1, "\u4eac": 1}),
    ],
)
def test_letter_counts(text: str, upper: int, lower: int, others: dict[str, int]) -> None:
    assert letter_counts(text) == (upper, lower, others)


def _texts(seed: int, count: int = 300) -> list[str]:
    """Random note-like texts: ASCII words, digits, punctuation, line breaks and non-ASCII symbols."""
    rng = random.Random(seed)
    pieces = [
        "Pt", "SMITH", "smith", "Attending", "Dr.", "MD", "57yo", "rangeImpression", "12/03", "555-1234", "HISTORY:",
        "Plan:", "mg", "O2", "x2", "Mr.", "Jones", "Boston", "ICU", "#", "(", ")", ";", ".", ",", ":", "-", "'", '"',
    ]  # fmt: skip
    return _joined(rng, count, 30, pieces, list(SYMBOLS), 0.2, [" ", " ", "  ", "\t", "\n", "", "\n\n"])


def _joined(
    rng: random.Random, count: int, most: int, common: list[str], rare: list[str], share: float, gaps: list[str]
) -> list[str]:
    """``count`` texts of up to ``most`` pieces, each rare with probability ``share``, each followed by a gap."""
    out = []
    for _ in range(count):
        words = []
        for _ in range(rng.randint(0, most)):
            words.append(rng.choice(rare) if rng.random() < share else rng.choice(common))
            words.append(rng.choice(gaps))
        out.append("".join(words))
    return out


@pytest.mark.parametrize("aggressive", [True, False])
def test_crf_tokens_of_symbol_texts_equal_the_unicode_tokenizer(aggressive: bool) -> None:
    from deident.detect.crf.features import crf_token_columns
    from deident.text.tokenize import tokenize

    for text in _texts(1):
        starts, ends, texts, _ = crf_token_columns(text, aggressive)
        expected = tokenize(text, aggressive)
        assert list(zip(starts, ends, texts, strict=True)) == [(t.start, t.end, t.text) for t in expected], text


def test_section_headings_of_symbol_texts_equal_the_full_scan() -> None:
    from deident.text.sections import SectionDetector

    detector = SectionDetector.default()
    texts = [t.replace("Plan:", "\u2022 Plan:").replace("HISTORY:", "HISTORY:\u2013") for t in _texts(2)]
    for text in texts:
        assert detector._hits(text) == detector._scan_hits(text), text


def test_normalised_texts_equal_the_character_by_character_path() -> None:
    from deident.text.normalise import _normalise_unicode, normalise

    sigma = ["\u039f\u0394\u039f\u03a3 x", "AB\u03a3", "\u03a3\u03a3 ab\u03a3 K\u212a \u00c9\u03a3."]  # final sigma
    for text in [*_texts(3), *_unicode_note_texts(3), *sigma]:
        assert normalise(text) == _normalise_unicode(text), repr(text)


_UPPER = regex.compile(r"\p{Lu}+")
_LOWER = regex.compile(r"\p{Ll}+")


def test_letter_case_counts_of_symbol_texts_equal_the_unicode_counts() -> None:
    from deident.text.case import case_mode, upper_fraction

    for text in [*_texts(4), *_unicode_note_texts(4)]:
        upper = sum(map(len, _UPPER.findall(text)))
        lower = sum(map(len, _LOWER.findall(text)))
        letters = sum(map(str.isalpha, text))
        assert upper_fraction(text) == (sum(map(str.isupper, text)) / letters if letters else 0.0), repr(text)
        share = upper / (upper + lower) if upper + lower else None
        expected = "mixed" if share is None else "upper" if share >= 0.85 else "lower" if share <= 0.03 else "mixed"
        assert case_mode(text).value == expected, text


def test_name_digit_seeds_are_the_unicode_seeds_overlapping_ones_included() -> None:
    from deident.detect.patterns.usernames import _NAME_DIGITS_SEED_UNICODE, _name_digit_seeds

    texts = [t.replace("Jones", "jones1987").replace("smith", "\u2019smith42") for t in _texts(5)]
    texts += [
        t.replace("Ren\u00e9e", "ren\u00e9e1987").replace("Jos\u00e9", "jos\u00e9\u0663\u0663")
        for t in _unicode_note_texts(5)
    ]
    for text in texts:
        unicode_seeds = [m.start() for m in _NAME_DIGITS_SEED_UNICODE.finditer(text)]
        fast = _name_digit_seeds(text)
        assert set(unicode_seeds) <= set(fast), text  # the fast path may find overlapping seeds too
        assert all(_NAME_DIGITS_SEED_UNICODE.match(text, i) for i in fast), text  # each one a seed


def test_capitalised_fuzzy_candidates_of_symbol_texts_equal_the_unicode_path() -> None:
    from deident.detect.lexicon.detectors import _CAPITALISED_WORD, _capitalised_candidates, _fuzzy_candidate

    texts = [t.replace("Jones", "\u201cJonnes\u201d").replace("Boston", "Bostonn\u2019s") for t in _texts(6)]
    for text in texts:
        assert not text.isascii() or "\u201c" not in text
        spans = [m.span() for m in _CAPITALISED_WORD.finditer(text)]
        wanted = [s for s in spans if _fuzzy_candidate(text[s[0] : s[1]].lower())]
        assert _capitalised_candidates(text) == wanted, text


def _unicode_note_texts(seed: int, count: int = 400) -> list[str]:
    """Random texts with headings, accented and non-Latin letters, letters that fold to ASCII, marks and spaces."""
    rng = random.Random(seed)
    pieces = [
        "HISTORY:", "Plan:", "plan -", "Assessment:", "Ren\u00e9e", "Jos\u00e9", "\u00c9TAT",
        "\u0436\u0438\u0437\u043d\u044c", "\u4e2d", "e\u0301", "\u00b5g", "38\u00b0", "\u2019", ";", ".", "Pt", "ok",
    ]  # fmt: skip
    folding = ["\u017ftop", "\u212aeep", "\u0130ll", "Stra\u00dfe", "\u00a0", "\u2028", "\u3000"]  # the full scan
    return _joined(rng, count, 25, pieces, folding, 0.02, [" ", "  ", "\t", "\n", "", "; ", ". "])


def test_section_headings_of_case_distinct_texts_equal_the_full_scan() -> None:
    from deident.text.charset import ascii_case_distinct
    from deident.text.sections import SectionDetector

    detector = SectionDetector.default()
    texts = _unicode_note_texts(7)
    assert sum(ascii_case_distinct(t) and not t.isascii() for t in texts) > 50  # the fast path is exercised
    found = 0
    for text in texts:
        hits = detector._hits(text)
        assert hits == detector._scan_hits(text), repr(text)
        found += len(hits)
    assert found > 100


@pytest.mark.parametrize(("char", "distinct"), [("\u00e9", True), ("\u0436", True), ("\u2019", True),
    ("\u017f", False), ("\u212a", False), ("\u00df", False), ("\u0130", False), ("\ufb01", False), ("\u00a0", False),
    ("a", False)])  # fmt: skip
def test_case_distinct(char: str, distinct: bool) -> None:
    from deident.text.charset import case_distinct

    assert case_distinct(char) is distinct


def test_username_detector_finds_the_same_with_the_reference_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    from deident.core.document import Document
    from deident.detect.patterns import usernames

    texts = [t.replace("Ren\u00e9e", "ren\u00e9e1987").replace("Pt", "zo\u00eb_k42") for t in _unicode_note_texts(9)]
    texts += [t.replace("Jones", "jones1987") for t in _texts(9)]
    detector = usernames.UsernameDetector()
    found = [detector.detect(Document("d", text)) for text in texts]
    monkeypatch.setattr(
        usernames,
        "_name_digit_seeds",
        lambda text: [m.start() for m in usernames._NAME_DIGITS_SEED_UNICODE.finditer(text)],
    )
    assert [detector.detect(Document("d", text)) for text in texts] == found
    assert sum(map(len, found)) > 100


def test_pattern_delimiters_merged_run_by_run_equal_the_table() -> None:
    from deident.detect.patterns import combined_pattern_detector
    from deident.detect.patterns.plan import merge_delimiters

    plan = combined_pattern_detector().plan
    for text in [*_texts(10), *_unicode_note_texts(10)]:
        lower = text.lower()
        assert merge_delimiters(plan, lower) == lower.translate(plan.delimiter_table), repr(text)
