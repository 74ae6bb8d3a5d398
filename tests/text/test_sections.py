from __future__ import annotations

import pytest

from deident.text.sections import SectionDetector, parse_heading_table, read_heading_table


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("SOCIAL\tSocial|Soc Hx:\n", (("social", "SOCIAL"), ("soc hx", "SOCIAL"))),
        ("# a comment\n\n  PLAN \t Plan: | |A/P\n", (("plan", "PLAN"), ("a/p", "PLAN"))),
        ("NOVARIANTS\n", ()),
        ("A\tx\nB\tx\n", (("x", "A"), ("x", "B"))),  # repeats kept in order; dict() keeps the last
    ],
)
def test_parse_heading_table(table: str, expected: tuple[tuple[str, str], ...]) -> None:
    assert parse_heading_table(table) == expected
    assert SectionDetector.from_table(table).headings == expected


def test_packaged_heading_table_parses() -> None:
    pairs = parse_heading_table(read_heading_table())
    assert pairs and all(heading == heading.lower() and name for heading, name in pairs)
