"""``deident run``: de-identify corpora (detect or take given spans, then replace)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
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
from deident.cli.input_options import DelimiterOption, EncodingOption, QuotecharOption, read_options
from deident.cli.key_options import replace_options
from deident.cli.output_options import PseudonymiseColOption
from deident.replace.modes import DEFAULT_MASK_CHAR, DEFAULT_REDACTION, DEFAULT_TAG_TEMPLATE
from deident.run.output_policy import OutputPolicy
from deident.run.runner import DEFAULT_CHUNK_SIZE, OnError, RunConfig, report_paths
from deident.run.runner import run as run_corpus


class NotesPerSecondColumn(ProgressColumn):
    """Throughput in notes per second (counts only, never text or ids)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- notes/s" if speed is None else f"{speed:,.1f} notes/s", style="progress.data.speed")


def run(
    context: typer.Context,
    inputs: Annotated[list[Path], typer.Argument(help="Corpora to de-identify (files or folders).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output file (a folder for several inputs).")],
    mode: Annotated[str, typer.Option(help="tag, redact, mask, surrogate or safe-harbor.")] = "tag",
    key: Annotated[
        Path | None,
        typer.Option(help="Secret key file for surrogate modes (e.g. 64 hex digits from `openssl rand -hex 32`)."),
    ] = None,
    ephemeral_key: Annotated[
        bool, typer.Option("--ephemeral-key", help="Use a random one-run key (surrogates differ every run).")
    ] = False,
    pipeline: Annotated[str, typer.Option(help="Detection pipeline: default, stage1, rules or crf.")] = "default",
    model: Annotated[Path | None, typer.Option(help="Model folder (default: the bundled model).")] = None,
    recall_target: Annotated[float | None, typer.Option(help="Operating point: the recall to aim for.")] = None,
    scheme: Annotated[
        str | None, typer.Option(help="PHI convention: i2b2-2014, physionet or hipaa-identifiers (default: model's).")
    ] = None,
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
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    input_format: Annotated[str | None, typer.Option("--format", help="Input format (default: detected).")] = None,
    text_col: Annotated[str, typer.Option(help="Text column of CSV/Parquet input.")] = "text",
    id_col: Annotated[str | None, typer.Option(help="Id column of CSV/Parquet input.")] = None,
    patient_col: Annotated[str | None, typer.Option(help="Patient-id column of CSV/Parquet input.")] = None,
    author_col: Annotated[
        str | None, typer.Option(help="Author (poster) column of CSV/Parquet input: its handle is sought in the text.")
    ] = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    keep_col: Annotated[
        list[str] | None,
        typer.Option(
            "--keep-col",
            help="Copy this column or metadata key as it is (repeat; 'id', 'patient_id' keep the ids). "
            "Others are dropped, ids pseudonymised.",
        ),
    ] = None,
    deid_col: Annotated[
        list[str] | None, typer.Option("--deid-col", help="De-identify this free-text column or metadata key (repeat).")
    ] = None,
    pseudonymise_col: PseudonymiseColOption = None,
    tag_template: Annotated[str, typer.Option(help="Tag for mode tag; may use {label}, {category}.")] = (
        DEFAULT_TAG_TEMPLATE
    ),
    redaction: Annotated[str, typer.Option(help="Replacement for mode redact.")] = DEFAULT_REDACTION,
    mask_char: Annotated[str, typer.Option(help="Mask character for mode mask.")] = DEFAULT_MASK_CHAR,
    preserve_weekday: Annotated[bool, typer.Option(help="Shift dates by whole weeks (weekdays kept).")] = False,
    year_only: Annotated[
        bool, typer.Option(hidden=True, help="Deprecated and ignored: safe-harbor always cuts dates to the year.")
    ] = False,
    chunk_size: Annotated[int, typer.Option(help="Documents per committed chunk.")] = DEFAULT_CHUNK_SIZE,
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
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    config_file: ConfigOption = None,
) -> None:
    """De-identify corpora; the output keeps each input's format and order. Resumable: rerun the
    same command after an interruption and it continues where it stopped."""
    site = site_config(config_file)
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
    config = RunConfig(
        inputs=tuple(inputs),
        output=output,
        options=options,
        pipeline=pipeline,
        model=model,
        recall_target=recall_target,
        scheme=scheme,
        reconcile=reconcile,
        spans_file=spans,
        jobs=jobs,
        chunk_size=chunk_size,
        max_note_chars=max_note_chars,
        input_format=input_format,
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
        report_path=report,
        output_policy=OutputPolicy(
            keep=frozenset(keep_col or ()),
            deidentify=frozenset(deid_col or ()),
            pseudonymise=frozenset(pseudonymise_col or ()),
        ),
        owns_process=True,
        site_config=site,
    )
    console = Console(stderr=True)
    with Progress(
        TextColumn("de-identifying"),
        BarColumn(),
        MofNCompleteColumn(),
        NotesPerSecondColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
    ) as progress:
        task = progress.add_task("run", total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = run_corpus(config, on_progress=update)
    json_path, html_path = report_paths(config)
    if result.expected:
        expected = result.expected
        console.print(
            f"operating point: expected token recall {expected['expected_recall']:.3f}, "
            f"precision {expected['expected_precision']:.3f} ({expected['basis']})",
            highlight=False,
        )
    console.print(
        f"{result.documents:,} documents, {result.spans_total:,} spans replaced ({result.mode}) "
        f"in {result.duration_s:.1f} s; report: {json_path} and {html_path}",
        highlight=False,
    )
    if result.skipped:
        console.print(
            f"{len(result.skipped):,} notes skipped (--on-error skip): listed in {json_path}", highlight=False
        )
