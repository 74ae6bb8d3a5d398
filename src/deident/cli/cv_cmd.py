"""``deident cv``: patient-grouped cross-validation of the default pipeline (its ablation table) or of the CRF alone,
with a precision-recall sweep."""

from __future__ import annotations

import json
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

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
from deident.core.atomic import atomic_write
from deident.detect.crf.mixture import parse_augment
from deident.detect.crf.train import CvResult, cross_validate, require_gold_spans
from deident.io.formats import read_corpus
from deident.model.cv_pipeline import PipelineCvResult


class FoldGrouping(StrEnum):
    PATIENT = "patient"
    DOCUMENT = "document"


def _line(name: str, figures: dict[str, Any]) -> str:
    b = figures["binary_token"]
    return f"{name:<8} P {b['precision']:.3f}  R {b['recall']:.3f}  F1 {b['f1']:.3f}  F2 {b['f2']:.3f}"


def format_result(result: CvResult) -> str:
    lines = [f"binary token level at threshold {result.threshold}"]
    for fold in result.folds:
        lines.append(_line(f"fold {fold['fold']}", fold) + f"  ({fold['notes']} notes, {fold['gold_spans']} spans)")
    lines.append(_line("pooled", result.pooled))
    lines.append("")
    lines.append("threshold  precision  recall  f1      f2")
    for row in result.sweep:
        lines.append(
            f"{row['threshold']:<9}  {row['precision']:.4f}     {row['recall']:.4f}  {row['f1']:.4f}  {row['f2']:.4f}"
        )
    return "\n".join(lines)


def format_pipeline_result(result: PipelineCvResult) -> str:
    """The ablation table (pooled over the folds), then the span filter's threshold sweep."""
    lines = [
        f"{len(result.folds)}-fold cross-validation grouped by {result.group_by}, pooled over the folds' notes",
        f"{'configuration':<36} {'P':>6} {'R':>6} {'F1':>6} {'F2':>6} {'fully':>6} {'overlap':>7}",
    ]
    for name, r in result.pooled.items():
        lines.append(
            f"{name:<36} {r['precision']:6.4f} {r['recall']:6.4f} {r['f1']:6.4f} {r['f2']:6.4f} "
            f"{r['recall_fully_contained']:6.4f} {r['recall_any_overlap']:7.4f}"
        )
    lines += ["(binary token P/R/F1/F2; instance recall: fully contained, any overlap)", ""]
    lines.append("filter threshold  precision  recall  f1      f2")
    for row in result.sweep:
        lines.append(
            f"{row['threshold']:<16}  {row['precision']:.4f}     {row['recall']:.4f}  {row['f1']:.4f}  {row['f2']:.4f}"
        )
    return "\n".join(lines)


