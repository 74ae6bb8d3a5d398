from __future__ import annotations

import json
from pathlib import Path

import pytest

from deident.core.errors import InputFormatError
from deident.core.labels import Label
from deident.core.span import Span
from deident.review.corrections import Action, Correction, CorrectionLog, apply_corrections

SPANS = (Span(0, 5, Label.PATIENT, "x"), Span(10, 14, Label.DATE, "y"))


def _c(action: Action, start: int, end: int, label: Label = Label.PATIENT, **kw: int) -> Correction:
    return Correction("n1", action, start, end, label, "rev", "2026-01-01T00:00:00+00:00", **kw)


@pytest.mark.parametrize(
    ("corrections", "expected"),
    [
        ([], [(0, 5, "PATIENT", "pending"), (10, 14, "DATE", "pending")]),
        ([_c(Action.REJECT, 0, 5)], [(10, 14, "DATE", "pending")]),
        ([_c(Action.ACCEPT, 10, 14, Label.DATE)], [(0, 5, "PATIENT", "pending"), (10, 14, "DATE", "accepted")]),
        ([_c(Action.RELABEL, 0, 5, Label.DOCTOR)], [(0, 5, "DOCTOR", "accepted"), (10, 14, "DATE", "pending")]),
        (
            [_c(Action.ADD, 20, 24, Label.CITY)],
            [(0, 5, "PATIENT", "pending"), (10, 14, "DATE", "pending"), (20, 24, "CITY", "added")],
        ),
        (
            [_c(Action.RESIZE, 10, 14, Label.DATE, new_start=9, new_end=16)],
            [(0, 5, "PATIENT", "pending"), (9, 16, "DATE", "accepted")],
        ),
        # an action on offsets that hold no span (already rejected) changes nothing
        ([_c(Action.REJECT, 0, 5), _c(Action.RELABEL, 0, 5, Label.CITY)], [(10, 14, "DATE", "pending")]),
        # a relabel after a resize follows the span to its new offsets
        (
            [_c(Action.RESIZE, 0, 5, new_start=0, new_end=6), _c(Action.RELABEL, 0, 6, Label.RELATIVE)],
            [(0, 6, "RELATIVE", "accepted"), (10, 14, "DATE", "pending")],
        ),
    ],
)
def test_apply_corrections(corrections, expected):
    got = [(r.span.start, r.span.end, r.span.label.value, r.status) for r in apply_corrections(SPANS, corrections)]
    assert got == expected


def test_log_round_trip_and_fields(tmp_path: Path):
    log = CorrectionLog(tmp_path / "c.jsonl")
    first = _c(Action.ADD, 1, 3, Label.CITY)
    second = _c(Action.RESIZE, 1, 3, Label.CITY, new_start=0, new_end=4)
    log.append(first)
    log.append(second)
    assert log.read() == [first, second]
    record = json.loads((tmp_path / "c.jsonl").read_text().splitlines()[0])
    assert set(record) == {"note", "action", "start", "end", "label", "reviewer", "time"}


def test_torn_last_line_is_skipped(tmp_path: Path):
    path = tmp_path / "c.jsonl"
    log = CorrectionLog(path)
    log.append(_c(Action.REJECT, 0, 5))
    with path.open("a") as handle:
        handle.write('{"note": "n1", "act')  # a crash while the line was written
    assert log.read() == [_c(Action.REJECT, 0, 5)]
    assert log.skipped_lines == 1


def test_bad_complete_line_names_file_and_line(tmp_path: Path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"note": "n1"}\n')
    with pytest.raises(InputFormatError, match=r"c\.jsonl, line 1"):
        CorrectionLog(path).read()


def test_resize_needs_new_offsets():
    with pytest.raises(ValueError):
        _c(Action.RESIZE, 0, 5)
