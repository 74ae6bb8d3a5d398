"""Named detection pipelines ("rules", "crf", "default") built from their parts.

Every caller (CLI, REST, Spark) goes through :class:`deident.api.Deidentifier`, which asks this
module for a pipeline by name. Imports happen inside the builders so that loading deident stays
cheap and a pipeline only loads the data it needs.

- ``rules``: stage 1a — pattern and dictionary detectors, the negative-evidence veto.
- ``crf``: the CRF tagger alone at the model's threshold.
- ``stage1``: BoB's sensitive stage 1 alone — rules and the CRF at a low threshold, the veto, label
  correction of whole state and country names, titles and kinship words trimmed off name edges (the
  candidates the span filter judges; the highest recall, the lowest precision).
- ``default``: BoB's two stages — stage 1 (rules + CRF at a low, sensitive threshold, veto),
  then stage 2 (candidate union, the learned false-positive filter, trusted phrases, global
  reconciliation) — as trained into the model directory.
Each ends with the scheme stage of the requested PHI convention (:mod:`deident.schemes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deident.core.document import Document
from deident.core.errors import ConfigurationError, ModelError
from deident.core.labels import Label
from deident.core.pipeline import Detector, DetectorStage, FunctionStage, Pipeline, Stage
from deident.core.span import Span, sort_spans
from deident.schemes import SchemeStage, get_scheme

PIPELINE_NAMES = ("rules", "crf", "stage1", "default")
# Stage 1 keeps CRF spans down to this PHI probability; the span filter decides among them.
CANDIDATE_THRESHOLD = 0.005


def build_pipeline(
    name: str = "default",
    model_dir: Path | None = None,
    *,
    scheme: str | None = None,
    recall_target: float | None = None,
    stage2: dict[str, bool] | None = None,
) -> Pipeline:
    """Build the named pipeline.

    ``model_dir`` overrides the bundled default model; ``scheme`` names the PHI convention of the
    output (see :mod:`deident.schemes`; default: i2b2-2014 for rules, the model's own otherwise);
    ``recall_target`` picks the operating threshold from the model's calibration; ``stage2``
    switches parts of the default pipeline on or off for ablations ("filter", "trusted_phrases",
    "reconcile"; default: as the model's manifest says).
    """
    if name == "rules":
        return rules_pipeline(scheme or "i2b2-2014")
    if name not in PIPELINE_NAMES:
        raise ConfigurationError(f"unknown pipeline {name!r}; choose one of {', '.join(PIPELINE_NAMES)}")
    from deident.model.manifest import default_model_dir, read_manifest

    directory = model_dir if model_dir is not None else default_model_dir()
    manifest = read_manifest(directory)
    chosen_scheme = scheme or str(manifest.get("scheme", "i2b2-2014"))
    if name == "crf":
        return crf_pipeline(directory, chosen_scheme)
    if name == "stage1":
        return stage1_pipeline(directory, chosen_scheme)
    return default_pipeline(directory, chosen_scheme, recall_target, manifest, stage2)


def rule_stages() -> tuple[Stage, ...]:
    """The pattern and dictionary detectors as stages (no veto)."""
    from deident.detect.lexicon import lexicon_detectors
    from deident.detect.patterns import combined_pattern_detector
    from deident.detect.patterns.usernames import username_detector

    detectors: tuple[Detector, ...] = (combined_pattern_detector(), username_detector(), *lexicon_detectors())
    return tuple(DetectorStage(d) for d in detectors)


def rules_pipeline(scheme: str = "i2b2-2014") -> Pipeline:
    """Stage 1a: pattern and dictionary detectors, the negative-evidence veto, the scheme's policy."""
    from deident.stage1.veto import veto_stage

    stages = (
        *rule_stages(),
        veto_stage(),
        FunctionStage("dedupe", drop_duplicates),
        SchemeStage(get_scheme(scheme)),
    )
    return Pipeline(stages, name="rules")


@dataclass(frozen=True)
class CrfCandidates:
    """The CRF as a stage at a chosen threshold (``None``: the model's own).

    With ``after_rules`` the pattern and lexicon spans found by the earlier stages serve as the CRF's
    provider-hit features (matched by source; none found is an answer too), so the rules do not run
    twice; otherwise the model runs its providers itself. Below the model's own threshold, spans are
    cut where the probability crosses it: a tentative word beside a confident name is a candidate of
    its own, so that the span filter judges it alone instead of letting it ride along.
    """

    model: Any  # deident.detect.crf.tagger.CrfModel, imported lazily
    threshold: float | None = None
    after_rules: bool = False
    name: str = "crf"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        own = self.model.threshold
        split_at = own if self.threshold is not None and self.threshold < own else None
        found = self.model.spans(
            document, threshold=self.threshold, hits=spans if self.after_rules else None, split_at=split_at
        )
        return sort_spans((*spans, *found))


def crf_pipeline(model_dir: Path, scheme: str) -> Pipeline:
    """The CRF tagger alone at the model's threshold."""
    from deident.detect.crf.tagger import CrfModel
    from deident.stage1.place_labels import correct_place_labels

    stages = (
        CrfCandidates(CrfModel.load(model_dir)),
        FunctionStage("place_labels", correct_place_labels),
        SchemeStage(get_scheme(scheme)),
    )
    return Pipeline(stages, name="crf")


def stage1_pipeline(model_dir: Path, scheme: str, crf_threshold: float = CANDIDATE_THRESHOLD) -> Pipeline:
    """BoB's sensitive stage 1: rules and the CRF at a low threshold, the veto, the scheme.

    The scheme runs before stage 2 so that the learned filter only judges what the convention
    counts as PHI (it was trained that way: see scripts/train_default_pipeline.py).
    """
    from deident.detect.crf.tagger import CrfModel
    from deident.stage1.name_edges import trim_name_edges
    from deident.stage1.place_labels import correct_place_labels
    from deident.stage1.veto import veto_stage

    crf = CrfCandidates(CrfModel.load(model_dir), crf_threshold, after_rules=True)
    stages = (
        *rule_stages(),
        crf,
        veto_stage(),
        FunctionStage("place_labels", correct_place_labels),
        FunctionStage("name_edges", trim_name_edges),
        SchemeStage(get_scheme(scheme)),
    )
    return Pipeline(stages, name="stage1")


def default_pipeline(
    model_dir: Path,
    scheme: str,
    recall_target: float | None = None,
    manifest: dict[str, Any] | None = None,
    stage2: dict[str, bool] | None = None,
) -> Pipeline:
    """Stage 1, then union, the span filter, trusted phrases and reconciliation."""
    from deident.stage2.assemble import stage2_pipeline
    from deident.stage2.filter.span_classifier import FILTER_FILE, load_filter

    if not (model_dir / FILTER_FILE).exists():
        raise ModelError(f"{model_dir}: no span filter; train one with scripts/train_default_pipeline.py")
    span_filter = load_filter(model_dir)
    if recall_target is not None:
        span_filter = span_filter.for_recall_target(recall_target)
    crf_threshold = float((manifest or {}).get("candidate_threshold", CANDIDATE_THRESHOLD))
    stage1 = stage1_pipeline(model_dir, scheme, crf_threshold)
    parts = {"filter": True, **(manifest or {}).get("stage2", {}), **(stage2 or {})}
    pipeline = stage2_pipeline(
        stage1,
        span_filter,
        use_filter=bool(parts["filter"]),
        trusted=bool(parts.get("trusted_phrases", True)),
        reconcile=bool(parts.get("reconcile", True)),
        name="default",
    )
    return Pipeline((*pipeline.stages, SchemeStage(get_scheme(scheme))), name="default")


def drop_duplicates(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    """Keep one span per (start, end, label): the highest-scoring, its evidence merged from all."""
    best: dict[tuple[int, int, Label], Span] = {}
    for span in spans:
        key = (span.start, span.end, span.label)
        kept = best.get(key)
        if kept is None:
            best[key] = span
            continue
        winner, loser = (span, kept) if (span.score or 0.0) > (kept.score or 0.0) else (kept, span)
        extra = tuple(e for e in loser.evidence if e not in winner.evidence)
        best[key] = winner.with_evidence(*extra) if extra else winner
    return sort_spans(best.values())
