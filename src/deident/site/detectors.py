"""Stage-1 detectors from a site configuration: its lists (matched exactly and fuzzily like the built-in lexicons)
and its custom patterns (run by the pattern machinery that runs the built-in rules).

A whole entry of a site list is what the site says is PHI: its span is confirmed (``Confirmation.SITE_LIST``), so
the span filter never overrules it. A part of a listed name ("Okafor" of "Tomasz Okafor") and a near miss of a word
of a listed name ("Quilfeather") are evidence only, scored, for the filter to judge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

import phonenumbers
import regex

from deident.core.document import Document
from deident.core.labels import Category, Label
from deident.core.provenance import Confirmation
from deident.core.span import Span, sort_spans
from deident.detect.lexicon.context import is_clinical_term, is_common_word
from deident.detect.lexicon.fuzzy import MIN_FUZZY_LENGTH, FuzzyHit, FuzzyIndex
from deident.detect.lexicon.matcher import LexiconMatch, LexiconMatcher
from deident.detect.patterns.checked_ids import NAMED_CHECKS
from deident.detect.patterns.contact import DEFAULT_PHONE_REGIONS
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.rules import Hit, Pattern, Validator, search_before, words
from deident.site.config import CustomPattern, SiteConfig
from deident.text.normalise import normalise
from deident.text.note_view import note_view

WHOLE_SCORE = 1.0
PART_SCORE = 0.75
FUZZY_SCORE = 0.6
# A context word this many characters before a custom pattern's match raises its score by CONTEXT_BOOST
# (Presidio's default context enhancement is 0.35).
CONTEXT_WINDOW = 40
CONTEXT_BOOST = 0.35
_WORD = regex.compile(r"\p{L}+")


def _key(term: str) -> str:
    return " ".join(normalise(term).split())


@dataclass(frozen=True)
class SiteListDetector:
    """The site's lists: whole entries (confirmed), parts of listed names, and near misses of listed words."""

    lists: tuple[tuple[str, Label, tuple[str, ...]], ...]
    name: str = "site.lists"
    fuzzy: bool = True

    @cached_property
    def _labels(self) -> dict[str, Label]:
        return {name: label for name, label, _ in self.lists}

    @cached_property
    def _priority(self) -> dict[str, int]:
        return {name: i for i, (name, _, _) in enumerate(self.lists)}

    @cached_property
    def _whole(self) -> LexiconMatcher | None:
        entries = {name: items for name, _, items in self.lists}
        return LexiconMatcher(entries) if any(len(_key(i)) >= 2 for items in entries.values() for i in items) else None

    @cached_property
    def _parts(self) -> LexiconMatcher | None:
        """Words of multi-word names that tell a person alone: not short, not an ordinary word or clinical term."""
        parts: dict[str, set[str]] = {}
        for name, label, items in self.lists:
            if label.category is not Category.NAME:
                continue
            for item in items:
                item_words = _key(item).split()
                if len(item_words) < 2:
                    continue
                parts.setdefault(name, set()).update(
                    w for w in item_words if len(w) >= 4 and not is_common_word(w) and not is_clinical_term(w)
                )
        return LexiconMatcher(parts) if any(parts.values()) else None

    @cached_property
    def _near(self) -> FuzzyIndex:
        """The words of the name lists (as the built-in lexicons, only names are matched fuzzily: a near miss of a
        ward's or facility's generic word, "Infirmery", says nothing)."""
        return FuzzyIndex(
            {
                name: {w for item in items for w in _key(item).split()}
                for name, label, items in self.lists
                if label.category is Category.NAME
            }
        )

    @cached_property
    def _lookup(self) -> _CachedLookup:
        return _CachedLookup(self._near)

    def _label_of(self, names: tuple[str, ...]) -> tuple[str, Label]:
        first = min(names, key=self._priority.__getitem__)
        return first, self._labels[first]

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        normalised = note_view(document).normalised
        out: list[Span] = []
        taken: list[tuple[int, int]] = []
        if self._whole is not None:
            for match in self._whole.find_longest(text, normalised):
                out.append(self._span(match, WHOLE_SCORE, (), Confirmation.SITE_LIST))
                taken.append((match.start, match.end))
        if self._parts is not None:
            for match in self._parts.find_longest(text, normalised):
                if not _inside(match.start, match.end, taken):
                    out.append(self._span(match, PART_SCORE, ("site:part",), None))
                    taken.append((match.start, match.end))
        if self.fuzzy:
            out.extend(self._fuzzy(text, normalised, taken))
        return list(sort_spans(out))

    def _span(self, match: LexiconMatch, score: float, notes: tuple[str, ...], confirmed: Confirmation | None) -> Span:
        list_name, label = self._label_of(match.names)
        evidence = (f"site:{list_name}", *notes)
        return Span(match.start, match.end, label, self.name, score, evidence, confirmed=confirmed)

    def _fuzzy(self, text: str, normalised: str, taken: list[tuple[int, int]]) -> list[Span]:
        out: list[Span] = []
        for word in _WORD.finditer(normalised):
            start, end = word.span()
            token = word.group()
            if len(token) < MIN_FUZZY_LENGTH or _inside(start, end, taken):
                continue
            hit = self._lookup(token)
            if hit is None or is_common_word(token) or is_clinical_term(token):
                continue
            list_name, label = self._label_of(hit.names)
            evidence = (f"site:{list_name}", "site:fuzzy", f"fuzzy:{hit.distance}")
            out.append(Span(start, end, label, self.name, FUZZY_SCORE, evidence))
        return out


