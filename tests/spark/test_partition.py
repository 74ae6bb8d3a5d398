"""The per-partition work of the Spark path, run as plain Python (no Spark needed)."""

from __future__ import annotations

import pytest

from deident.api import Deidentifier
from deident.core.document import Document
from deident.core.errors import InputFormatError
from deident.core.labels import Label
from deident.core.pipeline import Pipeline
from deident.core.span import Span
from deident.replace import Mode, ReplaceOptions, SecretKey
from deident.spark.partition import SparkJob, deidentify_rows, load_deidentifier
from deident.stage2.reconcile import ReconcileStage

KEY = SecretKey.from_text("spark-partition-test-key-01")
ROWS = [
    {"note": "n1", "pid": "p1", "text": "Seen by Dr. Kowalski today; call 617-555-0123."},
    {"note": "n2", "pid": "p1", "text": "Dr. Kowalski called back."},
    {"note": "n3", "pid": "p2", "text": "Dr. Kowalski saw him."},
    {"note": "n4", "pid": "p2", "text": None},
]


def job(mode: Mode = Mode.TAG, **kwargs: object) -> SparkJob:
    options = ReplaceOptions(mode=mode, key=KEY if mode.needs_key else None)
    return SparkJob(options=options, pipeline="rules", id_col="note", patient_col="pid", **kwargs)  # type: ignore[arg-type]


def test_rows_keep_order_and_columns() -> None:
    out = list(deidentify_rows(job(), ROWS))
    assert [r["note"] for r in out] == ["n1", "n2", "n3", "n4"]
    assert all(set(r) == {"note", "pid", "text", "text_deid", "phi_spans"} for r in out)
    assert out[0]["text"] == ROWS[0]["text"]  # input column untouched
    assert "Kowalski" not in out[0]["text_deid"] and "617-555-0123" not in out[0]["text_deid"]
    assert out[3]["text_deid"] is None and out[3]["phi_spans"] == []


def test_spans_are_offsets_into_the_original() -> None:
    first = next(deidentify_rows(job(), ROWS[:1]))
    spans = first["phi_spans"]
    assert spans and set(spans[0]) == {"start", "end", "label", "source", "score"}
    covered = [ROWS[0]["text"][s["start"] : s["end"]] for s in spans]  # type: ignore[index]
    assert "Kowalski" in covered and "617-555-0123" in covered


def test_surrogates_consistent_per_patient() -> None:
    out = list(deidentify_rows(job(Mode.SURROGATE), ROWS))
    texts = [r["text_deid"] for r in out]
    assert not any("Kowalski" in t for t in texts if t)
    name = texts[1].split()[1]  # "Dr. <surrogate> called back."
    assert name in texts[0]  # same patient, same surrogate
    again = list(deidentify_rows(job(Mode.SURROGATE), ROWS))
    assert [r["text_deid"] for r in again] == texts  # deterministic for the same key


def test_no_spans_column() -> None:
    out = next(deidentify_rows(job(spans_col=None), ROWS[:1]))
    assert "phi_spans" not in out


def test_non_text_column_is_a_clear_error() -> None:
    with pytest.raises(InputFormatError, match="row 1 of a partition") as err:
        list(deidentify_rows(job(), [ROWS[0], {"note": "x", "pid": "p9", "text": 42}]))
    assert "Kowalski" not in str(err.value)


def test_model_loaded_once_per_settings() -> None:
    load_deidentifier.cache_clear()
    list(deidentify_rows(job(), ROWS))
    list(deidentify_rows(job(), ROWS))
    assert load_deidentifier.cache_info().misses == 1


class ConfidentAttending:
    name = "toy.attending"

    def detect(self, document: Document) -> list[Span]:
        start = document.text.find("Attending: ")
        if start < 0:
            return []
        start += len("Attending: ")
        return [Span(start, document.text.index(" ", start), Label.DOCTOR, self.name, 0.95)]


def test_a_patients_rows_are_reconciled_together(monkeypatch: pytest.MonkeyPatch) -> None:
    deid = Deidentifier(Pipeline.of([ConfidentAttending(), ReconcileStage()]), ReplaceOptions(), "toy")
    monkeypatch.setattr("deident.spark.partition.load_deidentifier", lambda *settings: deid)
    mention = "QUILLFEATHER UPDATED BY PHONE."
    rows = [
        {"note": "n1", "pid": "p1", "text": "Attending: Quillfeather today."},
        {"note": "n2", "pid": "p1", "text": mention},
        {"note": "n3", "pid": "p2", "text": mention},
    ]
    out = list(deidentify_rows(job(), rows))
    assert ["QUILLFEATHER" in r["text_deid"].upper() for r in out] == [False, False, True]
    assert [s["source"] for s in out[1]["phi_spans"]] == ["reconcile"]


