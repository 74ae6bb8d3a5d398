"""Offline by construction (issue 20): with every socket connection and name lookup refused (the ``no_network``
fixture), the command line's run, detect and train and the REST service's requests all work."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from deident.api import Deidentifier
from deident.io import read_corpus, write_corpus
from deident.service.app import create_app
from tests.conftest import NetworkBlocked
from tests.detect.crf.synthetic import synthetic_corpus

runner = CliRunner()
SAMPLE = Path(__file__).resolve().parents[1] / "src" / "deident" / "resources" / "samples" / "sample.text"


@pytest.mark.usefixtures("no_network")
def test_the_fixture_blocks_connections_and_lookups() -> None:
    with pytest.raises(NetworkBlocked), socket.socket() as probe:
        probe.connect(("127.0.0.1", 9))
    with pytest.raises(NetworkBlocked):
        socket.create_connection(("example.org", 443))
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("example.org", 443)


@pytest.mark.usefixtures("no_network")
def test_run_and_detect_with_the_bundled_model_offline(tmp_path: Path) -> None:
    from deident.cli.app import app

    ran = runner.invoke(app, ["run", str(SAMPLE), "-o", str(tmp_path / "run" / "sample.text"), "--quiet"])
    assert ran.exit_code == 0, ran.output
    assert "[**" in (tmp_path / "run" / "sample.text").read_text()
    detected = runner.invoke(app, ["detect", str(SAMPLE), "-o", str(tmp_path / "spans.jsonl"), "--to", "jsonl"])
    assert detected.exit_code == 0, detected.output
    assert sum(len(d.spans) for d in read_corpus(tmp_path / "spans.jsonl")) > 0


@pytest.mark.usefixtures("no_network")
def test_rest_requests_offline() -> None:
    client = TestClient(create_app(Deidentifier.load()))
    assert client.get("/health").status_code == 200
    assert client.get("/docs").status_code == 200
    text = "Seen by Dr. Kowalski on 3/14."
    out = client.post("/v1/deidentify", json={"text": text})
    assert out.status_code == 200 and "Kowalski" not in out.json()["text"]
    assert client.post("/v1/detect", json={"text": text}).json()["spans"]


@pytest.mark.usefixtures("no_network")
def test_train_offline(tmp_path: Path) -> None:
    from deident.cli.app import app

    write_corpus(synthetic_corpus(30), tmp_path / "train.jsonl")
    model = tmp_path / "model"
    args = ["train", str(tmp_path / "train.jsonl"), "-o", str(model), "--clusters", "0", "--iterations", "15"]
    result = runner.invoke(app, [*args, "--filter-folds", "2", "--filter-recall-target", "0.95", "--no-source"])
    assert result.exit_code == 0, result.output
    assert json.loads((model / "manifest.json").read_text())["kind"] == "default"
