from __future__ import annotations

from pathlib import Path

import pytest

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
