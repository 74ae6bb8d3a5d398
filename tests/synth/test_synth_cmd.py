"""``deident synth`` (src/deident/cli/synth_cmd.py); kept here with the generator's tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from deident.cli.app import app
from deident.core.errors import ConfigurationError
from deident.io import read_corpus

runner = CliRunner()


def test_synth_writes_a_jsonl_corpus(tmp_path: Path) -> None:
    out = tmp_path / "synth.jsonl"
    args = ["synth", "-o", str(out), "--notes", "12", "--seed", "5", "--styles", "forum,psych"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    docs = read_corpus(out)
    assert len(docs) == 12
    assert {d.document.metadata.get_extra("style") for d in docs} == {"forum", "psych"}
    assert all(d.spans for d in docs)
    again = tmp_path / "again.jsonl"
    assert runner.invoke(app, [*args[:2], str(again), *args[3:]]).exit_code == 0
    assert again.read_bytes() == out.read_bytes()


def test_synth_without_extension_writes_jsonl(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    result = runner.invoke(app, ["synth", "-o", str(out), "--notes", "3"])
    assert result.exit_code == 0, result.output
    assert len(read_corpus(out, "jsonl")) == 3


def test_synth_refuses_an_unknown_style(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    result = runner.invoke(app, ["synth", "-o", str(out), "--notes", "3", "--styles", "nursing,radiology"])
    assert isinstance(result.exception, ConfigurationError)
    assert not out.exists()


def test_output_is_identical_across_processes_with_different_hash_seeds(tmp_path: Path) -> None:
    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"run{hash_seed}.jsonl"
        code = "from deident.cli.app import app; app()"
        args = [sys.executable, "-c", code, "synth", "-o", str(out), "--notes", "16", "--seed", "3"]
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run(args, check=True, env=env, capture_output=True)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


def test_synth_cuts_its_gold_to_the_scheme_asked(tmp_path: Path) -> None:
    corpora = {}
    for scheme in ("i2b2-2014", "hipaa", "physionet"):
        out = tmp_path / f"{scheme}.jsonl"
        args = ["synth", "-o", str(out), "--notes", "40", "--seed", "2", "--scheme", scheme]
        assert runner.invoke(app, args).exit_code == 0
        corpora[scheme] = read_corpus(out)
    ages = {
        scheme: [int(d.text[s.start : s.end].split()[0]) for d in docs for s in d.spans if s.label.value == "AGE"]
        for scheme, docs in corpora.items()
    }
    assert any(age <= 89 for age in ages["i2b2-2014"])  # the generator writes every age
    assert ages["hipaa"] and all(age >= 90 for age in ages["hipaa"])
    assert [d.text for d in corpora["hipaa"]] == [d.text for d in corpora["i2b2-2014"]]
    states = {scheme: sum(s.label.value == "STATE" for d in docs for s in d.spans) for scheme, docs in corpora.items()}
    assert states["hipaa"] == states["i2b2-2014"] > 0 and states["physionet"] == 0
