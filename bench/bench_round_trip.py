"""Every note in, every note out: synthetic notes through every corpus format and back (issue 23).

    python bench/bench_round_trip.py [--notes 2000] [--seed 3] [--work DIR]

``deident synth`` notes, given note dates and an extra metadata field, half without a note id, are written in
each format and read back as ``deident convert`` reads them (labels a format folds restored from its side
file). Per format: whether ids, text, spans, labels and metadata come back identical (table formats add their
documented ``table:*`` layout fields, which are left out of the comparison), and whether ``run --mode
surrogate`` under one key gives the same output for the round-tripped notes as for the originals.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from deident.api import Deidentifier
from deident.core.document import AnnotatedDocument, Document
from deident.io.formats import ReadOptions, read_corpus, write_corpus
from deident.replace.keys import SecretKey
from deident.replace.modes import Mode
from deident.replace.replacer import ReplaceOptions
from deident.synth.generate import generate_corpus

TARGETS = {
    "jsonl": "c.jsonl",
    "physionet": "c.text",
    "i2b2-2014": "c14",
    "i2b2-2006": "c06.xml",
    "brat": "cbrat",
    "conll": "c.conll",
    "text": "ctxt",
    "csv": "c.csv",
    "parquet": "c.parquet",
}


def _key(docs: list[AnnotatedDocument]) -> list[Any]:
    out = []
    for d in docs:
        meta = d.document.metadata
        extra = tuple((k, v) for k, v in meta.extra if not k.startswith("table:"))
        spans = [(s.start, s.end, s.label.value) for s in d.spans]
        out.append((d.id, d.text, spans, replace(meta, extra=extra)))
    return out


def _notes(count: int, seed: int) -> list[AnnotatedDocument]:
    notes = []
    for i, d in enumerate(generate_corpus(count, seed)):
        meta = d.document.metadata
        day = dt.date(2010, 1, 1) + dt.timedelta(days=i)
        meta = replace(meta, note_date=day, note_id=None if i % 2 else meta.note_id)
        notes.append(AnnotatedDocument(Document(d.id, d.text, meta.with_extra(site=f"s{i % 3}")), d.spans))
    return notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--work", type=Path, default=None, help="keep the written corpora here")
    args = parser.parse_args()
    notes = _notes(args.notes, args.seed)
    key = SecretKey(hashlib.sha256(b"deident round-trip bench").digest())
    deid = Deidentifier.load(options=ReplaceOptions(mode=Mode.SURROGATE, key=key))
    reference = [r.text for r in deid.deidentify_many([d.document for d in notes], [d.spans for d in notes])]
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        print(f"{len(notes)} synthetic notes (seed {args.seed}) with patients, note dates and extra metadata")
        print(f"{'format':10} {'ids/text/spans/labels/metadata':>32} {'surrogate output':>18}")
        for fmt, name in TARGETS.items():
            path = work / name
            write_corpus(notes, path, fmt)
            back = read_corpus(path, fmt, ReadOptions(restore_labels=True))
            same = _key(back) == _key(notes)
            if fmt == "conll":  # CoNLL keeps tokens, not spacing: text and offsets cannot come back
                same_text = [d.text.split() for d in back] == [d.text.split() for d in notes]
                verdict = "tokens only (documented)" if same_text else "DIFFERS"
            else:
                verdict = "identical" if same else "DIFFERS"
            output = [r.text for r in deid.deidentify_many([d.document for d in back], [d.spans for d in back])]
            surrogate = "identical" if output == reference else ("n/a" if fmt == "conll" else "DIFFERS")
            print(f"{fmt:10} {verdict:>32} {surrogate:>18}")


if __name__ == "__main__":
    main()
