"""What every ``deident`` command shares: exit statuses, ``--version``, ``--verbose/--quiet`` and the choices its
options take (shown in ``--help``, refused with a usage error otherwise)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated

import typer
from rich.console import Console

from deident import __version__

EXIT_OK = 0
# a bug: an error deident did not foresee
EXIT_INTERNAL = 1
# the command line: an unknown or missing option, a value out of range, options that cannot work together
EXIT_USAGE = 2
# the input: a file missing, unreadable, malformed or empty; a bad model or key file; an unwritable output
EXIT_INPUT = 3
EXIT_INTERRUPTED = 130
# stopped by SIGTERM (a scheduler's stop, `kill`), after removing what the command had half written
EXIT_TERMINATED = 143

EXIT_STATUSES = (
    f"Exit statuses: {EXIT_OK} done; {EXIT_USAGE} usage error (options); {EXIT_INPUT} input error (a file missing, "
    f"unreadable, malformed or empty, a bad model or key, an output that cannot be written); {EXIT_INTERNAL} internal "
    f"error; {EXIT_INTERRUPTED} interrupted; {EXIT_TERMINATED} terminated (SIGTERM)."
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit()


VersionOption = Annotated[
    bool,
    typer.Option(
        "--version", is_eager=True, expose_value=False, callback=_print_version, help="Print the version and exit."
    ),
]
VerboseOption = Annotated[
    bool, typer.Option("--verbose", "-v", help="Also print each stage's timing (counts and times only, never text).")
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary (errors only).")]


@dataclass(frozen=True)
class Reporter:
    """Where a command's progress, summary and stage timings go: stderr, as ``--verbose/--quiet`` say.

    Only counts, times and paths go through it, never note text."""

    verbose: bool = False
    quiet: bool = False

    def __post_init__(self) -> None:
        if self.verbose and self.quiet:
            raise typer.BadParameter("--verbose and --quiet cannot be used together", param_hint="'--quiet'")

    @property
    def console(self) -> Console:
        """A stderr console that prints nothing under --quiet (for progress bars and summaries)."""
        return Console(stderr=True, quiet=self.quiet, soft_wrap=True)

    def summary(self, message: str) -> None:
        """A result line (skipped under --quiet)."""
        if not self.quiet:
            typer.echo(message, err=True)

    def detail(self, message: str) -> None:
        """A line under --verbose only."""
        if self.verbose:
            typer.echo(message, err=True)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Times a stage; under --verbose prints ``stage NAME: S s``."""
        started = time.perf_counter()
        yield
        self.detail(f"stage {name}: {time.perf_counter() - started:.2f} s")


class PipelineChoice(StrEnum):
    """Detection pipelines (deident.pipelines)."""

    DEFAULT = "default"
    STAGE1 = "stage1"
    RULES = "rules"
    CRF = "crf"


class SchemeChoice(StrEnum):
    """PHI conventions (deident.schemes; safe-harbor is the deprecated name of hipaa-identifiers)."""

    I2B2_2014 = "i2b2-2014"
    PHYSIONET = "physionet"
    HIPAA = "hipaa"
    HIPAA_IDENTIFIERS = "hipaa-identifiers"
    SAFE_HARBOR = "safe-harbor"


class FormatChoice(StrEnum):
    """Corpus formats (deident.io.formats.FORMATS)."""

    PHYSIONET = "physionet"
    JSONL = "jsonl"
    I2B2_2014 = "i2b2-2014"
    I2B2_2006 = "i2b2-2006"
    BRAT = "brat"
    CONLL = "conll"
    TEXT = "text"
    CSV = "csv"
    PARQUET = "parquet"


def choice(value: StrEnum | None) -> str | None:
    """The plain string of a choice (None stays None), for the library's str parameters."""
    return None if value is None else value.value
