from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.labels import Label
from deident.core.span import Span
from deident.stage2.filter.span_classifier import load_filter, save_filter
from deident.stage2.filter.training import (
    OutOfFoldCandidates,
    fit_filter_out_of_fold,
    fit_span_filter,
    out_of_fold_candidates,
    patient_folds,
    patient_key,
)

SURNAMES = ["Zyxwerth", "Quorble", "Brantisk", "Mervalo", "Stoddaq", "Plinkett"]
WORDS = ["Heparin", "Lasix", "Monday", "Foley", "Tylenol", "Vanc"]


def _corpus(n_patients: int = 10, notes: int = 3, seed: int = 0) -> list[AnnotatedDocument]:
    rng = random.Random(seed)
    docs = []
    for p in range(n_patients):
        for n in range(notes):
            text, gold = "", []
            for _ in range(6):
                if rng.random() < 0.5:
                    name = rng.choice(SURNAMES)
                    text += "Seen by Dr "
                    gold.append(Span(len(text), len(text) + len(name), Label.DOCTOR, "gold"))
                    text += name + ". "
                else:
                    text += "Given " + rng.choice(WORDS) + " today. "
            docs.append(AnnotatedDocument(Document(f"{p}_{n}", text, DocumentMetadata(patient_id=str(p))), tuple(gold)))
    return docs


def _capitalised_words(train: Sequence[AnnotatedDocument]) -> Callable[[Document], list[Span]]:
    """A toy stage 1: every capitalised word after the first of a sentence is a NAME candidate."""
    assert train, "stage 1 factory got no training notes"

    def detect(doc: Document) -> list[Span]:
        import regex

        return [
            Span(m.start(), m.end(), Label.PATIENT, "crf", 0.3)
            for m in regex.finditer(r"(?<=\w )[A-Z][a-z]+", doc.text)
        ]

    return detect


def test_patient_folds_keep_patients_together():
    corpus = _corpus()
    folds = patient_folds(corpus, 5)
    by_patient: dict[str, set[int]] = {}
    for doc, fold in zip(corpus, folds, strict=True):
        by_patient.setdefault(patient_key(doc.document), set()).add(fold)
    assert all(len(f) == 1 for f in by_patient.values())
    assert set(folds) == set(range(5))


def test_patient_key_falls_back_to_id_prefix():
    assert patient_key(Document("12_3", "x")) == "12"
    assert patient_key(Document("12_3", "x", DocumentMetadata(patient_id="p9"))) == "p9"


def test_too_few_patients_is_an_error():
    with pytest.raises(ValueError, match="patients"):
        patient_folds(_corpus(n_patients=3), 5)


@pytest.mark.parametrize(("patient_context", "kind"), [(False, "logistic"), (True, "logistic"), (False, "boosting")])
def test_out_of_fold_training_learns_and_calibrates(tmp_path, patient_context, kind):
    corpus = _corpus()
    span_filter, oof = fit_filter_out_of_fold(
        corpus, _capitalised_words, n_folds=5, patient_context=patient_context, kind=kind
    )
    assert span_filter.info["kind"] == kind
    assert len(oof.candidates) == len(corpus)
    table = span_filter.calibration
    assert table is not None and table["level"] == "binary-token"
    chosen = table["chosen"]
    assert chosen["recall"] >= 0.99 and chosen["precision"] > 0.9
    assert span_filter.thresholds["names"] == chosen["threshold"]
    entry = save_filter(span_filter, tmp_path)
    assert entry["expected"] == chosen
    assert load_filter(tmp_path) == span_filter
    kept = span_filter.apply(corpus[0].document, oof.candidates[0])
    gold = {(s.start, s.end) for s in corpus[0].spans}
    assert {(s.start, s.end) for s in kept} == gold


