from __future__ import annotations

import pytest

from deident.core.document import AnnotatedDocument, Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.crf.scoring import binary_token_scores, evaluate

TEXT = "Seen by Dr. Smith on 3/4 with wife."
GOLD = AnnotatedDocument(Document("1_1", TEXT), (Span(12, 17, Label.DOCTOR), Span(21, 24, Label.DATE)))


@pytest.mark.parametrize(
    ("predicted", "precision", "recall"),
    [
        ([Span(12, 17, Label.DOCTOR), Span(21, 24, Label.DATE)], 1.0, 1.0),
        ([Span(12, 14, Label.PATIENT)], 1.0, 0.5),  # any overlap marks the whitespace token
        ([Span(0, 4, Label.DOCTOR), Span(21, 24, Label.DATE)], 0.5, 0.5),
        ([], 1.0, 0.0),
    ],
)
def test_binary_token_scores(predicted: list[Span], precision: float, recall: float) -> None:
    scores = binary_token_scores([GOLD], [predicted])
    assert (scores["precision"], scores["recall"]) == (precision, recall)


def test_evaluate_gives_binary_token_figures() -> None:
    result = evaluate([GOLD], [[Span(12, 17, Label.DOCTOR)]])
    assert result["binary_token"]["recall"] == pytest.approx(0.5)
