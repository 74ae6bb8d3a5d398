"""Issue 4 target: CRF tagging throughput on one core, including tokenisation and features.

Tags physionet-dev with a CRF model (default: the bundled one) and prints MB/s (CPU time of this
process, so other jobs on a shared machine count less) for the whole ``crf`` detector, for the
``crf`` stage given the pattern and lexicon spans already found (as in a full pipeline), and for the
parts: tokens + own features, span-provider hits (the pattern and lexicon detectors the model uses
as features), and crfsuite marginals. ``--check`` verifies that the fast path gives the reference
path's marginals and spans, and the stage the detector's spans, on every note. Tagging the training
corpus gives optimistic accuracy; accuracy figures come from ``deident cv``.

    python bench/bench_crf.py [--model DIR] [--repeat 3] [--json] [--check]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from common import load_corpus, megabytes

from deident.core.span import sort_spans
from deident.detect.crf import tagger as crf_tagger
from deident.detect.crf.tagger import CrfDetector, CrfModel, spans_from_marginals
from deident.model import default_model_dir


def _best(fn: Callable[[], object], repeat: int) -> float:
    """Least CPU seconds of ``repeat`` runs."""
    timings = []
    for _ in range(repeat):
        started = time.process_time()
        fn()
        timings.append(time.process_time() - started)
    return min(timings)


def check(model: CrfModel, docs: list[Any]) -> dict[str, int]:
    """Documents where the fast path and the reference path (or the stage and the detector) differ."""
    detector = CrfDetector(model)
    stage = crf_tagger.CrfStage(model)
    counts = {"documents": len(docs), "marginals_differ": 0, "spans_differ": 0, "stage_differs": 0}
    for d in docs:
        doc = d.document
        fast = model.tag(doc)
        slow = crf_tagger.tag_reference(model, doc)
        counts["marginals_differ"] += fast != slow
        limit = model.threshold
        spans = detector.detect(doc)
        counts["spans_differ"] += spans != spans_from_marginals(doc.text, slow, limit)
        hits = sort_spans(s for p in model.extractor.providers for s in p.detect(doc))
        counts["stage_differs"] += stage(doc, hits) != sort_spans((*hits, *spans))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default=None, help="model directory (default: the bundled model)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--check", action="store_true", help="also compare fast and reference paths")
    args = parser.parse_args()
    docs = load_corpus()
    model = CrfModel.load(args.model or default_model_dir())
    detector = CrfDetector(model)
    detector.detect(docs[0].document)  # warm-up: loads lexicons, wordfreq, opens the CRF
    mb = megabytes(docs)
    total = _best(lambda: [detector.detect(d.document) for d in docs], args.repeat)
    providers = model.extractor.providers
    hits = [sort_spans(s for p in providers for s in p.detect(d.document)) for d in docs]
    stage_class = getattr(crf_tagger, "CrfStage", None)  # absent in checkouts before the stage
    staged = None
    if stage_class is not None:
        stage = stage_class(model)
        staged = _best(lambda: [stage(d.document, h) for d, h in zip(docs, hits, strict=True)], args.repeat)
    bare = replace(model.extractor, providers=())
    for d in docs:
        bare.extract(d.document)  # fill the per-word memo as a long run would
    own = _best(lambda: [bare.extract(d.document) for d in docs], args.repeat)
    provider_seconds = _best(lambda: [p.detect(d.document) for d in docs for p in providers], args.repeat)
    summary: dict[str, Any] = {
        "documents": len(docs),
        "megabytes": round(mb, 3),
        "providers": list(model.extractor.provider_names),
        "clock": "process_time",
        "detector_mb_per_s": round(mb / total, 3),
        "stage_given_provider_spans_mb_per_s": round(mb / staged, 3) if staged else None,
        "own_features_mb_per_s": round(mb / own, 3),
        "provider_hits_mb_per_s": round(mb / provider_seconds, 3) if provider_seconds > 0 else None,
        "crfsuite_and_spans_seconds": round(max(total - own - provider_seconds, 0.0), 3),
        "detector_seconds_best": round(total, 3),
        "stage_seconds_best": round(staged, 3) if staged else None,
    }
    if args.check:
        summary["check"] = check(model, docs)
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(f"CRF on {len(docs)} notes ({mb:.2f} MB), best of {args.repeat}, one core, CPU time")
    print(f"crf detector (runs providers):  {summary['detector_mb_per_s']:.3f} MB/s ({total:.2f} s)")
    if staged:
        print(f"crf stage (given provider spans): {summary['stage_given_provider_spans_mb_per_s']:.3f} MB/s")
    print(f"tokens + own features:     {summary['own_features_mb_per_s']:.3f} MB/s ({own:.2f} s)")
    print(f"span-provider hits:        {summary['provider_hits_mb_per_s']} MB/s ({provider_seconds:.2f} s)")
    print(f"crfsuite marginals, spans: {summary['crfsuite_and_spans_seconds']:.2f} s")
    if args.check:
        print(f"check: {summary['check']}")


if __name__ == "__main__":
    main()
