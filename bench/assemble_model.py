"""Put a freshly trained CRF directory into a copy of a default model (issue 16's mixture experiments).

    python bench/assemble_model.py CRF_DIR OUT_DIR [--base src/deident/resources/models/default]

OUT_DIR gets the base model's files (span filter, model card) with the CRF files and the learned data
(triggers, lexicon, clusters, vocabulary) of CRF_DIR, and a manifest that keeps the base's default-pipeline
entries (kind, scheme, candidate threshold, span filter, stage 2) and takes the CRF's own entries from
CRF_DIR. The CRF's threshold stays the base's. Caveat: the span filter was fitted on the candidates of
the base's CRF, not of this one. The manifest is written with ``write_manifest`` (fresh checksums) and
checked with ``ModelBundle.read``.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from deident.model.bundle import ModelBundle
from deident.model.manifest import default_model_dir, read_manifest, write_manifest

CRF_KEYS = (
    "deident_version",
    "feature_set_version",
    "features",
    "training_config",
    "labels",
    "models",
    "easyadapt",
    "providers",
    "data_files",
    "training_data",
    "learned",
    "training_seconds",
)


def assemble(crf_dir: Path, out_dir: Path, base: Path) -> dict[str, object]:
    crf = read_manifest(crf_dir)
    manifest = read_manifest(base)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    shutil.copytree(base, out_dir, ignore=shutil.ignore_patterns("__pycache__", "__init__.py", "crf.*.crfsuite"))
    for name in [*crf["data_files"].values(), *(m["file"] for m in crf["models"])]:
        shutil.copy2(crf_dir / name, out_dir / name)
    manifest.pop("files", None)
    for key in CRF_KEYS:
        manifest[key] = crf[key]
    manifest["metrics"] = {"note": "CRF replaced by bench/assemble_model.py; the base's CV metrics do not apply"}
    manifest["assembled_from"] = {"crf": str(crf_dir), "base": str(base), "span_filter": "the base's (old CRF)"}
    written = write_manifest(out_dir, manifest)
    ModelBundle.read(out_dir)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("crf_dir", type=Path)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--base", type=Path, default=default_model_dir())
    args = parser.parse_args()
    assemble(args.crf_dir, args.out_dir, args.base)
    print(f"wrote {args.out_dir}")


if __name__ == "__main__":
    main()
