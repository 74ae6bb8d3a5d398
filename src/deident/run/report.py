"""The run report: counts, settings and speed of a run, as JSON and as a self-contained HTML page
(inline CSS and an SVG bar chart, no scripts, no external files). It never holds text; the JSON names
the notes a run skipped (``--on-error skip``) by input, position and id, so that they can be found, and
the riskiest notes of the residual-risk audit by input and position (the HTML page: counts only)."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from deident.core.atomic import atomic_write
from deident.core.labels import Label


@dataclass(frozen=True)
class RunReport:
    deident_version: str
    mode: str
    pipeline: str
    model_id: str
    span_source: str  # "pipeline" or "spans file"
    recall_target: float | None
    key_id: str | None
    ephemeral_key: bool
    input_formats: tuple[str, ...]
    documents: int
    characters: int
    processed_documents: int  # in this invocation; fewer than ``documents`` when a run resumed
    processed_characters: int
    spans_by_label: dict[str, int]
    jobs: int
    chunks: int
    chunks_resumed: int
    started_at: str
    finished_at: str
    duration_s: float
    notes: tuple[str, ...] = field(default=())
    # The span filter's thresholds and the token recall/precision expected there (OperatingPoint.as_dict()).
    expected: dict[str, Any] | None = None
    # Notes left out of the output: {"input": file name, "position": 1-based, "id", "reason": error type or
    # what the output format cannot hold (never the note's text)}.
    skipped: tuple[dict[str, Any], ...] = field(default=())
    # The residual-risk audit of the output (deident.review.audit.AuditTally.as_dict()): counts per class, and
    # the riskiest documents by input and position (never text or ids); None when not audited.
    residual_risk: dict[str, Any] | None = None
    # The site configuration detection used (SiteConfig.provenance(): its file name and SHA-256, and those of the
    # files it names); None without one.
    site_config: dict[str, Any] | None = None

    @property
    def spans_total(self) -> int:
        return sum(self.spans_by_label.values())

    @property
    def spans_by_category(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for label, count in self.spans_by_label.items():
            category = Label(label).category.value
            out[category] = out.get(category, 0) + count
        return dict(sorted(out.items()))

    @property
    def documents_per_second(self) -> float:
        return self.processed_documents / self.duration_s if self.duration_s > 0 else 0.0

    @property
    def characters_per_second(self) -> float:
        return self.processed_characters / self.duration_s if self.duration_s > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["input_formats"] = list(self.input_formats)
        data["notes"] = list(self.notes)
        data["skipped"] = [dict(item) for item in self.skipped]
        data["spans_total"] = self.spans_total
        data["spans_by_category"] = self.spans_by_category
        data["operating_point"] = {
            "recall_target": self.recall_target,
            "span_source": self.span_source,
            **(self.expected or {}),
        }
        data.pop("expected", None)
        data["throughput"] = {
            "documents_per_second": round(self.documents_per_second, 3),
            "characters_per_second": round(self.characters_per_second, 1),
        }
        data["duration_s"] = round(self.duration_s, 3)
        return data

    def write(self, json_path: Path, html_path: Path) -> None:
        with atomic_write(json_path) as handle:
            handle.write(json.dumps(self.as_dict(), indent=2, sort_keys=True) + "\n")
        with atomic_write(html_path) as handle:
            handle.write(render_html(self))


def bar_chart_svg(counts: Mapping[str, int], width: int = 560, bar_height: int = 22) -> str:
    """A horizontal bar chart as inline SVG."""
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if not items:
        return '<p class="muted">No spans were replaced.</p>'
    label_w, value_w = 150, 70
    plot_w = width - label_w - value_w
    top = max(v for _, v in items) or 1
    rows = []
    for i, (name, value) in enumerate(items):
        y = i * (bar_height + 6)
        w = max(1, round(plot_w * value / top)) if value else 0
        rows.append(
            f'<text x="{label_w - 8}" y="{y + bar_height * 0.7:.1f}" text-anchor="end">{html.escape(name)}</text>'
            f'<rect x="{label_w}" y="{y}" width="{w}" height="{bar_height}" rx="3" class="bar"/>'
            f'<text x="{label_w + w + 6}" y="{y + bar_height * 0.7:.1f}">{value:,}</text>'
        )
    height = len(items) * (bar_height + 6)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="spans per category">{"".join(rows)}</svg>'
    )


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:760px;color:#1d2430}
h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:2rem;border-bottom:1px solid #dde3ea;padding-bottom:.3rem}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #eef1f4}
td.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#6b7785}
svg text{font-size:12px;fill:#1d2430}svg .bar{fill:#3b7dd8}
"""