def test_author_column_feeds_the_username_detector() -> None:
    rows = [{"note": "n1", "pid": "p1", "who": "bramblefoot77", "text": "bramblefoot here again, thx all"}]
    plain = next(deidentify_rows(job(), rows))
    with_author = next(deidentify_rows(job(author_col="who"), rows))
    assert not any(s["label"] == "USERNAME" for s in plain["phi_spans"])
    assert [(s["start"], s["end"], s["label"]) for s in with_author["phi_spans"]] == [(0, 11, "USERNAME")]
    assert with_author["who"] == "bramblefoot77"  # the column itself is passed through


def test_a_groups_posters_are_sought_in_every_note_and_column() -> None:
    rows = [
        {"note": "n1", "pid": "t1", "who": "bramblefoot77", "text": "first post", "reply": None},
        {"note": "n2", "pid": "t1", "who": "x9kline", "text": "thx bramblefoot", "reply": "x9kline agrees"},
        {"note": "n3", "pid": "t2", "who": None, "text": "bramblefoot is not in this group", "reply": None},
    ]
    out = list(deidentify_rows(job(author_col="who", deid_cols=("reply",)), rows))
    assert [[(s["start"], s["end"], s["label"]) for s in r["phi_spans"]] for r in out] == [
        [],
        [(4, 15, "USERNAME")],
        [],
    ]
    assert "x9kline" not in out[1]["reply"]


def test_deid_columns_are_replaced_as_notes_of_the_patient() -> None:
    rows = [
        {**ROWS[0], "comments": "Dr. Kowalski phoned"},
        {**ROWS[1], "comments": None},
        {**ROWS[2], "comments": "Dr. Kowalski phoned"},
    ]
    out = list(deidentify_rows(job(Mode.SURROGATE, deid_cols=("comments",)), rows))
    assert out[1]["comments"] is None
    assert not any("Kowalski" in (r["comments"] or "") for r in out)
    first, second = out[0]["comments"].split()[1], out[2]["comments"].split()[1]
    assert first in out[0]["text_deid"] and second in out[2]["text_deid"]  # the patient's surrogate
    assert first != second  # another patient, another surrogate
    plain = list(deidentify_rows(job(Mode.SURROGATE), rows))
    assert [r["text_deid"] for r in plain] == [r["text_deid"] for r in out]  # the notes are unchanged
    assert plain[0]["comments"] == "Dr. Kowalski phoned"  # not listed: left to the output's column choice


def test_executors_use_the_jobs_site_configuration() -> None:
    from tests.site.conftest import SITE_FIXTURE

    from deident.site.config import load_site_config

    rows = [{"note": "n1", "pid": "p1", "text": "Transfer to the Annexe; Anwen Quillfeather agreed."}]
    (plain,) = deidentify_rows(job(), rows)
    (configured,) = deidentify_rows(job(site_config=load_site_config(SITE_FIXTURE)), rows)
    # Without the site's lists the name is found as a sentence's subject, not as the site's doctor.
    assert "[**DOCTOR**]" not in plain["text_deid"] and "[**HOSPITAL**]" not in plain["text_deid"]
    assert configured["text_deid"] == "Transfer to [**HOSPITAL**]; [**DOCTOR**] agreed."


@pytest.mark.parametrize(("scheme", "kept"), [(None, []), ("physionet", ["Hospital", "Ohio"])])
def test_a_job_outputs_the_hipaa_scheme_unless_it_names_another(scheme: str | None, kept: list[str]) -> None:
    rows = [{"note": "n1", "pid": "p1", "text": "Transferred from Mercy Hospital; daughter lives in Ohio."}]
    out = next(deidentify_rows(job(scheme=scheme), rows))
    assert load_deidentifier(*job(scheme=scheme).model_settings()).scheme == (scheme or "hipaa")
    assert "Mercy" not in out["text_deid"] and [w for w in ("Hospital", "Ohio") if w in out["text_deid"]] == kept
