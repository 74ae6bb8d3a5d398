"""Section headings as values: where each section starts, its heading and canonical name.

Headings come from a data file (``resources/sections.tsv``); a heading is recognised at the start
of a line or after "; " / ". ", followed by ":" or " -". Section names feed CRF features (Sibanda
2006: the section is strong context) and trusted-phrase harvesting (signature, contact sections).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import regex


@dataclass(frozen=True, slots=True)
class Section:
    """A section: ``[start, end)`` of the whole section, ``[heading_start, heading_end)`` of its heading."""

    name: str
    start: int
    end: int
    heading_start: int
    heading_end: int


@dataclass(frozen=True)
class SectionDetector:
    """Finds section headings with one compiled alternation built from the heading table."""

    headings: tuple[tuple[str, str], ...]  # (heading lower-case, canonical name)

    @classmethod
    def from_table(cls, table: str) -> SectionDetector:
        return cls(parse_heading_table(table))

    @classmethod
    def default(cls) -> SectionDetector:
        return _default_detector()

    def __post_init__(self) -> None:
        alternation = "|".join(regex.escape(h) for h, _ in sorted(self.headings, key=lambda p: -len(p[0])))
        pattern = rf"(?:^|(?<=[;.]\s{{1,3}}))[ \t]*(?P<h>{alternation})[ \t]*(?::|\s-(?=\s))"
        object.__setattr__(self, "_pattern", regex.compile(pattern, regex.IGNORECASE | regex.MULTILINE))
        object.__setattr__(self, "_lookup", dict(self.headings))

    def find(self, text: str) -> list[Section]:
        """Sections in document order; text before the first heading is not a section."""
        hits = [
            (m.start("h"), m.end("h"), self._lookup[m.group("h").lower()])  # type: ignore[attr-defined]
            for m in self._pattern.finditer(text)  # type: ignore[attr-defined]
        ]
        sections: list[Section] = []
        for i, (h_start, h_end, name) in enumerate(hits):
            end = hits[i + 1][0] if i + 1 < len(hits) else len(text)
            sections.append(Section(name, h_start, end, h_start, h_end))
        return sections


def section_at(sections: list[Section], offset: int) -> str | None:
    """Name of the section containing ``offset`` (None before the first heading)."""
    name = None
    for section in sections:
        if section.start <= offset:
            name = section.name
        else:
            break
    return name


@lru_cache(maxsize=1)
def _default_detector() -> SectionDetector:
    return SectionDetector.from_table(read_heading_table())


def read_heading_table() -> str:
    """The packaged heading table, ``resources/sections.tsv``."""
    return resources.files("deident.resources").joinpath("sections.tsv").read_text(encoding="utf-8")


def parse_heading_table(table: str) -> tuple[tuple[str, str], ...]:
    """(heading lower case, canonical name) pairs in table order.

    The table's format: ``NAME<TAB>variant|variant``; '#' starts a comment line; a variant's trailing ":"
    is dropped. Where a variant repeats, lookups built with ``dict`` keep the last row's name.
    """
    pairs: list[tuple[str, str]] = []
    for raw in table.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, variants = line.partition("\t")
        for variant in variants.split("|"):
            variant = variant.strip().lower().rstrip(":")
            if variant:
                pairs.append((variant, name.strip()))
    return tuple(pairs)
