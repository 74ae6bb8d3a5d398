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

The best-of-N figures tag text the per-word-type tables have already seen. The cold figure is the
honest one for a stream of unseen notes: the stage's FIRST pass over the corpus in a fresh process
(``--cold-pass``, run as a subprocess), after warming the numba kernels, the lexicons and wordfreq on
a few synthetic notes only; it reports that process's second pass too, for comparison.

    python bench/bench_crf.py [--model DIR] [--repeat 3] [--json] [--check] [--no-cold]
    python bench/bench_crf.py --cold-pass [--model DIR]   # the cold measurement alone (JSON)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from common import load_corpus, megabytes

from deident.core.document import Document
from deident.core.span import sort_spans
from deident.detect.crf import tagger as crf_tagger
from deident.detect.crf.features import crf_token_columns
from deident.detect.crf.tagger import CrfModel, TaggedDocument, spans_from_marginals
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
    at the model's threshold and at 0.005 at all; and where the stage given the provider spans and the
    model alone differ."""
    stage = _stage_after_rules(model)
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
        spans = model.spans(doc)
        counts["spans_differ"] += spans != spans_from_marginals(doc.text, tag_reference_at(model, doc, limit), limit)
        low = spans_from_marginals(doc.text, tag_reference_at(model, doc, 0.005), 0.005)
        counts["spans_differ_at_0.005"] += model.spans(doc, 0.005) != low
        hits = sort_spans(s for p in model.extractor.providers for s in p.detect(doc))
        counts["stage_differs"] += stage(doc, hits) != sort_spans((*hits, *spans))
    return counts


def _stage_after_rules(model: CrfModel) -> Any:
    """The ``crf`` stage taking the provider hits from the spans so far (None in checkouts before the stage;
    there it always did, and took no ``after_rules``)."""
    stage_class = getattr(crf_tagger, "CrfStage", None)
    if stage_class is None:
        return None
    try:
        return stage_class(model, after_rules=True)
    except TypeError:
        return stage_class(model)


def tag_reference_at(model: CrfModel, doc: Any, floor: float) -> TaggedDocument:
    return crf_tagger.tag_reference(model, doc, floor=floor)


# Warm-up notes for the cold pass (synthetic: none of the corpus's words are seen before timing).
_WARM_UP_NOTES = (
    "Pt seen by Dr. Quimby on 3/14/2093 at 10:30. BP 120/80, HR 80s SR.\nWife Agatha at bedside, "
    "updated on plan. Call 617-555-0199 with questions.\nNeuro: A&Ox3, MAE.\nPlan: continue lasix.\n",
    "NURSING NOTE 7P-7A\nPT ALERT, FOLLOWS COMMANDS. SON BERTRAM CALLED FOR UPDATE.\nRESP: LS CLEAR, "
    "SATS 97% ON 2L NC.\nGI: ABD SOFT, +BS. TF AT GOAL.\n",
    "npn 0700-1900: pt 57yo m s/p cabg x3 on 2/2. seen by dr pemberton; family (daughter delphine) "
    "in to visit. mrn 1234567.\n",
)


def cold_pass(model_dir: str | None) -> dict[str, Any]:
    """The ``crf`` stage's first pass over the corpus in this (fresh) process, CPU seconds, after a
    warm-up on synthetic notes only; then a second pass over the same notes."""
    started = time.process_time()
    docs = load_corpus()
    model = CrfModel.load(model_dir or default_model_dir())
    stage = _stage_after_rules(model)
    providers = model.extractor.providers
    for i, text in enumerate(_WARM_UP_NOTES):
        note = Document(f"warm-up-{i}", text)
        stage(note, tuple(sort_spans(s for p in providers for s in p.detect(note))))
    # The pattern and lexicon spans, as the stages before the CRF give them (not timed).
    hits = [tuple(sort_spans(s for p in providers for s in p.detect(d.document))) for d in docs]
    setup = time.process_time() - started
    compiled = model._compiled()
    table = compiled.crf._table if compiled is not None else None
    types_before = table.size if table is not None else None

    def one_pass() -> float:
        begun = time.process_time()
        for d, h in zip(docs, hits, strict=True):
            stage(d.document, h)
        return time.process_time() - begun

    first = one_pass()
    types_after = compiled.crf._table.size if compiled is not None else None
    second = one_pass()
    mb = megabytes(docs)
    return {
        "documents": len(docs),
        "megabytes": round(mb, 3),
        "clock": "process_time",
        "setup_seconds": round(setup, 3),
        "word_types_before": types_before,
        "word_types_after_first_pass": types_after,
        "cold_first_pass_seconds": round(first, 3),
        "cold_first_pass_mb_per_s": round(mb / first, 3),
        "same_process_second_pass_seconds": round(second, 3),
        "same_process_second_pass_mb_per_s": round(mb / second, 3),
    }


def run_cold_pass(model_dir: str | None) -> dict[str, Any]:
    """:func:`cold_pass` in a fresh Python process."""
    command = [sys.executable, __file__, "--cold-pass"]
    if model_dir:
        command += ["--model", model_dir]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default=None, help="model directory (default: the bundled model)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--check", action="store_true", help="also compare fast and reference paths")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold first-pass measurement")
    parser.add_argument("--cold-pass", action="store_true", help="only the cold first pass, in this process")
    args = parser.parse_args()
    if args.cold_pass:
        print(json.dumps(cold_pass(args.model)))
        return
    cold = None if args.no_cold else run_cold_pass(args.model)  # first, while no other work ran
    docs = load_corpus()
    model = CrfModel.load(args.model or default_model_dir())
    model.spans(docs[0].document)  # warm-up: loads lexicons, wordfreq, opens the CRF
    mb = megabytes(docs)
    total = _best(lambda: [model.spans(d.document) for d in docs], args.repeat)
    providers = model.extractor.providers
    hits = [sort_spans(s for p in providers for s in p.detect(d.document)) for d in docs]
    stage = _stage_after_rules(model)
    staged = None
    if stage is not None:
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
    if cold is not None:
        summary["cold"] = cold
    if args.check:
        summary["check"] = check(model, docs)
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(f"CRF on {len(docs)} notes ({mb:.2f} MB), best of {args.repeat}, one core, CPU time")
    print(f"crf detector (runs providers):  {summary['detector_mb_per_s']:.3f} MB/s ({total:.2f} s)")
    if staged:
        print(f"crf stage (given provider spans): {summary['stage_given_provider_spans_mb_per_s']:.3f} MB/s")
    if cold is not None:
        print(
            f"crf stage, cold first pass in a fresh process: {cold['cold_first_pass_mb_per_s']:.3f} MB/s "
            f"({cold['cold_first_pass_seconds']:.2f} s; {cold['word_types_after_first_pass']} word types); "
            f"its second pass {cold['same_process_second_pass_mb_per_s']:.3f} MB/s"
        )
    print(f"span-provider hits:        {summary['provider_hits_mb_per_s']} MB/s ({provider_seconds:.2f} s)")
    to_marginals = f"{marginal_seconds:.2f} s" if marginal_seconds is not None else "n/a (not compiled)"
    print(f"parts of the stage: tokens {token_seconds:.2f} s; tokens to marginals {to_marginals}")
    print(f"feature strings (training and reference path only): {strings:.2f} s")
    if args.check:
        print(f"check: {summary['check']}")


if __name__ == "__main__":
    main()
