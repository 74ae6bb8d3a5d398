"""``--config`` on the commands that detect: run, detect, serve and spark read the site configuration."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.site.conftest import SITE_FIXTURE
from typer.testing import CliRunner

from deident.cli.app import app
from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import ConfigurationError
from deident.io import read_corpus, write_corpus
from deident.site.config import load_site_config

runner = CliRunner()
NOTE = "Transfer to the Annexe; Bristol stool chart 4; Anwen Quillfeather reviewed the chart."


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    source = tmp_path / "in.jsonl"
    write_corpus([AnnotatedDocument(Document("n1", NOTE))], source)
    return source


def run_rules(source: Path, out: Path, *extra: str) -> list[str]:
    result = runner.invoke(app, ["run", str(source), "-o", str(out), "--pipeline", "rules", "--quiet", *extra])
    assert result.exit_code == 0, result.output
    return [item.document.text for item in read_corpus(out)]


def test_run_applies_the_configuration_and_reports_its_hash(tmp_path: Path, notes: Path) -> None:
    plain = run_rules(notes, tmp_path / "plain.jsonl")[0]
    configured = run_rules(notes, tmp_path / "site.jsonl", "--config", str(SITE_FIXTURE))[0]
    assert "[**HOSPITAL**]" not in plain and "Quillfeather" in plain and "[**CITY**] stool" in plain
    assert configured == ("Transfer to [**HOSPITAL**]; Bristol stool chart 4; [**DOCTOR**] reviewed the chart.")
    report = json.loads((tmp_path / "site.jsonl.report.json").read_text())
    assert report["site_config"]["sha256"] == hashlib.sha256(SITE_FIXTURE.read_bytes()).hexdigest()
    assert report["site_config"]["name"] == "site.toml" and "lists.patients" in report["site_config"]["files_sha256"]
    assert json.loads((tmp_path / "plain.jsonl.report.json").read_text())["site_config"] is None
    html = (tmp_path / "site.jsonl.report.html").read_text()
    assert report["site_config"]["sha256"] in html and "Quillfeather" not in html


def test_the_configurations_mode_is_the_default(tmp_path: Path, notes: Path) -> None:
    config = tmp_path / "redact.toml"
    config.write_text('[defaults]\nmode = "redact"\n[[deny]]\nlabel = "HOSPITAL"\nterms = ["the Annexe"]\n')
    assert run_rules(notes, tmp_path / "a.jsonl", "--config", str(config))[0].startswith("Transfer to [REDACTED];")
    # --mode on the command line wins over the configuration's
    tagged = run_rules(notes, tmp_path / "b.jsonl", "--config", str(config), "--mode", "tag")[0]
    assert tagged.startswith("Transfer to [**HOSPITAL**];")


def test_a_bad_configuration_stops_before_anything_runs(tmp_path: Path, notes: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[lists]\ndoctors = []\n")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["run", str(notes), "-o", str(out), "--pipeline", "rules", "--config", str(config)])
    assert isinstance(result.exception, ConfigurationError)
    assert str(result.exception).startswith(f"{config}: lists.doctors: unknown key (known: clinicians, wards")
    assert not out.exists()


def test_detect_applies_the_configuration(tmp_path: Path, notes: Path) -> None:
    out = tmp_path / "spans.jsonl"
    args = ["detect", str(notes), "-o", str(out), "--pipeline", "rules", "--config", str(SITE_FIXTURE)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    spans = read_corpus(out)[0].spans
    found = {(NOTE[s.start : s.end], s.label.value) for s in spans}
    assert ("the Annexe", "HOSPITAL") in found and ("Anwen Quillfeather", "DOCTOR") in found
    assert not any("Bristol" in text for text, _ in found)


def test_serve_applies_the_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    served: dict[str, Any] = {}

    def fake_run(application: Any, **settings: Any) -> None:
        # while the service runs: its worker processes stop when it returns
        served["body"] = TestClient(application).post("/v1/deidentify", json={"text": NOTE}).json()

    monkeypatch.setattr("uvicorn.run", fake_run)
    result = runner.invoke(app, ["serve", "--pipeline", "rules", "--workers", "1", "--config", str(SITE_FIXTURE)])
    assert result.exit_code == 0, result.output
    expected = "Transfer to [**HOSPITAL**]; Bristol stool chart 4; [**DOCTOR**] reviewed the chart."
    assert served["body"]["text"] == expected


class _FakeSession:
    def stop(self) -> None:
        pass


class _FakeBuilder:
    def appName(self, name: str) -> _FakeBuilder:
        return self

    def master(self, master: str) -> _FakeBuilder:
        return self

    def getOrCreate(self) -> _FakeSession:
        return _FakeSession()


class _FakeSql:
    class SparkSession:
        builder = _FakeBuilder()


def test_spark_passes_the_configuration_to_the_job(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    jobs: list[Any] = []

    def fake_run_spark(
        session: Any, source: str, output: str, job: Any, fmt: str, keep: Any, encoding: str = "utf-8"
    ) -> int:
        jobs.append(job)
        return 0

    monkeypatch.setattr("deident.spark.dataframe.spark_sql", lambda: _FakeSql)
    monkeypatch.setattr("deident.spark.dataframe.run_spark", fake_run_spark)
    args = ["spark", str(tmp_path / "in.parquet"), "-o", str(tmp_path / "out"), "--master", "local[1]"]
    result = runner.invoke(app, [*args, "--config", str(SITE_FIXTURE)])
    assert result.exit_code == 0, result.output
    (job,) = jobs
    assert job.site_config == load_site_config(SITE_FIXTURE)
