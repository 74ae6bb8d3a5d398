"""Documents: an id, the note text and metadata that later stages use.

Reprs never include the text or any known identifier, so a document can be logged safely.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from deident.core.span import Span, check_within, sort_spans


@dataclass(frozen=True, slots=True)
class KnownIdentifiers:
    """Identifiers of the patient known in advance (from the record's structured fields).

    Detectors find these values anywhere in the text, exactly and fuzzily.
    """

    names: tuple[str, ...] = field(default=(), repr=False)
    mrns: tuple[str, ...] = field(default=(), repr=False)
    addresses: tuple[str, ...] = field(default=(), repr=False)
    relatives: tuple[str, ...] = field(default=(), repr=False)

    def __bool__(self) -> bool:
        return bool(self.names or self.mrns or self.addresses or self.relatives)

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={len(getattr(self, k))}" for k in ("names", "mrns", "addresses", "relatives"))
        return f"KnownIdentifiers({counts})"


@dataclass(frozen=True, slots=True)
class DocumentMetadata:
    """Metadata about a note. ``extra`` keeps format-specific fields as sorted (key, value) pairs
    so that a round trip through a format that has them is lossless."""

    patient_id: str | None = None
    note_id: str | None = None
    author: str | None = field(default=None, repr=False)
    thread: str | None = None
    note_date: dt.date | None = None
    known: KnownIdentifiers = field(default_factory=KnownIdentifiers)
    extra: tuple[tuple[str, str], ...] = ()
    # The handles of every poster among the notes detected together (Deidentifier.detect_many sets them, so a
    # message board's users are sought in each other's posts); PHI, so never written out nor shown.
    board_handles: tuple[str, ...] = field(default=(), repr=False)

    def get_extra(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.extra:
            if k == key:
                return v
        return default

    def with_extra(self, **values: str) -> DocumentMetadata:
        merged = dict(self.extra)
        merged.update(values)
        return replace(self, extra=tuple(sorted(merged.items())))

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for key in ("patient_id", "note_id", "author", "thread"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.note_date is not None:
            out["note_date"] = self.note_date.isoformat()
        if self.known:
            out["known"] = {
                k: list(getattr(self.known, k))
                for k in ("names", "mrns", "addresses", "relatives")
                if getattr(self.known, k)
            }
        if self.extra:
            out["extra"] = dict(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> DocumentMetadata:
        """Inverse of :meth:`as_dict`; unknown keys go to ``extra`` as strings."""
        known_raw = data.get("known") or {}
        if not isinstance(known_raw, Mapping):
            raise ValueError("metadata 'known' must be an object")
        known = KnownIdentifiers(
            **{k: tuple(str(v) for v in known_raw.get(k, ())) for k in ("names", "mrns", "addresses", "relatives")}
        )
        note_date = data.get("note_date")
        extra_raw = data.get("extra") or {}
        if not isinstance(extra_raw, Mapping):
            raise ValueError("metadata 'extra' must be an object")
        extra = {str(k): str(v) for k, v in extra_raw.items()}
        for k, v in data.items():
            if k not in {"patient_id", "note_id", "author", "thread", "note_date", "known", "extra"}:
                extra[str(k)] = str(v)

        def opt(key: str) -> str | None:
            value = data.get(key)
            return None if value is None else str(value)

        return cls(
            patient_id=opt("patient_id"),
            note_id=opt("note_id"),
            author=opt("author"),
            thread=opt("thread"),
            note_date=_iso_date(note_date),
            known=known,
            extra=tuple(sorted(extra.items())),
        )


def _iso_date(value: object) -> dt.date | None:
    """``metadata.note_date`` as a date; the error does not quote the value (it may be a real date)."""
    if not value:
        return None
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ValueError("metadata 'note_date' must be an ISO date (YYYY-MM-DD)") from None


@dataclass(frozen=True, slots=True)
class Document:
    """A note. ``id`` is unique within a corpus; ``text`` is never shown in reprs."""

    id: str
    text: str = field(repr=False)
    metadata: DocumentMetadata = field(default_factory=DocumentMetadata)

    def __repr__(self) -> str:
        return f"Document(id={self.id!r}, chars={len(self.text)}, patient_id={self.metadata.patient_id!r})"

    @property
    def patient_id(self) -> str | None:
        return self.metadata.patient_id


def _patient_id(document: Document) -> str | None:
    return document.patient_id


def patient_or_note(document: Document) -> str:
    """The group of a training note: its patient, or the note itself when the patient id is missing or empty (so
    cross-validation never puts notes of one patient on both sides)."""
    return document.patient_id or document.id


def patient_groups(
    documents: Sequence[Document], key: Callable[[Document], str | None] = _patient_id
) -> list[tuple[int, ...]]:
    """Positions of the documents grouped by patient, groups in order of first appearance, positions in input
    order. The patient is ``key(document)``, by default ``patient_id``; a document whose key is None forms a group
    of its own. (Training code passes its own key, e.g. the note id when the patient id is missing or empty.)"""
    return groups_of_keys(key(doc) for doc in documents)


def groups_of_keys(keys: Iterable[str | None]) -> list[tuple[int, ...]]:
    """:func:`patient_groups` given each document's patient (or None) only: a corpus too big to hold can be
    grouped from its patient ids."""
    groups: dict[str | int, list[int]] = {}
    for position, patient in enumerate(keys):
        groups.setdefault(patient if patient is not None else position, []).append(position)
    return [tuple(positions) for positions in groups.values()]


def patient_chunks(documents: Sequence[Document], size: int) -> list[tuple[int, ...]]:
    """Positions of the documents in chunks of whole patients (:func:`patient_groups`, in that order), each of
    about ``size`` documents: a patient's notes are never split, so a chunk can be processed (reconciled) alone;
    a patient with more than ``size`` notes makes a chunk of their own."""
    return chunks_of_groups(patient_groups(documents), size)


def chunks_of_groups(groups: Iterable[tuple[int, ...]], size: int) -> list[tuple[int, ...]]:
    """:func:`patient_chunks` of groups of positions (:func:`groups_of_keys`)."""
    if size < 1:
        raise ValueError("chunk size must be at least 1")
    chunks: list[tuple[int, ...]] = []
    current: list[int] = []
    for positions in groups:
        if current and len(current) + len(positions) > size:
            chunks.append(tuple(current))
            current = []
        current.extend(positions)
    if current:
        chunks.append(tuple(current))
    return chunks


@dataclass(frozen=True, slots=True)
class AnnotatedDocument:
    """A document with its spans (gold annotations, or a pipeline's predictions)."""

    document: Document
    spans: tuple[Span, ...] = ()

    def __post_init__(self) -> None:
        check_within(self.spans, len(self.document.text))
        object.__setattr__(self, "spans", sort_spans(self.spans))

    @property
    def id(self) -> str:
        return self.document.id

    @property
    def text(self) -> str:
        return self.document.text

    def with_spans(self, spans: tuple[Span, ...] | list[Span]) -> AnnotatedDocument:
        return AnnotatedDocument(self.document, tuple(spans))
