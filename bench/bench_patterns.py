"""Measure the pattern detectors on a PhysioNet-format corpus: per-family recall and precision, and throughput.

Recall: share of gold spans of the family's labels that one of the family's spans fully contains.
Precision: share of the family's spans that overlap any gold span (of any label).
Throughput: note text processed per second by all pattern detectors, on one core.
Nothing from the notes is printed.

    .venv/bin/python bench/bench_patterns.py [../shared/corpora/physionet-dev/physionet-dev.text]
"""

from __future__ import annotations

import argparse
import bisect
import time
from collections.abc import Sequence
from pathlib import Path

from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.patterns import combined_pattern_detector, pattern_detectors
from deident.io import read_corpus

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "physionet-dev" / "physionet-dev.text"

# Which gold labels each family is responsible for (PhysioNet types mapped to deident labels).
FAMILY_GOLD: dict[str, frozenset[Label]] = {
    "patterns.date": frozenset({Label.DATE}),
    "patterns.contact": frozenset({Label.PHONE, Label.FAX, Label.EMAIL, Label.URL, Label.IPADDR}),
    "patterns.id": frozenset({Label.IDNUM, Label.SSN, Label.MEDICALRECORD, Label.ACCOUNT, Label.HEALTHPLAN}),
    "patterns.age": frozenset({Label.AGE}),
    "patterns.location": frozenset({Label.LOCATION_OTHER, Label.CITY, Label.STATE, Label.STREET, Label.ZIP}),
    "patterns.name": frozenset({Label.DOCTOR, Label.PATIENT, Label.RELATIVE}),
}


def _overlaps_any(span: Span, gold_sorted: Sequence[Span], starts: Sequence[int]) -> bool:
    i = bisect.bisect_left(starts, span.end)
    return any(g.end > span.start for g in gold_sorted[max(0, i - 50) : i])


def _contained(gold: Span, spans: Sequence[Span]) -> bool:
    return any(s.start <= gold.start and gold.end <= s.end for s in spans)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=1, help="timing passes (the best is reported)")
    args = parser.parse_args(argv)

    docs = list(read_corpus(args.corpus))
    detectors = pattern_detectors()
    n_chars = sum(len(d.text) for d in docs)
    n_bytes = sum(len(d.text.encode("utf-8")) for d in docs)

    for det in detectors:  # warm up: compile patterns and load word lists outside the timing
        det.detect(docs[0].document)
    # CPU time of this process: on a shared machine wall time also counts other processes' work.
    best_cpu = best_wall = float("inf")
    predicted: dict[str, list[Sequence[Span]]] = {}
    family_cpu: dict[str, float] = {}
    for _ in range(max(1, args.repeat)):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        predicted = {d.name: [] for d in detectors}
        pass_cpu = {d.name: 0.0 for d in detectors}
        for doc in docs:
            for det in detectors:
                t = time.process_time()
                predicted[det.name].append(det.detect(doc.document))
                pass_cpu[det.name] += time.process_time() - t
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        if cpu < best_cpu:
            best_cpu, family_cpu = cpu, pass_cpu
        best_wall = min(best_wall, wall)

    mb = n_bytes / 1e6
    print(f"corpus: {len(docs)} notes, {n_chars} chars ({mb:.2f} MB)")
    header = ("family", "gold", "found", "recall", "spans", "overlap", "precision", "MB/s")
    print("{:<18} {:>5} {:>5} {:>7} {:>6} {:>7} {:>9} {:>7}".format(*header))
    row = "{:<18} {:>5} {:>5} {:>7.3f} {:>6} {:>7} {:>9.3f} {:>7}"
    all_spans_by_doc: list[list[Span]] = [[] for _ in docs]
    for det in detectors:
        labels = FAMILY_GOLD[det.name]
        gold_n = found = spans_n = hit = 0
        for i, doc in enumerate(docs):
            spans = predicted[det.name][i]
            all_spans_by_doc[i].extend(spans)
            gold = [g for g in doc.spans if g.label in labels]
            gold_n += len(gold)
            found += sum(_contained(g, spans) for g in gold)
            starts = [g.start for g in doc.spans]
            spans_n += len(spans)
            hit += sum(_overlaps_any(s, doc.spans, starts) for s in spans)
        recall = found / gold_n if gold_n else float("nan")
        precision = hit / spans_n if spans_n else float("nan")
        print(row.format(det.name, gold_n, found, recall, spans_n, hit, precision, f"{mb / family_cpu[det.name]:.1f}"))
    gold_n = sum(len(d.spans) for d in docs)
    found = sum(sum(_contained(g, all_spans_by_doc[i]) for g in d.spans) for i, d in enumerate(docs))
    spans_n = sum(len(s) for s in all_spans_by_doc)
    hit = sum(
        sum(_overlaps_any(s, d.spans, [g.start for g in d.spans]) for s in all_spans_by_doc[i])
        for i, d in enumerate(docs)
    )
    print(row.format("all families", gold_n, found, found / gold_n, spans_n, hit, hit / spans_n, ""))
    weekday = [s for spans in predicted["patterns.date"] for s in spans if s.evidence[0] == "pattern:date.weekday"]
    print(f"(of the DATE spans, {len(weekday)} are weekdays, which PhysioNet does not annotate)")
    print(
        f"throughput, all pattern detectors, one core: {mb / best_cpu:.2f} MB/s CPU time ({best_cpu:.2f} s); ", end=""
    )
    print(f"{mb / best_wall:.2f} MB/s wall clock ({best_wall:.2f} s, machine shared)")
    combined = combined_pattern_detector()
    combined.detect(docs[0].document)
    combined_cpu = float("inf")
    for _ in range(max(1, args.repeat)):
        cpu0 = time.process_time()
        for doc in docs:
            combined.detect(doc.document)
        combined_cpu = min(combined_cpu, time.process_time() - cpu0)
    print(f"throughput, combined_pattern_detector (one pass, same spans): {mb / combined_cpu:.2f} MB/s CPU time")


if __name__ == "__main__":
    main()
