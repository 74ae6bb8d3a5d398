from __future__ import annotations

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.stage2.explain import explain
from deident.stage2.filter.span_classifier import LinearModel, SpanFilter
from deident.stage2.reconcile import reconcile_document
from deident.stage2.union import union_candidates

TEXT = "Seen by Dr Zyxwerth today. Zyxwerth called."


def _final() -> tuple[Span, ...]:
    merged = union_candidates(
        [Span(11, 19, Label.DOCTOR, "crf", 0.8), Span(11, 19, Label.DOCTOR, "lexicon.last", None, ("list=surnames",))]
    )
    kept = SpanFilter({"names": LinearModel({"src=crf": 2.0}, 0.0)}, {"names": 0.5}).apply(Document("d", TEXT), merged)
    return reconcile_document(Document("d", TEXT), kept)


@pytest.mark.parametrize(
    ("index", "fragment"),
    [
        (0, "DOCTOR [11, 19)"),
        (0, "proposed by lexicon.last DOCTOR, crf DOCTOR (0.80)"),
        (0, "evidence: lexicon.last: list=surnames"),
        (0, "filter: names p=0.881 >= t=0.500, kept"),
        (1, "proposed by reconcile DOCTOR (0.88)"),
        (1, "reconcile: same string tagged DOCTOR elsewhere in the note"),
    ],
)
def test_explain_mentions(index, fragment):
    assert fragment in explain(_final()[index])


def test_explain_is_phi_free_and_says_when_no_filter_ran():
    span = union_candidates([Span(11, 19, Label.DOCTOR, "crf", 0.8)])[0]
    text = explain(span)
    assert "Zyxwerth" not in text and "filter: not applied" in text
