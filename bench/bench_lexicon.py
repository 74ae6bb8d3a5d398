"""Benchmark the dictionary detectors and the veto stage on a corpus with gold PHI.

Prints, at the binary whitespace-token level: recall of NAME (DOCTOR/PATIENT/RELATIVE) and LOCATION
gold tokens by the lexicon spans with and without the veto, precision of the lexicon spans against
all gold PHI, and throughput (MB/s of note text per second of CPU time, time.process_time, so that other load on the
machine does not count). Only aggregate figures are printed.

Run: .venv/bin/python bench/bench_lexicon.py [../shared/corpora/physionet-dev/physionet-dev.text]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from deident.core.labels import Category
from deident.core.span import Span
from deident.detect.lexicon import lexicon_detectors, preload
from deident.io import read_corpus
from deident.stage1.veto import veto_stage
from deident.text.tokenize import whitespace_tokens

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "physionet-dev" / "physionet-dev.text"


def covered(tokens: list[tuple[int, int]], spans: tuple[Span, ...] | list[Span]) -> set[int]:
    """Indexes of tokens that overlap at least one span."""
    out: set[int] = set()
    ordered = sorted(spans, key=lambda s: s.start)
    j = 0
    for i, (start, end) in enumerate(tokens):
        while j < len(ordered) and ordered[j].end <= start:
            j += 1
        k = j
        while k < len(ordered) and ordered[k].start < end:
            if ordered[k].end > start:
                out.add(i)
                break
            k += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT))
    parser.add_argument("--min-score", type=float, default=None)
    args = parser.parse_args()
    items = read_corpus(args.corpus)
    detectors = lexicon_detectors() if args.min_score is None else lexicon_detectors(min_score=args.min_score)
    veto = veto_stage()
    t_load = time.perf_counter()
    preload()  # lazily loaded tables: timed apart, so throughput measures the steady state
    load_seconds = time.perf_counter() - t_load

    gold_tokens: Counter[str] = Counter()
    found: Counter[str] = Counter()
    found_veto: Counter[str] = Counter()
    pred = Counter[str]()
    seconds = 0.0
    total_bytes = 0
    for item in items:
        doc = item.document
        total_bytes += len(doc.text.encode("utf-8"))
        t0 = time.process_time()
        raw: list[Span] = []
        for det in detectors:
            raw.extend(det.detect(doc))
        kept = veto(doc, tuple(raw))
        seconds += time.process_time() - t0

        tokens = whitespace_tokens(doc.text)
        gold_any = covered(tokens, item.spans)
        for category in (Category.NAME, Category.LOCATION):
            gold = covered(tokens, [s for s in item.spans if s.category is category])
            gold_tokens[category.value] += len(gold)
            found[category.value] += len(gold & covered(tokens, raw))
            found_veto[category.value] += len(gold & covered(tokens, kept))
        for name, spans in (("raw", raw), ("veto", kept)):
            predicted = covered(tokens, spans)
            pred[f"{name}_pred"] += len(predicted)
            pred[f"{name}_tp"] += len(predicted & gold_any)

    print(f"notes: {len(items)}  text: {total_bytes / 1e6:.3f} MB")
    for category_name in ("NAME", "LOCATION"):
        n = gold_tokens[category_name]
        print(
            f"{category_name:8s} gold tokens {n:5d}  recall raw {found[category_name] / max(n, 1):.3f}"
            f"  recall after veto {found_veto[category_name] / max(n, 1):.3f}"
        )
    for name in ("raw", "veto"):
        p, tp = pred[f"{name}_pred"], pred[f"{name}_tp"]
        print(f"precision ({name}): {tp / max(p, 1):.3f}  ({tp}/{p} predicted tokens are gold PHI)")
    print(f"one-off loading of tables: {load_seconds:.2f} s")
    print(
        f"throughput (detectors + veto, CPU time, first pass, fuzzy cache cold): {total_bytes / 1e6 / seconds:.2f} MB/s"
    )
    warm = []
    for _ in range(3):
        t0 = time.process_time()
        for item in items:
            veto(item.document, tuple(s for det in detectors for s in det.detect(item.document)))
        warm.append(time.process_time() - t0)
    print(f"throughput (CPU time, caches warm, best of 3): {total_bytes / 1e6 / min(warm):.2f} MB/s")


if __name__ == "__main__":
    main()
