"""Candidate union of stage-1 detectors with a fixed overlap policy.

Policy (applied to each connected group of overlapping spans, highest priority first):

1. Priority: a site's own rule (:mod:`deident.site`: a custom pattern's match, a whole entry of a site list)
   outranks everything, the site knowing its own identifiers best; then a pattern span (``source`` starts with
   ``"patterns."``) whose category is CONTACT, ID, DATE or AGE (Lee 2017: rules beat the CRF for these); then the
   longer span; then the higher score; then the earlier start, the label name and the source name
   (deterministic).
2. The top span seeds a merged candidate. Any other span that overlaps the merged extent and has the
   same category is merged into it (extent becomes the union: a longer span wins over one it contains,
   and partial overlaps of the same category grow to their union) -- except that a pattern seed of
   CONTACT, ID, DATE or AGE keeps its own extent (the rule knows where a phone number, a date or an age ends;
   a CRF's extension over "cell#" or "or" is not one, nor its name over "a 68" of "a 68 yo"). A span of another
   category that lies inside the merged extent is absorbed (its label loses); a site's rule keeps its own extent
   too; a span of another category that sticks out of it is kept as a separate candidate, so no detector's
   proposal is lost for recall.
3. The merged candidate keeps the seed's label, the maximum score of its parts, a ``source`` naming all
   parts ("crf+patterns.date"), one typed :class:`~deident.core.provenance.Part` per part in ``parts``
   (each with its validator's ``confirmed`` flag; the candidate is ``confirmed`` when a part of its own
   category is) and, as ``evidence``, each part's own evidence prefixed by its source, so the final span
   can explain itself.

The union is idempotent: a span that is already a merged candidate is split back into its parts.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from deident.core.document import Document
from deident.core.labels import Category
from deident.core.provenance import Part, part_score
from deident.core.span import Span, sort_spans

PATTERN_FIRST: frozenset[Category] = frozenset({Category.CONTACT, Category.ID, Category.DATE, Category.AGE})
SOURCE_JOIN = "+"


def _pattern_first(span: Span) -> bool:
    return (span.source.startswith("patterns.") and span.category in PATTERN_FIRST) or _site_rule(span)


def _site_rule(span: Span) -> bool:
    """A match of a site's custom pattern, or a whole entry of a site list (a part or near miss is not)."""
    return span.source.startswith("site.") and (span.source == "site.patterns" or span.confirmed is not None)


def _priority(span: Span) -> tuple[int, int, float, int, str, str]:
    score = span.score if span.score is not None else 1.0
    rank = 0 if _site_rule(span) else 1 if _pattern_first(span) else 2
    # The label itself orders as its value (Label is a str enum), without the enum's slow ``.value``.
    return (rank, span.start - span.end, -score, span.start, span.label, span.source)


def _atoms(span: Span) -> list[Span]:
    """A span as single-detector spans (undo an earlier merge, so union is idempotent)."""
    if not span.parts:
        return [span]  # stage 1's spans: not merged yet
    atoms: list[Span] = []
    for part in span.parts:
        prefix = f"{part.source}: "
        mine = tuple(n[len(prefix) :] for n in span.evidence if n.startswith(prefix))
        atoms.append(Span(part.start, part.end, part.label, part.source, part.score, mine, confirmed=part.confirmed))
    return atoms


def _merge(seed: Span, members: Sequence[Span], start: int, end: int, order: Callable[[Span], Any] = _priority) -> Span:
    """The merged candidate; ``order`` gives each member's :func:`_priority` (the caller may have them already)."""
    scores = [m.score for m in members if m.score is not None]
    sources = sorted({m.source for m in members})
    ordered = sorted(members, key=order)
    # dict.fromkeys: a part proposed twice is kept once, and parts of one detector share their notes
    # after a re-split.
    parts = tuple(
        dict.fromkeys([Part(m.source, m.label, m.start, m.end, part_score(m.score), m.confirmed) for m in ordered])
    )
    notes = tuple(dict.fromkeys([f"{m.source}: {note}" for m in ordered for note in m.evidence]))
    # Confirmed when a part of the candidate's own category is (its structure lies inside the candidate).
    confirmed = next((m.confirmed for m in ordered if m.confirmed is not None and m.category is seed.category), None)
    score = max(scores) if scores else None
    return Span(start, end, seed.label, SOURCE_JOIN.join(sources), score, notes, parts, confirmed)


