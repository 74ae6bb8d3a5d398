"""Known identifiers: values from ``document.metadata.known`` found everywhere in the note.

Patient and relative names are found whole ("John Smith", "Smith, John"), by part ("Smith's"), with
initials ("J. Smith", "JS" when the initials are not a clinical abbreviation or common word) and
fuzzily (Damerau–Levenshtein <= 1, <= 2 for long parts). MRNs match with or without separators;
addresses match whole and by street line. Nothing here is cached across documents.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import regex
from rapidfuzz.distance import DamerauLevenshtein

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.lexicon.context import is_clinical_term, is_common_word
from deident.detect.lexicon.fuzzy import MIN_FUZZY_LENGTH, max_distance

_PART = regex.compile(r"[\p{L}][\p{L}'-]*")
_SEP = r"[\s,.]+"
_TEXT_WORD = regex.compile(r"\p{L}+")


def _word(part: str) -> str:
    return rf"(?<![\p{{L}}\p{{N}}]){regex.escape(part)}(?![\p{{L}}\p{{N}}])"


@dataclass(frozen=True)
class KnownIdentifierDetector:
    """Finds the document's known identifiers (``metadata.known``) in its text."""

    name: str = "lexicon.known"
    fuzzy: bool = True

    def detect(self, document: Document) -> list[Span]:
        known = document.metadata.known
        if not known:
            return []
        text = document.text
        out: list[Span] = []
        out.extend(self._names(text, known.names, Label.PATIENT))
        out.extend(self._names(text, known.relatives, Label.RELATIVE))
        out.extend(self._mrns(text, known.mrns))
        out.extend(self._addresses(text, known.addresses))
        return sorted(set(out), key=lambda s: (s.start, -s.end, s.label.value))

    def _span(self, start: int, end: int, label: Label, score: float, *evidence: str) -> Span:
        return Span(start, end, label, source=self.name, score=score, evidence=("known", *evidence))

    def _names(self, text: str, values: Iterable[str], label: Label) -> list[Span]:
        out: list[Span] = []
        parts_seen: set[str] = set()
        for value in values:
            parts = [p for p in _PART.findall(value) if len(p.strip("'-")) >= 1]
            if not parts:
                continue
            if len(parts) > 1:
                whole = _SEP.join(regex.escape(p) for p in parts)
                reverse = _SEP.join(regex.escape(p) for p in (parts[-1], *parts[:-1]))
                for pattern, note in ((whole, "known:full"), (reverse, "known:reversed")):
                    for m in regex.finditer(rf"(?<![\p{{L}}\p{{N}}]){pattern}(?![\p{{L}}\p{{N}}])", text, regex.I):
                        out.append(self._span(m.start(), m.end(), label, 0.98, note))
                # "J. Smith", "J Smith": first initial before the last name.
                initial_last = _word(parts[0][0]) + r"\.?\s*" + _word(parts[-1])
                for m in regex.finditer(initial_last, text, regex.I):
                    out.append(self._span(m.start(), m.end(), label, 0.9, "known:initial_last"))
                out.extend(self._initials(text, parts, label))
            for part in parts:
                lowered = part.lower()
                if len(lowered) < 2 or lowered in parts_seen:
                    continue
                parts_seen.add(lowered)
                ambiguous = is_common_word(lowered) or is_clinical_term(lowered)
                score = 0.55 if ambiguous else 0.9
                notes = ("known:part", "common_word") if ambiguous else ("known:part",)
                for m in regex.finditer(_word(part), text, regex.I):
                    out.append(self._span(m.start(), m.end(), label, score, *notes))
            if self.fuzzy:
                out.extend(self._fuzzy(text, parts, label))
        return out

    def _initials(self, text: str, parts: list[str], label: Label) -> list[Span]:
        """Upper-case initials ("JS", "J.S.") when they are not an abbreviation or common word."""
        initials = "".join(p[0] for p in parts).upper()
        if len(initials) < 2 or is_clinical_term(initials) or is_common_word(initials.lower()):
            return []
        dotted = r"\.?".join(regex.escape(c) for c in initials) + r"\.?"
        pattern = rf"(?<![\p{{L}}\p{{N}}])(?:{regex.escape(initials)}|{dotted})(?![\p{{L}}\p{{N}}])"
        return [self._span(m.start(), m.end(), label, 0.6, "known:initials") for m in regex.finditer(pattern, text)]

    def _fuzzy(self, text: str, parts: list[str], label: Label) -> list[Span]:
        targets = [p.lower() for p in parts if len(p) >= MIN_FUZZY_LENGTH - 1]
        if not targets:
            return []
        out: list[Span] = []
        for m in _TEXT_WORD.finditer(text):
            word = m.group().lower()
            if len(word) < MIN_FUZZY_LENGTH - 1 or word in targets:
                continue
            limit = max_distance(word)
            for target in targets:
                if abs(len(target) - len(word)) > limit:
                    continue
                distance = DamerauLevenshtein.distance(word, target, score_cutoff=limit)
                if distance <= limit and not is_common_word(word) and not is_clinical_term(word):
                    out.append(self._span(m.start(), m.end(), label, 0.7, "known:fuzzy", f"fuzzy:{distance}"))
                    break
        return out

    def _mrns(self, text: str, values: Iterable[str]) -> list[Span]:
        out: list[Span] = []
        for value in values:
            chars = [c for c in value if c.isalnum()]
            if len(chars) < 3:
                continue
            pattern = r"[\s.-]?".join(regex.escape(c) for c in chars)
            for m in regex.finditer(rf"(?<![\p{{L}}\p{{N}}]){pattern}(?![\p{{L}}\p{{N}}])", text, regex.I):
                out.append(self._span(m.start(), m.end(), Label.MEDICALRECORD, 0.98, "known:mrn"))
        return out

    def _addresses(self, text: str, values: Iterable[str]) -> list[Span]:
        out: list[Span] = []
        for value in values:
            pieces = [value, value.split(",")[0].split("\n")[0]]
            for piece, note in zip(pieces, ("known:address", "known:street"), strict=True):
                words = regex.findall(r"[\p{L}\p{N}]+", piece)
                if len(words) < 2:
                    continue
                pattern = r"[\W_]+".join(regex.escape(w) for w in words)
                for m in regex.finditer(rf"(?<![\p{{L}}\p{{N}}]){pattern}(?![\p{{L}}\p{{N}}])", text, regex.I):
                    out.append(self._span(m.start(), m.end(), Label.STREET, 0.95, note))
        return out
