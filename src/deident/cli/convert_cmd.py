"""``deident convert``: read a corpus in one format, write it in another."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from deident.cli.conventions import FormatChoice, QuietOption, Reporter, VerboseOption, VersionOption, choice
from deident.cli.input_options import (
    AuthorColOption,
    DelimiterOption,
    EncodingOption,
    IdColOption,
    PatientColOption,
    QuotecharOption,
    TextColOption,
    read_options,
)
from deident.cli.path_checks import check_inputs, check_not_empty, refuse_overwriting_inputs
from deident.cli.stdio import STDIN_NAME, is_stdio, read_stdin, stdin_named, stream_format, stream_path, write_stdout
from deident.io.formats import detect_format, losses, read_corpus, write_corpus


def convert(
    input_path: Annotated[Path, typer.Argument(help="Corpus to read (file or folder; - for stdin, with --from).")],
    output_path: Annotated[Path, typer.Argument(help="Where to write the converted corpus (- for stdout, with --to).")],
    from_format: Annotated[
        FormatChoice | None, typer.Option("--from", help="Input format (default: from the extension).")
    ] = None,
    to_format: Annotated[
        FormatChoice | None, typer.Option("--to", help="Output format (default: from the extension).")
    ] = None,
    text_col: TextColOption = "text",
    id_col: IdColOption = None,
    patient_col: PatientColOption = None,
    author_col: AuthorColOption = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Convert an annotated corpus between formats (offsets and texts are kept exactly).

    Formats: physionet (.text + .phrase), jsonl, i2b2-2014 (folder of .xml), i2b2-2006 (.xml),
    brat (folder of .txt + .ann), conll (.conll, BIO tokens; text spacing is lost), text (.txt or a
    folder of them), csv, parquet. Folder outputs need --to unless the folder already holds a corpus.
    "-" reads stdin (with --from) or writes stdout (with --to); a stream holds one file (jsonl, csv, ...).
    """
    reporter = Reporter(verbose, quiet)
    options = read_options(
        encoding, delimiter, quotechar, text_col=text_col, id_col=id_col, patient_col=patient_col, author_col=author_col
    )
    source_format, target_format = choice(from_format), choice(to_format)
    if is_stdio(output_path):
        target_format = stream_format(target_format, "--to", "stdout")
    with tempfile.TemporaryDirectory(prefix="deident-convert-") as scratch:
        if is_stdio(input_path):
            source = read_stdin(Path(scratch), source_format, "--from")
        else:
            source = input_path
            check_inputs([input_path])
            refuse_overwriting_inputs([input_path], [output_path])
        target = output_path
        if is_stdio(output_path) and target_format is not None:
            target = stream_path(Path(scratch), "stdout", target_format)
        with reporter.stage("read"), stdin_named(source if is_stdio(input_path) else None):
            # A conversion restores the labels a format folded when its side file kept them (PhysioNet -> JSONL).
            docs = read_corpus(source, source_format, replace(options, restore_labels=True))
        check_not_empty(STDIN_NAME if is_stdio(input_path) else input_path, len(docs))
        with reporter.stage("write"):
            write_corpus(docs, target, target_format)
        if is_stdio(output_path):
            write_stdout(target)
    for loss in losses(docs, target_format or detect_format(output_path).name):
        typer.echo(f"warning: {loss}", err=True)
    spans = sum(len(d.spans) for d in docs)
    reporter.summary(f"converted {len(docs)} documents with {spans} spans to {output_path}")
