"""The REST service: the :class:`~deident.api.Deidentifier` facade behind FastAPI.

Endpoints (JSON in, JSON out):

- ``GET /health``: liveness, the model id and the deident version.
- ``GET /v1/info``: the pipeline's stages, the output scheme, the replacement mode, the operating point with its
  expected recall and precision, the label set, limits and the site configuration's hash.
- ``POST /v1/detect``: PHI spans (offsets, label, category, HIPAA identifier, detector, score; with
  ``explain`` a PHI-free explanation per span) of one text.
- ``POST /v1/deidentify``: the de-identified text and the spans of the replacements.
- ``POST /v1/deidentify/batch``: several notes at once; notes of one patient are detected together
  (reconciliation works across them) and share surrogates and a date shift.

Privacy: responses never echo the submitted text except as its de-identified form, and validation
errors are reported without the offending input (FastAPI's default 422 body repeats it). The secret
key of the surrogate modes is configured when the service starts; clients cannot send one, and a
request with a field the service does not know is refused (422).

Work: detection and de-identification run in worker processes (:mod:`deident.service.pool`, ``deident serve``),
each request within a time budget (504 past it) and with a bounded queue (503 when full), so ``/health`` and
``/v1/info`` answer at once while a large note is being processed; given a :class:`~deident.api.Deidentifier`,
the service runs it on its own threads instead (:class:`~deident.service.jobs.InProcess`). The answer is serialised
where the work is done.

Offline: ``/docs`` (and ``/redoc``) is a plain page rendered here from the OpenAPI schema, with nothing loaded
from another host (FastAPI's Swagger UI and ReDoc pages load scripts from a CDN).

Access: with a ``token``, every path (the pages ``/docs``, ``/redoc`` and ``/openapi.json`` included) needs
the header ``Authorization: Bearer <token>``; others get 401. Text that is not Unicode (a lone surrogate escape
such as ``"\\ud800"``) is refused with 400.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import anyio.to_thread
from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from deident import __version__
from deident.api import Deidentifier
from deident.core.document import Document, DocumentMetadata
from deident.core.labels import Label
from deident.replace import Mode
from deident.service.docs_page import render_docs
from deident.service.jobs import BatchOut, DeidentifiedOut, DetectOut, Engine, InProcess, Job, Task
from deident.service.pool import ServiceUnavailable

DEFAULT_MAX_CHARS = 1_000_000
DEFAULT_MAX_DOCUMENTS = 1_000


@dataclass(frozen=True)
class ServiceLimits:
    """Request size limits: characters per note, notes per batch."""

    max_chars: int = DEFAULT_MAX_CHARS
    max_documents: int = DEFAULT_MAX_DOCUMENTS


LONE_SURROGATE = "lone_surrogate"


def _unicode_only(value: str) -> str:
    """Refuse lone surrogates (JSON escapes "\\ud800" to "\\udfff" unpaired): they are not Unicode text
    and could be neither encoded for keys nor returned."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PydanticCustomError(LONE_SURROGATE, "a lone surrogate (\\ud800 to \\udfff) is not Unicode text") from None
    return value


UnicodeStr = Annotated[str, AfterValidator(_unicode_only)]


class NoteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: UnicodeStr
    patient_id: UnicodeStr | None = Field(default=None, max_length=200)
    author: UnicodeStr | None = Field(
        default=None, max_length=200, description="the note's poster: its handle is sought"
    )

    def document(self, note_id: str = "text") -> Document:
        return Document(note_id, self.text, DocumentMetadata(patient_id=self.patient_id, author=self.author))


class DetectIn(NoteIn):
    explain: bool = False


class DeidentifyIn(NoteIn):
    mode: UnicodeStr | None = Field(default=None, description="tag, redact, mask, surrogate or safe-harbor")


class BatchNoteIn(NoteIn):
    id: UnicodeStr | None = Field(default=None, max_length=200)


class BatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    documents: list[BatchNoteIn]
    mode: UnicodeStr | None = None


def _safe_location(loc: Sequence[Any], known: set[str]) -> list[str | int]:
    """An error location with only the service's own field names and list positions: an unknown
    field's name is the client's and is not repeated."""
    return [part if isinstance(part, int) or part in known else "<unknown field>" for part in loc]


_FIELD_NAMES = {"body", "query", "path", "header"} | {
    name for model in (DetectIn, DeidentifyIn, BatchNoteIn, BatchIn) for name in model.model_fields
}


