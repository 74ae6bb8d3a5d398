"""``deident keygen``: a new secret key file for the surrogate modes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deident.cli.conventions import QuietOption, VerboseOption, VersionOption
from deident.core.atomic import atomic_write
from deident.core.errors import ConfigurationError
from deident.replace import SecretKey


def keygen(
    output: Annotated[Path, typer.Argument(metavar="KEYFILE", help="Where to write the key (must not exist).")],
    force: Annotated[bool, typer.Option(help="Replace an existing key file (its surrogates become unrepeatable).")] = (
        False
    ),
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Write a new random key (64 hex digits, readable by its owner only) and print its fingerprint.

    Keep the file secret and keep it: the same key gives the same surrogates and date shifts in every
    run; without it they can be neither reproduced nor reversed."""
    if output.exists() and not force:
        raise ConfigurationError(f"{output}: exists already; a new key would change every surrogate (use --force)")
    text = SecretKey.new_key_text()
    # atomic_write's temporary file is created with mode 0600, so the key is never readable by others.
    with atomic_write(output) as handle:
        handle.write(text + "\n")
    if not quiet:
        typer.echo(f"wrote {output} (key id {SecretKey.from_file(output).key_id})")
