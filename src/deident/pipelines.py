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
Each ends with the scheme stage of the requested PHI convention (:mod:`deident.schemes`). A site configuration
(:mod:`deident.site`) adds its list and pattern detectors to the rules of stage 1, reads phone numbers in its regions,
and ends the pipeline with its allow and deny lists (after the scheme stage).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from deident.core.document import Document
from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.core.pipeline import Detector, DetectorStage, FunctionStage, Pipeline, Stage
from deident.core.span import Span, sort_spans
from deident.model.bundle import ModelBundle

if TYPE_CHECKING:
    from deident.site.config import SiteConfig
    from deident.stage2.name_completion import NameCompletion
from deident.schemes import SchemeStage, get_scheme, output_scheme

PIPELINE_NAMES = ("rules", "crf", "stage1", "default")
# The pipelines that run a model directory (the rules need none).
MODEL_PIPELINES = ("crf", "stage1", "default")
# Stage 1 keeps CRF spans down to this PHI probability; the span filter decides among them.
CANDIDATE_THRESHOLD = 0.005


def build_pipeline(
    name: str = "default",
    model: Path | ModelBundle | None = None,
    *,
    scheme: str | None = None,
    recall_target: float | None = None,
    stage2: dict[str, bool] | None = None,
    site: SiteConfig | None = None,
) -> Pipeline:
    """Build the named pipeline.

    ``model`` is a model directory or its bundle already read (default: the bundled model);
    ``scheme`` names the PHI convention of the output (see :mod:`deident.schemes`; default: the site
    configuration's, else :data:`deident.schemes.DEFAULT_SCHEME`, whatever the model was trained under);
    ``recall_target`` picks the operating threshold from the model's calibration; ``stage2`` switches parts of the
    default pipeline on or off for ablations ("filter", "trusted_phrases", "reconcile"; default: as the model's
    manifest says); ``site`` is a site configuration (default: none).
    """
    chosen_scheme = output_scheme(scheme, None if site is None else site.scheme)
    if name == "rules":
        return rules_pipeline(chosen_scheme, site)
    if name not in PIPELINE_NAMES:
        raise ConfigurationError(f"unknown pipeline {name!r}; choose one of {', '.join(PIPELINE_NAMES)}")
    bundle = model if isinstance(model, ModelBundle) else read_bundle(model)
    if name == "crf":
        return crf_pipeline(bundle, chosen_scheme, site)
    if name == "stage1":
        return stage1_pipeline(bundle, chosen_scheme, site=site)
    return default_pipeline(bundle, chosen_scheme, recall_target, stage2, site=site)


def read_bundle(model_dir: str | Path | None = None) -> ModelBundle:
    """The model directory ``model_dir`` (default: the bundled model), read and verified once."""
    from deident.model.manifest import default_model_dir

    return ModelBundle.read(model_dir if model_dir is not None else default_model_dir())


def rule_stages(site: SiteConfig | None = None) -> tuple[Stage, ...]:
    """The pattern and dictionary detectors as stages (no veto), and a site configuration's detectors after them."""
    from deident.detect.lexicon import lexicon_detectors
    from deident.detect.patterns import combined_pattern_detector
    from deident.detect.patterns.usernames import username_detector

    patterns = combined_pattern_detector(None if site is None else site.phone_regions)
    detectors: tuple[Detector, ...] = (patterns, username_detector(), *lexicon_detectors())
    if site is not None:
        from deident.site.detectors import site_detectors

        detectors += site_detectors(site)
    return tuple(DetectorStage(d) for d in detectors)


def site_stages(site: SiteConfig | None) -> tuple[Stage, ...]:
    """The allow and deny lists of a site configuration, the last stages of a pipeline (none without one)."""
    if site is None:
        return ()
    from deident.site.stages import AllowListStage, DenyListStage

    stages: list[Stage] = []
    if site.allow:
        stages.append(AllowListStage(site.allow))
    if site.deny:
        stages.append(DenyListStage(site.deny))
    return tuple(stages)


def rules_pipeline(scheme: str = "i2b2-2014", site: SiteConfig | None = None) -> Pipeline:
    """Stage 1a: pattern and dictionary detectors, the negative-evidence veto, the scheme's policy."""
    from deident.stage1.veto import veto_stage

    stages = (
        *rule_stages(site),
        veto_stage(),
        FunctionStage("dedupe", drop_duplicates),
        SchemeStage(get_scheme(scheme)),
        *site_stages(site),
    )
    return Pipeline(stages, name="rules")


