from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import ModelError
from deident.core.labels import Label
from deident.core.span import Span
from deident.stage2.filter.candidate_features import FeatureExtractor
from deident.stage2.filter.span_classifier import (
    FILTER_FILE,
    LinearModel,
    SpanFilter,
    SpanFilterStage,
    fit_linear,
    group_of,
    is_positive,
    load_filter,
    save_filter,
)
from deident.stage2.filter.training import OutOfFoldCandidates, fit_span_filter
from deident.stage2.union import UnionStage


def _synthetic(n: int, seed: int) -> tuple[list[dict[str, float]], list[bool]]:
    rng = random.Random(seed)
    xs, ys = [], []
    for _ in range(n):
        feats = {"bias": 1.0, f"src={rng.choice(['crf', 'lexicon.first', 'patterns.date'])}": 1.0}
        feats["zipf_min"] = rng.random()
        if rng.random() < 0.5:
            feats[f"w-1={rng.choice(['dr', 'the', 'mr', 'of'])}"] = 1.0
        score = 2.0 * feats.get("w-1=dr", 0) + 1.5 * feats.get("w-1=mr", 0) - 3 * feats["zipf_min"] + rng.gauss(0, 1)
        xs.append(feats)
        ys.append(score > -1.0)
    return xs, ys


def test_round_trip_matches_sklearn_predict_proba(tmp_path):
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    xs, ys = _synthetic(400, 1)
    model = fit_linear(xs, ys, c=0.7)
    vec = DictVectorizer(sort=True)
    matrix = vec.fit_transform(xs)
    reference = LogisticRegression(C=0.7, max_iter=2000, solver="lbfgs").fit(matrix, [int(y) for y in ys])
    span_filter = SpanFilter({"names": model}, {"names": 0.5})
    save_filter(span_filter, tmp_path)
    loaded = load_filter(tmp_path)
    test_x, _ = _synthetic(100, 2)
    test_x[0]["never_seen_feature"] = 1.0
    expected = reference.predict_proba(vec.transform(test_x))[:, 1]
    got = [loaded.models["names"].probability(x) for x in test_x]
    assert max(abs(a - b) for a, b in zip(got, expected, strict=True)) < 1e-9


def test_saved_file_is_plain_json_and_loads_identically(tmp_path):
    xs, ys = _synthetic(200, 3)
    span_filter = SpanFilter({"numeric": fit_linear(xs, ys)}, {"numeric": 0.3}, info={"c": 1.0})
    entry = save_filter(span_filter, tmp_path)
    data = json.loads((tmp_path / FILTER_FILE).read_text())
    assert entry["file"] == FILTER_FILE and data["format"] == "deident.span-filter"
    assert load_filter(tmp_path) == span_filter


def test_inference_does_not_import_sklearn(tmp_path):
    xs, ys = _synthetic(100, 4)
    save_filter(SpanFilter({"names": fit_linear(xs, ys)}, {"names": 0.5}), tmp_path)
    code = (
        "import sys\nfrom deident.core.document import Document\nfrom deident.core.labels import Label\n"
        "from deident.core.span import Span\nfrom deident.stage2.filter.span_classifier import load_filter\n"
        f"f = load_filter({str(tmp_path)!r})\n"
        "f.apply(Document('d', 'Seen by Dr Smith today'), (Span(11, 16, Label.DOCTOR, 'crf', 0.9),))\n"
        "assert not any(m.startswith('sklearn') for m in sys.modules), 'sklearn imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "unreadable"),
        ('{"format": "other"}', "not a span filter"),
        ('{"format": "deident.span-filter", "version": 1}', "malformed"),
    ],
)
def test_bad_model_files_raise_model_error(tmp_path, content, problem):
    (tmp_path / FILTER_FILE).write_text(content)
    with pytest.raises(ModelError, match=problem):
        load_filter(tmp_path)


def test_missing_model_file(tmp_path):
    with pytest.raises(ModelError, match="missing"):
        load_filter(tmp_path)


def test_one_class_training_gives_constant_model():
    model = fit_linear([{"a": 1.0}, {"b": 1.0}], [True, True])
    assert model.weights == {} and model.probability({"a": 1.0}) > 0.5


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        (Span(0, 4, Label.PATIENT), False),  # "Seen"
        (Span(8, 13, Label.PATIENT), True),  # "Smith" inside gold "Dr Smith"? gold is [8, 13)
        (Span(12, 20, Label.PATIENT), True),  # shares "h"
        (Span(13, 14, Label.PATIENT), False),  # only the space after the gold span
        (Span(13, 20, Label.PATIENT), False),
    ],
)
def test_is_positive(span, expected):
    text = "Seen by Smith today ok"
    assert is_positive(span, [Span(8, 13, Label.DOCTOR)], text) is expected


