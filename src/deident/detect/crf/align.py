"""Span <-> token alignment for BIO tagging.

Gold spans become BIO tags over tokens (a token is inside a span when they overlap); the report
counts spans whose boundaries fall inside a token or that cover no token, never quoting text.
Tagged tokens become spans again by joining runs of tokens separated only by spaces or tabs.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from deident.core.labels import Label
from deident.core.span import Span, remove_overlaps

OUTSIDE = "O"


class TokenLike(Protocol):
    """What alignment reads of a token: :class:`deident.text.tokenize.Token` and the CRF's ``CrfToken``
    both fit (``text[start:end] == text``)."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def text(self) -> str: ...


@dataclass(frozen=True, slots=True)
class AlignmentReport:
    """Counts only: how many gold spans matched token boundaries exactly, partly, or not at all."""

    spans: int = 0
    exact: int = 0
    partial: int = 0  # a boundary falls inside a token: the tagged tokens cover more than the span
    unaligned: int = 0  # covers no token (e.g. only whitespace)

    def __add__(self, other: AlignmentReport) -> AlignmentReport:
        return AlignmentReport(
            self.spans + other.spans,
            self.exact + other.exact,
            self.partial + other.partial,
            self.unaligned + other.unaligned,
        )

    def as_dict(self) -> dict[str, int]:
        return {"spans": self.spans, "exact": self.exact, "partial": self.partial, "unaligned": self.unaligned}


def tag_name(prefix: str, label: str) -> str:
    return f"{prefix}-{label}"


def split_tag(tag: str) -> tuple[str, str | None]:
    """("B", "DATE") for "B-DATE"; ("O", None) for "O"."""
    if tag == OUTSIDE:
        return OUTSIDE, None
    prefix, _, label = tag.partition("-")
    return prefix, label


def spans_to_tags(
    tokens: Sequence[TokenLike], spans: Sequence[Span], label_of: dict[Label, str] | None = None
) -> tuple[list[str], AlignmentReport]:
    """BIO tags for ``tokens``. ``label_of`` maps a span label to its tag label; labels it lacks
    are left out (tagged O). Overlapping gold spans are resolved longest-first."""
    tags = [OUTSIDE] * len(tokens)
    starts = [t.start for t in tokens]
    exact = partial = unaligned = total = 0
    kept = remove_overlaps(spans)
    for span in kept:
        name = span.label.value if label_of is None else label_of.get(span.label)
        total += 1
        first = bisect.bisect_right(starts, span.start) - 1
        if first < 0 or tokens[first].end <= span.start:
            first += 1
        covered: list[int] = []
        i = max(first, 0)
        while i < len(tokens) and tokens[i].start < span.end:
            if tokens[i].end > span.start:
                covered.append(i)
            i += 1
        if not covered:
            unaligned += 1
            continue
        if tokens[covered[0]].start == span.start and tokens[covered[-1]].end == span.end:
            exact += 1
        else:
            partial += 1
        if name is None:
            continue
        for n, idx in enumerate(covered):
            tags[idx] = tag_name("B" if n == 0 else "I", name)
    return tags, AlignmentReport(total, exact, partial, unaligned)


def joinable(text: str, left: TokenLike, right: TokenLike) -> bool:
    """Two tagged tokens belong to one span when only spaces or tabs separate them."""
    return gap_joins(text, left.end, right.start)


def gap_joins(text: str, end: int, start: int) -> bool:
    """Only spaces or tabs (or nothing) lie between ``end`` and ``start``: the tokens there join."""
    return not text[end:start].strip(" \t")


def runs(text: str, tokens: Sequence[TokenLike], selected: Sequence[bool]) -> list[tuple[int, int]]:
    """Maximal runs ``[first, last]`` (token indices, inclusive) of selected, joinable tokens."""
    out: list[tuple[int, int]] = []
    first = -1
    for i, chosen in enumerate(selected):
        if not chosen:
            if first >= 0:
                out.append((first, i - 1))
            first = -1
        elif first < 0:
            first = i
        elif not joinable(text, tokens[i - 1], tokens[i]):
            out.append((first, i - 1))
            first = i
    if first >= 0:
        out.append((first, len(selected) - 1))
    return out


def tags_to_spans(text: str, tokens: Sequence[TokenLike], tags: Sequence[str], source: str = "crf") -> list[Span]:
    """Spans from BIO tags (an I after O or another label starts a new span)."""
    spans: list[Span] = []
    current: tuple[int, int, str] | None = None
    for i, tag in enumerate(tags):
        prefix, label = split_tag(tag)
        if label is None:
            if current:
                spans.append(Span(tokens[current[0]].start, tokens[current[1]].end, Label(current[2]), source))
            current = None
            continue
        if current and prefix == "I" and current[2] == label:
            current = (current[0], i, label)
            continue
        if current:
            spans.append(Span(tokens[current[0]].start, tokens[current[1]].end, Label(current[2]), source))
        current = (i, i, label)
    if current:
        spans.append(Span(tokens[current[0]].start, tokens[current[1]].end, Label(current[2]), source))
    return spans
