"""What a run states about its operating point: thresholds and the recall and precision expected there."""

from __future__ import annotations

from pathlib import Path

import pytest

from deident.model.bundle import ModelBundle
from deident.model.manifest import default_model_dir, read_manifest
from deident.model.operating_point import DEFAULT_ROW, OperatingPoint, operating_point

from .test_bundle import crf_only_model


def _bundled() -> ModelBundle:
    return ModelBundle.read(default_model_dir())


def test_default_point_is_the_cross_validated_row_of_the_bundled_model() -> None:
    manifest = read_manifest(default_model_dir())
    point = operating_point(_bundled())
    assert point is not None and point.recall_target is None
    row = manifest["metrics"]["pipeline_cv"]["ablation"][DEFAULT_ROW]
    assert (point.expected_recall, point.expected_precision) == (row["recall"], row["precision"])
    assert point.thresholds == manifest["span_filter"]["thresholds"]
    assert "cross-validation" in point.basis and "model's default" in point.describe()


@pytest.mark.parametrize("target", [0.5, 0.9, 0.95])
def test_a_recall_target_picks_one_calibrated_threshold(target: float) -> None:
    point = operating_point(_bundled(), target)
    assert point is not None and point.recall_target == target
    assert len(set(point.thresholds.values())) == 1  # one threshold for every group, from the calibration table
    assert point.expected_recall >= target
    assert f"recall target {target:g}" in point.describe() and "above" not in point.describe()


def test_an_unreachable_target_is_said_to_be_one() -> None:
    point = operating_point(_bundled(), 0.99999)
    assert point is not None and point.expected_recall < 0.99999
    assert "above the highest recall" in point.describe()


def test_higher_targets_never_expect_less_recall() -> None:
    points = [operating_point(_bundled(), t) for t in (0.8, 0.9, 0.95, 0.97)]
    recalls = [p.expected_recall for p in points if p is not None]
    assert recalls == sorted(recalls) and len(recalls) == 4


def test_a_model_without_a_span_filter_has_no_operating_point(tmp_path: Path) -> None:
    assert operating_point(ModelBundle.read(crf_only_model(tmp_path))) is None


def test_as_dict_is_plain_data() -> None:
    point = OperatingPoint(0.9, {"names": 0.2, "dates": 0.1}, 0.91234, 0.85555, "a test")
    assert point.as_dict() == {
        "recall_target": 0.9,
        "thresholds": {"dates": 0.1, "names": 0.2},
        "expected_recall": 0.9123,
        "expected_precision": 0.8556,
        "basis": "a test",
    }
