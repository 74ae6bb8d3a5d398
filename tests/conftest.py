"""Shared fixtures. ``shared_corpus`` points at ../shared/corpora/physionet-dev when it exists."""

from __future__ import annotations

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
