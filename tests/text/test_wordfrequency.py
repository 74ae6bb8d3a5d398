"""The fast Zipf frequency against wordfreq's own ``zipf_frequency`` (equal bit for bit)."""

from __future__ import annotations

import pytest
from wordfreq import get_frequency_dict, zipf_frequency

from deident.text import wordfrequency
from deident.text.wordfrequency import frequency_band, zipf

WORDS = (
    "the",
    "hello",
    "lasix",
    "quimby",
    "zzzzqxj",
    "a",
    "i",
    "Hello",
    "HELLO",
    "café",
    "naïve",
    "can't",
    "57yo",
    "x3",
    "3",
    "1234",
    "",
    "-",
    "hello world",
    "ﬁne",
)


@pytest.mark.parametrize("word", WORDS)
def test_zipf_equals_wordfreq(word: str) -> None:
    assert zipf(word) == zipf_frequency(word, "en")
    assert zipf(word) == zipf_frequency(word, "en")  # again, from the memos
    assert frequency_band(word) == int(zipf_frequency(word, "en"))


def test_zipf_equals_wordfreq_across_the_frequency_list() -> None:
    """Every 97th simple word of wordfreq's English list (every bucket is met), and misspellings."""
    words = sorted(w for w in get_frequency_dict("en") if w.isascii() and w.isalpha() and w.islower())[::97]
    assert len(words) > 2000
    for word in words:
        assert zipf(word) == zipf_frequency(word, "en"), word
        assert zipf(word + "qx") == zipf_frequency(word + "qx", "en"), word


def test_memo_of_other_words_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wordfrequency, "_other", {})
    monkeypatch.setattr(wordfrequency, "_MEMO_LIMIT", 2)
    for word in ("Hello", "café", "x3", "naïve", "Hello"):
        assert zipf(word) == zipf_frequency(word, "en")
    assert len(wordfrequency._other) <= 2


@pytest.mark.parametrize("word", [*WORDS, "abc", "zebra", "ABC", "aBc", "a1", "abc def", "ǆ", "ß", "straße"])
def test_frequency_band_is_the_integer_zipf(word: str) -> None:
    expected = int(zipf_frequency(word, "en"))
    assert frequency_band(word) == expected
    assert frequency_band(word) == expected  # again, from the per-bucket memo


def test_table_is_the_one_wordfreq_itself_reads() -> None:
    """One frequency table in memory: the one wordfreq's own look-ups (``zipf_frequency``) build and reuse."""
    zipf_frequency("the", "en")
    assert wordfrequency._wordfreq()[1] is get_frequency_dict("en", "best")
