"""Objects pickled one after another in a file, read back by position or in order.

Used where a whole corpus must pass twice but must not be held in memory: ``deident run`` spills its
input before cutting it into chunks of whole patients, and the table writers spill their rows' notes
while they learn the columns (which depend on every note) before they write. Memory holds one offset per
object. The file is written and read by the same process only.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Generic, TypeVar, cast

T = TypeVar("T")


class Spill(Generic[T]):
    """A spill file: ``add`` appends, ``get`` reads one back by position, iteration reads all in order."""

    def __init__(self, handle: IO[bytes]) -> None:
        self._handle = handle
        self.offsets: array[int] = array("q")

    @classmethod
    def anonymous(cls, folder: Path | None = None) -> Spill[T]:
        """A spill file without a name (removed by the system when closed, even after a crash)."""
        return cls(tempfile.TemporaryFile(dir=folder))

    def __enter__(self) -> Spill[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._handle.close()

    def __len__(self) -> int:
        return len(self.offsets)

    def add(self, item: T) -> None:
        self._handle.seek(0, os.SEEK_END)
        self.offsets.append(self._handle.tell())
        pickle.dump(item, self._handle, protocol=pickle.HIGHEST_PROTOCOL)

    def get(self, position: int) -> T:
        self._handle.seek(self.offsets[position])
        return self._load()

    def __iter__(self) -> Iterator[T]:
        for offset in self.offsets:
            self._handle.seek(offset)
            yield self._load()

    def _load(self) -> T:
        # Written by this process, in a file only it has open.
        return cast(T, pickle.load(self._handle))
