"""``deident evaluate``: compare predicted PHI spans with gold spans of the same documents."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from deident.cli.conventions import FormatChoice, QuietOption, Reporter, VerboseOption, VersionOption, choice
from deident.cli.input_options import DelimiterOption, EncodingOption, QuotecharOption, read_options
from deident.cli.path_checks import check_inputs, check_not_empty
from deident.evaluate import EvaluationReport, evaluate_corpus, render_report
from deident.io.formats import read_corpus


def evaluate(
    gold_path: Annotated[
        Path, typer.Argument(metavar="GOLD", help="Gold corpus (any supported format; PhysioNet: the .text).")
    ],
    pred_path: Annotated[Path, typer.Argument(metavar="PRED", help="Predicted corpus for the same documents.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    gold_format: Annotated[
        FormatChoice | None, typer.Option("--gold-format", help="Format of GOLD (default: from the extension).")
    ] = None,
    pred_format: Annotated[
        FormatChoice | None, typer.Option("--pred-format", help="Format of PRED (default: from the extension).")
    ] = None,
    gold_annotations: Annotated[
        Path | None, typer.Option(help="Annotation file for GOLD (e.g. a .phrase) if not beside it.")
    ] = None,
    pred_annotations: Annotated[
        Path | None, typer.Option(help="Annotation file for PRED (e.g. a .phrase) if not beside it.")
    ] = None,
    hipaa_only: Annotated[
        bool, typer.Option("--hipaa-only", help="Report only the view restricted to HIPAA identifiers.")
    ] = False,
    bootstrap: Annotated[
        int,
        typer.Option(
            min=0,
            help="Also give 95% intervals of token recall and precision and of fully-contained instance recall, "
            "from this many resamples of whole patients (0: none; 2000 is usual).",
        ),
    ] = 0,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Score predictions against gold: binary and typed token, entity (strict/relaxed, micro/macro),
    instance recall, all again for HIPAA identifiers, and a confusion matrix of types."""
    reporter = Reporter(verbose, quiet)
    options = read_options(encoding, delimiter, quotechar)
    check_inputs([gold_path, pred_path])
    with reporter.stage("read"):
        gold = read_corpus(gold_path, choice(gold_format), replace(options, annotations=gold_annotations))
        pred = read_corpus(pred_path, choice(pred_format), replace(options, annotations=pred_annotations))
    check_not_empty(gold_path, len(gold))
    with reporter.stage("score"):
        report = evaluate_corpus(gold, pred, bootstrap=bootstrap)
    _warn_about_matching(report)
    if as_json:
        typer.echo(json.dumps(report.to_dict(hipaa_only=hipaa_only), indent=2))
    else:
        console = Console()
        if not console.is_terminal:  # piped or redirected: rich would fall back to 80 columns
            console = Console(width=120)
        render_report(report, console, hipaa_only=hipaa_only)


def _warn_about_matching(report: EvaluationReport) -> None:
    """Point out on stderr the likely mistakes (ids that do not match, a missing annotation file)."""
    tally = report.documents
    if tally.gold and tally.predicted == 0:
        typer.echo("warning: no predicted document has the id of a gold document", err=True)
    elif tally.predicted and tally.pred_spans == 0:
        typer.echo("warning: the predictions hold no spans (is their annotation file missing?)", err=True)
    if tally.unknown_predictions:
        typer.echo(f"note: {tally.unknown_predictions} predicted documents are not in GOLD and were ignored", err=True)
