"""``deident reidentify``: write re-identified variants of an annotated corpus (Sibanda & Uzuner 2006)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from deident.cli.conventions import FormatChoice, QuietOption, Reporter, VerboseOption, VersionOption
from deident.cli.input_options import DelimiterOption, EncodingOption, QuotecharOption, read_options
from deident.cli.path_checks import check_inputs, check_not_empty, refuse_overwriting_inputs
from deident.core.errors import ConfigurationError
from deident.io.formats import read_corpus, write_corpus
from deident.synth.reidentify import Kind, ReidentifyStats, reidentify_variant


def reidentify(
    corpus: Annotated[Path, typer.Argument(help="Annotated corpus to re-identify (its gold spans are replaced).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Corpus file to write (JSONL by default).")],
    variants: Annotated[int, typer.Option("--variants", "-k", min=1, help="Number of variants (K).")] = 1,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed; the same corpus, seed and kind give identical output.")
    ] = 0,
    kind: Annotated[
        Kind,
        typer.Option(
            "--kind",
            help="reidentified (broad surrogates), ambiguous (names and places that are common words or clinical "
            "terms) or unseen (names and places in no lexicon).",
        ),
    ] = Kind.REIDENTIFIED,
    fmt: Annotated[
        FormatChoice | None, typer.Option("--format", help="Output format (default: from the extension, else jsonl).")
    ] = None,
    input_format: Annotated[
        FormatChoice | None, typer.Option("--from", help="Input format (default: from the file or folder).")
    ] = None,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Write K variants of an annotated corpus in which every gold PHI span is replaced by a fresh surrogate of
    the same label (names of many origins in every written form, dates in every common format, national and
    international phones, IDs of varied shapes, places), with the note's casing kept and offsets recomputed.
    Prints counts only, never a value."""
    reporter = Reporter(verbose, quiet)
    chosen = kind
    started = time.perf_counter()
    check_inputs([corpus])
    refuse_overwriting_inputs([corpus], [output])
    docs = read_corpus(corpus, input_format, read_options(encoding, delimiter, quotechar))
    check_not_empty(corpus, len(docs))
    if not any(doc.spans for doc in docs):
        raise ConfigurationError(f"{corpus}: the corpus has no gold spans to replace")
    stats = ReidentifyStats()
    out = []
    for variant in range(variants):
        out.extend(reidentify_variant(docs, seed, chosen, variant, stats))
        reporter.detail(f"variant {variant + 1}/{variants}: {len(docs)} notes")
    write_corpus(out, output, fmt or (None if output.suffix else "jsonl"))
    elapsed = time.perf_counter() - started
    labels = ", ".join(f"{label} {count}" for label, count in sorted(stats.spans.items()))
    reporter.summary(
        f"wrote {len(out)} notes ({variants} {chosen.value} variant{'s' if variants != 1 else ''}) with "
        f"{sum(stats.spans.values())} replaced spans to {output} in {elapsed:.1f} s"
    )
    reporter.summary(f"spans by label: {labels}")
    if stats.forms:
        forms = ", ".join(f"{form} {count}" for form, count in stats.forms.most_common())
        reporter.summary(f"name forms written: {forms}")
    if stats.overlapping:
        typer.echo(f"dropped {stats.overlapping} overlapping gold spans", err=True)
