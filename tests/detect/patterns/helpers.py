"""Shared helpers for the pattern detector tables: run a detector on a synthetic note."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Detector

# A case is (note text, expected PHI substring or None for "no span at all", expected label).
Case = tuple[str, str | None, Label | None]


def found(detector: Detector, text: str) -> list[tuple[str, Label]]:
    return [(text[s.start : s.end], s.label) for s in detector.detect(Document("t", text))]


def params(cases: Sequence[Case], known_failures: frozenset[tuple[str, str | None]] = frozenset()) -> list[object]:
    """pytest params; (text, expected) pairs in ``known_failures`` are expected to fail (strict xfail)."""
    return [
        pytest.param(
            *case, id=f"{case[0][:40]}->{case[1]}", marks=pytest.mark.xfail(strict=True, reason="known failure")
        )
        if (case[0], case[1]) in known_failures
        else pytest.param(*case, id=f"{case[0][:40]}->{case[1]}")
        for case in cases
    ]


def check_positive(detector: Detector, text: str, expected: str | None, label: Label | None) -> None:
    spans = found(detector, text)
    assert (expected, label) in spans, f"expected {(expected, label)} among {spans}"


def check_negative(detector: Detector, text: str, forbidden: str | None, label: Label | None) -> None:
    spans = found(detector, text)
    if forbidden is None:
        assert spans == [], f"expected no spans, got {spans}"
    else:
        assert not any(forbidden in covered or covered in forbidden for covered, _ in spans), spans


def random_texts(rng: random.Random, pieces: Sequence[str], count: int, fewest: int, most: int) -> list[str]:
    """``count`` texts, each ``fewest`` to ``most`` pieces drawn with ``rng`` (equivalence-test fodder)."""
    return ["".join(rng.choices(pieces, k=rng.randint(fewest, most))) for _ in range(count)]
