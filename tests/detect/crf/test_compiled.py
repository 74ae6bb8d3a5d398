"""The compiled CRF path (weights read from the model files, emissions from per-word tables,
forward-backward in numba, numpy or plain Python) against crfsuite itself."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import numpy as np
import pycrfsuite
import pytest

from deident.core.document import Document
from deident.detect.crf import tagger as crf_tagger
from deident.detect.crf.compiled import (
    CompiledCrf,
    CrfWeights,
    NotCompilable,
    _read_features,
    kernels,
    token_columns,
)
from deident.detect.crf.features import FeatureConfig, crf_tokens
from deident.detect.crf.tagger import CrfModel, spans_from_marginals, tag_reference
from deident.detect.crf.train import TrainConfig, train_model
from deident.model import default_model_dir

from .close import assert_tagged_close
from .synthetic import PROVIDERS, TEST_DOCTORS, TEST_RELATIVES, synthetic_corpus


def _documents() -> list[Document]:
    docs = [d.document for d in synthetic_corpus(8, seed=5, doctors=TEST_DOCTORS, relatives=TEST_RELATIVES)]
    docs += [d.document for d in synthetic_corpus(3, seed=6, caps=True)]
    docs += [
        Document("odd", "Dr. Quimby 3/14\n\n  x1234 (unknown-word) café Zoë 12ab |a|b|\n"),
        Document("sections", "HPI: seen by Dr Smith.  Plan: call son John;\tMeds - lasix\nNeuro: a&ox3\n"),
        Document("empty", ""),
        Document("blank", "  \n\t\n"),
        Document("one", "Smith"),
        Document("punctuation", "|"),
    ]
    return docs


@pytest.fixture(params=["plain", "providers", "easyadapt", "bundled"])
def model(request: pytest.FixtureRequest, trained_model: Path, provider_model: Path, easyadapt_model: Path) -> CrfModel:
    if request.param == "bundled":
        if not (default_model_dir() / "manifest.json").exists():
            pytest.skip("no bundled default model in this checkout")
        return CrfModel.load(default_model_dir())
    path = {"plain": trained_model, "providers": provider_model, "easyadapt": easyadapt_model}[request.param]
    return CrfModel.load(path, providers=PROVIDERS)


def test_models_compile(model: CrfModel) -> None:
    assert model._compiled() is not None


def test_marginals_and_spans_equal_crfsuite(model: CrfModel) -> None:
    for doc in _documents():
        for floor in (0.001, 0.05):
            assert_tagged_close(model.tag(doc, floor=floor), tag_reference(model, doc, floor=floor), floor)
        for threshold in (None, 0.005):
            limit = model.threshold if threshold is None else threshold
            reference = spans_from_marginals(doc.text, tag_reference(model, doc, floor=limit), limit)
            assert model.spans(doc, threshold) == reference, doc.doc_id


def test_very_long_note_does_not_overflow(model: CrfModel) -> None:
    text = "".join(d.text for d in synthetic_corpus(600, seed=11))
    doc = Document("long", text)
    tagged = model.tag(doc)
    assert len(tagged.tokens) > 20_000
    assert all(np.isfinite(g.phi).all() for g in tagged.groups)
    assert_tagged_close(tagged, tag_reference(model, doc), 0.001)


@pytest.fixture(scope="module")
def plain_tokenizer_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Word clusters, the plain tokenizer and no rare-word masking (the other settings)."""
    out = tmp_path_factory.mktemp("crf-plain") / "model"
    features = FeatureConfig(aggressive=False, rare_masking=False)
    train_model(synthetic_corpus(60), out, TrainConfig(features=features, max_iterations=40, clusters=6))
    return out


def test_cluster_features_and_the_plain_tokenizer_equal_crfsuite(plain_tokenizer_model: Path) -> None:
    model = CrfModel.load(plain_tokenizer_model)
    assert any(a.startswith("cl=") and a != "cl=none" for a in model.known_attributes())
    for doc in _documents():
        assert_tagged_close(model.tag(doc), tag_reference(model, doc), 0.001)
        limit = model.threshold
        assert model.spans(doc) == spans_from_marginals(doc.text, tag_reference(model, doc, floor=limit), limit)