def _expected_text(expected: Mapping[str, Any] | None) -> str:
    if not expected:
        return "not estimated (no calibrated span filter)"
    from deident.model.operating_point import scheme_note

    note = scheme_note(expected.get("measured_scheme"), expected.get("output_scheme"))
    return f"{expected['expected_recall']:.3f} / {expected['expected_precision']:.3f} ({expected['basis']}){note}"


def _residual_risk_html(risk: Mapping[str, Any] | None) -> str:
    """The audit's counts (the page names no documents: the JSON report does, by input and position)."""
    if risk is None:
        return ""
    totals = [
        ("Documents audited", risk["documents_audited"]),
        ("Tokens left as they were", risk["tokens_audited"]),
        ("Tokens that look like PHI", risk["risky_tokens"]),
        ("Documents with any", risk["documents_with_risk"]),
    ]
    rows = "".join(f'<tr><th>{html.escape(k)}</th><td class="n">{v:,}</td></tr>' for k, v in totals)
    classes = "".join(
        f'<tr><td>{html.escape(k)}</td><td class="n">{v:,}</td></tr>' for k, v in dict(risk["by_class"]).items()
    )
    return (
        f"<h2>Residual risk (audit of the output)</h2><table>{rows}</table>"
        f"<table><tr><th>Class</th><th>Tokens</th></tr>{classes}</table>"
        f'<p class="muted">{html.escape(str(risk["scope"]))}</p>'
    )


def render_html(report: RunReport) -> str:
    data = report.as_dict()
    summary = [
        ("Documents", f"{report.documents:,}"),
        ("Characters", f"{report.characters:,}"),
        ("Spans replaced", f"{report.spans_total:,}"),
        ("Notes skipped (ids in the JSON report)", f"{len(report.skipped):,}"),
        ("Mode", report.mode),
        ("Pipeline / model", f"{report.pipeline} / {report.model_id}"),
        ("Site configuration (SHA-256)", "none" if report.site_config is None else str(report.site_config["sha256"])),
        ("Spans from", report.span_source),
        ("Recall target", "default" if report.recall_target is None else f"{report.recall_target:g}"),
        ("Expected token recall / precision", _expected_text(report.expected)),
        ("Key fingerprint", report.key_id or "none (mode needs no key)"),
        ("Input formats", ", ".join(report.input_formats)),
        ("Worker processes", str(report.jobs)),
        ("Chunks (resumed)", f"{report.chunks} ({report.chunks_resumed})"),
        ("Started / finished (UTC)", f"{report.started_at} / {report.finished_at}"),
        ("Duration", f"{report.duration_s:.2f} s"),
        ("Throughput", f"{report.documents_per_second:,.1f} notes/s, {report.characters_per_second:,.0f} chars/s"),
        ("deident version", report.deident_version),
    ]
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in summary)
    label_rows = "".join(
        f'<tr><td>{html.escape(k)}</td><td class="n">{v:,}</td></tr>' for k, v in sorted(report.spans_by_label.items())
    )
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in report.notes)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>deident run report</title>
<style>{_CSS}</style></head><body>
<h1>deident run report</h1>
<p class="muted">Counts and settings only: this page holds no note text, identifiers or file names.</p>
<h2>Summary</h2><table>{rows}</table>
<h2>Spans per category</h2>{bar_chart_svg(data["spans_by_category"])}
<h2>Spans per label</h2><table><tr><th>Label</th><th>Spans</th></tr>{label_rows}</table>
{_residual_risk_html(report.residual_risk)}
{f"<h2>Notes</h2><ul>{notes}</ul>" if notes else ""}
</body></html>
"""
