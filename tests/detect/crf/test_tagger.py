from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from deident.core.document import Document
from deident.core.errors import ModelError
from deident.core.labels import Label
from deident.core.pipeline import Stage
from deident.core.span import Span, sort_spans
from deident.detect.crf.align import runs
from deident.detect.crf.features import CrfToken, crf_tokens
from deident.detect.crf.tagger import (
    CrfModel,
    CrfStage,
    GroupMarginals,
    TaggedDocument,
    _group_spans,
    spans_from_marginals,
)
from deident.model.manifest import write_manifest

from .synthetic import TEST_DOCTORS, synthetic_corpus

NOTE = "Pt seen by Dr. Hargrove this am, plan discussed.\nLungs clear bilaterally, sats 97% on 2L.\n"


def test_stage_protocol_and_span_contents(trained_model: Path) -> None:
    stage = CrfStage(CrfModel.load(trained_model))
    assert isinstance(stage, Stage) and stage.name == "crf"
    spans = stage(Document("n1", NOTE), ())
    doctor = [s for s in spans if s.label is Label.DOCTOR]
    assert [NOTE[s.start : s.end] for s in doctor] == ["Hargrove"]
    for span in spans:
        assert span.source == "crf" and span.score is not None and 0 < span.score <= 1
        assert span.evidence[0].startswith("crf:p=")
        assert not any(NOTE[span.start : span.end] in note for note in span.evidence)


def test_lower_threshold_proposes_a_superset(trained_model: Path) -> None:
    model = CrfModel.load(trained_model)
    doc = synthetic_corpus(5, seed=3, doctors=TEST_DOCTORS)[0].document
    tagged = model.tag(doc)
    strict = spans_from_marginals(doc.text, tagged, 0.9)
    loose = spans_from_marginals(doc.text, tagged, 0.01)
    assert all(any(l.contains(s) for l in loose) for s in strict)  # noqa: E741


def test_empty_document(trained_model: Path) -> None:
    assert CrfStage(CrfModel.load(trained_model))(Document("e", ""), ()) == ()


def test_same_input_same_output(trained_model: Path) -> None:
    stage = CrfStage(CrfModel.load(trained_model))
    doc = Document("n1", NOTE)
    assert stage(doc, ()) == stage(doc, ())
    assert [s.score for s in stage(doc, ())] == [s.score for s in stage(doc, ())]