def plot_sweep(
    sweep: list[dict[str, float]],
    path: Path,
    title: str = "CRF threshold sweep, pooled CV",
    points: dict[str, dict[str, float]] | None = None,
) -> None:
    """Precision-recall trade-off of a threshold sweep as a PNG, with ``points`` (name -> figures) marked (needs
    matplotlib, the ``train`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        typer.echo("matplotlib is not installed; skipping the plot", err=True)
        return
    fig, ax = plt.subplots(figsize=(5, 4))
    recalls = [r["recall"] for r in sweep]
    precisions = [r["precision"] for r in sweep]
    ax.plot(recalls, precisions, marker="o")
    for row in sweep:
        ax.annotate(f"{row['threshold']:g}", (row["recall"], row["precision"]), fontsize=7)
    for name, r in (points or {}).items():
        ax.scatter([r["recall"]], [r["precision"]], marker="s", label=name)
    if points:
        ax.legend(fontsize=6, loc="lower left")
    ax.set_xlabel("recall (binary token)")
    ax.set_ylabel("precision (binary token)")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial.png")
    fig.savefig(tmp, dpi=120)
    plt.close(fig)
    tmp.replace(path)


def cv(
    corpus: Annotated[Path, typer.Argument(help="Annotated corpus.")],
    folds: Annotated[int, typer.Option(min=2, help="Number of folds.")] = 5,
    group_by: Annotated[
        FoldGrouping, typer.Option(help="What a fold keeps together: a patient's notes, or each note alone.")
    ] = FoldGrouping.PATIENT,
    fmt: FormatOption = None,
    threshold: Annotated[
        float | None, typer.Option(min=0.0, max=1.0, help="PHI probability threshold (default 0.05).")
    ] = None,
    split_models: SplitModelsOption = False,
    clusters: Annotated[int, typer.Option(min=0, help="Word clusters learned from the training folds (0: none).")] = 64,
    iterations: IterationsOption = 100,
    c1: C1Option = 0.01,
    c2: C2Option = 0.01,
    providers: ProvidersOption = True,
    context_features: ContextFeaturesOption = "",
    json_out: Annotated[Path | None, typer.Option("--json", help="Write all figures as JSON here.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write the precision-recall plot (PNG) here.")] = None,
    pipeline: Annotated[
        PipelineKind,
        typer.Option(
            help="default: train the whole default pipeline per fold and print its ablation table; crf: the CRF alone "
            "with its threshold sweep."
        ),
    ] = PipelineKind.DEFAULT,
    scheme: SchemeOption = SchemeChoice.I2B2_2014,
    filter_folds: FilterFoldsOption = 5,
    filter_recall_target: FilterRecallTargetOption = "0.99",
    fold_mixture: FoldMixtureOption = False,
    filter_augment: FilterAugmentOption = "",
    augment: AugmentOption = "",
    synth: SynthOption = 0,
    synth_styles: SynthStylesOption = DEFAULT_SYNTH_STYLES,
    synth_scheme: SynthSchemeOption = "physionet",
    mix_seed: MixSeedOption = 0,
    jobs: JobsOption = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Cross-validate the default pipeline (its ablation table: rules, CRF, stage 1, + filter, + reconciliation) or
    the CRF alone (--pipeline crf: figures per fold, pooled, and a threshold sweep). The training mixture
    (--augment, --synth) is built from each fold's training notes alone, as `deident train` builds it."""
    reporter = Reporter(verbose, quiet)
    mixture = training_mixture(augment, synth, synth_styles, synth_scheme, mix_seed)
    if not mixture.empty and pipeline is not PipelineKind.DEFAULT:
        raise typer.BadParameter(
            "--augment and --synth cross-validate the default pipeline only", param_hint="--pipeline"
        )
    docs = read_corpus(corpus, fmt, read_options(encoding, delimiter, quotechar))
    require_gold_spans(docs, str(corpus))
    config = crf_train_config(
        split_models=split_models,
        c1=c1,
        c2=c2,
        iterations=iterations,
        clusters=clusters,
        threshold=threshold,
        context_features=context_features,
    )
    used = feature_providers(providers)
    if pipeline is PipelineKind.DEFAULT:
        from deident.model.cv_pipeline import cross_validate_pipeline
        from deident.model.train_pipeline import PipelineTrainConfig, default_jobs
        from deident.schemes import get_scheme

        get_scheme(scheme.value)  # an unknown scheme fails before hours of training
        settings = PipelineTrainConfig(
            crf=config,
            scheme=scheme.value,
            folds=filter_folds,
            filter_recall_target=filter_rule(filter_recall_target),
            fold_mixture=fold_mixture,
            filter_augment=parse_augment(filter_augment),
            mixture=mixture,  # built anew from each fold's training notes: no test note's variant is trained on
        )
        outcome = cross_validate_pipeline(
            docs, folds, group_by.value, settings, used, progress=reporter.summary, jobs=jobs or default_jobs()
        )
        typer.echo(format_pipeline_result(outcome))
        if json_out:
            _write_json(json_out, outcome.as_dict())
        if plot:
            plot_sweep(outcome.sweep, plot, "span filter threshold sweep, pooled CV", outcome.pooled)
        return
    with tempfile.TemporaryDirectory(prefix="deident-cv-") as work:
        result = cross_validate(docs, work, folds, group_by.value, config, used, progress=reporter.summary)
    typer.echo(f"providers: {', '.join(p.name for p in used) or 'none'}")
    typer.echo(format_result(result))
    if json_out:
        payload = {"folds": result.folds, "pooled": result.pooled, "sweep": result.sweep, "threshold": result.threshold}
        _write_json(json_out, payload)
    if plot:
        plot_sweep(result.sweep, plot)


def _write_json(path: Path, payload: dict[str, Any]) -> None:
    with atomic_write(path) as fh:
        json.dump(payload, fh, indent=2, sort_keys=True)
        fh.write("\n")
