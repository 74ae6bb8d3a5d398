"""The false-positive filter: per-group span classifiers over candidate features.

Training uses scikit-learn (``DictVectorizer`` + ``LogisticRegression``, or optionally
``GradientBoostingClassifier``), imported only inside :func:`fit_linear` / :func:`fit_boosting`. The fitted
model is stored as plain JSON (feature -> weight and intercept, or tree arrays; a threshold per group) and
scored in pure Python, so inference never imports scikit-learn and no pickle exists.

Groups follow BoB (Ferrández 2013): names (NAME, PROFESSION), numeric (DATE, AGE, CONTACT, ID) and
narrative locations (LOCATION). A candidate whose group has no model passes through untouched.

Gold definition: a candidate is *positive* when its character range shares at least one
non-whitespace character with some gold span, of any label (the filter decides PHI vs not PHI; the
label is left to stage 1 and reconciliation).
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from deident.core.document import Document
from deident.core.errors import ModelError
from deident.core.labels import Category
from deident.core.provenance import confirmation_of
from deident.core.span import Span, sort_spans
from deident.model.bundle import FilterSpec
from deident.stage2.filter.calibration import choose_threshold
from deident.stage2.filter.candidate_features import (
    CandidateContext,
    FeatureExtractor,
    build_contexts,
    crf_peak,
    note_context,
)

FORMAT = "deident.span-filter"
FORMAT_VERSION = 1
FILTER_FILE = "span_filter.json"
GROUPS: dict[str, frozenset[Category]] = {
    "names": frozenset({Category.NAME, Category.PROFESSION}),
    "numeric": frozenset({Category.DATE, Category.AGE, Category.CONTACT, Category.ID}),
    "locations": frozenset({Category.LOCATION}),
}
# A candidate that a detector proposed with this score or more stays whatever the filter says: a CRF marginal
# of 0.9, a name after an honorific, a written date, a full phone number. Recall comes first, and the filter's
# errors on such candidates are misses of clear PHI. So does, whatever its score, a candidate whose structure a
# validator confirmed (``Span.confirmed`` or one of its parts': a checksum-valid ID, a parsed phone number, an
# e-mail address, a URL, an IP address, a full calendar date; see deident.core.provenance.Confirmation).
CONFIDENT_SCORE = 0.9
# Nor does the filter overrule the CRF where the CRF itself calls a candidate PHI (a peak marginal of 0.5 or more):
# it judges what stage 1 merely proposes, the candidates the CRF doubts or never saw. Trained on physionet-dev, where
# nearly every unfamiliar word the CRF doubted was a misspelling, it had dropped names that are in no list at CRF
# marginals up to 0.89 ("fynoard pracherett chokyr from speech", "Pager. NAIBRA").
CRF_AGREES = 0.5
_GROUP_OF: dict[Category, str] = {cat: name for name, cats in GROUPS.items() for cat in cats}


def group_of(span: Span) -> str:
    return _GROUP_OF[span.category]


def is_positive(span: Span, gold: Sequence[Span], text: str) -> bool:
    """True when ``span`` shares a non-whitespace character with a gold span (module docstring)."""
    for g in gold:
        lo, hi = max(span.start, g.start), min(span.end, g.end)
        if lo < hi and text[lo:hi].strip():
            return True
    return False


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@dataclass(frozen=True)
class LinearModel:
    """``P(PHI) = sigmoid(intercept + sum(weight[f] * value[f]))``; unknown features weigh 0."""

    weights: Mapping[str, float] = field(repr=False)
    intercept: float

    def decision(self, features: Mapping[str, float]) -> float:
        get = self.weights.get
        # fsum: exact, so the sum does not depend on the features' order.
        return math.fsum([self.intercept, *[w * v for k, v in features.items() if (w := get(k)) is not None]])

    def probability(self, features: Mapping[str, float]) -> float:
        return _sigmoid(self.decision(features))

    def to_json(self) -> dict[str, Any]:
        return {"kind": "logistic", "intercept": self.intercept, "weights": dict(sorted(self.weights.items()))}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LinearModel:
        if data.get("kind") != "logistic":
            raise ModelError(f"unsupported span model kind {data.get('kind')!r}")
        return cls({str(k): float(v) for k, v in data["weights"].items()}, float(data["intercept"]))


def fit_linear(
    features: Sequence[Mapping[str, float]], labels: Sequence[bool], c: float = 1.0, max_iter: int = 2000
) -> LinearModel:
    """Fit one group's logistic regression (scikit-learn is imported here only)."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    if not features:
        raise ValueError("no training examples")
    ys = [int(bool(y)) for y in labels]
    if len(set(ys)) < 2:
        # One class only: a constant model at the smoothed base rate.
        rate = (sum(ys) + 0.5) / (len(ys) + 1.0)
        return LinearModel({}, math.log(rate / (1.0 - rate)))
    vectorizer = DictVectorizer(sparse=True, sort=True)
    matrix = vectorizer.fit_transform(features)
    classifier = LogisticRegression(C=c, max_iter=max_iter, solver="lbfgs")
    classifier.fit(matrix, ys)
    names = vectorizer.get_feature_names_out()
    weights = {str(n): float(w) for n, w in zip(names, classifier.coef_[0], strict=True) if w != 0.0}
    return LinearModel(weights, float(classifier.intercept_[0]))


