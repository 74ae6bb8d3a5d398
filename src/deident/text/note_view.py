"""The per-note view: what several stages derive from a note's text, computed at most once per note.

Stages are pure functions of ``(document, spans)``, but many need the same readings of the text: its letter case
(:class:`~deident.text.case.CaseProfile`), its sections, its normalised form (the lexicon's), the lexicon scan.
:meth:`deident.core.pipeline.Pipeline.run_many` (and a single pipeline call) opens :func:`note_views` over each block
of notes, so that :func:`note_view` hands every per-document stage of the block the same lazily filled
:class:`NoteView` of a document; the views are dropped when the block ends, so no more than a block's are held.
Elsewhere (a group stage, a detector called alone, training), :func:`note_view` gives a fresh view: the same values,
computed again.

The views are looked up by the document object's identity (``id``), not by its text: a document of the block is
alive while its view is registered, so its ``id`` cannot be reused; two equal documents get a view each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from deident.text.case import CaseProfile
from deident.text.normalise import normalise
from deident.text.sections import Section, default_sections

if TYPE_CHECKING:
    from deident.core.document import Document

T = TypeVar("T")


class NoteView:
    """Readings of one note's text, each computed on first use and kept while the view lives."""

    __slots__ = ("_case", "_derived", "_normalised", "_sections", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._case: CaseProfile | None = None
        self._normalised: str | None = None
        self._sections: tuple[Section, ...] | None = None
        self._derived: dict[Callable[[NoteView], Any], Any] = {}

    def __repr__(self) -> str:  # never the text (PHI)
        return f"NoteView(chars={len(self.text)})"

    @property
    def case(self) -> CaseProfile:
        """The note's letter counts; each user applies its own thresholds."""
        if self._case is None:
            self._case = CaseProfile.of(self.text)
        return self._case

    @property
    def normalised(self) -> str:
        """:func:`deident.text.normalise.normalise` of the text (same length, same offsets)."""
        if self._normalised is None:
            self._normalised = normalise(self.text)
        return self._normalised

    @property
    def sections(self) -> tuple[Section, ...]:
        """The default section detector's sections (:func:`deident.text.sections.default_sections`)."""
        if self._sections is None:
            self._sections = default_sections(self.text)
        return self._sections

    def derived(self, build: Callable[[NoteView], T]) -> T:
        """``build(self)``, computed once per view: per-note data of a later layer (e.g. the lexicon scan), which
        ``text/`` cannot name; ``build`` must be a pure function of the view (a module-level function, the key)."""
        try:
            return self._derived[build]  # type: ignore[no-any-return]
        except KeyError:
            value = self._derived[build] = build(self)
            return value


# id(document) -> its view, for the documents of the blocks now running (see the module's text).
_views: dict[int, NoteView] = {}


def note_view(document: Document) -> NoteView:
    """The view of ``document``: its block's shared view inside a pipeline run, else a fresh one."""
    view = _views.get(id(document))
    if view is None or view.text is not document.text:
        return NoteView(document.text)
    return view


@contextmanager
def note_views(documents: Iterable[Document]) -> Iterator[None]:
    """Registers a lazily filled view for each document (unless one is registered already, by an enclosing run)
    while the block runs, and drops the views it registered when it ends."""
    added: list[int] = []
    for document in documents:
        key = id(document)
        if key not in _views:
            _views[key] = NoteView(document.text)
            added.append(key)
    try:
        yield
    finally:
        for key in added:
            _views.pop(key, None)


__all__ = ["NoteView", "note_view", "note_views"]
