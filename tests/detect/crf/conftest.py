from __future__ import annotations

from pathlib import Path

import pytest

from deident.detect.crf.train import TrainConfig, train_model

from .synthetic import PROVIDERS, synthetic_corpus

FAST = TrainConfig(max_iterations=60, clusters=0)


@pytest.fixture(scope="session")
def trained_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CRF trained on the synthetic corpus (no span providers, no clusters: seconds)."""
    out = tmp_path_factory.mktemp("crf") / "model"
    train_model(synthetic_corpus(80), out, FAST, dev_docs=synthetic_corpus(20, seed=99))
    return out


@pytest.fixture(scope="session")
def provider_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two CRFs (quantitative and name-like) that use the two regex providers as features."""
    out = tmp_path_factory.mktemp("crf-providers") / "model"
    train_model(
        synthetic_corpus(80), out, TrainConfig(max_iterations=60, clusters=0, split_models=True), providers=PROVIDERS
    )
    return out


@pytest.fixture(scope="session")
def easyadapt_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two CRFs trained with EasyAdapt (a small all-caps source corpus), with the regex providers."""
    out = tmp_path_factory.mktemp("crf-easyadapt") / "model"
    config = TrainConfig(max_iterations=40, clusters=0, split_models=True)
    train_model(
        synthetic_corpus(40), out, config, source_docs=synthetic_corpus(20, seed=5, caps=True), providers=PROVIDERS
    )
    return out
