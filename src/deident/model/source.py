"""The EasyAdapt source corpus of ``deident train``: the bundled PhysioNet notes, named or used by default.

A corpus is *small* when it has fewer than :data:`SMALL_CORPUS_NOTES` notes or fewer than
:data:`SMALL_CORPUS_SPANS` gold spans: a few hundred annotated notes (what a site annotates first) teach a CRF
its note types but too few examples of each PHI type, so the bundled notes are added as EasyAdapt's source
domain unless a source is named or refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from deident.core.document import AnnotatedDocument
from deident.core.errors import ConfigurationError

SMALL_CORPUS_NOTES = 200
SMALL_CORPUS_SPANS = 500
BUNDLED_NAMES = ("bundled", "physionet")  # ``--source bundled``
NO_SOURCE = "none"  # ``--source none``, as ``--no-source``


def bundled_source_path() -> Path:
    """The bundled PhysioNet notes (``.text``; the ``.phrase`` annotations lie beside it)."""
    folder = resources.files("deident.resources").joinpath("corpora", "physionet")
    return Path(str(folder)) / "physionet-dev.text"


def is_small(docs: Sequence[AnnotatedDocument]) -> bool:
    """Fewer than :data:`SMALL_CORPUS_NOTES` notes or :data:`SMALL_CORPUS_SPANS` gold spans."""
    return len(docs) < SMALL_CORPUS_NOTES or sum(len(d.spans) for d in docs) < SMALL_CORPUS_SPANS


@dataclass(frozen=True)
class SourceChoice:
    """The source corpora to read, and the notice to print when the bundled one was chosen by default."""

    paths: tuple[Path, ...]
    notice: str | None = None


def choose_source(given: Sequence[Path], no_source: bool, train_docs: Sequence[AnnotatedDocument]) -> SourceChoice:
    """``--source`` paths (``bundled``/``physionet`` naming the bundled corpus unless such a file exists, ``none``
    refusing any), or the bundled corpus when none is given and ``train_docs`` is small."""
    named = [str(p) for p in given]
    if no_source and named and named != [NO_SOURCE]:
        raise ConfigurationError("--no-source contradicts --source; give one of them")
    if no_source or named == [NO_SOURCE]:
        return SourceChoice(())
    if NO_SOURCE in named:
        raise ConfigurationError("--source none cannot be combined with other source corpora")
    if given:
        return SourceChoice(
            tuple(bundled_source_path() if str(p) in BUNDLED_NAMES and not p.exists() else p for p in given)
        )
    if not is_small(train_docs):
        return SourceChoice(())
    spans = sum(len(d.spans) for d in train_docs)
    return SourceChoice(
        (bundled_source_path(),),
        f"note: the training corpus is small ({len(train_docs)} notes, {spans} gold spans; under "
        f"{SMALL_CORPUS_NOTES} notes or {SMALL_CORPUS_SPANS} spans): the bundled PhysioNet notes are its EasyAdapt "
        "source (--no-source to train without them)",
    )
