"""``deident run``: de-identify corpora (detect or take given spans, then replace)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from deident.api import DEFAULT_MAX_NOTE_CHARS
from deident.cli.config_options import ConfigOption, mode_or_default, site_config
from deident.cli.conventions import (
    FormatChoice,
    PipelineChoice,
    QuietOption,
    Reporter,
    VerboseOption,
    VersionOption,
    choice,
)
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
from deident.cli.key_options import replace_options
from deident.cli.output_options import PseudonymiseColOption
from deident.cli.path_checks import check_inputs, refuse_overwriting_inputs
from deident.cli.scheme_option import OutputSchemeOption
from deident.cli.stdio import is_stdio, read_stdin, stdin_named, stream_format, stream_path, write_stdout
from deident.core.errors import ConfigurationError
from deident.io.formats import detect_format
from deident.replace.modes import DEFAULT_MASK_CHAR, DEFAULT_REDACTION, DEFAULT_TAG_TEMPLATE, Mode
from deident.run.output_policy import OutputPolicy
from deident.run.report import RunReport
from deident.run.runner import DEFAULT_CHUNK_SIZE, OnError, RunConfig, report_paths
from deident.run.runner import run as run_corpus


class NotesPerSecondColumn(ProgressColumn):
    """Throughput in notes per second (counts only, never text or ids)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- notes/s" if speed is None else f"{speed:,.1f} notes/s", style="progress.data.speed")


