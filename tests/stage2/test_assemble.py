from __future__ import annotations

import pytest

from deident.core.document import Document, DocumentMetadata
from deident.core.labels import Label
from deident.core.pipeline import FunctionStage, Pipeline
from deident.core.span import Span
from deident.stage2.assemble import stage2_pipeline, stage2_stages
from deident.stage2.filter.span_classifier import LinearModel, SpanFilter
from deident.stage2.reconcile import ReconcileOptions

TEXT = "Attending: Anna Zyxwerth\nZyxwerth saw pt. Given Lasix."


def _stage1(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    text = document.text
    found = []
    for word in ("Lasix",):
        if word in text:
            i = text.index(word)
            found.append(Span(i, i + len(word), Label.PATIENT, "crf", 0.4))
    return (*spans, *found)


STAGE1 = Pipeline((FunctionStage("toy", _stage1),))
FILTER = SpanFilter({"names": LinearModel({"score=crf": -10.0}, 2.0)}, {"names": 0.5})


@pytest.mark.parametrize(
    ("options", "names", "expected"),
    [
        ({}, ("union", "filter", "trusted_phrases", "reconcile"), ["Anna Zyxwerth", "Zyxwerth"]),
        ({"use_filter": False}, ("union", "trusted_phrases", "reconcile"), ["Anna Zyxwerth", "Zyxwerth", "Lasix"]),
        ({"reconcile": False}, ("union", "filter", "trusted_phrases"), ["Anna Zyxwerth"]),
        ({"trusted": False}, ("union", "filter", "reconcile"), []),
    ],
)
def test_pipeline_ablation_switches(options, names, expected):
    assert tuple(s.name for s in stage2_stages(FILTER, **options)) == names
    pipeline = stage2_pipeline(STAGE1, FILTER, **options)
    doc = Document("d", TEXT)
    assert [TEXT[s.start : s.end] for s in pipeline(doc)] == expected
    many = pipeline.run_many([doc])[0]
    assert [TEXT[s.start : s.end] for s in many] == expected


@pytest.mark.parametrize(
    ("second_patient", "reconcile", "expected"),
    [("1", True, [(0, 8, Label.DOCTOR)]), ("2", True, []), (None, True, []), ("1", False, [])],
)
def test_run_many_propagates_across_a_patients_notes(second_patient, reconcile, expected):
    docs = [
        Document("1_1", TEXT, DocumentMetadata(patient_id="1")),
        Document("x_2", "ZYXWERTH called back.", DocumentMetadata(patient_id=second_patient)),
    ]
    pipeline = stage2_pipeline(STAGE1, FILTER, reconcile=reconcile)
    out = pipeline.run_many(docs)
    assert [(s.start, s.end, s.label) for s in out[1]] == expected
    assert pipeline(docs[1]) == ()  # alone, the note has nothing to reconcile with
    assert out[0] == pipeline(docs[0])


def test_reconcile_options_reach_the_stage():
    docs = [
        Document("1_1", TEXT, DocumentMetadata(patient_id="1")),
        Document("1_2", "ZYXWERTH called back.", DocumentMetadata(patient_id="1")),
    ]
    strict = stage2_pipeline(STAGE1, FILTER, reconcile_options=ReconcileOptions(min_length=9))
    assert strict.run_many(docs)[1] == ()
