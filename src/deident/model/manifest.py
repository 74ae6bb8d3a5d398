"""Model directories: ``manifest.json`` plus data files, each checked by its SHA-256.

The manifest records the format version, the deident version that wrote it, the label set, the
feature-set version, thresholds, a fingerprint and the size of the training data, the metrics on
development data, and a checksum of every other file in the directory. Loading verifies all of
it and raises :class:`ModelError` with a clear message on any mismatch. No pickles anywhere.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from deident.core.document import AnnotatedDocument
from deident.core.errors import ModelError

MANIFEST = "manifest.json"
FORMAT_VERSION = 1
# Files that are not model content (package scaffolding) and so carry no checksum.
_IGNORED = {MANIFEST, "__init__.py", "__pycache__"}


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def corpus_fingerprint(docs: Iterable[AnnotatedDocument]) -> str:
    """SHA-256 over document ids, texts and gold spans, in order: identifies the training data
    without revealing it."""
    digest = hashlib.sha256()
    for doc in docs:
        digest.update(doc.id.encode("utf-8") + b"\0" + doc.text.encode("utf-8") + b"\0")
        for span in doc.spans:
            digest.update(f"{span.start},{span.end},{span.label.value};".encode())
    return digest.hexdigest()


def _content_files(model_dir: Path) -> list[Path]:
    return sorted(p for p in model_dir.iterdir() if p.is_file() and p.name not in _IGNORED)


def write_manifest(model_dir: Path, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """Write ``manifest.json`` with checksums of every file now in ``model_dir``; returns it."""
    data = dict(manifest)
    data["format_version"] = FORMAT_VERSION
    # Imported here: deident.io loads every corpus format (pyarrow too), which loading a model never needs.
    from deident.core.atomic import atomic_write

    data["files"] = {p.name: sha256_file(p) for p in _content_files(model_dir)}
    with atomic_write(model_dir / MANIFEST) as fh:
        json.dump(data, fh, indent=2, sort_keys=True)
        fh.write("\n")
    return data


def read_manifest(model_dir: str | Path, kind: str | None = None) -> dict[str, Any]:
    """Read and verify a model directory's manifest (and ``kind``, e.g. "crf", when given)."""
    model_dir = Path(model_dir)
    path = model_dir / MANIFEST
    if not model_dir.is_dir():
        raise ModelError(f"{model_dir}: model directory not found")
    if not path.is_file():
        raise ModelError(f"{model_dir}: no {MANIFEST}; not a deident model directory")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ModelError(f"{path}: unreadable manifest ({type(err).__name__})") from None
    if not isinstance(data, dict):
        raise ModelError(f"{path}: the manifest must be a JSON object")
    version = data.get("format_version")
    if version != FORMAT_VERSION:
        raise ModelError(f"{path}: model format version {version!r}; this deident reads version {FORMAT_VERSION}")
    if kind is not None and data.get("kind") != kind:
        raise ModelError(f"{path}: a {data.get('kind')!r} model, expected {kind!r}")
    files = data.get("files")
    if not isinstance(files, dict) or not files:
        raise ModelError(f"{path}: the manifest lists no files")
    for name, expected in sorted(files.items()):
        target = model_dir / name
        if "/" in name or "\\" in name or name in _IGNORED:
            raise ModelError(f"{path}: bad file name in the manifest")
        if not target.is_file():
            raise ModelError(f"{model_dir}: file {name} listed in the manifest is missing")
        if sha256_file(target) != expected:
            raise ModelError(f"{model_dir}: checksum mismatch for {name}; the model is corrupt or was modified")
    unlisted = [p.name for p in _content_files(model_dir) if p.name not in files]
    if unlisted:
        raise ModelError(f"{model_dir}: files not in the manifest: {', '.join(unlisted)}")
    return data


def default_model_dir() -> Path:
    """The bundled default CRF model (package data)."""
    return _default_model_dir()


@lru_cache(maxsize=1)
def _default_model_dir() -> Path:
    return Path(str(resources.files("deident.resources").joinpath("models", "default")))
