"""Optional CRF context features from the papers (issue 18 item 6), each behind a :class:`FeatureConfig` switch.

- ``neighbour_dictionary`` (Sibanda 2007, Benton 2011): which name and place dictionaries hold the previous
  and the next word (``nd-1=first``, ``nd+1=place``, ...).
- ``fuzzy_dictionary`` (Benton 2011): the word's own dictionary membership, exact (``dx=last``) and, as a
  separate feature, within one edit of a dictionary word but not in it (``dfz=last``): a misspelt name.
- ``term_lists`` (Benton 2011): the drug, clinical-term (the stage-1 veto) and stop-word lists as features
  (``lst=drug``, ``lst=veto``, ``lst=stop``) rather than only as a veto.
- ``trigger_window`` (Szarvas 2007): a learned trigger word anywhere within three tokens before (``tw<=NAME``)
  or after (``tw>=NAME``) the token, whatever offset it was learned at.
- ``learned_headings`` (Sibanda 2006, Szarvas 2007): the section of a heading learned from the training notes
  (``lsec=NAME``), computed from the text by :func:`deident.detect.crf.headings.heading_features`.
- ``split_feature_sets`` (Lee 2017, with ``--split-models``): each CRF learns only the features of its own
  categories (:mod:`deident.detect.crf.featuresets`), and the quantitative one gains the digit-run lengths and
  separators of the token's window (``nw3=d2|/|d2``, ``nw5=...``), computed here.

One function, :func:`context_features`, computes them from the token texts, for training, for the reference
extractor and for the compiled tagger alike, so a model sees at inference exactly what it was trained on.
The compiled tagger takes the word's own ones (``fuzzy_dictionary``, ``term_lists``: a function of the word
alone) from :func:`word_context_features` into its per-word-type rows, once per type, and asks
:func:`context_features` for the positional ones only (``word_level=False``).
All are off by default: the bundled model's features are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from deident.detect.lexicon.data import load_drug_names, load_lexicon, load_stop_words, load_veto_terms

CONTEXT_SWITCHES = (
    "neighbour_dictionary",
    "fuzzy_dictionary",
    "term_lists",
    "trigger_window",
    "learned_headings",
    "split_feature_sets",
)
TRIGGER_WINDOW = 3
FUZZY_MIN_LENGTH = 5  # shorter words are within one edit of too many names to mean anything
_DICTIONARIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("first", ("first_names",)),
    ("last", ("last_names",)),
    ("place", ("cities", "us_counties", "states", "countries")),
)


@cache
def _dictionary(kind: str) -> frozenset[str]:
    names = dict(_DICTIONARIES)[kind]
    return frozenset().union(*(load_lexicon(n) for n in names))


class _OneEdit(NamedTuple):
    """What a word is looked up by in :func:`_near`, computed once for every kind."""

    deletions: list[str]  # the word less one letter
    keyed: list[str]  # the same, each keyed by the deleted letter's position (see _deletion_index)
    longer: list[str]  # the word keyed by each position at which a longer word may have lost a letter


def _one_edit(word: str) -> _OneEdit:
    deletions = [word[:i] + word[i + 1 :] for i in range(len(word))]
    return _OneEdit(
        deletions,
        [chr(i) + deleted for i, deleted in enumerate(deletions)],
        [chr(i) + word for i in range(len(word) + 1)],
    )


@cache
def _deletion_index(kind: str) -> frozenset[str]:
    """The one-letter deletions of the dictionary's words of at least FUZZY_MIN_LENGTH - 1 letters, each keyed by
    the position of the deleted letter (``chr(i)`` before it). Two words of one length are one substitution apart
    exactly when they share a key (symmetric deletion), and a word is a dictionary word less its i-th letter when
    ``chr(i)`` before it is a key: one set answers both. Built at load, in one comprehension (0.13 s for the three
    kinds; a set of plain deletions beside it had doubled that)."""
    words = [w for w in _dictionary(kind) if len(w) >= FUZZY_MIN_LENGTH - 1]
    return frozenset([chr(i) + w[:i] + w[i + 1 :] for w in words for i in range(len(w))])


def _near(kind: str, edit: _OneEdit) -> bool:
    """Whether a dictionary word of ``kind`` is within one edit of the word: one letter less (the word less one letter
    is a dictionary word), one substituted (a shared keyed deletion) or one more (a dictionary word less its i-th
    letter is the word). The index holds the words of at least FUZZY_MIN_LENGTH - 1 letters; a dictionary word is near
    itself (it shares its keys)."""
    index = _deletion_index(kind)
    return (
        not _dictionary(kind).isdisjoint(edit.deletions)
        or not index.isdisjoint(edit.keyed)
        or not index.isdisjoint(edit.longer)
    )


# Per word type, bounded: a run over millions of notes meets millions of word types.
_WORD_CACHE = 1 << 17


@lru_cache(maxsize=_WORD_CACHE)
def _membership(lower: str) -> tuple[str, ...]:
    """The dictionaries that hold the lower-cased word (alphabetic words only)."""
    if not lower[:1].isalpha():
        return ()
    return tuple(kind for kind, _ in _DICTIONARIES if lower in _dictionary(kind))


WORD_LEVEL_SWITCHES = ("fuzzy_dictionary", "term_lists")


def word_context_features(switches: Mapping[str, bool], lower: str) -> tuple[str, ...]:
    """The switched-on context features of the lower-cased word itself (``dx=``, ``dfz=``, ``lst=``), in the
    order :func:`context_features` lists them first."""
    return _own_features(lower, switches.get("fuzzy_dictionary", False), switches.get("term_lists", False))


def _own_features(lower: str, fuzzy: bool, lists: bool) -> tuple[str, ...]:
    return (_dictionary_features(lower) if fuzzy else ()) + (_list_features(lower) if lists else ())


@cache
def _longest_word() -> int:
    """The length of the longest word of any dictionary."""
    return max(len(word) for kind, _ in _DICTIONARIES for word in _dictionary(kind))


# Cached per word alone: a cache keyed by the word itself keeps no key object for the collector to walk.
@lru_cache(maxsize=_WORD_CACHE)
def _dictionary_features(lower: str) -> tuple[str, ...]:
    if not lower[:1].isalpha():
        return ()
    exact = _membership(lower)
    out = [f"dx={kind}" for kind in exact]
    # A word two letters longer than every dictionary word is within one edit of none (and its edits, built for a
    # word of thousands of letters, cost the square of its length).
    if FUZZY_MIN_LENGTH <= len(lower) <= _longest_word() + 1 and len(exact) < len(_DICTIONARIES):
        edit = _one_edit(lower)
        out += [f"dfz={kind}" for kind, _ in _DICTIONARIES if kind not in exact and _near(kind, edit)]
    return tuple(out)


@lru_cache(maxsize=_WORD_CACHE)
def _list_features(lower: str) -> tuple[str, ...]:
    if not lower[:1].isalpha():
        return ()
    found = (("lst=drug", load_drug_names()), ("lst=veto", load_veto_terms()), ("lst=stop", load_stop_words()))
    return tuple(feature for feature, words in found if lower in words)


def context_features(
    switches: Mapping[str, bool],
    texts: Sequence[str],
    triggers: Mapping[tuple[str, int], str],
    word_level: bool = True,
) -> list[list[str]]:
    """The switched-on context features of each token (no duplicates within a token), from the token texts
    and the model's learned ``triggers``; empty lists when every switch is off. ``word_level=False`` leaves
    out the word's own ones (:func:`word_context_features`), for a caller that adds them per word type."""
    n = len(texts)
    out: list[list[str]] = [[] for _ in range(n)]
    fuzzy = word_level and switches.get("fuzzy_dictionary", False)
    lists = word_level and switches.get("term_lists", False)
    if fuzzy or lists:
        for i, text in enumerate(texts):
            out[i].extend(_own_features(text.lower(), fuzzy, lists))
    for i, feature in positional_context_features(switches, texts, triggers):
        out[i].append(feature)
    return out


