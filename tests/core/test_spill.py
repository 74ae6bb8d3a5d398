"""``deident.core.spill``: objects come back by position and in order; an anonymous spill leaves no file."""

from __future__ import annotations

from pathlib import Path

from deident.core.spill import Spill


def test_objects_come_back_by_position_and_in_order(tmp_path: Path) -> None:
    items = [("a", 1), ("b" * 10_000, 2), ("c", None)]
    with Spill[tuple[str, int | None]].anonymous(tmp_path) as spill:
        for item in items:
            spill.add(item)
        assert len(spill) == 3
        assert spill.get(1) == items[1] and spill.get(0) == items[0]
        assert list(spill) == items
        spill.add(("d", 4))  # adding after reading appends
        assert list(spill)[-1] == ("d", 4) and spill.get(2) == items[2]


def test_an_anonymous_spill_leaves_no_file_in_its_folder(tmp_path: Path) -> None:
    with Spill[str].anonymous(tmp_path) as spill:
        spill.add("note text")
        assert list(tmp_path.iterdir()) == []
        assert list(spill) == ["note text"]
