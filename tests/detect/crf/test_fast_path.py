"""The fast tagging path (compiled CRF weights, per-label marginals only above the floor) and the
``crf`` stage (provider hits taken from the spans so far) must give what the plain crfsuite path
gives (marginals to 1e-9, identical spans): the lead trains models on these features."""

from __future__ import annotations

from pathlib import Path

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Stage
from deident.core.span import Span, sort_spans
from deident.detect.crf.tagger import CrfModel, CrfStage, spans_from_marginals, tag_reference

from .close import assert_tagged_close
from .synthetic import PROVIDERS, TEST_DOCTORS, TEST_RELATIVES, synthetic_corpus


def _documents() -> list[Document]:
    docs = [d.document for d in synthetic_corpus(12, seed=5, doctors=TEST_DOCTORS, relatives=TEST_RELATIVES)]
    docs += [d.document for d in synthetic_corpus(4, seed=6, caps=True)]
    docs.append(Document("odd", "Dr. Quimby 3/14\n\n  x1234 (unknown-word) café Zoë 12ab\n"))
    docs.append(Document("empty", ""))
    return docs


@pytest.mark.parametrize("which", ["plain", "providers"])
def test_fast_tag_equals_reference(which: str, trained_model: Path, provider_model: Path) -> None:
    model = CrfModel.load(trained_model if which == "plain" else provider_model, providers=PROVIDERS)
    for doc in _documents():
        for floor in (0.001, 0.03, 0.5):
            assert_tagged_close(model.tag(doc, floor=floor), tag_reference(model, doc, floor=floor), floor)
        reference = spans_from_marginals(doc.text, tag_reference(model, doc, floor=model.threshold), model.threshold)
        assert model.spans(doc) == reference


def test_known_attributes_are_the_model_dictionary(provider_model: Path) -> None:
    model = CrfModel.load(provider_model, providers=PROVIDERS)
    known = model.known_attributes()
    assert "bias" in known and "hit:test.date:DATE" in known
    assert "w=no-such-word-anywhere" not in known


def test_stage_after_provider_spans_equals_the_stage_that_runs_them(provider_model: Path) -> None:
    model = CrfModel.load(provider_model, providers=PROVIDERS)
    alone, stage = CrfStage(model), CrfStage(model, after_rules=True)
    assert isinstance(stage, Stage) and stage.name == "crf"
    found_any = False
    for doc in _documents():
        hits = sort_spans(s for p in PROVIDERS for s in p.detect(doc))
        expected = sort_spans((*hits, *alone(doc, ())))
        assert stage(doc, hits) == expected, doc.doc_id
        found_any = found_any or any(s.source == "crf" for s in expected)
    assert found_any


def test_stage_uses_only_provider_sources(provider_model: Path) -> None:
    model = CrfModel.load(provider_model, providers=PROVIDERS)
    stage = CrfStage(model, after_rules=True)
    doc = Document("n", "Seen by Dr. Hargrove on 3/14, plan discussed.\n")
    hits = sort_spans(s for p in PROVIDERS for s in p.detect(doc))
    other = Span(0, 4, Label.DATE, "other.detector")
    with_other = stage(doc, (*hits, other))
    assert other in with_other
    assert [s for s in with_other if s.source == "crf"] == [s for s in stage(doc, hits) if s.source == "crf"]
    # The hits matter: without them the CRF sees different features (so the test above can fail).
    assert model.tag(doc, hits=()) != model.tag(doc, hits=hits)
