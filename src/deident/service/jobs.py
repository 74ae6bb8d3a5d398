"""The REST service's work: a detection or de-identification request as a :class:`Job`, its answer as JSON
bytes (:func:`answer`), and the model's PHI-free description (:class:`ModelDescription`).

A job is answered where the model is: in a worker process (:mod:`deident.service.pool`) or in the service's own
process (:class:`InProcess`). The answer is serialised there too, so that the service's event loop only forwards
bytes: turning the 60,000 spans of a megabyte note into JSON takes long enough to hold up ``/health``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from deident.api import Deidentifier
from deident.core.document import Document
from deident.core.span import Span
from deident.replace import Mode
from deident.stage2.explain import explain as explain_span


class SpanOut(BaseModel):
    start: int
    end: int
    label: str
    category: str
    hipaa: str
    source: str
    score: float | None
    explanation: str | None = None


class DetectOut(BaseModel):
    spans: list[SpanOut]


class DeidentifiedOut(BaseModel):
    id: str | None = None
    text: str
    spans: list[SpanOut]
    replaced: int


class BatchOut(BaseModel):
    documents: list[DeidentifiedOut]


def span_out(span: Span, with_explanation: bool = False) -> SpanOut:
    return SpanOut(
        start=span.start,
        end=span.end,
        label=span.label.value,
        category=span.category.value,
        hipaa=span.label.safe_harbor.value,
        source=span.source,
        score=span.score,
        explanation=explain_span(span) if with_explanation else None,
    )


class Task(enum.StrEnum):
    DETECT = "detect"  # one note: its spans
    DEIDENTIFY = "deidentify"  # one note: its de-identified text
    BATCH = "batch"  # several notes de-identified together (a patient's notes share surrogates)


@dataclass(frozen=True)
class Job:
    """One request's work; ``mode`` is a checked mode name (None: the service's default)."""

    task: Task
    documents: tuple[Document, ...] = field(repr=False)
    mode: str | None = None
    explain: bool = False


def answer(deidentifier: Deidentifier, job: Job) -> bytes:
    """The JSON answer to ``job`` (the body of an HTTP 200)."""
    mode = None if job.mode is None else Mode.parse(job.mode)
    out: BaseModel
    if job.task is Task.DETECT:
        spans = deidentifier.detect(job.documents[0])
        out = DetectOut(spans=[span_out(s, job.explain) for s in spans])
    elif job.task is Task.DEIDENTIFY:
        result = deidentifier.deidentify(job.documents[0], mode=mode)
        out = DeidentifiedOut(text=result.text, spans=[span_out(s) for s in result.spans], replaced=len(result.spans))
    else:
        results = deidentifier.deidentify_many(job.documents, mode=mode)
        out = BatchOut(
            documents=[
                DeidentifiedOut(id=doc.id, text=r.text, spans=[span_out(s) for s in r.spans], replaced=len(r.spans))
                for doc, r in zip(job.documents, results, strict=True)
            ]
        )
    return out.model_dump_json().encode("utf-8")


@dataclass(frozen=True)
class ModelDescription:
    """What ``/health`` and ``/v1/info`` say of the loaded model (no key, no site list entries)."""

    model_id: str
    pipeline: str | None
    stages: tuple[str, ...]
    scheme: str | None  # the output scheme (None: no detection pipeline)
    mode: str
    key_id: str | None  # the surrogate key's one-way fingerprint; None: no key
    recall_target: float | None
    operating_point: dict[str, Any] | None
    site_config: dict[str, Any] | None  # the site configuration's name and hashes

    @classmethod
    def of(cls, deidentifier: Deidentifier) -> ModelDescription:
        pipeline = deidentifier.pipeline
        point = deidentifier.operating_point
        return cls(
            model_id=deidentifier.model_id,
            pipeline=None if pipeline is None else pipeline.name,
            stages=() if pipeline is None else tuple(pipeline.stage_names),
            scheme=deidentifier.scheme,
            mode=deidentifier.options.mode.value,
            key_id=None if deidentifier.options.key is None else deidentifier.options.key.key_id,
            recall_target=deidentifier.recall_target,
            operating_point=None if point is None else point.as_dict(),
            site_config=None if deidentifier.site is None else deidentifier.site.provenance(),
        )


class Engine(Protocol):
    """Where jobs are answered. :meth:`run` blocks (the service calls it on a thread) and may raise
    :class:`~deident.service.pool.ServiceUnavailable` (HTTP 503 or 504)."""

    @property
    def description(self) -> ModelDescription: ...

    def run(self, job: Job) -> bytes: ...


class InProcess:
    """Jobs answered in the calling thread of this process, with no time budget (a thread cannot be stopped):
    for tests and embedding; ``deident serve`` uses worker processes (:class:`~deident.service.pool.WorkerPool`)."""

    def __init__(self, deidentifier: Deidentifier) -> None:
        self._deidentifier = deidentifier
        self._description = ModelDescription.of(deidentifier)

    @property
    def description(self) -> ModelDescription:
        return self._description

    def run(self, job: Job) -> bytes:
        return answer(self._deidentifier, job)
