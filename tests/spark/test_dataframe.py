"""The Spark path end to end on a local one-core Spark (skipped without pyspark or Java)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from deident.core.errors import ConfigurationError
from deident.replace import Mode, ReplaceOptions, SecretKey
from deident.spark.partition import SparkJob

pyspark_sql = pytest.importorskip("pyspark.sql")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java", allow_module_level=True)

from deident.spark.dataframe import OutputColumns, deidentify_dataframe, run_spark  # noqa: E402

KEY = SecretKey.from_text("spark-dataframe-test-key-01")
ROWS = [
    ("n1", "p1", "Seen by Dr. Kowalski today; call 617-555-0123."),
    ("n3", "p2", "Dr. Kowalski saw him."),
    ("n2", "p1", "Dr. Kowalski called back."),
]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    os.environ["PYSPARK_PYTHON"] = sys.executable  # workers need this interpreter, the one with deident
    session = (
        pyspark_sql.SparkSession.builder.master("local[1]")
        .appName("deident-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


def job(mode: Mode = Mode.TAG) -> SparkJob:
    options = ReplaceOptions(mode=mode, key=KEY if mode.needs_key else None)
    return SparkJob(options=options, pipeline="rules", id_col="note", patient_col="pid")


def test_dataframe_columns_and_content(spark: Any) -> None:
    df = spark.createDataFrame(ROWS, ["note", "pid", "text"])
    out = {r["note"]: r for r in deidentify_dataframe(df, job(Mode.SURROGATE)).collect()}
    assert set(out) == {"n1", "n2", "n3"}
    assert all("Kowalski" not in r["text_deid"] for r in out.values())
    assert "617-555-0123" not in out["n1"]["text_deid"]
    name = out["n2"]["text_deid"].split()[1]
    assert name in out["n1"]["text_deid"]  # one patient, one surrogate across notes
    span = out["n1"]["phi_spans"][0]
    assert out["n1"]["text"][span["start"] : span["end"]] == "Kowalski" and span["label"] == "DOCTOR"


def test_missing_column_is_a_clear_error(spark: Any) -> None:
    df = spark.createDataFrame(ROWS, ["note", "pid", "body"])
    with pytest.raises(ConfigurationError, match="no column 'text'"):
        deidentify_dataframe(df, job())


def test_run_spark_csv_to_parquet(spark: Any, tmp_path: Path) -> None:
    source = tmp_path / "notes.csv"
    source.write_text("note,pid,text\n" + "".join(f'{a},{b},"{c}"\n' for a, b, c in ROWS), encoding="utf-8")
    out = tmp_path / "out"
    assert run_spark(spark, str(source), str(out), job(), "csv") == 3
    assert (out / "_SUCCESS").exists()
    written = spark.read.parquet(str(out)).orderBy("note").collect()
    assert [r["note"] for r in written] == ["n1", "n2", "n3"]
    assert written[0]["text_deid"].startswith("Seen by Dr. [**DOCTOR**]")
    with pytest.raises(Exception, match="already exists"):
        run_spark(spark, str(source), str(out), job(), "csv")


def test_output_columns_replace_the_text_in_place_and_keep_only_what_is_listed(spark: Any) -> None:
    rows = [(note, pid, text, f"MRN-{pid}", "2021-03-14") for note, pid, text in ROWS]
    df = spark.createDataFrame(rows, ["note", "pid", "text", "mrn", "admit_date"])
    in_place = replace(job(), output_col="text")
    keep = OutputColumns(KEY, keep=frozenset({"admit_date"}), pseudonymise=frozenset({"mrn"}))
    out = deidentify_dataframe(df, in_place, keep).collect()
    assert list(out[0].asDict()) == ["note", "pid", "text", "mrn", "admit_date", "phi_spans"]
    assert all("Kowalski" not in r["text"] for r in out)  # the original text is gone, not beside a copy
    assert {r["pid"] for r in out} == {KEY.digest(None, "pseudonym:patient", p).hex()[:16] for p in ("p1", "p2")}
    assert all(r["note"] not in {"n1", "n2", "n3"} and r["mrn"].isalnum() and "MRN" not in r["mrn"] for r in out)
    assert {r["admit_date"] for r in out} == {"2021-03-14"}
    dropped = deidentify_dataframe(df, in_place, OutputColumns(KEY)).columns
    assert dropped == ["note", "pid", "text", "phi_spans"]


def test_deid_columns_are_kept_de_identified(spark: Any) -> None:
    rows = [(note, pid, text, "Dr. Kowalski phoned", 3) for note, pid, text in ROWS]
    df = spark.createDataFrame(rows, ["note", "pid", "text", "comments", "visits"])
    in_place = replace(job(Mode.SURROGATE), output_col="text", deid_cols=("comments",))
    out = deidentify_dataframe(df, in_place, OutputColumns(KEY)).collect()
    assert list(out[0].asDict()) == ["note", "pid", "text", "comments", "phi_spans"]
    for row in out:
        assert "Kowalski" not in row["comments"]
        assert row["comments"].split()[1] in row["text"]  # the surrogate of the row's patient
    with pytest.raises(ConfigurationError, match="'visits' is not a text column"):
        deidentify_dataframe(df, replace(in_place, deid_cols=("visits",)), OutputColumns(KEY))


def test_cli_refuses_a_column_given_to_two_options(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from deident.cli.app import app

    args = ["spark", str(tmp_path / "notes.csv"), "-o", str(tmp_path / "out"), "--deid-col", "c", "--keep-col", "c"]
    result = CliRunner().invoke(app, args)
    assert isinstance(result.exception, ConfigurationError) and "given to two of" in str(result.exception)


def test_cli_spark_command(spark: Any, tmp_path: Path) -> None:
    # Last in this module: the command stops the (shared, local) Spark session when it ends.
    from typer.testing import CliRunner

    from deident.cli.app import app

    source = tmp_path / "notes.jsonl"
    source.write_text("".join(f'{{"note": "{a}", "pid": "{b}", "body": "{c}"}}\n' for a, b, c in ROWS))
    out = tmp_path / "out"
    args = ["spark", str(source), "-o", str(out), "--format", "json", "--text-col", "body", "--id-col", "note"]
    result = CliRunner().invoke(app, [*args, "--patient-col", "pid", "--pipeline", "rules", "--master", "local[1]"])
    assert result.exit_code == 0, result.output
    assert "3 rows de-identified (tag)" in result.output
    assert (out / "_SUCCESS").exists()
