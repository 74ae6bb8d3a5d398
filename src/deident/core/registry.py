"""Versioned registry of named factories ("patterns.date.v1" -> factory).

Registration is explicit (no discovery by import side effects or subclass walking): each package
exposes a ``register(registry)`` function, and ``deident.registry_defaults`` calls them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from deident.core.errors import ConfigurationError


@dataclass
class Registry:
    """Maps versioned names to factories. One instance per caller; nothing global is mutated."""

    _factories: dict[str, Callable[..., Any]] = field(default_factory=dict)

    def add(self, name: str, factory: Callable[..., Any]) -> None:
        if name in self._factories:
            raise ConfigurationError(f"registry name {name!r} is already taken")
        self._factories[name] = factory

    def create(self, name: str, **config: Any) -> Any:
        try:
            factory = self._factories[name]
        except KeyError:
            known = ", ".join(sorted(self._factories)) or "none"
            raise ConfigurationError(f"unknown component {name!r}; registered: {known}") from None
        return factory(**config)

    def names(self) -> list[str]:
        return sorted(self._factories)

    def __contains__(self, name: str) -> bool:
        return name in self._factories
