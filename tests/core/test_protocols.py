"""The ``Stage`` and ``Detector`` protocols declare ``name`` read-only: frozen dataclasses and properties fit."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Detector, DetectorStage, FunctionStage, Pipeline, Stage
from deident.core.span import Span


@dataclass(frozen=True)
class FrozenDetector:
    name: str = "toy.frozen"

    def detect(self, document: Document) -> list[Span]:
        return [Span(0, 3, Label.PATIENT, self.name, 0.9)] if document.text.startswith("Ann") else []


class PropertyDetector:
    @property
    def name(self) -> str:
        return "toy.property"

    def detect(self, document: Document) -> tuple[Span, ...]:
        return ()


@dataclass(frozen=True)
class FrozenStage:
    name: str = "toy.stage"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return spans


def test_frozen_and_property_parts_satisfy_the_protocols() -> None:
    for detector in (FrozenDetector(), PropertyDetector()):
        assert isinstance(detector, Detector)
        assert not isinstance(detector, Stage)
    for stage in (FrozenStage(), DetectorStage(FrozenDetector()), FunctionStage("f", lambda d, s: s)):
        assert isinstance(stage, Stage)
    with pytest.raises(FrozenInstanceError):
        FrozenStage().name = "renamed"  # type: ignore[misc]


def test_pipeline_of_lifts_detectors_and_keeps_stages() -> None:
    stage = FrozenStage()
    pipeline = Pipeline.of([FrozenDetector(), PropertyDetector(), stage])
    assert [type(s).__name__ for s in pipeline.stages] == ["DetectorStage", "DetectorStage", "FrozenStage"]
    assert pipeline.stages[2] is stage
    assert [s.name for s in pipeline.stages] == ["toy.frozen", "toy.property", "toy.stage"]
    assert pipeline(Document("d", "Ann came")) == (Span(0, 3, Label.PATIENT, "toy.frozen", 0.9),)
