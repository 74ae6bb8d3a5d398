"""The operating point a run uses, and the token recall and precision expected there.

The default pipeline's span filter keeps a candidate when its probability reaches its group's
threshold. The model directory says what to expect: at the model's own thresholds, the pooled
5-fold patient-grouped cross-validation of the whole pipeline (the "stage 1 + filter" row of the
model card's ablation); at the threshold chosen for ``--recall-target``, the row of the filter's
calibration table (token recall and precision of the out-of-fold candidates at that threshold).
Both are estimates on the model's training notes; a run states them so that a reader of its
report knows what the output was tuned for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deident.core.errors import ModelError
from deident.model.bundle import DEFAULT_ROW, FilterSpec, ModelBundle

__all__ = ["DEFAULT_ROW", "OperatingPoint", "operating_point"]

_CALIBRATION_BASIS = "the filter's calibration on out-of-fold candidates of the training notes"


@dataclass(frozen=True, slots=True)
class OperatingPoint:
    """Thresholds of the span filter and the token-level recall and precision expected at them."""

    recall_target: float | None  # None: the model's own operating point
    thresholds: Mapping[str, float] = field(repr=False)
    expected_recall: float
    expected_precision: float
    basis: str  # where the expectation comes from, in words

    def describe(self) -> str:
        target = "the model's default" if self.recall_target is None else f"recall target {self.recall_target:g}"
        short = self.recall_target is not None and self.expected_recall < self.recall_target
        return (
            f"operating point: {target}; expected token recall {self.expected_recall:.3f}, "
            f"precision {self.expected_precision:.3f} ({self.basis})"
            + ("; the target is above the highest recall this model's filter is calibrated for" if short else "")
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "recall_target": self.recall_target,
            "thresholds": dict(sorted(self.thresholds.items())),
            "expected_recall": round(self.expected_recall, 4),
            "expected_precision": round(self.expected_precision, 4),
            "basis": self.basis,
        }


def operating_point(bundle: ModelBundle, recall_target: float | None = None) -> OperatingPoint | None:
    """The operating point of the default pipeline of ``bundle`` (None: the model has no span filter)."""
    spec = bundle.span_filter
    if spec is None:
        return None
    if recall_target is None:
        return _default_point(spec)
    from deident.stage2.filter.calibration import choose_threshold, expected_at
    from deident.stage2.filter.span_classifier import load_filter

    span_filter = load_filter(spec)
    if not span_filter.calibration:
        raise ModelError(f"{bundle.directory}: the span filter has no calibration table; it cannot target a recall")
    threshold = choose_threshold(span_filter.calibration, recall_target)
    row = expected_at(span_filter.calibration, threshold)
    return OperatingPoint(
        recall_target,
        dict.fromkeys(span_filter.models, threshold),
        float(row["recall"]),
        float(row["precision"]),
        _CALIBRATION_BASIS,
    )


def _default_point(spec: FilterSpec) -> OperatingPoint | None:
    thresholds = dict(spec.thresholds)
    cv = spec.cross_validated
    if cv is not None:
        basis = f"{cv.folds}-fold {cv.group_by}-grouped cross-validation on the training notes"
        return OperatingPoint(None, thresholds, cv.expected.recall, cv.expected.precision, basis)
    if spec.calibrated is None:
        return None
    return OperatingPoint(None, thresholds, spec.calibrated.recall, spec.calibrated.precision, _CALIBRATION_BASIS)
