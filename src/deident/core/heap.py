"""Keeping a loaded model out of the garbage collector's way, in processes that deident owns.

A loaded pipeline holds some 165,000 objects that the cyclic garbage collector tracks (lexicon sets,
automaton steps, CRF and filter tables). They live as long as the process, yet every full collection
walks them all again: 50-70 ms each, a few times over the first thousands of notes, while the
per-word memo tables grow. :func:`settle_heap` moves them to the collector's permanent generation
(``gc.freeze``), which no collection walks. It freezes every object alive, the caller's too, so only
the command line, the service, ``deident run``'s worker processes and Spark's executors call it, after
loading; a program that uses the Python API may call it after ``Deidentifier.load`` if it owns its
process.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Text processed in one call from which the collector pauses (characters): one large note, or notes together.
PAUSE_FROM_CHARS = 100_000


def settle_heap() -> None:
    """Collect what is garbage now, then freeze every object alive (see the module's text)."""
    gc.collect()
    gc.freeze()


@contextmanager
def collection_paused(chars: int) -> Iterator[None]:
    """The cyclic collector paused while ``chars`` characters of text are processed, when they are at least
    :data:`PAUSE_FROM_CHARS`.

    A note of a megabyte makes some 60,000 spans and millions of short-lived tuples; the spans that live to the end
    of the note are walked again by each full collection, whose number grows with them: a quarter of the time on a
    1 MB note and x2.3 per doubling of its length (x2.0 paused, ``bench/bench_large_note.py``). Detection makes no
    reference cycles of its own worth collecting (what it drops, reference counting frees), and the collector
    resumes when the call ends. Process-wide: a call that found it paused (another thread's) leaves it so.
    """
    if chars < PAUSE_FROM_CHARS:
        yield
        return
    with _paused():
        yield


@contextmanager
def collection_paused_while_loading() -> Iterator[None]:
    """The cyclic collector paused while a model loads, then one collection.

    Loading builds some 230,000 tracked objects (lexicon sets, automata, CRF, filter and pattern tables) that all
    live on; the collector, counting them as new, ran a dozen full collections over the growing heap, each walking
    all of it again: 0.8-0.9 s of a 4.2 s load. The one collection after it frees the cycles loading dropped and
    counts the loaded tables as old, so the first notes do not pay for a full collection either. Process-wide, as
    :func:`collection_paused`.
    """
    with _paused():
        yield
    if gc.isenabled():
        gc.collect()


@contextmanager
def _paused() -> Iterator[None]:
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


__all__ = ["collection_paused", "collection_paused_while_loading", "settle_heap"]
