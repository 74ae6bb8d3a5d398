"""A model directory read once: :class:`ModelBundle`, its manifest parsed and verified, each part typed.

Loading a pipeline reads the directory's ``manifest.json`` and checks every file's SHA-256 once, here;
each component then receives its own typed slice (:class:`CrfSpec` for the CRF tagger, :class:`FilterSpec`
for the span filter and the operating point, :class:`Stage2Spec` for stage 2) instead of picking keys out
of the raw manifest. Writing and editing manifests (training) stays with :mod:`deident.model.manifest`.

The manifest's ``kind`` names the most complete pipeline the directory runs (:class:`BundleKind`):
``crf`` for a CRF tagger (``deident train --pipeline crf``), ``default`` for BoB's two stages with the span
filter (``deident train``, which builds the bundled model too). Manifests written before that
kind existed say ``crf`` for both; a ``crf`` manifest with a span filter entry is read as ``default``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from deident.core.errors import ModelError
from deident.model.manifest import MANIFEST, read_manifest, sha256_file

# The ablation row of the default configuration in the manifest's pipeline_cv metrics.
DEFAULT_ROW = "stage 1 + filter"
# The learned data files every CRF needs (a vocabulary is optional: older models have none).
_REQUIRED_DATA = frozenset({"triggers", "lexicon", "clusters"})


class BundleKind(StrEnum):
    """What a model directory holds, named after the most complete pipeline it runs."""

    CRF = "crf"  # the CRF tagger and its learned data: the crf and stage1 pipelines
    DEFAULT = "default"  # the CRF and the span filter: every pipeline, the default one too


@dataclass(frozen=True, slots=True)
class CrfFile:
    """One trained CRF of a model (Lee 2017 trains two: quantitative and name-like PHI)."""

    name: str
    path: Path


@dataclass(frozen=True, slots=True)
class CrfSpec:
    """The CRF tagger's part of a bundle: feature options, learned data files, span providers, CRF files."""

    directory: Path
    feature_set_version: int | None  # as recorded; the tagger compares it with the version it computes
    features: Mapping[str, bool]  # FeatureConfig options
    data_files: Mapping[str, Path]  # "triggers", "lexicon", "clusters" and optionally "vocabulary", "headings"
    providers: tuple[str, ...]  # names of the span providers whose hits are features
    models: tuple[CrfFile, ...]
    threshold: float | None  # None: the tagger's default
    easyadapt: bool


@dataclass(frozen=True, slots=True)
class Expected:
    """Token recall and precision expected at an operating point (estimates on the training notes)."""

    recall: float
    precision: float


@dataclass(frozen=True, slots=True)
class CrossValidated:
    """The default configuration's row of the pipeline's cross-validation, and how the folds were made."""

    expected: Expected
    folds: str  # as recorded ("?" when not)
    group_by: str


@dataclass(frozen=True, slots=True)
class HeldOutRow:
    """The default pipeline measured on held-out notes at one setting of the span filter's thresholds."""

    thresholds: Mapping[str, float] | float  # a mapping by group, or one threshold for every group
    recall: float
    precision: float
    fully_contained: float
    recall_interval: tuple[float, float]
    precision_interval: tuple[float, float]


@dataclass(frozen=True, slots=True)
class HeldOut:
    """Token recall and precision of the default pipeline measured on notes the model was not trained on.

    ``default`` is the model's own operating point; ``sweep`` the same pipeline with one threshold
    for every group, by increasing threshold (what ``--recall-target`` chooses from)."""

    corpus: str  # the held-out corpus's name
    about: str  # what those notes are and how they relate to the training notes, in words
    level: float  # of the intervals
    groups: int  # patients resampled for the intervals
    default: HeldOutRow
    sweep: tuple[HeldOutRow, ...]
    scheme: str | None = None  # the PHI convention the pipeline was run and scored under (None: not recorded)


