"""Fixtures for the format tests: the synthetic 'tricky' corpus and a comparison key."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from deident.core.document import AnnotatedDocument
from deident.io import read_corpus

DocKey = list[tuple[str, str, list[tuple[int, int, str]]]]


def corpus_key(docs: Sequence[AnnotatedDocument]) -> DocKey:
    """Ids, texts and spans (offsets and labels) in order: what a lossless round trip keeps."""
    return [(d.id, d.text, [(s.start, s.end, s.label.value) for s in d.spans]) for d in docs]


@pytest.fixture
def tricky(fixtures: Path) -> list[AnnotatedDocument]:
    """Non-ASCII text, \\r\\n, "]]>", an empty document, adjacent spans, a span over a line break."""
    return read_corpus(fixtures / "tricky.jsonl")


@pytest.fixture
def key() -> Callable[[Sequence[AnnotatedDocument]], DocKey]:
    return corpus_key
