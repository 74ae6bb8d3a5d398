"""``deident spark``: de-identify a table with Apache Spark (needs the ``spark`` extra)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from deident.cli.config_options import ConfigOption, mode_or_default, site_config
from deident.cli.conventions import PipelineChoice, QuietOption, VerboseOption, VersionOption, choice
from deident.cli.input_options import EncodingOption, read_options
from deident.cli.key_options import replace_options
from deident.cli.output_options import PseudonymiseColOption
from deident.cli.scheme_option import OutputSchemeOption
from deident.replace.modes import Mode


def spark(
    context: typer.Context,
    input_path: Annotated[str, typer.Argument(metavar="INPUT", help="Table path or URI (a file or a folder).")],
    output: Annotated[
        str, typer.Option("-o", "--output", metavar="TEXT", help="Output Parquet folder (must not exist).")
    ],
    input_format: Annotated[
        str | None,
        typer.Option(
            "--format", metavar="TEXT", help="parquet, csv (with header) or json (lines) (default: from the extension)."
        ),
    ] = None,
    text_col: Annotated[str, typer.Option(metavar="TEXT", help="Column holding the note text.")] = "text",
    id_col: Annotated[str | None, typer.Option(metavar="TEXT", help="Column holding the note id.")] = None,
    patient_col: Annotated[
        str | None,
        typer.Option(metavar="TEXT", help="Column holding the patient id (consistent surrogates per patient)."),
    ] = None,
    author_col: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT", help="Column holding the note's author (poster): its handle is sought in the text."
        ),
    ] = None,
    output_col: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT", help="Column for the de-identified text (default: the text column, replaced in place)."
        ),
    ] = None,
    keep_col: Annotated[
        list[str] | None,
        typer.Option(
            "--keep-col",
            metavar="TEXT",
            help="Copy this column as it is (repeat). Others are dropped; the id and patient columns pseudonymised.",
        ),
    ] = None,
    deid_col: Annotated[
        list[str] | None,
        typer.Option(
            "--deid-col",
            metavar="TEXT",
            help="De-identify this free-text column as a note of the row's patient (repeat).",
        ),
    ] = None,
    pseudonymise_col: PseudonymiseColOption = None,
    spans_col: Annotated[
        str, typer.Option(metavar="TEXT", help="New column for the replaced spans ('' for none).")
    ] = "phi_spans",
    mode: Annotated[Mode, typer.Option(help="How PHI is replaced.")] = Mode.TAG,
    key: Annotated[Path | None, typer.Option(help="Secret key file for surrogate modes.")] = None,
    pipeline: Annotated[PipelineChoice, typer.Option(help="Detection pipeline.")] = PipelineChoice.DEFAULT,
    model: Annotated[
        str | None, typer.Option(metavar="TEXT", help="Model folder, at the same path on every executor.")
    ] = None,
    config_file: ConfigOption = None,
    scheme: OutputSchemeOption = None,
    recall_target: Annotated[
        float | None, typer.Option(min=0.0, max=1.0, help="Operating point from the model's calibration.")
    ] = None,
    encoding: EncodingOption = "utf-8",
    master: Annotated[
        str | None,
        typer.Option(metavar="TEXT", help="Spark master, e.g. local[4] (default: spark-submit's or local[*])."),
    ] = None,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """De-identify a table with Spark and write Parquet: the text column replaced in place, the id and patient
    columns pseudonymised, every other column dropped unless --keep-col, --deid-col or --pseudonymise-col names it."""
    from deident.replace import SecretKey
    from deident.run.output_policy import OutputPolicy
    from deident.spark.dataframe import OutputColumns, run_spark, spark_input_format, spark_sql
    from deident.spark.partition import SparkJob

    sql = spark_sql()
    input_format = input_format or spark_input_format(input_path)
    site = site_config(config_file)
    options = replace_options(mode_or_default(context, mode, site), key)
    # The same rules as deident run's (a column given to two of the options is refused).
    policy = OutputPolicy(
        keep=frozenset(keep_col or ()),
        deidentify=frozenset(deid_col or ()),
        pseudonymise=frozenset(pseudonymise_col or ()),
    )
    job = SparkJob(
        options=options,
        model=model,
        pipeline=pipeline.value,
        scheme=choice(scheme),
        recall_target=recall_target,
        text_col=text_col,
        id_col=id_col,
        patient_col=patient_col,
        author_col=author_col,
        output_col=output_col or text_col,
        spans_col=spans_col or None,
        deid_cols=tuple(sorted(policy.deidentify)),
        source=input_path,
        site_config=site,
    )
    builder = sql.SparkSession.builder.appName("deident")
    if master is not None:
        builder = builder.master(master)
    if master is None or master.startswith("local"):
        # Local workers should run this interpreter (the one with deident installed), not PATH's python3.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = builder.getOrCreate()
    try:
        # Without --key, pseudonyms come from a one-run key: consistent within this output only.
        keep = OutputColumns(
            key=options.key or SecretKey.generate(),
            keep=policy.keep,
            pseudonymise=policy.pseudonymise,
        )
        rows = run_spark(session, input_path, output, job, input_format, keep, encoding=read_options(encoding).encoding)
    finally:
        session.stop()
    if not quiet:
        typer.echo(f"{rows:,} rows de-identified ({options.mode.value}) -> {output}")