@pytest.mark.parametrize("per_group", [False, True])
def test_per_group_thresholds_are_stored_and_used(per_group):
    oof = out_of_fold_candidates(_corpus(), _capitalised_words, n_folds=5)
    span_filter, table = fit_span_filter(oof, recall_target=0.99, per_group=per_group)
    chosen = table["chosen"]
    assert span_filter.info["per_group_thresholds"] is per_group
    if per_group:
        assert dict(span_filter.thresholds) == {g: chosen["per_group"][g] for g in span_filter.models}
    else:
        assert "per_group" not in chosen
        assert set(span_filter.thresholds.values()) == {chosen["threshold"]}
    assert chosen["recall"] >= 0.99


def test_unknown_kind_is_rejected():
    with pytest.raises(ValueError, match="kind"):
        fit_filter_out_of_fold(_corpus(), _capitalised_words, n_folds=5, kind="forest")


Factory = Callable[[Sequence[AnnotatedDocument]], Callable[[Document], list[Span]]]


def _fold_recording(seen: list[frozenset[str]]) -> Factory:
    """A stage-1 factory that tags each candidate with the number of the fold stage 1 it came from (as its score)."""

    def factory(train: Sequence[AnnotatedDocument]) -> Callable[[Document], list[Span]]:
        fold = len(seen)
        seen.append(frozenset(patient_key(d.document) for d in train))
        detect = _capitalised_words(train)
        return lambda doc: [Span(s.start, s.end, s.label, s.source, fold / 10) for s in detect(doc)]

    return factory


def _copy_of(corpus: Sequence[AnnotatedDocument], tag: str) -> list[AnnotatedDocument]:
    """A variant of every note under a new patient, as re-identification writes it."""
    return [
        AnnotatedDocument(
            Document(f"{d.id}-{tag}", d.text, DocumentMetadata(patient_id=f"{tag}{d.document.patient_id}")), d.spans
        )
        for d in corpus
    ]


def test_companion_copies_are_proposed_by_the_stage_1_that_never_saw_their_patient():
    corpus = _corpus()
    copies = [_copy_of(corpus, "u"), _copy_of(corpus, "r")]
    seen: list[frozenset[str]] = []
    oof = out_of_fold_candidates(corpus, _fold_recording(seen), n_folds=5, companions=copies)
    n = len(corpus)
    assert len(oof.corpus) == len(oof.candidates) == len(oof.folds) == 3 * n
    assert [d.id for d in oof.corpus[n : 2 * n]] == [d.id + "-u" for d in corpus]
    assert len(seen) == 5  # one stage 1 per fold, as without companions
    for i, (doc, cands) in enumerate(zip(oof.corpus, oof.candidates, strict=True)):
        source = corpus[i % n]
        fold = oof.folds[i]
        assert fold == oof.folds[i % n]
        assert patient_key(source.document) not in seen[fold]  # the source's patient was held out
        assert cands and {s.score for s in cands} == {fold / 10}, doc.id
    # the notes' own candidates are those of the run without companions
    alone = out_of_fold_candidates(corpus, _capitalised_words, n_folds=5)
    assert oof.candidates[:n] == tuple(
        tuple(Span(s.start, s.end, s.label, s.source, f / 10) for s in c)
        for c, f in zip(alone.candidates, alone.folds, strict=True)
    )


def test_a_companion_must_copy_every_note():
    corpus = _corpus()
    with pytest.raises(ValueError, match="every note"):
        out_of_fold_candidates(corpus, _capitalised_words, n_folds=5, companions=[corpus[:-1]])


def test_thresholds_are_calibrated_on_the_notes_not_on_their_companions():
    corpus = _corpus()
    # A companion whose every candidate is wrong: were it calibrated on, recall would stay, precision would fall.
    noisy = [AnnotatedDocument(d.document, ()) for d in _copy_of(corpus, "n")]
    mixed = out_of_fold_candidates(corpus, _capitalised_words, n_folds=5, companions=[noisy])
    assert mixed.notes == len(corpus)
    _, table_mixed = fit_span_filter(mixed, recall_target=0.99, per_group=False)
    as_one = OutOfFoldCandidates(mixed.corpus, mixed.candidates, mixed.folds)  # every document calibrated on
    _, table_all = fit_span_filter(as_one, recall_target=0.99, per_group=False)
    assert table_mixed["chosen"]["precision"] > table_all["chosen"]["precision"]
