"""Readable rich tables of an :class:`~deident.evaluate.corpus.EvaluationReport`."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from deident.core.labels import Category, Label
from deident.evaluate.corpus import EvaluationReport, ViewReport
from deident.evaluate.counts import Counts, InstanceCounts
from deident.evaluate.metrics import Breakdown


def _pct(value: float) -> str:
    return f"{value:.3f}"


def summary_table(view: ViewReport) -> Table:
    """One row per metric: precision, recall, F1, F2 and the counts behind them."""
    title = "HIPAA identifiers only" if view.name == "hipaa" else "All PHI types"
    table = Table(title=f"Summary — {title}", title_justify="left")
    table.add_column("metric", no_wrap=True)
    for name in ("P", "R", "F1", "F2", "TP", "FP", "FN"):
        table.add_column(name, justify="right")
    c = view.counts

    def micro(name: str, counts: Counts) -> None:
        table.add_row(
            name,
            _pct(counts.precision),
            _pct(counts.recall),
            _pct(counts.f1),
            _pct(counts.f2),
            str(counts.tp),
            str(counts.fp),
            str(counts.fn),
        )

    micro("binary token", c.binary_token.overall)
    micro("typed token", c.typed_token.overall)
    micro("entity strict (micro)", c.entity_strict.overall)
    macro = view.entity_strict_macro
    table.add_row("entity strict (macro)", _pct(macro.precision), _pct(macro.recall), _pct(macro.f1), _pct(macro.f2))
    micro("entity relaxed (micro)", c.entity_relaxed.overall)
    macro = view.entity_relaxed_macro
    table.add_row("entity relaxed (macro)", _pct(macro.precision), _pct(macro.recall), _pct(macro.f1), _pct(macro.f2))
    inst = c.instance.overall
    table.add_row("instance fully contained", "", _pct(inst.recall_fully_contained), "", "", str(inst.fully_contained))
    table.add_row("instance any overlap", "", _pct(inst.recall_any_overlap), "", "", str(inst.any_overlap))
    return table


def breakdown_table(view: ViewReport) -> Table:
    """Rows per category with their sub-types indented below: gold spans, binary token P/R,
    typed token F1, entity strict and relaxed F1, instance recalls."""
    title = "HIPAA identifiers only" if view.name == "hipaa" else "All PHI types"
    table = Table(
        title=f"By type — {title}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        caption="gold: gold spans; binP/binR: binary token; typF1: typed token; strF1/relF1: entity strict/"
        "relaxed (micro); fullR/anyR: instance recall fully contained / any overlap",
        caption_justify="left",
    )
    table.add_column("type", no_wrap=True)
    for name in ("gold", "binP", "binR", "typF1", "strF1", "relF1", "fullR", "anyR"):
        table.add_column(name, justify="right", min_width=5)
    c = view.counts

    def add(name: str, key: Category | Label, by: str) -> None:
        inst = getattr(c.instance, by).get(key)
        binary = getattr(c.binary_token, by).get(key, Counts())
        typed = getattr(c.typed_token, by).get(key, Counts())
        strict = getattr(c.entity_strict, by).get(key, Counts())
        relaxed = getattr(c.entity_relaxed, by).get(key, Counts())
        table.add_row(
            name,
            str(inst.gold if inst else 0),
            _pct(binary.precision),
            _pct(binary.recall),
            _pct(typed.f1),
            _pct(strict.f1),
            _pct(relaxed.f1),
            _pct(inst.recall_fully_contained) if inst else "",
            _pct(inst.recall_any_overlap) if inst else "",
        )

    rows: list[Breakdown[Counts] | Breakdown[InstanceCounts]] = [
        c.binary_token,
        c.typed_token,
        c.entity_strict,
        c.entity_relaxed,
        c.instance,
    ]
    for category in Category:
        if not any(category in r.by_category for r in rows):
            continue
        add(category.value, category, "by_category")
        for label in Label:
            if label.category is category and any(label in r.by_label for r in rows):
                add(f"  {label.value}", label, "by_label")
    return table


def confusion_table(report: EvaluationReport) -> Table:
    """Gold label (rows) against the predicted label overlapping it most (columns)."""
    labels = report.confusion_labels()
    table = Table(
        title="Confusion of types (rows: gold, columns: predicted)", title_justify="left", box=box.SIMPLE_HEAD
    )
    table.add_column("gold \\ pred", no_wrap=True)
    for label in labels:
        table.add_column(label, justify="right")
    for gold_label in labels:
        table.add_row(gold_label, *(str(report.confusion[gold_label, p] or "") for p in labels))
    return table


def report_tables(report: EvaluationReport, *, hipaa_only: bool = False) -> list[Table]:
    """The tables of a report in display order."""
    views = [report.hipaa] if hipaa_only else [report.full, report.hipaa]
    tables: list[Table] = []
    for view in views:
        tables.extend([summary_table(view), breakdown_table(view)])
    if not hipaa_only:
        tables.append(confusion_table(report))
    return tables


def render_report(report: EvaluationReport, console: Console | None = None, *, hipaa_only: bool = False) -> None:
    """Print the report as rich tables, preceded by how the documents matched up."""
    console = console or Console()
    d = report.documents
    console.print(
        f"{d.gold} gold documents, {d.predicted} with predictions, {d.missing_predictions} without "
        f"(counted as predicting nothing), {d.unknown_predictions} unknown predicted documents ignored; "
        f"{d.tokens} tokens, {d.gold_spans} gold spans, {d.pred_spans} predicted spans.",
        highlight=False,
    )
    for table in report_tables(report, hipaa_only=hipaa_only):
        console.print(table)
    if report.intervals is not None and not hipaa_only:
        console.print(describe_intervals(report), highlight=False)


def describe_intervals(report: EvaluationReport) -> str:
    """One line: the headline rates of the full view with their bootstrap intervals."""
    ci = report.intervals
    if ci is None:
        return ""
    counts = report.full.counts
    token, inst = counts.binary_token.overall, counts.instance.overall
    pct = f"{ci.level * 100:g}%"
    return (
        f"{pct} intervals ({ci.resamples} resamples of {ci.groups} {ci.group_by}s): "
        f"binary token recall {token.recall:.4f} [{ci.recall.low:.4f}, {ci.recall.high:.4f}], "
        f"precision {token.precision:.4f} [{ci.precision.low:.4f}, {ci.precision.high:.4f}]; "
        f"fully contained {inst.recall_fully_contained:.4f} "
        f"[{ci.fully_contained.low:.4f}, {ci.fully_contained.high:.4f}]"
    )
