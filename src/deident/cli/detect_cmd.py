"""``deident detect``: find PHI spans in a corpus and write them in any supported format.

Notes are detected in chunks of whole patients (:meth:`Deidentifier.detect_many`), as ``deident run``
does, so reconciliation works across each patient's notes; the output keeps the input's order.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from deident.api import DEFAULT_MAX_NOTE_CHARS, Deidentifier
from deident.cli.config_options import ConfigOption, site_config
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
from deident.cli.path_checks import check_inputs, check_not_empty, refuse_overwriting_inputs
from deident.cli.scheme_option import OutputSchemeOption
from deident.cli.stdio import STDIN_NAME, is_stdio, read_stdin, stdin_named, stream_format, stream_path, write_stdout
from deident.core.document import AnnotatedDocument, patient_chunks
from deident.core.heap import settle_heap
from deident.io.formats import ReadOptions, detect_format, read_corpus, write_corpus
from deident.run.runner import DEFAULT_CHUNK_SIZE


def detect(
    input_path: Annotated[Path, typer.Argument(help="Corpus to read (file or folder; - for stdin, with --format).")],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Where to write the predicted spans (- for stdout, with --to).")
    ],
    input_format: Annotated[
        FormatChoice | None, typer.Option("--format", help="Input format (default: by extension).")
    ] = None,
    output_format: Annotated[
        FormatChoice | None,
        typer.Option("--to", help="Output format (default: by -o extension; for -o -, the input's format)."),
    ] = None,
    pipeline: Annotated[PipelineChoice, typer.Option(help="Detection pipeline.")] = PipelineChoice.DEFAULT,
    model: Annotated[Path | None, typer.Option(help="Model directory (default: the bundled model).")] = None,
    scheme: OutputSchemeOption = None,
    recall_target: Annotated[
        float | None, typer.Option(min=0.0, max=1.0, help="Operating point: the recall to aim for.")
    ] = None,
    use_filter: Annotated[
        bool | None, typer.Option("--filter/--no-filter", help="Stage-2 false-positive filter (default: model's).")
    ] = None,
    trusted: Annotated[
        bool | None, typer.Option("--trusted/--no-trusted", help="Trusted-phrase harvesting (default: model's).")
    ] = None,
    reconcile: Annotated[
        bool | None,
        typer.Option(
            "--reconcile/--no-reconcile", help="Global reconciliation across each patient's notes (default: model's)."
        ),
    ] = None,
    text_col: TextColOption = "text",
    id_col: IdColOption = None,
    patient_col: PatientColOption = None,
    author_col: AuthorColOption = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    chunk_size: Annotated[
        int, typer.Option(min=1, help="Notes detected together (whole patients; about this many).")
    ] = DEFAULT_CHUNK_SIZE,
    max_note_chars: Annotated[
        int, typer.Option(min=1, help="Longest note accepted, in characters (a longer one stops with an error).")
    ] = DEFAULT_MAX_NOTE_CHARS,
    config_file: ConfigOption = None,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Detect PHI and write the input documents with predicted spans.

    For a PhysioNet ``.text`` input, ``-o X.text`` writes X.text plus X.phrase, which
    ``deident evaluate`` compares with the gold files directly. "-" reads stdin (with --format) or
    writes stdout (one-file formats: jsonl, csv, ...).
    """
    reporter = Reporter(verbose, quiet)
    site = site_config(config_file)
    switches = {"filter": use_filter, "trusted_phrases": trusted, "reconcile": reconcile}
    with tempfile.TemporaryDirectory(prefix="deident-detect-") as scratch:
        _detect(
            reporter,
            Path(scratch),
            input_path,
            output,
            choice(input_format),
            choice(output_format),
            read_options(
                encoding,
                delimiter,
                quotechar,
                text_col=text_col,
                id_col=id_col,
                patient_col=patient_col,
                author_col=author_col,
            ),
            lambda: Deidentifier.load(
                model,
                pipeline=pipeline.value,
                scheme=choice(scheme),
                recall_target=recall_target,
                stage2={k: v for k, v in switches.items() if v is not None} or None,
                max_note_chars=max_note_chars,
                config=site,
            ),
            chunk_size,
        )


def _detect(
    reporter: Reporter,
    scratch: Path,
    input_path: Path,
    output: Path,
    input_format: str | None,
    output_format: str | None,
    options: ReadOptions,
    load: Callable[[], Deidentifier],
    chunk_size: int,
) -> None:
    console = reporter.console
    if is_stdio(output):
        if output_format is None and input_format is None and not is_stdio(input_path):
            output_format = detect_format(input_path).name  # the input's own format
        output_format = stream_format(output_format or input_format, "--to", "stdout")
    if is_stdio(input_path):
        source = read_stdin(scratch, input_format)
    else:
        source = input_path
        check_inputs([input_path])
        refuse_overwriting_inputs([input_path], [output])
    target = output
    if is_stdio(output) and output_format is not None:
        target = stream_path(scratch, "stdout", output_format)
    with reporter.stage("read"), stdin_named(source if is_stdio(input_path) else None):
        docs = read_corpus(source, input_format, options)
    check_not_empty(STDIN_NAME if is_stdio(input_path) else input_path, len(docs))
    with reporter.stage("load"):
        deidentifier = load()
    settle_heap()  # this process is ours: the loaded model leaves the collector's walks
    if deidentifier.operating_point is not None:
        console.print(deidentifier.operating_point.describe(), highlight=False)
    started = time.perf_counter()
    found: dict[int, AnnotatedDocument] = {}
    chars = 0
    with Progress(
        TextColumn("detecting"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=reporter.quiet,
    ) as progress:
        task = progress.add_task("detect", total=len(docs), rate="")
        for positions in patient_chunks([item.document for item in docs], chunk_size):
            group = [docs[p].document for p in positions]
            for position, document, spans in zip(positions, group, deidentifier.detect_many(group), strict=True):
                found[position] = AnnotatedDocument(document, spans)
                chars += len(document.text)
            elapsed = max(time.perf_counter() - started, 1e-9)
            progress.update(task, advance=len(positions), rate=f"{len(found) / elapsed:.0f} notes/s")
    reporter.detail(f"stage detect: {time.perf_counter() - started:.2f} s")
    predicted = [found[position] for position in range(len(docs))]
    with reporter.stage("write"):
        write_corpus(predicted, target, output_format or (input_format if output.suffix == input_path.suffix else None))
    if is_stdio(output):
        write_stdout(target)
    elapsed = time.perf_counter() - started
    n_spans = sum(len(p.spans) for p in predicted)
    console.print(
        f"{len(predicted)} documents, {n_spans} spans, {chars / 1e6:.2f} MB in {elapsed:.1f} s "
        f"({chars / 1e6 / max(elapsed, 1e-9):.2f} MB/s) -> {output}",
        highlight=False,
    )
