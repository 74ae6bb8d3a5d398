from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from deident.io.formats import read_corpus
from deident.review.app import TOKEN_HEADER, ReviewConfig, create_review_app
from deident.review.corrections import CorrectionLog
from deident.review.session import ReviewSession, load_notes, order_by_uncertainty
from tests.review.conftest import NOTE_A, NOTE_B, invented_notes

TOKEN = "test-token-123"


def _client(tmp_path: Path, output: str = "out.jsonl", fmt: str | None = None) -> TestClient:
    session = ReviewSession(invented_notes(), CorrectionLog(tmp_path / "log.jsonl"), "ann")
    config = ReviewConfig(tmp_path / output, fmt, TOKEN, frozenset({"testserver", "127.0.0.1"}))
    client = TestClient(create_review_app(session, config))
    client.headers[TOKEN_HEADER] = TOKEN
    return client


@pytest.mark.parametrize("path", ["/", "/static/review.js", "/api/session", "/api/notes/0"])
def test_requests_without_the_token_are_refused(tmp_path, path):
    client = _client(tmp_path)
    del client.headers[TOKEN_HEADER]
    assert client.get(path).status_code == 403
    assert client.get(path, headers={TOKEN_HEADER: "wrong"}).status_code == 403


def test_token_in_url_sets_a_cookie_for_the_page_assets(tmp_path):
    client = _client(tmp_path)
    del client.headers[TOKEN_HEADER]
    page = client.get(f"/?token={TOKEN}")
    assert page.status_code == 200 and "review.js" in page.text
    assert client.get("/static/review.js").status_code == 200  # the cookie now carries the token
    assert client.get("/static/../app.py").status_code in (403, 404)


def test_other_host_is_refused(tmp_path):
    client = _client(tmp_path)
    assert client.get("/api/session", headers={"host": "evil.example:8765"}).status_code == 403


def test_any_host_when_listening_on_every_interface(tmp_path):
    session = ReviewSession(invented_notes(), CorrectionLog(tmp_path / "log.jsonl"), "ann")
    client = TestClient(create_review_app(session, ReviewConfig(tmp_path / "o.jsonl", None, TOKEN, frozenset("*"))))
    assert client.get("/api/session", headers={"host": "ward-pc.example:8765", TOKEN_HEADER: TOKEN}).status_code == 200
    assert client.get("/api/session", headers={"host": "ward-pc.example:8765"}).status_code == 403


def test_note_shows_spans_with_status_uncertainty_and_explanation(tmp_path):
    note = _client(tmp_path).get("/api/notes/0").json()
    assert note["id"] == "note-a" and note["text"] == NOTE_A
    by_label = {s["label"]: s for s in note["spans"]}
    assert by_label["CITY"]["uncertain"] is True  # p=0.42, t=0.50
    assert by_label["DOCTOR"]["uncertain"] is False  # no filter verdict
    assert by_label["CITY"]["explain"].startswith("CITY [")
    assert all(NOTE_B not in s["explain"] and "Brandt" not in s["explain"] for s in note["spans"])


def test_actions_are_logged_and_resumed(tmp_path):
    client = _client(tmp_path)
    doctor = NOTE_A.index("Kowalski")
    client.post(
        "/api/actions",
        json={"note": "note-a", "action": "reject", "start": doctor, "end": doctor + 8, "label": "DOCTOR"},
    )
    call = NOTE_A.index("617")
    answer = client.post(
        "/api/actions", json={"note": "note-a", "action": "add", "start": call, "end": call + 12, "label": "PHONE"}
    )
    assert answer.status_code == 200
    assert [s["label"] for s in answer.json()["spans"]] == ["DATE", "CITY", "PHONE"]
    assert len((tmp_path / "log.jsonl").read_text().splitlines()) == 2
    # a new server on the same log: corrections replayed, resumes after the last corrected note
    again = _client(tmp_path)
    assert [s["label"] for s in again.get("/api/notes/0").json()["spans"]] == ["DATE", "CITY", "PHONE"]
    assert again.get("/api/session").json()["resume"] == 0
    brandt = NOTE_B.index("Brandt")
    again.post(
        "/api/actions",
        json={"note": "note-b", "action": "accept", "start": brandt, "end": brandt + 6, "label": "PATIENT"},
    )
    assert _client(tmp_path).get("/api/session").json()["resume"] == 1  # the last note corrected


