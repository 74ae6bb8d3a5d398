"""The ``deident`` command. Each sub-command lives in its own module and is registered here."""

from __future__ import annotations

import sys
import warnings
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


# Exit statuses (README, "Exit statuses"): 0 done; 2 bad input, options, key or model (deident's own
# errors, and the command line's usage errors); 3 a file or folder that cannot be read or written (the
# operating system's error); 130 interrupted.
EXIT_BAD_INPUT = 2
EXIT_FILE_SYSTEM = 3
EXIT_INTERRUPTED = 130


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
    """Entry point: errors print as one clear line (never a traceback) with the statuses above."""
    warnings.showwarning = _one_line_warning
    try:
        app()
    except DeidentError as err:
        _error(str(err))
        sys.exit(EXIT_BAD_INPUT)
    except OSError as err:
        # The file name and the system's reason only (no traceback, no content).
        where = f"{err.filename}: " if err.filename else ""
        _error(f"{where}{err.strerror or type(err).__name__}")
        sys.exit(EXIT_FILE_SYSTEM)
    except KeyboardInterrupt:
        _error("interrupted")
        sys.exit(EXIT_INTERRUPTED)
