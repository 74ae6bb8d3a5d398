from __future__ import annotations

from pathlib import Path

import pytest

from deident.core.errors import ModelError
from deident.detect.crf.clusters import learn_clusters, load_clusters, save_clusters
from deident.detect.crf.features import crf_tokens

from .synthetic import synthetic_corpus

pytest.importorskip("sklearn")


def _token_lists() -> list[list[str]]:
    return [[t.text for t in crf_tokens(d.text)] for d in synthetic_corpus(80)]


def test_clusters_are_deterministic_and_skip_rare_words() -> None:
    first = learn_clusters(_token_lists(), n_clusters=8, dimensions=10)
    assert first == learn_clusters(_token_lists(), n_clusters=8, dimensions=10)
    assert first and set(first.values()) <= set(range(8))
    assert "lungs" in first
    rare = learn_clusters([*_token_lists(), ["zyxwv"]], n_clusters=8, dimensions=10)
    assert "zyxwv" not in rare


def test_too_small_a_vocabulary_gives_no_clusters() -> None:
    assert learn_clusters([["a", "b"]] * 10, n_clusters=8) == {}


def test_round_trip_and_bad_file(tmp_path: Path) -> None:
    save_clusters({"lungs": 1, "clear": 2}, tmp_path / "c.tsv")
    assert load_clusters(tmp_path / "c.tsv") == {"lungs": 1, "clear": 2}
    (tmp_path / "bad.tsv").write_text("lungs\tone\n")
    with pytest.raises(ModelError):
        load_clusters(tmp_path / "bad.tsv")
