"""``deident reidentify``: write re-identified variants of an annotated corpus (Sibanda & Uzuner 2006)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

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
        str,
        typer.Option(
            "--kind",
            help="reidentified (broad surrogates), ambiguous (names and places that are common words or clinical "
            "terms) or unseen (names and places in no lexicon).",
        ),
    ] = Kind.REIDENTIFIED.value,
    fmt: Annotated[
        str | None, typer.Option("--format", help="Output format (default: from the extension, else jsonl).")
    ] = None,
    input_format: Annotated[
        str | None, typer.Option("--from", help="Input format (default: from the file or folder).")
    ] = None,
) -> None:
    """Write K variants of an annotated corpus in which every gold PHI span is replaced by a fresh surrogate of
    the same label (names of many origins in every written form, dates in every common format, national and
    international phones, IDs of varied shapes, places), with the note's casing kept and offsets recomputed.
    Prints counts only, never a value."""
    try:
        chosen = Kind(kind.strip().lower())
    except ValueError:
        raise ConfigurationError(f"unknown --kind {kind!r}; choose one of {', '.join(k.value for k in Kind)}") from None
    started = time.perf_counter()
    docs = read_corpus(corpus, input_format)
    if not docs:
        raise ConfigurationError(f"{corpus}: the corpus holds no document")
    if not any(doc.spans for doc in docs):
        raise ConfigurationError(f"{corpus}: the corpus has no gold spans to replace")
    stats = ReidentifyStats()
    out = []
    for variant in range(variants):
        out.extend(reidentify_variant(docs, seed, chosen, variant, stats))
        typer.echo(f"variant {variant + 1}/{variants}: {len(docs)} notes", err=True)
    write_corpus(out, output, fmt or (None if output.suffix else "jsonl"))
    elapsed = time.perf_counter() - started
    labels = ", ".join(f"{label} {count}" for label, count in sorted(stats.spans.items()))
    typer.echo(
        f"wrote {len(out)} notes ({variants} {chosen.value} variant{'s' if variants != 1 else ''}) with "
        f"{sum(stats.spans.values())} replaced spans to {output} in {elapsed:.1f} s",
        err=True,
    )
    typer.echo(f"spans by label: {labels}", err=True)
    if stats.forms:
        forms = ", ".join(f"{form} {count}" for form, count in stats.forms.most_common())
        typer.echo(f"name forms written: {forms}", err=True)
    if stats.overlapping:
        typer.echo(f"dropped {stats.overlapping} overlapping gold spans", err=True)
