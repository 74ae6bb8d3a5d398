from __future__ import annotations

from pathlib import Path

import pytest

from deident.cli.key_options import replace_options
from deident.core.errors import ConfigurationError
from deident.replace import Mode, SecretKey


@pytest.mark.parametrize(
    ("mode", "use_key", "ephemeral", "expected_mode", "has_key", "ephemeral_key"),
    [
        ("tag", False, False, Mode.TAG, False, False),
        ("MASK", False, False, Mode.MASK, False, False),
        ("surrogate", True, False, Mode.SURROGATE, True, False),
        ("safe_harbor", False, True, Mode.SAFE_HARBOR, True, True),
        ("redact", True, False, Mode.REDACT, True, False),
    ],
)
def test_replace_options(
    tmp_path: Path,
    mode: str,
    use_key: bool,
    ephemeral: bool,
    expected_mode: Mode,
    has_key: bool,
    ephemeral_key: bool,
) -> None:
    key = tmp_path / "key"
    key.write_text(SecretKey.new_key_text())
    key.chmod(0o600)
    options = replace_options(mode, key if use_key else None, ephemeral)
    assert options.mode is expected_mode
    assert (options.key is not None) == has_key
    if options.key is not None:
        assert options.key.ephemeral == ephemeral_key


@pytest.mark.parametrize(
    ("mode", "use_key", "ephemeral", "message"),
    [
        ("shred", False, False, "unknown mode"),
        ("surrogate", False, False, "needs a secret key"),
        ("tag", True, True, "either --key or --ephemeral-key"),
    ],
)
def test_replace_options_errors(tmp_path: Path, mode: str, use_key: bool, ephemeral: bool, message: str) -> None:
    key = tmp_path / "key"
    key.write_text(SecretKey.new_key_text())
    key.chmod(0o600)
    with pytest.raises(ConfigurationError, match=message):
        replace_options(mode, key if use_key else None, ephemeral)


def test_settings_pass_through() -> None:
    assert replace_options("mask", None, mask_char="#").mask_char == "#"
