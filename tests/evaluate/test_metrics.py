"""Per-document metrics on hand-counted examples (the hand count is in the comments)."""

import pytest

from deident.core import Category, Label, Span
from deident.evaluate.metrics import (
    TokenGrid,
    binary_token_counts,
    confusion_counts,
    entity_counts,
    instance_counts,
    typed_token_counts,
)
from deident.text import whitespace_tokens

P, D, DOC = Label.PATIENT, Label.DATE, Label.DOCTOR

# tokens: 0 "Pt" 1 "John" 2 "Smith" 3 "seen" 4 "3/14/05," 5 "Dr." 6 "Lee."
TEXT = "Pt John Smith seen 3/14/05, Dr. Lee."
GOLD = [Span(3, 13, P), Span(19, 26, D), Span(32, 35, DOC)]  # "John Smith", "3/14/05", "Lee"
PRED = [
    Span(3, 7, P),  # "John": partial name
    Span(19, 27, D),  # "3/14/05,": one character too long (relaxed match)
    Span(28, 31, P),  # "Dr.": spurious
    Span(32, 35, P),  # "Lee": right offsets, wrong label
]


def grid(text: str = TEXT) -> TokenGrid:
    return TokenGrid.of(whitespace_tokens(text))


def test_example_offsets():
    assert [TEXT[s.start : s.end] for s in GOLD] == ["John Smith", "3/14/05", "Lee"]
    assert [TEXT[s.start : s.end] for s in PRED] == ["John", "3/14/05,", "Dr.", "Lee"]


def test_token_grid_touched():
    g = grid()
    assert list(g.touched(Span(3, 13, P))) == [1, 2]
    assert list(g.touched(Span(7, 8, P))) == []  # the space between two tokens touches none
    assert list(g.touched(Span(26, 27, P))) == [4]  # the comma is part of token 4
    assert list(g.touched(Span(0, len(TEXT), P))) == list(range(7))


def test_binary_token_hand_count():
    # gold tokens {1,2,4,6}; predicted tokens {1,4,5,6}: TP {1,4,6} = 3, FP {5} = 1, FN {2} = 1
    counts = binary_token_counts(grid(), GOLD, PRED)
    o = counts.overall
    assert (o.tp, o.fp, o.fn) == (3, 1, 1)
    assert (o.precision, o.recall) == (0.75, 0.75)
    # PATIENT row: gold tokens {1,2}, found by any prediction {1} -> R 1/2;
    # tokens predicted PATIENT {1,5,6}, touched by any gold {1,6} -> P 2/3
    patient = counts.by_label[P]
    assert (patient.recall, patient.precision) == (0.5, pytest.approx(2 / 3))
    # DOCTOR row: gold {6}, found (predicted as PATIENT, labels do not matter) -> R 1; no DOCTOR
    # predictions but a gold DOCTOR token -> P 0.0 by the zero convention
    assert (counts.by_label[DOC].recall, counts.by_label[DOC].precision) == (1.0, 0.0)
    # NAME category: gold {1,2,6} found {1,6}; predicted {1,5,6} correct {1,6}
    name = counts.by_category[Category.NAME]
    assert (name.gold, name.gold_found, name.pred, name.pred_correct) == (3, 2, 3, 2)


def test_binary_token_ignored_gold():
    # the HIPAA view ignores the DOCTOR token 6: gold {1,2,4}, predicted {1,4,5}: TP 2, FP 1, FN 1
    gold_h = [s for s in GOLD if s.label is not DOC]
    counts = binary_token_counts(grid(), gold_h, PRED, ignored_gold=[GOLD[2]], row_labels={P, D})
    assert (counts.overall.tp, counts.overall.fp, counts.overall.fn) == (2, 1, 1)
    assert set(counts.by_label) == {P, D}


def test_typed_token_hand_count():
    # gold pairs (1,P) (2,P) (4,D) (6,DOC); predicted (1,P) (4,D) (5,P) (6,P): TP 2, FP 2, FN 2
    counts = typed_token_counts(grid(), GOLD, PRED)
    assert (counts.overall.tp, counts.overall.fp, counts.overall.fn) == (2, 2, 2)
    assert counts.by_label[DOC] == type(counts.overall)(gold=1, pred=0, gold_found=0, pred_correct=0)
    # NAME = PATIENT + DOCTOR rows: gold 3, pred 3, TP 1
    assert counts.by_category[Category.NAME].tp == 1


def test_typed_token_two_labels_on_one_token():
    # "3/14JOHN" is one token touched by a DATE and a PATIENT span: two (token, label) units
    text = "A 3/14JOHN B"
    gold = [Span(2, 6, D), Span(6, 10, P)]
    pred = [Span(2, 6, D)]
    typed = typed_token_counts(grid(text), gold, pred)
    assert (typed.overall.tp, typed.overall.fp, typed.overall.fn) == (1, 0, 1)
    binary = binary_token_counts(grid(text), gold, pred)
    assert (binary.overall.tp, binary.overall.fp, binary.overall.fn) == (1, 0, 0)
    assert binary.by_label[P].recall == 1.0  # the token is removed, whatever the label


