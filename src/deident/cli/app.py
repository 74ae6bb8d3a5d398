"""The ``deident`` command. Each sub-command lives in its own module, registered here and imported only when it runs
(deident.cli.lazy_group): starting one command does not import every command's libraries."""

from __future__ import annotations

import signal
import sys
import warnings
from types import FrameType
from typing import ClassVar, TextIO

import typer
from rich.console import Console
from rich.markup import escape

from deident import __version__
from deident.cli.conventions import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_STATUSES,
    EXIT_TERMINATED,
    EXIT_USAGE,
    VersionOption,
)
from deident.cli.lazy_group import LazyCommand, LazyGroup
from deident.core.errors import ConfigurationError, DeidentError


def _command(name: str, summary: str) -> LazyCommand:
    """The command ``name``: function ``name`` of module deident.cli.<name>_cmd; ``summary`` is the first sentence
    of its docstring."""
    return LazyCommand(f"deident.cli.{name}_cmd", name, summary, epilog=EXIT_STATUSES)


class _Commands(LazyGroup):
    lazy_commands: ClassVar[dict[str, LazyCommand]] = {
        command.function: command
        for command in (
            _command("convert", "Convert an annotated corpus between formats (offsets and texts are kept exactly)."),
            _command("detect", "Detect PHI and write the input documents with predicted spans."),
            _command(
                "evaluate",
                "Score predictions against gold: binary and typed token, entity (strict/relaxed, micro/macro), "
                "instance recall, all again for HIPAA identifiers, and a confusion matrix of types.",
            ),
            _command("run", "De-identify corpora; the output keeps each input's format and order."),
            _command(
                "train",
                "Train a model directory (manifest, CRF files, learned triggers, lexicon and clusters, and for the "
                "default pipeline the span filter and its calibration).",
            ),
            _command(
                "cv",
                "Cross-validate the default pipeline (its ablation table: rules, CRF, stage 1, + filter, + "
                "reconciliation) or the CRF alone (--pipeline crf: figures per fold, pooled, and a threshold sweep).",
            ),
            _command(
                "synth",
                "Generate synthetic notes (discharge summaries, ICU nursing notes, psychiatric notes, forum posts) "
                "whose gold PHI spans are exact by construction, for training and testing detectors.",
            ),
            _command(
                "reidentify",
                "Write K variants of an annotated corpus in which every gold PHI span is replaced by a fresh "
                "surrogate of the same label (names of many origins in every written form, dates in every common "
                "format, national and international phones, IDs of varied shapes, places), with the note's casing "
                "kept and offsets recomputed.",
            ),
            _command(
                "keygen",
                "Write a new random key (64 hex digits, readable by its owner only) and print its fingerprint.",
            ),
            _command("serve", "Serve the de-identifier over HTTP (JSON)."),
            _command(
                "spark",
                "De-identify a table with Spark and write Parquet: the text column replaced in place, the id and "
                "patient columns pseudonymised, every other column dropped unless --keep-col, --deid-col or "
                "--pseudonymise-col names it.",
            ),
            _command(
                "review",
                "Review detected PHI spans in the browser: accept, reject, relabel, add, widen or narrow them.",
            ),
            _command(
                "audit",
                "Scan de-identified output for residual PHI-looking tokens: stage-1 candidates the filter dropped, "
                "words in no dictionary, identifier-shaped digit runs, the patient's known identifiers.",
            ),
        )
    }


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
    cls=_Commands,
)


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


class _Terminated(BaseException):
    """SIGTERM arrived. Raised rather than left to the signal's default action (ending the process at once), so
    that, as on Ctrl-C, temporary files holding the input's notes and half-written outputs are removed."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


def main() -> None:
    """Entry point: errors print as one clear line (never a traceback) with the statuses of
    deident.cli.conventions: options that cannot work together are usage errors, deident's other errors and
    the operating system's are input errors, anything else is an internal error."""
    warnings.showwarning = _one_line_warning
    signal.signal(signal.SIGTERM, _terminate)
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
    except _Terminated:
        _error("terminated")
        sys.exit(EXIT_TERMINATED)
    except Exception as err:
        # Its message may quote the input: the kind of error only.
        _error(f"internal error ({type(err).__name__}); please report it")
        sys.exit(EXIT_INTERNAL)