@pytest.mark.parametrize(
    ("label", "group"),
    [(Label.PATIENT, "names"), (Label.PROFESSION, "names"), (Label.DATE, "numeric"), (Label.PHONE, "numeric"),
     (Label.IDNUM, "numeric"), (Label.AGE, "numeric"), (Label.CITY, "locations"), (Label.HOSPITAL, "locations")],
)  # fmt: skip
def test_groups(label, group):
    assert group_of(Span(0, 1, label)) == group


def test_filter_stage_drops_below_threshold_and_records_probability():
    model = LinearModel({"src=crf": -4.0, "src=patterns.date": 4.0}, 0.0)
    stage = SpanFilterStage(SpanFilter({"names": model, "numeric": model}, {"names": 0.5, "numeric": 0.5}))
    doc = Document("d", "Bob came on 3/4 to Boston")
    spans = (
        Span(0, 3, Label.PATIENT, "crf", 0.4),
        Span(12, 15, Label.DATE, "patterns.date"),
        Span(19, 25, Label.CITY, "lexicon.city"),
    )
    kept = stage(doc, spans)
    assert [(s.start, s.label) for s in kept] == [(12, Label.DATE), (19, Label.CITY)]
    assert kept[0].score == pytest.approx(1 / (1 + 2.718281828459045**-4), rel=1e-9)
    assert any(e.startswith("filter: numeric p=0.982") for e in kept[0].evidence)
    assert any(e.startswith("filter: locations no model") for e in kept[1].evidence)


@pytest.mark.parametrize(("score", "kept"), [(None, False), (0.6, False), (0.89, False), (0.9, True), (1.0, True)])
def test_a_confident_detector_keeps_its_candidate(score, kept):
    model = LinearModel({"src=lexicon.name": -4.0}, 0.0)
    stage = SpanFilterStage(SpanFilter({"names": model}, {"names": 0.5}))
    doc = Document("d", "Mrs Ley here")
    survivors = stage(doc, (Span(4, 7, Label.PATIENT, "lexicon.name", score),))
    assert bool(survivors) is kept
    if kept:
        assert survivors[0].score == score  # the detector's score, not the filter's probability
        assert any(e.endswith("kept: confident detector") for e in survivors[0].evidence)


@pytest.mark.parametrize(
    ("crf", "other", "kept"),
    [
        (None, 0.6, False),
        (0.3, 0.6, False),
        (0.49, 0.6, False),
        (0.5, 0.6, True),
        (0.89, None, True),
        (0.5, None, True),
    ],
)
def test_the_filter_never_overrules_the_crf_calling_a_candidate_phi(crf, other, kept):
    """What the CRF itself tags at its own 0.5 boundary stays whatever the filter thinks of it: the filter judges what
    stage 1 merely proposes. Here the candidate is a merged one (a lexicon part, a CRF part, or both)."""
    model = LinearModel({"src=crf": -4.0, "src=lexicon.name": -4.0}, 0.0)
    stage = SpanFilterStage(SpanFilter({"names": model}, {"names": 0.5}))
    doc = Document("d", "Seen by Tobiah Quorvane today")
    members = [Span(8, 23, Label.DOCTOR, source, score)
               for source, score in (("crf", crf), ("lexicon.name", other)) if score is not None]  # fmt: skip
    (candidate,) = UnionStage()(doc, tuple(members))
    survivors = stage(doc, (candidate,))
    assert bool(survivors) is kept
    if kept and (other is None or other < 0.9):
        assert survivors[0].evidence[-1].endswith("kept: the CRF calls it PHI")


@pytest.mark.parametrize(
    ("trained_labels", "kept"),
    [(None, False), (["PATIENT"], False), (["PATIENT", "USERNAME"], False), (["DATE"], True)],
)
def test_a_label_the_filter_never_saw_is_kept(trained_labels, kept):
    model = LinearModel({"src=crf": -4.0}, 0.0)
    info = {} if trained_labels is None else {"trained_labels": trained_labels}
    stage = SpanFilterStage(SpanFilter({"names": model}, {"names": 0.5}, info=info))
    doc = Document("d", "From: bramblefoot")
    label = Label.PATIENT if trained_labels == ["PATIENT"] else Label.USERNAME
    survivors = stage(doc, (Span(6, 17, label, "crf", 0.4),))
    assert bool(survivors) is kept
    if kept:
        assert survivors[0].evidence[-1] == "filter: USERNAME unseen in training, kept"


def test_fitting_records_the_trained_labels():
    corpus = [AnnotatedDocument(Document(f"p{i}", "Bob came on 3/4"), (Span(0, 3, Label.PATIENT),)) for i in range(4)]
    candidates = [(Span(0, 3, Label.PATIENT, "crf", 0.5), Span(12, 15, Label.DATE, "patterns.date"))] * 4
    oof = OutOfFoldCandidates(tuple(corpus), tuple(candidates), (0, 1, 0, 1))
    span_filter, _ = fit_span_filter(oof, recall_target=0.9)
    assert span_filter.trained_labels == frozenset({"PATIENT", "DATE"})
    assert SpanFilter.from_json(span_filter.to_json()).trained_labels == frozenset({"PATIENT", "DATE"})


