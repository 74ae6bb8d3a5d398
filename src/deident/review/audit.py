"""Residual-risk audit: what in de-identified text still looks like PHI, ranked for a reviewer.

Every token outside the replaced spans is checked for five signs, each a risk class with a strength in [0, 1]:

- ``known_identifier``: a known identifier of the patient (metadata: names, record numbers) is still present;
- ``dropped_candidate``: a stage-1 detector proposed it and the final output kept it (the filter dropped it);
- ``identifier_digits``: a digit run of identifier shape (five or more digits, a phone, SSN or full-date
  layout, letters before four or more digits; not a measurement such as ``120/80``);
- ``unknown_word``: a word in no dictionary (rare in English per wordfreq, not a drug, clinical or function
  word, not an abbreviation without a vowel), stronger when capitalised in a mixed-case note or listed as a
  given name or surname;
- ``facility_name``: part of a facility's name left behind: the head noun of a facility name right after a
  replaced span ("[...] Hospital", half of a hospital name removed), or a word that is no function word right
  before such a head noun ("MD Hospital", "Kestrel Rehab").

A token's risk is its strongest class plus a little for each further class, so agreeing signs rank first.
:meth:`AuditResult.summary` holds counts only (for a report); the ranked items carry offsets, never text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

from deident.core.document import AnnotatedDocument
from deident.core.span import Span
from deident.text.tokenize import token_columns
from deident.text.wordfrequency import table_zipf


class RiskClass(StrEnum):
    KNOWN_IDENTIFIER = "known_identifier"
    DROPPED_CANDIDATE = "dropped_candidate"
    IDENTIFIER_DIGITS = "identifier_digits"
    UNKNOWN_WORD = "unknown_word"
    FACILITY_NAME = "facility_name"


# How much each class alone says about a token being PHI (a known identifier is PHI by definition).
CLASS_WEIGHT: dict[RiskClass, float] = {
    RiskClass.KNOWN_IDENTIFIER: 1.0,
    RiskClass.DROPPED_CANDIDATE: 0.8,
    RiskClass.IDENTIFIER_DIGITS: 0.6,
    RiskClass.UNKNOWN_WORD: 0.5,
    RiskClass.FACILITY_NAME: 0.7,
}
AGREEMENT_BONUS = 0.1  # per further class
DICTIONARY_ZIPF = 2.5  # below this wordfreq value a word is "in no dictionary" for the audit
COMMON_ZIPF = 5.0  # at or above this wordfreq value a word is everyday English ("same", "general")
FUNCTION_ZIPF = 5.8  # and at or above this one a function word ("the", "to", "his"), never part of a name
# Identifier shapes: a long digit run, a phone, SSN or full date layout, letters before a number ("A1234567");
# not a measurement ("120/80", "7.35"), which ICU notes are full of.
_DIGIT_SHAPE = re.compile(
    r"\d{5,}|\d{3}[-.]\d{3}[-.]\d{4}|\d{3}-\d{4}|\d{3}-\d{2}-\d{4}|\d{1,2}/\d{1,2}/\d{2,4}|[A-Za-z]{1,3}\d{4,}"
)
_MIN_IDENTIFIER_DIGITS = 4
_VOWEL = re.compile(r"[aeiouy]")  # a word without one is an abbreviation ("MRN", "Hct"), not a name
# Head nouns that end a facility's name ("Mercy Hospital", "Kestrel Ridge Rehab", "Oak Nursing Home").
FACILITY_HEADS = frozenset(
    "hospital hosp hospitals medical clinic clinics rehab rehabilitation infirmary hospice sanatorium nh "
    "snf center centre memorial campus".split()
)


@dataclass(frozen=True, slots=True)
class RiskItem:
    """One token that looks like residual PHI: where it is, why, and how risky (no text)."""

    document: str
    start: int
    end: int
    risk: float
    classes: tuple[RiskClass, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "start": self.start,
            "end": self.end,
            "risk": round(self.risk, 4),
            "classes": [c.value for c in self.classes],
        }


@dataclass
class AuditResult:
    """Ranked risky tokens (highest risk first) and how many tokens were audited."""

    items: list[RiskItem]
    tokens_audited: int
    documents: int
    per_document: dict[str, int] = field(default_factory=dict)

    def counts_by_class(self) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for item in self.items:
            counts.update(c.value for c in item.classes)
        return {c.value: counts[c.value] for c in RiskClass}

    def top(self, share: float) -> list[RiskItem]:
        """The highest-ranked ``share`` of all audited tokens (at least one when any is risky)."""
        count = max(1, round(self.tokens_audited * share)) if self.items else 0
        return self.items[:count]

    def summary(self) -> dict[str, Any]:
        """Counts only (no offsets, no text): for a run report."""
        return {
            "documents": self.documents,
            "tokens_audited": self.tokens_audited,
            "risky_tokens": len(self.items),
            "by_class": self.counts_by_class(),
            "documents_with_risk": sum(1 for n in self.per_document.values() if n),
        }


@lru_cache(maxsize=1)
def _dictionary() -> frozenset[str]:
    from deident.detect.lexicon.data import load_drug_names, load_lexicon, load_stop_words, load_veto_terms

    return load_drug_names() | load_stop_words() | frozenset(load_veto_terms()) | load_lexicon("common_words")


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    from deident.detect.lexicon.data import load_lexicon

    return load_lexicon("first_names") | load_lexicon("last_names")


def _mixed_case(text: str) -> bool:
    letters = list(filter(str.isalpha, text))
    upper = sum(map(str.isupper, letters))
    return bool(letters) and 0.02 < upper / len(letters) < 0.5


def _inside(spans: Sequence[Span], start: int, end: int) -> bool:
    return any(s.start < end and start < s.end for s in spans)


class _Covered:
    """:func:`_inside` for every token of a text at once: a mask of the covered characters; empty spans (which
    cover none) and empty ranges are checked by :func:`_inside` itself."""

    def __init__(self, spans: Sequence[Span], length: int) -> None:
        self._spans = spans
        self._mask = bytearray(length + 1)
        for span in spans:
            if span.end > span.start:
                self._mask[span.start : span.end] = b"\x01" * (span.end - span.start)
        self._empty = [s for s in spans if s.end <= s.start]

    def overlaps(self, start: int, end: int) -> bool:
        if end <= start:
            return _inside(self._spans, start, end)
        return self._mask.find(1, start, end) != -1 or (bool(self._empty) and _inside(self._empty, start, end))


def _known_values(document: AnnotatedDocument) -> list[str]:
    known = document.document.metadata.known
    values = [*known.names, *known.mrns, *known.relatives, *known.addresses]
    words = {w.lower() for value in values for w in re.findall(r"\w+", value) if len(w) >= 2}
    return sorted(words)


def audit_document(
    document: AnnotatedDocument, candidates: Sequence[Span] = (), dictionary: frozenset[str] | None = None
) -> tuple[list[RiskItem], int]:
    """Risky tokens of one document outside its spans (the replaced text), and the number of tokens audited.

    ``candidates`` are stage-1 candidates on the same text; those outside the replaced spans were dropped.
    """
    text = document.text
    replaced = document.spans
    known = set(_known_values(document))
    words = dictionary if dictionary is not None else _dictionary()
    names = _names()
    mixed = _mixed_case(text)
    covered = _Covered(replaced, len(text))
    dropped = [c for c in candidates if not covered.overlaps(c.start, c.end)]
    items: list[RiskItem] = []
    audited = 0
    starts, ends, texts, _ = token_columns(text)
    facility = _facility_signs(text, starts, ends, texts, covered)
    for index, (start, end, word) in enumerate(zip(starts, ends, texts, strict=True)):
        if covered.overlaps(start, end):
            continue
        audited += 1
        strengths: dict[RiskClass, float] = {}
        lowered = word.lower()
        if lowered in known:
            strengths[RiskClass.KNOWN_IDENTIFIER] = 1.0
        hits = [c for c in dropped if c.start < end and start < c.end] if dropped else None
        if hits:
            strengths[RiskClass.DROPPED_CANDIDATE] = max((c.score if c.score is not None else 0.5) for c in hits)
        if any(map(str.isdigit, word)):
            run = _digit_run(text, start, end)
            digits = sum(ch.isdigit() for ch in run)
            if digits >= _MIN_IDENTIFIER_DIGITS and _DIGIT_SHAPE.fullmatch(run):
                strengths[RiskClass.IDENTIFIER_DIGITS] = min(1.0, digits / 8)
        if word.isalpha() and len(word) >= 2 and lowered not in words and _VOWEL.search(lowered):
            zipf = table_zipf(lowered)
            if zipf < DICTIONARY_ZIPF:
                strength = 0.5 * (1 - zipf / DICTIONARY_ZIPF)
                if mixed and word[0].isupper():
                    strength += 0.3
                if lowered in names:
                    strength += 0.2
                strengths[RiskClass.UNKNOWN_WORD] = min(1.0, strength)
        if index in facility:
            strengths[RiskClass.FACILITY_NAME] = facility[index]
        if strengths:
            scores = sorted((CLASS_WEIGHT[c] * s for c, s in strengths.items()), reverse=True)
            risk = scores[0] + AGREEMENT_BONUS * (len(scores) - 1)
            classes = tuple(c for c in RiskClass if c in strengths)
            items.append(RiskItem(document.id, start, end, risk, classes))
    return items, audited


_FACILITY_GAP = re.compile(r"[ \t]{1,2}")  # words of one name: on one line, a space or two apart


def _facility_signs(
    text: str,
    starts: Sequence[int],
    ends: Sequence[int],
    texts: Sequence[str],
    covered: _Covered,
) -> dict[int, float]:
    """Token index -> strength of the ``facility_name`` sign (module docstring)."""
    signs: dict[int, float] = {}
    for i in range(1, len(texts)):
        if texts[i].lower().rstrip(".") not in FACILITY_HEADS or covered.overlaps(starts[i], ends[i]):
            continue
        if not _FACILITY_GAP.fullmatch(text[ends[i - 1] : starts[i]]):
            continue
        if covered.overlaps(starts[i - 1], ends[i - 1]):
            signs[i] = 0.8  # the head of a name whose other words were replaced
            continue
        before = texts[i - 1]
        lowered = before.lower()
        zipf = table_zipf(lowered)
        if not before[:1].isalnum() or zipf >= FUNCTION_ZIPF or lowered.rstrip(".") in FACILITY_HEADS:
            continue  # "the hospital", "to hospital", "his hospital", "medical center"
        strength = 0.6 + (0.3 if before[:1].isupper() else 0.0)
        if zipf >= COMMON_ZIPF:
            strength -= 0.4  # "same hospital", "general hospital": a common word is less often a name
        signs[i - 1] = strength
    return signs


def _digit_run(text: str, start: int, end: int) -> str:
    """The token with the digit groups joined to it by ``-``, ``/`` or ``.`` (tokens split at punctuation)."""
    left, right = start, end
    while left >= 2 and text[left - 1] in "-/." and text[left - 2].isdigit():
        left -= 2
        while left > 0 and text[left - 1].isalnum():
            left -= 1
    while right + 1 < len(text) and text[right] in "-/." and text[right + 1].isdigit():
        right += 2
        while right < len(text) and text[right].isalnum():
            right += 1
    return text[left:right]


def audit(documents: Sequence[AnnotatedDocument], candidates: Sequence[Sequence[Span]] | None = None) -> AuditResult:
    """Audit de-identified documents (their spans: the replaced text); ``candidates``: stage-1 candidates per
    document, when known. Items are ranked by risk, ties in document order."""
    dictionary = _dictionary()
    items: list[RiskItem] = []
    audited = 0
    per_document: dict[str, int] = {}
    for index, document in enumerate(documents):
        found, count = audit_document(document, candidates[index] if candidates is not None else (), dictionary)
        items.extend(found)
        audited += count
        per_document[document.id] = len(found)
    order = {d.id: i for i, d in enumerate(documents)}
    items.sort(key=lambda item: (-item.risk, order[item.document], item.start))
    return AuditResult(items, audited, len(documents), per_document)


# The run report lists at most this many documents by their count of risky tokens (the riskiest first).
REPORT_DOCUMENTS = 100
_NOT_ASSESSED_IN_RUN = (
    "Audited in deident run: the output text of each note, with its known identifiers (metadata). Not "
    "assessed: dropped_candidate (run keeps no stage-1 candidates; deident audit OUTPUT runs them) and "
    "--deid-col columns."
)


def audit_part(documents: Sequence[AnnotatedDocument], positions: Sequence[int]) -> dict[str, Any]:
    """The audit of some notes of one input (``positions``: 0-based, one per document) as counts a run may store
    beside its output: per class, and per risky document by 1-based position (ids can be identifiers)."""
    named = [
        AnnotatedDocument(replace(d.document, id=str(p + 1)), d.spans)
        for d, p in zip(documents, positions, strict=True)
    ]
    result = audit(named)
    return {
        "documents": result.documents,
        "tokens_audited": result.tokens_audited,
        "risky_tokens": len(result.items),
        "by_class": result.counts_by_class(),
        "per_document": {doc: count for doc, count in result.per_document.items() if count},
    }


@dataclass
class AuditTally:
    """:func:`audit_part` counts summed over a run's parts, for its report: counts only, documents named by
    input and position."""

    documents: int = 0
    tokens_audited: int = 0
    risky_tokens: int = 0
    documents_with_risk: int = 0
    by_class: Counter[str] = field(default_factory=Counter)
    _riskiest: list[tuple[int, str, int]] = field(default_factory=list)  # (-count, input, position)

    def add(self, part: dict[str, Any] | None, source: str) -> None:
        if part is None:  # a chunk committed by a version without the audit
            return
        self.documents += int(part["documents"])
        self.tokens_audited += int(part["tokens_audited"])
        self.risky_tokens += int(part["risky_tokens"])
        self.by_class.update({name: int(count) for name, count in dict(part["by_class"]).items()})
        per_document = dict(part["per_document"])
        self.documents_with_risk += len(per_document)
        self._riskiest.extend((-int(count), source, int(position)) for position, count in per_document.items())
        if len(self._riskiest) > 2 * REPORT_DOCUMENTS:
            self._riskiest = sorted(self._riskiest)[:REPORT_DOCUMENTS]

    def as_dict(self) -> dict[str, Any]:
        return {
            "documents_audited": self.documents,
            "tokens_audited": self.tokens_audited,
            "risky_tokens": self.risky_tokens,
            "by_class": {c.value: self.by_class[c.value] for c in RiskClass},
            "documents_with_risk": self.documents_with_risk,
            "riskiest_documents": [
                {"input": source, "position": position, "risky_tokens": -negative}
                for negative, source, position in sorted(self._riskiest)[:REPORT_DOCUMENTS]
            ],
            "scope": _NOT_ASSESSED_IN_RUN,
        }
