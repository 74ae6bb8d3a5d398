"""Which re-identified variants the span filter should learn from (issue 16, item 2), beside the bundled CRFs.

    python bench/filter_mixture.py --work DIR [--variants none --variants unseen:1 ...] [--jobs 2]

Trains the bundled recipe's five fold CRFs once into ``DIR/folds`` (the recipe of the model card: split models,
re-identified x2 and 300 synthetic notes in the fold mixtures, fuzzy-dictionary and trigger-window features;
about 20 minutes on two cores; kept and reused), then for each ``--variants`` setting fits the span filter on the
out-of-fold candidates of the physionet-dev notes plus those variants (``deident train --filter-augment``'s
path: :func:`deident.model.train_pipeline.filter_candidates`), puts it into a copy of the bundled model
(``DIR/models/NAME``: the bundled CRFs, the new filter, fresh checksums) and prints the filter's size and its
physionet-val figures (``../shared/tools/score-val --model``, aggregate only). It also says whether ``none`` gives
the bundled filter byte for byte: only at the stage 1 the bundled filter was fitted on (a rule added since changes
the candidates, and so the refit).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

from deident.cli.crf_options import crf_train_config, feature_providers
from deident.detect.crf.mixture import Mixture, parse_augment
from deident.io.formats import read_corpus
from deident.model.bundle import ModelBundle
from deident.model.manifest import default_model_dir, read_manifest, write_manifest
from deident.model.train_pipeline import (
    PipelineTrainConfig,
    _train_crfs,
    filter_candidates,
    fold_crf_jobs,
)
from deident.stage2.filter.span_classifier import FILTER_FILE, save_filter
from deident.stage2.filter.training import fit_span_filter
from deident.synth.reidentify import Kind

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
DEV = SHARED / "corpora/physionet-dev/physionet-dev.text"


def recipe() -> PipelineTrainConfig:
    """The model card's `deident train` options as a configuration."""
    crf = crf_train_config(
        split_models=True,
        c1=0.01,
        c2=0.01,
        iterations=100,
        clusters=64,
        threshold=0.05,
        recall_target=0.95,
        context_features="fuzzy_dictionary,trigger_window",
    )
    mixture = Mixture(augment=((Kind.REIDENTIFIED, 2),), synth=300, seed=0, base_scheme="physionet")
    return PipelineTrainConfig(
        crf=crf, scheme="physionet", folds=5, filter_recall_target=0.985, mixture=mixture, fold_mixture=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--variants", action="append", default=None, help="'none' or e.g. unseen:1,reidentified:1")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    settings = args.variants or ["none", "unseen:1"]
    docs = read_corpus(DEV)
    config = recipe()
    fold_dirs = [args.work / "folds" / f"fold_{k + 1}" for k in range(config.folds)]
    providers = feature_providers(True)
    jobs = fold_crf_jobs(docs, fold_dirs, config, (), providers)
    missing = [job for job in jobs if not (job.out_dir / "manifest.json").exists()]
    if missing:
        _train_crfs(missing, providers, args.jobs, print)
    bundled = default_model_dir()
    for setting in settings:
        augment = () if setting == "none" else parse_augment(setting)
        chosen = replace(config, filter_augment=augment)
        oof = filter_candidates(docs, fold_dirs, chosen)
        span_filter, _ = fit_span_filter(oof, chosen.filter_recall_target, chosen.patient_context, kind=chosen.kind)
        name = setting.replace(":", "").replace(",", "_")
        out = args.work / "models" / name
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(bundled, out, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
        manifest = read_manifest(bundled)
        manifest.pop("files", None)
        entry = save_filter(span_filter, out)
        manifest["span_filter"] = {**entry, "experiment": {"filter_variants": setting}}
        write_manifest(out, manifest)
        ModelBundle.read(out)
        same = (out / FILTER_FILE).read_bytes() == (bundled / FILTER_FILE).read_bytes()
        print(
            f"== {setting}: {len(oof.corpus)} notes, {sum(map(len, oof.candidates))} candidates, "
            f"thresholds {json.dumps(span_filter.thresholds)}, identical to the bundled filter: {same}",
            flush=True,
        )
        score = subprocess.run(
            [str(SHARED / "tools/score-val"), "--model", str(out)], capture_output=True, text=True, check=False
        )
        print(score.stdout.strip(), flush=True)


if __name__ == "__main__":
    main()
