"""``deident synth``: write a corpus of synthetic annotated notes in several styles."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from deident.cli.conventions import FormatChoice, QuietOption, Reporter, SchemeChoice, VerboseOption, VersionOption
from deident.core.errors import ConfigurationError
from deident.io.formats import write_corpus
from deident.synth.generate import EXTRA_STYLES, STYLES, generate_corpus


def synth(
    output: Annotated[Path, typer.Option("-o", "--output", help="Corpus file to write (JSONL by default).")],
    notes: Annotated[int, typer.Option("--notes", min=1, help="Number of notes.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Corpus seed; the same seed gives identical output.")] = 0,
    styles: Annotated[
        str,
        typer.Option(
            "--styles",
            metavar="TEXT",
            help=f"Comma-separated note styles, taken in turn ({','.join(STYLES)}; also: {','.join(EXTRA_STYLES)}).",
        ),
    ] = ",".join(STYLES),
    fmt: Annotated[
        FormatChoice | None, typer.Option("--format", help="Output format (default: from the extension, else jsonl).")
    ] = None,
    scheme: Annotated[
        SchemeChoice,
        typer.Option(
            help="PHI convention of the gold spans (i2b2-2014: every span as generated; hipaa: to score the default "
            "output against)."
        ),
    ] = SchemeChoice.I2B2_2014,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Generate synthetic notes (discharge summaries, ICU nursing notes, psychiatric notes, forum posts)
    whose gold PHI spans are exact by construction, for training and testing detectors."""
    chosen = [style.strip() for style in styles.split(",") if style.strip()]
    if not chosen:
        raise ConfigurationError("--styles names no style")
    started = time.perf_counter()
    docs = generate_corpus(notes, seed, chosen)
    if scheme is not SchemeChoice.I2B2_2014:  # the generator writes i2b2-2014 gold
        from deident.schemes import SchemeStage, get_scheme

        cut = SchemeStage(get_scheme(scheme.value))
        docs = [doc.with_spans(cut(doc.document, doc.spans)) for doc in docs]
    write_corpus(docs, output, fmt or (None if output.suffix else "jsonl"))
    counts = Counter(span.label.value for doc in docs for span in doc.spans)
    elapsed = time.perf_counter() - started
    Reporter(verbose, quiet).summary(
        f"wrote {len(docs)} notes with {sum(counts.values())} spans ({len(counts)} labels) to {output} "
        f"in {elapsed:.1f} s"
    )
