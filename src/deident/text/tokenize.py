"""Offset-preserving clinical tokenizer.

Default tokens are runs of letters and digits (``[^\\W_]+``) and single other non-space
characters. The aggressive option (Lee 2017) also splits where a digit meets a letter and where a
lower-case letter meets an upper-case one, so "rangeImpression" -> "range" "Impression" and
"57yo" -> "57" "yo": run-together words in clinical text otherwise hide PHI inside one token.
"""

from __future__ import annotations

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


def whitespace_tokens(text: str) -> list[tuple[int, int]]:
    """Maximal runs of non-whitespace characters as (start, end); the evaluator's token unit."""
    return [m.span() for m in regex.finditer(r"\S+", text)]
