"""Issue 4 target: CRF tagging throughput on one core, including tokenisation and features.

Tags physionet-dev with a CRF model (default: the bundled one) and prints MB/s (CPU time of this
process, so other jobs on a shared machine count less) for the whole ``crf`` detector, for the
``crf`` stage given the pattern and lexicon spans already found (as in a full pipeline), and seconds
for the parts: span-provider hits (the pattern and lexicon detectors the model uses as features),
tokens, tokens to marginals (the compiled path), and the feature strings that training and the
reference path build. ``--check`` verifies that the fast path gives the reference path's marginals
(within 1e-9) and spans (at the model's threshold and at 0.005), and the stage the detector's spans,
on every note. Tagging the training corpus gives optimistic accuracy; accuracy figures come from
``deident cv``.

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
from deident.detect.crf.features import crf_token_columns
from deident.detect.crf.tagger import CrfDetector, CrfModel, TaggedDocument, spans_from_marginals
from deident.model import default_model_dir


def _best(fn: Callable[[], object], repeat: int) -> float:
    """Least CPU seconds of ``repeat`` runs."""
    timings = []
    for _ in range(repeat):
        started = time.process_time()
        fn()
        timings.append(time.process_time() - started)
    return min(timings)


TOLERANCE = 1e-9


def _marginals_differ(fast: TaggedDocument, slow: TaggedDocument, floor: float) -> bool:
    """True when the tokens differ or a marginal differs by more than :data:`TOLERANCE` (a token within
    the tolerance of the floor may carry per-label marginals on one side only)."""
    if fast.tokens != slow.tokens or len(fast.groups) != len(slow.groups):
        return True
    for mine, theirs in zip(fast.groups, slow.groups, strict=True):
        if len(mine.phi) != len(theirs.phi):
            return True
        if any(abs(a - b) > TOLERANCE for a, b in zip(mine.phi, theirs.phi, strict=True)):
            return True
        for t in mine.labels.keys() | theirs.labels.keys():
            a, b = mine.labels.get(t), theirs.labels.get(t)
            if a is None or b is None:
                if abs(theirs.phi[t] - floor) > TOLERANCE:
                    return True
            elif a.keys() != b.keys() or any(abs(a[k] - b[k]) > TOLERANCE for k in b):
                return True
    return False


def check(model: CrfModel, docs: list[Any]) -> dict[str, Any]:
    """Documents where the fast path and the reference path differ: marginals by more than 1e-9, spans
    at the model's threshold and at 0.005 at all; and where the stage and the detector differ."""
    detector = CrfDetector(model)
    stage = crf_tagger.CrfStage(model)
    counts: dict[str, Any] = {
        "documents": len(docs),
        "tolerance": TOLERANCE,
        "marginals_differ": 0,
        "max_abs_difference": 0.0,
        "spans_differ": 0,
        "spans_differ_at_0.005": 0,
        "stage_differs": 0,
    }
    for d in docs:
        doc = d.document
        fast = model.tag(doc)
        slow = crf_tagger.tag_reference(model, doc)
        counts["marginals_differ"] += _marginals_differ(fast, slow, crf_tagger._FLOOR)
        for mine, theirs in zip(fast.groups, slow.groups, strict=True):
            gap = max((abs(a - b) for a, b in zip(mine.phi, theirs.phi, strict=True)), default=0.0)
            counts["max_abs_difference"] = max(counts["max_abs_difference"], gap)
        limit = model.threshold
        spans = detector.detect(doc)
        counts["spans_differ"] += spans != spans_from_marginals(doc.text, tag_reference_at(model, doc, limit), limit)
        low = spans_from_marginals(doc.text, tag_reference_at(model, doc, 0.005), 0.005)
        counts["spans_differ_at_0.005"] += model.spans(doc, 0.005) != low
        hits = sort_spans(s for p in model.extractor.providers for s in p.detect(doc))
        counts["stage_differs"] += stage(doc, hits) != sort_spans((*hits, *spans))
    return counts


def tag_reference_at(model: CrfModel, doc: Any, floor: float) -> TaggedDocument:
    return crf_tagger.tag_reference(model, doc, floor=floor)


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
    provider_seconds = _best(lambda: [p.detect(d.document) for d in docs for p in providers], args.repeat)
    aggressive = model.extractor.config.aggressive
    token_seconds = _best(lambda: [crf_token_columns(d.text, aggressive) for d in docs], args.repeat)
    compiled = model._compiled()
    marginal_seconds = None
    if compiled is not None:
        marginal_seconds = _best(
            lambda: [compiled.crf.marginals(d.document, hits=h) for d, h in zip(docs, hits, strict=True)], args.repeat
        )
    bare = replace(model.extractor, providers=())
    for d in docs:
        bare.extract(d.document)  # fill the per-word memo as a long run would
    strings = _best(lambda: [bare.extract(d.document) for d in docs], args.repeat)
    summary: dict[str, Any] = {
        "documents": len(docs),
        "megabytes": round(mb, 3),
        "providers": list(model.extractor.provider_names),
        "clock": "process_time",
        "compiled": compiled is not None,
        "detector_mb_per_s": round(mb / total, 3),
        "stage_given_provider_spans_mb_per_s": round(mb / staged, 3) if staged else None,
        "provider_hits_mb_per_s": round(mb / provider_seconds, 3) if provider_seconds > 0 else None,
        "tokens_seconds": round(token_seconds, 3),
        "marginals_given_hits_seconds": round(marginal_seconds, 3) if marginal_seconds is not None else None,
        "feature_strings_seconds": round(strings, 3),
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
    print(f"span-provider hits:        {summary['provider_hits_mb_per_s']} MB/s ({provider_seconds:.2f} s)")
    to_marginals = f"{marginal_seconds:.2f} s" if marginal_seconds is not None else "n/a (not compiled)"
    print(f"parts of the stage: tokens {token_seconds:.2f} s; tokens to marginals {to_marginals}")
    print(f"feature strings (training and reference path only): {strings:.2f} s")
    if args.check:
        print(f"check: {summary['check']}")


if __name__ == "__main__":
    main()
