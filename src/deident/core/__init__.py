"""Core data model: labels, spans, documents, pipeline stages."""

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata, KnownIdentifiers
from deident.core.errors import (
    ConfigurationError,
    DeidentError,
    InputFormatError,
    ModelError,
    SpanAlignmentError,
)
from deident.core.labels import Category, Label, SafeHarbor
from deident.core.pipeline import Detector, DetectorStage, FunctionStage, Pipeline, Stage
from deident.core.span import Span, disjoint_spans, merge_adjacent, remove_overlaps, sort_spans

__all__ = [
    "AnnotatedDocument",
    "Category",
    "ConfigurationError",
    "DeidentError",
    "Detector",
    "DetectorStage",
    "Document",
    "DocumentMetadata",
    "FunctionStage",
    "InputFormatError",
    "KnownIdentifiers",
    "Label",
    "ModelError",
    "Pipeline",
    "SafeHarbor",
    "Span",
    "SpanAlignmentError",
    "Stage",
    "disjoint_spans",
    "merge_adjacent",
    "remove_overlaps",
    "sort_spans",
]
