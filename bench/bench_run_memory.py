"""Peak memory of ``deident run`` against the size of its input (issue 22): it must grow with the chunk, not the corpus.

Writes synthetic input of each size (``deident synth`` notes, copied with fresh note and patient ids until the size
is reached, so every note is unique and patients stay whole) in each format asked for: JSONL (the size is the file's,
spans and metadata included), CSV with columns id, patient_id, text (the file's size), Parquet with the same
columns and rows in row groups of 2,000 rows (the size is the CSV's: the compressed file is much smaller, as the
copies repeat) and PhysioNet ``.text`` records (patient and note numbers, no ``.phrase``; the size is the CSV's).
It runs ``deident run`` on each in a fresh process (rules pipeline, tag mode, one job) and prints the format, input
size (then the file's own size), notes, wall seconds and the child's peak RSS
(``resource.getrusage(RUSAGE_CHILDREN)``, measured in a fresh process per run so one run's peak does not hide
another's). Target: peak RSS grows by under 60 MB from 20 MB to 200 MB of input, per format. Needs no ../shared;
files go to a temporary folder (or --workdir) and are removed afterwards.

    python bench/bench_run_memory.py [--sizes 20,200] [--formats jsonl,csv,parquet,physionet] [--pipeline rules]
                                     [--chunk-size 200] [--interleave]
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SUFFIXES = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet", "physionet": ".text"}


def _size(record: dict[str, Any], table: bool) -> int:
    """A note's bytes as a JSONL line (spans and metadata included), or as a table row (id, patient, text)."""
    if not table:
        return len((json.dumps(record) + "\n").encode("utf-8"))
    return sum(
        len(str(v).encode("utf-8")) + 1 for v in (record["id"], record["metadata"].get("patient_id"), record["text"])
    )


def _records(base: Path, megabytes: int, interleave: bool, table: bool) -> Iterator[dict[str, Any]]:
    """Copies of the base notes (fresh ids) until they reach ``megabytes`` MB (as JSONL lines, or as table rows);
    with ``interleave`` each patient's notes are spread through the file (the runner then groups them on disk)."""
    records = [json.loads(line) for line in base.read_text(encoding="utf-8").splitlines() if line.strip()]
    wanted = megabytes * 1_000_000
    written = 0
    copy = 0
    while written < wanted:
        for record in records if not interleave else [*records[::2], *records[1::2]]:
            record = dict(record)
            metadata = dict(record.get("metadata") or {})
            record["id"] = f"{record['id']}-c{copy}"
            if metadata.get("patient_id") is not None:
                metadata["patient_id"] = f"{metadata['patient_id']}-c{copy}"
            metadata.pop("note_id", None)
            record["metadata"] = metadata
            written += _size(record, table)
            yield record
            if written >= wanted:
                return
        copy += 1


def _write_corpus(base: Path, path: Path, megabytes: int, interleave: bool) -> int:
    """The notes of :func:`_records` in the format of ``path``'s extension; returns how many."""
    notes = 0
    records = _records(base, megabytes, interleave, table=path.suffix != ".jsonl")
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        schema = pa.schema([("id", pa.string()), ("patient_id", pa.string()), ("text", pa.string())])
        with pq.ParquetWriter(path, schema) as writer:
            while batch := list(itertools.islice(records, 2000)):
                rows = [(r["id"], r["metadata"].get("patient_id"), r["text"]) for r in batch]
                writer.write_table(pa.table(list(map(list, zip(*rows, strict=True))), schema=schema))
                notes += len(batch)
        return notes
    if path.suffix == ".text":  # records numbered per file; patients by their copied ids
        with path.open("w", encoding="utf-8", newline="") as handle:
            for notes, record in enumerate(records, start=1):
                patient = record["metadata"].get("patient_id") or f"n{notes}"
                start = "\n" if notes > 1 else ""
                handle.write(f"{start}START_OF_RECORD={patient}||||{notes}||||\n{record['text']}||||END_OF_RECORD\n")
        return notes
    with path.open("w", encoding="utf-8", newline="") as handle:
        table = csv.writer(handle) if path.suffix == ".csv" else None
        if table is not None:
            table.writerow(["id", "patient_id", "text"])
        for record in records:
            if table is not None:
                table.writerow([record["id"], record["metadata"].get("patient_id") or "", record["text"]])
            else:
                handle.write(json.dumps(record) + "\n")
            notes += 1
    return notes


def _measure(source: Path, output: Path, pipeline: str, chunk_size: int) -> None:
    """In a fresh process: run ``deident run`` as a child and print its wall seconds and peak RSS in MB."""
    command = [sys.executable, "-m", "deident", "run", str(source), "-o", str(output), "--pipeline", pipeline]
    command += ["--mode", "tag", "--chunk-size", str(chunk_size), "--overwrite"]
    if source.suffix in (".csv", ".parquet"):
        command += ["--patient-col", "patient_id"]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # kilobytes on Linux
    print(json.dumps({"wall_s": wall, "peak_rss_mb": peak_kb / 1024}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="20,200", help="input sizes in MB, comma-separated")
    parser.add_argument("--formats", default="jsonl,csv,parquet", help="input formats, comma-separated")
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
        for fmt in args.formats.split(","):
            peaks = []
            for size in (int(s) for s in args.sizes.split(",")):
                source = work / f"in-{size}{SUFFIXES[fmt]}"
                notes = _write_corpus(base, source, size, args.interleave)
                on_disk = source.stat().st_size / 1_000_000
                output = work / f"out{SUFFIXES[fmt]}"
                measure = [sys.executable, os.path.abspath(__file__), "--measure", str(source), str(output)]
                measure += ["--pipeline", args.pipeline, "--chunk-size", str(args.chunk_size)]
                result = json.loads(subprocess.run(measure, check=True, capture_output=True, text=True).stdout)
                peaks.append(result["peak_rss_mb"])
                print(
                    f"{fmt:8s} {size:5d} MB ({on_disk:6.1f} MB file)  {notes:7d} notes  {result['wall_s']:7.1f} s  "
                    f"peak RSS {result['peak_rss_mb']:7.1f} MB",
                    flush=True,
                )
                source.unlink()
                output.unlink()
            if len(peaks) > 1:
                print(f"{fmt}: peak RSS growth from the smallest to the largest input: {peaks[-1] - peaks[0]:.1f} MB")


if __name__ == "__main__":
    main()
