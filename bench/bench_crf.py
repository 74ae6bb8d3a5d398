"""Issue 4 target: CRF tagging throughput on one core, including tokenisation and features.

Tags physionet-dev with a CRF model (default: the bundled one) and prints MB/s for the whole
detector, and separately for the parts: tokens + own features, span-provider hits (the pattern and
lexicon detectors the model uses as features), and crfsuite marginals. Note that tagging the
training corpus gives optimistic accuracy; accuracy figures come from ``deident cv``.

    python bench/bench_crf.py [--model DIR] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

from common import load_corpus, megabytes, run_timed

from deident.detect.crf.tagger import CrfDetector, CrfModel
from deident.model import default_model_dir


def _best(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        timings.append(time.perf_counter() - started)
    return min(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default=None, help="model directory (default: the bundled model)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    docs = load_corpus()
    model = CrfModel.load(args.model or default_model_dir())
    detector = CrfDetector(model)
    detector.detect(docs[0].document)  # warm-up: loads lexicons, wordfreq, opens the CRF
    mb = megabytes(docs)
    total = min(run_timed(detector.detect, docs)[1] for _ in range(args.repeat))
    bare = replace(model.extractor, providers=())
    for d in docs:
        bare.extract(d.document)  # fill the per-word memo as a long run would
    own = _best(lambda: [bare.extract(d.document) for d in docs], args.repeat)
    providers = _best(lambda: [p.detect(d.document) for d in docs for p in model.extractor.providers], args.repeat)
    summary = {
        "documents": len(docs),
        "megabytes": round(mb, 3),
        "providers": list(model.extractor.provider_names),
        "detector_mb_per_s": round(mb / total, 3),
        "own_features_mb_per_s": round(mb / own, 3),
        "provider_hits_mb_per_s": round(mb / providers, 3) if providers > 0 else None,
        "crfsuite_and_spans_seconds": round(max(total - own - providers, 0.0), 3),
        "seconds_best": round(total, 3),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(f"CRF detector on {len(docs)} notes ({mb:.2f} MB), best of {args.repeat}, one core")
    print(f"whole detector:            {summary['detector_mb_per_s']:.3f} MB/s ({total:.2f} s)")
    print(f"tokens + own features:     {summary['own_features_mb_per_s']:.3f} MB/s ({own:.2f} s)")
    print(f"span-provider hits:        {summary['provider_hits_mb_per_s']} MB/s ({providers:.2f} s)")
    print(f"crfsuite marginals, spans: {summary['crfsuite_and_spans_seconds']:.2f} s")


if __name__ == "__main__":
    main()
