"""The service's /docs page works offline: rendered from the OpenAPI schema, nothing loaded from another host."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from deident.api import Deidentifier
from deident.service.app import create_app
from deident.service.docs_page import render_docs


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Deidentifier.load(pipeline="rules")))


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_docs_page_loads_nothing_from_another_host(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert not re.search(r"(https?:)?//[\w.-]+", page.text.replace("</", "")), "an address of another host"
    assert "<script" not in page.text and "<link" not in page.text and "@import" not in page.text
    for endpoint in ("/health", "/v1/info", "/v1/detect", "/v1/deidentify", "/v1/deidentify/batch"):
        assert f"<code>{endpoint}</code>" in page.text


def test_the_cdn_pages_are_gone(client: TestClient) -> None:
    assert "cdn" not in client.get("/docs").text.lower()
    assert client.get("/openapi.json").status_code == 200


def test_docs_page_escapes_the_schema() -> None:
    page = render_docs({"info": {"title": "<t>"}, "paths": {"/x": {"get": {"summary": "<script>"}}}})
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;t&gt;" in page
