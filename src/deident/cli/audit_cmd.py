"""``deident audit``: what in de-identified output still looks like PHI, counted and ranked for review."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from deident.cli.conventions import FormatChoice, QuietOption, Reporter, VerboseOption, VersionOption, choice
from deident.cli.input_options import DelimiterOption, EncodingOption, QuotecharOption, read_options
from deident.cli.path_checks import check_inputs, check_not_empty
from deident.io.formats import read_corpus


def audit(
    output_path: Annotated[
        Path, typer.Argument(metavar="OUTPUT", help="De-identified corpus (its spans: the replaced text).")
    ],
    input_format: Annotated[
        FormatChoice | None, typer.Option("--from", help="Format of OUTPUT (default: guessed).")
    ] = None,
    candidates: Annotated[
        bool, typer.Option(help="Also run the stage-1 detectors: their candidates left in the output are risks.")
    ] = True,
    model: Annotated[Path | None, typer.Option(help="Model folder for the stage-1 detectors.")] = None,
    sample: Annotated[int, typer.Option(min=0, help="How many of the riskiest tokens to list.")] = 25,
    show_text: Annotated[
        bool, typer.Option("--show-text", help="Print the listed tokens' text (it may be PHI: for a reviewer).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Scan de-identified output for residual PHI-looking tokens: stage-1 candidates the filter dropped, words
    in no dictionary, identifier-shaped digit runs, the patient's known identifiers. Prints counts per class and
    per document and a sample ranked by risk (offsets only unless --show-text)."""
    from deident.review.audit import audit as run_audit

    reporter = Reporter(verbose, quiet)
    check_inputs([output_path])
    with reporter.stage("read"):
        documents = read_corpus(output_path, choice(input_format), read_options(encoding, delimiter, quotechar))
    check_not_empty(output_path, len(documents))
    found = None
    if candidates:
        from deident.api import Deidentifier

        with reporter.stage("stage-1 detection"):
            stage1 = Deidentifier.load(model, "stage1", preload=False)
            found = stage1.detect_many([d.document for d in documents])
    result = run_audit(documents, found)
    texts = {d.id: d.text for d in documents}
    listed: list[dict[str, Any]] = []
    for item in result.items[:sample]:
        row = item.as_dict()
        if show_text:
            row["text"] = texts[item.document][item.start : item.end]
        listed.append(row)
    busiest = sorted(result.per_document.items(), key=lambda kv: (-kv[1], kv[0]))
    if as_json:
        data = {**result.summary(), "per_document": dict(busiest), "sample": listed}
        typer.echo(json.dumps(data, indent=2))
        return
    summary = result.summary()
    typer.echo(
        f"{summary['documents']} documents, {summary['tokens_audited']} tokens left as they were, "
        f"{summary['risky_tokens']} look like PHI ({summary['documents_with_risk']} documents)"
    )
    for name, count in summary["by_class"].items():
        typer.echo(f"  {name:<20} {count}")
    typer.echo("documents with the most risky tokens:")
    for doc_id, count in busiest[:10]:
        if count:
            typer.echo(f"  {doc_id:<20} {count}")
    if listed:
        typer.echo(f"the {len(listed)} riskiest tokens:")
    for row in listed:
        where = f"{row['document']} [{row['start']}, {row['end']})"
        text = f"  {row['text']!r}" if show_text else ""
        typer.echo(f"  {row['risk']:.2f}  {where:<28} {','.join(row['classes'])}{text}")
