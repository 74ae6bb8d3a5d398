"""The papers' context features (issue 18 item 6): what each switch adds, and that a model trained with them
sees the same features at inference (compiled tagger and crfsuite reference) as at training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deident.core.document import Document
from deident.core.errors import ConfigurationError
from deident.detect.crf.context import CONTEXT_SWITCHES, context_features, word_context_features
from deident.detect.crf.features import FeatureConfig, FeatureExtractor
from deident.detect.crf.learned import LearnedData
from deident.detect.crf.tagger import CrfModel, model_attributes, spans_from_marginals, tag_reference
from deident.detect.crf.train import TrainConfig, train_model

from .close import assert_tagged_close
from .synthetic import TEST_DOCTORS, TEST_RELATIVES, synthetic_corpus

ALL_ON = {name: True for name in CONTEXT_SWITCHES}
TRIGGERS = {("wife", -1): "NAME", ("dr", -1): "NAME", ("admitted", -2): "DATE"}


def _features(switches: dict[str, bool], text: str) -> list[list[str]]:
    return context_features(switches, text.split(), TRIGGERS)


@pytest.mark.parametrize(
    ("switch", "text", "index", "expected"),
    [
        # the previous / next word's dictionaries
        ("neighbour_dictionary", "seen by Mary today", 1, {"nd+1=first"}),
        ("neighbour_dictionary", "seen by Mary today", 3, {"nd-1=first"}),
        ("neighbour_dictionary", "flew to Boston today", 3, {"nd-1=place"}),
        # exact membership and, separately, one edit away
        ("fuzzy_dictionary", "Jennifer", 0, {"dx=first"}),
        ("fuzzy_dictionary", "Jennifr", 0, {"dfz=first"}),
        ("fuzzy_dictionary", "Jenniferr", 0, {"dfz=first"}),
        # the clinical lists
        ("term_lists", "given lasix", 1, {"lst=drug"}),
        ("term_lists", "the patient", 0, {"lst=stop"}),
        # a trigger three tokens before / after, at whatever offset it was learned
        ("trigger_window", "wife at bedside Agatha", 3, {"tw<=NAME"}),
        ("trigger_window", "Agatha , called Dr", 0, {"tw>=NAME"}),
        # digit-run lengths and separators around a number
        ("split_feature_sets", "on 12 / 05 today", 1, {"nw3=w|d2|/", "nw5=_|w|d2|/|d2"}),
        ("split_feature_sets", "call 555 - 0123456789", 3, {"nw3=-|d8|_", "nw5=d3|-|d8|_|_"}),
    ],
)
def test_each_switch_adds_its_feature(switch: str, text: str, index: int, expected: set[str]) -> None:
    assert expected <= set(_features({switch: True}, text)[index])


@pytest.mark.parametrize(
    ("switch", "text", "index", "absent"),
    [
        ("neighbour_dictionary", "seen by xqzv today", 3, "nd-1="),  # not in a dictionary
        ("fuzzy_dictionary", "Jennifer", 0, "dfz="),  # exact, so not also fuzzy
        ("fuzzy_dictionary", "Jon", 0, "dfz="),  # too short for the fuzzy feature
        ("fuzzy_dictionary", "12345", 0, "d"),  # not a word
        ("term_lists", "Agatha", 0, "lst="),
        ("trigger_window", "wife a b c Agatha", 4, "tw"),  # four tokens away
        ("split_feature_sets", "seen on 12 at bedside today", 5, "nw"),  # the number is three tokens away
        ("split_feature_sets", "seen on 12 at bedside today", 4, "nw3"),
        ("split_feature_sets", "Bed2 x1 IV", 0, "nw"),  # digits in a word are no number
    ],
)
def test_hard_negatives(switch: str, text: str, index: int, absent: str) -> None:
    assert not [f for f in _features({switch: True}, text)[index] if f.startswith(absent)]


def test_switches_off_add_nothing_and_features_have_no_duplicates() -> None:
    text = "Wife Mary Jenifer given lasix by Dr Smith in Boston the patient"
    assert all(f == [] for f in _features({}, text))
    assert all(len(f) == len(set(f)) for f in _features(ALL_ON, text))


def test_default_config_leaves_the_feature_lists_and_manifest_as_before() -> None:
    config = FeatureConfig()
    assert config.as_dict() == {"aggressive": True, "rare_masking": True}
    assert FeatureConfig.from_dict(config.as_dict()) == config
    on = FeatureConfig(**ALL_ON)
    assert FeatureConfig.from_dict(on.as_dict()) == on
    doc = Document("d", "Wife Mary at bedside, Dr Jennifr Smith.")
    plain = FeatureExtractor(FeatureConfig(), LearnedData(TRIGGERS)).extract(doc)
    extended = FeatureExtractor(on, LearnedData(TRIGGERS)).extract(doc)
    added = [set(e) - set(p) for p, e in zip(plain, extended, strict=True)]
    assert all(set(p) <= set(e) for p, e in zip(plain, extended, strict=True))
    assert any("dfz=first" in a for a in added) and any("nd+1=first" in a for a in added)


@pytest.fixture(scope="module")
def context_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("crf-context") / "model"
    config = TrainConfig(features=FeatureConfig(**ALL_ON), max_iterations=40, clusters=0, split_models=True)
    train_model(synthetic_corpus(60), out, config)
    return out


def test_manifest_records_the_switches_and_the_model_uses_them(context_model: Path) -> None:
    manifest = json.loads((context_model / "manifest.json").read_text(encoding="utf-8"))
    assert all(manifest["features"][name] is True for name in CONTEXT_SWITCHES)
    model = CrfModel.load(context_model)
    assert model.extractor.config == FeatureConfig(**ALL_ON)
    attributes = model.known_attributes()
    for prefix in ("nd-1=", "nd+1=", "dx=", "lst=", "tw<=", "tw>=", "lsec=", "nw3=", "nw5="):
        assert any(a.startswith(prefix) for a in attributes), prefix
    assert manifest["data_files"]["headings"] == "headings.tsv" and "headings.tsv" in manifest["files"]
    assert {"neuro", "gi"} <= set(model.extractor.learned.headings)
    assert "lsec=neuro" in attributes


def test_each_split_crf_learned_only_its_own_features(context_model: Path) -> None:
    manifest = json.loads((context_model / "manifest.json").read_text(encoding="utf-8"))
    files = {m["name"]: context_model / m["file"] for m in manifest["models"]}
    assert {m["name"]: m["feature_set"] for m in manifest["models"]} == {n: n for n in files}
    quantitative, namelike = model_attributes(files["quantitative"]), model_attributes(files["namelike"])
    assert not [a for a in quantitative if a.startswith(("dx=", "nd-1=", "nd+1=", "tw<=NAME", "tw>=NAME"))]
    assert not [a for a in namelike if a.startswith(("nw3=", "nw5=", "hasdig", "num=", "tw<=DATE", "tw>=DATE"))]
    assert any(a.startswith("nw5=") for a in quantitative) and any(a.startswith("dx=") for a in namelike)


def test_split_feature_sets_need_split_models(tmp_path: Path) -> None:
    config = TrainConfig(features=FeatureConfig(split_feature_sets=True), max_iterations=2, clusters=0)
    with pytest.raises(ConfigurationError, match="split-models"):
        train_model(synthetic_corpus(4), tmp_path / "model", config)


def test_features_at_inference_equal_those_at_training(context_model: Path) -> None:
    """The compiled tagger (inference) against crfsuite fed the training extractor's feature lists."""
    model = CrfModel.load(context_model)
    docs = [d.document for d in synthetic_corpus(6, seed=5, doctors=TEST_DOCTORS, relatives=TEST_RELATIVES)]
    docs.append(Document("misspelt", "Wife Agathe at bedside; Dr Jennifr Quimby called, given lasix.\n"))
    docs.append(Document("sections", "Neuro: alert. GI - soft\nSeen 12/05/2031, call 555-0123; Wife Agatha.\n"))
    assert model._compiled() is not None
    for doc in docs:
        assert_tagged_close(model.tag(doc), tag_reference(model, doc), 0.001)
        limit = model.threshold
        assert model.spans(doc) == spans_from_marginals(doc.text, tag_reference(model, doc, floor=limit), limit)


