"""How well the residual-risk audit points at what the pipeline missed (issue 19).

    python bench/audit_residual.py [--corpus ../shared/corpora/physionet-dev/physionet-dev.text] [--share 0.01]
        [--pipeline default]

Runs a pipeline on a gold corpus, treats its spans as the replaced text, and audits what is left
(with the stage-1 candidates of the same notes). A *remaining true miss* is a token (deident's tokenizer) that
overlaps a gold span and no detected span. Prints, as JSON, the number of audited tokens and misses, the share
of the misses among the audit's top ``share`` of ranked tokens (a random ranking would give ``share``), and how
many of the pipeline's false positives the review page marks uncertain.
Read only the dev corpus with this; the evaluation corpus stays sealed.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from deident.api import Deidentifier
from deident.core.document import AnnotatedDocument
from deident.core.span import Span
from deident.io.formats import read_corpus
from deident.review.audit import RiskClass, audit
from deident.review.session import is_uncertain
from deident.text.tokenize import tokenize

DEV = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "physionet-dev" / "physionet-dev.text"


def _false_positive(note: AnnotatedDocument, span: Span) -> bool:
    return not any(g.start < span.end and span.start < g.end for g in note.spans)


def _shape(text: str, start: int) -> str:
    """The token's shape: letters as a/A, digits as 9 (no text)."""
    token = next(t for t in tokenize(text[start : start + 64]) if t.start == 0).text
    return "".join("A" if c.isupper() else "a" if c.isalpha() else "9" if c.isdigit() else c for c in token)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEV)
    parser.add_argument("--pipeline", default="default", help="the pipeline whose output is audited")
    parser.add_argument("--share", type=float, nargs="+", default=[0.01, 0.05])
    args = parser.parse_args()
    gold = read_corpus(args.corpus)
    documents = [g.document for g in gold]
    began = time.perf_counter()
    # The PhysioNet gold's convention, as the audited figures were measured (the users' default is hipaa).
    detected = Deidentifier.load(pipeline=args.pipeline, scheme="physionet").detect_many(documents)
    candidates = Deidentifier.load(pipeline="stage1", scheme="physionet").detect_many(documents)
    outputs = [g.with_spans(spans) for g, spans in zip(gold, detected, strict=True)]
    result = audit(outputs, candidates)
    misses: set[tuple[str, int]] = set()
    for note, found in zip(gold, detected, strict=True):
        for token in tokenize(note.text):
            in_gold = any(s.start < token.end and token.start < s.end for s in note.spans)
            in_found = any(s.start < token.end and token.start < s.end for s in found)
            if in_gold and not in_found:
                misses.add((note.id, token.start))
    out: dict[str, object] = {
        "pipeline": args.pipeline,
        "documents": len(gold),
        "tokens_audited": result.tokens_audited,
        "risky_tokens": len(result.items),
        "remaining_true_misses": len(misses),
        "by_class": result.counts_by_class(),
        "seconds": round(time.perf_counter() - began, 1),
    }
    for share in args.share:
        top = result.top(share)
        caught = sum(1 for item in top if (item.document, item.start) in misses)
        out[f"top_{share:g}"] = {
            "tokens": len(top),
            "misses_caught": caught,
            "share_of_misses": round(caught / len(misses), 4) if misses else None,
        }
    flagged = {(i.document, i.start): i for i in result.items}
    out["misses_by_class"] = {
        c.value: sum(1 for m in misses if m in flagged and c in flagged[m].classes) for c in RiskClass
    }
    out["misses_not_flagged"] = sum(1 for m in misses if m not in flagged)
    # shapes only (never the text): what kind of token was missed and where it ranked
    rank = {(i.document, i.start): n for n, i in enumerate(result.items)}
    texts = {g.id: g.text for g in gold}
    out["miss_ranks"] = sorted(rank.get(m, -1) for m in misses)[:50]
    out["miss_shapes"] = sorted(_shape(texts[d], s) for d, s in misses)[:50]
    # the review page's uncertain spans (filter probability within 0.15 of its threshold): how many are false
    # positives (overlapping no gold span), against all false positives
    kept = [(note, span) for note, found in zip(gold, detected, strict=True) for span in found]
    uncertain = [(note, span) for note, span in kept if is_uncertain(span)]
    out["spans"] = len(kept)
    out["uncertain_spans"] = len(uncertain)
    out["false_positives"] = sum(1 for note, span in kept if _false_positive(note, span))
    out["uncertain_false_positives"] = sum(1 for note, span in uncertain if _false_positive(note, span))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
