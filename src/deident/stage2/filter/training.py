"""Out-of-fold training of the span filter with patient grouping, and its calibration.

The lead supplies the real stage 1 as ``make_candidates(train_docs) -> (document -> spans)``: a
factory that trains stage 1 on ``train_docs`` and returns a candidate generator. Each note's
candidates come from a stage 1 that never saw its patient (``GroupKFold`` on patient ids), so the
filter learns from the errors stage 1 makes on unseen notes (BoB). Calibration then cross-validates
the filter itself over those candidates with the same folds, giving out-of-fold filter probabilities
for the threshold table; the final filter is fitted on all candidates.
(The calibration folds reuse candidates whose stage 1 saw the held-out fold's notes; the effect is
small and makes the table slightly optimistic about stage-1 candidates, not about the filter.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from deident.core.document import AnnotatedDocument, Document
from deident.core.span import Span
from deident.stage2.filter.calibration import (
    calibration_table,
    per_group_thresholds,
    recall_precision_at,
    token_group_scores,
    token_scores,
    with_choice,
)
from deident.stage2.filter.candidate_features import CandidateContext, FeatureExtractor, build_contexts, note_context
from deident.stage2.filter.span_classifier import (
    GROUPS,
    SpanFilter,
    SpanModel,
    fit_boosting,
    fit_linear,
    group_of,
    is_positive,
)
from deident.stage2.union import union_candidates

# Inverse L2 strength of the logistic filter. On physionet-dev (about a thousand candidates) 0.03 .. 3
# differ by less than one token's worth at recall 0.975; 0.1 ranks slightly better at lower targets
# but its outer-CV threshold then undershot recall 0.975 (0.9728), so 1.0 stays.
DEFAULT_C = 1.0
# Whether fit_span_filter chooses one threshold per group (names, numeric, locations) by default.
PER_GROUP_THRESHOLDS = True

CandidateFactory = Callable[[Sequence[AnnotatedDocument]], Callable[[Document], Sequence[Span]]]


def patient_key(document: Document) -> str:
    """The patient a note belongs to: ``patient_id``, else the id before "_" (PhysioNet ids)."""
    return document.patient_id if document.patient_id is not None else document.id.split("_", 1)[0]


def patient_folds(corpus: Sequence[AnnotatedDocument], n_folds: int = 5) -> list[int]:
    """Fold number of each note; all notes of a patient share a fold (deterministic)."""
    from sklearn.model_selection import GroupKFold

    groups = [patient_key(d.document) for d in corpus]
    if len(set(groups)) < n_folds:
        raise ValueError(f"{len(set(groups))} patients cannot fill {n_folds} folds")
    folds = [0] * len(corpus)
    for k, (_, test) in enumerate(GroupKFold(n_splits=n_folds).split(range(len(corpus)), groups=groups)):
        for i in test:
            folds[i] = k
    return folds


@dataclass(frozen=True)
class OutOfFoldCandidates:
    """Gold documents, their union candidates from a stage 1 that never saw the patient, and folds."""

    corpus: tuple[AnnotatedDocument, ...]
    candidates: tuple[tuple[Span, ...], ...]
    folds: tuple[int, ...]
    # The first ``notes`` documents are the training notes, any after them copies of those notes (companions):
    # the filter learns from all, its thresholds are calibrated on the notes alone (None: all are notes).
    notes: int | None = None


def out_of_fold_candidates(
    corpus: Sequence[AnnotatedDocument],
    make_candidates: CandidateFactory,
    n_folds: int = 5,
    companions: Sequence[Sequence[AnnotatedDocument]] = (),
) -> OutOfFoldCandidates:
    """Stage-1 candidates of every note from a stage 1 built without its patient's fold.

    ``companions``: further copies of the corpus, each parallel to it (a re-identified variant of every note);
    a copy of a note takes its note's fold, so the stage 1 that proposes its candidates never saw that patient
    either. They follow the notes in the result."""
    folds = patient_folds(corpus, n_folds)
    for copy in companions:
        if len(copy) != len(corpus):
            raise ValueError("a companion corpus must hold one copy of every note")
    everything = [*corpus, *(doc for copy in companions for doc in copy)]
    all_folds = folds * (1 + len(companions))
    candidates: list[tuple[Span, ...]] = [()] * len(everything)
    for k in range(n_folds):
        train = [d for d, f in zip(corpus, folds, strict=True) if f != k]
        generate = make_candidates(train)
        for i, (doc, f) in enumerate(zip(everything, all_folds, strict=True)):
            if f == k:
                candidates[i] = union_candidates(generate(doc.document))
    return OutOfFoldCandidates(tuple(everything), tuple(candidates), tuple(all_folds), len(corpus))


@dataclass(frozen=True)
class _Examples:
    features: list[list[dict[str, float]]]  # per document, per candidate
    positive: list[list[bool]]


def _examples(oof: OutOfFoldCandidates, patient_context: bool) -> _Examples:
    documents = [d.document for d in oof.corpus]
    contexts: Sequence[CandidateContext]
    if patient_context:
        contexts = build_contexts(documents, oof.candidates)
    else:
        contexts = [note_context(d, c) for d, c in zip(documents, oof.candidates, strict=True)]
    extractor = FeatureExtractor()
    features = [
        extractor.document_features(d, c, ctx) for d, c, ctx in zip(documents, oof.candidates, contexts, strict=True)
    ]
    positive = [
        [is_positive(s, gold.spans, gold.text) for s in cands]
        for gold, cands in zip(oof.corpus, oof.candidates, strict=True)
    ]
    return _Examples(features, positive)


def _fit(oof: OutOfFoldCandidates, ex: _Examples, docs: Sequence[int], c: float, kind: str) -> dict[str, SpanModel]:
    by_group: dict[str, tuple[list[dict[str, float]], list[bool]]] = {g: ([], []) for g in GROUPS}
    for i in docs:
        for span, feats, y in zip(oof.candidates[i], ex.features[i], ex.positive[i], strict=True):
            xs, ys = by_group[group_of(span)]
            xs.append(feats)
            ys.append(y)
    if kind == "boosting":
        return {g: fit_boosting(xs, ys) for g, (xs, ys) in by_group.items() if xs}
    return {g: fit_linear(xs, ys, c) for g, (xs, ys) in by_group.items() if xs}


def fit_span_filter(
    oof: OutOfFoldCandidates,
    recall_target: float | None = 0.99,
    patient_context: bool = False,
    c: float = DEFAULT_C,
    kind: str = "logistic",
    per_group: bool = PER_GROUP_THRESHOLDS,
) -> tuple[SpanFilter, dict[str, Any]]:
    """Calibrate by cross-validation over ``oof.folds`` (the fold models learn from every other fold's documents,
    copies included; their probabilities are read on the notes alone, ``oof.notes``), then fit on everything.

    ``kind``: "logistic" (default) or "boosting" (gradient boosting, slower to train).
    ``per_group``: refine the global threshold into one per group (:func:`per_group_thresholds`) on the
    same out-of-fold probabilities; the table's ``chosen`` entry then lists them and their expectation.
    ``recall_target``: the out-of-fold recall the thresholds must reach; None: the threshold of best F2 on the
    out-of-fold tokens (:func:`deident.stage2.filter.calibration.choose_f_beta_threshold`).
    Returns the filter (thresholds set by that rule, calibration table inside) and the table.
    """
    if kind not in ("logistic", "boosting"):
        raise ValueError(f"unknown span model kind {kind!r}")
    ex = _examples(oof, patient_context)
    scores: list[tuple[float, bool]] = []
    grouped: list[tuple[dict[str, float], bool]] = []
    for k in sorted(set(oof.folds)):
        train = [i for i, f in enumerate(oof.folds) if f != k]
        fold_filter = SpanFilter(_fit(oof, ex, train, c, kind), {}, patient_context)
        for i, f in enumerate(oof.folds[: oof.notes]):
            if f == k:
                probs = fold_filter.probabilities(oof.candidates[i], ex.features[i])
                gold = oof.corpus[i]
                scores.extend(token_scores(gold.text, gold.spans, oof.candidates[i], probs))
                groups = [group_of(s) for s in oof.candidates[i]]
                grouped.extend(token_group_scores(gold.text, gold.spans, oof.candidates[i], groups, probs))
    table = with_choice(calibration_table(scores), recall_target)
    threshold = table["chosen"]["threshold"]
    thresholds = dict.fromkeys(GROUPS, threshold)
    if per_group:
        # under the F2 rule the global threshold is the floor itself: each group may only keep what it keeps
        floor = recall_target if recall_target is not None else 0.0
        thresholds = per_group_thresholds(grouped, tuple(GROUPS), floor, threshold)
        recall, precision = recall_precision_at(grouped, thresholds)
        table["chosen"] = {**table["chosen"], "per_group": thresholds, "recall": recall, "precision": precision}
    models = _fit(oof, ex, range(len(oof.corpus)), c, kind)
    info = {
        "trained_notes": len(oof.corpus),
        "trained_candidates": sum(len(c) for c in oof.candidates),
        "folds": len(set(oof.folds)),
        "c": c,
        "kind": kind,
    }
    info["per_group_thresholds"] = per_group
    info["trained_labels"] = sorted({span.label.value for spans in oof.candidates for span in spans})
    span_filter = SpanFilter(models, {g: thresholds[g] for g in models}, patient_context, table, info)
    return span_filter, table


def fit_filter_out_of_fold(
    corpus: Sequence[AnnotatedDocument],
    make_candidates: CandidateFactory,
    n_folds: int = 5,
    recall_target: float = 0.99,
    patient_context: bool = False,
    c: float = DEFAULT_C,
    kind: str = "logistic",
) -> tuple[SpanFilter, OutOfFoldCandidates]:
    """Out-of-fold stage-1 candidates (patient-grouped), then :func:`fit_span_filter` on them."""
    if kind not in ("logistic", "boosting"):
        raise ValueError(f"unknown span model kind {kind!r}")
    oof = out_of_fold_candidates(corpus, make_candidates, n_folds)
    span_filter, _ = fit_span_filter(oof, recall_target, patient_context, c, kind)
    return span_filter, oof
