"""``deident convert``: read a corpus in one format, write it in another."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from deident.cli.input_options import DelimiterOption, EncodingOption, QuotecharOption, read_options
from deident.io.formats import detect_format, losses, read_corpus, write_corpus


def convert(
    input_path: Annotated[Path, typer.Argument(help="Corpus to read (file or folder).")],
    output_path: Annotated[Path, typer.Argument(help="Where to write the converted corpus.")],
    from_format: Annotated[
        str | None, typer.Option("--from", help="Input format (default: from the extension).")
    ] = None,
    to_format: Annotated[str | None, typer.Option("--to", help="Output format (default: from the extension).")] = None,
    text_col: Annotated[str, typer.Option(help="Text column of CSV/Parquet input.")] = "text",
    id_col: Annotated[str | None, typer.Option(help="Id column of CSV/Parquet input.")] = None,
    patient_col: Annotated[str | None, typer.Option(help="Patient-id column of CSV/Parquet input.")] = None,
    author_col: Annotated[
        str | None, typer.Option(help="Author (poster) column of CSV/Parquet input: its handle is sought in the text.")
    ] = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
) -> None:
    """Convert an annotated corpus between formats (offsets and texts are kept exactly).

    Formats: physionet (.text + .phrase), jsonl, i2b2-2014 (folder of .xml), i2b2-2006 (.xml),
    brat (folder of .txt + .ann), conll (.conll, BIO tokens; text spacing is lost), text (.txt or a
    folder of them), csv, parquet. Folder outputs need --to unless the folder already holds a corpus.
    """
    options = read_options(
        encoding, delimiter, quotechar, text_col=text_col, id_col=id_col, patient_col=patient_col, author_col=author_col
    )
    # A conversion restores the labels a format folded when its side file kept them (PhysioNet -> JSONL).
    docs = read_corpus(input_path, from_format, replace(options, restore_labels=True))
    write_corpus(docs, output_path, to_format)
    for loss in losses(docs, to_format or detect_format(output_path).name):
        typer.echo(f"warning: {loss}", err=True)
    spans = sum(len(d.spans) for d in docs)
    typer.echo(f"converted {len(docs)} documents with {spans} spans to {output_path}", err=True)
