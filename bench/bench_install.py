"""The default install as a new user gets it (issue 20): a fresh venv in a temporary folder, ``pip install``
of the working tree (no extra unless ``--extras``), then

- the venv's size on disk, and the largest installed distributions;
- the first run of the README's sample command (``deident run SAMPLE -o OUT``) after the install, wall time;
- the warm start-up: the same command again (fresh process), and ``deident version``;
- ``Deidentifier.load()`` in a fresh process: wall and CPU seconds, and the process's peak RSS.

    python bench/bench_install.py [--extras fast] [--keep DIR] [--json PATH]

Needs a package index (pip downloads the dependencies; its cache makes later runs quicker). Wall times on
a shared machine vary with its load: CPU seconds (user + system) are printed beside them.
Targets (issue 20): first run under 5 s, ``load()`` under 1.5 s and 250 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "src/deident/resources/samples/sample.text"
LOAD = """
import json, resource, time
wall, cpu = time.perf_counter(), time.process_time()
from deident.api import Deidentifier
imported = time.perf_counter() - wall
deid = Deidentifier.load()
print(json.dumps({
    "import_s": imported,
    "load_s": time.perf_counter() - wall - imported,
    "import_and_load_cpu_s": time.process_time() - cpu,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def folder_mb(path: Path) -> float:
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            file = Path(folder, name)
            if not file.is_symlink():
                total += file.stat().st_size
    return total / 1e6


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system) of ``command``, and what it printed."""
    started, cpu = time.perf_counter(), children_cpu_s()
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed, cpu = time.perf_counter() - started, children_cpu_s() - cpu
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return elapsed, cpu, result.stdout


def site_packages(venv: Path) -> Path:
    return next((venv / "lib").glob("python3*/site-packages"))


def largest(venv: Path, count: int = 8) -> list[tuple[str, float]]:
    packages = site_packages(venv)
    sizes = [(p.name, folder_mb(p)) for p in packages.iterdir() if p.is_dir() and not p.name.endswith("-info")]
    return sorted(sizes, key=lambda item: -item[1])[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--extras", default="", help="extras to install, comma-separated (default: none)")
    parser.add_argument("--python", default=sys.executable, help="interpreter that creates the venv")
    parser.add_argument("--keep", type=Path, help="build the venv here and keep it (default: a temporary folder)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="deident-install-"))
    venv = args.keep or work / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    try:
        subprocess.run([args.python, "-m", "venv", str(venv)], check=True)
        empty_mb = folder_mb(venv)
        target = f"{ROOT}[{args.extras}]" if args.extras else str(ROOT)
        started = time.perf_counter()
        pip = [str(venv / "bin/python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, target], check=True, env=env, cwd=work)
        install_s = time.perf_counter() - started
        size_mb = folder_mb(venv)
        deident = str(venv / "bin/deident")
        out = work / "out"
        first_s, first_cpu_s, _ = timed([deident, "run", str(SAMPLE), "-o", str(out / "first/sample.text")], env, work)
        warm_s, warm_cpu_s, _ = timed([deident, "run", str(SAMPLE), "-o", str(out / "warm/sample.text")], env, work)
        version_s, version_cpu_s, _ = timed([deident, "version"], env, work)
        _, _, printed = timed([str(venv / "bin/python"), "-c", LOAD], env, work)
        load = json.loads(printed.strip().splitlines()[-1])
        figures = {
            "extras": args.extras,
            "python": sys.version.split()[0],
            "install_s": round(install_s, 1),
            "venv_mb": round(size_mb, 1),
            "empty_venv_mb": round(empty_mb, 1),
            "largest_mb": {name: round(mb, 1) for name, mb in largest(venv)},
            "first_run_s": round(first_s, 2),
            "first_run_cpu_s": round(first_cpu_s, 2),
            "warm_run_s": round(warm_s, 2),
            "warm_run_cpu_s": round(warm_cpu_s, 2),
            "version_s": round(version_s, 2),
            "version_cpu_s": round(version_cpu_s, 2),
            **{key: round(value, 2) for key, value in load.items()},
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"install ({args.extras or 'no extras'}): {figures['install_s']} s, venv {figures['venv_mb']} MB")
    print("  largest: " + ", ".join(f"{name} {mb} MB" for name, mb in figures["largest_mb"].items()))
    print(
        f"first run of the README sample: {figures['first_run_s']} s wall, {figures['first_run_cpu_s']} s CPU "
        "(target < 5 s)"
    )
    print(
        f"warm run: {figures['warm_run_s']} s wall, {figures['warm_run_cpu_s']} s CPU; "
        f"deident version: {figures['version_s']} s wall, {figures['version_cpu_s']} s CPU"
    )
    print(
        f"load(): {figures['load_s']} s wall after a {figures['import_s']} s import "
        f"({figures['import_and_load_cpu_s']} s CPU for both), peak RSS {figures['peak_rss_mb']} MB "
        "(target < 1.5 s, < 250 MB)"
    )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