def run(
    context: typer.Context,
    inputs: Annotated[
        list[Path], typer.Argument(help="Corpora to de-identify (files or folders; - for stdin, with --format).")
    ],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Output file (a folder for several inputs; - for stdout).")
    ],
    mode: Annotated[Mode, typer.Option(help="How PHI is replaced.")] = Mode.TAG,
    key: Annotated[
        Path | None,
        typer.Option(help="Secret key file for surrogate modes (e.g. 64 hex digits from `openssl rand -hex 32`)."),
    ] = None,
    ephemeral_key: Annotated[
        bool, typer.Option("--ephemeral-key", help="Use a random one-run key (surrogates differ every run).")
    ] = False,
    pipeline: Annotated[PipelineChoice, typer.Option(help="Detection pipeline.")] = PipelineChoice.DEFAULT,
    model: Annotated[Path | None, typer.Option(help="Model folder (default: the bundled model).")] = None,
    recall_target: Annotated[
        float | None, typer.Option(min=0.0, max=1.0, help="Operating point: the recall to aim for.")
    ] = None,
    scheme: OutputSchemeOption = None,
    reconcile: Annotated[
        bool | None,
        typer.Option(
            "--reconcile/--no-reconcile",
            help="Global reconciliation across each patient's notes in a chunk (default: model's).",
        ),
    ] = None,
    spans: Annotated[
        Path | None,
        typer.Option(help="Replace these spans (a .phrase file or a corpus with spans) instead of detecting."),
    ] = None,
    jobs: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    input_format: Annotated[
        FormatChoice | None, typer.Option("--format", help="Input format (default: detected; needed for -).")
    ] = None,
    text_col: TextColOption = "text",
    id_col: IdColOption = None,
    patient_col: PatientColOption = None,
    author_col: AuthorColOption = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    keep_col: Annotated[
        list[str] | None,
        typer.Option(
            "--keep-col",
            metavar="TEXT",
            help="Copy this column or metadata key as it is (repeat; 'id', 'patient_id' keep the ids). "
            "Others are dropped, ids pseudonymised.",
        ),
    ] = None,
    deid_col: Annotated[
        list[str] | None,
        typer.Option("--deid-col", metavar="TEXT", help="De-identify this free-text column or metadata key (repeat)."),
    ] = None,
    pseudonymise_col: PseudonymiseColOption = None,
    tag_template: Annotated[
        str, typer.Option(metavar="TEXT", help="Tag for mode tag; may use {label}, {category}.")
    ] = DEFAULT_TAG_TEMPLATE,
    redaction: Annotated[str, typer.Option(metavar="TEXT", help="Replacement for mode redact.")] = DEFAULT_REDACTION,
    mask_char: Annotated[str, typer.Option(metavar="TEXT", help="Mask character for mode mask.")] = DEFAULT_MASK_CHAR,
    preserve_weekday: Annotated[bool, typer.Option(help="Shift dates by whole weeks (weekdays kept).")] = False,
    year_only: Annotated[
        bool, typer.Option(hidden=True, help="Deprecated and ignored: safe-harbor always cuts dates to the year.")
    ] = False,
    chunk_size: Annotated[int, typer.Option(min=1, help="Documents per committed chunk.")] = DEFAULT_CHUNK_SIZE,
    on_error: Annotated[
        OnError,
        typer.Option(
            "--on-error",
            help="A note that fails or that the output format cannot hold: stop (finished chunks are kept; "
            "rerun to resume) or skip (left out of the output, listed by id in the report).",
        ),
    ] = OnError.STOP,
    max_note_chars: Annotated[
        int, typer.Option(min=1, help="Longest note accepted, in characters (a longer one stops with an error).")
    ] = DEFAULT_MAX_NOTE_CHARS,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing output and discard a partial run.")] = False,
    report: Annotated[Path | None, typer.Option(help="Report JSON path (HTML beside it).")] = None,
    config_file: ConfigOption = None,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """De-identify corpora; the output keeps each input's format and order. Resumable: rerun the
    same command after an interruption and it continues where it stopped. "-" reads stdin or writes
    stdout (with --format; one-file formats: jsonl, csv, ...; no report unless --report)."""
    reporter = Reporter(verbose, quiet)
    site = site_config(config_file)
    stdin = [path for path in inputs if is_stdio(path)]
    if stdin and len(inputs) > 1:
        raise ConfigurationError("stdin (-) is the only input when given")
    if is_stdio(output) and len(inputs) > 1:
        raise ConfigurationError("-o - (stdout) holds one output: give one input")
    if not stdin:
        # Before any model loads: a missing or empty input fails first, and no output replaces an input.
        check_inputs(inputs)
        refuse_overwriting_inputs(inputs, [output] if len(inputs) == 1 else [output / path.name for path in inputs])
    options = replace_options(
        mode_or_default(context, mode, site),
        key,
        ephemeral_key,
        tag_template=tag_template,
        redaction=redaction,
        mask_char=mask_char,
        preserve_weekday=preserve_weekday,
    )
    if year_only:
        typer.echo(
            "warning: --year-only is ignored (deprecated): --mode safe-harbor always cuts dates to the year", err=True
        )
    fmt = choice(input_format)
    with tempfile.TemporaryDirectory(prefix="deident-run-stdio-") as scratch:
        if stdin:
            inputs = [read_stdin(Path(scratch), fmt)]
        target, report_path = output, report
        if is_stdio(output):
            # The output keeps the input's format: named by --format, else the input's own.
            shown = stream_format(fmt or detect_format(inputs[0]).name, "--format", "stdout")
            target = stream_path(Path(scratch), "stdout", shown)
            # The report of a run to stdout is kept only where --report names it.
            report_path = report or Path(scratch) / "report.json"
        config = RunConfig(
            inputs=tuple(inputs),
            output=target,
            options=options,
            pipeline=pipeline.value,
            model=model,
            recall_target=recall_target,
            scheme=choice(scheme),
            reconcile=reconcile,
            spans_file=spans,
            jobs=jobs,
            chunk_size=chunk_size,
            max_note_chars=max_note_chars,
            input_format=fmt,
            read_options=read_options(
                encoding,
                delimiter,
                quotechar,
                text_col=text_col,
                id_col=id_col,
                patient_col=patient_col,
                author_col=author_col,
            ),
            on_error=on_error,
            overwrite=overwrite,
            report_path=report_path,
            output_policy=OutputPolicy(
                keep=frozenset(keep_col or ()),
                deidentify=frozenset(deid_col or ()),
                pseudonymise=frozenset(pseudonymise_col or ()),
            ),
            owns_process=True,
            site_config=site,
        )
        with stdin_named(inputs[0] if stdin else None):
            result = _run_with_progress(config, reporter)
        if is_stdio(output):
            write_stdout(target)
    console = reporter.console
    if result.expected:
        from deident.model.operating_point import describe_operating_point

        console.print(describe_operating_point(result.expected), highlight=False)
    json_path, html_path = report_paths(config)
    if is_stdio(output) and report is None:
        where = "no report (-o -: name one with --report)"
    else:
        where = f"report: {json_path} and {html_path}"
    console.print(
        f"{result.documents:,} documents, {result.spans_total:,} spans replaced ({result.mode}) "
        f"in {result.duration_s:.1f} s; {where}",
        highlight=False,
    )
    if result.skipped:  # a warning: printed under --quiet too
        typer.echo(f"{len(result.skipped):,} notes skipped (--on-error skip): listed in {json_path}", err=True)


def _run_with_progress(config: RunConfig, reporter: Reporter) -> RunReport:
    """The run, with a progress bar that starts with the first note done: reading the input and loading the model
    come first, and an error there prints alone."""
    progress = Progress(
        TextColumn("de-identifying"),
        BarColumn(),
        MofNCompleteColumn(),
        NotesPerSecondColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=reporter.console,
        disable=reporter.quiet,
    )
    task = progress.add_task("run", total=None)
    started = time.perf_counter()

    def update(done: int, total: int) -> None:
        if not progress.live.is_started:
            reporter.detail(f"stage read and load: {time.perf_counter() - started:.2f} s")
            progress.start()
        progress.update(task, completed=done, total=total)

    try:
        result = run_corpus(config, on_progress=update)
    finally:
        if progress.live.is_started:
            progress.stop()
    reporter.detail(f"stage detect, replace and write: {time.perf_counter() - started:.2f} s in all")
    return result
