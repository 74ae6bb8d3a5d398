"""JSONL records keep a merged span's typed parts (deident.io.jsonl)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deident.core import AnnotatedDocument, Document, InputFormatError, Label, Span
from deident.core.provenance import Part
from deident.io.jsonl import document_to_record, read_jsonl, record_to_document, write_jsonl

TEXT = "Seen by Dr Zyxwerth on 3/4."
PARTS = (Part("lexicon.last", Label.DOCTOR, 11, 19, None), Part("crf", Label.DOCTOR, 8, 19, 0.123457))
MERGED = Span(11, 19, Label.DOCTOR, "crf+lexicon.last", 0.9, ("crf: crf:p=0.12",), PARTS)


def test_parts_are_written_as_records_and_read_back(tmp_path: Path) -> None:
    item = AnnotatedDocument(Document("d", TEXT), (MERGED, Span(23, 26, Label.DATE, "patterns.date")))
    record = document_to_record(item)
    assert record["spans"][0]["parts"] == [
        {"source": "lexicon.last", "label": "DOCTOR", "start": 11, "end": 19},
        {"source": "crf", "label": "DOCTOR", "start": 8, "end": 19, "score": 0.123457},
    ]
    assert "parts" not in record["spans"][1]  # a span that is not merged has none
    assert "Zyxwerth" not in str(record["spans"])
    write_jsonl([item], tmp_path / "c.jsonl")
    (back,) = read_jsonl(tmp_path / "c.jsonl")
    assert [(s.evidence, s.parts) for s in back.spans] == [(MERGED.evidence, PARTS), ((), ())]


def test_parts_are_details() -> None:
    record = document_to_record(AnnotatedDocument(Document("d", TEXT), (MERGED,)), with_details=False)
    assert record["spans"] == [{"start": 11, "end": 19, "label": "DOCTOR"}]


@pytest.mark.parametrize(
    "parts",
    [
        [{"source": "crf", "label": "NOT_A_LABEL", "start": 1, "end": 2}],
        [{"source": "crf", "label": "DOCTOR", "start": 1}],
        [{"source": "crf", "label": "DOCTOR", "start": "one", "end": 2}],
        [{"source": "crf", "label": "DOCTOR", "start": 1, "end": 2, "score": "high"}],
        ["crf|DOCTOR|1|2|0.5"],
        [None],
    ],
)
def test_bad_parts_are_refused_with_the_span_named(parts: list[Any]) -> None:
    record = {"id": "d", "text": TEXT, "spans": [{"start": 11, "end": 19, "label": "DOCTOR", "parts": parts}]}
    with pytest.raises(InputFormatError, match="line 3, span 0"):
        record_to_document(record, Path("c.jsonl"), "line 3")


def test_a_byte_order_mark_is_accepted_and_lines_split_on_newline_only(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"id": "1", "text": "a\xe2\x80\xa8b\xc2\x85c"}\r\n{"id": "2", "text": "d"}\n')
    assert [(d.id, d.text) for d in read_jsonl(path)] == [("1", "a\u2028b\x85c"), ("2", "d")]


def test_a_utf16_jsonl_file_is_refused_with_a_hint_to_convert_it(tmp_path: Path):
    path = tmp_path / "wide.jsonl"
    path.write_bytes('{"id": "a", "text": "Dr. Quorvane"}\n'.encode("utf-16"))
    with pytest.raises(InputFormatError, match=r"wide\.jsonl, line 1, byte 1: .*utf-16 byte order mark; convert it"):
        read_jsonl(path)
