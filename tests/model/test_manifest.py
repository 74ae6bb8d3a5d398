from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import ModelError
from deident.core.labels import Label
from deident.core.span import Span
from deident.model.manifest import (
    FORMAT_VERSION,
    corpus_fingerprint,
    default_model_dir,
    read_manifest,
    write_manifest,
)


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    (tmp_path / "weights.crfsuite").write_bytes(b"\x00\x01weights")
    (tmp_path / "triggers.tsv").write_text("dr\t-1\tNAME\n")
    write_manifest(tmp_path, {"kind": "crf", "labels": ["DOCTOR"]})
    return tmp_path


def test_round_trip(model_dir: Path) -> None:
    manifest = read_manifest(model_dir, kind="crf")
    assert manifest["format_version"] == FORMAT_VERSION
    assert set(manifest["files"]) == {"weights.crfsuite", "triggers.tsv"}


def _edit_manifest(model_dir: Path, **changes: object) -> None:
    data = json.loads((model_dir / "manifest.json").read_text())
    data.update(changes)
    (model_dir / "manifest.json").write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: (d / "triggers.tsv").write_text("dr\t-1\tDATE\n"), "checksum mismatch for triggers.tsv"),
        (lambda d: (d / "weights.crfsuite").unlink(), "weights.crfsuite listed in the manifest is missing"),
        (lambda d: (d / "extra.tsv").write_text("x"), "files not in the manifest: extra.tsv"),
        (lambda d: (d / "manifest.json").unlink(), "no manifest.json"),
        (lambda d: (d / "manifest.json").write_text("{not json"), "unreadable manifest"),
        (lambda d: _edit_manifest(d, format_version=99), "format version 99"),
        (lambda d: _edit_manifest(d, kind="other"), "expected 'crf'"),
        (lambda d: _edit_manifest(d, files={"../x": "0"}), "bad file name"),
    ],
)
def test_damaged_model_is_rejected(model_dir: Path, damage, message: str) -> None:  # type: ignore[no-untyped-def]
    damage(model_dir)
    with pytest.raises(ModelError, match=message.replace(".", r"\.")):
        read_manifest(model_dir, kind="crf")


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        read_manifest(tmp_path / "absent")


def test_fingerprint_depends_on_text_and_spans_only_by_value() -> None:
    doc = AnnotatedDocument(Document("1_1", "Seen by Dr. Smith"), (Span(12, 17, Label.DOCTOR),))
    same = AnnotatedDocument(Document("1_1", "Seen by Dr. Smith"), (Span(12, 17, Label.DOCTOR, "other"),))
    other = AnnotatedDocument(Document("1_1", "Seen by Dr. Smith"), (Span(12, 17, Label.PATIENT),))
    assert corpus_fingerprint([doc]) == corpus_fingerprint([same]) != corpus_fingerprint([other])
    assert len(corpus_fingerprint([doc])) == 64


def test_bundled_default_model_verifies() -> None:
    path = default_model_dir()
    if not (path / "manifest.json").exists():
        pytest.skip("no bundled default model in this checkout")
    manifest = read_manifest(path, kind="default")  # the CRF and the span filter: the default pipeline
    assert "MODEL_CARD.md" in manifest["files"]


def test_reading_a_model_does_not_import_the_corpus_formats():
    # deident.io imports every corpus format (pyarrow too): only writing a manifest needs it.
    code = (
        "import sys; from deident.model.manifest import default_model_dir, read_manifest; "
        "read_manifest(default_model_dir()); print('deident.io' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"
