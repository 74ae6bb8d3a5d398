"""Offsets of lines: where a position stands on its line."""

from __future__ import annotations

import random

from deident.text.segment import at_line_start


def test_at_line_start_equals_a_look_at_the_whole_line():
    rng = random.Random(6)
    for _ in range(500):
        pieces = ["a", " ", "\t", "\n", "\x0c", " " * 70, "b" * 70]
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        for position in range(len(text) + 1):
            expected = not text[text.rfind("\n", 0, position) + 1 : position].strip()
            assert at_line_start(text, position) == expected
