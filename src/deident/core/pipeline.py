"""Pipeline stages: pure functions of (document, spans) -> spans.

A *detector* proposes spans from the text alone; a *stage* sees the spans so far and returns the
new span tuple (adding, vetoing, relabelling). ``DetectorStage`` lifts a detector into a stage.
Stages hold no per-document state, so one pipeline serves many documents and processes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from deident.core.document import Document
from deident.core.span import Span, sort_spans


@runtime_checkable
class Detector(Protocol):
    """Proposes PHI candidates in a document."""

    name: str

    def detect(self, document: Document) -> list[Span]: ...


@runtime_checkable
class Stage(Protocol):
    """Transforms the spans of a document."""

    name: str

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]: ...


@dataclass(frozen=True)
class DetectorStage:
    """Adds a detector's spans to the spans so far."""

    detector: Detector

    @property
    def name(self) -> str:
        return self.detector.name

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return sort_spans((*spans, *self.detector.detect(document)))


@dataclass(frozen=True)
class FunctionStage:
    """Wraps a plain function as a named stage."""

    name: str
    function: Callable[[Document, tuple[Span, ...]], tuple[Span, ...]]

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return self.function(document, spans)


@dataclass(frozen=True)
class Pipeline:
    """An ordered tuple of stages."""

    stages: tuple[Stage, ...]
    name: str = "pipeline"

    @classmethod
    def of(cls, parts: Iterable[Stage | Detector], name: str = "pipeline") -> Pipeline:
        stages: list[Stage] = []
        for part in parts:
            if isinstance(part, Detector) and not isinstance(part, Stage):
                stages.append(DetectorStage(part))
            else:
                stages.append(part)  # type: ignore[arg-type]
        return cls(tuple(stages), name)

    def __call__(self, document: Document, spans: tuple[Span, ...] = ()) -> tuple[Span, ...]:
        for stage in self.stages:
            spans = stage(document, spans)
        return sort_spans(spans)

    def run_many(self, documents: Sequence[Document]) -> list[tuple[Span, ...]]:
        return [self(doc) for doc in documents]

    @property
    def stage_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.stages)
