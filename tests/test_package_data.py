"""Every file under deident/resources ships in the wheel: pyproject's package-data names its extension (a resource
that is not declared works from a checkout and is missing once installed)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESOURCES = ROOT / "src" / "deident" / "resources"


def test_every_resource_file_is_declared_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["*"]
    files = [p for p in RESOURCES.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert any(p.name == "physionet-dev.text" for p in files)
    undeclared = [
        str(p.relative_to(RESOURCES))
        for p in files
        if p.suffix != ".py" and not any(fnmatch.fnmatch(p.name, pattern) for pattern in patterns)
    ]
    assert undeclared == []
