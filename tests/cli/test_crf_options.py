from __future__ import annotations

from deident.cli.crf_options import crf_train_config, feature_providers
from deident.detect.crf.features import FeatureConfig
from deident.detect.crf.train import TrainConfig

OPTIONS = {"split_models": True, "c1": 0.2, "c2": 0.3, "iterations": 7, "clusters": 0, "threshold": 0.1}


def test_crf_train_config_maps_every_option() -> None:
    assert crf_train_config(**OPTIONS) == TrainConfig(
        features=FeatureConfig(),
        split_models=True,
        c1=0.2,
        c2=0.3,
        max_iterations=7,
        clusters=0,
        threshold=0.1,
    )


def test_crf_train_config_recall_target_only_when_given() -> None:
    assert crf_train_config(**OPTIONS).recall_target == TrainConfig().recall_target
    assert crf_train_config(**OPTIONS, recall_target=0.8).recall_target == 0.8


def test_no_feature_providers_when_disabled() -> None:
    assert feature_providers(False) == ()
