"""Robustness beyond the training corpus: the default pipeline on synthetic notes of four styles.

``deident.synth`` writes discharge summaries, nursing notes, psychiatric notes and message-board posts
with i2b2/UTHealth 2014 annotations (every category: professions, usernames, departments, all ages).
The bundled model was trained on ICU nursing notes only, so these figures show how its rules, CRF
and filter carry over to other sources; they are optimistic where a detector's rules were written
with the generator's templates in view (usernames, USPS street suffixes, stated ages), so read them
as a check that nothing breaks on other styles, not as an accuracy claim. Needs no ../shared.

    python bench/bench_synthetic.py [--notes 400] [--seed 7] [--scheme i2b2-2014] [--variant unseen] [--json PATH]

``--variant KIND`` re-identifies the generated notes first (``deident reidentify --kind KIND``): with ``unseen``
every name and place is in no word list, Sibanda & Uzuner's out-of-dictionary test of what a detector learned
from context rather than from its lists.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from common import detect_by_patient

from deident.api import Deidentifier
from deident.evaluate import evaluate_corpus
from deident.synth.generate import STYLES, generate_corpus
from deident.synth.reidentify import Kind, reidentify_corpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notes", type=int, default=400, help="notes per style")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--scheme", default="i2b2-2014")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--model", type=Path, default=None, help="a model directory (default: the bundled one)")
    parser.add_argument("--pipeline", default="default", help="default, stage1, crf or rules")
    parser.add_argument("--variant", choices=[k.value for k in Kind], default=None, help="re-identify the notes first")
    args = parser.parse_args()
    deid = Deidentifier.load(args.model, pipeline=args.pipeline, scheme=args.scheme)
    results: dict[str, object] = {
        "notes_per_style": args.notes,
        "seed": args.seed,
        "scheme": args.scheme,
        "pipeline": args.pipeline,
        "variant": args.variant,
    }
    variant = f", re-identified ({args.variant})" if args.variant else ""
    print(
        f"{args.pipeline} pipeline, scheme {args.scheme}, {args.notes} synthetic notes per style (seed {args.seed})"
        + variant
    )
    print(f"{'style':10} {'P':>6} {'R':>6} {'F2':>6} {'fully':>6}  lowest label recalls (binary token)")
    for style in STYLES:
        gold = generate_corpus(args.notes, args.seed, (style,))
        if args.variant:
            gold = reidentify_corpus(gold, 1, args.seed, args.variant)
        report = evaluate_corpus(gold, detect_by_patient(deid, gold)).to_dict()
        token, instance = report["binary_token"], report["instance"]
        by_label = {label: row["recall"] for label, row in token["by_label"].items() if row["gold"]}
        worst = sorted(by_label.items(), key=lambda kv: kv[1])[:4]
        print(
            f"{style:10} {token['precision']:6.3f} {token['recall']:6.3f} {token['f2']:6.3f} "
            f"{instance['recall_fully_contained']:6.3f}  " + ", ".join(f"{k} {v:.2f}" for k, v in worst)
        )
        results[style] = {
            "precision": token["precision"],
            "recall": token["recall"],
            "f2": token["f2"],
            "recall_fully_contained": instance["recall_fully_contained"],
            "recall_by_label": by_label,
        }
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
