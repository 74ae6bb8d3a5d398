"""Aggregate scores of one model directory for the CRF-mixture experiments (issue 16).

    python bench/score_mixture.py NAME MODEL_DIR [--json bench/results/crf_mixture.json]

physionet-val is scored only through ../shared/tools/score-val (aggregate figures; this script keeps the
binary-token and instance lines and nothing else); physionet-dev (in-sample for every model trained on it,
so optimistic) through ``deident detect`` + ``deident evaluate``. Pipelines: crf, stage1, default.
Results are merged into the JSON file under NAME.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
if not SHARED.exists():
    SHARED = Path("/work/shared")
DEV = SHARED / "corpora" / "physionet-dev" / "physionet-dev.text"
SCORE_VAL = SHARED / "tools" / "score-val"
PIPELINES = ("crf", "stage1", "default")
_TOKEN = re.compile(r"binary token\s+P ([\d.]+)\s+R ([\d.]+).*\(TP (\d+) FP (\d+) FN (\d+)\)")
_INSTANCE = re.compile(r"fully contained ([\d.]+)\s+any overlap ([\d.]+)")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT / "src")
    return env


def score_val(model: Path, pipeline: str) -> dict[str, float]:
    out = subprocess.run(
        [str(SCORE_VAL), "--model", str(model), "--pipeline", pipeline],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    token, instance = _TOKEN.search(out), _INSTANCE.search(out)
    if token is None or instance is None:
        raise SystemExit(f"score-val printed no figures for {model} ({pipeline})")
    p, r, tp, fp, fn = token.groups()
    return {
        "precision": float(p),
        "recall": float(r),
        "tp": int(tp),
        "fp": int(fp),
        "fn": int(fn),
        "fully_contained": float(instance.group(1)),
        "any_overlap": float(instance.group(2)),
    }


def _model_args(model: Path, pipeline: str) -> list[str]:
    return ["--model", str(model), "--pipeline", pipeline]


def score_dev(model: Path, pipeline: str) -> dict[str, float]:
    deident = str(Path(sys.executable).parent / "deident")
    with tempfile.TemporaryDirectory() as tmp:
        pred = Path(tmp) / "pred.text"
        subprocess.run(
            [deident, "detect", str(DEV), "-o", str(pred), "--scheme", "physionet", *_model_args(model, pipeline)],
            env=_env(),
            capture_output=True,
            check=True,
        )
        out = subprocess.run(
            [deident, "evaluate", str(DEV), str(pred), "--json"], env=_env(), capture_output=True, text=True, check=True
        ).stdout
    data = json.loads(out)
    b, i = data["binary_token"], data["instance"]
    return {
        "precision": round(b["precision"], 4),
        "recall": round(b["recall"], 4),
        "tp": b["tp"],
        "fp": b["fp"],
        "fn": b["fn"],
        "fully_contained": round(i["recall_fully_contained"], 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("name")
    parser.add_argument("model", type=Path)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "crf_mixture.json")
    parser.add_argument("--no-dev", action="store_true")
    args = parser.parse_args()
    model = args.model.resolve()
    row: dict[str, object] = {"val": {p: score_val(model, p) for p in PIPELINES}}
    if not args.no_dev:
        row["dev_in_sample"] = {p: score_dev(model, p) for p in PIPELINES}
    manifest = json.loads((model / "manifest.json").read_text())
    data = manifest.get("training_data", {})
    row["training_data"] = {
        "documents": data.get("documents"),
        "mixture": data.get("mixture"),
        "learned": manifest.get("learned"),
    }
    row["training_seconds"] = manifest.get("training_seconds")
    results = json.loads(args.json.read_text()) if args.json.exists() else {}
    results.setdefault("experiments", {})[args.name] = row
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n")
    for split in ("val", "dev_in_sample"):
        for p, f in row.get(split, {}).items():  # type: ignore[attr-defined]
            print(
                f"{args.name:10} {split:13} {p:8} P {f['precision']:.4f} R {f['recall']:.4f} "
                f"FP {f['fp']} FN {f['fn']} fully {f['fully_contained']:.4f}"
            )


if __name__ == "__main__":
    main()
