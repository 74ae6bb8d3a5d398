"""Named detection pipelines ("rules", "crf", "default") built from their parts.

Every caller (CLI, REST, Spark) goes through :class:`deident.api.Deidentifier`, which asks this
module for a pipeline by name. Imports happen inside the builders so that loading deident stays
cheap and a pipeline only loads the data it needs.
"""

from __future__ import annotations

from pathlib import Path

from deident.core.document import Document
from deident.core.errors import ConfigurationError
from deident.core.pipeline import FunctionStage, Pipeline, Stage
from deident.core.span import Span, sort_spans
from deident.schemes import SchemeStage, get_scheme

PIPELINE_NAMES = ("rules", "crf", "default")


def build_pipeline(
    name: str = "default",
    model_dir: Path | None = None,
    *,
    scheme: str | None = None,
    recall_target: float | None = None,
) -> Pipeline:
    """Build the named pipeline.

    ``model_dir`` overrides the bundled default model; ``scheme`` names the PHI convention of the
    output (see :mod:`deident.schemes`; default: i2b2-2014 for rules, the model's own otherwise);
    ``recall_target`` picks the operating threshold from the model's calibration.
    """
    if name == "rules":
        return rules_pipeline(scheme or "i2b2-2014")
    if name not in PIPELINE_NAMES:
        raise ConfigurationError(f"unknown pipeline {name!r}; choose one of {', '.join(PIPELINE_NAMES)}")
    raise ConfigurationError(f"pipeline {name!r} is not available in this build yet")


def rules_pipeline(scheme: str = "i2b2-2014") -> Pipeline:
    """Stage 1a: pattern and dictionary detectors, the negative-evidence veto, the scheme's policy."""
    from deident.detect.lexicon import lexicon_detectors
    from deident.detect.patterns import pattern_detectors
    from deident.filter.veto import veto_stage

    stages: list[Stage] = []
    parts = Pipeline.of([*pattern_detectors(), *lexicon_detectors()])
    stages.extend(parts.stages)
    stages.append(veto_stage())
    stages.append(FunctionStage("dedupe", drop_duplicates))
    stages.append(SchemeStage(get_scheme(scheme)))
    return Pipeline(tuple(stages), name="rules")


def drop_duplicates(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    """Keep one span per (start, end, label): the highest-scoring, its evidence merged from all."""
    best: dict[tuple[int, int, str], Span] = {}
    for span in spans:
        key = (span.start, span.end, span.label.value)
        kept = best.get(key)
        if kept is None:
            best[key] = span
            continue
        winner, loser = (span, kept) if (span.score or 0.0) > (kept.score or 0.0) else (kept, span)
        extra = tuple(e for e in loser.evidence if e not in winner.evidence)
        best[key] = winner.with_evidence(*extra) if extra else winner
    return sort_spans(best.values())
