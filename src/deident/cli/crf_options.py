"""Command-line options shared by ``deident train`` and ``deident cv``, and the training config they build."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

import typer

from deident.cli.conventions import FormatChoice
from deident.detect.crf.features import FeatureConfig, SpanProvider
from deident.detect.crf.tagger import available_providers
from deident.detect.crf.train import TrainConfig

FormatOption = Annotated[
    FormatChoice | None, typer.Option("--format", help="Corpus format (default: from the extension).")
]
SplitModelsOption = Annotated[bool, typer.Option(help="Two CRFs: quantitative and name-like PHI (Lee 2017).")]
IterationsOption = Annotated[int, typer.Option(min=1, help="L-BFGS iterations.")]
C1Option = Annotated[float, typer.Option(min=0.0, help="L1 regularisation.")]
C2Option = Annotated[float, typer.Option(min=0.0, help="L2 regularisation.")]
ProvidersOption = Annotated[bool, typer.Option(help="Use pattern and lexicon detector hits as features.")]


def crf_train_config(
    *,
    tfidf: bool,
    split_models: bool,
    c1: float,
    c2: float,
    iterations: int,
    clusters: int,
    threshold: float | None,
    recall_target: float | None = None,
) -> TrainConfig:
    """The TrainConfig for the options given; ``recall_target`` None keeps TrainConfig's default."""
    config = TrainConfig(
        features=FeatureConfig(tfidf=tfidf),
        split_models=split_models,
        c1=c1,
        c2=c2,
        max_iterations=iterations,
        clusters=clusters,
        threshold=threshold,
    )
    return config if recall_target is None else replace(config, recall_target=recall_target)


def feature_providers(enabled: bool) -> tuple[SpanProvider, ...]:
    """The detectors whose hits become CRF features (none with ``--no-providers``)."""
    return available_providers() if enabled else ()
