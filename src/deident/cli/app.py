"""The ``deident`` command. Each sub-command lives in its own module and is registered here."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import TextIO

import typer
from rich.console import Console
from rich.markup import escape

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
from deident.cli.conventions import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_STATUSES,
    EXIT_USAGE,
    VersionOption,
)
from deident.core.errors import ConfigurationError, DeidentError

app = typer.Typer(
    name="deident",
    help="Find and remove protected health information (PHI) in clinical free text.",
    epilog=EXIT_STATUSES,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain click help and usage errors: choices shown as {a|b}, flags without a metavar, and one-line errors
    # (rich draws them in boxes that wrap).
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
_COMMANDS: dict[str, Callable[..., None]] = {
    "convert": convert_cmd.convert,
    "detect": detect_cmd.detect,
    "evaluate": evaluate_cmd.evaluate,
    "run": run_cmd.run,
    "train": train_cmd.train,
    "cv": cv_cmd.cv,
    "synth": synth_cmd.synth,
    "reidentify": reidentify_cmd.reidentify,
    "keygen": keygen_cmd.keygen,
    "serve": serve_cmd.serve,
    "spark": spark_cmd.spark,
    "review": review_cmd.review,
    "audit": audit_cmd.audit,
}
for _name, _command in _COMMANDS.items():
    app.command(_name, epilog=EXIT_STATUSES)(_command)


@app.callback()
def _app_options(version: VersionOption = False) -> None:
    """Find and remove protected health information (PHI) in clinical free text."""


@app.command("version", epilog=EXIT_STATUSES)
def version() -> None:
    """Print the deident version."""
    typer.echo(__version__)


def _one_line_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """Warnings as one line ("warning: ..."), without the source file and line of the code that warned."""
    print(f"warning: {message}", file=sys.stderr if file is None else file)


def _error(message: str) -> None:
    Console(stderr=True, soft_wrap=True).print(f"[bold red]error:[/] {escape(message)}", highlight=False, markup=True)


def main() -> None:
    """Entry point: errors print as one clear line (never a traceback) with the statuses of
    deident.cli.conventions: options that cannot work together are usage errors, deident's other errors and
    the operating system's are input errors, anything else is an internal error."""
    warnings.showwarning = _one_line_warning
    try:
        app()
    except ConfigurationError as err:
        _error(str(err))
        sys.exit(EXIT_USAGE)
    except DeidentError as err:
        _error(str(err))
        sys.exit(EXIT_INPUT)
    except OSError as err:
        # The file name and the system's reason only (no traceback, no content).
        where = f"{err.filename}: " if err.filename else ""
        _error(f"{where}{err.strerror or type(err).__name__}")
        sys.exit(EXIT_INPUT)
    except KeyboardInterrupt:
        _error("interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except Exception as err:
        # Its message may quote the input: the kind of error only.
        _error(f"internal error ({type(err).__name__}); please report it")
        sys.exit(EXIT_INTERNAL)
