"""The service's worker processes: the event loop stays free, a request over its budget is stopped and its worker
replaced, a full pool refuses more, and workers answer exactly as the service's own process does.

Assertions are on behaviour (which answer comes first, status codes, process ids), never on tight timings: the
latency figures are bench/bench_service_latency.py's."""

from __future__ import annotations

import functools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import regex
from fastapi.testclient import TestClient

from deident.api import Deidentifier
from deident.core.document import Document
from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.core.pipeline import Pipeline
from deident.core.span import Span
from deident.replace import ReplaceOptions, SecretKey
from deident.service.app import create_app
from deident.service.pool import WorkerPool

KEY = "pool-test-key-0123456789abcdef"
STALL = "STALL"  # a note with this word keeps its worker busy far past any budget here
BUDGET_S = 4.0


class StallingDetector:
    """Finds "Dr. Name" and dates; a note saying STALL stands for a pathological note that never finishes."""

    name = "toy.stalling"
    _pattern = regex.compile(r"(?<=Dr\.? )[A-Z][A-Za-z]+|\d{1,2}/\d{1,2}")

    def detect(self, document: Document) -> list[Span]:
        if STALL in document.text:
            time.sleep(600)
        return [
            Span(m.start(), m.end(), Label.DATE if "/" in m.group() else Label.DOCTOR, source=self.name, score=0.9)
            for m in self._pattern.finditer(document.text)
        ]


def stalling_deidentifier() -> Deidentifier:
    """The workers' factory: a module-level function, so that it reaches a spawned worker by name."""
    return Deidentifier(
        Pipeline.of([StallingDetector()], name="toy"), ReplaceOptions(key=SecretKey.from_text(KEY)), "toy"
    )


def wait_until(condition: Callable[[], bool], what: str, limit_s: float = 120.0) -> None:
    deadline = time.monotonic() + limit_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached in {limit_s} s: {what}")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    workers = WorkerPool(stalling_deidentifier, workers=2, timeout=BUDGET_S, max_queued=0)
    yield workers
    workers.close()


def in_background(call: Callable[[], httpx.Response]) -> tuple[threading.Thread, list[httpx.Response]]:
    answers: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: answers.append(call()), daemon=True)
    thread.start()
    return thread, answers


def test_health_answers_while_a_request_runs_and_the_budget_stops_it(pool: WorkerPool) -> None:
    wait_until(lambda: pool.idle() == 2, "two idle workers")
    before = set(pool.pids())
    with TestClient(create_app(pool)) as client:
        stalled, answers = in_background(
            lambda: client.post("/v1/deidentify", json={"text": f"{STALL} Dr. Kowalski on 3/14."})
        )
        wait_until(lambda: pool.idle() == 1, "the stalling note taken by a worker")
        health = client.get("/health")
        info = client.get("/v1/info")
        assert stalled.is_alive()  # both answered while the note was still being worked on
        assert health.status_code == 200 and health.json()["model"] == "toy"
        assert info.status_code == 200 and info.json()["surrogate_key"] == SecretKey.from_text(KEY).key_id
        stalled.join(timeout=120)
        timed_out = answers[0]
        assert timed_out.status_code == 504
        assert "time budget of 4 s" in timed_out.json()["detail"] and "Kowalski" not in timed_out.text
        # the stalled worker was killed; a fresh one replaces it and the service keeps answering
        wait_until(lambda: len(set(pool.pids()) - before) == 1 and len(pool.pids()) == 2, "a replacement worker")
        assert len(before & set(pool.pids())) == 1
        after = client.post("/v1/deidentify", json={"text": "Seen by Dr. Kowalski on 3/14."})
        assert after.status_code == 200
        assert after.json()["text"] == "Seen by Dr. [**DOCTOR**] on [**DATE**]."


