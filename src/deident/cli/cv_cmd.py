"""``deident cv``: patient-grouped cross-validation of the CRF, with a precision-recall sweep."""

from __future__ import annotations

import json
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from deident.cli.conventions import QuietOption, Reporter, VerboseOption, VersionOption
from deident.cli.crf_options import (
    C1Option,
    C2Option,
    FormatOption,
    IterationsOption,
    ProvidersOption,
    SplitModelsOption,
    crf_train_config,
    feature_providers,
)
from deident.cli.input_options import DelimiterOption, EncodingOption, QuotecharOption, read_options
from deident.core.atomic import atomic_write
from deident.detect.crf.train import CvResult, cross_validate, require_gold_spans
from deident.io.formats import read_corpus


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


def plot_sweep(result: CvResult, path: Path) -> None:
    """Precision-recall trade-off as a PNG (needs matplotlib, the ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        typer.echo("matplotlib is not installed; skipping the plot", err=True)
        return
    fig, ax = plt.subplots(figsize=(5, 4))
    recalls = [r["recall"] for r in result.sweep]
    precisions = [r["precision"] for r in result.sweep]
    ax.plot(recalls, precisions, marker="o")
    for row in result.sweep:
        ax.annotate(f"{row['threshold']:g}", (row["recall"], row["precision"]), fontsize=7)
    ax.set_xlabel("recall (binary token)")
    ax.set_ylabel("precision (binary token)")
    ax.set_title("CRF threshold sweep, pooled CV")
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
    tfidf: Annotated[bool, typer.Option(help="Add the tf-idf rank over each patient's notes.")] = False,
    providers: ProvidersOption = True,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write all figures as JSON here.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write the precision-recall plot (PNG) here.")] = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Cross-validate the CRF alone; prints figures per fold, pooled, and a threshold sweep."""
    reporter = Reporter(verbose, quiet)
    docs = read_corpus(corpus, fmt, read_options(encoding, delimiter, quotechar))
    require_gold_spans(docs, str(corpus))
    config = crf_train_config(
        tfidf=tfidf,
        split_models=split_models,
        c1=c1,
        c2=c2,
        iterations=iterations,
        clusters=clusters,
        threshold=threshold,
    )
    used = feature_providers(providers)
    with tempfile.TemporaryDirectory(prefix="deident-cv-") as work:
        result = cross_validate(docs, work, folds, group_by.value, config, used, progress=reporter.summary)
    typer.echo(f"providers: {', '.join(p.name for p in used) or 'none'}")
    typer.echo(format_result(result))
    if json_out:
        payload = {"folds": result.folds, "pooled": result.pooled, "sweep": result.sweep, "threshold": result.threshold}
        with atomic_write(json_out) as fh:
            json.dump(payload, fh, indent=2, sort_keys=True)
            fh.write("\n")
    if plot:
        plot_sweep(result, plot)
