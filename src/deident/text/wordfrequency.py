"""English word frequencies on the Zipf scale, equal to ``wordfreq.zipf_frequency(word, "en")`` but
fast for the common case (a few dictionary look-ups instead of wordfreq's tokenizer per call).

A word of ASCII lower-case letters is one wordfreq token, and its Zipf value depends only on its entry
in wordfreq's frequency dictionary (a bucket frequency; there are a few hundred): so the value is
computed by wordfreq itself the first time a bucket (or "missing") is met, and then reused for every
word of that bucket. Other words go through ``zipf_frequency`` with a bounded memo. Both memos hold
pure functions of the word, never document state.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache

# Words this frequent are words of grammar ("at", "the", "with", "and", "is"): no name or place is one, or goes on
# into one.
FUNCTION_WORD_ZIPF = 6.0
_SIMPLE = re.compile(r"[a-z]+").fullmatch
_MEMO_LIMIT = 200_000  # other words memoised (cleared when full)
_MISSING = object()


@lru_cache(maxsize=1)
def _wordfreq() -> tuple[Callable[..., float], dict[str, float]]:
    from wordfreq import get_frequency_dict, zipf_frequency

    # Asked for as wordfreq's own look-ups ask (lang, wordlist): its cache then builds the table once, not a
    # second copy for a differently spelled call (~0.05 s and the table's memory at every load).
    return zipf_frequency, get_frequency_dict("en", "best")


_by_bucket: dict[object, float] = {}
_other: dict[str, float] = {}


def zipf(word: str) -> float:
    """``wordfreq.zipf_frequency(word, "en")`` (same value, bit for bit)."""
    zipf_frequency, frequencies = _wordfreq()
    if _SIMPLE(word) is not None:
        bucket = frequencies.get(word, _MISSING)
        value = _by_bucket.get(bucket)
        if value is None:
            value = _by_bucket[bucket] = zipf_frequency(word, "en")
        return value
    value = _other.get(word)
    if value is None:
        if len(_other) >= _MEMO_LIMIT:
            _other.clear()
        value = _other[word] = zipf_frequency(word, "en")
    return value


def zipf_lowered(word: str) -> float:
    """:func:`zipf` of the word lower-cased (the span filter's and reconciliation's look-up of a surface)."""
    return zipf(word.lower())


def table_zipf(word: str) -> float:
    """The lexicon's Zipf value: log10 of the word's frequency per billion words read straight from wordfreq's
    table (neither tokenized nor rounded, so not :func:`zipf`'s value; the lexicon's thresholds were set with it);
    0 for a word not in the table. ``word`` is looked up as given (lower-case it first)."""
    freq = _wordfreq()[1].get(word)
    return math.log10(freq) + 9.0 if freq else 0.0


_band_by_bucket: dict[object, int] = {}


def frequency_band(lower: str) -> int:
    """The Zipf frequency of a (lower-cased) word as an integer band 0..8 (a CRF feature): ``int(zipf(lower))``,
    memoised per frequency bucket for words of ASCII lower-case letters (the CRF's new word types)."""
    if lower.isascii() and lower.isalpha() and lower.islower():  # [a-z]+, as _SIMPLE
        bucket = _wordfreq()[1].get(lower, _MISSING)
        band = _band_by_bucket.get(bucket)
        if band is None:
            band = _band_by_bucket[bucket] = int(zipf(lower))
        return band
    return int(zipf(lower))


__all__ = ["frequency_band", "table_zipf", "zipf", "zipf_lowered"]
