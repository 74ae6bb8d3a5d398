"""What a run states about its operating point: thresholds and the recall and precision expected there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from deident.core.errors import ModelError
from deident.model.bundle import ModelBundle
from deident.model.manifest import MANIFEST, default_model_dir, read_manifest
from deident.model.operating_point import DEFAULT_ROW, OperatingPoint, operating_point
from deident.pipelines import default_pipeline
from deident.stage2.filter.span_classifier import SpanFilterStage

from .test_bundle import crf_only_model


def _bundled() -> ModelBundle:
    return ModelBundle.read(default_model_dir())


def _copy_with(tmp_path: Path, edit: Any) -> ModelBundle:
    """The bundled model copied to ``tmp_path`` with its manifest changed by ``edit`` (the manifest
    itself is not checksummed)."""
    target = tmp_path / "model"
    shutil.copytree(default_model_dir(), target)
    manifest = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
    edit(manifest)
    (target / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return ModelBundle.read(target)


def _row(threshold: float, recall: float, precision: float) -> dict[str, Any]:
    return {
        "thresholds": threshold,
        "recall": recall,
        "precision": precision,
        "fully_contained": recall,
        "recall_interval": [round(recall - 0.02, 4), min(round(recall + 0.02, 4), 1.0)],
        "precision_interval": [precision - 0.03, min(precision + 0.03, 1.0)],
    }


# An invented held-out table: recall falls and precision rises with the threshold.
HELD_OUT = {
    "corpus": "invented-notes",
    "about": "made up for this test",
    "level": 0.95,
    "groups": 12,
    "default": {**_row(0.0, 0.95, 0.9), "thresholds": {"names": 0.2, "numeric": 0.5, "locations": 0.1}},
    "sweep": [_row(0.5, 0.93, 0.95), _row(0.0, 0.99, 0.7), _row(0.1, 0.97, 0.85), _row(0.3, 0.96, 0.9)],
}


def test_the_bundled_model_expects_what_was_measured_on_held_out_notes() -> None:
    held_out = read_manifest(default_model_dir())["span_filter"]["held_out"]
    point = operating_point(_bundled())
    assert point is not None and point.recall_target is None
    row = held_out["default"]
    assert (point.expected_recall, point.expected_precision) == (row["recall"], row["precision"])
    assert point.recall_interval == tuple(row["recall_interval"])
    assert held_out["corpus"] in point.basis and "bootstrap" in point.basis
    # measured at the operating point the model ships, on the scheme it is scored in
    manifest = read_manifest(default_model_dir())
    assert row["thresholds"] == manifest["span_filter"]["thresholds"] and held_out["scheme"] == manifest["scheme"]
    assert [r["thresholds"] for r in held_out["sweep"]] == sorted(r["thresholds"] for r in held_out["sweep"])
    assert "95% interval" in point.describe() and "model's default" in point.describe()


def test_held_out_figures_are_preferred_to_cross_validation(tmp_path: Path) -> None:
    point = operating_point(_copy_with(tmp_path, lambda m: m["span_filter"].update(held_out=HELD_OUT)))
    assert point is not None
    assert (point.expected_recall, point.expected_precision) == (0.95, 0.9)
    assert point.thresholds == {"names": 0.2, "numeric": 0.5, "locations": 0.1}
    assert point.recall_interval == (0.93, 0.97) and "invented-notes" in point.basis


def _cross_validated_only(manifest: dict[str, Any]) -> None:
    manifest["span_filter"].pop("held_out", None)
    row = {"recall": 0.987, "precision": 0.921}
    manifest.setdefault("metrics", {})["pipeline_cv"] = {
        "folds": 5,
        "group_by": "patient",
        "ablation": {DEFAULT_ROW: row},
    }


def test_without_held_out_figures_the_cross_validated_row_is_used_and_called_optimistic(tmp_path: Path) -> None:
    bundle = _copy_with(tmp_path, _cross_validated_only)
    manifest = read_manifest(bundle.directory)
    point = operating_point(bundle)
    assert point is not None
    row = manifest["metrics"]["pipeline_cv"]["ablation"][DEFAULT_ROW]
    assert (point.expected_recall, point.expected_precision) == (row["recall"], row["precision"])
    assert point.thresholds == manifest["span_filter"]["thresholds"]
    assert "cross-validation" in point.basis and "optimistic" in point.basis
    assert point.recall_interval is None and "interval" not in point.describe()


@pytest.mark.parametrize(
    ("target", "threshold", "recall"),
    [(0.9, 0.5, 0.93), (0.93, 0.5, 0.93), (0.96, 0.3, 0.96), (0.965, 0.1, 0.97), (0.99, 0.0, 0.99)],
)
def test_a_recall_target_picks_the_highest_held_out_threshold_that_reaches_it(
    tmp_path: Path, target: float, threshold: float, recall: float
) -> None:
    point = operating_point(_copy_with(tmp_path, lambda m: m["span_filter"].update(held_out=HELD_OUT)), target)
    assert point is not None and point.recall_target == target
    assert set(point.thresholds.values()) == {threshold} and point.expected_recall == recall
    assert "chosen on these same notes" in point.basis and "above" not in point.describe()


def test_an_unreachable_target_is_said_to_be_one(tmp_path: Path) -> None:
    point = operating_point(_copy_with(tmp_path, lambda m: m["span_filter"].update(held_out=HELD_OUT)), 0.999)
    assert point is not None and point.expected_recall == 0.99 and set(point.thresholds.values()) == {0.0}
    assert "above the highest recall" in point.describe()


@pytest.mark.parametrize("target", [0.5, 0.9, 0.95])
def test_without_held_out_figures_a_target_picks_one_calibrated_threshold(tmp_path: Path, target: float) -> None:
    point = operating_point(_copy_with(tmp_path, lambda m: m["span_filter"].pop("held_out", None)), target)
    assert point is not None and point.recall_target == target
    assert len(set(point.thresholds.values())) == 1  # one threshold for every group, from the calibration table
    assert point.expected_recall >= target
    assert "calibration" in point.basis and "above" not in point.describe()


@pytest.mark.parametrize("target", [0.0, -0.1, 1.5])
def test_a_target_that_is_no_rate_is_refused(target: float) -> None:
    with pytest.raises(ModelError, match="not a rate"):
        operating_point(_bundled(), target)


def test_higher_targets_never_expect_less_recall() -> None:
    points = [operating_point(_bundled(), t) for t in (0.8, 0.9, 0.95, 0.97)]
    recalls = [p.expected_recall for p in points if p is not None]
    assert recalls == sorted(recalls) and len(recalls) == 4


@pytest.mark.parametrize("target", [None, 0.9, 0.97])
def test_the_pipeline_runs_at_the_thresholds_the_point_states(target: float | None) -> None:
    bundle = _bundled()
    point = operating_point(bundle, target)
    assert point is not None
    stages = [s for s in default_pipeline(bundle, "physionet", target).stages if isinstance(s, SpanFilterStage)]
    assert len(stages) == 1 and dict(stages[0].span_filter.thresholds) == dict(point.thresholds)


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
        "measured_scheme": None,
        "output_scheme": None,
    }
    with_interval = OperatingPoint(None, {"names": 0.2}, 0.9, 0.8, "a test", (0.88123, 0.92), (0.7, 0.9), 0.95)
    assert with_interval.as_dict()["expected_recall_interval"] == [0.8812, 0.92]
    assert with_interval.as_dict()["interval_level"] == 0.95


@pytest.mark.parametrize(
    ("output_scheme", "stated"),
    [
        ("hipaa", True),  # the users' default: the physionet figures must not pass for its own
        ("i2b2-2014", True),
        ("physionet", False),  # the convention the figures were measured under
        (None, False),  # no output scheme stated
    ],
)
def test_the_operating_point_names_the_scheme_it_was_measured_under(output_scheme: str | None, stated: bool) -> None:
    point = operating_point(_bundled(), None, output_scheme)
    assert point is not None
    assert point.as_dict()["measured_scheme"] == "physionet" and point.as_dict()["output_scheme"] == output_scheme
    note = f"measured under the physionet convention, not this run's output scheme {output_scheme}"
    assert (note in point.describe()) is stated


def test_figures_without_a_held_out_scheme_were_measured_under_the_training_scheme(tmp_path: Path) -> None:
    point = operating_point(_copy_with(tmp_path, lambda m: m["span_filter"].pop("held_out", None)), None, "hipaa")
    assert point is not None and point.measured_scheme == "physionet"


def test_with_neither_held_out_nor_cross_validated_figures_the_out_of_fold_calibration_is_stated(
    tmp_path: Path,
) -> None:
    def calibrated_only(manifest: dict[str, Any]) -> None:
        manifest["span_filter"].pop("held_out", None)
        manifest.get("metrics", {}).pop("pipeline_cv", None)

    bundle = _copy_with(tmp_path, calibrated_only)
    expected = read_manifest(bundle.directory)["span_filter"]["expected"]
    point = operating_point(bundle)
    assert point is not None and "calibration" in point.basis
    assert (point.expected_recall, point.expected_precision) == (expected["recall"], expected["precision"])
