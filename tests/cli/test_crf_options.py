from __future__ import annotations

import pytest
import typer

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


def test_context_features_switch_on_the_named_groups() -> None:
    config = crf_train_config(**OPTIONS, context_features="term_lists, trigger_window")
    assert config.features == FeatureConfig(term_lists=True, trigger_window=True)


def test_unknown_context_feature_group_is_a_clear_error() -> None:
    with pytest.raises(typer.BadParameter, match="unknown context feature group 'triggers'"):
        crf_train_config(**OPTIONS, context_features="triggers")
