"""Classifier-specific feature sets of the two split CRFs (issue 18 item 6, Lee 2017): which features each keeps."""

from __future__ import annotations

import pytest

from deident.core.labels import Category
from deident.detect.crf.featuresets import feature_filter

QUANTITATIVE = frozenset({Category.DATE, Category.AGE, Category.CONTACT, Category.ID})
NAMELIKE = frozenset({Category.NAME, Category.LOCATION, Category.PROFESSION})


@pytest.mark.parametrize(
    ("feature", "quantitative", "namelike"),
    [
        # name dictionaries and name-learned data: the name-like CRF only
        ("dx=first", False, True),
        ("dfz=last", False, True),
        ("nd-1=place", False, True),
        ("nd+1=first", False, True),
        ("lex=NAME", False, True),
        ("trg-1=NAME", False, True),
        ("trg2=LOCATION", False, True),
        ("tw<=PROFESSION", False, True),
        ("hit:lexicon.first_names:PATIENT", False, True),
        # date-learned data and digit counts: the quantitative CRF only
        ("trg-2=DATE", True, False),
        ("tw>=AGE", True, False),
        ("hit:pattern.phone:PHONE", True, False),
        ("dg4", True, False),
        ("num=3", True, False),
        ("hasdig", True, False),
        ("nw3=d2|/|d2", True, False),
        ("nw5=_|w|d4|-|d4", True, False),
        # everything else: both
        ("bias", True, True),
        ("w=__rare__", True, True),
        ("w-1=dr", True, True),
        ("sh=Xx", True, True),
        ("lsh=dddd", True, True),
        ("cl=12", True, True),
        ("sec=SOCIAL", True, True),
        ("lsec=wound_care", True, True),
        ("b-1=dr|__rare__", True, True),
        ("lst=stop", True, True),
        ("hit:other:UNKNOWN_LABEL", True, True),
        ("w=dg4", True, True),  # the word "dg4", not a digit count
        ("w=lex=NAME", True, True),
    ],
)
def test_each_crf_keeps_the_features_of_its_categories(feature: str, quantitative: bool, namelike: bool) -> None:
    assert feature_filter(QUANTITATIVE)(feature) is quantitative
    assert feature_filter(NAMELIKE)(feature) is namelike
    assert feature_filter(QUANTITATIVE | NAMELIKE)(feature) is True
