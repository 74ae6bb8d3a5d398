"""Shared fixtures. ``shared_corpus`` points at ../shared/corpora/physionet-dev when it exists."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "physionet-dev"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def shared_corpus() -> Path:
    path = SHARED / "physionet-dev.text"
    if not path.exists():
        pytest.skip("../shared/corpora/physionet-dev is not available")
    return path


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(autouse=True)
def _unfreeze_heap() -> Iterator[None]:
    """The command-line entry points freeze the heap (deident.core.heap); in the test process, give it back."""
    yield
    if gc.get_freeze_count():
        gc.unfreeze()
