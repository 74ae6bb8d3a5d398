"""Dictionary detectors: names and places from lexicons, hospital and organisation name shapes.

Every match gets a score from context rather than a yes/no: a common English word or clinical term
in an ALL CAPS note scores low, a capitalised match in a mixed-case note or one next to a role
trigger scores high. Spans below ``min_score`` are not emitted (pass 0 to get them all, e.g. for a
classifier that weighs the evidence itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import regex

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.lexicon.context import (
    AFTER_TRIGGERS,
    BEFORE_TRIGGERS,
    HONORIFIC,
    MULTIWORD_BEFORE_TRIGGERS,
    RARE_WORD_ZIPF,
    CaseMode,
    case_mode,
    is_clinical_term,
    is_common_word,
    is_frequent_word,
    name_trigger,
    place_trigger,
    sentence_initial,
    zipf,
)
from deident.detect.lexicon.data import (
    load_drug_names,
    load_hospital_names,
    load_hospital_shapes,
    load_lexicon,
    load_stop_words,
)
from deident.detect.lexicon.fuzzy import fuzzy_name
from deident.detect.lexicon.matcher import CaseShape, LexiconMatch, LexiconMatcher, case_shape, normalise_document

NAME_LEXICONS = ("first_names", "last_names")
PLACE_LABELS: dict[str, Label] = {
    "cities": Label.CITY,
    "us_counties": Label.LOCATION_OTHER,
    "states": Label.STATE,
    "countries": Label.COUNTRY,
}
# PHI-free evidence notes naming the lexicon that matched.
LEXICON_EVIDENCE: dict[str, str] = {
    "first_names": "lexicon:first_name",
    "last_names": "lexicon:last_name",
    "cities": "lexicon:city",
    "us_counties": "lexicon:county",
    "states": "lexicon:state",
    "countries": "lexicon:country",
}
# Scores are in [0, 1]: a lexicon match starts near 0.55 and context moves it. Spans below
# DEFAULT_MIN_SCORE are not emitted; CONFIDENT_SCORE is what lends support to the same string
# elsewhere in the note. Tuned on development notes with bench/bench_lexicon.py.
DEFAULT_MIN_SCORE = 0.45
CONFIDENT_SCORE = 0.6
# A city or county this frequent in English is an ordinary word too ("union", "university").
PLACE_COMMON_ZIPF = 4.8

_CAPITALISED_WORD = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}\p{Ll}{4,}(?![\p{L}\p{N}])")
_NEXT_WORD = regex.compile(r" +(?:[a-z] +)?([a-z]{5,})(?![a-z0-9])")
_PREVIOUS_WORD = regex.compile(r"(?<![a-z0-9])([a-z]{5,}) +$")


@lru_cache(maxsize=1)
def _trigger_matcher() -> LexiconMatcher:
    return LexiconMatcher({"before": [*BEFORE_TRIGGERS, *MULTIWORD_BEFORE_TRIGGERS], "after": list(AFTER_TRIGGERS)})


def _words_near_triggers(normalised: str) -> set[tuple[int, int]]:
    """5+ letter words right after a role trigger ("dr smith") or right before one ("smith md")."""
    out: set[tuple[int, int]] = set()
    for hit in _trigger_matcher().find_all(normalised, normalised):
        if "before" in hit.names:
            following = _NEXT_WORD.match(normalised, hit.end)
            if following:
                out.add(following.span(1))
        if "after" in hit.names:
            preceding = _PREVIOUS_WORD.search(normalised, max(0, hit.start - 30), hit.start)
            if preceding:
                out.add(preceding.span(1))
    return out


@lru_cache(maxsize=1)
def name_matcher() -> LexiconMatcher:
    return LexiconMatcher({name: load_lexicon(name) for name in NAME_LEXICONS})


@lru_cache(maxsize=1)
def place_matcher() -> LexiconMatcher:
    return LexiconMatcher({name: load_lexicon(name) for name in PLACE_LABELS})


def _case_adjustment(mode: CaseMode, text: str, start: int, end: int) -> tuple[float, str]:
    """Score change and evidence from how a match is written relative to the note's convention."""
    if mode is not CaseMode.MIXED:
        return 0.0, _NOTE_CASE_EVIDENCE[mode]
    shape = case_shape(text[start:end])
    if shape is CaseShape.CAPITALISED:
        return (0.0, "case:cap_initial") if sentence_initial(text, start) else (0.2, "case:cap")
    if shape is CaseShape.UPPER:
        return (-0.3, "case:upper_short") if end - start <= 3 else (0.0, "case:upper")
    if shape is CaseShape.LOWER:
        return -0.35, "case:lower"
    return -0.1, "case:mixed"


