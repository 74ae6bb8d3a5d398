"""Replacement modes and the three that need no key: tag, redact and mask."""

from __future__ import annotations

from enum import StrEnum

from deident.core.span import Span

DEFAULT_TAG_TEMPLATE = "[**{label}**]"
DEFAULT_REDACTION = "[REDACTED]"
DEFAULT_MASK_CHAR = "*"


class Mode(StrEnum):
    """How PHI is written out.

    ``safe-harbor`` is the HIPAA Safe Harbor method, 45 CFR 164.514(b)(2): of the identifiers of
    (b)(2)(i)(A)-(R), (B) ZIP codes keep their first three digits, or "000" where the three-digit area
    has 20,000 people or fewer; (C) dates keep only their year (never shifted), ages over 89 become
    "90+" and years that imply an age over 89 (dates of birth included) "[age 90+]"; every other
    identifier, names included, gets a consistent surrogate. ``surrogate`` shifts dates per patient
    instead (intervals survive), which Safe Harbor does not allow.
    """

    TAG = "tag"
    REDACT = "redact"
    MASK = "mask"
    SURROGATE = "surrogate"
    SAFE_HARBOR = "safe-harbor"

    @property
    def needs_key(self) -> bool:
        return self in (Mode.SURROGATE, Mode.SAFE_HARBOR)

    @classmethod
    def parse(cls, value: str | Mode) -> Mode:
        if isinstance(value, Mode):
            return value
        key = value.strip().lower().replace("_", "-")
        try:
            return cls(key)
        except ValueError:
            known = ", ".join(m.value for m in cls)
            raise ValueError(f"unknown mode {value!r}; choose one of {known}") from None


def tag(span: Span, template: str = DEFAULT_TAG_TEMPLATE) -> str:
    """A category tag; the template may use ``{label}`` and ``{category}``."""
    return template.format(label=span.label.value, category=span.category.value)


def redact(span: Span, redaction: str = DEFAULT_REDACTION) -> str:
    return redaction


def mask(original: str, mask_char: str = DEFAULT_MASK_CHAR) -> str:
    """Same length; whitespace (line breaks, indentation) is kept so the layout does not move."""
    return "".join(ch if ch.isspace() else mask_char for ch in original)
