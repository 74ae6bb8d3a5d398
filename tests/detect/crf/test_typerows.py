"""A word type's state rows computed straight from the word (type_row_appender) against the definition: the
rows of the feature strings of FeatureExtractor.type_info; and notes full of unseen words tagged by
the compiled path against crfsuite."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from deident.core.document import Document
from deident.detect.crf.compiled import CompiledCrf
from deident.detect.crf.features import FeatureConfig, FeatureExtractor
from deident.detect.crf.tagger import CrfModel, spans_from_marginals, tag_reference
from deident.detect.crf.train import TrainConfig, train_model
from deident.detect.crf.typerows import type_row_appender
from deident.model import default_model_dir

from .close import assert_tagged_close
from .synthetic import PROVIDERS, TRAIN_DOCTORS, TRAIN_RELATIVES, synthetic_corpus

# One word per branch of the feature definition (case classes, affixes, digits, punctuation, rare and
# known words, non-ASCII letters, the rare-word placeholder itself).
WORDS = (
    "Quimby",
    "quimby",
    "QUIMBY",
    "qUiMbY",
    "Dr",
    "by",
    "x",
    "X",
    "the",
    "The",
    "lasix",
    "Smith",
    "Mary",
    "7",
    "12",
    "40",
    "99",
    "2093",
    "1234567",
    "57yo",
    "a1b2",
    "x3",
    "|",
    ":",
    "-",
    "%",
    "café",
    "Zoë",
    "ÉCOLE",
    "naïve",
    "__rare__",
    "__B__",
    "aaaaaaaa",
    "Mississippi",
    "abcdefghijklmnopqrstuvwxyz",
    "٣",
    "²",
)


@pytest.fixture(scope="module")
def cluster_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Word clusters, the plain tokenizer and no rare-word masking (the settings the others lack)."""
    out = tmp_path_factory.mktemp("crf-typerows") / "model"
    features = FeatureConfig(aggressive=False, rare_masking=False)
    train_model(synthetic_corpus(60), out, TrainConfig(features=features, max_iterations=30, clusters=6))
    return out


@pytest.fixture(params=["plain", "providers", "easyadapt", "clusters", "bundled"])
def compiled(
    request: pytest.FixtureRequest,
    trained_model: Path,
    provider_model: Path,
    easyadapt_model: Path,
    cluster_model: Path,
) -> CompiledCrf:
    if request.param == "bundled":
        if not (default_model_dir() / "manifest.json").exists():
            pytest.skip("no bundled default model in this checkout")
        model = CrfModel.load(default_model_dir())
    else:
        path = {
            "plain": trained_model,
            "providers": provider_model,
            "easyadapt": easyadapt_model,
            "clusters": cluster_model,
        }[request.param]
        model = CrfModel.load(path, providers=PROVIDERS)
    state = model._compiled()
    assert state is not None
    return state.crf


def _model_words(crf: CompiledCrf) -> list[str]:
    """Words that reach the model-specific branches: clusters, triggers, known words, training names."""
    extractor = crf.extractor
    words = [*WORDS, *TRAIN_DOCTORS, *TRAIN_RELATIVES]
    words += sorted(extractor.clusters)[:40]
    words += sorted({word for word, _ in extractor.learned.triggers})
    words += [w[2:] for w in sorted(crf.rows) if w.startswith("w=")][:60]
    words += [word.upper() for word in words] + [word.title() for word in words]
    return list(dict.fromkeys(w for w in words if w))


def _rows(crf: CompiledCrf, words: list[str], from_strings: bool) -> tuple[list[int], list[int], list[object]]:
    found: list[int] = []
    ends: list[int] = []
    append = crf.rows_from_strings if from_strings else crf.append_type_rows
    returned: list[object] = [append(word, found, ends) for word in words]
    return found, ends, returned


