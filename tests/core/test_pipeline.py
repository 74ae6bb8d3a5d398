"""``deident.core.pipeline``: per-document stages, group stages, and ``Pipeline.run_many``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest
import regex

from deident.core import pipeline as pipeline_module
from deident.core.document import Document, DocumentMetadata
from deident.core.labels import Label
from deident.core.pipeline import FunctionStage, GroupStage, Pipeline, Stage
from deident.core.span import Span
from deident.stage2.filter.span_classifier import LinearModel, SpanFilter, SpanFilterStage
from deident.stage2.reconcile import ReconcileStage
from deident.stage2.trusted_phrases import TrustedPhraseStage
from deident.stage2.union import UnionStage
from deident.text.note_view import NoteView, note_view


class CapitalDetector:
    """Every capitalised word is a PATIENT candidate."""

    name = "toy.capitals"
    _word = regex.compile(r"\b[A-Z][a-z]+\b")

    def detect(self, document: Document) -> list[Span]:
        return [Span(m.start(), m.end(), Label.PATIENT, self.name, 0.9) for m in self._word.finditer(document.text)]


def _drop_short(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    return tuple(s for s in spans if s.end - s.start > 3)


def _relabel_doctor(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    return tuple(s.with_label(Label.DOCTOR) for s in spans)


@dataclass(frozen=True)
class Trace:
    """A per-document stage that records (its name, document id) when called."""

    name: str
    log: list[tuple[str, str]] = field(default_factory=list, compare=False)

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        self.log.append((self.name, document.id))
        return spans


@dataclass(frozen=True)
class GroupTrace:
    """A group stage that records what it saw and adds a span marking how many documents it saw."""

    name: str
    log: list[tuple[str, str]] = field(default_factory=list, compare=False)

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return self.apply_many([document], [spans])[0]

    def apply_many(
        self, documents: Sequence[Document], spans_per_document: Sequence[tuple[Span, ...]]
    ) -> list[tuple[Span, ...]]:
        self.log.append((self.name, ",".join(d.id for d in documents)))
        seen = Span(0, len(documents), Label.IDNUM, f"group.{len(documents)}")
        return [(*spans, seen) for spans in spans_per_document]


DOCS = [
    Document("a", "Anna Zyxwerth saw Bob today.", DocumentMetadata(patient_id="1")),
    Document("b", "no names here at all", DocumentMetadata(patient_id="2")),
    Document("c", "Called Quexley and Li.", DocumentMetadata(patient_id="1")),
    Document("d", "Marta came.", DocumentMetadata()),
]

# (description, stages): pipelines without group stages
PER_NOTE_PIPELINES = [
    ("empty", []),
    ("detector", [CapitalDetector()]),
    ("detector and filter", [CapitalDetector(), FunctionStage("drop_short", _drop_short)]),
    ("relabel then filter",
     [CapitalDetector(), FunctionStage("doctor", _relabel_doctor), FunctionStage("drop_short", _drop_short)]),
    ("trusted phrases and union", [CapitalDetector(), UnionStage(), TrustedPhraseStage()]),
]  # fmt: skip


@pytest.mark.parametrize(("description", "parts"), PER_NOTE_PIPELINES, ids=[p[0] for p in PER_NOTE_PIPELINES])
def test_run_many_equals_per_note_calls_without_group_stages(description: str, parts: list[object]) -> None:
    pipeline = Pipeline.of(parts)  # type: ignore[arg-type]
    assert pipeline.run_many(DOCS) == [pipeline(doc) for doc in DOCS]


def test_run_many_of_nothing() -> None:
    assert Pipeline.of([CapitalDetector(), ReconcileStage()]).run_many([]) == []


def test_per_document_stages_run_stage_by_stage_up_to_a_group_stage() -> None:
    log: list[tuple[str, str]] = []
    pipeline = Pipeline((Trace("s1", log), Trace("s2", log), GroupTrace("g", log), Trace("s3", log)))
    pipeline.run_many(DOCS[:3])
    assert log == [
        ("s1", "a"), ("s1", "b"), ("s1", "c"), ("s2", "a"), ("s2", "b"), ("s2", "c"),
        ("g", "a,b,c"),
        ("s3", "a"), ("s3", "b"), ("s3", "c"),
    ]  # fmt: skip


def test_per_document_stages_take_blocks_of_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline_module, "STAGE_BLOCK", 2)
    log: list[tuple[str, str]] = []
    pipeline = Pipeline((Trace("s1", log), Trace("s2", log), GroupTrace("g", log)))
    pipeline.run_many(DOCS)
    assert log == [
        ("s1", "a"), ("s1", "b"), ("s2", "a"), ("s2", "b"),
        ("s1", "c"), ("s1", "d"), ("s2", "c"), ("s2", "d"),
        ("g", "a,b,c,d"),
    ]  # fmt: skip


@dataclass(frozen=True)
class BlockTrace(Trace):
    """A per-document stage with ``run_block``: records each block it is given."""

    def run_block(self, documents: Sequence[Document], spans: Sequence[tuple[Span, ...]]) -> list[tuple[Span, ...]]:
        self.log.append((self.name, ",".join(d.id for d in documents)))
        return list(spans)


def test_a_stage_with_run_block_gets_each_block_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline_module, "STAGE_BLOCK", 3)
    log: list[tuple[str, str]] = []
    pipeline = Pipeline((Trace("s1", log), BlockTrace("b", log), GroupTrace("g", log)))
    pipeline.run_many(DOCS)
    assert log == [
        ("s1", "a"), ("s1", "b"), ("s1", "c"), ("b", "a,b,c"),
        ("s1", "d"), ("b", "d"),
        ("g", "a,b,c,d"),
    ]  # fmt: skip


@pytest.mark.parametrize("block", [2, 3, 4, 64])
def test_run_many_gives_the_same_spans_whatever_the_block(monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    many = [Document(f"n{i}", f"Seen by Quexley{i % 3} and Marta on day {i}.") for i in range(11)] + DOCS
    pipeline = Pipeline.of(
        [CapitalDetector(), FunctionStage("drop_short", _drop_short), ReconcileStage(), UnionStage()]
    )
    monkeypatch.setattr(pipeline_module, "STAGE_BLOCK", 1)  # note by note
    expected = pipeline.run_many(many)
    monkeypatch.setattr(pipeline_module, "STAGE_BLOCK", block)
    assert pipeline.run_many(many) == expected


def _view_recorder(seen: list[tuple[str, NoteView]]) -> FunctionStage:
    def record(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        seen.append((document.id, note_view(document)))
        return spans

    return FunctionStage("record_view", record)


@pytest.mark.parametrize("block", [1, 2, 64])
def test_the_stages_of_a_block_share_each_notes_view(monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    monkeypatch.setattr(pipeline_module, "STAGE_BLOCK", block)
    seen: list[tuple[str, NoteView]] = []
    recorder = _view_recorder(seen)
    Pipeline.of([recorder, CapitalDetector(), recorder]).run_many(DOCS)
    views: dict[str, NoteView] = {}
    for doc_id, view in seen:
        assert views.setdefault(doc_id, view) is view  # both stages got the same view of the note
    assert len(views) == len(DOCS) and len({id(v) for v in views.values()}) == len(DOCS)
    assert all(note_view(doc) is not views[doc.id] for doc in DOCS)  # dropped after the run


def test_a_single_call_shares_one_view_and_drops_it() -> None:
    seen: list[tuple[str, NoteView]] = []
    recorder = _view_recorder(seen)
    Pipeline.of([recorder, CapitalDetector(), recorder])(DOCS[0])
    assert len(seen) == 2 and seen[0][1] is seen[1][1]
    assert note_view(DOCS[0]) is not seen[0][1]


def test_a_group_stage_sees_all_notes_and_each_note_gets_its_own_spans() -> None:
    pipeline = Pipeline.of([CapitalDetector(), GroupTrace("g")])
    out = pipeline.run_many(DOCS)
    assert [[s.source for s in spans if s.source.startswith("group.")] for spans in out] == [["group.4"]] * 4
    for doc, spans in zip(DOCS, out, strict=True):
        assert [s for s in spans if s.source == "toy.capitals"] == list(CapitalDetector().detect(doc))


@pytest.mark.parametrize("position", range(len(DOCS)))
def test_run_many_on_one_note_equals_the_per_note_call(position: int) -> None:
    pipeline = Pipeline.of(
        [CapitalDetector(), GroupTrace("g"), ReconcileStage(), FunctionStage("doctor", _relabel_doctor)]
    )
    doc = DOCS[position]
    assert pipeline.run_many([doc]) == [pipeline(doc)]


def test_call_on_one_document_uses_the_per_note_call() -> None:
    log: list[tuple[str, str]] = []
    pipeline = Pipeline((GroupTrace("g", log),))
    assert [s.source for s in pipeline(DOCS[0])] == ["group.1"]
    assert log == [("g", "a")]


def test_run_many_output_is_sorted_and_in_input_order() -> None:
    pipeline = Pipeline.of([CapitalDetector(), GroupTrace("g")])
    out = pipeline.run_many(DOCS)
    assert all(list(spans) == sorted(spans, key=lambda s: (s.start, -s.end, s.label, s.source)) for spans in out)
    assert [s.end for s in out[0] if s.source == "toy.capitals"] == [4, 13, 21]


@dataclass(frozen=True)
class DropsANote:
    name: str = "broken"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return spans

    def apply_many(
        self, documents: Sequence[Document], spans_per_document: Sequence[tuple[Span, ...]]
    ) -> list[tuple[Span, ...]]:
        return list(spans_per_document[1:])


def test_a_group_stage_must_answer_for_every_note() -> None:
    with pytest.raises(ValueError, match="'broken' returned 1 span tuples for 2 documents"):
        Pipeline((DropsANote(),)).run_many(DOCS[:2])


FILTER = SpanFilter({"names": LinearModel({}, 0.0)}, {"names": 0.5})


@pytest.mark.parametrize(
    ("stage", "grouped"),
    [
        (ReconcileStage(), True),
        (SpanFilterStage(FILTER), True),
        (GroupTrace("g"), True),
        (UnionStage(), False),
        (TrustedPhraseStage(), False),
        (FunctionStage("f", _drop_short), False),
        (Trace("t"), False),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, bool) else str(value),
)
def test_group_stage_protocol(stage: Stage, grouped: bool) -> None:
    assert isinstance(stage, Stage)
    assert isinstance(stage, GroupStage) is grouped