class _CachedLookup:
    """A fuzzy index's lookups, remembered (a misspelling recurs across notes); one per detector."""

    def __init__(self, index: FuzzyIndex) -> None:
        self._cached = lru_cache(maxsize=65536)(index.lookup)

    def __call__(self, token: str) -> FuzzyHit | None:
        return self._cached(token)


def _inside(start: int, end: int, taken: list[tuple[int, int]]) -> bool:
    return any(a < end and start < b for a, b in taken)


def custom_pattern_detector(patterns: tuple[CustomPattern, ...], regions: tuple[str, ...]) -> PatternDetector:
    """The site's custom patterns as one pattern family ("site.patterns"), in the order written."""
    return PatternDetector("site.patterns", tuple(_rule(p, regions) for p in patterns))


def _rule(pattern: CustomPattern, regions: tuple[str, ...]) -> Pattern:
    return Pattern(
        f"site.{pattern.name}",
        pattern.label,
        pattern.source,
        pattern.score,
        _validator(pattern, regions),
        ignore_case=pattern.ignore_case,
    )


def _validator(pattern: CustomPattern, regions: tuple[str, ...]) -> Validator:
    """Drops a match that fails the named check (confirms one that passes); raises the score after a context word."""
    check = None if pattern.validator is None else _named_check(pattern.validator, regions)
    confirms = Confirmation.PHONE if pattern.validator == "phone" else Confirmation.CHECKSUM
    context = rf"(?<![\p{{L}}\p{{N}}]){words(*pattern.context)}(?![\p{{L}}\p{{N}}])" if pattern.context else None

    def validate(text: str, match: regex.Match[str]) -> list[Hit]:
        confirmed = None
        if check is not None:
            if not check(match.group()):
                return []
            confirmed = confirms
        score = pattern.score
        evidence: tuple[str, ...] = ()
        if context is not None and search_before(context, text, match.start(), CONTEXT_WINDOW) is not None:
            score = min(1.0, round(score + CONTEXT_BOOST, 6))
            evidence = ("site:context",)
        return [Hit(match.start(), match.end(), evidence=evidence, score=score, confirmed=confirmed)]

    return validate


def _named_check(name: str, regions: tuple[str, ...]) -> Callable[[str], bool]:
    if name == "phone":
        return _PhoneCheck(regions)
    return NAMED_CHECKS[name]


class _PhoneCheck:
    """A number phonenumbers finds valid, read in each of ``regions`` in turn."""

    def __init__(self, regions: tuple[str, ...]) -> None:
        self.regions = regions

    def __call__(self, number: str) -> bool:
        for region in self.regions:
            try:
                if phonenumbers.is_valid_number(phonenumbers.parse(number, region)):
                    return True
            except phonenumbers.NumberParseException:
                continue
        return False


def site_detectors(site: SiteConfig) -> tuple[SiteListDetector | PatternDetector, ...]:
    """The stage-1 detectors of a site configuration: its lists, then its custom patterns (those it has)."""
    out: list[SiteListDetector | PatternDetector] = []
    if site.lists:
        out.append(SiteListDetector(site.lists))
    if site.patterns:
        out.append(custom_pattern_detector(site.patterns, site.phone_regions or DEFAULT_PHONE_REGIONS))
    return tuple(out)
