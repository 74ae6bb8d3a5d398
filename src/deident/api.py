"""The Python API: one :class:`Deidentifier` facade that the CLI, the REST service and Spark call."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from deident.core.document import Document, DocumentMetadata
from deident.core.pipeline import Pipeline
from deident.core.span import Span
from deident.pipelines import build_pipeline


@dataclass(frozen=True)
class Deidentifier:
    """Detects PHI with a pipeline (and, once configured, replaces it)."""

    pipeline: Pipeline

    @classmethod
    def load(cls, model: str | Path | None = None, pipeline: str = "default") -> Deidentifier:
        """The bundled default model, or the model directory ``model``."""
        return cls(build_pipeline(pipeline, Path(model) if model is not None else None))

    def detect(self, text: str | Document, patient_id: str | None = None) -> tuple[Span, ...]:
        """PHI spans of a text or document."""
        return self.pipeline(_as_document(text, patient_id))


def _as_document(text: str | Document, patient_id: str | None) -> Document:
    if isinstance(text, Document):
        return text
    return Document("text", text, DocumentMetadata(patient_id=patient_id))