_NOTE_CASE_EVIDENCE = {mode: f"note_case:{mode.value}" for mode in CaseMode}


@lru_cache(maxsize=65536)
def _ambiguity(word: str) -> tuple[float, tuple[str, ...]]:
    """Penalty for a (lower-case) match that is also an ordinary word, clinical term or very short."""
    penalty = 0.0
    notes: list[str] = []
    if is_clinical_term(word):
        penalty -= 0.45
        notes.append("clinical_term")
    if " " not in word:
        if is_common_word(word):
            penalty -= 0.45
            notes.append("common_word")
        elif is_frequent_word(word):
            penalty -= 0.15
            notes.append("frequent_word")
    if len(word) <= 3:
        penalty -= 0.3 if len(word) <= 2 else 0.1
        notes.append("short")
    return penalty, tuple(notes)


def _place_ambiguity(surface: str, lexicon: str) -> tuple[float, tuple[str, ...]]:
    """Penalty for a place that is also a clinical term or an ordinary word ("Mobile", "Union").
    Place names are not judged by English frequency alone: "Baltimore" is frequent but no word,
    and state and country names are never ordinary words."""
    word = surface.lower()
    if is_clinical_term(word):
        return -0.45, ("clinical_term",)
    if lexicon in {"states", "countries"}:
        return 0.0, ()
    if word in load_lexicon("common_words") or (" " not in word and zipf(word) >= PLACE_COMMON_ZIPF):
        return -0.45, ("common_word",)
    if len(word) <= 3:
        return -0.1, ("short",)
    return 0.0, ()


class _Scored(NamedTuple):
    """A match being scored; ``key`` is its normalised text, compared within one note only."""

    start: int
    end: int
    label: Label
    score: float
    evidence: tuple[str, ...]
    key: str


@dataclass(frozen=True)
class NameLexiconDetector:
    """First and last names from the lexicons, exactly and (in context) fuzzily."""

    name: str = "lexicon.name"
    min_score: float = DEFAULT_MIN_SCORE
    fuzzy: bool = True

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        normalised = normalise_document(text)
        mode = case_mode(text)
        matches = name_matcher().find_longest(text, normalised)
        scored = [self._score(text, normalised, mode, m) for m in matches]
        if self.fuzzy:
            scored.extend(self._fuzzy(text, normalised, mode, matches))
        scored.sort(key=lambda s: s.start)
        scored = _adjacency(text, scored)
        scored = _elsewhere(scored)
        return [
            Span(
                s.start,
                s.end,
                s.label,
                source=self.name,
                score=round(min(1.0, max(0.0, s.score)), 3),
                evidence=s.evidence,
            )
            for s in scored
            if s.score >= self.min_score
        ]

    def _score(self, text: str, normalised: str, mode: CaseMode, match: LexiconMatch) -> _Scored:
        surface = text[match.start : match.end]
        score = 0.6 if len(match.names) > 1 else 0.55
        evidence = [LEXICON_EVIDENCE[n] for n in match.names]
        delta, note = _case_adjustment(mode, text, match.start, match.end)
        score += delta
        evidence.append(note)
        key = normalised[match.start : match.end]
        penalty, notes = _ambiguity(surface.lower())
        evidence.extend(notes)
        label = Label.PATIENT
        trigger = name_trigger(text, normalised, match.start, match.end)
        if trigger is not None:
            if trigger.strength == HONORIFIC:
                penalty = max(penalty, -0.2)  # "Dr. Walker", "Mrs. Hope": the honorific settles it
            score += trigger.boost
            label = trigger.label
            evidence.append(trigger.evidence)
        score += penalty
        return _Scored(match.start, match.end, label, score, tuple(evidence), key)

    def _fuzzy(self, text: str, normalised: str, mode: CaseMode, matches: list[LexiconMatch]) -> list[_Scored]:
        """Near-misses of names, tried only for rare words that context marks as name-like: a
        capitalised word inside a sentence of a mixed-case note, or a word next to a role trigger."""
        taken = {(m.start, m.end) for m in matches}
        positions: set[tuple[int, int]] = set()
        if mode is CaseMode.MIXED:
            positions.update(m.span() for m in _CAPITALISED_WORD.finditer(text))
        positions.update(_words_near_triggers(normalised))
        out: list[_Scored] = []
        for start, end in sorted(positions - taken):
            lowered = normalised[start:end]
            if zipf(lowered) >= RARE_WORD_ZIPF:
                continue
            capital_cue = (
                mode is CaseMode.MIXED
                and case_shape(text[start:end]) is CaseShape.CAPITALISED
                and not sentence_initial(text, start)
            )
            trigger = name_trigger(text, normalised, start, end)
            if trigger is None and not capital_cue:
                continue
            if is_clinical_term(lowered) or _is_drug(lowered):
                continue
            hit = fuzzy_name(lowered)
            if hit is None:
                continue
            score = 0.45 - 0.1 * (hit.distance - 1)
            evidence = [*(LEXICON_EVIDENCE[n] for n in hit.names), f"fuzzy:{hit.distance}"]
            label = Label.PATIENT
            if capital_cue:
                score += 0.1
                evidence.append("case:cap")
            if trigger is not None:
                score += trigger.boost
                label = trigger.label
                evidence.append(trigger.evidence)
            out.append(_Scored(start, end, label, score, tuple(evidence), lowered))
        return out