def test_easyadapt_model_uses_the_target_copies(easyadapt_model: Path) -> None:
    model = CrfModel.load(easyadapt_model, providers=PROVIDERS)
    assert model.easyadapt
    known = model.known_attributes()
    assert any(a.startswith("tgt|") for a in known) and any(a.startswith("src|") for a in known)


# The kernels of each implementation; numba's only where it is installed (the ``fast`` extra).
FAST_KERNELS = [
    pytest.param("numba", marks=pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="no numba")),
    "numpy",
]


@pytest.mark.parametrize("implementation", FAST_KERNELS)
@pytest.mark.parametrize("which", ["plain", "providers"])
def test_fast_kernels_equal_the_python_kernels_bit_for_bit(
    which: str, implementation: str, trained_model: Path, provider_model: Path
) -> None:
    model = CrfModel.load(trained_model if which == "plain" else provider_model, providers=PROVIDERS)
    compiled = model._compiled()
    assert compiled is not None
    for doc in _documents():
        fast = compiled.crf.marginals(doc, implementation=implementation)
        slow = compiled.crf.marginals(doc, implementation="python")
        assert list(fast.tokens) == list(slow.tokens)
        for a, b in zip(fast.marginals, slow.marginals, strict=True):
            assert np.array_equal(a, b)


@pytest.mark.parametrize("implementation", [*FAST_KERNELS, "python"])
def test_marginals_of_many_documents_equal_one_by_one(implementation: str, provider_model: Path) -> None:
    model = CrfModel.load(provider_model, providers=PROVIDERS)
    compiled = model._compiled()
    assert compiled is not None
    docs = _documents()
    together = compiled.crf.marginals_many(docs, [None] * len(docs), implementation)
    for doc, many in zip(docs, together, strict=True):
        one = compiled.crf.marginals(doc, implementation=implementation)
        assert list(many.tokens) == list(one.tokens)
        assert all(np.array_equal(a, b) for a, b in zip(many.marginals, one.marginals, strict=True))
    # The tagger and its stage: a block of notes gives each note's own spans.
    assert model.spans_many(docs) == [model.spans(doc) for doc in docs]
    stage = crf_tagger.CrfStage(model, threshold=0.01, after_rules=True)
    before = [tuple(span for _, spans in model.extractor.provider_hits(doc, None) for span in spans) for doc in docs]
    assert stage.run_block(docs, before) == [stage(doc, spans) for doc, spans in zip(docs, before, strict=True)]


