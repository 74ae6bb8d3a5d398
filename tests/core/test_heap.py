"""``deident.core.heap``: the loaded model moved out of the garbage collector's walks."""

from __future__ import annotations

import gc
import weakref

import pytest

from deident.core.document import Document
from deident.core.heap import PAUSE_FROM_CHARS, collection_paused, collection_paused_while_loading, settle_heap
from deident.core.pipeline import Pipeline
from deident.core.span import Span


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_settle_heap_collects_garbage_first_then_freezes_what_is_alive() -> None:
    gc.unfreeze()
    kept = [{"table": list(range(3))}]
    cycle = _Node()
    cycle.other = _Node()
    cycle.other.other = cycle
    gone = weakref.ref(cycle)
    del cycle  # unreachable, only a cycle keeps it: the collection before the freeze frees it
    settle_heap()
    assert gone() is None
    assert gc.get_freeze_count() > 0
    assert not any(obj is kept[0] for obj in gc.get_objects())  # frozen: no generation lists it any more
    gc.unfreeze()
    assert any(obj is kept[0] for obj in gc.get_objects())


@pytest.mark.parametrize(("chars", "paused"), [(PAUSE_FROM_CHARS - 1, False), (PAUSE_FROM_CHARS, True)])
def test_the_collector_pauses_for_large_text_only_and_resumes(chars: int, paused: bool) -> None:
    assert gc.isenabled()
    with collection_paused(chars):
        assert gc.isenabled() is not paused
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collection_paused(chars):
        raise RuntimeError
    assert gc.isenabled()


def test_a_pause_found_in_place_is_left_in_place() -> None:
    gc.disable()
    try:
        with collection_paused(PAUSE_FROM_CHARS):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_pipeline_runs_a_large_note_with_the_collector_paused() -> None:
    seen: list[bool] = []

    def stage(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        seen.append(gc.isenabled())
        return spans

    pipeline = Pipeline((stage,))  # type: ignore[arg-type]
    small, large = Document("s", "x" * 10), Document("l", "x" * PAUSE_FROM_CHARS)
    pipeline(small)
    pipeline(large)
    pipeline.run_many([small])
    pipeline.run_many([small, large])
    assert seen == [True, False, True, False, False]
    assert gc.isenabled()


def test_loading_pauses_the_collector_then_collects_once_and_resumes() -> None:
    assert gc.isenabled()
    full: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(count)
    try:
        with collection_paused_while_loading():
            assert not gc.isenabled()
            cycle = _Node()
            cycle.other = _Node()
            cycle.other.other = cycle
            gone = weakref.ref(cycle)
            del cycle
            assert gone() is not None  # no collection while loading
        assert gone() is None  # the one collection after it frees what loading dropped
        assert gc.isenabled()
        assert len(full) == 1
        with pytest.raises(RuntimeError), collection_paused_while_loading():
            raise RuntimeError
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(count)


def test_loading_leaves_a_pause_found_in_place_and_collects_nothing() -> None:
    full: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.disable()
    gc.callbacks.append(count)
    try:
        with collection_paused_while_loading():
            pass
        assert not gc.isenabled()
        assert full == []
    finally:
        gc.callbacks.remove(count)
        gc.enable()
