"""Helpers shared by the benchmark scripts: locate the corpus, time a pipeline, score it."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from deident.core.document import AnnotatedDocument, Document
from deident.core.span import Span
from deident.io import read_corpus

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "physionet-dev" / "physionet-dev.text"


def load_corpus(path: Path = CORPUS) -> list[AnnotatedDocument]:
    if not path.exists():
        sys.exit(f"corpus not found: {path} (benchmarks need ../shared/corpora/physionet-dev)")
    return read_corpus(path)


def run_timed(
    detect: Callable[[Document], Sequence[Span]], docs: Sequence[AnnotatedDocument]
) -> tuple[list[AnnotatedDocument], float]:
    """Predictions for every document and the seconds spent (one process)."""
    started = time.perf_counter()
    predicted = [AnnotatedDocument(d.document, tuple(detect(d.document))) for d in docs]
    return predicted, time.perf_counter() - started


def megabytes(docs: Sequence[AnnotatedDocument]) -> float:
    return sum(len(d.text.encode("utf-8")) for d in docs) / 1e6
