"""Training mixtures (issue 16): the option parses, variants are deterministic, the manifest records it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.detect.crf.learned import token_hash
from deident.detect.crf.mixture import Mixture, build_mixture, conform_labels, parse_augment
from deident.detect.crf.train import train_model
from deident.model.manifest import corpus_fingerprint
from deident.synth import generate_corpus
from deident.synth.reidentify import Kind

from .conftest import FAST
from .synthetic import synthetic_corpus


def test_parse_augment() -> None:
    assert parse_augment("reidentified:2,ambiguous:1, unseen") == (
        (Kind.REIDENTIFIED, 2),
        (Kind.AMBIGUOUS, 1),
        (Kind.UNSEEN, 1),
    )
    assert parse_augment("") == ()
    assert parse_augment("unseen:0") == ()


@pytest.mark.parametrize("text", ["bogus:1", "reidentified:x", "unseen:-1", "unseen:1,unseen:2"])
def test_parse_augment_rejects(text: str) -> None:
    with pytest.raises(ConfigurationError):
        parse_augment(text)


def test_mixture_rejects_unknown_styles() -> None:
    with pytest.raises(ConfigurationError):
        Mixture(synth=10, synth_styles=("sonnet",))


def test_build_mixture_is_deterministic_and_ordered() -> None:
    base = synthetic_corpus(12)
    mixture = Mixture(augment=parse_augment("reidentified:2,unseen:1"), synth=8, seed=3)
    first = build_mixture(base, mixture)
    assert len(first) == 12 + 2 * 12 + 12 + 8
    assert first[:12] == base
    assert corpus_fingerprint(first) == corpus_fingerprint(build_mixture(base, mixture))
    other = build_mixture(base, Mixture(augment=mixture.augment, synth=8, seed=4))
    assert corpus_fingerprint(first) != corpus_fingerprint(other)
    assert len({d.id for d in first}) == len(first)


def test_synthetic_notes_keep_the_base_labels() -> None:
    base = synthetic_corpus(12)
    base_labels = {s.label for d in base for s in d.spans}
    synth = conform_labels(generate_corpus(20, 0), base, "physionet")
    labels = {s.label for d in synth for s in d.spans}
    assert labels <= base_labels
    assert Label.LOCATION_OTHER in labels  # hospitals, cities, streets
    assert not any(s.label is Label.PROFESSION for d in synth for s in d.spans)


def test_manifest_records_the_mixture_and_learns_from_the_base(tmp_path: Path) -> None:
    base = synthetic_corpus(30)
    mixture = Mixture(augment=parse_augment("reidentified:1,unseen:1"), seed=1)
    docs = build_mixture(base, mixture)
    out = tmp_path / "model"
    manifest = train_model(docs, out, FAST, learn_docs=base, mixture=mixture.as_dict())
    data = manifest["training_data"]
    assert data["documents"] == 90
    assert data["mixture"] == {
        "variants": {"reidentified": 1, "unseen": 1},
        "synth_notes": 0,
        "synth_styles": [],
        "seed": 1,
        "synth_scheme": None,
    }
    assert data["learned_from"] == {"fingerprint": corpus_fingerprint(base), "documents": 30}
    assert json.loads((out / "manifest.json").read_text())["training_data"]["mixture"] == data["mixture"]
    # The lexicon holds the base corpus's names only, not the variants' surrogates.
    lexicon = {line.split("\t")[0] for line in (out / "lexicon.tsv").read_text().splitlines()[1:]}
    base_names = {
        token_hash(d.text[s.start : s.end].lower()) for d in base for s in d.spans if s.label is not Label.DATE
    }
    assert lexicon <= base_names
