from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
import regex
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deident.api import Deidentifier
from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Pipeline
from deident.core.span import Span
from deident.replace import ReplaceOptions, SecretKey
from deident.service.app import ServiceLimits, create_app

NOTE = "Seen by Dr. Kowalski on 3/14."


class ToyDetector:
    name = "toy.names"
    _pattern = regex.compile(r"(?<=Dr\.? )[A-Z][A-Za-z]+|\d{1,2}/\d{1,2}")

    def detect(self, document: Document) -> list[Span]:
        return [
            Span(m.start(), m.end(), Label.DATE if "/" in m.group() else Label.DOCTOR, source=self.name, score=0.9)
            for m in self._pattern.finditer(document.text)
        ]


def client(key: SecretKey | None = None, limits: ServiceLimits | None = None) -> TestClient:
    deid = Deidentifier(Pipeline.of([ToyDetector()], name="toy"), ReplaceOptions(key=key), "toy")
    return TestClient(create_app(deid, limits))


def test_health_and_info() -> None:
    c = client()
    assert c.get("/health").json()["status"] == "ok"
    info = c.get("/v1/info").json()
    assert info["model"] == "toy" and info["stages"] == ["toy.names"] and info["mode"] == "tag"
    assert "DOCTOR" in info["labels"] and info["surrogate_key"] is None and info["operating_point"] is None


def test_detect_returns_offsets_not_text() -> None:
    response = client().post("/v1/detect", json={"text": NOTE})
    assert response.status_code == 200
    spans = response.json()["spans"]
    assert [(s["start"], s["end"], s["label"], s["category"]) for s in spans] == [
        (12, 20, "DOCTOR", "NAME"),
        (24, 28, "DATE", "DATE"),
    ]
    assert spans[0]["source"] == "toy.names" and spans[0]["explanation"] is None
    assert "Kowalski" not in response.text


def test_detect_explain() -> None:
    spans = client().post("/v1/detect", json={"text": NOTE, "explain": True}).json()["spans"]
    assert spans[0]["explanation"].startswith("DOCTOR [12, 20)")
    assert "Kowalski" not in spans[0]["explanation"]


def test_deidentify_tag_by_default() -> None:
    body = client().post("/v1/deidentify", json={"text": NOTE}).json()
    assert body["text"] == "Seen by Dr. [**DOCTOR**] on [**DATE**]." and body["replaced"] == 2
    assert [body["text"][s["start"] : s["end"]] for s in body["spans"]] == ["[**DOCTOR**]", "[**DATE**]"]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("redact", "Seen by Dr. [REDACTED] on [REDACTED]."),
        ("mask", "Seen by Dr. ******** on ****."),
    ],
)
def test_deidentify_modes(mode: str, expected: str) -> None:
    body = client().post("/v1/deidentify", json={"text": NOTE, "mode": mode}).json()
    assert body["text"] == expected


def test_surrogate_needs_server_key() -> None:
    response = client().post("/v1/deidentify", json={"text": NOTE, "mode": "surrogate"})
    assert response.status_code == 422 and "key" in response.json()["detail"]


def test_surrogates_consistent_per_patient_in_a_batch() -> None:
    c = client(SecretKey.from_text("service-test-key-000001"))
    docs = [
        {"id": "a", "text": "Dr Kowalski saw him.", "patient_id": "7"},
        {"id": "b", "text": "Dr Kowalski called.", "patient_id": "7"},
        {"id": "c", "text": "Dr Kowalski saw him.", "patient_id": "8"},
    ]
    out = c.post("/v1/deidentify/batch", json={"documents": docs, "mode": "surrogate"}).json()["documents"]
    assert [d["id"] for d in out] == ["a", "b", "c"]
    names = [d["text"][d["spans"][0]["start"] : d["spans"][0]["end"]] for d in out]
    assert "Kowalski" not in "".join(d["text"] for d in out)
    assert names[0] == names[1]
    single = c.post("/v1/deidentify", json={"text": "Dr Kowalski saw him.", "patient_id": "7", "mode": "surrogate"})
    assert single.json()["text"] == out[0]["text"]


def test_unknown_mode_is_a_clear_error() -> None:
    response = client().post("/v1/deidentify", json={"text": NOTE, "mode": "shred"})
    assert response.status_code == 422 and "unknown mode" in response.json()["detail"]


def test_validation_errors_do_not_echo_input() -> None:
    response = client().post("/v1/detect", json={"text": NOTE, "patient_id": "Kowalski" * 40})
    assert response.status_code == 422
    assert "Kowalski" not in response.text
    assert response.json()["detail"][0]["loc"] == ["body", "patient_id"]


@pytest.mark.parametrize(
    ("path", "payload"),
    [
        ("/v1/detect", {"text": "x" * 101}),
        ("/v1/deidentify", {"text": "x" * 101}),
        ("/v1/deidentify/batch", {"documents": [{"text": "a"}] * 3}),
    ],
)
def test_size_limits(path: str, payload: dict[str, object]) -> None:
    response = client(limits=ServiceLimits(max_chars=100, max_documents=2)).post(path, json=payload)
    assert response.status_code == 413