def _is_drug(word: str) -> bool:
    return word in load_drug_names()


def _adjacency(text: str, scored: list[_Scored]) -> list[_Scored]:
    """Name matches separated by a space or ", " support each other ("John Smith", "Smith, John")."""
    out = list(scored)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        gap = text[a.end : b.start]
        joined = gap in {" ", ", ", " , "} or (len(gap) <= 3 and gap.strip() in {"", "."} and a.end - a.start == 1)
        if joined and (max(a.score, b.score) >= CONFIDENT_SCORE or (a.score >= 0.3 and b.score >= 0.3)):
            label = a.label if a.label is not Label.PATIENT else b.label
            out[i] = _Scored(a.start, a.end, label, a.score + 0.15, (*a.evidence, "adjacent_name"), a.key)
            out[i + 1] = _Scored(b.start, b.end, label, b.score + 0.15, (*b.evidence, "adjacent_name"), b.key)
    return out


def _elsewhere(scored: list[_Scored]) -> list[_Scored]:
    """A weak match whose string is a confident name elsewhere in the note is raised."""
    confident = {s.key for s in scored if s.score >= CONFIDENT_SCORE}
    labels: dict[str, Label] = {}
    for s in scored:
        if s.score >= CONFIDENT_SCORE and s.label is not Label.PATIENT:
            labels.setdefault(s.key, s.label)
    return [
        _Scored(s.start, s.end, labels.get(s.key, s.label), s.score + 0.35, (*s.evidence, "name_elsewhere"), s.key)
        if s.score < CONFIDENT_SCORE and s.key in confident
        else s
        for s in scored
    ]


@dataclass(frozen=True)
class PlaceLexiconDetector:
    """Cities, US counties, states and countries from the lexicons."""

    name: str = "lexicon.place"
    min_score: float = DEFAULT_MIN_SCORE

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        normalised = normalise_document(text)
        mode = case_mode(text)
        names = name_matcher()
        out: list[Span] = []
        for match in place_matcher().find_longest(text, normalised):
            surface = text[match.start : match.end]
            lexicon = next(n for n in PLACE_LABELS if n in match.names)
            score = 0.6 if lexicon in {"states", "countries"} else 0.45
            evidence = [LEXICON_EVIDENCE[lexicon]]
            delta, note = _case_adjustment(mode, text, match.start, match.end)
            penalty, notes = _place_ambiguity(surface, lexicon)
            score += delta + penalty
            evidence.append(note)
            evidence.extend(notes)
            trigger = place_trigger(text, normalised, match.start)
            if trigger is not None:
                score += 0.15
                evidence.append(trigger)
            elif surface.lower() in names:
                # "Jackson", "Houston": also a name; without a place cue the name reading is likelier.
                score -= 0.15
                evidence.append("also_name")
            score = round(min(1.0, max(0.0, score)), 3)
            if score >= self.min_score:
                out.append(Span(match.start, match.end, PLACE_LABELS[lexicon], self.name, score, tuple(evidence)))
        return out


_SHAPE_WORD = regex.compile(r"[\p{L}][\p{L}'&-]*")
_NAME_AFTER_PREFIX = regex.compile(r"\.?\s+([\p{L}][\p{L}'&-]*)")


def _name_before(text: str, mode: CaseMode, stop: frozenset[str], start: int) -> int | None:
    """Start of up to three name words right before ``start`` on the same line, or None."""
    line_start = text.rfind("\n", max(0, start - 60), start) + 1
    words = list(_SHAPE_WORD.finditer(text, max(line_start, start - 60), start))[-3:]
    head: list[regex.Match[str]] = []
    for word in reversed(words):
        gap = text[word.end() : (head[0].start() if head else start)]
        if gap.strip() or not _shape_name_word(word.group(), mode, stop):
            break
        head.insert(0, word)
    return head[0].start() if head else None


