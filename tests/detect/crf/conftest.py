from __future__ import annotations

from pathlib import Path

import pytest

from deident.detect.crf.train import TrainConfig, train_model

from .synthetic import synthetic_corpus

FAST = TrainConfig(max_iterations=60, clusters=0)


@pytest.fixture(scope="session")
def trained_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CRF trained on the synthetic corpus (no span providers, no clusters: seconds)."""
    out = tmp_path_factory.mktemp("crf") / "model"
    train_model(synthetic_corpus(80), out, FAST, dev_docs=synthetic_corpus(20, seed=99))
    return out
