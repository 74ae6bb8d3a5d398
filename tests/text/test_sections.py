from __future__ import annotations

import pytest

from deident.text.sections import (
    Section,
    SectionDetector,
    parse_heading_table,
    read_heading_table,
    section_at,
    section_token_ranges,
)


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


@pytest.mark.parametrize(
    "text",
    [
        "",
        "HPI: x\nPlan: y",
        "hpi:  x. Plan: y;  meds - z;\tNeuro :a",
        "no heading here. plan to call\n   PLAN - later\nPlanning: not a heading",
        "a.\n\nPlan: y. \r Meds: z.   \tGU: ok.    CV: too far",
        "Assessment and plan: long first.  A/P: short",
        "x.\x0bPlan: y\x1cMeds: z",  # white space the ASCII and Unicode engines class differently
        "café. Plan: y",  # non-ASCII text takes the detector's own path
        "Plan:Plan: twice\nHPI:",
        # One try per anchor: blanks after the anchor's white space, line breaks inside it, long runs.
        ".\t\t\t\tPlan: y",
        ". \n  Plan: y",
        ";\x0c Meds - z",
        ".    Plan: four spaces",
        ".\n\n\n\nPlan: y",
        "  \t Plan: leading blanks\n \tHPI: x",
        "x. HPI: a. Plan: b.\tMeds: c",
        "plan: x; plan: y;plan: z",
    ],
)
def test_fast_heading_search_equals_the_full_scan(text: str) -> None:
    detector = SectionDetector.default()
    assert detector._hits(text) == detector._scan_hits(text)


@pytest.mark.parametrize("seed", range(4))
def test_fast_heading_search_equals_the_full_scan_on_random_text(seed: int) -> None:
    import random

    detector = SectionDetector.default()
    rng = random.Random(seed)
    pieces = ["Plan", "plan", "HPI", "a/p", "Meds", "neuro", "x", ":", " -", " - ", ".", ";", " ", "  "]
    pieces += ["\t", "\n", "\r", "\x0b", "\x0c", "   ", ".\t", "; ", "Assessment and plan", "A/P"]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 25)))
        assert detector._hits(text) == detector._scan_hits(text), repr(text)


@pytest.mark.parametrize("text", ["", "no headings here", "HPI: x\nMeds: y", "neuro: a. cv: b; resp - c\nPLAN: d"])
def test_default_sections_equal_the_default_detectors(text):
    from deident.text.sections import default_sections

    assert default_sections(text) == tuple(SectionDetector.default().find(text))
    assert default_sections(text) == default_sections(text)


def test_section_at_is_the_last_section_starting_at_or_before_the_offset():
    text = "Intro. HPI: pain.\nPlan: rest; Meds: none\nAllergies: NKDA"
    sections = SectionDetector.default().find(text)
    assert len(sections) >= 3
    for offset in range(len(text) + 1):
        expected = None
        for section in sections:  # document order: the last that starts at or before the offset
            if section.start <= offset:
                expected = section.name
        assert section_at(sections, offset) == expected
    assert section_at([], 5) is None


def _section(name: str, start: int, end: int) -> Section:
    return Section(name, start, end, start, start + 3)


@pytest.mark.parametrize(
    ("bounds", "starts", "expected"),
    [
        # tokens before the first heading belong to no section; each token to the last section starting at or before it
        ([(5, 20), (20, 40)], [0, 5, 9, 20, 30], [("a", 1, 3), ("b", 3, 5)]),
        # a section starting between tokens takes the next one on; the last runs to the end
        ([(3, 12), (12, 30)], [0, 4, 10, 14], [("a", 1, 3), ("b", 3, 4)]),
        # a section with no token of its own, and a note with no tokens
        ([(0, 2), (2, 10)], [5, 8], [("a", 0, 0), ("b", 0, 2)]),
        ([(0, 10)], [], [("a", 0, 0)]),
        ([], [1, 2], []),
    ],
)
def test_section_token_ranges(bounds, starts, expected):
    sections = [_section(name, a, b) for name, (a, b) in zip("ab", bounds, strict=False)]
    ranges = [(section.name, first, last) for section, first, last in section_token_ranges(sections, starts)]
    assert ranges == expected
    for name, first, last in ranges:  # the same as asking each token's section one by one
        assert all(section_at(sections, starts[i]) == name for i in range(first, last))
