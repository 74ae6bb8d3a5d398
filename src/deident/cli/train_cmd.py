"""``deident train``: train a CRF model directory from annotated corpora."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deident.cli.crf_options import (
    C1Option,
    C2Option,
    FormatOption,
    IterationsOption,
    ProvidersOption,
    SplitModelsOption,
    crf_train_config,
    echo_progress,
    feature_providers,
)
from deident.detect.crf.mixture import Mixture, build_mixture, parse_augment
from deident.detect.crf.train import require_gold_spans, train_model
from deident.io.formats import read_corpus


def _read_all(paths: list[Path], fmt: str | None) -> list:  # type: ignore[type-arg]
    docs = []
    for path in paths:
        corpus = read_corpus(path, fmt)
        require_gold_spans(corpus, str(path))
        docs.extend(corpus)
    return docs


def train(
    train_paths: Annotated[list[Path], typer.Argument(help="Annotated training corpora.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Model directory to write.")],
    fmt: FormatOption = None,
    dev: Annotated[Path | None, typer.Option(help="Development corpus: picks the threshold, gives metrics.")] = None,
    source: Annotated[
        list[Path] | None, typer.Option(help="Source-domain corpus for EasyAdapt (training corpora are the target).")
    ] = None,
    split_models: SplitModelsOption = False,
    threshold: Annotated[
        float | None, typer.Option(help="PHI probability threshold (default: chosen on --dev).")
    ] = None,
    recall_target: Annotated[float, typer.Option(help="Dev recall the chosen threshold must reach.")] = 0.95,
    clusters: Annotated[int, typer.Option(help="Number of word clusters learned from the texts (0: none).")] = 64,
    iterations: IterationsOption = 100,
    c1: C1Option = 0.01,
    c2: C2Option = 0.01,
    tfidf: Annotated[bool, typer.Option(help="Add the tf-idf rank over each patient's notes (Benton).")] = False,
    providers: ProvidersOption = True,
    augment: Annotated[
        str,
        typer.Option(
            help="Add re-identified variants of the training corpora (deident reidentify), "
            "e.g. reidentified:2,ambiguous:1,unseen:1; learned data still comes from the corpora alone."
        ),
    ] = "",
    synth: Annotated[int, typer.Option(min=0, help="Add this many synthetic notes (deident synth).")] = 0,
    synth_styles: Annotated[
        str, typer.Option(help="Comma-separated styles of the synthetic notes.")
    ] = "discharge,nursing,psych,forum",
    synth_scheme: Annotated[
        str, typer.Option(help="Convention the synthetic notes are cut to ('none': as written).")
    ] = "physionet",
    mix_seed: Annotated[int, typer.Option(help="Seed of the variants and synthetic notes.")] = 0,
) -> None:
    """Train a CRF model directory (manifest, CRF files, learned triggers, lexicon and clusters)."""
    base_docs = _read_all(train_paths, fmt)
    mixture = Mixture(
        augment=parse_augment(augment),
        synth=synth,
        synth_styles=tuple(s for s in synth_styles.split(",") if s),
        seed=mix_seed,
        base_scheme=None if synth_scheme == "none" else synth_scheme,
    )
    train_docs = base_docs if mixture.empty else build_mixture(base_docs, mixture)
    dev_docs = read_corpus(dev, fmt) if dev else []
    source_docs = _read_all(source or [], fmt)
    config = crf_train_config(
        tfidf=tfidf,
        split_models=split_models,
        c1=c1,
        c2=c2,
        iterations=iterations,
        clusters=clusters,
        threshold=threshold,
        recall_target=recall_target,
    )
    used = feature_providers(providers)
    manifest = train_model(
        train_docs,
        output,
        config,
        dev_docs=dev_docs,
        source_docs=source_docs,
        providers=used,
        progress=echo_progress,
        learn_docs=None if mixture.empty else base_docs,
        mixture=None if mixture.empty else mixture.as_dict(),
    )
    typer.echo(
        f"trained on {len(train_docs)} documents in {manifest['training_seconds']} s; "
        f"threshold {manifest['threshold']}; providers: {', '.join(manifest['providers']) or 'none'}",
        err=True,
    )
    dev_figures = manifest["metrics"].get("dev", {}).get("binary_token")
    if dev_figures:
        typer.echo(
            "dev binary token: " + ", ".join(f"{k} {dev_figures[k]:.3f}" for k in ("precision", "recall", "f1", "f2")),
            err=True,
        )
