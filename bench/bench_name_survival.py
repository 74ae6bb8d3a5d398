"""How often a person's name, or part of it, survives de-identification, by layout (issue 22).

    python bench/bench_name_survival.py [--notes 200] [--seed 3] [--pipeline default] [--model DIR]

Invented notes (``deident.synth.name_layouts``: prose, "Patient:" fields, "Last, First", list items, one-case
notes, tabs, no-break spaces, quotes), half with names from faker's locales and half with pseudo-word names
that no lexicon knows. A name token *survives* when one of its characters is covered by no detected span (of any
label): in tag or surrogate mode it is then printed as it was. Per layout: the share of notes in which some
name token survives, the share in which a name is *half replaced* (one token of a name covered, another not:
the worst case, a surrogate beside the real surname), and the share of all name tokens that survive.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

from deident.api import Deidentifier
from deident.core.document import AnnotatedDocument
from deident.core.span import Span
from deident.synth.name_layouts import LAYOUTS, layout_corpus

_TOKEN = re.compile(r"[^\s,;:()'\"]+")


def survival(note: AnnotatedDocument, found: tuple[Span, ...]) -> tuple[int, int, bool]:
    """(name tokens, surviving tokens, some name half replaced) of one note."""
    covered = bytearray(len(note.text))
    for span in found:
        covered[span.start : span.end] = b"\x01" * (span.end - span.start)
    tokens = survived = 0
    half = False
    for gold in note.spans:
        states = []
        for match in _TOKEN.finditer(note.text, gold.start, gold.end):
            kept = not all(covered[match.start() : match.end()])
            states.append(kept)
        tokens += len(states)
        survived += sum(states)
        half = half or (any(states) and not all(states))
    return tokens, survived, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notes", type=int, default=200, help="notes per layout")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--pipeline", default="default")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    deid = Deidentifier.load(args.model, pipeline=args.pipeline, scheme="i2b2-2014")
    # per layout: notes, notes with a survivor, notes with a half-replaced name, name tokens, surviving tokens
    by_layout: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for note in layout_corpus(args.notes, args.seed):
        layout = note.id.rsplit("-", 1)[0]
        tokens, survived, half = survival(note, deid.detect(note.document))
        counts = (1, int(survived > 0), int(half), tokens, survived)
        by_layout[layout] = [a + b for a, b in zip(by_layout[layout], counts, strict=True)]
    print(f"{args.pipeline} pipeline, {args.notes} invented notes per layout (seed {args.seed})")
    print(f"{'layout':16} {'notes with a survivor':>22} {'half replaced':>14} {'tokens surviving':>17}")
    results: dict[str, dict[str, float]] = {}
    total = [0] * 5
    for layout in [*LAYOUTS, "all"]:
        if layout != "all":
            total = [a + b for a, b in zip(total, by_layout[layout], strict=True)]
        notes, leaking, half_done, tokens, surviving = total if layout == "all" else by_layout[layout]
        row = {"notes_leaking": leaking / notes, "half_replaced": half_done / notes, "tokens": surviving / tokens}
        results[layout] = row
        print(f"{layout:16} {row['notes_leaking']:>22.1%} {row['half_replaced']:>14.1%} {row['tokens']:>17.2%}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
