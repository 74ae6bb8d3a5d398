"""Equivalence guard for changes that must not change output (refactors, fast paths).

Runs the pipelines on three corpora and writes every span (offsets, label, source, score, evidence and,
for a merged candidate, its parts) and the surrogate-mode text, one JSON line per note, plus one
digest per (corpus, pipeline):

- physionet-dev (../shared/corpora; skipped without it): default, stage1, rules and crf pipelines,
  and the default pipeline's surrogate output under a fixed key;
- 2,000 synthetic notes (``deident synth --notes 2000 --seed 3``): default pipeline;
- a Unicode variant of physionet-dev (curly quotes, dashes, degree signs, accented letters and
  non-Latin words in three notes of four): default pipeline;
- physionet-dev re-identified with unseen surrogates (``deident reidentify --kind unseen --seed 5``): default
  pipeline. Its PHI is written in other forms than dev's own, so a change that alters no dev span can still
  alter these (a month and day before a full stop, lost by a change that moved no dev span).

    python bench/check_identical.py bench/out/identical/before   # on the reference commit
    python bench/check_identical.py bench/out/identical/after    # on the change
    diff bench/out/identical/before/digests.txt bench/out/identical/after/digests.txt
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from deident.api import Deidentifier
from deident.core.document import Document
from deident.core.span import Span
from deident.io.formats import read_corpus
from deident.replace import Mode, ReplaceOptions, SecretKey
from deident.synth.generate import generate_corpus
from deident.synth.reidentify import Kind, reidentify_corpus

DEV = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpora" / "physionet-dev" / "physionet-dev.text"
CHUNK = 200
KEY_HEX = "0123456789abcdef" * 4


def unicode_variant(documents: Sequence[Document]) -> list[Document]:
    """Three notes of four altered by position (no PHI added): symbols appended, ASCII quotes and
    dashes made typographic, or accented letters and a Greek word put into the text."""
    out = []
    for index, doc in enumerate(documents):
        text = doc.text
        kind = index % 4
        if kind == 1:
            text = text + " \u2019 \u00b0 \u2013"
        elif kind == 2:
            text = text.replace("'", "\u2019").replace(" - ", " \u2013 ").replace(" deg", " \u00b0")
        elif kind == 3:
            words = text.split(" ")
            for i in range(3, len(words), 7):
                words[i] = words[i].replace("e", "\u00e9", 1)
            text = " ".join(words) + " \u03c0\u03cc\u03bd\u03bf\u03c2"
        out.append(Document(doc.id, text, doc.metadata))
    return out


def chunks(documents: Sequence[Document]) -> Iterable[Sequence[Document]]:
    for start in range(0, len(documents), CHUNK):
        yield documents[start : start + CHUNK]


def span_row(span: Span) -> list[object]:
    row: list[object] = [span.start, span.end, span.label.value, span.source, span.score, list(span.evidence)]
    if span.parts:  # only merged candidates have parts: other spans' rows (and digests) read as before
        row.append([[p.source, p.label.value, p.start, p.end, p.score] for p in span.parts])
    return row


def run(deid: Deidentifier, documents: Sequence[Document], path: Path, surrogate: bool = False) -> tuple[str, str]:
    """The digest of the output (spans without evidence, or texts) and of the spans' evidence and parts."""
    digest, evidence = hashlib.md5(), hashlib.md5()
    with path.open("w", encoding="utf-8") as out:
        for block in chunks(documents):
            if surrogate:
                options = ReplaceOptions(mode=Mode.SURROGATE, key=SecretKey.from_text(KEY_HEX))
                results = deid.with_options(options).deidentify_many(block)
                rows: list[dict[str, Any]] = [{"id": d.id, "text": r.text} for d, r in zip(block, results, strict=True)]
            else:
                found = deid.detect_many(block)
                rows = [{"id": d.id, "spans": [span_row(s) for s in f]} for d, f in zip(block, found, strict=True)]
            for row in rows:
                line = json.dumps(row, ensure_ascii=True, sort_keys=True) + "\n"
                out.write(line)
                core = [s[:5] for s in row.get("spans", [])] if not surrogate else row["text"]
                digest.update(json.dumps([row["id"], core]).encode())
                evidence.update(json.dumps([s[5] if len(s) == 6 else s[5:] for s in row.get("spans", [])]).encode())
    return digest.hexdigest(), evidence.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--quick", action="store_true", help="200 notes of each corpus")
    parser.add_argument("--scheme", help="output scheme of every pipeline (default: deident's default)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    limit = 200 if args.quick else None
    synthetic: list[Document] = [d.document for d in generate_corpus(2000, 3)][:limit]
    dev: list[Document] = []
    unseen: list[Document] = []
    if DEV.exists():
        annotated = list(read_corpus(DEV))[:limit]
        dev = [d.document for d in annotated]
        unseen = [d.document for d in reidentify_corpus(annotated, 1, seed=5, kind=Kind.UNSEEN)]
    else:
        print(f"no {DEV}: physionet-dev and its variant skipped", file=sys.stderr)
    digests: list[str] = []
    models = {
        name: Deidentifier.load(pipeline=name, scheme=args.scheme) for name in ("default", "stage1", "rules", "crf")
    }
    jobs: list[tuple[str, str, list[Document], bool]] = []
    if dev:
        jobs += [("physionet-dev", name, dev, False) for name in models]
        jobs.append(("physionet-dev", "default-surrogate", dev, True))
        jobs.append(("physionet-dev-unicode", "default", unicode_variant(dev), False))
        jobs.append(("physionet-dev-unseen-seed5", "default", unseen, False))
    jobs.append(("synthetic-2000-seed3", "default", synthetic, False))
    for corpus, name, docs, surrogate in jobs:
        model = models[name.removesuffix("-surrogate")]
        digest, evidence = run(model, docs, args.out / f"{corpus}.{name}.jsonl", surrogate)
        line = f"{corpus:<24} {name:<18} {len(docs):>5} notes  output {digest}  evidence {evidence}"
        print(line, flush=True)
        digests.append(line)
    (args.out / "digests.txt").write_text("\n".join(digests) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
