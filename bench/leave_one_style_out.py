"""Leave one synthetic style out (issue 16 item 2): does a span filter trained on a mixture keep PHI of a kind
of note it never saw?

For each style S, one default-pipeline model is trained by ``deident train`` on physionet-dev plus its
re-identified variants plus synthetic notes of every *other* style, the span filter's fold CRFs on that
mixture too (``--fold-mixture``), so the filter learns from candidates of the mixture. The model is then
scored on fresh synthetic notes of style S (another seed than the training notes'), cut to the PhysioNet
convention the model was trained on, as ``deident.detect.crf.mixture.conform_labels`` cuts training notes.
Binary token precision / recall and fully-contained instance recall. The bundled model is scored on the
same notes for comparison (its mixture holds all four styles: for it they are in-distribution). Needs
../shared/corpora/physionet-dev.

    python bench/leave_one_style_out.py [--styles discharge,nursing,psych,forum] [--leave-out S,...] [--synth 300]
        [--augment reidentified:1] [--test-notes 200] [--work DIR] [--json bench/results/leave_one_style_out.json]
        [--unseen uk_letter,ca_note,name_layouts]

The styles named by --unseen are in no training mixture, the bundled model's included: they are scored with the
bundled model alone (``--leave-out none`` scores only them).

Models are kept under --work (default: a temporary folder) and reused when their span filter is there; --json is
merged into an existing file, so a second run with other --leave-out styles adds its rows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import CORPUS, ROOT, detect_by_patient, load_corpus

from deident.api import Deidentifier
from deident.core.document import AnnotatedDocument
from deident.detect.crf.mixture import conform_labels
from deident.evaluate import evaluate_corpus
from deident.synth.generate import EXTRA_STYLES, STYLES, generate_corpus

TEST_SEED = 101  # the training mixture's synthetic notes use --mix-seed 0


def train(out: Path, styles: list[str], args: argparse.Namespace) -> float:
    """Train the model without the held-out style; returns wall seconds (0 when reused)."""
    if (out / "span_filter.json").exists():  # written last (the CRF and a first manifest come before it)
        return 0.0
    command = [
        sys.executable, "-m", "deident", "train", str(args.corpus), "-o", str(out),
        "--pipeline", "default", "--scheme", "physionet", "--threshold", "0.05",
        "--augment", args.augment, "--synth", str(args.synth), "--synth-styles", ",".join(styles),
        "--fold-mixture", "--jobs", str(args.jobs), "-q",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env)
    return time.perf_counter() - start


def score(model: Path | None, gold: list[AnnotatedDocument]) -> dict[str, float]:
    deid = Deidentifier.load(model, scheme="physionet")
    report = evaluate_corpus(gold, detect_by_patient(deid, gold)).to_dict()
    token, instance = report["binary_token"], report["instance"]
    return {
        "precision": token["precision"],
        "recall": token["recall"],
        "fully_contained": instance["recall_fully_contained"],
        "fn_tokens": token["fn"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--styles", default=",".join(STYLES), help="the styles of the mixture")
    parser.add_argument("--leave-out", default=None, help="styles left out, one at a time (default: each)")
    parser.add_argument("--synth", type=int, default=300, help="synthetic notes of the other styles in training")
    parser.add_argument("--augment", default="reidentified:1", help="re-identified variants (deident train --augment)")
    parser.add_argument("--test-notes", type=int, default=200, help="notes of the held-out style to score")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--unseen", default=",".join(EXTRA_STYLES), help="styles in no mixture, scored with the bundled model"
    )
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--work", type=Path, default=None, help="where the models go (kept; reused if there)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    styles = [s.strip() for s in args.styles.split(",") if s.strip()]
    if len(styles) < 2:
        sys.exit("--styles needs at least two styles (one is left out, the others train)")
    left_out = [s.strip() for s in args.leave_out.split(",") if s.strip()] if args.leave_out else styles
    if left_out == ["none"]:
        left_out = []
    unseen = [s.strip() for s in args.unseen.split(",") if s.strip()]
    if set(unseen) & set(styles):
        sys.exit("--unseen names a style of the training mixture")
    if not set(left_out) <= set(styles):
        sys.exit("--leave-out names a style that is not in --styles")
    base = load_corpus(args.corpus)
    work = args.work or Path(tempfile.mkdtemp(prefix="deident-loso-"))
    results: dict[str, object] = {
        "training": f"{args.corpus.name} + {args.augment} + {args.synth} synthetic notes of the other styles "
        "(--fold-mixture, --scheme physionet, --threshold 0.05)",
        "test": f"{args.test_notes} synthetic notes of the left-out style, seed {TEST_SEED}, cut to physionet",
    }
    print(f"{'left out':10} {'model':9} {'P':>6} {'R':>6} {'fully':>6} {'FN':>5}  train s")
    for style in left_out:
        others = [s for s in styles if s != style]
        model = work / f"without-{style}"
        seconds = train(model, others, args)
        gold = conform_labels(generate_corpus(args.test_notes, TEST_SEED, (style,)), base, "physionet")
        row = {"trained_on": others, "train_wall_s": round(seconds, 1)}
        for name, path in (("without", model), ("bundled", None)):
            figures = score(path, gold)
            row[name] = figures
            print(
                f"{style:10} {name:9} {figures['precision']:6.3f} {figures['recall']:6.3f} "
                f"{figures['fully_contained']:6.3f} {figures['fn_tokens']:5d}  {seconds:.0f}",
                flush=True,
            )
        results[style] = row
    for style in unseen:
        gold = conform_labels(generate_corpus(args.test_notes, TEST_SEED, (style,)), base, "physionet")
        figures = score(None, gold)
        results[style] = {"trained_on": [], "bundled": figures}
        print(
            f"{style:10} {'bundled':9} {figures['precision']:6.3f} {figures['recall']:6.3f} "
            f"{figures['fully_contained']:6.3f} {figures['fn_tokens']:5d}  (in no mixture)",
            flush=True,
        )
    if args.json:  # merged into what an earlier run (other styles left out) wrote there
        args.json.parent.mkdir(parents=True, exist_ok=True)
        earlier = json.loads(args.json.read_text()) if args.json.exists() else {}
        args.json.write_text(json.dumps({**earlier, **results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