@pytest.mark.parametrize("word", WORDS)
def test_rows_of_a_word_equal_its_feature_strings(compiled: CompiledCrf, word: str) -> None:
    assert _rows(compiled, [word], from_strings=False) == _rows(compiled, [word], from_strings=True)


def test_rows_equal_the_feature_strings_for_model_words(compiled: CompiledCrf) -> None:
    words = _model_words(compiled)
    direct = _rows(compiled, words, from_strings=False)
    assert direct == _rows(compiled, words, from_strings=True)
    assert len(direct[1]) == 5 * len(words)
    assert any(row >= 0 for row in direct[0])  # the words do reach the model's attributes


def test_bundled_model_words_reach_every_family(compiled: CompiledCrf) -> None:
    extractor = compiled.extractor
    if not (extractor.clusters and extractor.learned.triggers and extractor.learned.lexicon):
        pytest.skip("only the bundled model has clusters, triggers and a learned lexicon")
    rows, _, _ = _rows(compiled, _model_words(compiled), from_strings=False)
    named = {row: attribute for attribute, row in compiled.rows.items()}
    families = {named[row].split("=")[0] for row in rows if row >= 0}
    for family in ("w", "cc", "sh", "lsh", "len", "p2", "p3", "s2", "s3", "fb", "cl", "cl-1", "trg1", "w-2", "sh2"):
        assert family in families, family


def test_tables_filled_both_ways_are_identical(compiled: CompiledCrf) -> None:
    words = _model_words(compiled)
    direct, from_strings = compiled._new_table(), compiled._new_table()
    compiled._add_types(direct, words)
    compiled._add_types(from_strings, words, from_strings=True)
    assert direct.size == from_strings.size == len(words) + 1
    for name in ("own", "context", "word_code", "shape_code", "case_code"):
        assert np.array_equal(getattr(direct, name)[: direct.size], getattr(from_strings, name)[: direct.size]), name


def test_type_rows_need_full_feature_lists() -> None:
    with pytest.raises(ValueError, match="keep=None"):
        type_row_appender(FeatureExtractor(keep=frozenset({"bias"})), {"bias": 0})


def _unseen_word(rng: random.Random) -> str:
    letters = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzéö") for _ in range(rng.randint(1, 12)))
    return rng.choice(
        (
            letters,
            letters.title(),
            letters.upper(),
            f"{letters}{rng.randint(0, 999)}",
            str(rng.randint(0, 10 ** rng.randint(1, 8))),
            f"{rng.randint(1, 12)}/{rng.randint(1, 31)}/{rng.randint(2000, 2199)}",
            rng.choice(("|", "#", "(", ")", "--", "...", "+/-")),
        )
    )


def _unseen_notes(count: int, seed: int) -> list[Document]:
    """Notes mixing the training templates with many made-up words (most types new to the tagger)."""
    rng = random.Random(seed)
    base = [d.document.text for d in synthetic_corpus(count, seed=seed)]
    notes = []
    for i, text in enumerate(base):
        words = text.split(" ")
        for _ in range(len(words)):
            words.insert(rng.randrange(len(words) + 1), _unseen_word(rng))
        notes.append(Document(f"unseen-{i}", " ".join(words)))
    return notes


@pytest.mark.parametrize("model_name", ["plain", "providers", "easyadapt"])
def test_notes_of_unseen_words_equal_crfsuite(
    model_name: str, trained_model: Path, provider_model: Path, easyadapt_model: Path
) -> None:
    path = {"plain": trained_model, "providers": provider_model, "easyadapt": easyadapt_model}[model_name]
    model = CrfModel.load(path, providers=PROVIDERS)
    notes = _unseen_notes(12, seed=31)
    for doc in notes:
        assert_tagged_close(model.tag(doc), tag_reference(model, doc), 0.001)
        limit = model.threshold
        assert model.spans(doc) == spans_from_marginals(doc.text, tag_reference(model, doc, floor=limit), limit)
    state = model._compiled()
    assert state is not None and state.crf._table.size > 300  # mostly new types
