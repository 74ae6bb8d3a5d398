from __future__ import annotations

import subprocess
import sys
from importlib import resources

import pytest

from deident.core.errors import ConfigurationError
from deident.detect.lexicon.data import LEXICON_NAMES, load_drug_names, load_lexicon, load_veto_terms

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


# Names of many origins, from every locale faker has (Igbo, Zulu, Russian, Danish, Finnish, Czech).
@pytest.mark.parametrize("item", ["chiamaka", "emeka", "ngozi", "thandiwe", "aleksei", "bjarne", "antti", "jarmila"])
def test_names_of_many_origins_are_listed(item: str):
    assert item in load_lexicon("first_names")


# What those locales also list that is an English word, a clinical word or abbreviation (a plural one too), or an
# eponym's name in clinical use, is left out: the other locales add only rare words of four letters or more.
@pytest.mark.parametrize("word", ["doppler", "endo", "gu", "asp", "bitten", "ants", "nissen", "maes", "bulla"])
def test_other_locales_add_no_clinical_or_common_word(word: str):
    assert word not in load_lexicon("first_names") | load_lexicon("last_names")


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


def test_drug_names_file_is_sorted_lower_case_unique_and_short():
    lines = (ROOT / "drug_names.txt").read_text(encoding="utf-8").splitlines()
    header = [line for line in lines if line.startswith("#")]
    items = lines[len(header) :]
    assert header and "drug-named-entity-recognition" in header[0]  # provenance
    assert len(items) > 50_000
    assert items == sorted(set(items))
    assert all(item == item.lower() and item.strip() == item and not item.startswith("#") for item in items)
    assert all(len(item.split()) <= 3 and len(item) <= 40 for item in items)


@pytest.mark.parametrize("drug", ["metoprolol", "levophed", "heparin", "propofol", "vancomycin", "lasix"])
def test_drug_names_present(drug: str):
    assert drug in load_drug_names()


@pytest.mark.parametrize("name", ["camila", "hana"])
def test_drug_names_that_are_given_names_are_removed(name: str):
    assert name in (ROOT / "drug_names.txt").read_text(encoding="utf-8").splitlines()
    assert name not in load_drug_names()


def test_drug_names_load_without_the_drug_package():
    # Importing drug_named_entity_recognition takes seconds: the shipped list must not need it.
    code = (
        "import sys; from deident.detect.lexicon.data import load_drug_names; load_drug_names(); "
        "print('drug_named_entity_recognition' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"
