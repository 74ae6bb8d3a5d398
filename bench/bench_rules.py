"""Issue 3 targets: the rules pipeline (patterns + lexicons + veto) on physionet-dev.

Prints binary-token precision/recall/F1/F2 and fully-contained instance recall under two PHI
conventions: ``physionet`` (the corpus's own: ages over 89 only, no weekdays; the figure the
target refers to) and ``i2b2-2014`` (every age and weekday counts as predicted PHI), per-category
recall, and throughput in MB/s on one core (best of --repeat timed runs after a warm-up that loads
every table).

    python bench/bench_rules.py [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from common import load_corpus, megabytes

from deident.core.document import AnnotatedDocument
from deident.detect.lexicon import preload
from deident.evaluate import evaluate_corpus
from deident.pipelines import rules_pipeline
from deident.schemes import SchemeStage, get_scheme


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    docs = load_corpus()
    preload()
    pipeline = rules_pipeline("i2b2-2014")
    for item in docs[:20]:
        pipeline(item.document)  # warm-up: compiles patterns, fills caches
    wall, cpu = [], []
    predicted: list[AnnotatedDocument] = []
    for _ in range(args.repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        predicted = [AnnotatedDocument(d.document, pipeline(d.document)) for d in docs]
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    physionet = SchemeStage(get_scheme("physionet"))
    as_physionet = [p.with_spans(physionet(p.document, p.spans)) for p in predicted]
    mb = megabytes(docs)
    results = {}
    for name, preds in (("physionet", as_physionet), ("i2b2-2014", predicted)):
        report = evaluate_corpus(docs, preds).to_dict()
        results[name] = {
            "binary_token": {
                k: report["binary_token"][k] for k in ("precision", "recall", "f1", "f2", "tp", "fp", "fn")
            },
            "instance": report["instance"],
            "recall_by_category": {
                k: round(v["recall"], 4) for k, v in report["binary_token"]["by_category"].items() if v["gold"]
            },
        }
    summary = {
        "documents": len(docs),
        "megabytes": round(mb, 3),
        "mb_per_s_wall": round(mb / min(wall), 3),
        "mb_per_s_cpu": round(mb / min(cpu), 3),
        "schemes": results,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(f"rules pipeline on {len(docs)} notes ({mb:.2f} MB)")
    for name, result in results.items():
        bt, inst = result["binary_token"], result["instance"]
        print(
            f"[{name:9}] binary token P={bt['precision']:.4f} R={bt['recall']:.4f} F1={bt['f1']:.4f} "
            f"F2={bt['f2']:.4f}  fully-contained={inst['recall_fully_contained']:.4f}"
        )
    print("recall by category:", results["physionet"]["recall_by_category"])
    print(
        f"throughput: {summary['mb_per_s_cpu']:.2f} MB/s CPU time, {summary['mb_per_s_wall']:.2f} MB/s wall "
        f"(best of {args.repeat}, one core)"
    )


if __name__ == "__main__":
    main()
