"""Immutable PHI spans: half-open character offsets into the original text, never the text itself."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from deident.core.labels import Category, Label
from deident.core.provenance import Confirmation, Part, confirmation_of
from deident.core.values import make_plain


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A PHI candidate or annotation covering ``text[start:end]``.

    ``source`` names the detector or file that produced it (a detector or stage name such as
    ``"patterns.date"``, ``"crf"``, ``"gold"``); ``score`` is its confidence when it has one;
    ``evidence`` holds short PHI-free notes that explain the span (which rule, which feature), as text
    for people; ``parts`` holds a merged candidate's detector proposals as data (stage 2's union; empty
    on a span that is not merged); ``confirmed`` says how a validator confirmed the span's structure (a
    checksum, a parsed phone number, a full calendar date; None: not confirmed), which the span filter never
    overrules (a merged candidate's flag is also in its parts). The PHI string itself is never stored: use
    :meth:`text_of`.
    """

    start: int
    end: int
    label: Label
    source: str = field(default="", compare=False)
    score: float | None = field(default=None, compare=False)
    evidence: tuple[str, ...] = field(default=(), compare=False)
    parts: tuple[Part, ...] = field(default=(), compare=False)
    confirmed: Confirmation | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Plain Python values only (deident.core.values): a numpy score or offset must not leave a stage.
        make_plain(self, "span")
        if type(self.evidence) is not tuple:
            object.__setattr__(self, "evidence", tuple(self.evidence))
        if type(self.parts) is not tuple:
            object.__setattr__(self, "parts", tuple(self.parts))
        if self.start < 0 or self.end <= self.start:
            raise ValueError(f"bad span offsets [{self.start}, {self.end})")
        if not isinstance(self.label, Label):
            raise TypeError(f"span label must be a Label, not {type(self.label).__name__}")

    @property
    def category(self) -> Category:
        return self.label.category

    @property
    def length(self) -> int:
        return self.end - self.start

    def text_of(self, text: str) -> str:
        """The covered text, given the document text the offsets refer to."""
        if self.end > len(text):
            raise ValueError(f"span [{self.start}, {self.end}) lies beyond a text of length {len(text)}")
        return text[self.start : self.end]

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def contains(self, other: Span) -> bool:
        return self.start <= other.start and other.end <= self.end

    def with_label(self, label: Label) -> Span:
        return replace(self, label=label)

    def with_evidence(self, *notes: str) -> Span:
        return replace(self, evidence=self.evidence + notes)

    def moved(self, start: int, end: int) -> Span:
        return replace(self, start=start, end=end)


def sort_spans(spans: Iterable[Span]) -> tuple[Span, ...]:
    """Spans in document order (start, then longer first), deterministic for equal offsets."""
    return tuple(sorted(spans, key=_document_order))


def _document_order(span: Span) -> tuple[int, int, Label, str]:
    """The sort key of :func:`sort_spans`: start, longer first, label, source. Labels are ``StrEnum`` members, which
    compare as their values (``str`` ordering) without the cost of looking ``.value`` up."""
    return span.start, -span.end, span.label, span.source


def check_within(spans: Sequence[Span], text_length: int) -> None:
    """Raise ValueError if any span lies beyond the text."""
    for span in spans:
        if span.end > text_length:
            raise ValueError(f"span [{span.start}, {span.end}) lies beyond a text of length {text_length}")


def remove_overlaps(spans: Iterable[Span]) -> tuple[Span, ...]:
    """Resolve overlaps: a longer span wins over the spans it overlaps; ties go to the higher score,
    then to the earlier span. Used where output needs disjoint spans (replacement, BIO encoding).

    Spans are taken in that order of preference and each is kept unless it overlaps one kept before. The characters
    the kept spans cover are marked in a byte array, so a span overlaps one kept before when a mark lies in its range
    (one search in C, as long as the span): time grows with the spans' total length, where comparing each span with
    every kept one took quadratic time on a note with tens of thousands of spans."""
    ordered = sorted(spans, key=_preference)
    covered = bytearray(max((span.end for span in ordered), default=0))
    kept: list[Span] = []
    for span in ordered:
        if covered.find(1, span.start, span.end) < 0:
            covered[span.start : span.end] = b"\x01" * span.length
            kept.append(span)
    return sort_spans(kept)


def disjoint_spans(spans: Iterable[Span], text: str) -> tuple[Span, ...]:
    """Disjoint spans that leave no letter or digit of ``spans`` uncovered, for replacement. Spans whose structure a
    validator confirmed come first (the validator knows where a date or a number ends), then :func:`remove_overlaps`'s
    order (longer, higher score, earlier); a span that overlaps one kept before keeps, with its own label, each part
    it covers beyond the kept spans, trimmed to its first and last letter or digit (a part with none is dropped).

    Stage 2 keeps a candidate of another category that sticks out of a merged one (a name "Wilkinson - D.O.B. 18-Dec"
    beside the date "18-Dec-1977"); dropping the shorter one whole, as :func:`remove_overlaps` does, left "-1977" in
    the output."""
    ordered = sorted(spans, key=_confirmed_first)
    covered = bytearray(max((span.end for span in ordered), default=0))
    kept: list[Span] = []
    for span in ordered:
        start, end = span.start, span.end
        if covered.find(1, start, end) < 0:
            covered[start:end] = b"\x01" * span.length
            kept.append(span)
            continue
        while start < end:
            free = covered.find(0, start, end)  # the next part this span covers beyond the kept ones
            if free < 0:
                break
            taken = covered.find(1, free, end)
            part_end = end if taken < 0 else taken
            first, last = _alnum_bounds(text, free, part_end)
            if first < last:
                covered[first:last] = b"\x01" * (last - first)
                kept.append(span.moved(first, last))
            start = part_end
    return sort_spans(kept)


def _confirmed_first(span: Span) -> tuple[bool, int, float, int]:
    return (confirmation_of(span) is None, *_preference(span))


def _alnum_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The offsets of the first letter or digit of ``text[start:end]`` and just after its last ((end, end): none)."""
    while start < end and not text[start].isalnum():
        start += 1
    while end > start and not text[end - 1].isalnum():
        end -= 1
    return start, end


def _preference(span: Span) -> tuple[int, float, int]:
    """The order in which :func:`remove_overlaps` considers spans: longer first, then higher score, then earlier."""
    return (-span.length, -(span.score if span.score is not None else 1.0), span.start)


def merge_adjacent(spans: Sequence[Span], text: str, max_gap: str = " ") -> tuple[Span, ...]:
    """Join same-label spans separated only by characters in ``max_gap`` (e.g. "John" "Smith")."""
    out: list[Span] = []
    for span in sort_spans(spans):
        if out:
            prev = out[-1]
            gap = text[prev.end : span.start]
            if prev.label == span.label and prev.end <= span.start and all(c in max_gap for c in gap):
                out[-1] = prev.moved(prev.start, max(prev.end, span.end))
                continue
        out.append(span)
    return tuple(out)