def _shape_name_word(word: str, mode: CaseMode, stop: frozenset[str]) -> bool:
    lowered = word.lower()
    if lowered in stop or is_clinical_term(lowered):
        return False
    if mode is CaseMode.MIXED:
        return word[:1].isupper()
    # Without capitals, only a listed name or place or a rare word can name an institution
    # ("baltimore rehab", "quincy medical center" but not "cardiac rehab", "awaiting rehab").
    if lowered in name_matcher() or lowered in place_matcher():
        return lowered not in load_lexicon("common_words")
    return zipf(lowered) < RARE_WORD_ZIPF + 1.0


@lru_cache(maxsize=1)
def _organisation_matcher() -> LexiconMatcher:
    return LexiconMatcher({"suffix": load_lexicon("company_suffixes")})


@dataclass(frozen=True)
class OrganizationShapeDetector:
    """Organisation names by company suffix ("Acme Inc", "Smith and Sons", "Jones LLC")."""

    name: str = "lexicon.organization"
    min_score: float = DEFAULT_MIN_SCORE

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        mode = case_mode(text)
        stop = load_stop_words()
        out: list[Span] = []
        for hit in _organisation_matcher().find_longest(text, normalise_document(text)):
            start = _name_before(text, mode, stop, hit.start)
            if start is not None:
                out.append(Span(start, hit.end, Label.ORGANIZATION, self.name, 0.6, ("shape:company_suffix",)))
        return [s for s in out if (s.score or 0.0) >= self.min_score]


@lru_cache(maxsize=1)
def _shape_matcher() -> LexiconMatcher:
    prefixes, suffixes = load_hospital_shapes()
    return LexiconMatcher({"prefix": prefixes, "suffix": suffixes, "name": load_hospital_names()})


@dataclass(frozen=True)
class HospitalShapeDetector:
    """Hospital names by shape: "St. X", "X Medical Center", "X Hospital", "X General", "X Memorial"."""

    name: str = "lexicon.hospital"
    min_score: float = DEFAULT_MIN_SCORE

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        normalised = normalise_document(text)
        mode = case_mode(text)
        stop = load_stop_words()
        out: list[Span] = []
        suffix_ends: dict[int, int] = {}
        hits = _shape_matcher().find_all(text, normalised)
        for hit in hits:
            if "suffix" in hit.names:
                suffix_ends[hit.start] = max(hit.end, suffix_ends.get(hit.start, 0))
        for hit in hits:
            if "suffix" in hit.names and suffix_ends.get(hit.start) == hit.end:
                span = self._before_suffix(text, mode, stop, hit.start, hit.end)
                if span is not None:
                    out.append(span)
            if "name" in hit.names:
                out.append(Span(hit.start, hit.end, Label.HOSPITAL, self.name, 0.6, ("shape:shared_name",)))
            if "prefix" in hit.names:
                span = self._after_prefix(text, mode, stop, hit.start, hit.end, suffix_ends)
                if span is not None:
                    out.append(span)
        return [s for s in out if (s.score or 0.0) >= self.min_score]

    def _before_suffix(self, text: str, mode: CaseMode, stop: frozenset[str], start: int, end: int) -> Span | None:
        """Up to three name words right before a suffix such as "Hospital", on the same line."""
        found = _name_before(text, mode, stop, start)
        if found is None:
            return None
        return Span(found, end, Label.HOSPITAL, self.name, 0.7, ("shape:suffix",))

    def _after_prefix(
        self, text: str, mode: CaseMode, stop: frozenset[str], start: int, end: int, suffix_ends: dict[int, int]
    ) -> Span | None:
        """ "St. Elizabeth's", "Mount Auburn Hospital"; in capitals "ST" alone is the ST segment."""
        prefix = text[start:end].lower()
        following = _NAME_AFTER_PREFIX.match(text, end)
        if following is None:
            return None
        dotted = following.group().startswith(".")
        if mode is not CaseMode.MIXED and prefix in {"st", "mt"} and not dotted:
            return None
        word = following.group(1)
        if mode is CaseMode.MIXED and not word[:1].isupper():
            return None
        if word.lower() in stop or is_clinical_term(word) or (mode is not CaseMode.MIXED and is_common_word(word)):
            return None
        stop_at = following.end(1)
        after = regex.match(r"\s+", text[stop_at : stop_at + 3])
        if after and stop_at + after.end() in suffix_ends:
            stop_at = suffix_ends[stop_at + after.end()]
        return Span(start, stop_at, Label.HOSPITAL, self.name, 0.6, ("shape:prefix",))
