"""Interleaved A/B of the default pipeline's speed between two source trees (e.g. a base commit's checkout).

    git worktree add /tmp/base <REV>
    python bench/ab_detect.py /tmp/base/src src --rounds 3

Each round runs one fresh process per tree, alternating, and prints for each: load time, the first pass
over physionet-dev in chunks of 200 notes (as ``run`` and ``detect`` give them), the best of two later
passes (CPU MB/s) and the machine reference taken right after it (``common.machine_reference_s``; lower is
faster). Only the
public API is used, so any two commits since the facade existed compare.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from common import machine_reference_s

HERE = Path(__file__).resolve().parent
CHILD = """
import json, sys, time
from deident.api import Deidentifier
from deident.io.formats import read_corpus
docs = [d.document for d in read_corpus({corpus!r})]
size = sum(len(d.text) for d in docs) / 1e6
t0 = time.process_time(); deid = Deidentifier.load(); load = time.process_time() - t0
rates = []
for _ in range(3):
    t = time.process_time()
    for i in range(0, len(docs), 200):
        deid.detect_many(docs[i:i + 200])
    rates.append(size / (time.process_time() - t))
print(json.dumps({{"load_s": load, "first": rates[0], "later": max(rates[1:])}}))
"""


def run(src: Path, corpus: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src.resolve())}
    code = CHILD.format(corpus=str(corpus))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    # Measured here, after the child: bench/common.py may import what an older tree lacks.
    figures["reference_s"] = machine_reference_s()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", type=Path, help="source tree A (the folder holding deident/)")
    parser.add_argument("b", type=Path, help="source tree B")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--corpus", type=Path, default=HERE.parent.parent / "shared/corpora/physionet-dev/physionet-dev.text"
    )
    args = parser.parse_args()
    for round_no in range(1, args.rounds + 1):
        for name, src in (("A", args.a), ("B", args.b)):
            f = run(src, args.corpus)
            print(
                f"round {round_no} {name}: load {f['load_s']:.2f} s  first {f['first']:.3f} MB/s  "
                f"later {f['later']:.3f} MB/s  reference {f['reference_s']:.3f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
