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


def settle_heap() -> None:
    """Collect what is garbage now, then freeze every object alive (see the module's text)."""
    gc.collect()
    gc.freeze()


__all__ = ["settle_heap"]