def crf_pipeline(bundle: ModelBundle, scheme: str, site: SiteConfig | None = None) -> Pipeline:
    """The CRF tagger alone at the model's threshold."""
    from deident.detect.crf.tagger import CrfModel, CrfStage
    from deident.stage1.place_labels import correct_place_labels

    stages: tuple[Stage, ...] = (
        CrfStage(CrfModel.from_spec(bundle.crf)),
        FunctionStage("place_labels", correct_place_labels),
        SchemeStage(get_scheme(scheme)),
        *site_stages(site),
    )
    return Pipeline(stages, name="crf")


def stage1_pipeline(
    bundle: ModelBundle,
    scheme: str,
    crf_threshold: float = CANDIDATE_THRESHOLD,
    *,
    site: SiteConfig | None = None,
    final: bool = True,
) -> Pipeline:
    """BoB's sensitive stage 1: rules and the CRF at a low threshold (and the bundle's ensemble CRFs at their own
    thresholds), the veto, the scheme.

    The scheme runs before stage 2 so that the learned filter only judges what the convention
    counts as PHI (it was trained that way: see deident.model.train_pipeline). ``final`` False leaves out the
    site's allow and deny lists (stage 2 follows, and they end the whole pipeline).
    """
    from deident.detect.crf.tagger import CrfModel, CrfStage
    from deident.stage1.field_labels import correct_field_labels
    from deident.stage1.name_edges import trim_name_edges
    from deident.stage1.place_labels import correct_place_labels
    from deident.stage1.veto import veto_stage

    crf = CrfStage(CrfModel.from_spec(bundle.crf), crf_threshold, after_rules=True)
    # The ensemble's further CRFs at their own thresholds: a few more candidates for the span filter to judge.
    ensemble = tuple(CrfStage(CrfModel.from_spec(spec), after_rules=True) for spec in bundle.ensemble)
    stages = (
        *rule_stages(site),
        crf,
        *ensemble,
        veto_stage(),
        FunctionStage("place_labels", correct_place_labels),
        FunctionStage("field_labels", correct_field_labels),
        FunctionStage("name_edges", trim_name_edges),
        SchemeStage(get_scheme(scheme)),
        *(site_stages(site) if final else ()),
    )
    return Pipeline(stages, name="stage1")


def default_pipeline(
    bundle: ModelBundle,
    scheme: str,
    recall_target: float | None = None,
    stage2: dict[str, bool] | None = None,
    filter_thresholds: float | Mapping[str, float] | None = None,
    *,
    site: SiteConfig | None = None,
) -> Pipeline:
    """Stage 1, then union, the span filter, trusted phrases and reconciliation (``stage2`` overrides
    the parts the bundle switches on; ``filter_thresholds``, one threshold or one per group, overrides the
    operating point, for measuring the pipeline at other thresholds); ``site``: a site configuration."""
    from deident.stage2.assemble import stage2_pipeline
    from deident.stage2.filter.span_classifier import load_filter

    span_filter = load_filter(bundle.require_filter())
    if filter_thresholds is not None:
        span_filter = span_filter.with_thresholds(filter_thresholds)
    elif recall_target is not None:
        # The thresholds the run states its expectation for: one function decides both.
        from deident.model.operating_point import operating_point

        point = operating_point(bundle, recall_target)
        if point is not None:
            span_filter = span_filter.with_thresholds(point.thresholds)
    trained = bundle.stage2
    crf_threshold = CANDIDATE_THRESHOLD if trained.candidate_threshold is None else trained.candidate_threshold
    stage1 = stage1_pipeline(bundle, scheme, crf_threshold, site=site, final=False)
    parts = {"filter": True, **trained.parts, **(stage2 or {})}
    pipeline = stage2_pipeline(
        stage1,
        span_filter,
        use_filter=bool(parts["filter"]),
        trusted=bool(parts.get("trusted_phrases", True)),
        reconcile=bool(parts.get("reconcile", True)),
        completion=_name_completion(bundle) if parts.get("name_completion", True) else None,
        name="default",
    )
    return Pipeline((*pipeline.stages, SchemeStage(get_scheme(scheme)), *site_stages(site)), name="default")


def _name_completion(bundle: ModelBundle) -> NameCompletion:
    """Name completion with the model's clinical vocabulary (none when the model has no vocabulary file)."""
    from deident.detect.crf.learned import load_vocabulary
    from deident.stage2.name_completion import NameCompletion

    path = bundle.crf.data_files.get("vocabulary")
    return NameCompletion(load_vocabulary(path) if path is not None else frozenset())


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
