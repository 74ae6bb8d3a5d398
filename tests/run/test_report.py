from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from deident.run.report import RunReport, bar_chart_svg, render_html


def make_report() -> RunReport:
    return RunReport(
        deident_version="0.1.0",
        mode="surrogate",
        pipeline="default",
        model_id="default:bundled",
        span_source="pipeline",
        recall_target=0.98,
        key_id="abc123",
        ephemeral_key=False,
        input_formats=("jsonl",),
        documents=10,
        characters=5000,
        processed_documents=10,
        processed_characters=5000,
        spans_by_label={"DOCTOR": 4, "PATIENT": 2, "DATE": 7},
        jobs=2,
        chunks=3,
        chunks_resumed=1,
        started_at="2026-01-01T00:00:00+00:00",
        finished_at="2026-01-01T00:00:02+00:00",
        duration_s=2.0,
    )


def test_json_fields(tmp_path: Path) -> None:
    report = make_report()
    report.write(tmp_path / "r.json", tmp_path / "r.html")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["spans_by_category"] == {"DATE": 7, "NAME": 6}
    assert data["spans_total"] == 13
    assert data["throughput"] == {"documents_per_second": 5.0, "characters_per_second": 2500.0}
    assert data["operating_point"] == {"recall_target": 0.98, "span_source": "pipeline"}
    assert "expected" not in data


def test_expected_figures_join_the_operating_point(tmp_path: Path) -> None:
    expected = {"recall_target": 0.98, "thresholds": {"names": 0.1}, "expected_recall": 0.97, "expected_precision": 0.9,
                "basis": "5-fold cross-validation"}  # fmt: skip
    report = dataclasses.replace(make_report(), expected=expected)
    report.write(tmp_path / "r.json", tmp_path / "r.html")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["operating_point"] == {"span_source": "pipeline", **expected}
    assert "0.970 / 0.900 (5-fold cross-validation)" in (tmp_path / "r.html").read_text()
    assert "not estimated" in render_html(make_report())
    assert data["model_id"] == "default:bundled"


@pytest.mark.parametrize(("output_scheme", "noted"), [("hipaa", True), ("physionet", False)])
def test_expected_figures_say_which_scheme_they_were_measured_under(output_scheme: str, noted: bool) -> None:
    expected = {"expected_recall": 0.97, "expected_precision": 0.9, "basis": "held-out notes",
                "measured_scheme": "physionet", "output_scheme": output_scheme}  # fmt: skip
    page = render_html(dataclasses.replace(make_report(), expected=expected))
    assert ("measured under the physionet convention, not this run&#x27;s output scheme hipaa" in page) is noted


def test_html_is_self_contained() -> None:
    page = render_html(make_report())
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "<style>" in page
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert ">NAME<" in page and "5.0 notes/s" in page


def test_bar_chart_scales_bars() -> None:
    svg = bar_chart_svg({"NAME": 10, "DATE": 5})
    assert 'width="340"' in svg and 'width="170"' in svg
    assert "No spans" in bar_chart_svg({})


def test_residual_risk_section_shows_counts_only() -> None:
    risk = {"documents_audited": 10, "tokens_audited": 900, "risky_tokens": 7, "documents_with_risk": 3,
            "by_class": {"known_identifier": 1, "dropped_candidate": 0, "identifier_digits": 2, "unknown_word": 5},
            "riskiest_documents": [{"input": "notes-ward-7.jsonl", "position": 4, "risky_tokens": 5}],
            "scope": "Not assessed: dropped_candidate."}  # fmt: skip
    assert "Residual risk" not in render_html(make_report())
    page = render_html(dataclasses.replace(make_report(), residual_risk=risk))
    assert "Residual risk" in page and ">900<" in page and "identifier_digits" in page
    assert "notes-ward-7" not in page  # documents are named in the JSON report only
    assert make_report().as_dict()["residual_risk"] is None
