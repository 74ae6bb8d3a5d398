"""Trusted phrases: names read from the structured parts of a note (Szarvas 2007's document dictionary).

A name after "Attending:", "Referred by:", "Signed by", "cc:", "Dictated by", "PCP:", after a
title "Dr." in a candidate already confirmed, or on a signature line ("J. Smith, RN") is very
likely a clinician's name; these spans go back to the candidates and seed reconciliation, which then
tags the same string everywhere in the note (and the patient's notes).

Name words: letters (with ' or -), or an initial with an optional dot; 1 to 3 words, stopping at a
common English word (wordfreq Zipf >= ``NAME_STOP_ZIPF``, or a listed stop word); in a mixed-case
note, also at the first word that is not capitalised.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span, sort_spans
from deident.text.note_view import note_view
from deident.text.wordfrequency import zipf_lowered

NAME_STOP_ZIPF = 5.6  # first names such as "john" (5.4) must pass in all-caps notes
STOP_WORDS: frozenset[str] = frozenset(
    {"came", "saw", "seen", "aware", "notified", "called", "paged", "updated", "regarding", "re", "today", "pm", "am"}
)
SOURCE_PREFIX = "trusted."
CREDENTIALS: frozenset[str] = frozenset(
    {"RN", "MD", "NP", "PA", "PA-C", "RRT", "PT", "DO", "CNS", "LPN", "BSN", "RT", "MSW", "SW", "PHD", "DR"}
)
_TRIGGERS: tuple[tuple[str, str], ...] = (
    ("attending", r"attending(?:\s+(?:physician|md|doctor))?\s*:"),
    ("referred_by", r"referr(?:ed|ing)\s+(?:by|physician|md|doctor)\s*:?"),
    ("signed_by", r"(?:electronically\s+)?signed(?:\s+by)?\s*:?"),
    ("dictated_by", r"dictated\s+by\s*:?"),
    ("cc", r"\bcc\s*:"),
    ("pcp", r"\b(?:pcp|primary\s+care(?:\s+physician)?)\s*(?:is|:)"),
    ("title", r"\b(?:dr|doctor)\.?"),
)
_NAME_WORD = r"(?:\p{L}[\p{L}'\-]+|\p{L}\.?)"
_TRIGGER_RE = regex.compile(
    r"(?P<trigger>" + "|".join(f"(?P<{k}>{p})" for k, p in _TRIGGERS) + r")[ \t]+(?:(?:dr|doctor)\.?[ \t]+)?"
    r"(?P<name>" + _NAME_WORD + r"(?:[ \t]+" + _NAME_WORD + r"){0,2})",
    regex.IGNORECASE,
)
_SIGNATURE_RE = regex.compile(
    r"^[ \t]*(?P<name>\p{Lu}[\p{L}'\-]*\.?(?:[ \t]+\p{Lu}[\p{L}'\-]*\.?){0,2})[ \t]*,?[ \t]+"
    r"(?:RN|MD|NP|PA|PA-C|RRT|PT|DO|CNS|LPN|BSN|RT)\b\.?[ \t]*$",
    regex.MULTILINE,
)


def _trim_name(text: str, start: int, end: int, mixed_case: bool) -> tuple[int, int] | None:
    """Keep leading name-like words; stop at a common word (unless title-cased in mixed-case text)."""
    kept_end = None
    for m in regex.finditer(r"\S+", text[start:end]):
        word = m.group().rstrip(".,")
        if word.upper() in CREDENTIALS:
            break
        common = len(word) > 1 and (zipf_lowered(word) >= NAME_STOP_ZIPF or word.lower() in STOP_WORDS)
        looks_named = mixed_case and word[:1].isupper()
        if common and not looks_named:
            break
        if mixed_case and not word[:1].isupper():
            break
        kept_end = start + m.end()
    if kept_end is None:
        return None
    # A lone initial is not a name worth trusting.
    if len(text[start:kept_end].strip(". ")) < 2:
        return None
    return start, kept_end


def harvest_trusted_phrases(document: Document, spans: tuple[Span, ...] = ()) -> tuple[Span, ...]:
    """DOCTOR spans for names in structured positions (see the module docstring)."""
    text = document.text
    upper = note_view(document).case.upper_fraction()
    mixed_case = 0.02 <= upper <= 0.9
    out: list[Span] = []
    for m in _TRIGGER_RE.finditer(text):
        kind = next(k for k, _ in _TRIGGERS if m.group(k) is not None)
        if kind == "title":
            # "Dr." only confirms a name that a detector (or the filter) already proposed.
            name_start = m.start("name")
            if not any(sp.start <= name_start < sp.end for sp in spans):
                continue
        trimmed = _trim_name(text, *m.span("name"), mixed_case)
        if trimmed is not None:
            out.append(Span(*trimmed, Label.DOCTOR, SOURCE_PREFIX + kind, 1.0, (f"trusted: after {kind} trigger",)))
    for m in _SIGNATURE_RE.finditer(text):
        trimmed = _trim_name(text, *m.span("name"), mixed_case=True)
        if trimmed is not None:
            out.append(Span(*trimmed, Label.DOCTOR, SOURCE_PREFIX + "signature", 1.0, ("trusted: signature line",)))
    return sort_spans(set(out))


@dataclass(frozen=True)
class TrustedPhraseStage:
    """Adds trusted-phrase spans to the candidates (reconciliation then propagates them)."""

    name: str = "trusted_phrases"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        found = harvest_trusted_phrases(document, spans)
        fresh = [t for t in found if not any(t.start >= s.start and t.end <= s.end for s in spans)]
        return sort_spans((*spans, *fresh))
