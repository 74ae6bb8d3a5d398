"""Offset-preserving clinical tokenizer.

Default tokens are runs of letters and digits (``[^\\W_]+``) and single other non-space
characters. The aggressive option (Lee 2017) also splits where a digit meets a letter and where a
lower-case letter meets an upper-case one, so "rangeImpression" -> "range" "Impression" and
"57yo" -> "57" "yo": run-together words in clinical text otherwise hide PHI inside one token.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import regex

_TOKEN = regex.compile(r"[^\W_]+|[^\s]", regex.UNICODE)
_AGGRESSIVE_SPLIT = regex.compile(r"(?<=\d)(?=\p{L})|(?<=\p{L})(?=\d)|(?<=\p{Ll})(?=\p{Lu})")


@dataclass(frozen=True, slots=True)
class Token:
    """A token at ``[start, end)``; ``text`` is the covered text (hidden from reprs)."""

    start: int
    end: int
    text: str = field(repr=False)


def tokenize(text: str, aggressive: bool = False) -> list[Token]:
    """Tokenize ``text``; every token satisfies ``text[t.start:t.end] == t.text``."""
    tokens: list[Token] = []
    append = tokens.append
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        word = match.group()
        if aggressive and len(word) > 1:
            cut = start
            for split in _AGGRESSIVE_SPLIT.finditer(word):
                pos = start + split.start()
                append(Token(cut, pos, text[cut:pos]))
                cut = pos
            append(Token(cut, end, text[cut:end]))
        else:
            append(Token(start, end, word))
    return tokens


# (white space before, token) pairs: the tokens of _TOKEN, with what lies between them.
_SPACED_TOKEN = regex.compile(r"(\s*)([^\W_]+|[^\s])", regex.UNICODE)
_LAST_NON_SPACE = regex.compile(r"(?r)\S", regex.UNICODE)  # searched from the end


def token_columns(text: str, aggressive: bool = False) -> tuple[list[int], list[int], list[str], list[bool]]:
    """The tokens of :func:`tokenize` as parallel lists: starts, ends, texts, and whether a line break precedes
    each (the first token counts as after one).

    One scan finds (white space, token) pairs, whose lengths give the offsets; with ``aggressive``, each word's
    split points are those :func:`tokenize` finds, remembered per word. Several times faster than
    :func:`tokenize`; tests compare the two."""
    # Up to the last token's end: in trailing white space each start would try the whole rest again (quadratic).
    last = _LAST_NON_SPACE.search(text)
    found = _SPACED_TOKEN.findall(text, 0, last.end()) if last is not None else []
    if not found:
        return [], [], [], []
    offsets = list(itertools.accumulate(map(len, itertools.chain.from_iterable(found))))
    starts, ends = offsets[0::2], offsets[1::2]
    texts = [token for _, token in found]
    newlines = ["\n" in space for space, _ in found]
    newlines[0] = True
    if not aggressive:
        return starts, ends, texts, newlines
    cuts = list(map(_splits.get, texts))  # a word's split points, where known (most words: none)
    for i in [i for i, known in enumerate(cuts) if known is None]:
        cuts[i] = _split_points(texts[i])
    split = [(i, points) for i, points in enumerate(cuts) if points]
    if not split:
        return starts, ends, texts, newlines
    out_starts: list[int] = []
    out_ends: list[int] = []
    out_texts: list[str] = []
    out_newlines: list[bool] = []
    done = 0
    for i, points in split:  # the tokens before it as they are, then its pieces
        out_starts += starts[done:i]
        out_ends += ends[done:i]
        out_texts += texts[done:i]
        out_newlines += newlines[done:i]
        start, word, previous = starts[i], texts[i], 0
        for cut in (*points, len(word)):
            out_starts.append(start + previous)
            out_ends.append(start + cut)
            out_texts.append(word[previous:cut])
            out_newlines.append(newlines[i] and previous == 0)
            previous = cut
        done = i + 1
    out_starts += starts[done:]
    out_ends += ends[done:]
    out_texts += texts[done:]
    out_newlines += newlines[done:]
    return out_starts, out_ends, out_texts, out_newlines


# _split_points' answers, memoised (a pure function of the word; words recur).
_splits: dict[str, tuple[int, ...]] = {}
_SPLIT_MEMO_LIMIT = 100_000


def _split_points(word: str) -> tuple[int, ...]:
    """Where the aggressive tokenizer cuts ``word`` (offsets inside it, increasing; none for most words)."""
    cuts = _splits.get(word)
    if cuts is None:
        if len(_splits) >= _SPLIT_MEMO_LIMIT:
            _splits.clear()
        cuts = _splits[word] = tuple(m.start() for m in _AGGRESSIVE_SPLIT.finditer(word)) if len(word) > 1 else ()
    return cuts


def whitespace_tokens(text: str) -> list[tuple[int, int]]:
    """Maximal runs of non-whitespace characters as (start, end); the evaluator's token unit."""
    return [m.span() for m in regex.finditer(r"\S+", text)]
