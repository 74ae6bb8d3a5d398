"""The service's ``/docs`` page: plain HTML rendered from its OpenAPI schema, with no script, style sheet or font
from another host (FastAPI's Swagger UI and ReDoc pages load theirs from a CDN, blank on an air-gapped network)."""

from __future__ import annotations

import json
from html import escape
from typing import Any

_METHODS = ("get", "post", "put", "patch", "delete")
_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}"
    "code,pre{font-family:ui-monospace,monospace}pre{background:#f4f4f4;padding:.5rem;overflow:auto}"
    "h2{margin-top:2rem;border-bottom:1px solid #ccc}.method{font-weight:bold;text-transform:uppercase}"
)


def _schema_name(schema: dict[str, Any] | None) -> str:
    if not schema:
        return ""
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    return str(schema.get("type", ""))


def _operation(path: str, method: str, operation: dict[str, Any]) -> str:
    title = operation.get("summary") or operation.get("operationId") or ""
    parts = [f'<h3><span class="method">{escape(method)}</span> <code>{escape(path)}</code> {escape(title)}</h3>']
    if operation.get("description"):
        parts.append(f"<p>{escape(operation['description'])}</p>")
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    if body:
        parts.append(f"<p>Request body (JSON): <code>{escape(_schema_name(body.get('schema')))}</code></p>")
    responses = operation.get("responses", {})
    if responses:
        items = "".join(
            f"<li><code>{escape(str(status))}</code> {escape(str(answer.get('description', '')))}</li>"
            for status, answer in sorted(responses.items())
        )
        parts.append(f"<p>Responses:</p><ul>{items}</ul>")
    return "\n".join(parts)


def render_docs(openapi: dict[str, Any]) -> str:
    """The endpoints and schemas of ``openapi`` as one self-contained HTML page."""
    info = openapi.get("info", {})
    title = f"{info.get('title', 'API')} {info.get('version', '')}".strip()
    sections = [
        _operation(path, method, item[method])
        for path, item in sorted(openapi.get("paths", {}).items())
        for method in _METHODS
        if method in item
    ]
    schemas = openapi.get("components", {}).get("schemas", {})
    schema_parts = [
        f'<h3 id="{escape(name)}"><code>{escape(name)}</code></h3><pre>{escape(json.dumps(schema, indent=2))}</pre>'
        for name, schema in sorted(schemas.items())
    ]
    summary = escape(str(info.get("summary") or info.get("description") or ""))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body>\n"
        f"<h1>{escape(title)}</h1><p>{summary}</p>"
        "<p>This page is served by the service itself (nothing is loaded from another host). "
        'The machine-readable schema is at <a href="openapi.json"><code>/openapi.json</code></a>.</p>\n'
        "<h2>Endpoints</h2>\n" + "\n".join(sections) + "\n<h2>Schemas</h2>\n" + "\n".join(schema_parts) + "\n"
        "</body></html>\n"
    )
