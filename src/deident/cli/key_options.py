"""The replacement options shared by the commands that replace PHI (run, serve, spark)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deident.core.errors import ConfigurationError
from deident.replace import Mode, ReplaceOptions, SecretKey


def replace_options(mode: str, key: Path | None, ephemeral_key: bool = False, **settings: Any) -> ReplaceOptions:
    """``ReplaceOptions`` from the command-line mode and key flags; bad values raise ConfigurationError."""
    try:
        parsed_mode = Mode.parse(mode)
    except ValueError as err:
        raise ConfigurationError(str(err)) from None
    if key is not None and ephemeral_key:
        raise ConfigurationError("give either --key or --ephemeral-key, not both")
    secret = SecretKey.from_file(key) if key is not None else SecretKey.generate() if ephemeral_key else None
    return ReplaceOptions(mode=parsed_mode, key=secret, **settings)
