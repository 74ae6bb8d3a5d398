"""A site's own knowledge of its PHI, from one TOML configuration file (:mod:`deident.site.config`): its lists
(clinicians, wards, facilities, local places, organisations, patients' known identifiers), custom patterns, an
allow list and a deny list, phone regions, and scheme and mode defaults. :mod:`deident.site.detectors` turns the
lists and patterns into stage-1 detectors; :mod:`deident.site.stages` applies the allow and deny lists last."""

from __future__ import annotations

from deident.site.config import SiteConfig, load_site_config

__all__ = ["SiteConfig", "load_site_config"]
