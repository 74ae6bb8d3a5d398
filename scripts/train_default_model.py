"""Train the bundled default CRF model from ../shared/corpora/physionet-dev (reproducible).

    python scripts/train_default_model.py [--cv-json bench/results/crf_cv.json] [--out DIR]
        [--augment reidentified:2,ambiguous:1,unseen:1] [--synth N [--synth-styles a,b]] [--seed S]

--augment and --synth train the CRFs on a mixture (issue 16): physionet-dev plus K re-identified
variants of each kind (``deident reidentify``) plus N synthetic notes (``deident synth``, cut to the
PhysioNet convention). The learned triggers, lexicon, vocabulary and clusters still come from
physionet-dev alone. The mixture is recorded in the manifest's training_data and in the model card.

The threshold comes from a patient-grouped cross-validation sweep (``deident cv ... --json``): the
highest threshold whose pooled recall reaches --recall-target; without one it is the preset 0.05.
The model directory gets a MODEL_CARD.md, and the manifest covers it with a checksum.
Training uses every note of physionet-dev; users of the package never need ../shared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from deident.core.atomic import atomic_write
from deident.detect.crf.features import FeatureConfig
from deident.detect.crf.mixture import Mixture, build_mixture, parse_augment
from deident.detect.crf.tagger import DEFAULT_THRESHOLD, available_providers
from deident.detect.crf.train import TrainConfig, choose_threshold, train_model
from deident.io import read_corpus
from deident.model.bundle import ModelBundle
from deident.model.manifest import write_manifest
from deident.synth.generate import STYLES

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "physionet-dev" / "physionet-dev.text"
OUT = ROOT / "src" / "deident" / "resources" / "models" / "default"


def _figures(block: dict) -> str:  # type: ignore[type-arg]
    b = block["binary_token"]
    return f"P {b['precision']:.3f}, R {b['recall']:.3f}, F1 {b['f1']:.3f}, F2 {b['f2']:.3f}"


def _mixture_lines(data: dict) -> list[str]:  # type: ignore[type-arg]
    mix = data.get("mixture")
    if not mix or not (mix.get("variants") or mix.get("synth_notes")):
        return []
    learned_from = data.get("learned_from", {})
    variants = ", ".join(f"{k} x{n}" for k, n in mix["variants"].items()) or "none"
    lines = [
        f"- Training mixture (issue 16): the {learned_from.get('documents', '?')} physionet-dev notes plus "
        f"re-identified variants ({variants}; `deident reidentify`, seed {mix['seed']})"
        + ("" if mix.get("synth_notes") else "."),
    ]
    if mix.get("synth_notes"):
        lines.append(
            f"  plus {mix['synth_notes']} synthetic notes ({', '.join(mix['synth_styles'])}; `deident synth`, "
            f"seed {mix['seed']}, cut to the {mix['synth_scheme']} convention)."
        )
    lines.append("  Triggers, lexicon, vocabulary and clusters are learned from physionet-dev alone.")
    return lines


def model_card(manifest: dict, cv: dict | None, seconds: float) -> str:  # type: ignore[type-arg]
    data = manifest["training_data"]
    mixed = bool(_mixture_lines(data))
    what = "notes, physionet-dev and its mixture below," if mixed else "ICU nursing notes"
    lines = [
        "# deident default CRF model",
        "",
        "Linear-chain CRFs (python-crfsuite, BIO tags over deident's aggressive tokenizer; models: "
        f"{', '.join(m['name'] for m in manifest['models'])})",
        f"that propose PHI spans where a token's PHI probability 1 - P(O) exceeds {manifest['threshold']}.",
        "",
        "## Data",
        f"- Trained on {data['documents']} {what} ({data['tokens']} tokens, {data['spans']} PHI",
        "  annotations) of the PhysioNet deid gold standard, the physionet-dev part: notes from MIMIC-II",
        "  whose PHI was replaced with realistic surrogates, annotated by hand.",
        *_mixture_lines(data),
        f"- Training-data fingerprint (SHA-256 over ids, texts, spans): `{data['fingerprint']}`.",
        f"- Labels: {', '.join(manifest['labels'])} (PhysioNet types mapped to deident labels).",
        f"- Span providers used as features: {', '.join(manifest['providers']) or 'none'}.",
        f"- Learned data: {manifest['learned']['triggers']} trigger words, {manifest['learned']['lexicon']} "
        "lexicon entries",
        "  (stored as hashes, never as names), "
        f"{manifest['learned']['clusters']} words in {manifest['training_config']['clusters']} clusters "
        "(only words seen 5+ times in 3+ notes).",
        f"- Training took {seconds:.0f} s on one core of a shared 2-core machine.",
        "",
        "## Metrics",
    ]
    if cv:
        lines.append(
            f"5-fold patient-grouped cross-validation on physionet-dev, CRF alone, binary token level, "
            f"threshold {cv['threshold']}:"
        )
        for fold in cv["folds"]:
            lines.append(f"- fold {fold['fold']}: {_figures(fold)}")
        lines.append(f"- pooled: {_figures(cv['pooled'])}")
        lines += ["", "| threshold | precision | recall | F1 | F2 |", "|---|---|---|---|---|"]
        for row in cv["sweep"]:
            lines.append(
                f"| {row['threshold']} | {row['precision']:.3f} | {row['recall']:.3f} | {row['f1']:.3f} | "
                f"{row['f2']:.3f} |"
            )
        lines.append("")
        lines.append(
            f"The bundled model's threshold ({manifest['threshold']}) was read off this sweep: the highest "
            "threshold whose pooled recall reaches 0.95, or, when none does, the one with the best F2."
        )
        lines.append("Caveat: regularisation (c1 = c2 = 0.01), rare-word masking and the two-model split were")
        lines.append("chosen on fold 1 of this split, so the figures are slightly optimistic; held-back notes give")
        lines.append("the honest figure.")
    else:
        lines.append("No cross-validation figures were given to the training script.")
    lines += [
        "",
        "## Limits",
        "- One small corpus of one note type (ICU nursing notes, 2000s, one hospital): expect lower recall",
        "  on discharge summaries, other institutions and message-board text. Retrain with `deident train`.",
        "- Names and locations are the weak categories; the CRF is meant to run with the rule detectors,",
        "  not alone. A low threshold trades precision for recall.",
        "- Surrogate PHI in the training notes is not real PHI, but the CRF weights contain word features",
        "  from the training texts; treat the model with the care due to its training data.",
        "",
        "## Attribution",
        "- Neamatullah I, Douglass MM, Lehman LH, et al. Automated de-identification of free-text medical",
        "  records. BMC Med Inform Decis Mak. 2008;8:32.",
        "- Goldberger AL, et al. PhysioBank, PhysioToolkit, and PhysioNet. Circulation 2000;101(23):e215-e220.",
        "- Corpus licence: Open Data Commons Attribution License (PhysioNet deid 1.1).",
        "- Method: Benton 2010 (marginal threshold), Sibanda 2006 (local context, sections), Szarvas 2007",
        "  (trigger words), Lee 2017 (tokenizer, two CRFs), Daume 2007 (EasyAdapt).",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--cv-json", type=Path, default=None, help="output of `deident cv --json`")
    parser.add_argument("--recall-target", type=float, default=0.95)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--single-model", action="store_true", help="one CRF instead of two (Lee 2017)")
    parser.add_argument("--augment", default="", help="variants, e.g. reidentified:2,ambiguous:1,unseen:1")
    parser.add_argument("--synth", type=int, default=0, help="synthetic notes added to the training data")
    parser.add_argument("--synth-styles", default=",".join(STYLES), help="comma-separated synth styles")
    parser.add_argument("--seed", type=int, default=0, help="seed of the variants and synthetic notes")
    args = parser.parse_args()
    mixture = Mixture(
        augment=parse_augment(args.augment),
        synth=args.synth,
        synth_styles=tuple(s for s in args.synth_styles.split(",") if s),
        seed=args.seed,
    )
    if not args.corpus.exists():
        sys.exit(f"corpus not found: {args.corpus}")
    cv = json.loads(args.cv_json.read_text()) if args.cv_json else None
    threshold = choose_threshold(cv["sweep"], args.recall_target) if cv else DEFAULT_THRESHOLD
    base = read_corpus(args.corpus)
    docs = build_mixture(base, mixture) if not mixture.empty else base
    print(f"training data: {mixture.describe()}: {len(docs)} notes", flush=True)
    providers = available_providers()
    print(f"providers: {', '.join(p.name for p in providers) or 'none'}", flush=True)
    config = TrainConfig(
        features=FeatureConfig(),
        max_iterations=args.iterations,
        threshold=threshold,
        split_models=not args.single_model,
    )
    started = time.perf_counter()
    manifest = train_model(
        docs,
        args.out,
        config,
        providers=providers,
        progress=lambda m: print(m, flush=True),
        learn_docs=None if mixture.empty else base,
        mixture=None if mixture.empty else mixture.as_dict(),
    )
    seconds = time.perf_counter() - started
    with atomic_write(args.out / "MODEL_CARD.md") as fh:
        fh.write(model_card(manifest, cv, seconds))
    manifest.pop("files", None)
    if cv:
        manifest["metrics"] = {
            "cv": {
                "folds": len(cv["folds"]),
                "group_by": "patient",
                "threshold": cv["threshold"],
                "pooled_binary_token": cv["pooled"]["binary_token"],
                "sweep": cv["sweep"],
            }
        }
    write_manifest(args.out, manifest)
    ModelBundle.read(args.out)  # verifies what was written
    print(f"trained in {seconds:.1f} s; threshold {threshold}; wrote {args.out}")


if __name__ == "__main__":
    main()
