"""Fuzzy lexicon membership: Damerau–Levenshtein distance <= 1 (<= 2 for tokens of 8+ letters).

Choices are bucketed by length and by their first and second letters, so a lookup only scores items
that can be close enough: any single edit (substitution, insertion, deletion, transposition) keeps
one of the first two letters of the item among the first two letters of the token. For distance 2
this prefilter misses items with both of their first two letters changed (accepted: rare, and
those are poor name evidence anyway). Results are cached because misspellings recur across notes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein, Levenshtein

from deident.detect.lexicon.data import load_lexicon

MIN_FUZZY_LENGTH = 5
LONG_TOKEN_LENGTH = 8


def max_distance(token: str) -> int:
    return 2 if len(token) >= LONG_TOKEN_LENGTH else 1


@dataclass(frozen=True, slots=True)
class FuzzyHit:
    """The nearest lexicon item's distance and the lexicons it belongs to (the item is not kept)."""

    distance: int
    names: tuple[str, ...]


class FuzzyIndex:
    """Length-bucketed choices of some lexicons for rapidfuzz lookups."""

    def __init__(self, lexicons: dict[str, Iterable[str]]) -> None:
        owners: dict[str, set[str]] = {}
        for name, items in lexicons.items():
            for item in items:
                if item.isalpha() and len(item) >= MIN_FUZZY_LENGTH - 1:
                    owners.setdefault(item, set()).add(name)
        self._owners = {k: tuple(sorted(v)) for k, v in owners.items()}
        buckets: dict[tuple[int, int, str], list[str]] = {}
        for item in sorted(owners):
            buckets.setdefault((len(item), 0, item[0]), []).append(item)
            buckets.setdefault((len(item), 1, item[1]), []).append(item)
        self._buckets = buckets

    def _choices(self, length: int, first: str, second: str) -> list[str]:
        """Items of ``length`` with ``first`` or ``second`` among their first two letters. The sorted
        buckets are concatenated in a fixed order (an item may appear twice, which does not change
        the nearest distance), so lookups are deterministic without a set and a sort per call."""
        letters = (first,) if first == second else (first, second)
        out: list[str] = []
        for position in (0, 1):
            for letter in letters:
                out += self._buckets.get((length, position, letter), ())
        return out

    def lookup(self, token: str) -> FuzzyHit | None:
        """Nearest item within the allowed distance of a lower-case token, exact matches excluded."""
        if len(token) < MIN_FUZZY_LENGTH or not token.isalpha():
            return None
        limit = max_distance(token)
        choices: list[str] = []
        for length in range(len(token) - limit, len(token) + limit + 1):
            choices += self._choices(length, token[0], token[1])
        if not choices:
            return None
        # A transposition is two Levenshtein edits, so an item within ``limit`` Damerau-Levenshtein edits is within
        # 2 * limit Levenshtein edits: that far cheaper distance picks the few items worth the exact one. They keep
        # their order, so the first of equally near items still wins (fixed order), as over all choices.
        near = process.extract(
            token, choices, scorer=Levenshtein.distance, score_cutoff=2 * limit, limit=None, processor=None
        )
        if not near:
            return None
        near.sort(key=itemgetter(2))
        found = process.extractOne(
            token, [item for item, _, _ in near], scorer=DamerauLevenshtein.distance, score_cutoff=limit, processor=None
        )
        if found is None or found[1] == 0:  # nothing near enough, or the token is itself listed
            return None
        return FuzzyHit(int(found[1]), self._owners[found[0]])


@lru_cache(maxsize=1)
def name_index() -> FuzzyIndex:
    return FuzzyIndex({name: load_lexicon(name) for name in ("first_names", "last_names")})


@lru_cache(maxsize=65536)
def fuzzy_name(token: str) -> FuzzyHit | None:
    """Cached fuzzy lookup of a lower-case token in the first- and last-name lexicons."""
    return name_index().lookup(token)