@dataclass(frozen=True, slots=True)
class FilterSpec:
    """The span filter's part of a bundle: its file and the operating point the manifest records."""

    path: Path
    thresholds: Mapping[str, float] = field(repr=False)
    calibrated: Expected | None  # the filter's calibration at its thresholds
    cross_validated: CrossValidated | None  # the whole pipeline's cross-validation at them
    held_out: HeldOut | None = None  # the pipeline measured on held-out notes (preferred when present)


@dataclass(frozen=True, slots=True)
class Stage2Spec:
    """Stage 2 as trained: the CRF's candidate threshold in stage 1 and which stage-2 parts are on."""

    candidate_threshold: float | None  # None: the pipeline's default
    parts: Mapping[str, bool]  # "trusted_phrases", "reconcile" (and "filter") as the manifest says


@dataclass(frozen=True, slots=True)
class ModelBundle:
    """A verified model directory and the typed parts its components are built from."""

    directory: Path
    kind: BundleKind
    # The PHI convention of the training notes, which the span filter learned and the operating point was measured
    # under (None: not recorded); not the output's (deident.schemes.output_scheme decides that).
    training_scheme: str | None
    crf: CrfSpec
    span_filter: FilterSpec | None
    stage2: Stage2Spec
    # Further CRFs whose spans join stage 1's candidates (Szarvas 2007's ensemble, issue 18 item 4): each a CRF
    # model directory inside this one, at its own threshold; the span filter then judges the union.
    ensemble: tuple[CrfSpec, ...] = ()

    @classmethod
    def read(cls, directory: str | Path) -> ModelBundle:
        """Read ``directory``'s manifest, verify every file's checksum (once) and parse each part."""
        directory = Path(directory)
        data = read_manifest(directory)
        path = directory / MANIFEST
        try:
            return _parse(directory, data)
        except ModelError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ModelError(f"{path}: malformed manifest ({type(err).__name__})") from None

    def require_filter(self) -> FilterSpec:
        """The span filter's part; a clear error for a directory that has none."""
        if self.span_filter is None:
            raise ModelError(
                f"{self.directory}: no span filter (a CRF-only model); "
                "train a default-pipeline model with `deident train` (without --pipeline crf)"
            )
        return self.span_filter


def _parse(directory: Path, data: Mapping[str, Any]) -> ModelBundle:
    path = directory / MANIFEST
    span_filter = _filter_spec(directory, data)
    kind_name = data.get("kind")
    if kind_name == BundleKind.CRF.value:
        # Manifests written before the pipeline kind said "crf" for the two-stage default model too.
        kind = BundleKind.CRF if span_filter is None else BundleKind.DEFAULT
    elif kind_name == BundleKind.DEFAULT.value:
        kind = BundleKind.DEFAULT
        if span_filter is None:
            raise ModelError(f"{path}: a {kind_name!r} model without a span filter entry")
    else:
        known = ", ".join(repr(k.value) for k in BundleKind)
        raise ModelError(f"{path}: a {kind_name!r} model, expected one of {known}")
    scheme = data.get("scheme")
    stage2 = data.get("stage2", {})
    candidate = data.get("candidate_threshold")
    return ModelBundle(
        directory,
        kind,
        None if scheme is None else str(scheme),
        _crf_spec(directory, data),
        span_filter,
        Stage2Spec(
            None if candidate is None else float(candidate),
            {str(name): bool(on) for name, on in dict(stage2).items()},
        ),
        _ensemble(directory, data),
    )


def _ensemble(directory: Path, data: Mapping[str, Any]) -> tuple[CrfSpec, ...]:
    """The manifest's ``ensemble`` entries: ``{"directory": NAME, "manifest_sha256": HEX}``, each NAME a CRF model
    directory inside this one (its own manifest verifies its files; this one pins that manifest)."""
    entries = data.get("ensemble", [])
    if not isinstance(entries, list):
        raise ModelError(f"{directory / MANIFEST}: 'ensemble' must be a list")
    specs: list[CrfSpec] = []
    for entry in entries:
        name = _plain_name(directory, entry.get("directory") if isinstance(entry, Mapping) else None)
        member = directory / name
        if not (member / MANIFEST).is_file():
            raise ModelError(f"{directory}: ensemble member {name} is missing")
        if sha256_file(member / MANIFEST) != entry.get("manifest_sha256"):
            raise ModelError(f"{directory}: checksum mismatch for ensemble member {name}; the model was modified")
        specs.append(_crf_spec(member, read_manifest(member)))
    return tuple(specs)


