"""Corrections as data: a reviewer's actions on spans, appended one JSON line each, and replayed into spans.

Every action is one line ``{"note", "action", "start", "end", "label", "reviewer", "time"}`` (``resize`` adds
``new_start``/``new_end``) written with a single ``write`` on a file opened for appending and fsync'd before the
server answers, so a crash or a closed tab loses at most the action being written; a torn last line (a crash
mid-write) is skipped on replay. Lines carry offsets and labels only, never the covered text.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from deident.core.errors import InputFormatError
from deident.core.labels import Label
from deident.core.span import Span, sort_spans

REVIEW_SOURCE = "review"


class Action(StrEnum):
    ACCEPT = "accept"
    REJECT = "reject"
    RELABEL = "relabel"
    ADD = "add"
    RESIZE = "resize"


@dataclass(frozen=True, slots=True)
class Correction:
    """One reviewer action on the span ``[start, end)`` of note ``note``."""

    note: str
    action: Action
    start: int
    end: int
    label: Label
    reviewer: str
    time: str
    new_start: int | None = None
    new_end: int | None = None

    def __post_init__(self) -> None:
        if self.start < 0 or self.end <= self.start:
            raise ValueError(f"bad offsets [{self.start}, {self.end})")
        if self.action is Action.RESIZE and (
            self.new_start is None or self.new_end is None or self.new_start < 0 or self.new_end <= self.new_start
        ):
            raise ValueError("a resize needs new offsets new_start < new_end")

    def as_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "note": self.note,
            "action": self.action.value,
            "start": self.start,
            "end": self.end,
            "label": self.label.value,
            "reviewer": self.reviewer,
            "time": self.time,
        }
        if self.action is Action.RESIZE:
            record["new_start"] = self.new_start
            record["new_end"] = self.new_end
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Correction:
        return cls(
            note=str(record["note"]),
            action=Action(record["action"]),
            start=int(record["start"]),
            end=int(record["end"]),
            label=Label(record["label"]),
            reviewer=str(record["reviewer"]),
            time=str(record["time"]),
            new_start=None if record.get("new_start") is None else int(record["new_start"]),
            new_end=None if record.get("new_end") is None else int(record["new_end"]),
        )


def now() -> str:
    """The current time in UTC, ISO 8601 to the second."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


@dataclass
class CorrectionLog:
    """The append-only JSONL file of corrections."""

    path: Path
    skipped_lines: int = field(default=0, init=False)

    def append(self, correction: Correction) -> None:
        """Append one line and fsync it: the action is on disk when this returns."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = (json.dumps(correction.as_record(), sort_keys=True) + "\n").encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def read(self) -> list[Correction]:
        """Every complete, valid line in order; a torn or invalid line is counted in ``skipped_lines``."""
        self.skipped_lines = 0
        if not self.path.exists():
            return []
        out: list[Correction] = []
        with self.path.open(encoding="utf-8", errors="replace") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.strip():
                    continue
                try:
                    out.append(Correction.from_record(json.loads(raw)))
                except (json.JSONDecodeError, KeyError, ValueError, TypeError):
                    if raw.endswith("\n"):
                        raise InputFormatError(self.path, f"line {number}", "not a correction record") from None
                    self.skipped_lines += 1  # the last line, torn by a crash while it was written
        return out


@dataclass(frozen=True, slots=True)
class ReviewedSpan:
    """A span as the reviewer sees it: ``status`` is ``pending`` (detected, not yet looked at), ``accepted``
    or ``added``."""

    span: Span
    status: str


def apply_corrections(spans: Sequence[Span], corrections: Iterable[Correction]) -> list[ReviewedSpan]:
    """The spans of one note after its corrections, in document order. An action on offsets that hold no span
    (already rejected, say) changes nothing, so replaying a log twice gives the same spans."""
    current: dict[tuple[int, int], ReviewedSpan] = {}
    for span in spans:
        current.setdefault((span.start, span.end), ReviewedSpan(span, "pending"))
    for item in corrections:
        key = (item.start, item.end)
        found = current.get(key)
        if item.action is Action.ADD:
            current[key] = ReviewedSpan(Span(item.start, item.end, item.label, REVIEW_SOURCE), "added")
        elif found is None:
            continue
        elif item.action is Action.REJECT:
            del current[key]
        elif item.action is Action.ACCEPT:
            current[key] = ReviewedSpan(found.span, "accepted" if found.status == "pending" else found.status)
        elif item.action is Action.RELABEL:
            current[key] = ReviewedSpan(found.span.with_label(item.label), _touched(found.status))
        elif item.action is Action.RESIZE:
            assert item.new_start is not None and item.new_end is not None
            del current[key]
            moved = found.span.moved(item.new_start, item.new_end)
            current[(moved.start, moved.end)] = ReviewedSpan(moved, _touched(found.status))
    ordered = sort_spans(r.span for r in current.values())
    by_key = {(r.span.start, r.span.end, r.span.label): r for r in current.values()}
    return [by_key[(s.start, s.end, s.label)] for s in ordered]


def _touched(status: str) -> str:
    return "added" if status == "added" else "accepted"
