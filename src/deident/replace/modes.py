"""Replacement modes and the three that need no key: tag, redact and mask."""

from __future__ import annotations

from enum import StrEnum

from deident.core.span import Span

DEFAULT_TAG_TEMPLATE = "[**{label}**]"
DEFAULT_REDACTION = "[REDACTED]"
DEFAULT_MASK_CHAR = "*"


class Mode(StrEnum):
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
