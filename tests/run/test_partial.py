from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deident.core.errors import ConfigurationError
from deident.run.partial import PartialStore, partial_dir_for


def test_chunks_are_committed_and_listed(tmp_path: Path) -> None:
    store = PartialStore(tmp_path / "out.jsonl")
    assert store.path == partial_dir_for(tmp_path / "out.jsonl") == tmp_path / "out.jsonl.partial"
    assert store.open({"a": 1}) is False
    store.write_chunk(3, {"chunk": 3}, [{"id": "x"}])
    store.write_chunk(0, {"chunk": 0}, [])
    assert store.done() == {0, 3}
    header, rows = store.read_chunk(3)
    assert header == {"chunk": 3} and list(rows) == [{"id": "x"}]
    assert not list(store.path.glob(".*partial"))  # no temporary files left behind


def test_resume_needs_the_same_manifest(tmp_path: Path) -> None:
    store = PartialStore(tmp_path / "out.jsonl")
    store.open({"a": 1, "b": [1, 2]})
    assert store.open({"a": 1, "b": [1, 2]}) is True
    with pytest.raises(ConfigurationError, match="partial run"):
        store.open({"a": 2})
    store.remove()
    assert not store.exists()


@pytest.mark.parametrize("character", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\r", "\ud83d", "\udfff"])
def test_a_line_separator_or_lone_surrogate_in_a_record_reads_back(tmp_path: Path, character: str) -> None:
    store = PartialStore(tmp_path / "out.jsonl")
    store.open({})
    records = [{"id": "1", "text": f"before{character}after"}, {"id": "2", "text": "next"}]
    store.write_chunk(0, {"chunk": 0}, records)
    header, rows = store.read_chunk(0)
    assert header == {"chunk": 0} and list(rows) == records


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.text(st.characters(codec=None, exclude_categories=())), max_size=5))
def test_any_python_string_round_trips_through_a_chunk(tmp_path: Path, texts: list[str]) -> None:
    store = PartialStore(tmp_path / "out.jsonl")
    store.open({})
    records = [{"id": text, "text": text, "metadata": {"extra": {text: text}}} for text in texts]
    store.write_chunk(0, {"chunk": 0, "note": "".join(texts)}, records)
    header, rows = store.read_chunk(0)
    assert header["note"] == "".join(texts)
    assert list(rows) == records
