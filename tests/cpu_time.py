"""CPU time of a call for the complexity tests (time ratios between input sizes), made steady on a loaded machine."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def least_cpu_seconds(function: Callable[..., object], *args: object, repeats: int = 3) -> float:
    """The least CPU seconds of ``repeats`` calls, the cyclic collector paused: a full collection that falls into
    one call (it walks everything the test session keeps alive) or another process on the machine only adds time,
    and would make a linear function look quadratic."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        best = float("inf")
        for _ in range(repeats):
            start = time.process_time()
            function(*args)
            best = min(best, time.process_time() - start)
        return best
    finally:
        if enabled:
            gc.enable()
