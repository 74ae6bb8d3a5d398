"""Named detection pipelines ("rules", "crf", "default") built from their parts.

The integrator fills this as detectors land; every caller (CLI, REST, Spark) goes through
:class:`deident.api.Deidentifier`, which asks this module for a pipeline by name.
"""

from __future__ import annotations

from pathlib import Path

from deident.core.errors import ConfigurationError
from deident.core.pipeline import Pipeline

PIPELINE_NAMES = ("rules", "crf", "default")


def build_pipeline(name: str = "default", model_dir: Path | None = None) -> Pipeline:
    """Build the named pipeline; ``model_dir`` overrides the bundled default model."""
    if name not in PIPELINE_NAMES:
        raise ConfigurationError(f"unknown pipeline {name!r}; choose one of {', '.join(PIPELINE_NAMES)}")
    raise ConfigurationError(f"pipeline {name!r} is not available in this build yet")