def test_bundled_default_model_serves() -> None:
    deid = Deidentifier.load(pipeline="rules")
    c = TestClient(create_app(deid))
    body = c.post("/v1/deidentify", json={"text": "Pt seen by Dr. Kowalski, call 617-555-0123."}).json()
    assert "617-555-0123" not in body["text"] and "Kowalski" not in body["text"]


class ConfidentAttending:
    name = "toy.attending"
    _pattern = regex.compile(r"(?<=Attending: )[A-Z][a-z]+")

    def detect(self, document: Document) -> list[Span]:
        return [Span(m.start(), m.end(), Label.DOCTOR, self.name, 0.95) for m in self._pattern.finditer(document.text)]


def test_batch_reconciles_a_patients_notes_together() -> None:
    from deident.stage2.reconcile import ReconcileStage

    deid = Deidentifier(Pipeline.of([ConfidentAttending(), ReconcileStage()], name="toy"), ReplaceOptions(), "toy")
    c = TestClient(create_app(deid))
    mention = "QUILLFEATHER UPDATED BY PHONE."
    docs = [
        {"id": "a", "text": "Attending: Quillfeather", "patient_id": "7"},
        {"id": "b", "text": mention, "patient_id": "8"},
        {"id": "c", "text": mention, "patient_id": "7"},
    ]
    out = c.post("/v1/deidentify/batch", json={"documents": docs}).json()["documents"]
    assert [d["replaced"] for d in out] == [1, 0, 1]
    assert out[2]["spans"][0]["source"] == "reconcile"
    single = c.post("/v1/deidentify", json={"text": mention, "patient_id": "7"}).json()
    assert single["replaced"] == 0  # one note alone has nothing to reconcile with


def test_the_author_reaches_the_pipeline() -> None:
    from deident.detect.patterns.usernames import username_detector

    deid = Deidentifier(Pipeline.of([username_detector()], name="users"), ReplaceOptions(), "users")
    c = TestClient(create_app(deid))
    text = "thx to bramblefoot77 for the tip"
    without = c.post("/v1/detect", json={"text": "bramblefoot here, " + text}).json()["spans"]
    found = c.post("/v1/detect", json={"text": "bramblefoot here, " + text, "author": "bramblefoot77"}).json()["spans"]
    assert [(s["start"], s["end"]) for s in without] == []
    assert [(s["start"], s["end"], s["label"]) for s in found] == [(0, 11, "USERNAME"), (25, 38, "USERNAME")]
    batch = c.post(
        "/v1/deidentify/batch", json={"documents": [{"text": text, "author": "bramblefoot77"}], "mode": "redact"}
    ).json()
    assert "bramblefoot77" not in batch["documents"][0]["text"]


def test_a_batch_seeks_every_posters_handle_in_every_note() -> None:
    from deident.detect.patterns.usernames import username_detector

    deid = Deidentifier(Pipeline.of([username_detector()], name="users"), ReplaceOptions(), "users")
    c = TestClient(create_app(deid))
    posts = [{"text": "first post here", "author": "quillrunner77"}, {"text": "agree with quillrunner, ask again"}]
    out = c.post("/v1/deidentify/batch", json={"documents": posts, "mode": "redact"}).json()["documents"]
    assert [d["replaced"] for d in out] == [0, 1]
    assert "quillrunner" not in out[1]["text"]
    alone = c.post("/v1/deidentify", json={"text": posts[1]["text"], "mode": "redact"}).json()
    assert alone["replaced"] == 0  # a note alone does not know the board's posters


TOKEN = "service-test-token-0123456789"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        *(("get", path) for path in ("/health", "/v1/info", "/docs", "/openapi.json", "/redoc")),
        *(("post", path) for path in ("/v1/detect", "/v1/deidentify", "/v1/deidentify/batch")),
    ],
)
def test_a_token_guards_every_path(method: str, path: str) -> None:
    deid = Deidentifier(Pipeline.of([ToyDetector()], name="toy"), ReplaceOptions(), "toy")
    c = TestClient(create_app(deid, token=TOKEN))
    body = {"documents": [{"text": NOTE}]} if path.endswith("batch") else {"text": NOTE}
    kwargs: dict[str, object] = {"json": body} if method == "post" else {}
    for headers in ({}, {"Authorization": "Bearer wrong-token-0123456789"}, {"Authorization": TOKEN}):
        refused = getattr(c, method)(path, headers=headers, **kwargs)
        assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        assert "Kowalski" not in refused.text
    allowed = getattr(c, method)(path, headers={"Authorization": f"Bearer {TOKEN}"}, **kwargs)
    assert allowed.status_code == 200