def positional_context_features(
    switches: Mapping[str, bool],
    texts: Sequence[str],
    triggers: Mapping[tuple[str, int], str],
    found_triggers: Sequence[tuple[int, tuple[str, ...]]] | None = None,
) -> list[tuple[int, str]]:
    """The switched-on context features that depend on a token's neighbours, as (token index, feature) pairs: per
    token in the order :func:`context_features` lists them after the word's own, no pair twice. Sparse, because most
    tokens have none (a list per token would be most of what a long note allocates here). ``found_triggers``: (token
    index, :func:`trigger_categories`) of each token that is a learned trigger, in token order, when the caller knows
    them (the compiled tagger, per word type); else they are looked up here."""
    neighbours = switches.get("neighbour_dictionary", False)
    window = switches.get("trigger_window", False)
    numbers = switches.get("split_feature_sets", False)
    found: list[tuple[int, str]] = []
    if not (neighbours or window or numbers):
        return found
    n = len(texts)
    lowers = [t.lower() for t in texts] if neighbours or (window and found_triggers is None) else []
    if neighbours:
        kinds = [_membership(lower) for lower in lowers]
        for i in range(n):
            if i > 0:
                found.extend((i, f"nd-1={kind}") for kind in kinds[i - 1])
            if i + 1 < n:
                found.extend((i, f"nd+1={kind}") for kind in kinds[i + 1])
    if window:
        if found_triggers is None:
            categories = trigger_categories(triggers)
            found_triggers = [(j, seen) for j, lower in enumerate(lowers) if (seen := categories.get(lower))]
        # From each trigger to the tokens within reach of it (few notes hold many), not from every token to its window.
        near: dict[int, set[str]] = {}
        for j, seen in found_triggers:
            for i in range(max(0, j - TRIGGER_WINDOW), j):  # the trigger comes after token i
                near.setdefault(i, set()).update(f"tw>={c}" for c in seen)
            for i in range(j + 1, min(n, j + TRIGGER_WINDOW + 1)):  # the trigger comes before token i
                near.setdefault(i, set()).update(f"tw<={c}" for c in seen)
        found.extend((i, feature) for i in sorted(near) for feature in sorted(near[i]))
    if numbers:
        found.extend((i, feature) for i, added in enumerate(number_window_features(texts)) for feature in added)
    return found


