"""``deident.core.heap``: the loaded model moved out of the garbage collector's walks."""

from __future__ import annotations

import gc
import weakref

from deident.core.heap import settle_heap


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