@pytest.mark.parametrize(
    "payload",
    [
        {"text": NOTE, "key": "client-chosen-key-0123456789"},
        {"text": NOTE, "Zebulon Quackenbush": 1},
    ],
)
def test_unknown_fields_are_refused_without_echo(payload: dict[str, object]) -> None:
    response = client().post("/v1/deidentify", json=payload)
    assert response.status_code == 422 and "Extra inputs are not permitted" in response.text
    assert "client-chosen" not in response.text and "Zebulon" not in response.text
    batch = client().post("/v1/deidentify/batch", json={"documents": [payload]})
    assert batch.status_code == 422 and "Zebulon" not in batch.text


MODES = ("tag", "redact", "mask", "surrogate", "safe-harbor")


def post_json(c: TestClient, path: str, body: object) -> Any:
    """POST ``body`` as JSON text with ASCII escapes, as any client may send lone surrogates ("\\ud800")."""
    return c.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("field", ["text", "patient_id"])
def test_a_lone_surrogate_is_a_clear_400_in_every_mode(mode: str, field: str) -> None:
    c = client(key=SecretKey.from_text("lone-surrogate-test-key-0123456789"))
    note = {"text": NOTE, field: "Dr. Kowalski \ud800 on 3/14"}
    for path, body in (
        ("/v1/deidentify", {**note, "mode": mode}),
        ("/v1/deidentify/batch", {"documents": [note], "mode": mode}),
    ):
        response = post_json(c, path, body)
        assert response.status_code == 400, response.text
        assert "lone surrogate" in response.text and "Kowalski" not in response.text


_FRAGMENTS = st.sampled_from(
    ["Dr. Kowalski", " on 3/14", " 617-555-0123", "\n", " ", "Mr.", "1/1/99", "\ud800", "\udfff"]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.lists(_FRAGMENTS | st.text(st.characters(exclude_categories=()), max_size=6), max_size=8).map("".join),
    mode=st.sampled_from(MODES),
)
def test_no_json_valid_input_gives_a_server_error(text: str, mode: str) -> None:
    patient_id = text[:20]  # may cut a high + low surrogate pair in two: a lone surrogate in that field
    response = post_json(FUZZ_CLIENT, "/v1/deidentify", {"text": text, "mode": mode, "patient_id": patient_id})
    # As the server reads each field: an escaped high + low surrogate is one character.
    received = json.loads(json.dumps(text)) + json.loads(json.dumps(patient_id))
    encodable = all(not 0xD800 <= ord(ch) <= 0xDFFF for ch in received)
    assert response.status_code == (200 if encodable else 400), response.text


def test_a_patient_id_cut_inside_a_surrogate_pair_is_a_client_error() -> None:
    """The fuzz case that found the test's own mistake: the text is valid (a high + low pair), its first 20
    characters end in the pair's high half."""
    text = "Dr. Kowalski\n000000\ud800\udfff"
    response = post_json(FUZZ_CLIENT, "/v1/deidentify", {"text": text, "mode": "tag", "patient_id": text[:20]})
    assert response.status_code == 400 and "patient_id" in response.text


FUZZ_CLIENT = client(key=SecretKey.from_text("fuzz-test-key-0123456789abcdef"))


def test_a_service_with_a_site_configuration() -> None:
    from tests.site.conftest import SITE_FIXTURE

    note = "Transfer to the Annexe; Bristol stool chart 4."
    plain = TestClient(create_app(Deidentifier.load(pipeline="rules", preload=False)))
    configured = TestClient(create_app(Deidentifier.load(pipeline="rules", preload=False, config=SITE_FIXTURE)))

    def found(client: TestClient) -> list[tuple[str, str]]:
        spans = client.post("/v1/detect", json={"text": note}).json()["spans"]
        return [(note[s["start"] : s["end"]], s["label"]) for s in spans]

    assert ("the Annexe", "HOSPITAL") not in found(plain) and ("Bristol", "CITY") in found(plain)
    assert found(configured) == [("the Annexe", "HOSPITAL")]
    assert plain.get("/v1/info").json()["site_config"] is None
    info = configured.get("/v1/info").json()["site_config"]
    assert info["name"] == "site.toml" and info["sha256"] == hashlib.sha256(SITE_FIXTURE.read_bytes()).hexdigest()


@pytest.mark.parametrize(("scheme", "found"), [(None, ["Mercy Hospital"]), ("physionet", ["Mercy"])])
def test_the_service_outputs_the_hipaa_scheme_unless_started_with_another(scheme: str | None, found: list[str]) -> None:
    c = TestClient(create_app(Deidentifier.load(scheme=scheme, preload=False)))
    assert c.get("/v1/info").json()["scheme"] == (scheme or "hipaa")
    text = "Transferred from Mercy Hospital overnight."
    spans = c.post("/v1/detect", json={"text": text}).json()["spans"]
    assert [text[s["start"] : s["end"]] for s in spans] == found
