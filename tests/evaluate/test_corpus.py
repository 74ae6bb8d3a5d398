"""Corpus evaluation: document matching, views, macro averages, errors, JSON, acceptance tests."""

import json
import time
from pathlib import Path

import pytest

from deident.core import AnnotatedDocument, Document, Label, Span
from deident.evaluate import EvaluationInputError, evaluate_corpus
from deident.io import read_corpus

P, D, DOC = Label.PATIENT, Label.DATE, Label.DOCTOR
TEXT = "Pt John Smith seen 3/14/05, Dr. Lee."
GOLD_SPANS = (Span(3, 13, P), Span(19, 26, D), Span(32, 35, DOC))
PRED_SPANS = (Span(3, 7, P), Span(19, 27, D), Span(28, 31, P), Span(32, 35, P))


def doc(doc_id: str, text: str, *spans: Span) -> AnnotatedDocument:
    return AnnotatedDocument(Document(doc_id, text), spans)


def test_one_document_hand_count():
    report = evaluate_corpus([doc("a", TEXT, *GOLD_SPANS)], [doc("a", TEXT, *PRED_SPANS)])
    full = report.full.counts
    assert (full.binary_token.overall.tp, full.binary_token.overall.fp, full.binary_token.overall.fn) == (3, 1, 1)
    # HIPAA view (DOCTOR is not HIPAA): binary gold tokens {1,2,4}, predicted {1,4,5,6} minus the ignored
    # DOCTOR token 6: TP 2, FP 1, FN 1
    hipaa = report.hipaa.counts
    assert (hipaa.binary_token.overall.tp, hipaa.binary_token.overall.fp, hipaa.binary_token.overall.fn) == (2, 1, 1)
    # typed, HIPAA labels on both sides: gold (1,P) (2,P) (4,D); predicted (1,P) (4,D) (5,P) (6,P)
    assert (hipaa.typed_token.overall.tp, hipaa.typed_token.overall.fp, hipaa.typed_token.overall.fn) == (2, 2, 1)
    # instance, HIPAA gold only: name partly covered, date covered: fully 1/2, any 2/2
    assert hipaa.instance.overall.recall_fully_contained == 0.5
    assert hipaa.instance.overall.recall_any_overlap == 1.0
    # relaxed: the date matches; HIPAA predictions 4 (all PATIENT/DATE), HIPAA gold 2: P 1/4, R 1/2
    assert (hipaa.entity_relaxed.overall.precision, hipaa.entity_relaxed.overall.recall) == (0.25, 0.5)
    assert Label.DOCTOR not in hipaa.instance.by_label
    assert report.confusion[("DOCTOR", "PATIENT")] == 1


def test_macro_averages_over_documents():
    gold = [doc("a", TEXT, *GOLD_SPANS), doc("b", "")]
    pred = [doc("a", TEXT, *PRED_SPANS), doc("b", "")]
    report = evaluate_corpus(gold, pred)
    # strict: a has P 0, R 0; b (empty on both sides) P 1, R 1: means 0.5, SD 0.5
    strict = report.full.entity_strict_macro
    assert (strict.precision, strict.recall, strict.precision_sd, strict.documents) == (0.5, 0.5, 0.5, 2)
    # relaxed: a has P 1/4, R 1/3; b 1, 1: P 5/8, R 2/3; F1 from the means
    relaxed = report.full.entity_relaxed_macro
    assert relaxed.precision == pytest.approx(0.625)
    assert relaxed.recall == pytest.approx(2 / 3)
    assert relaxed.f1 == pytest.approx(2 * 0.625 * (2 / 3) / (0.625 + 2 / 3))
    # micro relaxed is unchanged by the empty document
    assert report.full.counts.entity_relaxed.overall.precision == 0.25


def test_missing_and_unknown_documents():
    gold = [doc("a", TEXT, *GOLD_SPANS), doc("b", "nothing here")]
    pred = [doc("b", "nothing here"), doc("zzz", "other", Span(0, 5, P))]
    report = evaluate_corpus(gold, pred)
    tally = report.documents
    assert (tally.gold, tally.predicted, tally.missing_predictions, tally.unknown_predictions) == (2, 1, 1, 1)
    # "a" counts as predicting nothing: gold tokens 4, all missed; the unknown prediction is ignored
    binary = report.full.counts.binary_token.overall
    assert (binary.tp, binary.fp, binary.fn) == (0, 0, 4)
    assert (binary.precision, binary.recall) == (0.0, 0.0)
    assert report.full.counts.instance.overall.recall_any_overlap == 0.0


def test_empty_corpus_and_empty_documents_are_perfect():
    for gold in ([], [doc("e", "")], [doc("e", "   \n")]):
        report = evaluate_corpus(gold, gold)
        data = report.to_dict()
        assert data["binary_token"]["f1"] == 1.0
        assert data["instance"]["recall_fully_contained"] == 1.0
        assert data["entity"]["strict"]["macro"]["f1"] == 1.0


def test_predictions_without_gold_score_zero():
    report = evaluate_corpus([doc("a", TEXT)], [doc("a", TEXT, Span(0, 2, P))])
    binary = report.full.counts.binary_token.overall
    assert (binary.fp, binary.precision, binary.recall, binary.f1) == (1, 0.0, 0.0, 0.0)


def test_differing_text_names_the_document_not_its_text():
    with pytest.raises(EvaluationInputError) as err:
        evaluate_corpus([doc("12_3", "Seen by Dr Kowalski")], [doc("12_3", "Seen by Dr Kowalsky")])
    assert "'12_3'" in str(err.value)
    assert "Kowals" not in str(err.value)


