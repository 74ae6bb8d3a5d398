"""The ``--scheme`` option of the commands that write de-identified output (``run``, ``detect``, ``serve``, ``spark``):
the output's PHI convention, whose default is deident.schemes.DEFAULT_SCHEME whatever the model was trained under."""

from __future__ import annotations

from typing import Annotated

import typer

from deident.cli.conventions import SchemeChoice
from deident.schemes import DEFAULT_SCHEME

OutputSchemeOption = Annotated[
    SchemeChoice | None,
    typer.Option(
        "--scheme",
        help=(
            f"PHI convention of the output (default: the --config file's, else {DEFAULT_SCHEME}; physionet: the "
            "PhysioNet corpus's, for scoring it)."
        ),
    ),
]