@pytest.mark.parametrize("limit", [12, 100_000])
def test_a_block_adds_its_new_word_types_at_once(
    limit: int, provider_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast path: ``marginals_many`` gives the table a block's new word types in one call, before scoring; note by
    note (the reference) each note adds its own. Past the table's limit the block adds none and the notes renew
    the table one by one, as before."""
    from deident.detect.crf import compiled

    monkeypatch.setattr(compiled, "_TYPE_LIMIT", limit)
    docs = _documents()
    block, alone = (CrfModel.load(provider_model, providers=PROVIDERS)._compiled() for _ in range(2))
    assert block is not None and alone is not None and block.crf is not alone.crf
    added: list[int] = []
    add_types = block.crf._add_types

    def counted(table: compiled._TypeTable, words: list[str]) -> None:
        added.append(len(words))
        add_types(table, words)

    monkeypatch.setattr(block.crf, "_add_types", counted)
    together = block.crf.marginals_many(docs, [None] * len(docs))
    one_by_one = [alone.crf.marginals(doc) for doc in docs]
    for many, one in zip(together, one_by_one, strict=True):
        assert list(many.tokens) == list(one.tokens)
        assert all(np.array_equal(a, b) for a, b in zip(many.marginals, one.marginals, strict=True))
    distinct = list(dict.fromkeys(t.text for d in docs for t in crf_tokens(d.text)))
    if limit >= len(distinct):
        assert added == [len(distinct)]
        assert list(block.crf._table.index) == distinct  # first-seen order, as note by note
    else:
        assert len(added) > 1 and block.crf._table.size <= limit + len(distinct)


def _log_space_marginals(scores: np.ndarray, transitions: np.ndarray) -> np.ndarray:
    """Forward-backward in log space (the textbook form) to check the scaled kernel against."""
    n, size = scores.shape
    alpha = np.zeros((n, size))
    beta = np.zeros((n, size))
    alpha[0] = scores[0]
    for t in range(1, n):
        alpha[t] = np.logaddexp.reduce(alpha[t - 1][:, None] + transitions, axis=0) + scores[t]
    for t in range(n - 2, -1, -1):
        beta[t] = np.logaddexp.reduce(transitions + scores[t + 1] + beta[t + 1], axis=1)
    total = np.logaddexp.reduce(alpha[-1])
    return np.exp(alpha + beta - total)


@pytest.mark.parametrize("implementation", [*FAST_KERNELS, "python"])
@pytest.mark.parametrize(("n", "spread"), [(1, 1.0), (2, 3.0), (60, 5.0), (400, 300.0)])
def test_forward_backward_matches_log_space(implementation: str, n: int, spread: float) -> None:
    rng = np.random.default_rng(n)
    scores = rng.normal(0, spread, size=(n, 5))  # spread 300: exp() of the raw scores would overflow
    transitions = rng.normal(0, 2, size=(5, 5))
    _, forward_backward = kernels(implementation)
    got = forward_backward(scores, transitions, np.array([0, 5], dtype=np.int64))
    np.testing.assert_allclose(got, _log_space_marginals(scores, transitions), rtol=0, atol=1e-9)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, atol=1e-12)


@pytest.mark.parametrize("implementation", [*FAST_KERNELS, "python"])
def test_forward_backward_keeps_crfs_apart(implementation: str) -> None:
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(7, 5))
    transitions = np.zeros((5, 5))
    transitions[:2, :2] = rng.normal(size=(2, 2))
    transitions[2:, 2:] = rng.normal(size=(3, 3))
    _, forward_backward = kernels(implementation)
    got = forward_backward(scores, transitions, np.array([0, 2, 5], dtype=np.int64))
    np.testing.assert_allclose(got[:, :2], _log_space_marginals(scores[:, :2], transitions[:2, :2]), atol=1e-12)
    np.testing.assert_allclose(got[:, 2:], _log_space_marginals(scores[:, 2:], transitions[2:, 2:]), atol=1e-12)


def test_weights_are_read_exactly(provider_model: Path) -> None:
    for path in sorted(provider_model.glob("*.crfsuite")):
        weights = CrfWeights.read(path)
        tagger = pycrfsuite.Tagger()
        tagger.open(str(path))
        info = tagger.info()
        assert weights.labels == tuple(tagger.labels())
        column = {label: i for i, label in enumerate(weights.labels)}
        for (attribute, label), weight in info.state_features.items():
            assert weights.state[weights.attribute_row[attribute], column[label]] == pytest.approx(weight, abs=5e-7)
        # info() rounds to six decimals; the file holds more (else the 1e-9 checks could not pass).
        assert np.any(np.abs(weights.state * 1e6 - np.round(weights.state * 1e6)) > 1e-3)


def test_damaged_model_file_is_not_compilable(provider_model: Path, tmp_path: Path) -> None:
    path = next(provider_model.glob("*.crfsuite"))
    broken = tmp_path / "broken.crfsuite"
    broken.write_bytes(path.read_bytes()[:200])
    with pytest.raises(NotCompilable):
        _read_features(broken, 1, 1)
    with pytest.raises(NotCompilable):
        _read_features(path, 999, 1)


def test_not_compilable_model_falls_back_to_crfsuite(
    trained_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object) -> CompiledCrf:
        raise NotCompilable("test")

    monkeypatch.setattr(crf_tagger, "compile_model", refuse)
    copy = tmp_path / "model"
    shutil.copytree(trained_model, copy)
    model = CrfModel.load(copy)
    assert model._compiled() is None
    for doc in _documents()[:3]:
        assert model.tag(doc) == tag_reference(model, doc)
        limit = model.threshold
        assert model.spans(doc) == spans_from_marginals(doc.text, tag_reference(model, doc, floor=limit), limit)


@pytest.mark.parametrize("text", ["", "a", "Pt 57yo M\nseen  by Dr. Smith\n\n x", "café Zoë 12ab"])
def test_token_columns_are_the_crf_tokens(text: str) -> None:
    columns = token_columns(text)
    assert list(columns) == crf_tokens(text) == [columns[i] for i in range(len(columns))]
    assert len(columns) == len(crf_tokens(text))


def test_without_numba_the_numpy_kernels_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import warnings

    from deident.detect.crf import compiled, vectorised

    monkeypatch.setitem(sys.modules, "numba", None)  # makes "import numba" raise ImportError
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default install has no numba: no warning for it
        assert compiled.kernels.__wrapped__("auto") == (vectorised.emissions, vectorised.forward_backward)
        assert compiled.row_sums_kernel.__wrapped__("auto") is vectorised.row_sums
    with pytest.warns(UserWarning, match=r'pip install "deident\[fast\]"'):
        asked = compiled.kernels.__wrapped__("numba")
    assert asked == (vectorised.emissions, vectorised.forward_backward)
    with pytest.raises(ValueError, match="unknown kernel implementation"):
        compiled.kernels.__wrapped__("cuda")


def test_word_table_rebuilt_past_its_limit_gives_the_same_marginals(
    trained_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deident.detect.crf import compiled

    monkeypatch.setattr(compiled, "_TYPE_LIMIT", 40)
    model = CrfModel.load(trained_model)
    docs = _documents()
    for doc in docs + docs:
        assert_tagged_close(model.tag(doc), tag_reference(model, doc), 0.001)
    state = model._compiled()
    assert state is not None and state.crf._table.size <= 40 + len(set(crf_tokens(docs[0].text)))


@pytest.mark.parametrize("limit", [12, 40, 100_000])
def test_word_table_past_its_limit_keeps_its_earliest_types(
    limit: int, trained_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deident.detect.crf import compiled

    monkeypatch.setattr(compiled, "_TYPE_LIMIT", limit)
    model = CrfModel.load(trained_model)
    state = model._compiled()
    assert state is not None
    crf = state.crf
    docs = _documents()
    for doc in docs:
        model.tag(doc)
    earliest = list(crf._table.index)[: limit // 2 - 1]
    for doc in docs + docs:
        assert_tagged_close(model.tag(doc), tag_reference(model, doc), 0.001)
    table = crf._table
    assert list(table.index)[: len(earliest)] == earliest
    assert list(table.index.values()) == list(range(1, table.size))
    most_per_note = max(len({t.text for t in crf_tokens(d.text)}) for d in docs)
    assert table.size <= max(limit, limit // 2 + most_per_note)
    distinct = len({t.text for d in docs for t in crf_tokens(d.text)})
    assert (len(table.index) < distinct) == (limit < distinct)  # rebuilt exactly when past the limit
    fresh = crf._new_table()
    crf._add_types(fresh, list(table.index))
    for name in ("own", "context", "word_code", "shape_code", "case_code"):
        assert np.array_equal(getattr(fresh, name)[: table.size], getattr(table, name)[: table.size]), name


def _binary_search_row(crf: CompiledCrf, spec: int, key: int) -> int:
    """The row of n-gram ``key`` for feature ``spec`` by binary search of the sorted keys (-1: none)."""
    lo, hi = int(crf.ngram_bounds[spec]), int(crf.ngram_bounds[spec + 1])
    at = lo + int(np.searchsorted(crf.ngram_keys[lo:hi], key))
    return int(crf.ngram_rows[at]) if at < hi and crf.ngram_keys[at] == key else -1


def _hashed_row(crf: CompiledCrf, spec: int, key: int) -> int:
    """The row of n-gram ``key`` by probing the hash table as the emission kernel does (-1: none)."""
    from deident.detect.crf.compiled import _slot

    base, mask = int(crf.ngram_slot_base[spec]), int(crf.ngram_slot_mask[spec])
    slot = _slot(key, mask)
    while crf.ngram_slot_keys[base + slot] >= 0:
        if crf.ngram_slot_keys[base + slot] == key:
            return int(crf.ngram_slot_rows[base + slot])
        slot = (slot + 1) & mask
    return -1


def test_ngram_hash_tables_find_what_the_sorted_keys_find(model: CrfModel) -> None:
    compiled = model._compiled()
    assert compiled is not None
    crf = compiled.crf
    rng = np.random.default_rng(0)
    for spec in range(len(crf.ngram_kind)):
        lo, hi = int(crf.ngram_bounds[spec]), int(crf.ngram_bounds[spec + 1])
        base, size = int(crf.ngram_slot_base[spec]), int(crf.ngram_slot_mask[spec]) + 1
        assert int(crf.ngram_slot_base[spec + 1]) - base == size and size & (size - 1) == 0
        assert size >= 4 * (hi - lo)  # at most a quarter full: every probe sequence ends at a free slot
        assert sorted(k for k in crf.ngram_slot_keys[base : base + size].tolist() if k >= 0) == sorted(
            crf.ngram_keys[lo:hi].tolist()
        )
        for key in crf.ngram_keys[lo:hi].tolist():
            assert _hashed_row(crf, spec, key) == _binary_search_row(crf, spec, key) >= 0
        top = int(crf.ngram_radix[spec]) ** int(crf.ngram_arity[spec])
        for key in rng.integers(0, top, size=200).tolist():
            assert _hashed_row(crf, spec, key) == _binary_search_row(crf, spec, key)


def test_type_ids_index_the_table_and_add_new_types_in_first_seen_order(trained_model: Path) -> None:
    model = CrfModel.load(trained_model)
    compiled = model._compiled()
    assert compiled is not None
    crf = compiled.crf
    size = crf._table.size
    texts = ["Smith", "saw", "Smith", "zq-unseen", "saw", "Quimby"]
    ids, table = crf._type_ids(texts)
    assert ids.dtype == np.int64 and ids.tolist() == [table.index[t] for t in texts]
    assert list(table.index)[-4:] == ["Smith", "saw", "zq-unseen", "Quimby"]
    assert table.size == size + 4
    again, _ = crf._type_ids(["Quimby", "new-one", "Smith"])
    assert again.tolist() == [ids[5], size + 4, ids[0]]
    assert crf._type_ids([])[0].tolist() == []


def test_hits_given_or_found_give_the_same_extra_features(model: CrfModel) -> None:
    compiled = model._compiled()
    assert compiled is not None
    crf = compiled.crf
    for doc in _documents():
        tokens = token_columns(doc.text)
        found = crf._extra_features(doc, tokens, None)
        ids, table = crf._type_ids(tokens.texts)
        for a, b in zip(found, crf._extra_features(doc, tokens, None, table.trigger_code[ids]), strict=True):
            assert np.array_equal(a, b)  # the per-type trigger codes: the same features
        hits = [span for provider in crf.extractor.providers for span in provider.detect(doc)]
        given = crf._extra_features(doc, tokens, [*hits, *hits])  # duplicates change nothing
        for a, b in zip(found, given, strict=True):
            assert np.array_equal(a, b)
        # Section rows: the row of the last section that starts at or before each token.
        sections = crf.extractor.sections.find(doc.text) if crf.extractor.sections else None
        if sections is None:
            from deident.text.sections import default_sections

            sections = list(default_sections(doc.text))
        expected = [
            next((crf.section_row.get(s.name, -1) for s in reversed(sections) if s.start <= start), -1)
            for start in tokens.starts
        ]
        assert found[0].tolist() == (expected if crf.section_row else [-1] * len(tokens))