def _number_class(text: str) -> str:
    """A token as the number window sees it: its digit count, a separator itself, or a word."""
    if text.isdecimal():
        return f"d{min(len(text), 8)}"
    if len(text) == 1 and not text.isalnum() and not text.isspace():
        return text
    return "w"


def number_window_features(texts: Sequence[str]) -> list[list[str]]:
    """Digit-run lengths and separators of the token's +-1 and +-2 windows (``nw3=``, ``nw5=``), for tokens
    whose window holds a number (dates, phone numbers and ids differ in exactly these)."""
    classes = ["_", "_", *(_number_class(t) for t in texts), "_", "_"]
    digits = [c[0] == "d" for c in classes]
    out: list[list[str]] = []
    for i in range(len(texts)):
        feats: list[str] = []
        if any(digits[i + 1 : i + 4]):
            feats.append(f"nw3={classes[i + 1]}|{classes[i + 2]}|{classes[i + 3]}")
        if any(digits[i : i + 5]):
            feats.append("nw5=" + "|".join(classes[i : i + 5]))
        out.append(feats)
    return out


def trigger_categories(triggers: Mapping[tuple[str, int], str]) -> dict[str, tuple[str, ...]]:
    """Learned trigger word (lower case) -> the categories it was learned for (at any offset), sorted."""
    by_word: dict[str, set[str]] = {}
    for (word, _), category in triggers.items():
        by_word.setdefault(word, set()).add(category)
    return {w: tuple(sorted(c)) for w, c in by_word.items()}


__all__ = [
    "CONTEXT_SWITCHES",
    "WORD_LEVEL_SWITCHES",
    "context_features",
    "positional_context_features",
    "trigger_categories",
    "word_context_features",
]
