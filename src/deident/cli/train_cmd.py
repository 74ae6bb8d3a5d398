"""``deident train``: train a model directory from annotated corpora: the default pipeline's (CRF, span filter,
calibration) or a CRF alone."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from deident.cli.conventions import QuietOption, Reporter, SchemeChoice, VerboseOption, VersionOption
from deident.cli.crf_options import (
    DEFAULT_SYNTH_STYLES,
    AugmentOption,
    C1Option,
    C2Option,
    ContextFeaturesOption,
    FilterAugmentOption,
    FilterFoldsOption,
    FilterRecallTargetOption,
    FoldMixtureOption,
    FormatOption,
    IterationsOption,
    JobsOption,
    MixSeedOption,
    PipelineKind,
    ProvidersOption,
    SchemeOption,
    SplitModelsOption,
    SynthOption,
    SynthSchemeOption,
    SynthStylesOption,
    crf_train_config,
    feature_providers,
    filter_rule,
    training_mixture,
)
from deident.cli.input_options import DelimiterOption, EncodingOption, QuotecharOption, read_options
from deident.detect.crf.mixture import build_mixture, parse_augment
from deident.detect.crf.train import require_gold_spans, train_model
from deident.io.formats import ReadOptions, read_corpus
from deident.model.source import bundled_source_path, choose_source


def _read_all(paths: Sequence[Path], fmt: str | None, options: ReadOptions) -> list:  # type: ignore[type-arg]
    docs = []
    bundled = bundled_source_path()
    for path in paths:
        # the bundled corpus is PhysioNet text whatever --format and the input options say of the user's files
        corpus = read_corpus(path, None, ReadOptions()) if path == bundled else read_corpus(path, fmt, options)
        require_gold_spans(corpus, str(path))
        docs.extend(corpus)
    return docs


def train(
    train_paths: Annotated[list[Path], typer.Argument(help="Annotated training corpora.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Model directory to write.")],
    fmt: FormatOption = None,
    dev: Annotated[Path | None, typer.Option(help="Development corpus: picks the threshold, gives metrics.")] = None,
    source: Annotated[
        list[Path] | None,
        typer.Option(
            metavar="CORPUS",
            help="Source-domain corpus for EasyAdapt (training corpora are the target); 'bundled' (or 'physionet'): "
            "the bundled PhysioNet notes, the default for a small training corpus (under 200 notes or 500 gold "
            "spans); 'none': no source.",
        ),
    ] = None,
    no_source: Annotated[
        bool, typer.Option("--no-source", help="No EasyAdapt source, not even the bundled one for a small corpus.")
    ] = False,
    split_models: SplitModelsOption = False,
    threshold: Annotated[
        float | None, typer.Option(min=0.0, max=1.0, help="PHI probability threshold (default: chosen on --dev).")
    ] = None,
    recall_target: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Dev recall the chosen threshold must reach.")
    ] = 0.95,
    clusters: Annotated[
        int, typer.Option(min=0, help="Number of word clusters learned from the texts (0: none).")
    ] = 64,
    iterations: IterationsOption = 100,
    c1: C1Option = 0.01,
    c2: C2Option = 0.01,
    providers: ProvidersOption = True,
    context_features: ContextFeaturesOption = "",
    augment: AugmentOption = "",
    synth: SynthOption = 0,
    synth_styles: SynthStylesOption = DEFAULT_SYNTH_STYLES,
    synth_scheme: SynthSchemeOption = "physionet",
    mix_seed: MixSeedOption = 0,
    pipeline: Annotated[
        PipelineKind,
        typer.Option(
            help="default: the CRF, the out-of-fold span filter and its calibration (what `detect`/`run` use); "
            "crf: the CRF alone (for --pipeline crf/stage1)."
        ),
    ] = PipelineKind.DEFAULT,
    scheme: SchemeOption = SchemeChoice.I2B2_2014,
    filter_folds: FilterFoldsOption = 5,
    filter_recall_target: FilterRecallTargetOption = "0.99",
    fold_mixture: FoldMixtureOption = False,
    filter_augment: FilterAugmentOption = "",
    jobs: JobsOption = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Train a model directory (manifest, CRF files, learned triggers, lexicon and clusters, and for the default
    pipeline the span filter and its calibration)."""
    reporter = Reporter(verbose, quiet)
    options = read_options(encoding, delimiter, quotechar)
    base_docs = _read_all(train_paths, fmt, options)
    mixture = training_mixture(augment, synth, synth_styles, synth_scheme, mix_seed)
    train_docs = base_docs if mixture.empty else build_mixture(base_docs, mixture)
    dev_docs = read_corpus(dev, fmt, options) if dev else []
    source_choice = choose_source(source or [], no_source, base_docs)
    if source_choice.notice:
        reporter.summary(source_choice.notice)
    source_docs = _read_all(source_choice.paths, fmt, options)
    config = crf_train_config(
        split_models=split_models,
        c1=c1,
        c2=c2,
        iterations=iterations,
        clusters=clusters,
        threshold=threshold,
        recall_target=recall_target,
        context_features=context_features,
    )
    used = feature_providers(providers)
    if pipeline is PipelineKind.DEFAULT:
        from deident.model.train_pipeline import PipelineTrainConfig, default_jobs, train_pipeline_model
        from deident.schemes import get_scheme

        get_scheme(scheme.value)  # an unknown scheme fails before hours of training
        if dev_docs:
            typer.echo("note: --dev is not used by --pipeline default (the filter calibrates out of fold)", err=True)
        settings = PipelineTrainConfig(
            crf=config,
            scheme=scheme.value,
            folds=filter_folds,
            filter_recall_target=filter_rule(filter_recall_target),
            fold_mixture=fold_mixture,
            filter_augment=parse_augment(filter_augment),
            mixture=mixture,
        )
        manifest = train_pipeline_model(
            base_docs,
            output,
            settings,
            source_docs=source_docs,
            providers=used,
            progress=reporter.summary,
            jobs=jobs or default_jobs(),
        )
        chosen = manifest["span_filter"].get("expected") or {}
        recall, precision = chosen.get("recall", float("nan")), chosen.get("precision", float("nan"))
        reporter.summary(
            f"trained the default pipeline on {len(base_docs)} documents: span filter thresholds "
            f"{manifest['span_filter']['thresholds']}; calibrated on the training notes' out-of-fold candidates: "
            f"token recall {recall:.3f}, precision {precision:.3f} "
            f"(optimistic for new notes; measure with deident evaluate --bootstrap) -> {output}"
        )
        return
    manifest = train_model(
        train_docs,
        output,
        config,
        dev_docs=dev_docs,
        source_docs=source_docs,
        providers=used,
        progress=reporter.summary,
        learn_docs=None if mixture.empty else base_docs,
        mixture=None if mixture.empty else mixture.as_dict(),
    )
    reporter.summary(
        f"trained on {len(train_docs)} documents in {manifest['training_seconds']} s; "
        f"threshold {manifest['threshold']}; providers: {', '.join(manifest['providers']) or 'none'}"
    )
    dev_figures = manifest["metrics"].get("dev", {}).get("binary_token")
    if dev_figures:
        reporter.summary(
            "dev binary token: " + ", ".join(f"{k} {dev_figures[k]:.3f}" for k in ("precision", "recall", "f1", "f2"))
        )
