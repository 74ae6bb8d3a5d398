from __future__ import annotations

from pathlib import Path

import pytest

from deident.core.errors import ConfigurationError
from deident.replace.keys import SecretKey


def test_from_file_strips_and_checks_length(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text(SecretKey.new_key_text() + "\n")
    key = SecretKey.from_file(path)
    assert len(key.secret) == 64
    (tmp_path / "short").write_text("abc")
    with pytest.raises(ConfigurationError, match="at least"):
        SecretKey.from_file(tmp_path / "short")
    with pytest.raises(ConfigurationError, match="cannot read"):
        SecretKey.from_file(tmp_path / "missing")


def test_repr_hides_secret() -> None:
    key = SecretKey.from_text("super-secret-value-123")
    assert "super" not in repr(key)
    assert key.key_id in repr(key)


def test_digest_is_keyed_and_field_separated() -> None:
    a, b = SecretKey.from_text("a" * 20), SecretKey.from_text("b" * 20)
    assert a.digest("1", "name", "x") == a.digest("1", "name", "x")
    assert a.digest("1", "name", "x") != b.digest("1", "name", "x")
    assert a.digest("1", "name", "x") != a.digest("2", "name", "x")
    assert a.digest("1", "name", "x") != a.digest("1", "name", "x", attempt=1)
    assert a.digest("1", "ab", "c") != a.digest("1", "a", "bc")


def test_generated_keys_are_ephemeral_and_distinct() -> None:
    one, two = SecretKey.generate(), SecretKey.generate()
    assert one.ephemeral and one.key_id != two.key_id
