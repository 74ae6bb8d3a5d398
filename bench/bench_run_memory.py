"""Peak memory of ``deident run`` against the size of its input (issue 22): it must grow with the chunk, not the corpus.

Writes synthetic JSONL of each size (``deident synth`` notes, copied with fresh note and patient ids until the size
is reached, so every note is unique and patients stay whole), runs ``deident run`` on it in a fresh process (rules
pipeline, tag mode, one job) and prints the input size, notes, wall seconds and the child's peak RSS
(``resource.getrusage(RUSAGE_CHILDREN)``, measured in a fresh process per size so one size's peak does not hide
another's). Target: peak RSS grows by under 60 MB from 20 MB to 200 MB of input. Needs no ../shared; files go to a
temporary folder (or --workdir) and are removed afterwards.

    python bench/bench_run_memory.py [--sizes 20,200] [--pipeline rules] [--chunk-size 200] [--interleave]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _write_corpus(base: Path, path: Path, megabytes: int, interleave: bool) -> int:
    """Copies of the base notes (fresh ids) until ``megabytes`` MB; with ``interleave`` each patient's notes are
    spread through the file (the runner then groups them on disk)."""
    records = [json.loads(line) for line in base.read_text(encoding="utf-8").splitlines() if line.strip()]
    wanted = megabytes * 1_000_000
    written = notes = 0
    copy = 0
    with path.open("w", encoding="utf-8") as handle:
        while written < wanted:
            for record in records if not interleave else [*records[::2], *records[1::2]]:
                record = dict(record)
                metadata = dict(record.get("metadata") or {})
                record["id"] = f"{record['id']}-c{copy}"
                if metadata.get("patient_id") is not None:
                    metadata["patient_id"] = f"{metadata['patient_id']}-c{copy}"
                metadata.pop("note_id", None)
                record["metadata"] = metadata
                line = json.dumps(record) + "\n"
                handle.write(line)
                written += len(line.encode("utf-8"))
                notes += 1
                if written >= wanted:
                    break
            copy += 1
    return notes


def _measure(source: Path, output: Path, pipeline: str, chunk_size: int) -> None:
    """In a fresh process: run ``deident run`` as a child and print its wall seconds and peak RSS in MB."""
    command = [sys.executable, "-m", "deident", "run", str(source), "-o", str(output), "--pipeline", pipeline]
    command += ["--mode", "tag", "--chunk-size", str(chunk_size), "--overwrite"]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # kilobytes on Linux
    print(json.dumps({"wall_s": wall, "peak_rss_mb": peak_kb / 1024}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="20,200", help="input sizes in MB, comma-separated")
    parser.add_argument("--pipeline", default="rules")
    parser.add_argument("--chunk-size", type=int, default=200)
    parser.add_argument("--notes", type=int, default=2000, help="distinct synthetic notes to copy from")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--interleave", action="store_true", help="spread each patient's notes through the file")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--measure", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        _measure(args.measure[0], args.measure[1], args.pipeline, args.chunk_size)
        return
    with tempfile.TemporaryDirectory(prefix="bench-run-memory-", dir=args.workdir) as folder:
        work = Path(folder)
        base = work / "base.jsonl"
        synth = [sys.executable, "-m", "deident", "synth", "--notes", str(args.notes), "--seed", str(args.seed)]
        subprocess.run([*synth, "-o", str(base)], check=True, stdout=subprocess.DEVNULL)
        peaks = []
        for size in (int(s) for s in args.sizes.split(",")):
            source = work / f"in-{size}.jsonl"
            notes = _write_corpus(base, source, size, args.interleave)
            measure = [sys.executable, os.path.abspath(__file__), "--measure", str(source), str(work / "out.jsonl")]
            measure += ["--pipeline", args.pipeline, "--chunk-size", str(args.chunk_size)]
            result = json.loads(subprocess.run(measure, check=True, capture_output=True, text=True).stdout)
            peaks.append(result["peak_rss_mb"])
            print(
                f"{size:5d} MB  {notes:7d} notes  {result['wall_s']:7.1f} s  peak RSS {result['peak_rss_mb']:7.1f} MB",
                flush=True,
            )
            source.unlink()
        if len(peaks) > 1:
            print(f"peak RSS growth from the smallest to the largest input: {peaks[-1] - peaks[0]:.1f} MB")


if __name__ == "__main__":
    main()
