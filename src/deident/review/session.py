"""A review session: the notes under review, their detected spans, the corrections log, and the export.

Detection goes through the one :class:`~deident.api.Deidentifier` facade; spans may instead come from a
predictions file (``--spans``). The corrected corpus is the detected spans after the log's corrections.
"""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deident.api import Deidentifier
from deident.core.document import AnnotatedDocument
from deident.core.errors import ConfigurationError
from deident.core.span import Span
from deident.io.formats import ReadOptions, read_corpus, write_corpus
from deident.review.corrections import Correction, CorrectionLog, ReviewedSpan, apply_corrections

# The span filter's verdict, as its evidence note writes it: "filter: <group> p=0.412 < t=0.500, ...".
_FILTER_NOTE = re.compile(r"^filter: \S+ p=(?P<p>[0-9.]+) (?:<|>=) t=(?P<t>[0-9.]+)")
DEFAULT_UNCERTAIN_MARGIN = 0.15


def filter_margin(span: Span) -> float | None:
    """How far the span filter's probability was from its threshold (None: the filter gave no verdict)."""
    for note in reversed(span.evidence):
        match = _FILTER_NOTE.match(note)
        if match:
            return abs(float(match["p"]) - float(match["t"]))
    return None


def is_uncertain(span: Span, margin: float = DEFAULT_UNCERTAIN_MARGIN) -> bool:
    value = filter_margin(span)
    return value is not None and value < margin


@dataclass
class ReviewSession:
    """Notes in review order, their detected spans and the corrections made so far."""

    notes: list[AnnotatedDocument]  # detected spans
    log: CorrectionLog
    reviewer: str
    uncertain_margin: float = DEFAULT_UNCERTAIN_MARGIN
    corrections: dict[str, list[Correction]] = field(default_factory=lambda: defaultdict(list))

    def __post_init__(self) -> None:
        # the server answers requests on a thread pool: one correction is checked, logged and applied at a time
        self._lock = threading.Lock()
        ids = {note.id for note in self.notes}
        for item in self.log.read():
            if item.note in ids:
                self.corrections[item.note].append(item)

    def index_of(self, note_id: str) -> int:
        for i, note in enumerate(self.notes):
            if note.id == note_id:
                return i
        raise KeyError(note_id)

    def reviewed(self, index: int) -> list[ReviewedSpan]:
        note = self.notes[index]
        return apply_corrections(note.spans, self.corrections.get(note.id, ()))

    def record(self, correction: Correction) -> None:
        """Check the correction against its note, write it to the log, then apply it."""
        index = self.index_of(correction.note)
        length = len(self.notes[index].text)
        end = max(correction.end, correction.new_end or 0)
        if end > length:
            raise ValueError(f"offsets beyond the note's {length} characters")
        with self._lock:
            self.log.append(correction)
            self.corrections[correction.note].append(correction)

    def resume_index(self) -> int:
        """Where the review stopped: the last note that has a correction (0 when nothing was corrected yet)."""
        last = 0
        for i, note in enumerate(self.notes):
            if self.corrections.get(note.id):
                last = i
        return last

    def corrected(self) -> list[AnnotatedDocument]:
        return [note.with_spans([r.span for r in self.reviewed(i)]) for i, note in enumerate(self.notes)]

    def export(self, path: Path, fmt: str | None = None) -> Path:
        write_corpus(self.corrected(), path, fmt)
        return path


def order_by_uncertainty(notes: Sequence[AnnotatedDocument], margin: float) -> list[AnnotatedDocument]:
    """Most informative first: notes with more uncertain spans, then with the smallest filter margin; ties keep
    the input order."""

    def key(item: tuple[int, AnnotatedDocument]) -> tuple[int, float, int]:
        index, note = item
        margins = [m for m in (filter_margin(s) for s in note.spans) if m is not None]
        uncertain = sum(1 for m in margins if m < margin)
        return (-uncertain, min(margins, default=1.0), index)

    return [note for _, note in sorted(enumerate(notes), key=key)]


def load_notes(
    input_path: Path,
    deidentifier: Deidentifier | None,
    spans_path: Path | None = None,
    input_format: str | None = None,
    options: ReadOptions | None = None,
) -> list[AnnotatedDocument]:
    """The input's notes (read with ``options``) with the spans to review: those of ``spans_path`` (matched by
    note id), else detected by ``deidentifier`` (notes of one patient together)."""
    notes = read_corpus(input_path, input_format, options)
    if not notes:
        raise ConfigurationError(f"{input_path}: no notes to review")
    if spans_path is not None:
        predicted = {item.id: item.spans for item in read_corpus(spans_path)}
        return [note.with_spans(predicted.get(note.id, ())) for note in notes]
    if deidentifier is None:
        raise ConfigurationError("give --spans or a model to detect the spans to review")
    detected = deidentifier.detect_many([note.document for note in notes])
    return [note.with_spans(spans) for note, spans in zip(notes, detected, strict=True)]
