from __future__ import annotations

from pathlib import Path

import pytest

from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.core.span import Span
from deident.io import read_corpus
from deident.model.source import (
    SMALL_CORPUS_NOTES,
    SMALL_CORPUS_SPANS,
    bundled_source_path,
    choose_source,
    is_small,
)


def _notes(n: int, spans_each: int) -> list[AnnotatedDocument]:
    text = "Seen by Dr Quill today. " * max(1, spans_each)
    return [
        AnnotatedDocument(
            Document(f"p{i}_1", text),
            tuple(Span(24 * k + 11, 24 * k + 16, Label.DOCTOR, "gold") for k in range(spans_each)),
        )
        for i in range(n)
    ]


@pytest.mark.parametrize(
    ("notes", "spans_each", "small"),
    [
        (SMALL_CORPUS_NOTES - 1, 5, True),  # few notes, many spans
        (SMALL_CORPUS_NOTES, 2, True),  # enough notes, 400 spans
        (SMALL_CORPUS_NOTES, 3, False),  # 600 spans
        (SMALL_CORPUS_SPANS, 1, False),
    ],
)
def test_a_corpus_is_small_below_either_count(notes: int, spans_each: int, small: bool) -> None:
    assert is_small(_notes(notes, spans_each)) is small


def test_a_small_corpus_gets_the_bundled_source_with_a_notice() -> None:
    chosen = choose_source([], False, _notes(10, 1))
    assert chosen.paths == (bundled_source_path(),)
    assert chosen.notice is not None and "10 notes, 10 gold spans" in chosen.notice and "--no-source" in chosen.notice


def test_a_large_corpus_gets_no_source() -> None:
    assert choose_source([], False, _notes(SMALL_CORPUS_NOTES, 3)) == choose_source([Path("none")], False, [])
    assert choose_source([], False, _notes(SMALL_CORPUS_NOTES, 3)).paths == ()


@pytest.mark.parametrize("name", ["bundled", "physionet"])
def test_the_bundled_corpus_is_named_by_a_word(name: str) -> None:
    chosen = choose_source([Path(name)], False, _notes(SMALL_CORPUS_NOTES, 3))
    assert chosen.paths == (bundled_source_path(),) and chosen.notice is None


def test_a_source_file_named_like_the_keyword_is_read_as_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bundled").write_text("{}\n")
    assert choose_source([Path("bundled")], False, []).paths == (Path("bundled"),)


def test_given_sources_are_kept_and_no_source_refuses_all(tmp_path: Path) -> None:
    mine = tmp_path / "mine.jsonl"
    assert choose_source([mine, Path("bundled")], False, []).paths == (mine, bundled_source_path())
    assert choose_source([], True, _notes(3, 1)).paths == ()
    assert choose_source([Path("none")], False, _notes(3, 1)).paths == ()


@pytest.mark.parametrize(("given", "no_source"), [([Path("bundled")], True), ([Path("none"), Path("bundled")], False)])
def test_contradicting_source_options_are_refused(given: list[Path], no_source: bool) -> None:
    with pytest.raises(ConfigurationError):
        choose_source(given, no_source, [])


def test_the_bundled_corpus_is_installed_with_its_annotations_and_attribution() -> None:
    path = bundled_source_path()
    assert path.with_suffix(".phrase").is_file()
    assert "Open Data Commons Attribution" in (path.parent / "README.md").read_text(encoding="utf-8")
    corpus = read_corpus(path)
    assert len(corpus) == 1414 and sum(len(d.spans) for d in corpus) > 900
