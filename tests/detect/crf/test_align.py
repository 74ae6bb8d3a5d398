from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.crf.align import AlignmentReport, runs, spans_to_tags, split_tag, tags_to_spans
from deident.text.tokenize import tokenize

TEXT = "Seen by Dr. Smith on 3/4.\nWife Mary\ncalled."


def _span(word: str, label: Label = Label.DOCTOR) -> Span:
    start = TEXT.index(word)
    return Span(start, start + len(word), label)


@pytest.mark.parametrize(
    ("span", "expected", "report"),
    [
        (_span("Smith"), ["B-DOCTOR"], AlignmentReport(1, 1, 0, 0)),
        (_span("3/4", Label.DATE), ["B-DATE", "I-DATE", "I-DATE"], AlignmentReport(1, 1, 0, 0)),
        (_span("mit"), ["B-DOCTOR"], AlignmentReport(1, 0, 1, 0)),  # boundary inside a token
        (Span(TEXT.index(" Smith"), TEXT.index(" Smith") + 1, Label.DOCTOR), [], AlignmentReport(1, 0, 0, 1)),
    ],
)
def test_spans_to_tags(span: Span, expected: list[str], report: AlignmentReport) -> None:
    tokens = tokenize(TEXT)
    tags, got = spans_to_tags(tokens, [span])
    assert [t for t in tags if t != "O"] == expected
    assert got == report


def test_report_counts_only_and_adds() -> None:
    total = AlignmentReport(2, 1, 1, 0) + AlignmentReport(1, 0, 0, 1)
    assert total.as_dict() == {"spans": 3, "exact": 1, "partial": 1, "unaligned": 1}


def test_label_map_leaves_other_labels_outside() -> None:
    tokens = tokenize(TEXT)
    tags, _ = spans_to_tags(tokens, [_span("Smith"), _span("3/4", Label.DATE)], {Label.DATE: "DATE"})
    assert "B-DOCTOR" not in tags and "B-DATE" in tags


def test_tags_round_trip_to_spans() -> None:
    tokens = tokenize(TEXT)
    gold = [_span("Smith"), _span("3/4", Label.DATE), _span("Mary", Label.RELATIVE)]
    tags, _ = spans_to_tags(tokens, gold)
    assert tags_to_spans(TEXT, tokens, tags) == sorted(gold)


@pytest.mark.parametrize(
    ("selected_words", "expected"),
    [
        (("Dr", "Smith"), [("Dr", "Dr"), ("Smith", "Smith")]),  # the unselected "." separates them
        (("Wife", "Mary"), [("Wife", "Mary")]),
        (("Mary", "called"), [("Mary", "Mary"), ("called", "called")]),  # a line break splits runs
    ],
)
def test_runs_join_on_spaces_only(selected_words: tuple[str, ...], expected: list[tuple[str, str]]) -> None:
    tokens = tokenize(TEXT)
    selected = [t.text in selected_words for t in tokens]
    got = [(tokens[a].text, tokens[b].text) for a, b in runs(TEXT, tokens, selected)]
    assert got == expected


def test_split_tag() -> None:
    assert split_tag("B-DATE") == ("B", "DATE")
    assert split_tag("O") == ("O", None)


@pytest.mark.parametrize(
    ("text", "end", "start", "joins"),
    [
        ("Ann Lee", 3, 4, True),
        ("Ann\tLee", 3, 4, True),
        ("AnnLee", 3, 3, True),  # nothing between
        ("Ann  \t Lee", 3, 7, True),
        ("Ann\nLee", 3, 4, False),
        ("Ann, Lee", 3, 5, False),
        ("Ann \u00a0Lee", 3, 5, False),  # only spaces and tabs join, not other blanks
    ],
)
def test_gap_joins_only_across_spaces_and_tabs(text: str, end: int, start: int, joins: bool) -> None:
    from deident.detect.crf.align import gap_joins

    assert gap_joins(text, end, start) is joins
