"""Helpers shared by the benchmark scripts: locate and load the corpus, measure its size."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from deident.core.document import AnnotatedDocument
from deident.io import read_corpus

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "physionet-dev" / "physionet-dev.text"


def load_corpus(path: Path = CORPUS) -> list[AnnotatedDocument]:
    if not path.exists():
        sys.exit(f"corpus not found: {path} (benchmarks need ../shared/corpora/physionet-dev)")
    return read_corpus(path)


def megabytes(docs: Sequence[AnnotatedDocument]) -> float:
    return sum(len(d.text.encode("utf-8")) for d in docs) / 1e6
