"""Issue 3 targets: the rules pipeline (patterns + lexicons + veto) on physionet-dev.

Prints binary-token precision/recall/F1/F2, fully-contained instance recall, per-category recall,
and throughput in MB/s on one core (best of --repeat timing runs after a warm-up).

    python bench/bench_rules.py [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json

from common import load_corpus, megabytes, run_timed

from deident.evaluate import evaluate_corpus
from deident.pipelines import rules_pipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    docs = load_corpus()
    pipeline = rules_pipeline()
    pipeline(docs[0].document)  # warm-up: loads lexicons and compiles patterns
    timings = []
    predicted = []
    for _ in range(args.repeat):
        predicted, seconds = run_timed(pipeline, docs)
        timings.append(seconds)
    mb = megabytes(docs)
    report = evaluate_corpus(docs, predicted).to_dict()
    summary = {
        "documents": len(docs),
        "megabytes": round(mb, 3),
        "seconds_best": round(min(timings), 3),
        "mb_per_s": round(mb / min(timings), 3),
        "binary_token": report["binary_token"],
        "instance": report["instance"],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    bt = report["binary_token"]
    print(f"rules pipeline on {len(docs)} notes ({mb:.2f} MB)")
    print(f"binary token: P={bt['precision']:.4f} R={bt['recall']:.4f} F1={bt['f1']:.4f} F2={bt['f2']:.4f}")
    inst = report["instance"]
    print(
        f"instance recall: fully contained={inst['recall_fully_contained']:.4f}"
        f" any overlap={inst['recall_any_overlap']:.4f}"
    )
    print(f"throughput: {summary['mb_per_s']:.2f} MB/s (best of {args.repeat}, one core)")


if __name__ == "__main__":
    main()
