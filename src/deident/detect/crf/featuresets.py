"""Classifier-specific feature sets for the two CRFs of ``--split-models`` (Lee 2017): ``split_feature_sets``.

A CRF of the quantitative categories (DATE, AGE, CONTACT, ID) has no use for name dictionaries or for triggers and
lexicon entries learned for names; a CRF of the name-like ones (NAME, LOCATION, PROFESSION) none for digit counts.
Under the switch each CRF is trained on the features of its own categories only (:func:`feature_filter`); every
feature is still computed at inference, but one a CRF was not trained on has no weight in it, so each CRF scores
exactly what it was trained on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from deident.core.labels import Category, Label

# The categories of the two --split-models CRFs (Lee 2017); deident.detect.crf.train trains one CRF per set.
NAMELIKE = frozenset({Category.NAME, Category.LOCATION, Category.PROFESSION})
QUANTITATIVE = frozenset({Category.DATE, Category.AGE, Category.CONTACT, Category.ID})
# Features whose value is a category: learned triggers (at an offset, or in a window) and the learned lexicon.
_CATEGORY_VALUED = re.compile(r"(?:trg-?\d|tw[<>]|lex)=(\w+)")
_HIT = re.compile(r"hit:[^:]*:(\w+)")
# The name and place dictionaries (:mod:`deident.detect.crf.context`), for the name-like categories only.
_DICTIONARY = re.compile(r"(?:dx|dfz|nd[-+]1)=")
# Digit counts (the token's own and its number window's), for the quantitative categories only.
_DIGITS = re.compile(r"(?:dg\d+$|num=|hasdig$|nw[35]=)")
_LABELS = {label.value: label for label in Label}


def _category_of(value: str) -> Category | None:
    if value in Category.__members__:
        return Category(value)
    label = _LABELS.get(value)
    return label.category if label is not None else None


def feature_filter(categories: Collection[Category]) -> Callable[[str], bool]:
    """Whether a CRF of ``categories`` keeps a (plain, not EasyAdapt-prefixed) feature."""
    own = frozenset(categories)
    names = bool(own & NAMELIKE)
    numbers = bool(own & QUANTITATIVE)

    def keeps(feature: str) -> bool:
        match = _CATEGORY_VALUED.match(feature) or _HIT.match(feature)
        if match is not None:
            category = _category_of(match.group(1))
            return category is None or category in own
        if _DICTIONARY.match(feature):
            return names
        if _DIGITS.match(feature):
            return numbers
        return True

    return keeps


__all__ = ["NAMELIKE", "QUANTITATIVE", "feature_filter"]