def test_duplicate_ids_are_errors():
    with pytest.raises(EvaluationInputError, match="document 2 of the predictions") as raised:
        evaluate_corpus([doc("MRN-77", "x")], [doc("MRN-77", "x"), doc("MRN-77", "x")])
    assert "MRN-77" not in str(raised.value)  # ids are often MRNs: the position is named instead
    with pytest.raises(EvaluationInputError, match="gold"):
        evaluate_corpus([doc("a", "x"), doc("a", "x")], [])


def test_to_dict_is_json_and_deterministic():
    gold = [doc("a", TEXT, *GOLD_SPANS)]
    pred = [doc("a", TEXT, *PRED_SPANS)]
    first = json.dumps(evaluate_corpus(gold, pred).to_dict())
    assert first == json.dumps(evaluate_corpus(gold, pred).to_dict())
    data = json.loads(first)
    assert {"precision", "recall", "f1", "f2"} <= set(data["binary_token"])
    assert {"recall_fully_contained", "recall_any_overlap"} <= set(data["instance"])
    assert data["binary_token"]["by_label"]["PATIENT"]["recall"] == 0.5
    assert data["confusion"]["matrix"]["none"] == {"PATIENT": 1}
    assert data["hipaa"]["binary_token"]["tp"] == 2
    hipaa_only = evaluate_corpus(gold, pred).to_dict(hipaa_only=True)
    assert hipaa_only["view"] == "hipaa"
    assert hipaa_only["binary_token"]["tp"] == 2
    assert "hipaa" not in hipaa_only


# --- acceptance tests on the shared PhysioNet corpus (skipped without ../shared) ---------------


def _ones(data: object, path: str = "") -> list[str]:
    """Paths of every score in a to_dict() that is not 1.0 (counts and SDs are not scores)."""
    bad: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key.endswith("_sd"):
                continue
            bad += _ones(value, f"{path}/{key}")
    elif isinstance(data, float) and data != 1.0:
        bad.append(path)
    return bad


def test_shared_corpus_against_itself_is_perfect(shared_corpus: Path):
    docs = read_corpus(shared_corpus)
    start = time.perf_counter()
    report = evaluate_corpus(docs, docs)
    elapsed = time.perf_counter() - start
    data = report.to_dict()
    assert _ones(data) == []
    assert data["binary_token"]["tp"] > 0 and data["instance"]["gold"] == sum(len(d.spans) for d in docs)
    assert all(count == 0 for (g, p), count in report.confusion.items() if g != p)
    assert elapsed < 10.0  # measured about 0.6 s; generous for a shared machine


def _perturb(docs: list[AnnotatedDocument]) -> list[AnnotatedDocument]:
    """Drop every 5th gold span, shorten every 7th by one character and stretch every 11th by three
    (corpus-wide numbering; stretching can reach the next token, a false positive)."""
    out = []
    k = 0
    for item in docs:
        spans = []
        for span in item.spans:
            k += 1
            if k % 5 == 0:
                continue
            if k % 7 == 0 and span.length > 1:
                span = span.moved(span.start, span.end - 1)
            elif k % 11 == 0:
                span = span.moved(span.start, min(span.end + 3, len(item.text)))
            spans.append(span)
        out.append(item.with_spans(spans))
    return out


def _hand_count(gold: list[AnnotatedDocument], pred: list[AnnotatedDocument]) -> tuple[int, int, int, int, int]:
    """A deliberately simple, separate count: character masks and a character-by-character tokenizer.

    Returns (binary TP, FP, FN, gold spans, fully contained gold spans).
    """
    tp = fp = fn = n_gold = fully = 0
    for g, p in zip(gold, pred, strict=True):
        text = g.text
        gold_mask = [False] * len(text)
        pred_mask = [False] * len(text)
        for span in g.spans:
            for i in range(span.start, span.end):
                gold_mask[i] = True
        for span in p.spans:
            for i in range(span.start, span.end):
                pred_mask[i] = True
        i = 0
        while i < len(text):
            if text[i].isspace():
                i += 1
                continue
            j = i
            while j < len(text) and not text[j].isspace():
                j += 1
            is_gold, is_pred = any(gold_mask[i:j]), any(pred_mask[i:j])
            tp += is_gold and is_pred
            fp += is_pred and not is_gold
            fn += is_gold and not is_pred
            i = j
        for span in set(g.spans):
            n_gold += 1
            fully += all(pred_mask[i] or text[i].isspace() for i in range(span.start, span.end))
    return tp, fp, fn, n_gold, fully


def test_shared_corpus_perturbed_matches_hand_count(shared_corpus: Path):
    gold = read_corpus(shared_corpus)
    pred = _perturb(gold)
    tp, fp, fn, n_gold, fully = _hand_count(gold, pred)
    assert fn > 0 and fp > 0 and fully < n_gold  # the perturbation did something
    data = evaluate_corpus(gold, pred).to_dict()
    binary = data["binary_token"]
    assert (binary["tp"], binary["fp"], binary["fn"]) == (tp, fp, fn)
    assert binary["precision"] == pytest.approx(tp / (tp + fp))
    assert binary["recall"] == pytest.approx(tp / (tp + fn))
    p, r = tp / (tp + fp), tp / (tp + fn)
    assert binary["f1"] == pytest.approx(2 * p * r / (p + r))
    assert binary["f2"] == pytest.approx(5 * p * r / (4 * p + r))
    instance = data["instance"]
    assert (instance["gold"], instance["fully_contained"]) == (n_gold, fully)
    assert instance["recall_fully_contained"] == pytest.approx(fully / n_gold)
