"""Issue 5 speed figures: the default pipeline's start-up time and throughput on physionet-dev.

Start-up is measured in fresh processes: import, model load and the first (short) note, i.e. what
a user waits for before the first result; each part is its own figure, best of --startup-runs
processes (the total is the best total, not the sum of the bests). Throughput is one process (one
core): the first pass over the whole corpus after a warm-up on the bundled sample (the honest figure
for the first unseen notes of a run), then the best of the later --repeat passes; and, in a fresh
process, a pass over the notes of half the patients after an untimed pass over the other half's (unseen
notes deep into a long run, when the CRF's per-word-type tables hold other notes' words); and, in another
fresh process, a first pass that gives each patient's notes to ``detect_many`` together, as ``deident run``
and ``detect`` do (the filter's same-patient features, reconciliation if on). CPU time is
reported too because the machine may be shared. Accuracy figures of the default pipeline come from
scripts/train_default_pipeline.py fit.

    python bench/bench_pipeline.py [--pipeline default] [--repeat 2] [--startup-runs 3] [--startup-only]
                                   [--python PATH]

``--python`` measures start-up with another interpreter, e.g. that of a virtual environment made with
the README's plain ``pip install`` (core dependencies only): there numba does not import scipy, which a
development environment has for scikit-learn and which numba loads with its array-math registry.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from common import ROOT, held_out_half, in_fresh_process, load_corpus, megabytes

from deident.core.document import patient_groups
from deident.io import read_corpus

SAMPLE = ROOT / "src" / "deident" / "resources" / "samples" / "sample.text"

STARTUP = """
import time
t0 = time.perf_counter()
from deident.api import Deidentifier
t1 = time.perf_counter()
deid = Deidentifier.load(pipeline={pipeline!r})
t2 = time.perf_counter()
deid.detect("Seen by Dr. Kowalski on 3/14 at Mercy Hospital.")
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t3 - t0)
"""
STARTUP_PARTS = ("import", "load", "first note", "total")


def startup_breakdown(pipeline: str, runs: int, python: str = sys.executable) -> dict[str, float]:
    """Best (least) seconds of each start-up part over ``runs`` fresh processes of ``python``."""
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [python, "-c", STARTUP.format(pipeline=pipeline)], check=True, stdout=subprocess.PIPE, text=True
        ).stdout.split()
        samples.append([float(x) for x in out])
    return {part: min(s[i] for s in samples) for i, part in enumerate(STARTUP_PARTS)}


def print_startup(pipeline: str, runs: int, python: str = sys.executable) -> None:
    best = startup_breakdown(pipeline, runs, python)
    parts = ", ".join(f"{part} {best[part]:.2f} s" for part in STARTUP_PARTS[:-1])
    print(f"start-up of {pipeline!r} (fresh processes of {python}, best of {runs}): {best['total']:.2f} s ({parts})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pipeline", default="default")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--startup-runs", type=int, default=3, help="fresh processes for the start-up figures")
    parser.add_argument("--startup-only", action="store_true", help="measure start-up only (no corpus needed)")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the start-up figures")
    parser.add_argument("--held-out-half", action="store_true", help=argparse.SUPPRESS)  # the child processes
    parser.add_argument("--patient-groups", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.held_out_half:
        from deident.api import Deidentifier

        print(json.dumps(held_out_half(load_corpus(), Deidentifier.load(pipeline=args.pipeline).detect)))
        return
    if args.patient_groups:
        print(json.dumps(patient_groups_first_pass(args.pipeline)))
        return
    print_startup(args.pipeline, args.startup_runs, args.python)
    if args.startup_only:
        return
    half = in_fresh_process(__file__, "--held-out-half", "--pipeline", args.pipeline)
    grouped = in_fresh_process(__file__, "--patient-groups", "--pipeline", args.pipeline)
    from deident.api import Deidentifier

    docs = load_corpus()
    deid = Deidentifier.load(pipeline=args.pipeline)
    # Warm-up on the bundled sample, not on the corpus: the first timed pass then sees the corpus's words
    # for the first time, as a run over new notes does (the CRF keeps per-word-type tables).
    for item in read_corpus(SAMPLE):
        deid.detect(item.document)
    wall, cpu = [], []
    for _ in range(max(1, args.repeat)):
        w0, c0 = time.perf_counter(), time.process_time()
        for item in docs:
            deid.detect(item.document)
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    mb = megabytes(docs)
    print(f"pipeline {args.pipeline!r} on {len(docs)} notes ({mb:.2f} MB), one process")
    print(f"throughput, first pass (unseen words): {mb / cpu[0]:.3f} MB/s CPU time, {mb / wall[0]:.3f} MB/s wall")
    if len(cpu) > 1:
        print(
            f"throughput, later passes (best of {len(cpu) - 1}): {mb / min(cpu[1:]):.3f} MB/s CPU time, "
            f"{mb / min(wall[1:]):.3f} MB/s wall"
        )
    print(
        f"throughput, held-out half (other patients' notes seen first, {half['megabytes']:.2f} MB): "
        f"{half['mb_per_s_cpu']:.3f} MB/s CPU time, {half['mb_per_s_wall']:.3f} MB/s wall"
    )
    print(
        f"throughput, first pass with each patient's notes together (detect_many): {grouped['mb_per_s_cpu']:.3f} "
        f"MB/s CPU time, {grouped['mb_per_s_wall']:.3f} MB/s wall"
    )


def patient_groups_first_pass(pipeline: str) -> dict[str, float]:
    """MB/s of a first pass (after the warm-up on the sample) giving each patient's notes to ``detect_many``."""
    from deident.api import Deidentifier

    docs = load_corpus()
    deid = Deidentifier.load(pipeline=pipeline)
    for item in read_corpus(SAMPLE):
        deid.detect(item.document)
    documents = [item.document for item in docs]
    groups = [[documents[i] for i in members] for members in patient_groups(documents)]
    w0, c0 = time.perf_counter(), time.process_time()
    for notes in groups:
        deid.detect_many(notes)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    mb = megabytes(docs)
    return {"megabytes": round(mb, 3), "mb_per_s_cpu": round(mb / cpu, 3), "mb_per_s_wall": round(mb / wall, 3)}


if __name__ == "__main__":
    main()