def test_a_full_pool_answers_503_at_once(pool: WorkerPool) -> None:
    wait_until(lambda: pool.idle() == 2, "two idle workers")
    with TestClient(create_app(pool)) as client:
        stall = functools.partial(client.post, "/v1/detect", json={"text": f"{STALL} note"})
        stalled = [in_background(stall) for _ in range(2)]
        wait_until(lambda: pool.idle() == 0, "both workers busy")
        refused = client.post("/v1/detect", json={"text": "Seen by Dr. Kowalski."})
        assert refused.status_code == 503 and "busy" in refused.json()["detail"] and "Kowalski" not in refused.text
        assert all(thread.is_alive() for thread, _ in stalled)
        for thread, answers in stalled:
            thread.join(timeout=120)
            assert answers[0].status_code == 504
        wait_until(lambda: pool.idle() == 2, "two replacement workers")
        assert client.post("/v1/detect", json={"text": "Seen by Dr. Kowalski."}).status_code == 200


NOTES = [
    {"id": "a", "text": "Pt seen by Dr. Kowalski on 3/14/2019, call 617-555-0123.", "patient_id": "7"},
    {"id": "b", "text": "Dr. Kowalski phoned the wife at 617-555-0199 on 3/15/2019.", "patient_id": "7"},
    {"id": "c", "text": "MRN 55501234; thx to bramblefoot77 for the tip.", "author": "bramblefoot77"},
]


def test_workers_answer_as_the_services_own_process() -> None:
    options = ReplaceOptions(key=SecretKey.from_text(KEY))
    load = functools.partial(Deidentifier.load, pipeline="rules", options=options)
    workers = WorkerPool(load, workers=1, timeout=120)
    try:
        pooled = TestClient(create_app(workers))
        local = TestClient(create_app(load()))
        requests: list[tuple[str, dict[str, Any]]] = [("/v1/detect", {**NOTES[0], "explain": True})]
        requests += [("/v1/deidentify", {"text": NOTES[1]["text"], "patient_id": "7", "mode": m}) for m in MODES]
        requests += [("/v1/deidentify/batch", {"documents": NOTES, "mode": m}) for m in MODES]
        for path, body in requests:
            if path == "/v1/detect":
                body = {k: v for k, v in body.items() if k != "id"}
            expected = local.post(path, json=body)
            got = pooled.post(path, json=body)
            assert expected.status_code == got.status_code == 200, (path, body.get("mode"))
            assert got.content == expected.content, (path, body.get("mode"))
        assert pooled.get("/v1/info").json() == local.get("/v1/info").json()
    finally:
        workers.close()


MODES = ("tag", "redact", "mask", "surrogate", "safe-harbor")


def test_a_worker_that_cannot_load_the_model_is_a_one_line_error(tmp_path: Path) -> None:
    load = functools.partial(Deidentifier.load, tmp_path / "no-such-model")
    with pytest.raises(ConfigurationError) as raised:
        WorkerPool(load, workers=1)
    assert "no-such-model" in str(raised.value) and "\n" not in str(raised.value)


def test_a_worker_that_dies_is_replaced(pool: WorkerPool) -> None:
    wait_until(lambda: pool.idle() == 2, "two idle workers")
    victim, survivor = pool.pids()
    os.kill(victim, signal.SIGKILL)
    with TestClient(create_app(pool)) as client:
        # sequential requests take the idle workers in turn: one of the two meets the dead one
        answers = [client.post("/v1/detect", json={"text": "Seen by Dr. Kowalski."}) for _ in range(2)]
        assert sorted(a.status_code for a in answers) == [200, 500]
        failed = next(a for a in answers if a.status_code == 500)
        assert "worker process stopped" in failed.json()["detail"] and "Kowalski" not in failed.text
        wait_until(lambda: pool.idle() == 2, "a replacement worker")
        assert victim not in pool.pids() and survivor in pool.pids()
        assert client.post("/v1/detect", json={"text": "Seen by Dr. Kowalski."}).status_code == 200
