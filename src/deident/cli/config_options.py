"""The ``--config`` option of the commands that detect (run, detect, serve, spark): a site configuration file
(:mod:`deident.site.config`), read and validated before any model loads."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

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


def mode_or_default(context: typer.Context, mode: str, site: SiteConfig | None) -> str:
    """``mode`` as given, or the configuration's mode when the command line left ``--mode`` at its default."""
    if site is None or site.mode is None:
        return mode
    source = context.get_parameter_source("mode")
    return site.mode if source is None or source.name == "DEFAULT" else mode
