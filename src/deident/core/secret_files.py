"""Files that hold secrets (surrogate keys, service tokens): read them, and warn when others can read them."""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path

from deident.core.errors import ConfigurationError


class SecretFileWarning(UserWarning):
    """A secret file that users other than its owner can read."""


def read_secret_file(path: Path, what: str) -> bytes:
    """The file's bytes with surrounding white space removed; a warning when its group or others may read it.

    Errors name the file and what it should hold, never its content."""
    try:
        raw = path.read_bytes()
        mode = path.stat().st_mode
    except OSError as err:
        raise ConfigurationError(f"{path}: cannot read the {what} ({err.strerror})") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        warnings.warn(
            f"{path}: the {what} can be read by other users (mode {stat.S_IMODE(mode):o}); chmod 600 it",
            SecretFileWarning,
            stacklevel=2,
        )
    return raw.strip()