def _crf_spec(directory: Path, data: Mapping[str, Any]) -> CrfSpec:
    files = data.get("data_files", {})
    if not isinstance(files, Mapping) or not set(files) >= _REQUIRED_DATA:
        raise ModelError(f"{directory}: the manifest does not name the learned data files")
    models = tuple(
        CrfFile(str(entry["name"]), directory / _plain_name(directory, entry["file"]))
        for entry in data.get("models", ())
    )
    if not models:
        raise ModelError(f"{directory}: the manifest lists no CRF models")
    version = data.get("feature_set_version")
    threshold = data.get("threshold")
    return CrfSpec(
        directory,
        version if isinstance(version, int) else None,
        {str(k): bool(v) for k, v in dict(data.get("features", {})).items()},
        {str(k): directory / _plain_name(directory, v) for k, v in files.items()},
        tuple(str(p) for p in data.get("providers", ())),
        models,
        None if threshold is None else float(threshold),
        bool(data.get("easyadapt", False)),
    )


def _filter_spec(directory: Path, data: Mapping[str, Any]) -> FilterSpec | None:
    entry = data.get("span_filter")
    if not isinstance(entry, Mapping):
        return None
    thresholds = {str(k): float(v) for k, v in dict(entry.get("thresholds", {})).items()}
    expected = entry.get("expected")
    calibrated = _expected(expected) if isinstance(expected, Mapping) else None
    cv = data.get("metrics", {}).get("pipeline_cv", {})
    row = cv.get("ablation", {}).get(DEFAULT_ROW)
    cross_validated = (
        None if row is None else CrossValidated(_expected(row), str(cv.get("folds", "?")), str(cv.get("group_by", "")))
    )
    name = _plain_name(directory, entry["file"])
    held_out = entry.get("held_out")
    return FilterSpec(
        directory / name,
        thresholds,
        calibrated,
        cross_validated,
        _held_out(held_out) if isinstance(held_out, Mapping) else None,
    )


def _held_out(data: Mapping[str, Any]) -> HeldOut:
    return HeldOut(
        str(data["corpus"]),
        str(data.get("about", "")),
        float(data["level"]),
        int(data["groups"]),
        _held_out_row(data["default"]),
        tuple(sorted((_held_out_row(row) for row in data.get("sweep", ())), key=_uniform_threshold)),
        None if data.get("scheme") is None else str(data["scheme"]),
    )


def _held_out_row(row: Mapping[str, Any]) -> HeldOutRow:
    raw = row["thresholds"]
    thresholds: Mapping[str, float] | float = (
        {str(k): float(v) for k, v in raw.items()} if isinstance(raw, Mapping) else float(raw)
    )
    low_r, high_r = (float(v) for v in row["recall_interval"])
    low_p, high_p = (float(v) for v in row["precision_interval"])
    return HeldOutRow(
        thresholds,
        float(row["recall"]),
        float(row["precision"]),
        float(row["fully_contained"]),
        (low_r, high_r),
        (low_p, high_p),
    )


def _uniform_threshold(row: HeldOutRow) -> float:
    if not isinstance(row.thresholds, float):
        raise ValueError("a sweep row has one threshold for every group")
    return row.thresholds


def _expected(row: Mapping[str, Any]) -> Expected:
    return Expected(float(row["recall"]), float(row["precision"]))


def _plain_name(directory: Path, name: object) -> str:
    """A file name inside the model directory (a manifest never points outside it)."""
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name in {".", ".."}:
        raise ModelError(f"{directory / MANIFEST}: bad file name in the manifest")
    return name