@pytest.mark.parametrize(
    "body",
    [
        {"note": "nope", "action": "reject", "start": 0, "end": 3, "label": "DATE"},
        {"note": "note-a", "action": "add", "start": 0, "end": 10_000, "label": "DATE"},
        {"note": "note-a", "action": "add", "start": 0, "end": 3, "label": "NOT_A_LABEL"},
    ],
)
def test_bad_actions_are_refused_and_not_logged(tmp_path, body):
    client = _client(tmp_path)
    answer = client.post("/api/actions", json=body)
    assert answer.status_code in (404, 422)
    assert "NOT_A_LABEL" not in answer.text
    assert not (tmp_path / "log.jsonl").exists()


def test_next_uncertain_span_crosses_notes(tmp_path):
    client = _client(tmp_path)
    city = NOTE_A.index("Mercy")
    assert client.get("/api/uncertain?after=0&offset=-1").json() == {"index": 0, "start": city, "end": city + 5}
    assert client.get(f"/api/uncertain?after=0&offset={city}").json()["index"] == 0  # wraps around to it
    client.post(
        "/api/actions", json={"note": "note-a", "action": "accept", "start": city, "end": city + 5, "label": "CITY"}
    )
    assert client.get("/api/uncertain?after=1").json() == {"index": None}


@pytest.mark.parametrize(("output", "fmt"), [("out.jsonl", None), ("brat", "brat"), ("xml", "i2b2-2014")])
def test_export_is_read_back_with_the_corrections(tmp_path, output, fmt):
    client = _client(tmp_path, output, fmt)
    date = NOTE_A.index("3/14/2019")
    client.post(
        "/api/actions", json={"note": "note-a", "action": "relabel", "start": date, "end": date + 9, "label": "AGE"}
    )
    result = client.post("/api/export", json={}).json()
    assert result["notes"] == 2 and result["spans"] == 5
    corpus = {d.id: d for d in read_corpus(tmp_path / output, fmt)}
    assert corpus["note-a"].text == NOTE_A
    assert [(s.start, s.label.value) for s in corpus["note-a"].spans if s.start == date] == [(date, "AGE")]


def test_train_reads_the_export_as_is(tmp_path):
    from deident.cli.train_cmd import _read_all
    from deident.io.formats import ReadOptions

    client = _client(tmp_path, "brat", "brat")
    client.post("/api/export", json={})
    docs = {d.id: d for d in _read_all([tmp_path / "brat"], None, ReadOptions())}
    assert [s.label.value for s in docs["note-a"].spans] == ["DOCTOR", "DATE", "CITY"]


def test_order_by_uncertainty_puts_uncertain_notes_first():
    notes = list(reversed(invented_notes()))
    assert [n.id for n in order_by_uncertainty(notes, 0.15)] == ["note-a", "note-b"]
    # none uncertain: the smaller filter margin first; without any verdict, the input order
    assert [n.id for n in order_by_uncertainty(notes, 0.01)] == ["note-a", "note-b"]
    bare = [n.with_spans(()) for n in notes]
    assert [n.id for n in order_by_uncertainty(bare, 0.15)] == ["note-b", "note-a"]


def test_spans_file_is_matched_by_note_id(tmp_path, notes_file):
    notes = load_notes(notes_file, None, notes_file)
    assert [len(n.spans) for n in notes] == [3, 2]


def test_note_lists_residual_risks_outside_its_spans(tmp_path):
    client = _client(tmp_path)
    risks = client.get("/api/notes/0").json()["risks"]
    assert {NOTE_A[r["start"] : r["end"]] for r in risks} >= {"617", "555", "0143"}
    call = NOTE_A.index("617")
    answer = client.post(
        "/api/actions", json={"note": "note-a", "action": "add", "start": call, "end": call + 12, "label": "PHONE"}
    )
    assert not {NOTE_A[r["start"] : r["end"]] for r in answer.json()["risks"]} & {"617", "555", "0143"}
