"""The operating point a run uses, and the token recall and precision expected there.

The default pipeline's span filter keeps a candidate when its probability reaches its group's
threshold. What a run states it expects comes, in order of preference, from:

1. **held-out notes** (``span_filter.held_out`` in the manifest): the whole pipeline measured on
   notes of patients the model was not trained on, with a bootstrap interval over patients
   (``bench/held_out_estimate.py`` writes it). ``--recall-target`` then picks, from the same
   measurements, the highest single threshold whose held-out recall reaches the target. The default
   point's thresholds were chosen on the training notes, so its figure is a clean estimate; a
   targeted point is selected on the held-out notes themselves and its figure is mildly optimistic
   (the basis says so).
2. the pooled patient-grouped cross-validation of the pipeline on the training notes, or the
   filter's calibration on their out-of-fold candidates: estimates on the notes the rules and
   lists were written from, which over-state recall on new notes (the basis says so).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from deident.core.errors import ModelError
from deident.model.bundle import DEFAULT_ROW, FilterSpec, HeldOut, HeldOutRow, ModelBundle

__all__ = ["DEFAULT_ROW", "OperatingPoint", "operating_point", "scheme_note"]

_CALIBRATION_BASIS = (
    "the filter's calibration on out-of-fold candidates of the training notes; "
    "an estimate on the notes the rules were written from, optimistic for new notes"
)


@dataclass(frozen=True, slots=True)
class OperatingPoint:
    """Thresholds of the span filter and the token-level recall and precision expected at them."""

    recall_target: float | None  # None: the model's own operating point
    thresholds: Mapping[str, float] = field(repr=False)
    expected_recall: float
    expected_precision: float
    basis: str  # where the expectation comes from, in words
    recall_interval: tuple[float, float] | None = None  # a confidence interval, when the basis gives one
    precision_interval: tuple[float, float] | None = None
    level: float | None = None  # of the intervals
    measured_scheme: str | None = None  # the PHI convention the figures were measured under (None: not recorded)
    output_scheme: str | None = None  # the run's output convention (None: not stated)

    def describe(self) -> str:
        return describe_operating_point(self.as_dict())

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "recall_target": self.recall_target,
            "thresholds": dict(sorted(self.thresholds.items())),
            "expected_recall": round(self.expected_recall, 4),
            "expected_precision": round(self.expected_precision, 4),
            "basis": self.basis,
            "measured_scheme": self.measured_scheme,
            "output_scheme": self.output_scheme,
        }
        if self.recall_interval is not None and self.precision_interval is not None:
            out["interval_level"] = self.level
            out["expected_recall_interval"] = [round(v, 4) for v in self.recall_interval]
            out["expected_precision_interval"] = [round(v, 4) for v in self.precision_interval]
        return out


def scheme_note(measured_scheme: str | None, output_scheme: str | None) -> str:
    """What to add to figures measured under ``measured_scheme`` when the output follows another: they count the
    measured convention's PHI, not the output's ("" when the two agree or either is unknown)."""
    if measured_scheme is None or output_scheme in (None, measured_scheme):
        return ""
    return (
        f"; measured under the {measured_scheme} convention, not this run's output scheme {output_scheme}, "
        "which counts other PHI"
    )


def describe_operating_point(point: Mapping[str, Any]) -> str:
    """The line ``detect`` and ``run`` print: :meth:`OperatingPoint.as_dict`'s figures, their intervals and basis
    (``run`` gets the dict back from its workers)."""
    target = point.get("recall_target")
    expected_recall = float(point["expected_recall"])
    short = target is not None and expected_recall < target
    level = point.get("interval_level")
    chosen = "the model's default" if target is None else f"recall target {target:g}"
    return (
        f"operating point: {chosen}; "
        f"expected token recall {expected_recall:.3f}{_interval_text(point.get('expected_recall_interval'), level)}, "
        f"precision {float(point['expected_precision']):.3f}"
        f"{_interval_text(point.get('expected_precision_interval'), level)} ({point['basis']})"
        + ("; the target is above the highest recall measured for this model" if short else "")
        + scheme_note(point.get("measured_scheme"), point.get("output_scheme"))
    )


def _interval_text(interval: Sequence[float] | None, level: float | None) -> str:
    if interval is None:
        return ""
    pct = f"{(level or 0.95) * 100:g}%"
    return f" ({pct} interval {interval[0]:.3f}-{interval[1]:.3f})"


def operating_point(
    bundle: ModelBundle, recall_target: float | None = None, output_scheme: str | None = None
) -> OperatingPoint | None:
    """The operating point of the default pipeline of ``bundle`` (None: the model has no span filter), for a run whose
    output follows ``output_scheme`` (stated beside the convention the figures were measured under)."""
    point = _operating_point(bundle, recall_target)
    if point is None:
        return None
    # Held-out figures record their scheme; the cross-validation and calibration ran under the training scheme.
    return replace(point, measured_scheme=point.measured_scheme or bundle.training_scheme, output_scheme=output_scheme)


def _operating_point(bundle: ModelBundle, recall_target: float | None) -> OperatingPoint | None:
    spec = bundle.span_filter
    if spec is None:
        return None
    if recall_target is not None and not 0.0 < recall_target <= 1.0:
        raise ModelError(f"recall target {recall_target:g} is not a rate between 0 and 1")
    held_out = spec.held_out
    if held_out is not None and (recall_target is None or held_out.sweep):
        return _held_out_point(spec, held_out, recall_target)
    if recall_target is None:
        return _default_point(spec)
    from deident.stage2.filter.calibration import expected_at
    from deident.stage2.filter.span_classifier import load_filter

    targeted = load_filter(spec).for_recall_target(recall_target)  # ModelError without a calibration table
    threshold = next(iter(targeted.thresholds.values()))  # one threshold for every group
    assert targeted.calibration is not None  # for_recall_target refuses a filter without one
    row = expected_at(targeted.calibration, threshold)
    return OperatingPoint(
        recall_target,
        dict(targeted.thresholds),
        float(row["recall"]),
        float(row["precision"]),
        _CALIBRATION_BASIS,
    )


def _held_out_point(spec: FilterSpec, held_out: HeldOut, recall_target: float | None) -> OperatingPoint:
    basis = f"measured on {held_out.corpus}, {held_out.about}; interval by bootstrap over {held_out.groups} patients"
    if recall_target is None:
        row = held_out.default
    else:
        reaching = [r for r in held_out.sweep if r.recall >= recall_target]
        # The highest threshold that reaches the target; when none does, the lowest (the most recall).
        row = reaching[-1] if reaching else held_out.sweep[0]
        basis += "; the threshold for the target was chosen on these same notes"
    return OperatingPoint(
        recall_target,
        _thresholds(spec, row),
        row.recall,
        row.precision,
        basis,
        row.recall_interval,
        row.precision_interval,
        held_out.level,
        held_out.scheme,
    )


def _thresholds(spec: FilterSpec, row: HeldOutRow) -> dict[str, float]:
    if isinstance(row.thresholds, float):
        return dict.fromkeys(spec.thresholds, row.thresholds)
    return dict(row.thresholds)


def _default_point(spec: FilterSpec) -> OperatingPoint | None:
    thresholds = dict(spec.thresholds)
    cv = spec.cross_validated
    if cv is not None:
        basis = (
            f"{cv.folds}-fold {cv.group_by}-grouped cross-validation on the training notes; an estimate on the "
            "notes the rules were written from, optimistic for new notes"
        )
        return OperatingPoint(None, thresholds, cv.expected.recall, cv.expected.precision, basis)
    if spec.calibrated is None:
        return None
    return OperatingPoint(None, thresholds, spec.calibrated.recall, spec.calibrated.precision, _CALIBRATION_BASIS)
