"""The site's allow and deny lists as the last stages of a pipeline (after the scheme's policy, so that nothing
after them changes what they decided).

- allow (never PHI): a span lying inside an allow-listed phrase is dropped, a veto like the negative-evidence
  veto of stage 1 (:mod:`deident.stage1.veto`); a span that merely contains one stays ("Nightingale" allowed
  does not free "Florence Nightingale Smith").
- deny (always PHI): each whole-word occurrence of a denied phrase is a span with the list's label, unless a span
  already covers it; the spans it covers are replaced by it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.provenance import Confirmation
from deident.core.span import Span, sort_spans
from deident.detect.lexicon.matcher import LexiconMatcher
from deident.stage1.veto import PhraseHits
from deident.text.note_view import note_view


@dataclass(frozen=True)
class AllowListStage:
    """Drops the spans inside an allow-listed phrase."""

    terms: tuple[str, ...]
    name: str = "site.allow"

    @cached_property
    def _matcher(self) -> LexiconMatcher:
        return LexiconMatcher({"allow": self.terms})

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        if not spans:
            return spans
        found = self._matcher.find_all(document.text, note_view(document).normalised)
        if not found:
            return spans
        hits = PhraseHits.of([(m.start, m.end, "allow") for m in found])
        return tuple(s for s in spans if hits.containing(s.start, s.end) is None)


@dataclass(frozen=True)
class DenyListStage:
    """Adds a span for each denied phrase that no span covers yet, replacing the spans inside it."""

    terms: tuple[tuple[Label, tuple[str, ...]], ...]
    name: str = "site.deny"

    @cached_property
    def _matcher(self) -> LexiconMatcher:
        return LexiconMatcher({label.value: items for label, items in self.terms})

    @cached_property
    def _order(self) -> dict[str, int]:
        return {label.value: i for i, (label, _) in enumerate(self.terms)}

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        found = self._matcher.find_longest(document.text, note_view(document).normalised)
        if not found:
            return spans
        kept = list(spans)
        for match in found:
            if any(s.start <= match.start and match.end <= s.end for s in kept):
                continue
            kept = [s for s in kept if not (match.start <= s.start and s.end <= match.end)]
            label = Label(min(match.names, key=self._order.__getitem__))
            kept.append(
                Span(match.start, match.end, label, self.name, 1.0, ("site:deny",), confirmed=Confirmation.SITE_LIST)
            )
        return sort_spans(kept)