def _components(spans: list[Span]) -> list[list[Span]]:
    """Groups of transitively overlapping spans, in document order."""
    groups: list[list[Span]] = []
    end = -1
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if groups and span.start < end:
            groups[-1].append(span)
            end = max(end, span.end)
        else:
            groups.append([span])
            end = span.end
    return groups


# Groups up to this size are resolved by the reference; larger ones (a run of dates under one long CRF span, the
# hostile input of a note made of nothing else) by the indexed resolution, which gives the same candidates.
_INDEXED_FROM = 48
# A span up to this long is found by its start; longer ones are checked against every seed.
_SHORT_SPAN = 64


def _order_of(group: list[Span]) -> Callable[[Span], tuple[int, int, float, int, str, str]]:
    """Each span's :func:`_priority`, computed once per group."""
    priority = {id(span): _priority(span) for span in group}
    return lambda span: priority[id(span)]


def _takes(seed: Span, other: Span, start: int, end: int) -> bool:
    """Whether the candidate that ``seed`` started, now over [start, end), takes ``other`` (rule 2): it overlaps and
    has the seed's category, or lies inside."""
    if not (other.start < end and start < other.end):
        return False
    return other.category is seed.category or (start <= other.start and other.end <= end)


def _closure(
    seed: Span, candidates: Callable[[int, int], Iterable[Span]], take: Callable[[Span], None]
) -> tuple[list[Span], int, int]:
    """The members and extent of the candidate ``seed`` starts: every span of ``candidates(start, end)`` (those not
    taken yet that may overlap [start, end)) that it takes, until none is left to take; the extent grows with
    same-category members unless the seed's is fixed. ``take`` removes a member from the candidates."""
    members = [seed]
    start, end = seed.start, seed.end
    fixed_extent = _pattern_first(seed)
    changed = True
    while changed:
        changed = False
        for other in candidates(start, end):
            if _takes(seed, other, start, end):
                members.append(other)
                take(other)
                if other.category is seed.category and not fixed_extent:
                    start, end = min(start, other.start), max(end, other.end)
                changed = True
    return members, start, end


def _resolve(group: list[Span]) -> list[Span]:
    """The merged candidates of one group of overlapping spans (module docstring, rule 2)."""
    return _resolve_reference(group) if len(group) < _INDEXED_FROM else _resolve_indexed(group)


def _resolve_indexed(group: list[Span]) -> list[Span]:
    """:func:`_resolve_reference`'s candidates without its quadratic scan: a seed looks only at the short spans that
    start near its extent (by bisection) and at the few long ones. What a seed takes does not depend on the order in
    which it finds its members (taking only grows the extent, and a span taken at one extent is taken at a larger
    one), and ``_merge`` orders them itself."""
    order = _order_of(group)
    short = sorted((s for s in group if s.end - s.start <= _SHORT_SPAN), key=lambda s: s.start)
    short_starts = [s.start for s in short]
    long_spans = [s for s in group if s.end - s.start > _SHORT_SPAN]
    taken: set[int] = set()

    def candidates(start: int, end: int) -> list[Span]:
        near = short[bisect_left(short_starts, start - _SHORT_SPAN) : bisect_left(short_starts, end)]
        return [s for s in (*near, *long_spans) if id(s) not in taken]

    out: list[Span] = []
    for seed in sorted(group, key=order):
        if id(seed) in taken:
            continue
        taken.add(id(seed))
        members, start, end = _closure(seed, candidates, lambda span: taken.add(id(span)))
        if any(id(s) in taken for s in long_spans):
            long_spans = [s for s in long_spans if id(s) not in taken]
        out.append(_merge(seed, members, start, end, order))
    return out


def _resolve_reference(group: list[Span]) -> list[Span]:
    """The policy as written: seeds in priority order, each taking from all the remaining spans (quadratic in the
    group's size; :func:`_resolve_indexed` for large groups)."""
    order = _order_of(group)
    remaining = sorted(group, key=order)
    out: list[Span] = []
    while remaining:
        seed = remaining.pop(0)
        members, start, end = _closure(seed, lambda start, end: list(remaining), remaining.remove)
        out.append(_merge(seed, members, start, end, order))
    return out


def union_candidates(spans: Iterable[Span]) -> tuple[Span, ...]:
    """Merge stage-1 candidates by the policy in the module docstring."""
    atoms = [atom for span in spans for atom in _atoms(span)]
    merged: list[Span] = []
    for group in _components(atoms):
        merged.extend(_resolve(group))
    return sort_spans(merged)


@dataclass(frozen=True)
class UnionStage:
    """Pipeline stage form of :func:`union_candidates`."""

    name: str = "union"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return union_candidates(spans)
