"""Assemble a note from pieces while recording gold spans at exact offsets.

Offsets are tracked as text is appended, so a span always covers exactly the inserted value; the
builder never searches the finished text. A case transform (upper/lower) is applied piece by piece
before measuring, so it cannot shift offsets even for characters whose case mapping changes length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from deident.core.labels import Label
from deident.core.span import Span

Piece = tuple[str, Label | None]
"""A fragment of text and the label it carries (None: not PHI)."""

SOURCE = "synth"


def _identity(text: str) -> str:
    return text


CASE_TRANSFORMS: dict[str, Callable[[str], str]] = {"mixed": _identity, "upper": str.upper, "lower": str.lower}


@dataclass
class NoteBuilder:
    """Accumulates text for one note; create one per note."""

    case: str = "mixed"
    _parts: list[str] = field(default_factory=list)
    _spans: list[Span] = field(default_factory=list)
    _length: int = 0

    def add(self, text: str, label: Label | None = None) -> None:
        """Append ``text``; when ``label`` is given the appended characters become a gold span."""
        if not text:
            return
        text = CASE_TRANSFORMS[self.case](text)
        if label is not None:
            self._spans.append(Span(self._length, self._length + len(text), label, source=SOURCE))
        self._parts.append(text)
        self._length += len(text)

    def extend(self, pieces: Iterable[Piece]) -> None:
        for text, label in pieces:
            self.add(text, label)

    @property
    def length(self) -> int:
        return self._length

    def ends_with(self, suffix: str) -> bool:
        return "".join(self._parts[-3:]).endswith(suffix)

    def build(self) -> tuple[str, tuple[Span, ...]]:
        """The note text and its spans (adjacent same-label pieces stay separate spans)."""
        return "".join(self._parts), tuple(self._spans)
