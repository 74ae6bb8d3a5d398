"""Canaries: distinctive invented PHI fed through every command, error path, report and REST endpoint.

No message, report, log line or HTTP answer may repeat them; only the de-identified outputs hold
(replaced) text. A failure names the command and the canary that leaked.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from deident.api import Deidentifier
from deident.cli.app import app
from deident.core.errors import DeidentError
from deident.replace import ReplaceOptions, SecretKey
from deident.service.app import create_app

CANARIES = ("Zebulon", "Quackenbush", "QX-4417-ZZ", "Zeb.Quack@example.org", "1877-02-31")
NAME, MRN = "Zebulon Quackenbush", "QX-4417-ZZ"
TEXT = f"Pt {NAME} (MRN {MRN}) seen 03/14/2021; e-mail Zeb.Quack@example.org.\nWife Quackenbush called."
runner = CliRunner()


def assert_no_canary(what: str, *outputs: str) -> None:
    for output in outputs:
        for canary in CANARIES:
            assert canary.lower() not in output.lower(), f"{what}: {canary!r} leaked into {output[:300]!r}"


def invoke(args: Sequence[str], caplog: pytest.LogCaptureFixture, ok: bool | None = None) -> str:
    """Run a command as ``deident`` would, returning everything it showed (stdout, stderr, error, logs).

    deident's own errors are printed by ``main`` as one line; any other exception would be a traceback,
    which fails the test whatever it says."""
    caplog.clear()
    result = runner.invoke(app, list(args))
    error = result.exception
    if isinstance(error, SystemExit):
        error = None
    assert error is None or isinstance(error, DeidentError), f"{args[0]}: traceback {error!r}"
    if ok is not None:
        assert (result.exit_code == 0) is ok, f"{args}: exit {result.exit_code}: {result.output} {error}"
    shown = [result.output, str(error or ""), caplog.text]
    return "\n".join(shown)


def side_files(folder: Path, outputs: Sequence[Path]) -> Iterator[tuple[Path, str]]:
    """Every file a command wrote except its de-identified outputs: reports, logs, progress files."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not any(path == out or out in path.parents for out in outputs):
            yield path, path.read_text(encoding="utf-8", errors="replace")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A JSONL corpus whose every field carries canaries (text, ids, metadata, spans)."""
    start = TEXT.index(NAME)
    record = {
        "id": MRN,
        "text": TEXT,
        "metadata": {"patient_id": "Quackenbush", "note_date": "2021-03-14", "mrn": MRN, "patient_name": NAME},
        "spans": [{"start": start, "end": start + len(NAME), "label": "PATIENT"}],
    }
    second = {**record, "id": "Zebulon-2", "spans": []}
    path = tmp_path / "in" / "notes.jsonl"
    path.parent.mkdir()
    path.write_text(json.dumps(record) + "\n" + json.dumps(second) + "\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _all_logs(caplog: pytest.LogCaptureFixture) -> None:
    # deident's own logs at every level; others from INFO (py4j's DEBUG lines trace its Java calls)
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="deident")


def test_commands_that_succeed_keep_canaries_out_of_messages_and_reports(
    tmp_path: Path, corpus: Path, caplog: pytest.LogCaptureFixture
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    key = out / "key"
    assert_no_canary("keygen", invoke(["keygen", str(key)], caplog, ok=True))
    deid = out / "deid.jsonl"
    shown = invoke(
        ["run", str(corpus), "-o", str(deid), "--pipeline", "rules", "--mode", "surrogate", "--key", str(key)],
        caplog,
        ok=True,
    )
    assert_no_canary("run", shown)
    tagged = out / "tagged.jsonl"
    assert_no_canary("run --spans", invoke(["run", str(corpus), "-o", str(tagged), "--spans", str(corpus)], caplog))
    predicted = out / "pred.jsonl"
    assert_no_canary("detect", invoke(["detect", str(corpus), "-o", str(predicted), "--pipeline", "rules"], caplog))
    converted = out / "conv.csv"
    assert_no_canary("convert", invoke(["convert", str(corpus), str(converted)], caplog, ok=True))
    assert_no_canary("evaluate", invoke(["evaluate", str(corpus), str(predicted)], caplog, ok=True))
    assert_no_canary("evaluate --json", invoke(["evaluate", str(corpus), str(predicted), "--json"], caplog, ok=True))
    variants = out / "reid.jsonl"
    assert_no_canary("reidentify", invoke(["reidentify", str(corpus), "-o", str(variants)], caplog, ok=True))
    assert_no_canary("version", invoke(["version"], caplog, ok=True))
    serve = ["serve", "--host", "0.0.0.0", "--pipeline", "rules", "--mode", "surrogate", "--key", str(key)]
    assert_no_canary("serve", invoke([*serve, "--token-file", str(corpus)], caplog, ok=False))
    for output in (deid, tagged):  # de-identified outputs: ids, metadata and spans hold no canary either
        for line in output.read_text(encoding="utf-8").splitlines():
            assert_no_canary(f"run output {output.name}", json.dumps({**json.loads(line), "text": ""}))
    outputs = [deid, tagged, predicted, converted, variants]
    for path, content in side_files(out, outputs):
        assert_no_canary(f"side file {path.name}", content)


BAD_INPUTS = {
    # no header row: the first record is read as the header
    "headerless.csv": f"{MRN},{NAME},{TEXT.splitlines()[0]}\n2,x,y\n",
    "note_date.jsonl": json.dumps({"id": "1", "text": "x", "metadata": {"note_date": "1877-02-31 Quackenbush"}}),
    "duplicate.jsonl": "\n".join(json.dumps({"id": MRN, "text": f"note {i}"}) for i in range(2)),
    "label.jsonl": json.dumps({"id": "1", "text": TEXT, "spans": [{"start": 0, "end": 2, "label": NAME}]}),
    "phrase/bad.text": "START_OF_RECORD=1||||1||||\nPt Zebulon Quackenbush.\n||||END_OF_RECORD\n",
    "phrase/bad.phrase": "Quackenbush Zebulon 3 10 PATIENT Zebulon\n",
    "label.conll": f"Zebulon 0 7 B-{NAME.replace(' ', '_')}\n",
    "brat/note1.txt": TEXT,
    "brat/note1.ann": f"T1\tQuackenbush 3 10\t{TEXT[3:10]}\n",
}
BAD_CORPORA = ["headerless.csv", "note_date.jsonl", "duplicate.jsonl", "label.jsonl", "phrase/bad.text", "label.conll"]
BAD_CORPORA += ["brat"]


def write_bad_inputs(folder: Path) -> None:
    for name, content in BAD_INPUTS.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


@pytest.mark.parametrize("name", BAD_CORPORA)
def test_every_reader_error_is_one_line_without_canaries(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    write_bad_inputs(tmp_path / "bad")
    path = tmp_path / "bad" / name
    out = tmp_path / "out"
    out.mkdir()
    commands = [
        ["run", str(path), "-o", str(out / "r"), "--pipeline", "rules", "--quiet"],
        ["detect", str(path), "-o", str(out / "d.jsonl"), "--pipeline", "rules"],
        ["convert", str(path), str(out / "c.jsonl")],
        ["evaluate", str(path), str(path)],
        ["train", str(path), "-o", str(tmp_path / "model"), "--no-source"],
        ["cv", str(path)],
        ["reidentify", str(path), "-o", str(out / "i.jsonl")],
    ]
    for args in commands:
        shown = invoke(args, caplog, ok=False)
        assert "\n" not in shown.strip(), f"{args[0]} on {name}: more than one line: {shown!r}"
        assert_no_canary(f"{args[0]} on {name}", shown)
    for side, content in side_files(out, []):
        assert_no_canary(f"side file {side.name}", content)


def test_rest_endpoints_and_their_errors_keep_canaries_out(caplog: pytest.LogCaptureFixture) -> None:
    deid = Deidentifier.load(
        pipeline="rules", options=ReplaceOptions(key=SecretKey.from_text("canary-test-key-0123456789abcdef"))
    )
    client = TestClient(create_app(deid), raise_server_exceptions=False)
    note = {"text": TEXT, "patient_id": MRN, "author": "Zebulon"}
    answers = [
        client.get("/health"),
        client.get("/v1/info"),
        client.post("/v1/detect", json={**note, "explain": True}),
        client.post("/v1/deidentify/batch", json={"documents": [{**note, "id": MRN}], "mode": "tag"}),
        # errors
        client.post("/v1/deidentify", json={**note, "mode": NAME}),
        client.post("/v1/deidentify/batch", json={"documents": [note], "mode": MRN}),
        client.post("/v1/detect", json={**note, "explain": NAME}),
        client.post("/v1/detect", json={"text": 5, "patient_id": NAME * 20}),
        client.post("/v1/deidentify", content=TEXT.encode(), headers={"content-type": "application/json"}),
    ]
    for mode in ("tag", "redact", "mask", "surrogate", "safe-harbor"):
        response = client.post("/v1/deidentify", json={**note, "mode": mode})
        assert response.status_code == 200, mode
        assert NAME not in response.json()["text"]
        answers.append(response)
    for response in answers:
        body = response.text
        if response.request.url.path.startswith("/v1/deidentify") and response.status_code == 200:
            body = json.dumps({k: v for k, v in response.json().items() if k != "text"})
            if "documents" in response.json():
                body = json.dumps(
                    [{k: v for k, v in d.items() if k not in ("text", "id")} for d in response.json()["documents"]]
                )
        assert response.status_code < 500, response.request.url
        assert_no_canary(f"REST {response.request.url.path} {response.status_code}", body, caplog.text)


@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs Java")
def test_spark_error_on_a_headerless_csv_keeps_canaries_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("pyspark")
    write_bad_inputs(tmp_path / "bad")
    bad = tmp_path / "bad" / "headerless.csv"
    args = ["spark", str(bad), "-o", str(tmp_path / "spark-out"), "--format", "csv", "--pipeline", "rules"]
    shown = invoke([*args, "--master", "local[1]"], caplog, ok=False)
    assert "no column 'text'" in shown
    assert_no_canary("spark", shown)