def _float32(value: float) -> float:
    """scikit-learn trees compare float32 copies of the features; do the same."""
    return array("f", [value])[0]


@dataclass(frozen=True)
class TreeEnsemble:
    """Gradient-boosted regression trees on the log-odds scale (scikit-learn GradientBoostingClassifier).

    Each tree is (left, right, feature, threshold, value) lists; a node with ``left == -1`` is a leaf.
    """

    trees: tuple[
        tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[float, ...], tuple[float, ...]], ...
    ] = field(repr=False)
    init: float
    learning_rate: float

    def decision(self, features: Mapping[str, float]) -> float:
        total = []
        for left, right, feature, threshold, value in self.trees:
            node = 0
            while left[node] != -1:
                x = _float32(features.get(feature[node], 0.0))
                node = left[node] if x <= threshold[node] else right[node]
            total.append(value[node])
        return self.init + self.learning_rate * math.fsum(total)

    def probability(self, features: Mapping[str, float]) -> float:
        return _sigmoid(self.decision(features))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "boosting",
            "init": self.init,
            "learning_rate": self.learning_rate,
            "trees": [
                {
                    "left": list(t[0]),
                    "right": list(t[1]),
                    "feature": list(t[2]),
                    "threshold": list(t[3]),
                    "value": list(t[4]),
                }
                for t in self.trees
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TreeEnsemble:
        trees = tuple(
            (
                tuple(int(v) for v in t["left"]),
                tuple(int(v) for v in t["right"]),
                tuple(str(v) for v in t["feature"]),
                tuple(float(v) for v in t["threshold"]),
                tuple(float(v) for v in t["value"]),
            )
            for t in data["trees"]
        )
        return cls(trees, float(data["init"]), float(data["learning_rate"]))


SpanModel = LinearModel | TreeEnsemble


def model_from_json(data: Mapping[str, Any]) -> SpanModel:
    kind = data.get("kind")
    if kind == "logistic":
        return LinearModel.from_json(data)
    if kind == "boosting":
        return TreeEnsemble.from_json(data)
    raise ModelError(f"unsupported span model kind {kind!r}")


def fit_boosting(
    features: Sequence[Mapping[str, float]],
    labels: Sequence[bool],
    n_estimators: int = 200,
    max_depth: int = 3,
    learning_rate: float = 0.1,
) -> SpanModel:
    """Fit one group's gradient boosting model (scikit-learn is imported here only); deterministic."""
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.feature_extraction import DictVectorizer

    ys = [int(bool(y)) for y in labels]
    if len(set(ys)) < 2:
        return fit_linear(features, labels)
    vectorizer = DictVectorizer(sparse=True, sort=True)
    matrix = vectorizer.fit_transform(features)
    classifier = GradientBoostingClassifier(
        n_estimators=n_estimators, max_depth=max_depth, learning_rate=learning_rate, random_state=0
    )
    classifier.fit(matrix, ys)
    names = vectorizer.get_feature_names_out()
    trees = []
    for (estimator,) in classifier.estimators_:
        tree = estimator.tree_
        trees.append(
            (
                tuple(int(v) for v in tree.children_left),
                tuple(int(v) for v in tree.children_right),
                tuple("" if f < 0 else str(names[f]) for f in tree.feature),
                tuple(float(v) for v in tree.threshold),
                tuple(float(v) for v in tree.value[:, 0, 0]),
            )
        )
    prior = float(classifier.init_.class_prior_[1])
    return TreeEnsemble(tuple(trees), math.log(prior / (1.0 - prior)), float(classifier.learning_rate))


@dataclass(frozen=True)
class SpanFilter:
    """Per-group models and thresholds; ``calibration`` is the JSON-ready table of :mod:`calibration`.

    ``patient_context``: the model was trained with same-patient features and should be applied with
    :func:`filter_documents` over a patient's notes together (as :class:`SpanFilterStage` does when the
    pipeline runs them together; called on one note it cannot see them).
    """

    models: Mapping[str, SpanModel]
    thresholds: Mapping[str, float]
    patient_context: bool = False
    calibration: Mapping[str, Any] | None = field(default=None, repr=False)
    info: Mapping[str, Any] = field(default_factory=dict)

    def with_thresholds(self, threshold: float | Mapping[str, float]) -> SpanFilter:
        if isinstance(threshold, Mapping):
            new = {**self.thresholds, **threshold}
        else:
            new = dict.fromkeys(self.models, float(threshold))
        return SpanFilter(self.models, new, self.patient_context, self.calibration, self.info)

    def for_recall_target(self, recall_target: float) -> SpanFilter:
        """The same models with every group's threshold chosen from the stored calibration table."""
        if not self.calibration:
            raise ModelError("this span filter has no calibration table; it cannot target a recall")
        return self.with_thresholds(choose_threshold(self.calibration, recall_target))

    @cached_property
    def trained_labels(self) -> frozenset[str] | None:
        """Labels of the candidates the filter was trained on (None: not recorded, as in older filters); read once,
        not per note."""
        labels = self.info.get("trained_labels")
        return None if labels is None else frozenset(str(label) for label in labels)

    def probabilities(self, spans: Sequence[Span], features: Sequence[Mapping[str, float]]) -> list[float | None]:
        out: list[float | None] = []
        for span, feats in zip(spans, features, strict=True):
            model = self.models.get(group_of(span))
            out.append(None if model is None else model.probability(feats))
        return out

    def apply(
        self, document: Document, spans: Sequence[Span], context: CandidateContext | None = None
    ) -> tuple[Span, ...]:
        """Drop candidates below their group's threshold; survivors carry the probability as score."""
        if not spans:
            return ()
        trained = self.trained_labels
        # Features only for the candidates that a model judges: not those of a group without a model, nor those
        # of a label the filter never saw in training (a scheme or a detector its training corpus lacks).
        judged = [
            span for span in spans if group_of(span) in self.models and (trained is None or span.label.value in trained)
        ]
        if context is None:
            context = note_context(document, spans)  # repetition counts over every candidate, judged or not
        features = FeatureExtractor().document_features(document, judged, context) if judged else []
        probability = {id(span): p for span, p in zip(judged, self.probabilities(judged, features), strict=True)}
        kept: list[Span] = []
        for span in spans:
            group = group_of(span)
            if group not in self.models:
                kept.append(span.with_evidence(f"filter: {group} no model, kept"))
                continue
            p = probability.get(id(span))
            if p is None:  # no evidence about a label the filter never saw
                kept.append(span.with_evidence(f"filter: {span.label.value} unseen in training, kept"))
                continue
            t = self.thresholds.get(group, 0.5)
            if p >= t:
                kept.append(_replace_score(span, p).with_evidence(f"filter: {group} p={p:.3f} >= t={t:.3f}, kept"))
            elif (confirmed := confirmation_of(span)) is not None:
                kept.append(span.with_evidence(f"filter: {group} p={p:.3f} < t={t:.3f}, kept: {confirmed} confirmed"))
            elif span.score is not None and span.score >= CONFIDENT_SCORE:
                kept.append(span.with_evidence(f"filter: {group} p={p:.3f} < t={t:.3f}, kept: confident detector"))
            elif (peak := crf_peak(span)) is not None and peak >= CRF_AGREES:
                kept.append(span.with_evidence(f"filter: {group} p={p:.3f} < t={t:.3f}, kept: the CRF calls it PHI"))
        return sort_spans(kept)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "groups": {g: sorted(c.value for c in GROUPS[g]) for g in GROUPS},
            "patient_context": self.patient_context,
            "thresholds": dict(sorted(self.thresholds.items())),
            "models": {g: m.to_json() for g, m in sorted(self.models.items())},
            "calibration": self.calibration,
            "info": dict(self.info),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SpanFilter:
        if data.get("format") != FORMAT:
            raise ModelError(f"not a span filter (format {data.get('format')!r})")
        if data.get("version") != FORMAT_VERSION:
            raise ModelError(f"span filter version {data.get('version')!r} is not supported")
        unknown = set(data["models"]) - set(GROUPS)
        if unknown:
            raise ModelError(f"span filter has unknown groups {sorted(unknown)}")
        return cls(
            {g: model_from_json(m) for g, m in data["models"].items()},
            {str(g): float(t) for g, t in data["thresholds"].items()},
            bool(data.get("patient_context", False)),
            data.get("calibration"),
            dict(data.get("info") or {}),
        )


def _replace_score(span: Span, score: float) -> Span:
    return Span(span.start, span.end, span.label, span.source, score, span.evidence, span.parts, span.confirmed)


def filter_documents(
    span_filter: SpanFilter, documents: Sequence[Document], candidates: Sequence[Sequence[Span]]
) -> list[tuple[Span, ...]]:
    """Apply the filter to notes processed together (same-patient features need them all)."""
    if span_filter.patient_context:
        contexts: Sequence[CandidateContext | None] = build_contexts(documents, candidates)
    else:
        contexts = [None] * len(documents)
    return [span_filter.apply(doc, spans, ctx) for doc, spans, ctx in zip(documents, candidates, contexts, strict=True)]


@dataclass(frozen=True)
class SpanFilterStage:
    """Pipeline stage: drop candidates the filter judges not PHI.

    A group stage: a filter trained with ``patient_context`` sees the same-patient features of the
    notes processed together (:func:`filter_documents`); otherwise, and on one note, note-only context.
    """

    span_filter: SpanFilter
    name: str = "filter"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return self.span_filter.apply(document, spans)

    def apply_many(
        self, documents: Sequence[Document], spans_per_document: Sequence[tuple[Span, ...]]
    ) -> list[tuple[Span, ...]]:
        return filter_documents(self.span_filter, documents, spans_per_document)


def save_filter(span_filter: SpanFilter, model_dir: str | Path) -> dict[str, Any]:
    """Write ``<model_dir>/span_filter.json`` atomically; returns a manifest entry."""
    # Imported here: deident.io loads every corpus format (pyarrow too), which loading a model never needs.
    from deident.core.atomic import atomic_write

    path = Path(model_dir) / FILTER_FILE
    payload = span_filter.to_json()
    with atomic_write(path) as handle:
        handle.write(json.dumps(payload, sort_keys=True, indent=1) + "\n")
    return {
        "file": FILTER_FILE,
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "thresholds": payload["thresholds"],
        "patient_context": span_filter.patient_context,
        "expected": (span_filter.calibration or {}).get("chosen"),
    }


def load_filter(source: str | Path | FilterSpec) -> SpanFilter:
    """The span filter of a model bundle (its :class:`FilterSpec`, which names the file), or the
    ``span_filter.json`` of a directory."""
    path = source.path if isinstance(source, FilterSpec) else Path(source) / FILTER_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"{path}: span filter missing") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelError(f"{path}: unreadable span filter ({type(exc).__name__})") from None
    try:
        return SpanFilter.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{path}: malformed span filter ({type(exc).__name__})") from None