def test_for_recall_target_uses_the_stored_table():
    table = {
        "rows": [
            {"threshold": 0.2, "recall": 0.995, "precision": 0.8},
            {"threshold": 0.6, "recall": 0.97, "precision": 0.95},
        ]
    }
    model = LinearModel({}, 0.0)
    span_filter = SpanFilter({"names": model, "numeric": model}, {"names": 0.5, "numeric": 0.5}, calibration=table)
    assert span_filter.for_recall_target(0.99).thresholds == {"names": 0.2, "numeric": 0.2}
    assert span_filter.for_recall_target(0.95).thresholds == {"names": 0.6, "numeric": 0.6}
    with pytest.raises(ModelError, match="no calibration"):
        SpanFilter({"names": model}, {"names": 0.5}).for_recall_target(0.99)


def test_boosting_round_trip_matches_sklearn(tmp_path):
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.feature_extraction import DictVectorizer

    from deident.stage2.filter.span_classifier import fit_boosting

    xs, ys = _synthetic(300, 5)
    model = fit_boosting(xs, ys, n_estimators=30, max_depth=3)
    save_filter(SpanFilter({"numeric": model}, {"numeric": 0.5}), tmp_path)
    loaded = load_filter(tmp_path).models["numeric"]
    vec = DictVectorizer(sort=True)
    reference = GradientBoostingClassifier(n_estimators=30, max_depth=3, learning_rate=0.1, random_state=0)
    reference.fit(vec.fit_transform(xs), [int(y) for y in ys])
    test_x, _ = _synthetic(100, 6)
    expected = reference.predict_proba(vec.transform(test_x))[:, 1]
    got = [loaded.probability(x) for x in test_x]
    assert max(abs(a - b) for a, b in zip(got, expected, strict=True)) < 1e-9


def test_loading_the_bundled_filter_does_not_import_the_corpus_formats():
    # deident.io imports every corpus format (pyarrow too): only save_filter needs it.
    code = (
        "import sys; from deident.model.manifest import default_model_dir; "
        "from deident.stage2.filter.span_classifier import load_filter; load_filter(default_model_dir()); "
        "print('deident.io' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"


def _first_word(document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    return (*spans, Span(0, document.text.index(" "), Label.PATIENT, "crf", 0.3))


@pytest.mark.parametrize(("patient_context", "kept"), [(True, [True, True, False]), (False, [False, False, False])])
def test_filter_stage_sees_a_patients_notes_only_with_patient_context(patient_context, kept):
    from deident.core.document import DocumentMetadata
    from deident.core.pipeline import FunctionStage, Pipeline

    # Keeps a candidate only when the same string is a candidate in another note of the patient.
    model = LinearModel({"same_in_patient_any": 10.0}, -5.0)
    stage = SpanFilterStage(SpanFilter({"names": model}, {"names": 0.5}, patient_context=patient_context))
    pipeline = Pipeline((FunctionStage("first_word", _first_word), stage))
    docs = [
        Document("1_1", "Zyxwerth here", DocumentMetadata(patient_id="1")),
        Document("1_2", "Zyxwerth again", DocumentMetadata(patient_id="1")),
        Document("2_1", "Zyxwerth too", DocumentMetadata(patient_id="2")),
    ]
    assert [bool(spans) for spans in pipeline.run_many(docs)] == kept
    # One note at a time there is no other note to see: the group call equals the per-note call.
    assert [pipeline.run_many([doc])[0] for doc in docs] == [pipeline(doc) for doc in docs] == [()] * 3


def test_only_judged_candidates_get_features_but_repetition_counts_every_candidate(monkeypatch):
    seen: dict[str, object] = {}
    real = FeatureExtractor.document_features

    def spy(self, document, spans, context=None):
        seen["spans"] = [(s.start, s.label) for s in spans]
        seen["counts"] = dict(context.note_counts)
        return real(self, document, spans, context)

    monkeypatch.setattr(FeatureExtractor, "document_features", spy)
    model = LinearModel({"src=crf": 4.0}, 0.0)
    span_filter = SpanFilter({"names": model}, {"names": 0.5}, info={"trained_labels": ["PATIENT"]})
    doc = Document("d", "Quill wrote: quill is here")
    spans = (Span(0, 5, Label.PATIENT, "crf", 0.6), Span(13, 18, Label.USERNAME, "patterns.username", 0.6))
    kept = span_filter.apply(doc, spans)
    assert seen["spans"] == [(0, Label.PATIENT)]  # the USERNAME candidate is kept unjudged
    assert seen["counts"] == {"quill": 2}
    assert [s.label for s in kept] == [Label.PATIENT, Label.USERNAME]
