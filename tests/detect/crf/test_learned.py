from __future__ import annotations

from pathlib import Path

import pytest

from deident.core.errors import ModelError
from deident.detect.crf.features import crf_tokens
from deident.detect.crf.learned import (
    learn,
    load_lexicon,
    load_triggers,
    save_lexicon,
    save_triggers,
    token_hash,
)

from .synthetic import synthetic_corpus


def _learned():  # type: ignore[no-untyped-def]
    docs = synthetic_corpus(60)
    return learn((d, crf_tokens(d.text)) for d in docs)


def test_triggers_are_context_words_with_offsets() -> None:
    learned = _learned()
    assert learned.triggers.get(("wife", -1)) == "NAME"
    assert learned.triggers.get(("admitted", -2)) == "DATE"
    assert all(off in (-2, -1, 1, 2) for _, off in learned.triggers)


def test_lexicon_holds_hashes_of_names_and_places_only() -> None:
    learned = _learned()
    assert learned.lexicon[token_hash("smith")] == "NAME"
    assert learned.lexicon[token_hash("riverside")] == "LOCATION"
    assert token_hash("3") not in learned.lexicon  # dates are not lexicon material
    assert learned.lexicon_groups[token_hash("smith")]  # patients that mention it (training only)


@pytest.mark.parametrize(
    ("save", "load", "data"),
    [
        (save_triggers, load_triggers, {("dr", -1): "NAME", ("on", -1): "DATE"}),
        (save_lexicon, load_lexicon, {token_hash("smith"): "NAME"}),
    ],
)
def test_tsv_round_trip(tmp_path: Path, save, load, data) -> None:  # type: ignore[no-untyped-def]
    save(data, tmp_path / "f.tsv")
    assert load(tmp_path / "f.tsv") == data


@pytest.mark.parametrize(
    ("content", "load"),
    [("dr\t-1\n", load_triggers), ("dr\tx\tNAME\n", load_triggers), ("abc\n", load_lexicon)],
)
def test_bad_files_raise_model_error(tmp_path: Path, content: str, load) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "f.tsv").write_text(content)
    with pytest.raises(ModelError):
        load(tmp_path / "f.tsv")
