from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.core.span import Span
from deident.replace.modes import Mode, mask, redact, tag


def test_tag_template() -> None:
    span = Span(0, 3, Label.DOCTOR)
    assert tag(span) == "[**DOCTOR**]"
    assert tag(span, "<{category}:{label}>") == "<NAME:DOCTOR>"
    assert redact(span) == "[REDACTED]"


def test_mask_keeps_length_and_whitespace() -> None:
    assert mask("John\n Smith") == "****\n *****"
    assert mask("a b", "#") == "# #"


@pytest.mark.parametrize(("text", "mode"), [("tag", Mode.TAG), ("SAFE_HARBOR", Mode.SAFE_HARBOR), ("mask", Mode.MASK)])
def test_parse(text: str, mode: Mode) -> None:
    assert Mode.parse(text) is mode


def test_parse_unknown() -> None:
    with pytest.raises(ValueError, match="unknown mode"):
        Mode.parse("shred")


def test_needs_key() -> None:
    assert {m for m in Mode if m.needs_key} == {Mode.SURROGATE, Mode.SAFE_HARBOR}
