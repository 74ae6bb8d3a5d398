"""Issue 3 targets: the rules pipeline (patterns + lexicons + veto) on physionet-dev.

Prints binary-token precision/recall/F1/F2 and fully-contained instance recall under two PHI
conventions: ``physionet`` (the corpus's own: ages over 89 only, no weekdays; the figure the
target refers to) and ``i2b2-2014`` (every age and weekday counts as predicted PHI), per-category
recall, and throughput in MB/s on one core after a warm-up on the bundled sample note that loads every
table: the first timed pass over the corpus (unseen text: the memo tables start without its words and
digit contexts), the best of the later passes (best of all passes when --repeat is 1), and, in a fresh
process, a pass over the notes of half the patients after an untimed pass over the other half's: unseen
notes met deep into a long run, when the memo tables hold the words and number contexts of other notes.

    python bench/bench_rules.py [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from common import ROOT, held_out_half, in_fresh_process, load_corpus, machine_reference_s, megabytes, one_by_one

from deident.core.document import AnnotatedDocument
from deident.detect.lexicon import preload
from deident.evaluate import evaluate_corpus
from deident.io import read_corpus
from deident.pipelines import rules_pipeline
from deident.schemes import SchemeStage, get_scheme

SAMPLE = ROOT / "src" / "deident" / "resources" / "samples" / "sample.text"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--held-out-half", action="store_true", help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.held_out_half:
        preload()
        print(json.dumps(held_out_half(load_corpus(), one_by_one(rules_pipeline("i2b2-2014")))))
        return
    # First, in a fresh process, so that neither measurement warms the other's tables.
    half = in_fresh_process(__file__, "--held-out-half")
    docs = load_corpus()
    preload()
    pipeline = rules_pipeline("i2b2-2014")
    # Warm-up on the bundled sample, not on the corpus: it compiles the patterns and loads the tables, and the
    # first timed pass then meets the corpus's words and number contexts for the first time, as a run over new
    # notes does.
    for item in read_corpus(SAMPLE):
        pipeline(item.document)
    wall, cpu = [], []
    predicted: list[AnnotatedDocument] = []
    for _ in range(max(1, args.repeat)):
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
        "mb_per_s_wall": round(mb / min(wall[1:] or wall), 3),
        "mb_per_s_cpu": round(mb / min(cpu[1:] or cpu), 3),
        "first_pass_mb_per_s_wall": round(mb / wall[0], 3),
        "first_pass_mb_per_s_cpu": round(mb / cpu[0], 3),
        "held_out_half": half,
        "machine_reference_s": machine_reference_s(),
        "schemes": results,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(
        f"rules pipeline on {len(docs)} notes ({mb:.2f} MB); machine reference {summary['machine_reference_s']:.3f} s"
    )
    for name, result in results.items():
        bt, inst = result["binary_token"], result["instance"]
        print(
            f"[{name:9}] binary token P={bt['precision']:.4f} R={bt['recall']:.4f} F1={bt['f1']:.4f} "
            f"F2={bt['f2']:.4f}  fully-contained={inst['recall_fully_contained']:.4f}"
        )
    print("recall by category:", results["physionet"]["recall_by_category"])
    print(
        f"first pass (unseen text): {summary['first_pass_mb_per_s_cpu']:.2f} MB/s CPU time, "
        f"{summary['first_pass_mb_per_s_wall']:.2f} MB/s wall (one core, after a warm-up on the bundled sample)"
    )
    print(
        f"held-out half (other patients' notes seen first): {half['mb_per_s_cpu']:.2f} MB/s CPU time, "
        f"{half['mb_per_s_wall']:.2f} MB/s wall (one core, {half['megabytes']:.2f} MB)"
    )
    later = f"best of passes 2-{len(cpu)}" if len(cpu) > 2 else ("pass 2" if len(cpu) == 2 else "the only pass")
    print(
        f"throughput: {summary['mb_per_s_cpu']:.2f} MB/s CPU time, {summary['mb_per_s_wall']:.2f} MB/s wall "
        f"({later}, one core)"
    )


if __name__ == "__main__":
    main()
