"""Section headings as values: where each section starts, its heading and canonical name.

Headings come from a data file (``resources/sections.tsv``); a heading is recognised at the start
of a line or after "; " / ". ", followed by ":" or " -". Section names feed CRF features (Sibanda
2006: the section is strong context) and trusted-phrase harvesting (signature, contact sections).
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources

import regex

from deident.text.charset import ascii_case_distinct

# An anchor and the blanks after it: where a heading may start is the end of such a match.
_ANCHOR_BLANKS = re.compile(r"(?:\n|[;.]\s{1,3})[ \t]*", re.ASCII)
_MATCH_END = re.Match.end
# Characters that Unicode and ASCII regular expressions class differently as white space.
_UNUSUAL_SPACE = re.compile(r"[\x1c-\x1f]")


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

    @cached_property
    def _ascii_patterns(self) -> dict[str, re.Pattern[str]]:
        """The heading pattern after its anchor and leading blanks, for lower-cased ASCII text and the
        standard ``re`` engine, one per first letter of the heading (alternatives in the same order,
        longest first): matched where the heading's first letter stands."""
        by_first: dict[str, list[str]] = {}
        for heading, _ in sorted(self.headings, key=lambda p: -len(p[0])):
            if heading:
                by_first.setdefault(heading[0], []).append(re.escape(heading))
        return {
            first: re.compile(rf"(?P<h>{'|'.join(items)})[ \t]*(?::|\s-(?=\s))", re.ASCII)
            for first, items in by_first.items()
        }

    def _scan_hits(self, text: str) -> list[tuple[int, int, str]]:
        """What :meth:`_hits` finds, by one scan of the whole text with the full pattern."""
        return [
            (m.start("h"), m.end("h"), self._lookup[m.group("h").lower()])  # type: ignore[attr-defined]
            for m in self._pattern.finditer(text)  # type: ignore[attr-defined]
        ]

    def _hits(self, text: str) -> list[tuple[int, int, str]]:
        """(heading start, heading end, name) of every heading, in order."""
        if not ascii_case_distinct(text) or _UNUSUAL_SPACE.search(text):
            return self._scan_hits(text)
        # ASCII text (or text whose other characters no case-insensitive match takes for ASCII letters and that are
        # no white space: charset.ascii_case_distinct): try the pattern only where a heading can start, with only
        # the headings that begin with the letter found there, left to right and never inside the previous match;
        # that finds what the scan of the whole text finds, several times faster. Where a heading can start: the
        # first character that is not a blank (space, tab) from an anchor position on (the text's start, after a
        # line break, after ";" / "." and one to three white-space characters). The anchor positions after one
        # ";" / "." lead to the same character, or to a line break or other white space where no heading starts;
        # so one position per anchor is tried, the end of ``_ANCHOR_BLANKS``'s match (the anchor's longest white
        # space, then blanks).
        lowered = text.lower()
        size = len(lowered)
        patterns = self._ascii_patterns
        lookup = self._lookup  # type: ignore[attr-defined]
        hits: list[tuple[int, int, str]] = []
        done = 0
        starts = itertools.chain(
            (size - len(lowered.lstrip(" \t")),), map(_MATCH_END, _ANCHOR_BLANKS.finditer(lowered))
        )
        for first in starts:
            if first < done or first >= size:
                continue
            pattern = patterns.get(lowered[first])
            if pattern is None:
                continue
            m = pattern.match(lowered, first)
            if m is not None:
                hits.append((first, m.end("h"), lookup[m.group("h")]))
                done = m.end()
        return hits

    def find(self, text: str) -> list[Section]:
        """Sections in document order; text before the first heading is not a section."""
        hits = self._hits(text)
        sections: list[Section] = []
        for i, (h_start, h_end, name) in enumerate(hits):
            end = hits[i + 1][0] if i + 1 < len(hits) else len(text)
            sections.append(Section(name, h_start, end, h_start, h_end))
        return sections


def section_at(sections: Sequence[Section], offset: int) -> str | None:
    """Name of the section containing ``offset`` (None before the first heading); ``sections`` in document order (as
    :meth:`SectionDetector.find` gives them), found by binary search."""
    index = bisect_right(sections, offset, key=_section_start)
    return sections[index - 1].name if index else None


def section_token_ranges(sections: Sequence[Section], starts: Sequence[int]) -> Iterator[tuple[Section, int, int]]:
    """Each section with the tokens ``[first, last)`` that lie in it, ``starts`` being the tokens' start offsets in
    order: a token belongs to the last section that starts at or before it, so a section holds the tokens from the
    first one at or after its start to the first one at or after the next section's."""
    first = bisect_left(starts, sections[0].start) if sections else len(starts)
    for k, section in enumerate(sections):
        last = bisect_left(starts, sections[k + 1].start, first) if k + 1 < len(sections) else len(starts)
        yield section, first, last
        first = last


def _section_start(section: Section) -> int:
    return section.start


def default_sections(text: str) -> tuple[Section, ...]:
    """The default detector's sections of ``text``. The CRF's features and the span filter both need them for the
    same note: inside a pipeline they read them once from the note's view
    (:attr:`deident.text.note_view.NoteView.sections`)."""
    return tuple(_default_detector().find(text))


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