def create_app(model: Deidentifier | Engine, limits: ServiceLimits | None = None, token: str | None = None) -> FastAPI:
    """A FastAPI application serving ``model``: a deidentifier (loaded once, shared by every request, run on
    the service's threads) or an engine such as :class:`~deident.service.pool.WorkerPool` (worker processes,
    a time budget per request).

    With ``token``, every request needs ``Authorization: Bearer <token>`` (401 otherwise)."""
    limits = limits or ServiceLimits()
    engine: Engine = InProcess(model) if isinstance(model, Deidentifier) else model
    described = engine.description
    app = FastAPI(
        title="deident",
        version=__version__,
        summary="Find and remove protected health information in clinical free text.",
        # Swagger UI and ReDoc load their scripts from a CDN: /docs and /redoc serve a local page instead.
        docs_url=None,
        redoc_url=None,
    )

    @app.get("/docs", include_in_schema=False, response_class=HTMLResponse)
    @app.get("/redoc", include_in_schema=False, response_class=HTMLResponse)
    def _docs() -> HTMLResponse:
        return HTMLResponse(render_docs(app.openapi()))

    if token is not None:
        expected = f"Bearer {token}".encode()

        @app.middleware("http")
        async def _require_token(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
            given = request.headers.get("authorization", "").encode("utf-8", "replace")
            if not hmac.compare_digest(given, expected):
                return JSONResponse(
                    status_code=401,
                    content={"detail": "missing or wrong bearer token"},
                    headers={"WWW-Authenticate": "Bearer"},
                )
            return await call_next(request)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, err: RequestValidationError) -> JSONResponse:
        # Location and message only: the default body would repeat the submitted value (PHI).
        errors = err.errors()
        problems = [
            {"loc": _safe_location(e.get("loc", ()), _FIELD_NAMES), "msg": str(e.get("msg", ""))} for e in errors
        ]
        status = 400 if any(e.get("type") == LONE_SURROGATE for e in errors) else 422
        return JSONResponse(status_code=status, content={"detail": problems})

    def check_sizes(texts: Sequence[str]) -> None:
        if len(texts) > limits.max_documents:
            raise HTTPException(413, f"at most {limits.max_documents} documents per request")
        for i, text in enumerate(texts):
            if len(text) > limits.max_chars:
                raise HTTPException(413, f"document {i}: {len(text)} characters; the limit is {limits.max_chars}")

    def checked_mode(mode: str | None) -> str | None:
        if mode is None:
            return None
        try:
            parsed = Mode.parse(mode)
        except ValueError:
            # The submitted value is not quoted back (a client may have put anything there).
            raise HTTPException(
                422, f"field 'mode': unknown mode; choose one of {', '.join(m.value for m in Mode)}"
            ) from None
        if parsed.needs_key and described.key_id is None:
            raise HTTPException(
                422, f"mode {parsed.value!r} needs a secret key; start the service with --key or --ephemeral-key"
            )
        return parsed.value

    async def answered(job: Job) -> Response:
        # The engine blocks (a worker's pipe, or detection itself): on a thread, the event loop stays free.
        try:
            content = await anyio.to_thread.run_sync(engine.run, job)
        except ServiceUnavailable as err:
            return JSONResponse(status_code=err.status, content={"detail": str(err)})
        return Response(content=content, media_type="application/json")

    # Answered on the event loop itself: no thread to wait for while requests fill the thread pool.
    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok", "model": described.model_id, "version": __version__}

    @app.get("/v1/info")
    async def info() -> dict[str, Any]:
        return {
            "version": __version__,
            "model": described.model_id,
            "pipeline": described.pipeline,
            "stages": list(described.stages),
            "scheme": described.scheme,
            "mode": described.mode,
            "surrogate_key": described.key_id,
            "recall_target": described.recall_target,
            "operating_point": described.operating_point,
            "labels": [label.value for label in Label],
            "limits": {"max_chars": limits.max_chars, "max_documents": limits.max_documents},
            # The site configuration's file name and SHA-256 (deident.site), never its entries.
            "site_config": described.site_config,
        }

    @app.post("/v1/detect", response_model=DetectOut)
    async def detect(note: DetectIn) -> Response:
        check_sizes([note.text])
        return await answered(Job(Task.DETECT, (note.document(),), explain=note.explain))

    @app.post("/v1/deidentify", response_model=DeidentifiedOut)
    async def deidentify(note: DeidentifyIn) -> Response:
        check_sizes([note.text])
        return await answered(Job(Task.DEIDENTIFY, (note.document(),), mode=checked_mode(note.mode)))

    @app.post("/v1/deidentify/batch", response_model=BatchOut)
    async def deidentify_batch(batch: BatchIn) -> Response:
        check_sizes([d.text for d in batch.documents])
        documents = tuple(d.document(d.id or str(i)) for i, d in enumerate(batch.documents))
        return await answered(Job(Task.BATCH, documents, mode=checked_mode(batch.mode)))

    return app