@pytest.mark.parametrize("seed", range(8))
def test_triggers_found_per_word_type_give_the_reference_features(
    context_model: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled tagger's fast path (each type's learned-trigger code, set once per type) against the
    reference (the token texts looked up), on random notes of the model's triggers in every case, and after the
    type table was cut back and refilled (its codes are copied with its rows)."""
    import random

    import numpy as np

    from deident.detect.crf import compiled as compiled_module

    model = CrfModel.load(context_model)
    compiled = model._compiled()
    assert compiled is not None
    crf = compiled.crf
    triggers = sorted({word for word, _ in model.extractor.learned.triggers})
    assert triggers and crf.trigger_groups[1:]
    rng = random.Random(seed)
    words = [*triggers, *(t.upper() for t in triggers), *(t.title() for t in triggers), "Agatha", "on", "3/4", ","]
    if seed % 2:
        monkeypatch.setattr(compiled_module, "_TYPE_LIMIT", 6)  # cut the table back on most notes
    for n in range(6):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 30))) + f" zq{seed}x{n}"
        doc = Document(f"d{n}", text)
        tokens = compiled_module.token_columns(doc.text, model.extractor.config.aggressive)
        ids, table = crf._type_ids(tokens.texts)
        fast = crf._extra_features(doc, tokens, None, table.trigger_code[ids])
        reference = crf._extra_features(doc, tokens, None)
        for a, b in zip(fast, reference, strict=True):
            assert np.array_equal(a, b)
        assert model.spans(doc) == spans_from_marginals(
            doc.text, tag_reference(model, doc, floor=model.threshold), model.threshold
        )


def _trigger_window_reference(texts: list[str]) -> list[list[str]]:
    """The trigger-window features as the item defines them, token by token: every learned trigger within three
    tokens before (tw<=) or after (tw>=), sorted."""
    by_word: dict[str, set[str]] = {}
    for (word, _), category in TRIGGERS.items():
        by_word.setdefault(word, set()).add(category)
    out = []
    for i in range(len(texts)):
        seen = {f"tw<={c}" for j in range(max(0, i - 3), i) for c in by_word.get(texts[j].lower(), ())}
        seen |= {f"tw>={c}" for j in range(i + 1, min(len(texts), i + 4)) for c in by_word.get(texts[j].lower(), ())}
        out.append(sorted(seen))
    return out


@pytest.mark.parametrize("seed", range(20))
def test_the_trigger_window_equals_its_token_by_token_reference(seed: int) -> None:
    import random

    rng = random.Random(seed)
    words = ["wife", "Dr", "admitted", "Agatha", "on", "3/4", ",", "the", "WIFE", "pt"]
    texts = [rng.choice(words) for _ in range(rng.randint(0, 40))]
    assert context_features({"trigger_window": True}, texts, TRIGGERS) == _trigger_window_reference(texts)


def _within_one_edit_reference(word: str, kind: str) -> bool:
    """Levenshtein distance at most 1 from a dictionary word of at least FUZZY_MIN_LENGTH - 1 letters, or a
    deletion of the word in the whole dictionary (what the index answers), by brute force over the dictionary."""
    from rapidfuzz.distance import Levenshtein

    from deident.detect.crf import context

    words = context._dictionary(kind)
    if any(word[:i] + word[i + 1 :] in words for i in range(len(word))):
        return True
    return any(
        Levenshtein.distance(word, w, score_cutoff=1) <= 1 for w in words if len(w) >= context.FUZZY_MIN_LENGTH - 1
    )


@pytest.mark.parametrize("kind", ["first", "last", "place"])
def test_one_edit_membership_equals_a_brute_force_search(kind: str) -> None:
    import random

    from deident.detect.crf import context

    rng = random.Random(kind)
    listed = sorted(w for w in context._dictionary(kind) if w.isalpha() and len(w) >= 5)
    words = rng.sample(listed, 40)
    letters = "abcdefghijklmnopqrstuvwxyz"
    edited = []
    for w in words:
        i = rng.randrange(len(w))
        edited += [w[:i] + w[i + 1 :], w[:i] + rng.choice(letters) + w[i:], w[:i] + rng.choice(letters) + w[i + 1 :]]
        edited.append(w[:i] + w[i + 1 :][::-1])  # mostly two or more edits away
    edited += ["".join(rng.choice(letters) for _ in range(rng.randint(5, 9))) for _ in range(40)]
    for word in [*words, *edited]:
        assert context._near(kind, context._one_edit(word)) == _within_one_edit_reference(word, kind), word


@pytest.mark.parametrize("switches", [ALL_ON, {"fuzzy_dictionary": True}, {"term_lists": True, "trigger_window": True}])
def test_the_word_level_features_and_the_positional_ones_make_up_all_of_them(switches: dict[str, bool]) -> None:
    """The compiled tagger adds a word's own features per word type and asks for the positional ones alone."""
    texts = "Wife Jennifr called Dr Smithe re lasix , the patient admitted 12 / 05 from Bostn".split()
    whole = context_features(switches, texts, TRIGGERS)
    positional = context_features(switches, texts, TRIGGERS, word_level=False)
    for text, features, rest in zip(texts, whole, positional, strict=True):
        assert features == [*word_context_features(switches, text.lower()), *rest]
    assert any(word_context_features(switches, t.lower()) for t in texts)


def test_a_word_two_letters_longer_than_every_dictionary_word_is_near_none() -> None:
    """The length guard of the fuzzy features answers what the index would: no dictionary word is within one edit."""
    from deident.detect.crf import context

    longest = max((w for kind, _ in context._DICTIONARIES for w in context._dictionary(kind)), key=len)
    assert len(longest) == context._longest_word()
    word = longest + "zz"
    assert not any(context._near(kind, context._one_edit(word)) for kind, _ in context._DICTIONARIES)
    assert not any(f.startswith("dfz=") for f in context._dictionary_features.__wrapped__(word))
    assert not any(f.startswith("dfz=") for f in context._dictionary_features.__wrapped__("a" * 5000))
    near = longest[:-1] + ("a" if longest[-1] != "a" else "b")  # one substitution from the longest word
    assert context._near(
        next(k for k, _ in context._DICTIONARIES if longest in context._dictionary(k)), context._one_edit(near)
    )
