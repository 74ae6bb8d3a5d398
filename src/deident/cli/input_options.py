"""Options for reading table and text inputs, shared by the commands that read corpora (run, detect,
convert, evaluate, train, cv)."""

from __future__ import annotations

from typing import Annotated

import typer

from deident.core.errors import ConfigurationError
from deident.io.formats import ReadOptions

EncodingOption = Annotated[
    str,
    typer.Option(metavar="NAME", help="Encoding of CSV/TSV, text, BRAT, CoNLL and i2b2 inputs (e.g. latin-1, cp1252)."),
]
DelimiterOption = Annotated[
    str | None,
    typer.Option(
        metavar="CHAR", help="Field delimiter of CSV/TSV input: one character, or 'tab' (default: ',', a tab for .tsv)."
    ),
]
QuotecharOption = Annotated[str, typer.Option(metavar="CHAR", help="Quote character of CSV/TSV input.")]
# The columns of a table input (run, detect, convert).
TextColOption = Annotated[str, typer.Option(metavar="TEXT", help="Text column of CSV/Parquet input.")]
IdColOption = Annotated[str | None, typer.Option(metavar="TEXT", help="Id column of CSV/Parquet input.")]
PatientColOption = Annotated[str | None, typer.Option(metavar="TEXT", help="Patient-id column of CSV/Parquet input.")]
AuthorColOption = Annotated[
    str | None,
    typer.Option(metavar="TEXT", help="Author (poster) column of CSV/Parquet input: its handle is sought in the text."),
]

_NAMED = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}


def read_options(
    encoding: str = "utf-8", delimiter: str | None = None, quotechar: str = '"', **columns: str | None
) -> ReadOptions:
    """``ReadOptions`` from the command line; a bad encoding or delimiter raises ConfigurationError."""
    import codecs

    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ConfigurationError(f"--encoding: unknown encoding {encoding!r}") from None
    if delimiter is not None:
        delimiter = _NAMED.get(delimiter.lower(), delimiter)
    for name, value in (("--delimiter", delimiter), ("--quotechar", quotechar)):
        if value is not None and (len(value) != 1 or value in "\r\n"):
            raise ConfigurationError(f"{name} must be one character (not a line break)")
    if delimiter is not None and delimiter == quotechar:
        raise ConfigurationError("--delimiter and --quotechar must differ")
    return ReadOptions(encoding=encoding, delimiter=delimiter, quotechar=quotechar, **columns)  # type: ignore[arg-type]
