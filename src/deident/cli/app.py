"""The ``deident`` command. Each sub-command lives in its own module and is registered here."""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from deident import __version__
from deident.cli import (
    audit_cmd,
    convert_cmd,
    cv_cmd,
    detect_cmd,
    evaluate_cmd,
    keygen_cmd,
    reidentify_cmd,
    review_cmd,
    run_cmd,
    serve_cmd,
    spark_cmd,
    synth_cmd,
    train_cmd,
)
from deident.core.errors import DeidentError

app = typer.Typer(
    name="deident",
    help="Find and remove protected health information (PHI) in clinical free text.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("convert")(convert_cmd.convert)
app.command("detect")(detect_cmd.detect)
app.command("evaluate")(evaluate_cmd.evaluate)
app.command("run")(run_cmd.run)
app.command("train")(train_cmd.train)
app.command("cv")(cv_cmd.cv)
app.command("synth")(synth_cmd.synth)
app.command("reidentify")(reidentify_cmd.reidentify)
app.command("keygen")(keygen_cmd.keygen)
app.command("serve")(serve_cmd.serve)
app.command("spark")(spark_cmd.spark)
app.command("review")(review_cmd.review)
app.command("audit")(audit_cmd.audit)


@app.command("version")
def version() -> None:
    """Print the deident version."""
    typer.echo(__version__)


def main() -> None:
    """Entry point: deident's own errors print as one clear line and exit with status 2."""
    try:
        app()
    except DeidentError as err:
        Console(stderr=True).print(f"[bold red]error:[/] {err}", highlight=False, markup=True)
        sys.exit(2)
