"""PHI-free explanations of final spans: which detectors proposed a span, why, and the filter's verdict.

Only offsets, labels, detector names, scores and the spans' own evidence notes (PHI-free by the
project's rules) are used; the covered text is never read.
"""

from __future__ import annotations

from deident.core.provenance import parts_of
from deident.core.span import Span


def _score(score: float | None) -> str:
    return "" if score is None else f" ({score:.2f})"


def explain(span: Span) -> str:
    """One line: label and offsets, proposing detectors with scores, evidence, filter and reconciliation."""
    parts = parts_of(span)
    proposers = ", ".join(f"{p.source} {p.label.value}{_score(p.score)}" for p in parts)
    notes = span.evidence
    filter_notes = [n for n in notes if n.startswith("filter:")]
    reconcile_notes = [n for n in notes if n.startswith("reconcile:")]
    other = [n for n in notes if n not in filter_notes and n not in reconcile_notes]
    pieces = [f"{span.label.value} [{span.start}, {span.end}){_score(span.score)}", f"proposed by {proposers}"]
    if other:
        pieces.append("evidence: " + "; ".join(other))
    if filter_notes:
        pieces.append(filter_notes[-1])
    elif span.source != "reconcile" and not span.source.startswith("trusted."):
        pieces.append("filter: not applied")
    pieces.extend(reconcile_notes)
    return " | ".join(pieces)
