from __future__ import annotations

from importlib import resources

import pytest

from deident.core.errors import ConfigurationError
from deident.detect.lexicon.data import LEXICON_NAMES, load_lexicon, load_veto_terms

ROOT = resources.files("deident.resources.lexicons")


@pytest.mark.parametrize("name", LEXICON_NAMES)
def test_lexicon_files_are_sorted_lower_case_unique(name: str):
    lines = (ROOT / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    assert lines, name
    assert lines == sorted(set(lines))
    assert all(line == line.lower() and line.strip() == line for line in lines)
    assert (ROOT / f"{name}.exceptions.txt").is_file()


def test_total_size_is_modest():
    total = sum(len(p.read_bytes()) for p in ROOT.iterdir() if p.is_file())
    assert total < 3_000_000


def test_exceptions_are_applied():
    assert "an" in (ROOT / "first_names.txt").read_text(encoding="utf-8").splitlines()
    assert "an" not in load_lexicon("first_names")


@pytest.mark.parametrize(
    ("name", "item"),
    [
        ("first_names", "mary"),
        ("last_names", "nguyen"),
        ("cities", "boston"),
        ("states", "maryland"),
        ("countries", "germany"),
        ("common_words", "hope"),
    ],
)
def test_expected_items_present(name: str, item: str):
    assert item in load_lexicon(name)


@pytest.mark.parametrize("word", ["smith", "john", "david"])
def test_name_dominant_words_are_not_common_words(word: str):
    assert word not in load_lexicon("common_words")


def test_unknown_lexicon():
    with pytest.raises(ConfigurationError):
        load_lexicon("nope")


def test_veto_terms_have_kinds():
    terms = load_veto_terms()
    assert terms["foley"] == "device"
    assert terms["parkinson"] == "eponym"
    assert terms["perrla"] == "abbreviation"
