"""Model directories: manifest, checksums, the bundle read once, the bundled default model."""

from deident.model.bundle import BundleKind, ModelBundle
from deident.model.manifest import (
    FORMAT_VERSION,
    MANIFEST,
    corpus_fingerprint,
    default_model_dir,
    read_manifest,
    sha256_file,
    write_manifest,
)

__all__ = [
    "FORMAT_VERSION",
    "MANIFEST",
    "BundleKind",
    "ModelBundle",
    "corpus_fingerprint",
    "default_model_dir",
    "read_manifest",
    "sha256_file",
    "write_manifest",
]
