import pytest

from deident.evaluate import Counts, InstanceCounts, f_beta, safe_ratio


@pytest.mark.parametrize(
    ("counts", "precision", "recall", "f1"),
    [
        # nothing gold, nothing predicted: perfect by convention
        (Counts(), 1.0, 1.0, 1.0),
        # gold but no predictions: precision's empty denominator gives 0.0 (one side is not empty)
        (Counts(gold=2), 0.0, 0.0, 0.0),
        # predictions but no gold: recall's empty denominator gives 0.0
        (Counts(pred=3), 0.0, 0.0, 0.0),
        # 2 of 3 predicted correct, 2 of 4 gold found: P 2/3, R 1/2, F1 = 2PR/(P+R) = 4/7
        (Counts(gold=4, pred=3, gold_found=2, pred_correct=2), 2 / 3, 0.5, 4 / 7),
    ],
)
def test_counts_scores_and_zero_convention(counts, precision, recall, f1):
    assert counts.precision == pytest.approx(precision)
    assert counts.recall == pytest.approx(recall)
    assert counts.f1 == pytest.approx(f1)


def test_counts_tp_fp_fn_and_f2():
    counts = Counts(gold=4, pred=3, gold_found=2, pred_correct=2)
    assert (counts.tp, counts.fp, counts.fn) == (2, 1, 2)
    # F2 = 5PR/(4P+R) = 5*(1/3)/(8/3+1/2) = 10/19
    assert counts.f2 == pytest.approx(10 / 19)
    assert counts + Counts(1, 1, 1, 1) == Counts(5, 4, 3, 3)


def test_instance_counts_zero_convention():
    assert InstanceCounts().recall_fully_contained == 1.0
    assert InstanceCounts(pred=2).recall_any_overlap == 0.0
    counts = InstanceCounts(gold=4, pred=1, fully_contained=1, any_overlap=3)
    assert (counts.recall_fully_contained, counts.recall_any_overlap) == (0.25, 0.75)


def test_helpers():
    assert safe_ratio(0, 0, both_sides_empty=True) == 1.0
    assert safe_ratio(0, 0, both_sides_empty=False) == 0.0
    assert safe_ratio(1, 4, both_sides_empty=False) == 0.25
    assert f_beta(0.0, 0.0, 1.0) == 0.0
    assert f_beta(1.0, 0.5, 1.0) == pytest.approx(2 / 3)


def test_counts_add_field_by_field() -> None:
    assert Counts(1, 2, 3, 4) + Counts(10, 20, 30, 40) == Counts(11, 22, 33, 44)
    assert InstanceCounts(1, 2, 3, 4) + InstanceCounts(10, 20, 30, 40) == InstanceCounts(11, 22, 33, 44)
