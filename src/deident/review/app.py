"""The review page's server: FastAPI, like the REST service, bound to this machine by default.

Every request must carry the session's access token (``?token=`` on the first page load, which sets a
same-site cookie, or the ``X-Review-Token`` header); the ``Host`` header must name an allowed host, so a
page on another site cannot reach the server through DNS rebinding. Nothing here logs a request or a note.

- ``GET /``: the page; ``GET /static/{name}``: its CSS and JavaScript (package data, no CDN).
- ``GET /api/session``: reviewer, number of notes, the note to resume at, labels by category.
- ``GET /api/notes/{index}``: one note's text and its spans after the corrections so far, each with its
  status, whether it is uncertain and a PHI-free explanation (no other note's text is ever sent), and the
  residual-risk audit's riskiest tokens that no span covers.
- ``POST /api/actions``: one correction (accept, reject, relabel, add, resize), logged before the answer.
- ``GET /api/uncertain?after=I&offset=O``: the next uncertain span after a position, across notes.
- ``POST /api/export``: write the corrected corpus to the output path.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint

from deident.core.errors import DeidentError
from deident.core.labels import Category, Label
from deident.review.audit import audit_document
from deident.review.corrections import Action, Correction, now
from deident.review.session import ReviewSession, is_uncertain
from deident.stage2.explain import explain

TOKEN_COOKIE = "deident_review_token"
TOKEN_HEADER = "X-Review-Token"
RISKS_SHOWN = 10
_STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


@dataclass(frozen=True)
class ReviewConfig:
    """Where the corrected corpus goes, in which format, and the access token and hosts allowed."""

    output: Path
    output_format: str | None
    token: str
    allowed_hosts: frozenset[str]


def new_token() -> str:
    return secrets.token_urlsafe(24)


class ActionIn(BaseModel):
    note: str
    action: Action
    start: int
    end: int
    label: Label
    new_start: int | None = None
    new_end: int | None = None


class ExportIn(BaseModel):
    format: str | None = None


class _Guard(BaseHTTPMiddleware):
    """Refuse a request without the token or addressed to a host that is not allowed."""

    def __init__(self, app: Any, config: ReviewConfig) -> None:
        super().__init__(app)
        self.config = config

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]").lower()
        if host not in self.config.allowed_hosts and "*" not in self.config.allowed_hosts:
            return JSONResponse({"detail": "host not allowed"}, status_code=403)
        given = (
            request.query_params.get("token")
            or request.headers.get(TOKEN_HEADER)
            or request.cookies.get(TOKEN_COOKIE)
            or ""
        )
        if not secrets.compare_digest(given.encode(), self.config.token.encode()):
            return JSONResponse({"detail": "missing or wrong access token"}, status_code=403)
        response = await call_next(request)
        response.headers["Cache-Control"] = "no-store"
        if request.query_params.get("token"):
            response.set_cookie(TOKEN_COOKIE, self.config.token, httponly=True, samesite="strict")
        return response


def _static(name: str) -> str:
    return resources.files("deident.review").joinpath("static", name).read_text(encoding="utf-8")


def _labels_by_category() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {c.value: [] for c in Category}
    for label in Label:
        out[label.category.value].append(label.value)
    return out


def create_review_app(session: ReviewSession, config: ReviewConfig) -> FastAPI:
    app = FastAPI(title="deident review", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(_Guard, config=config)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's default body repeats the input; name the fields only.
        fields = sorted({".".join(str(p) for p in e.get("loc", ())[1:]) for e in exc.errors()})
        return JSONResponse({"detail": f"invalid request: {', '.join(fields) or 'body'}"}, status_code=422)

    @app.get("/", response_class=HTMLResponse)
    def page() -> str:
        return _static("index.html")

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        suffix = Path(name).suffix
        if name not in {"review.css", "review.js"} or suffix not in _STATIC_TYPES:
            raise HTTPException(404, "no such file")
        return Response(_static(name), media_type=_STATIC_TYPES[suffix])

    @app.get("/api/session")
    def session_info() -> dict[str, Any]:
        return {
            "reviewer": session.reviewer,
            "notes": len(session.notes),
            "resume": session.resume_index(),
            "labels": _labels_by_category(),
            "output": str(config.output),
        }

    def note_payload(index: int) -> dict[str, Any]:
        if not 0 <= index < len(session.notes):
            raise HTTPException(404, "no such note")
        note = session.notes[index]
        spans = []
        for item in session.reviewed(index):
            span = item.span
            spans.append(
                {
                    "start": span.start,
                    "end": span.end,
                    "label": span.label.value,
                    "category": span.category.value,
                    "status": item.status,
                    "uncertain": item.status == "pending" and is_uncertain(span, session.uncertain_margin),
                    "score": span.score,
                    "explain": explain(span) if item.status != "added" else f"added by {session.reviewer}",
                }
            )
        # the residual-risk audit of what the current spans leave (words in no dictionary, identifier-shaped
        # digits, known identifiers): the page lists them so that a reviewer can add a missed one
        risks, _ = audit_document(note.with_spans([r.span for r in session.reviewed(index)]))
        ranked = sorted(risks, key=lambda r: (-r.risk, r.start))[:RISKS_SHOWN]
        return {
            "index": index,
            "id": note.id,
            "count": len(session.notes),
            "text": note.text,
            "spans": spans,
            "risks": [{"start": r.start, "end": r.end, "risk": round(r.risk, 3), "classes": r.classes} for r in ranked],
        }

    @app.get("/api/notes/{index}")
    def get_note(index: int) -> dict[str, Any]:
        return note_payload(index)

    @app.post("/api/actions")
    def act(body: ActionIn) -> dict[str, Any]:
        try:
            index = session.index_of(body.note)
        except KeyError:
            raise HTTPException(404, "no such note") from None
        try:
            correction = Correction(
                body.note,
                body.action,
                body.start,
                body.end,
                body.label,
                session.reviewer,
                now(),
                body.new_start,
                body.new_end,
            )
            session.record(correction)
        except ValueError as err:
            raise HTTPException(422, str(err)) from None
        return note_payload(index)

    @app.get("/api/uncertain")
    def next_uncertain(after: int = 0, offset: int = -1) -> dict[str, Any]:
        count = len(session.notes)
        for step in range(count + 1):
            index = (after + step) % count
            for item in session.reviewed(index):
                if step == 0 and item.span.start <= offset:
                    continue
                if item.status == "pending" and is_uncertain(item.span, session.uncertain_margin):
                    return {"index": index, "start": item.span.start, "end": item.span.end}
        return {"index": None}

    @app.post("/api/export")
    def export(body: ExportIn) -> dict[str, Any]:
        try:
            path = session.export(config.output, body.format or config.output_format)
        except DeidentError as err:
            raise HTTPException(422, str(err)) from None
        corrected = session.corrected()
        return {"path": str(path), "notes": len(corrected), "spans": sum(len(d.spans) for d in corrected)}

    return app
