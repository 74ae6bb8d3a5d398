"""Measure the default pipeline on held-out notes and record it as the model's expected operating point.

    python bench/held_out_estimate.py --gold ../shared/corpora/physionet-val/physionet-val.text \
        --name physionet-val --about "..." [--model DIR] [--write]

The gold corpus must be notes of patients that no part of the model was trained on. The pipeline is
run as ``deident detect`` runs it (whole patients per chunk) at the model's own thresholds and at a
sweep of single thresholds, and each run is scored as ``deident evaluate --bootstrap`` scores it:
binary-token recall and precision and fully-contained instance recall, with percentile intervals
from resampling patients. Only these aggregate figures are printed or written: never a note, a span
or a per-span error (the sealed split's rule). ``--write`` stores them in the manifest's
``span_filter.held_out``, which ``deident run``/``detect``/``serve`` then print as the expected
recall and precision and from which ``--recall-target`` picks its threshold.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from deident.core.document import AnnotatedDocument, patient_chunks  # noqa: E402
from deident.evaluate import evaluate_corpus  # noqa: E402
from deident.io.formats import read_corpus  # noqa: E402
from deident.model.manifest import MANIFEST, default_model_dir  # noqa: E402
from deident.pipelines import default_pipeline, read_bundle  # noqa: E402
from deident.run.runner import DEFAULT_CHUNK_SIZE  # noqa: E402

# Single thresholds for every group, dense where the bundled filters operate.
SWEEP = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
RESAMPLES = 2000


def measure(
    gold: Sequence[AnnotatedDocument], model: Path, scheme: str, thresholds: float | Mapping[str, float] | None
) -> dict[str, Any]:
    """Run the default pipeline on the gold notes' text and score it (aggregate figures only)."""
    bundle = read_bundle(model)
    pipeline = default_pipeline(bundle, scheme, filter_thresholds=thresholds)
    documents = [item.document for item in gold]
    predicted: dict[int, AnnotatedDocument] = {}
    for positions in patient_chunks(documents, DEFAULT_CHUNK_SIZE):
        group = [documents[p] for p in positions]
        for position, document, spans in zip(positions, group, pipeline.run_many(group), strict=True):
            predicted[position] = AnnotatedDocument(document, spans)
    report = evaluate_corpus(gold, [predicted[p] for p in range(len(documents))], bootstrap=RESAMPLES)
    ci = report.intervals
    assert ci is not None
    token, instance = report.full.counts.binary_token.overall, report.full.counts.instance.overall
    own = dict(sorted(bundle.require_filter().thresholds.items()))
    return {
        "thresholds": thresholds if thresholds is not None else own,
        "recall": round(token.recall, 4),
        "precision": round(token.precision, 4),
        "fully_contained": round(instance.recall_fully_contained, 4),
        "recall_interval": ci.recall.as_list(),
        "precision_interval": ci.precision.as_list(),
        "fully_contained_interval": ci.fully_contained.as_list(),
        "groups": ci.groups,
        "level": ci.level,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gold", type=Path, required=True, help="annotated held-out notes (any corpus format)")
    parser.add_argument("--name", required=True, help="the held-out corpus's name, as users will read it")
    parser.add_argument("--about", default="", help="what the notes are and how they relate to the training notes")
    parser.add_argument("--model", type=Path, default=None, help="model directory (default: the bundled model)")
    parser.add_argument("--write", action="store_true", help="store the figures in the model's manifest")
    args = parser.parse_args(argv)

    model = args.model or default_model_dir()
    bundle = read_bundle(model)
    scheme = bundle.training_scheme or "i2b2-2014"
    gold = read_corpus(args.gold)
    started = time.perf_counter()
    default = measure(gold, model, scheme, None)
    print(f"default      R {default['recall']:.4f} {default['recall_interval']}  P {default['precision']:.4f} "
          f"{default['precision_interval']}  fully contained {default['fully_contained']:.4f}")  # fmt: skip
    sweep = []
    for threshold in SWEEP:
        row = measure(gold, model, scheme, threshold)
        sweep.append(row)
        print(f"t={threshold:<6g}     R {row['recall']:.4f} {row['recall_interval']}  P {row['precision']:.4f} "
              f"{row['precision_interval']}  fully contained {row['fully_contained']:.4f}")  # fmt: skip
    print(f"{len(SWEEP) + 1} runs in {time.perf_counter() - started:.0f} s")
    if args.write:
        path = Path(model) / MANIFEST
        manifest = json.loads(path.read_text(encoding="utf-8"))
        manifest["span_filter"]["held_out"] = {
            "corpus": args.name,
            "about": args.about,
            "scheme": scheme,
            "level": default["level"],
            "groups": default["groups"],
            "resamples": RESAMPLES,
            "command": " ".join(
                ["python bench/held_out_estimate.py", "--gold", str(args.gold), "--name", repr(args.name)]
                + (["--about", repr(args.about)] if args.about else [])
                + ["--write"]
            ),
            "default": default,
            "sweep": sweep,
        }
        path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
