"""Outputs carry only what the user keeps: ids pseudonymised, other columns and metadata keys dropped."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import ConfigurationError
from deident.io.formats import ReadOptions
from deident.replace import Mode, ReplaceOptions, SecretKey
from deident.run.output_policy import OutputPolicy, apply_output_policy
from deident.run.runner import RunConfig, run

KEY = SecretKey.from_text("output-policy-test-key-0123456789")
TABLE = (
    "note_id,mrn,admit_date,handle,text,comments\n"
    'N-7,QX-4417-ZZ,2021-03-14,zeb77,"Pt seen.",Zebulon called\n'
    'N-8,QX-4417-ZZ,2021-03-15,zeb77,"Seen again.",none\n'
    'N-9,QX-9,2021-03-16,kim,"New pt.",none\n'
)


def run_table(tmp_path: Path, policy: OutputPolicy, options: ReplaceOptions | None = None) -> list[dict[str, str]]:
    source = tmp_path / "in.csv"
    source.write_text(TABLE, encoding="utf-8")
    read = ReadOptions(id_col="note_id", patient_col="mrn", author_col="handle")
    output = tmp_path / "out.csv"
    options = options or ReplaceOptions()
    run(RunConfig((source,), output, options, pipeline="rules", read_options=read, output_policy=policy))
    with output.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_table_keeps_only_the_text_and_pseudonymised_ids_by_default(tmp_path: Path) -> None:
    rows = run_table(tmp_path, OutputPolicy())
    assert list(rows[0]) == ["note_id", "mrn", "text"]  # admit_date, handle and comments dropped
    assert [r["note_id"] for r in rows] == ["1", "2", "3"]
    assert [r["mrn"] for r in rows] == ["1", "1", "2"]  # a patient's notes keep one pseudonym
    content = (tmp_path / "out.csv").read_text()
    for original in ("QX-4417-ZZ", "N-7", "zeb77", "2021-03-14", "Zebulon"):
        assert original not in content
    report = json.loads((tmp_path / "out.csv.report.json").read_text())
    assert any("Output keeps as is: nothing" in note for note in report["notes"])


def test_kept_and_keyed_pseudonymised_columns(tmp_path: Path) -> None:
    policy = OutputPolicy(keep=frozenset({"admit_date", "note_id"}), pseudonymise=frozenset({"handle"}))
    rows = run_table(tmp_path, policy, ReplaceOptions(Mode.TAG, KEY))
    assert list(rows[0]) == ["note_id", "mrn", "admit_date", "handle", "text"]
    assert [r["note_id"] for r in rows] == ["N-7", "N-8", "N-9"] and rows[0]["admit_date"] == "2021-03-14"
    assert rows[0]["handle"] == rows[1]["handle"] != rows[2]["handle"] and len(rows[0]["handle"]) == 16
    assert rows[0]["mrn"] == KEY.digest(None, "pseudonym:patient", "QX-4417-ZZ").hex()[:16]
    report = json.loads((tmp_path / "out.csv.report.json").read_text())
    assert any("keeps as is: admit_date, note_id" in note and "handle" in note for note in report["notes"])


def test_jsonl_metadata_keys_and_file_name_ids(tmp_path: Path) -> None:
    meta = DocumentMetadata(patient_id="Zebulon", extra=(("mrn", "QX-4417-ZZ"), ("site", "north")))
    items = [AnnotatedDocument(Document("Zebulon_Quackenbush", "Pt seen.", meta))]
    out = apply_output_policy(items, OutputPolicy(keep=frozenset({"site"})), None, None)
    assert out[0].id == "1" and out[0].document.metadata.patient_id == "1"
    assert dict(out[0].document.metadata.extra) == {"site": "north"}
    text_folder = tmp_path / "notes"
    text_folder.mkdir()
    (text_folder / "Zebulon_Quackenbush.txt").write_text("Pt seen by Dr. Kowalski.")
    output = tmp_path / "out"
    run(RunConfig((text_folder,), output, ReplaceOptions(), pipeline="rules"))
    assert sorted(p.name for p in output.iterdir() if p.suffix == ".txt") == ["1.txt"]
    for path in output.iterdir():
        assert "Zebulon" not in path.name and "Zebulon" not in path.read_text()


def test_deidentified_columns_are_replaced_as_notes_of_the_patient() -> None:
    meta = DocumentMetadata(patient_id="7", extra=(("col:comments", "Zebulon called"), ("table:columns", '["text"]')))
    items = [AnnotatedDocument(Document("n1", "Pt seen.", meta))]
    seen: list[Document] = []

    def deidentify(docs: list[Document]) -> list[str]:
        seen.extend(docs)
        return ["[**NAME**] called" for _ in docs]

    out = apply_output_policy(items, OutputPolicy(deidentify=frozenset({"comments"})), None, deidentify)
    assert out[0].document.metadata.get_extra("col:comments") == "[**NAME**] called"
    assert seen[0].metadata.patient_id == "7" and seen[0].text == "Zebulon called"
    with pytest.raises(ConfigurationError, match="--deid-col needs a detection pipeline"):
        apply_output_policy(items, OutputPolicy(deidentify=frozenset({"comments"})), None, None)


def test_a_name_given_to_two_options_is_an_error() -> None:
    with pytest.raises(ConfigurationError, match="'mrn' is given to two"):
        OutputPolicy(keep=frozenset({"mrn"}), pseudonymise=frozenset({"mrn"}))


def test_parquet_column_types_follow_the_kept_columns(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq

    source = tmp_path / "in.parquet"
    table = pa.table({"id": ["a", "b"], "age": [71, 45], "secret": ["x", "y"], "text": ["Pt seen.", "Seen."]})
    pq.write_table(table, source)
    output = tmp_path / "out.parquet"
    policy = OutputPolicy(keep=frozenset({"age"}))
    run(RunConfig((source,), output, ReplaceOptions(), spans_file=source, output_policy=policy))
    written = pq.read_table(output)
    assert written.column_names == ["id", "age", "text"] and written.schema.field("age").type == pa.int64()
