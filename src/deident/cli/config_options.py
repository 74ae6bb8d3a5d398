"""The ``--config`` option of the commands that detect (run, detect, serve, spark): a site configuration file
(:mod:`deident.site.config`), read and validated before any model loads."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import click
import typer

from deident.site.config import SiteConfig, load_site_config

ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Site configuration (TOML): site lists, custom patterns, allow and deny lists, phone regions, "
        "scheme and mode defaults (see the README's 'Site configuration').",
    ),
]


def site_config(path: Path | None) -> SiteConfig | None:
    """The configuration at ``path`` (None: none)."""
    return None if path is None else load_site_config(path)


def mode_or_default(mode: str, site: SiteConfig | None, parameter: str = "mode") -> str:
    """``mode`` as given, or the configuration's mode when the command line left ``--mode`` at its default."""
    if site is None or site.mode is None:
        return mode
    context = click.get_current_context(silent=True)
    given = context is not None and context.get_parameter_source(parameter) not in (
        click.core.ParameterSource.DEFAULT,
        None,
    )
    return mode if given else site.mode
