"""`deident spark` (local mode, default pipeline) gives `deident run`'s output, note by note, on 2,000 synthetic
notes of every style (issue 22, item 6). Skipped without pyspark or Java."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from deident.cli.app import app

pytest.importorskip("pyspark.sql")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java", allow_module_level=True)

NOTES = 2000
PATIENTS = 500  # four notes each, interleaved in the table: both commands must bring a patient's notes together
KEY_HEX = "5eed0f5a9a2f4c1b8d7e6f5a4b3c2d1e0f9e8d7c6b5a49382716051423324150"
COLUMNS = ["--id-col", "id", "--patient-col", "patient_id"]


def _rows(path: Path) -> dict[str, dict[str, Any]]:
    return {row["id"]: row for row in pq.read_table(path).to_pylist()}


def _span_kinds(spans: list[dict[str, Any]]) -> list[tuple[str, str, float | None]]:
    # run's spans are offsets into its output text, Spark's into the original: compare what was found, in order
    return [(s["label"], s["source"], None if s["score"] is None else round(s["score"], 6)) for s in spans]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Counter[str]]:
    """The same table and key through `deident run` and `deident spark --master local[2]`."""
    folder = tmp_path_factory.mktemp("spark_equals_run")
    runner = CliRunner()
    synth = folder / "synth.parquet"
    made = runner.invoke(app, ["synth", "--notes", str(NOTES), "--seed", "5", "-o", str(synth)])
    assert made.exit_code == 0, made.output
    notes = pq.read_table(synth)
    styles = Counter(json.loads(m)["extra"]["style"] for m in notes.column("deident_metadata").to_pylist())
    table = folder / "notes.parquet"  # plain columns, as a user's export has them
    patients = [f"patient-{i % PATIENTS:04d}" for i in range(notes.num_rows)]
    pq.write_table(pa.table({"id": notes.column("id"), "patient_id": patients, "text": notes.column("text")}), table)
    key = folder / "key"
    key.write_text(KEY_HEX + "\n")
    key.chmod(0o600)
    mode = ["--mode", "surrogate", "--key", str(key)]

    by_run = folder / "run.parquet"
    ran = runner.invoke(app, ["run", str(table), "-o", str(by_run), *mode, *COLUMNS, "--quiet"])
    assert ran.exit_code == 0, ran.output
    by_spark = folder / "spark"
    sparked = runner.invoke(app, ["spark", str(table), "-o", str(by_spark), *mode, *COLUMNS, "--master", "local[2]"])
    assert sparked.exit_code == 0, sparked.output
    assert f"{NOTES:,} rows de-identified (surrogate)" in sparked.output
    return by_run, by_spark, styles


def test_the_table_holds_every_style(outputs: tuple[Path, Path, Counter[str]]) -> None:
    assert outputs[2] == {"discharge": 500, "nursing": 500, "psych": 500, "forum": 500}


def test_spark_output_equals_run_output_note_by_note(outputs: tuple[Path, Path, Counter[str]]) -> None:
    by_run, by_spark = _rows(outputs[0]), _rows(outputs[1])
    assert len(by_run) == len(by_spark) == NOTES
    assert by_run.keys() == by_spark.keys()  # the same pseudonymised ids: the same key, the same HMAC
    assert not any(note_id.startswith("synth-") for note_id in by_run)
    differing = [i for i in by_run if by_run[i]["text"] != by_spark[i]["text"]]
    assert not differing, f"{len(differing)} notes differ, e.g. {differing[:3]}"
    assert all(by_run[i]["patient_id"] == by_spark[i]["patient_id"] for i in by_run)
    assert len({row["patient_id"] for row in by_run.values()}) == PATIENTS
    found = [i for i in by_run if _span_kinds(json.loads(by_run[i]["spans"])) != _span_kinds(by_spark[i]["phi_spans"])]
    assert not found, f"{len(found)} notes have other spans, e.g. {found[:3]}"
    assert sum(len(row["phi_spans"]) for row in by_spark.values()) > 30 * NOTES // 2  # PHI was found and replaced