def test_unknown_provider_fails_clearly(trained_model: Path, tmp_path: Path) -> None:
    copy = tmp_path / "model"
    shutil.copytree(trained_model, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["providers"] = ["patterns.nonexistent"]
    write_manifest(copy, manifest)
    with pytest.raises(ModelError, match="span provider"):
        CrfModel.load(copy)


def test_feature_set_version_mismatch_fails_clearly(trained_model: Path, tmp_path: Path) -> None:
    copy = tmp_path / "model"
    shutil.copytree(trained_model, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["feature_set_version"] = 999
    write_manifest(copy, manifest)
    with pytest.raises(ModelError, match="feature set version"):
        CrfModel.load(copy)


def test_a_model_trained_with_the_removed_tfidf_feature_fails_clearly(trained_model: Path, tmp_path: Path) -> None:
    """Benton's tf-idf rank was removed (issue 18: no gain on physionet-val nor on forum-style notes); a model that
    relied on it would be scored without it, so it is refused. Models recording "tfidf": false still load."""
    copy = tmp_path / "model"
    shutil.copytree(trained_model, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["features"]["tfidf"] = False
    write_manifest(copy, manifest)
    CrfModel.load(copy)
    manifest["features"]["tfidf"] = True
    write_manifest(copy, manifest)
    with pytest.raises(ModelError, match="tf-idf"):
        CrfModel.load(copy)


def test_bundled_default_model_loads_and_tags() -> None:
    from deident.model import default_model_dir

    if not (default_model_dir() / "manifest.json").exists():
        pytest.skip("no bundled default model in this checkout")
    stage = CrfStage(CrfModel.load(default_model_dir()))
    spans = stage(Document("n1", "Pt seen by Dr. Hargrove on 3/14, wife Agatha called 617-555-0134.\n"), ())
    assert {s.label.category.value for s in spans} >= {"NAME", "DATE"}


def _spans_by_runs(text: str, tagged: TaggedDocument, threshold: float) -> list[Span]:
    """spans_from_marginals written over :func:`runs` (how it was first written), to check it against."""
    spans: list[Span] = []
    for group in tagged.groups:
        for first, last in runs(text, tagged.tokens, [p > threshold for p in group.phi]):
            totals: dict[str, float] = {}
            for i in range(first, last + 1):
                for label, prob in group.labels.get(i, {}).items():
                    totals[label] = totals.get(label, 0.0) + prob
            if not totals:
                continue
            label = max(sorted(totals), key=lambda k: totals[k])
            probs = group.phi[first : last + 1]
            peak, mean = max(probs), sum(probs) / len(probs)
            evidence = (f"crf:p={peak:.2f}", f"crf:mean={mean:.2f}")
            spans.append(
                Span(tagged.tokens[first].start, tagged.tokens[last].end, Label(label), "crf", round(peak, 4), evidence)
            )
    return list(sort_spans(spans))


@pytest.mark.parametrize("seed", range(6))
def test_spans_from_marginals_join_runs_of_joinable_tokens(seed: int) -> None:
    rng = random.Random(seed)
    text = "Dr. Hargrove  saw\tMary Ann\n Smith,Jones x\n\nOK at 3/14 - Lakeview"
    tokens = tuple(crf_tokens(text))
    groups = []
    for _ in range(2):
        phi = tuple(rng.choice([0.0, 0.02, 0.3, 0.9]) for _ in tokens)
        labels = {i: {"DOCTOR": p * rng.random(), "DATE": p * rng.random()} for i, p in enumerate(phi) if p > 0.01}
        groups.append(GroupMarginals(phi, labels))
    tagged = TaggedDocument(tokens, tuple(groups))
    for threshold in (0.01, 0.1, 0.5):
        assert spans_from_marginals(text, tagged, threshold) == _spans_by_runs(text, tagged, threshold)


@pytest.mark.parametrize(
    ("phi", "split_at", "expected"),
    [
        # "Dr. Holmes called" with the name confident and "called" tentative
        ((0.0, 0.0, 0.9, 0.01), None, ["Holmes called"]),
        ((0.0, 0.0, 0.9, 0.01), 0.03, ["Holmes", "called"]),
        ((0.0, 0.0, 0.9, 0.5), 0.03, ["Holmes called"]),  # both above: one span
        ((0.0, 0.0, 0.02, 0.01), 0.03, ["Holmes called"]),  # both below: one tentative span
        ((0.02, 0.0, 0.9, 0.01), 0.03, ["Dr", "Holmes", "called"]),
    ],
)
def test_spans_from_marginals_split_at_tiers(phi, split_at, expected) -> None:
    text = "Dr. Holmes called"
    tokens = tuple(crf_tokens(text))
    assert [t.text for t in tokens] == ["Dr", ".", "Holmes", "called"]
    labels = {i: {"DOCTOR": p} for i, p in enumerate(phi) if p > 0}
    tagged = TaggedDocument(tokens, (GroupMarginals(phi, labels),))
    got = spans_from_marginals(text, tagged, 0.005, split_at=split_at)
    assert [s.text_of(text) for s in got] == expected


def test_crf_spans_from_numpy_probabilities_carry_plain_scores():
    # The compiled tagger's probabilities are numpy arrays: round() of a numpy float stays numpy.
    text = "Seen by Wobblestone today"
    tokens = [CrfToken(0, 4, "Seen"), CrfToken(5, 7, "by"), CrfToken(8, 19, "Wobblestone"), CrfToken(20, 25, "today")]
    phi = np.array([0.01, 0.02, 0.93, 0.01])
    spans = _group_spans(text, tokens, phi, {2: {"DOCTOR": 0.93}}, [2], "crf")
    assert [(s.start, s.end, s.score) for s in spans] == [(8, 19, 0.93)]
    assert type(spans[0].score) is float