def test_entity_strict_and_relaxed_hand_count():
    # strict: no prediction has the exact offsets and label of a gold span
    strict = entity_counts(GOLD, PRED, 0)
    assert (strict.overall.tp, strict.overall.fp, strict.overall.fn) == (0, 4, 3)
    # relaxed: only DATE [19,27) matches gold [19,26) (same start and label, end off by 1);
    # "John" ends 6 early and "Lee" has the wrong label: P 1/4, R 1/3
    relaxed = entity_counts(GOLD, PRED, 2)
    assert (relaxed.overall.precision, relaxed.overall.recall) == (0.25, pytest.approx(1 / 3))
    assert relaxed.by_label[D].f1 == 1.0


@pytest.mark.parametrize(
    ("pred", "strict", "relaxed"),
    [
        (Span(0, 5, D), True, True),
        (Span(0, 7, D), False, True),  # end +2: relaxed
        (Span(0, 3, D), False, True),  # end -2: relaxed
        (Span(0, 8, D), False, False),  # end +3: too far
        (Span(1, 5, D), False, False),  # start differs: never
        (Span(0, 5, Label.AGE), False, False),  # label differs: never
    ],
)
def test_entity_matching_rules(pred, strict, relaxed):
    gold = [Span(0, 5, D)]
    assert entity_counts(gold, [pred], 0).overall.tp == int(strict)
    assert entity_counts(gold, [pred], 2).overall.tp == int(relaxed)


def test_instance_hand_count():
    # merged predictions [3,7) [19,27) [28,31) [32,35): "John Smith" is reached but "Smith" is not
    # covered; the date and "Lee" are covered (any label): fully 2/3, any overlap 3/3
    counts = instance_counts(TEXT, GOLD, PRED)
    assert (counts.overall.fully_contained, counts.overall.any_overlap, counts.overall.gold) == (2, 3, 3)
    assert counts.by_label[P].recall_fully_contained == 0.0
    assert counts.by_label[DOC].recall_fully_contained == 1.0


@pytest.mark.parametrize(
    ("pred", "fully", "overlap"),
    [
        ([Span(3, 7, P), Span(8, 13, P)], True, True),  # two spans, the space between need not be covered
        ([Span(3, 10, P), Span(5, 13, P)], True, True),  # overlapping predictions
        ([Span(0, 20, D)], True, True),  # one longer span of another label
        ([Span(8, 13, P)], False, True),  # partial coverage
        ([Span(3, 12, P)], False, True),  # last character missing
        ([Span(0, 2, P), Span(14, 18, P)], False, False),  # neighbours only
        ([], False, False),
    ],
)
def test_fully_contained_and_overlap(pred, fully, overlap):
    counts = instance_counts(TEXT, [Span(3, 13, P)], pred).overall
    assert (counts.fully_contained, counts.any_overlap) == (int(fully), int(overlap))


def test_binary_tokens_with_overlapping_predictions_count_once():
    counts = binary_token_counts(grid(), [Span(3, 13, P)], [Span(3, 10, P), Span(5, 13, D)]).overall
    assert (counts.tp, counts.fp, counts.fn) == (2, 0, 0)


def test_span_touching_punctuation():
    # gold "Lee" inside token "Lee."; a prediction including the period is the same token
    gold, pred = [Span(32, 35, DOC)], [Span(32, 36, DOC)]
    assert binary_token_counts(grid(), gold, pred).overall.f1 == 1.0
    assert entity_counts(gold, pred, 0).overall.tp == 0
    assert entity_counts(gold, pred, 2).overall.tp == 1
    assert instance_counts(TEXT, gold, pred).overall.fully_contained == 1


def test_confusion_hand_count():
    # PATIENT->PATIENT ("John"), DATE->DATE, DOCTOR->PATIENT ("Lee"); "Dr." overlaps no gold
    assert confusion_counts(GOLD, PRED) == {
        ("PATIENT", "PATIENT"): 1,
        ("DATE", "DATE"): 1,
        ("DOCTOR", "PATIENT"): 1,
        ("none", "PATIENT"): 1,
    }


def test_confusion_largest_overlap_then_alphabetical():
    gold = [Span(0, 4, D), Span(10, 14, P)]
    pred = [Span(0, 2, D), Span(2, 4, Label.AGE), Span(10, 11, DOC), Span(11, 14, P)]
    # tie 2/2 on the first goes to AGE (alphabetical); PATIENT covers 3 of 4 on the second
    assert confusion_counts(gold, pred) == {("DATE", "AGE"): 1, ("PATIENT", "PATIENT"): 1}
    assert confusion_counts(gold, []) == {("DATE", "none"): 1, ("PATIENT", "none"): 1}


def test_empty_document():
    g = grid("")
    assert len(g) == 0
    assert binary_token_counts(g, [], []).overall.f1 == 1.0
    assert typed_token_counts(g, [], []).overall.f1 == 1.0
    assert entity_counts([], [], 2).overall.f1 == 1.0
    assert instance_counts("", [], []).overall.recall_fully_contained == 1.0
