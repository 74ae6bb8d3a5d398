from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from deident.core.errors import ConfigurationError
from deident.core.secret_files import SecretFileWarning
from deident.replace.keys import SecretKey


def test_from_file_strips_and_checks_length(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text(SecretKey.new_key_text() + "\n")
    path.chmod(0o600)
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


RANDOM_HEX = "f745c9da2db9fe2993e7a565e8a1769fedc504a998377dc9b7823ca5942ed188"  # secrets.token_hex(32)
RANDOM_BASE64 = "qw0cGZUXy7S866pBeVhmOsZ6G7I4vlYk3dF9x2Pq0Ls="  # 32 random bytes, base64


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"a" * 16, "holds 8 bytes"),  # 16 ASCII "a" read as hex: 8 bytes
        (b"a" * 64, "too repetitive"),
        (b"0123456789abcdef" * 4, "too repetitive"),
        (b"correct horse battery staple is the key of this hospital", "neither hex nor base64"),
        ("Schlüssel für das Krankenhaus der Stadt München".encode(), "neither hex nor base64"),
        (b"ThisIsMyHospitalPasswordForDeident", "neither hex nor base64"),
        (RANDOM_HEX[:32].encode(), "holds 16 bytes"),
        (b"\xff\xfe" * 32, "too repetitive"),
    ],
)
def test_weak_key_files_are_refused_without_quoting_them(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "key"
    path.write_bytes(content)
    path.chmod(0o600)
    with pytest.raises(ConfigurationError, match=problem) as raised:
        SecretKey.from_file(path)
    assert "deident keygen" in str(raised.value)
    assert content.decode("utf-8", "replace")[:8] not in str(raised.value)


@pytest.mark.parametrize(
    "content",
    [RANDOM_HEX.encode(), RANDOM_HEX.upper().encode(), RANDOM_BASE64.encode(), bytes.fromhex(RANDOM_HEX)],
)
def test_random_key_files_are_accepted_as_they_are(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "key"
    path.write_bytes(content + b"\n")
    path.chmod(0o600)
    assert SecretKey.from_file(path).secret == content  # the file's bytes are the secret: surrogates unchanged


def test_a_key_file_others_can_read_is_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text(RANDOM_HEX)
    path.chmod(0o640)
    with pytest.warns(SecretFileWarning, match="can be read by other users"):
        SecretKey.from_file(path)
    path.chmod(0o600)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SecretKey.from_file(path)
