"""The README's example site configuration, shipped as a test fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from deident.site.config import SiteConfig, load_site_config

SITE_FIXTURE = Path(__file__).parents[1] / "fixtures" / "site" / "site.toml"


@pytest.fixture(scope="session")
def site() -> SiteConfig:
    return load_site_config(SITE_FIXTURE)
