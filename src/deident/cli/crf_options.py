"""Command-line options shared by ``deident train`` and ``deident cv``, and the training config they build."""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from typing import Annotated

import typer

from deident.cli.conventions import FormatChoice, SchemeChoice
from deident.detect.crf.context import CONTEXT_SWITCHES
from deident.detect.crf.features import FeatureConfig, SpanProvider
from deident.detect.crf.mixture import Mixture, parse_augment
from deident.detect.crf.tagger import available_providers
from deident.detect.crf.train import TrainConfig
from deident.synth.generate import STYLES

FormatOption = Annotated[
    FormatChoice | None, typer.Option("--format", help="Corpus format (default: from the extension).")
]
SplitModelsOption = Annotated[bool, typer.Option(help="Two CRFs: quantitative and name-like PHI (Lee 2017).")]
IterationsOption = Annotated[int, typer.Option(min=1, help="L-BFGS iterations.")]
C1Option = Annotated[float, typer.Option(min=0.0, help="L1 regularisation.")]
C2Option = Annotated[float, typer.Option(min=0.0, help="L2 regularisation.")]
ProvidersOption = Annotated[bool, typer.Option(help="Use pattern and lexicon detector hits as features.")]
SchemeOption = Annotated[
    SchemeChoice,
    typer.Option(help="PHI convention of the training notes, which the filter learns and the model keeps."),
]
ContextFeaturesOption = Annotated[
    str,
    typer.Option(
        metavar="TEXT",
        help="Comma-separated context feature groups to add to the CRF (off by default): "
        + ", ".join(CONTEXT_SWITCHES)
        + ".",
    ),
]
FilterFoldsOption = Annotated[
    int, typer.Option(min=2, help="Patient-grouped folds of the span filter's out-of-fold candidates.")
]
JobsOption = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="Processes training the CRFs of the span filter's folds and the model's own at once "
        "(default: 2, or 1 on one core; 1 trains them one after the other). The model is the same.",
    ),
]


def _filter_target(value: str) -> str:
    """Checks a --filter-recall-target: 'f2' or a rate in (0, 1]."""
    if value.strip().lower() == "f2":
        return "f2"
    try:
        rate = float(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is neither 'f2' nor a rate between 0 and 1") from None
    if not 0.0 < rate <= 1.0:
        raise typer.BadParameter(f"{value!r} is not a rate between 0 and 1")
    return value


def filter_rule(value: str) -> float | None:
    """The span filter's rule: a recall target, or None for the best F2 on the out-of-fold candidates."""
    checked = _filter_target(value)
    return None if checked == "f2" else float(checked)


FilterRecallTargetOption = Annotated[
    str,
    typer.Option(
        metavar="RATE|f2",
        callback=_filter_target,
        help="How the span filter's thresholds are set on the out-of-fold candidates of the training notes: a rate "
        "(default 0.99): the highest thresholds whose out-of-fold token recall reaches it; 'f2': the best F2 "
        "(recall weighted twice precision). Neither looks at notes kept for evaluation.",
    ),
]


class PipelineKind(StrEnum):
    """What ``train`` trains and ``cv`` cross-validates."""

    DEFAULT = "default"  # the CRF, the out-of-fold span filter and its calibration
    CRF = "crf"  # the CRF alone


def crf_train_config(
    *,
    split_models: bool,
    c1: float,
    c2: float,
    iterations: int,
    clusters: int,
    threshold: float | None,
    recall_target: float | None = None,
    context_features: str = "",
) -> TrainConfig:
    """The TrainConfig for the options given; ``recall_target`` None keeps TrainConfig's default."""
    config = TrainConfig(
        features=feature_config(context_features),
        split_models=split_models,
        c1=c1,
        c2=c2,
        max_iterations=iterations,
        clusters=clusters,
        threshold=threshold,
    )
    return config if recall_target is None else replace(config, recall_target=recall_target)


def feature_config(context_features: str) -> FeatureConfig:
    """The feature set with the comma-separated context feature groups switched on."""
    groups = [g.strip() for g in context_features.split(",") if g.strip()]
    unknown = [g for g in groups if g not in CONTEXT_SWITCHES]
    if unknown:
        raise typer.BadParameter(
            f"unknown context feature group {unknown[0]!r}; known: {', '.join(CONTEXT_SWITCHES)}",
            param_hint="--context-features",
        )
    return FeatureConfig(**{g: True for g in groups})


def feature_providers(enabled: bool) -> tuple[SpanProvider, ...]:
    """The detectors whose hits become CRF features (none with ``--no-providers``)."""
    return available_providers() if enabled else ()


DEFAULT_SYNTH_STYLES = ",".join(STYLES)
AugmentOption = Annotated[
    str,
    typer.Option(
        metavar="TEXT",
        help="Add re-identified variants of the training notes (deident reidentify), "
        "e.g. reidentified:2,ambiguous:1,unseen:1; learned data still comes from the notes alone.",
    ),
]
SynthOption = Annotated[int, typer.Option(min=0, help="Add this many synthetic notes (deident synth).")]
SynthStylesOption = Annotated[str, typer.Option(metavar="TEXT", help="Comma-separated styles of the synthetic notes.")]
SynthSchemeOption = Annotated[
    str, typer.Option(metavar="TEXT", help="Convention the synthetic notes are cut to ('none': as written).")
]
MixSeedOption = Annotated[int, typer.Option(help="Seed of the variants and synthetic notes.")]


def training_mixture(augment: str, synth: int, synth_styles: str, synth_scheme: str, mix_seed: int) -> Mixture:
    """The training mixture the options describe (empty when they add nothing)."""
    return Mixture(
        augment=parse_augment(augment),
        synth=synth,
        synth_styles=tuple(s for s in synth_styles.split(",") if s),
        seed=mix_seed,
        base_scheme=None if synth_scheme == "none" else synth_scheme,
    )


FilterAugmentOption = Annotated[
    str,
    typer.Option(
        metavar="TEXT",
        help="Re-identified variants of the training notes whose out-of-fold candidates the span filter also learns "
        "from, e.g. unseen:1 (names and places in no word list), so that it does not learn the unfamiliar as wrong.",
    ),
]
FoldMixtureOption = Annotated[
    bool,
    typer.Option(
        help="Train the span filter's fold CRFs on the mixture too (default: on the notes alone, as the bundled "
        "model's were; a third of the time)."
    ),
]
