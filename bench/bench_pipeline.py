"""Issue 5 speed figures: the default pipeline's start-up time and throughput on physionet-dev.

Start-up is measured in a fresh process: import, model load and the first (short) note, i.e. what
a user waits for before the first result. Throughput is one process (one core), best of --repeat
runs over the whole corpus after that warm-up; CPU time is reported too because the machine may
be shared. Accuracy figures of the default pipeline come from scripts/train_default_pipeline.py fit.

    python bench/bench_pipeline.py [--pipeline default] [--repeat 2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from common import load_corpus, megabytes

STARTUP = """
import time
t = time.perf_counter()
from deident.api import Deidentifier
deid = Deidentifier.load(pipeline={pipeline!r})
deid.detect("Seen by Dr. Kowalski on 3/14 at Mercy Hospital.")
print(time.perf_counter() - t)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pipeline", default="default")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    startup = float(
        subprocess.run(
            [sys.executable, "-c", STARTUP.format(pipeline=args.pipeline)], check=True, capture_output=True, text=True
        ).stdout.strip()
    )
    from deident.api import Deidentifier

    docs = load_corpus()
    deid = Deidentifier.load(pipeline=args.pipeline)
    for item in docs[:20]:
        deid.detect(item.document)
    wall, cpu = [], []
    for _ in range(args.repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        for item in docs:
            deid.detect(item.document)
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    mb = megabytes(docs)
    print(f"pipeline {args.pipeline!r} on {len(docs)} notes ({mb:.2f} MB), one process")
    print(f"start-up (import + load + first note, fresh process): {startup:.2f} s")
    print(f"throughput: {mb / min(cpu):.3f} MB/s CPU time, {mb / min(wall):.3f} MB/s wall (best of {args.repeat})")


if __name__ == "__main__":
    main()
