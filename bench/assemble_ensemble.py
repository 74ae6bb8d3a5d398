"""Add a CRF to a copy of a default model as an ensemble member (issue 18 item 4).

    python bench/assemble_ensemble.py CRF_DIR OUT_DIR [--base src/deident/resources/models/default] [--name NAME]

OUT_DIR gets the base model's files and CRF_DIR copied into OUT_DIR/NAME (default "crf-ensemble"); the manifest
gains ``"ensemble": [{"directory": NAME, "manifest_sha256": ...}]`` and fresh checksums, and is checked with
``ModelBundle.read``. Stage 1 then adds that CRF's spans at its own threshold to the candidates, which the base's
span filter judges (caveat: the filter was fitted without them).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from deident.model.bundle import ModelBundle
from deident.model.manifest import MANIFEST, default_model_dir, read_manifest, sha256_file, write_manifest


def assemble(crf_dir: Path, out_dir: Path, base: Path, name: str) -> ModelBundle:
    read_manifest(crf_dir)  # a verified CRF model directory
    manifest = read_manifest(base)
    out_dir.mkdir(parents=True, exist_ok=False)
    for path in base.iterdir():
        if path.is_file() and path.name != MANIFEST:
            shutil.copy2(path, out_dir / path.name)
    shutil.copytree(crf_dir, out_dir / name)
    entry = {"directory": name, "manifest_sha256": sha256_file(out_dir / name / MANIFEST)}
    manifest["ensemble"] = [*manifest.get("ensemble", []), entry]
    manifest.pop("files", None)
    write_manifest(out_dir, manifest)
    return ModelBundle.read(out_dir)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("crf_dir", type=Path)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--base", type=Path, default=default_model_dir())
    parser.add_argument("--name", default="crf-ensemble")
    args = parser.parse_args()
    bundle = assemble(args.crf_dir, args.out_dir, args.base, args.name)
    print(f"{args.out_dir}: {len(bundle.ensemble)} ensemble member(s)")


if __name__ == "__main__":
    main()
