"""Dictionary detectors: names and places from lexicons, hospital and organisation name shapes.

Every match gets a score from context rather than a yes/no: a common English word or clinical term
in an ALL CAPS note scores low, a capitalised match in a mixed-case note or one next to a role
trigger scores high. Spans below ``min_score`` are not emitted (pass 0 to get them all, e.g. for a
classifier that weighs the evidence itself).
"""

from __future__ import annotations

import re
from bisect import bisect_left
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
    PERSON_SECTIONS,
    RARE_WORD_ZIPF,
    SECTION_BOOST,
    is_clinical_term,
    is_common_word,
    is_frequent_word,
    name_followup,
    name_trigger,
    place_trigger,
    sentence_initial,
    verb_position,
)
from deident.detect.lexicon.data import (
    load_drug_names,
    load_hospital_name_suffixes,
    load_hospital_names,
    load_hospital_shapes,
    load_lexicon,
    load_specialty_words,
    load_stop_words,
)
from deident.detect.lexicon.fuzzy import fuzzy_name
from deident.detect.lexicon.matcher import (
    CaseShape,
    LexiconMatch,
    LexiconMatcher,
    MultiLexiconMatcher,
    case_shape,
)
from deident.detect.patterns.names import CLINICAL_SUFFIXES, is_verb_form
from deident.text.case import CaseMode
from deident.text.normalise import normalise
from deident.text.note_view import NoteView, note_view
from deident.text.sections import parse_heading_table, read_heading_table
from deident.text.wordfrequency import table_zipf

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


_TRIGGER_GROUPS = frozenset({"before", "after"})
_HOSPITAL_GROUPS = frozenset({"prefix", "suffix", "name", "name_suffix"})


@lru_cache(maxsize=1)
def _cue_matcher() -> LexiconMatcher:
    """One automaton for the short cue lists (role triggers, hospital shapes, company suffixes), so a
    note is scanned once for all of them; each hit names the groups that list it."""
    prefixes, suffixes = load_hospital_shapes()
    return LexiconMatcher(
        {
            "before": [*BEFORE_TRIGGERS, *MULTIWORD_BEFORE_TRIGGERS],
            "after": list(AFTER_TRIGGERS),
            "prefix": prefixes,
            "suffix": suffixes,
            "name_suffix": load_hospital_name_suffixes(),
            "name": load_hospital_names(),
            "company_suffix": load_lexicon("company_suffixes"),
        }
    )


@lru_cache(maxsize=1)
def document_matcher() -> MultiLexiconMatcher:
    """The name, place and cue lexicons in one automaton: a note is scanned once for all three."""
    return MultiLexiconMatcher((name_matcher(), place_matcher(), _cue_matcher()))


class _DocumentHits(NamedTuple):
    names: list[LexiconMatch]
    places: list[LexiconMatch]
    cues: list[LexiconMatch]


def _document_hits(view: NoteView) -> _DocumentHits:
    """The lexicon scan of a note, once per note view: the detectors of one note share it."""
    return view.derived(_scan_document)


def _scan_document(view: NoteView) -> _DocumentHits:
    return _DocumentHits(*document_matcher().find_all(view.normalised))


def _cue_hits(view: NoteView) -> list[LexiconMatch]:
    return _document_hits(view).cues


def _hits_in(hits: list[LexiconMatch], groups: frozenset[str]) -> list[LexiconMatch]:
    return [h for h in hits if not groups.isdisjoint(h.names)]


class _TriggerHits(NamedTuple):
    """Role trigger matches of one note, with their sorted ends and starts for range queries."""

    hits: list[LexiconMatch]
    ends: list[int]
    starts: list[int]


def _trigger_hits(view: NoteView) -> _TriggerHits:
    """The role triggers of a note, once per note view (the scoring and the fuzzy pass share them)."""
    return view.derived(_find_triggers)


def _find_triggers(view: NoteView) -> _TriggerHits:
    hits = _hits_in(_cue_hits(view), _TRIGGER_GROUPS)
    return _TriggerHits(hits, sorted(h.end for h in hits), [h.start for h in hits])


# name_trigger looks up to 40 characters back and 12 ahead; only a trigger hit in that window can fire.
_TRIGGER_LOOKBACK = 41
_TRIGGER_LOOKAHEAD = 13


def _trigger_possible(triggers: _TriggerHits, start: int, end: int) -> bool:
    """Cheap pre-check that spares :func:`name_trigger` for the many matches with no trigger near."""
    i = bisect_left(triggers.ends, start - _TRIGGER_LOOKBACK)
    if i < len(triggers.ends) and triggers.ends[i] <= start:
        return True
    j = bisect_left(triggers.starts, end)
    return j < len(triggers.starts) and triggers.starts[j] <= end + _TRIGGER_LOOKAHEAD


def _words_near_triggers(normalised: str, triggers: _TriggerHits) -> set[tuple[int, int]]:
    """5+ letter words right after a role trigger ("dr smith") or right before one ("smith md")."""
    out: set[tuple[int, int]] = set()
    for hit in triggers.hits:
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
    if mode is CaseMode.LOWER:
        # A capital in an otherwise lower-case note is deliberate ("supportive to pt, John.").
        if text[start].isupper() and not sentence_initial(text, start):
            return 0.2, "case:cap_in_lower_note"
        return 0.0, _NOTE_CASE_EVIDENCE[mode]
    if mode is not CaseMode.MIXED:
        return 0.0, _NOTE_CASE_EVIDENCE[mode]
    shape = _case_shape(text[start:end])
    if shape is CaseShape.CAPITALISED:
        return (0.0, "case:cap_initial") if sentence_initial(text, start) else (0.2, "case:cap")
    if shape is CaseShape.UPPER:
        return (-0.3, "case:upper_short") if end - start <= 3 else (0.0, "case:upper")
    if shape is CaseShape.LOWER:
        return -0.35, "case:lower"
    return -0.1, "case:mixed"


_case_shape = lru_cache(maxsize=65536)(case_shape)  # a few thousand distinct surfaces make most matches
_NOTE_CASE_EVIDENCE = {mode: f"note_case:{mode.value}" for mode in CaseMode}


# The most that the section, adjacency and elsewhere steps can add to a score after _score.
MAX_LATER_RAISE = 0.7


@lru_cache(maxsize=65536)
def _name_static(key: str, names: tuple[str, ...]) -> tuple[float, tuple[str, ...], float, tuple[str, ...]]:
    """What does not depend on context for a name match: base score, lexicon evidence, ambiguity
    penalty and its notes (cached: a few hundred distinct words make most matches)."""
    base = 0.6 if len(names) > 1 else 0.55
    penalty, notes = _ambiguity(key)
    return base, tuple(LEXICON_EVIDENCE[n] for n in names), penalty, notes


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
    if word in load_lexicon("common_words") or (" " not in word and table_zipf(word) >= PLACE_COMMON_ZIPF):
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
        view = note_view(document)
        normalised = view.normalised
        mode = view.case.case_mode()
        matches = _longest(_document_hits(view).names)
        triggers = _trigger_hits(view)
        scored = [s for m in matches if (s := self._score(text, normalised, mode, m, triggers)) is not None]
        if self.fuzzy:
            scored.extend(self._fuzzy(text, normalised, mode, matches, triggers))
        scored.sort(key=_start)
        scored = _in_person_sections(text, scored, self.min_score)
        scored = _adjacency(text, scored)
        scored = _with_unlisted_surnames(text, normalised, mode, scored)
        scored.extend(_names_before_phones(text, normalised, mode, scored))
        scored.sort(key=_start)
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
            if round(s.score, 3) >= self.min_score  # scores are sums of tenths: compare them rounded
        ]

    def _score(
        self, text: str, normalised: str, mode: CaseMode, match: LexiconMatch, triggers: _TriggerHits
    ) -> _Scored | None:
        """The match scored in its context, or None when no later raise could bring it to the
        threshold (most matches are ordinary words such as "clear" or "low")."""
        key = normalised[match.start : match.end]
        score, evidence_head, penalty, notes = _name_static(key, match.names)
        delta, note = _case_adjustment(mode, text, match.start, match.end)
        score += delta
        evidence = [*evidence_head, note, *notes]
        label = Label.PATIENT
        trigger = (
            name_trigger(text, normalised, match.start, match.end)
            if _trigger_possible(triggers, match.start, match.end)
            else None
        )
        if trigger is not None and "common_word" in notes and trigger.evidence.startswith("trigger_two_back"):
            trigger = None  # "PER DR X GOOD PULSES": an ordinary word after a name is not a name
        if trigger is not None:
            if trigger.strength == HONORIFIC:
                penalty = max(penalty, -0.2)  # "Dr. Walker", "Mrs. Hope": the honorific settles it
            score += trigger.boost
            label = trigger.label
            evidence.append(trigger.evidence)
        followup = name_followup(normalised, match.end)
        if followup is not None:
            score += followup.boost
            label = label if trigger is not None else followup.label
            evidence.append(followup.evidence)
        score += penalty
        if score < self.min_score - MAX_LATER_RAISE:
            return None
        return _Scored(match.start, match.end, label, score, tuple(evidence), key)

    def _fuzzy(
        self, text: str, normalised: str, mode: CaseMode, matches: list[LexiconMatch], triggers: _TriggerHits
    ) -> list[_Scored]:
        """Near-misses of names, tried only for rare words that context marks as name-like: a
        capitalised word inside a sentence of a mixed-case note, or a word next to a role trigger."""
        taken = {(m.start, m.end) for m in matches}
        positions: set[tuple[int, int]] = set()
        if mode is CaseMode.MIXED:
            positions.update(_capitalised_candidates(text))
        positions.update(_words_near_triggers(normalised, triggers))
        out: list[_Scored] = []
        for start, end in sorted(positions - taken):
            lowered = normalised[start:end]
            if not _fuzzy_candidate(lowered):
                continue
            capital_cue = (
                mode is CaseMode.MIXED
                and case_shape(text[start:end]) is CaseShape.CAPITALISED
                and not sentence_initial(text, start)
            )
            trigger = name_trigger(text, normalised, start, end)
            if trigger is None and not capital_cue:
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


def _capitalised_candidates(text: str) -> list[tuple[int, int]]:
    """Spans of the capitalised words of ``text`` worth a fuzzy lookup (:func:`_fuzzy_candidate` of the word as the
    note is normalised; :func:`normalise` maps character by character), found by their distinct strings rather than
    one occurrence at a time."""
    wanted = {w for w in set(_CAPITALISED_WORD.findall(text)) if _fuzzy_candidate(normalise(w))}
    if not wanted:
        return []
    return sorted(span for word in wanted for span in whole_word_spans(text, word))


_ASCII_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_LETTER_OR_NUMBER = regex.compile(r"[\p{L}\p{N}]")
# _letter_or_number's answers for non-ASCII characters, memoised.
_non_ascii_word_chars: dict[str, bool] = {}


def _letter_or_number(char: str) -> bool:
    """``char`` is a letter or a number, as ``[\\p{L}\\p{N}]`` (the bounds of :data:`_CAPITALISED_WORD`) says."""
    if char.isascii():
        return char in _ASCII_ALNUM
    known = _non_ascii_word_chars.get(char)
    if known is None:
        known = _non_ascii_word_chars[char] = _LETTER_OR_NUMBER.fullmatch(char) is not None
    return known


def whole_word_spans(text: str, word: str) -> list[tuple[int, int]]:
    """(start, end) of each occurrence of ``word`` in ``text`` with no letter or number right before or right after
    it, by ``str.find``: for a word that :data:`_CAPITALISED_WORD` matches whole, where that regex matches it (far
    cheaper than a regex scan when only a few words are wanted)."""
    out: list[tuple[int, int]] = []
    size = len(word)
    position = text.find(word)
    while position >= 0:
        end = position + size
        if (position == 0 or not _letter_or_number(text[position - 1])) and (
            end == len(text) or not _letter_or_number(text[end])
        ):
            out.append((position, end))
        position = text.find(word, end)
    return out


def _is_drug(word: str) -> bool:
    return word in load_drug_names()


@lru_cache(maxsize=65536)
def _fuzzy_candidate(word: str) -> bool:
    """A (lower-case) word whose near-misses of names are worth looking up: rare, no clinical term, no drug.
    Cached: the same few thousand words come back in every note, and most are ruled out here."""
    return table_zipf(word) < RARE_WORD_ZIPF and not is_clinical_term(word) and not _is_drug(word)


# A heading at a line start ("Social:", "FAMILY -"); its words are looked up in the section table.
# Compiled with the standard library's ``re``: it scans line starts about three times faster than ``regex`` here.
# Its \s also takes \x1c-\x1f, which ``regex`` does not: they are left out, so both find the same headings.
_LINE_HEADING = re.compile(r"^[ \t]*([A-Za-z][A-Za-z /&]{0,28}?)[ \t]*(?::|-(?=[^\S\x1c-\x1f]))", re.MULTILINE)


@lru_cache(maxsize=1)
def _heading_names() -> dict[str, str]:
    """Heading (lower case) -> section name, from the section table. Read directly: building
    deident.text.SectionDetector compiles a large alternation (~0.4 s) that this lookup does not need."""
    return dict(parse_heading_table(read_heading_table()))  # the last row wins, as in SectionDetector


def _person_section_ranges(text: str) -> list[tuple[int, int]]:
    """[start, end) of SOCIAL, FAMILY and CONTACT sections: from such a heading to the next heading.
    Headings are only looked for at line starts, a cheap approximation of SectionDetector."""
    names = _heading_names()
    ranges: list[tuple[int, int]] = []
    open_start: int | None = None
    for heading in _LINE_HEADING.finditer(text):
        name = names.get(heading.group(1).lower().strip())
        if name is None:
            continue
        if open_start is not None:
            ranges.append((open_start, heading.start()))
            open_start = None
        if name in PERSON_SECTIONS:
            open_start = heading.end()
    if open_start is not None:
        ranges.append((open_start, len(text)))
    return ranges


def _in_person_sections(text: str, scored: list[_Scored], min_score: float) -> list[_Scored]:
    """Raise weak names inside SOCIAL, FAMILY and CONTACT sections, where relatives are named.
    Sections are only looked up when some candidate could change sides of a threshold."""
    floor = min_score - SECTION_BOOST - 1e-6  # scores are float sums of tenths
    if not any(floor <= s.score < CONFIDENT_SCORE for s in scored):
        return scored
    sections = _person_section_ranges(text)
    if not sections:
        return scored
    out = []
    for s in scored:
        # A frequent word in a social section ("kept up to date") needs a person cue of its own.
        ambiguous = "common_word" in s.evidence or "frequent_word" in s.evidence
        cued = any(e.startswith(("trigger", "followed_by")) for e in s.evidence)
        if (cued or not ambiguous) and any(start <= s.start < end for start, end in sections):
            label = Label.RELATIVE if s.label is Label.PATIENT else s.label
            s = _Scored(s.start, s.end, label, s.score + SECTION_BOOST, (*s.evidence, "section:person"), s.key)
        out.append(s)
    return out


_NEXT_TOKEN = regex.compile(r"[ -]([\p{L}][\p{L}']{2,})(?![\p{L}\p{N}])")
# Below this Zipf frequency a word next to a confident first name is taken for an unlisted surname.
UNLISTED_SURNAME_ZIPF = 2.5


def _with_unlisted_surnames(text: str, normalised: str, mode: CaseMode, scored: list[_Scored]) -> list[_Scored]:
    """An unlisted rare word right after a first name is its surname ("mary theresa kondouli",
    "Gerry Masci arrived"): the first name must be confident, or the pair followed by a person cue
    (which then raises the first name too). The word must not be a common word, trigger, clinical
    term or drug, and must be written in the same case. Returns the whole list, in order of start."""
    taken = {s.start for s in scored}
    out = list(scored)
    for i, s in enumerate(scored):
        if s.score < DEFAULT_MIN_SCORE or "lexicon:first_name" not in s.evidence:
            continue
        following = _NEXT_TOKEN.match(text, s.end)
        if following is None or following.start(1) in taken:
            continue
        start, end = following.span(1)
        if not _unlisted_name_word(text, normalised, mode, start, end, text[s.start].isupper()):
            continue
        cue = name_followup(normalised, end)
        if s.score < CONFIDENT_SCORE and cue is None:
            continue
        evidence = ("unlisted_surname", "after_first_name", *((cue.evidence,) if cue else ()))
        out.append(_Scored(start, end, s.label, CONFIDENT_SCORE, evidence, normalised[start:end]))
        if s.score < CONFIDENT_SCORE:
            out[i] = _Scored(s.start, s.end, s.label, CONFIDENT_SCORE, (*s.evidence, "before_surname_cue"), s.key)
    out.sort(key=_start)
    return out


def _start(scored: _Scored) -> int:
    return scored.start


def _unlisted_name_word(text: str, normalised: str, mode: CaseMode, start: int, end: int, capital: bool) -> bool:
    """A word that can be a name nobody listed: rare in English, no trigger, term, drug or stop word."""
    word = text[start:end]
    lowered = normalised[start:end]
    if mode is CaseMode.MIXED and (word[0].isupper() != capital or (len(word) > 1 and word.isupper())):
        return False
    if table_zipf(lowered) >= UNLISTED_SURNAME_ZIPF or is_clinical_term(lowered) or _is_drug(lowered):
        return False
    if mode is not CaseMode.MIXED and is_verb_form(lowered):
        return False  # the name's verb: "WIFE ANNA VERBALIZED UNDERSTANDING"
    if lowered in BEFORE_TRIGGERS or lowered in AFTER_TRIGGERS or lowered in load_stop_words():
        return False
    return lowered not in name_matcher()


# Capitalised words right before a phone number (and its label) in a mixed-case note: "Lopie Certusi
# cell# 410-...", "Hank Przybylo (son) cell# ...", "Lopie T. cell# ..." (the initial joins the name when it is
# completed).
_PHONE_AFTER_NAMES = regex.compile(
    r"((?:\p{Lu}[\p{Ll}']+ ){0,2}\p{Lu}[\p{Ll}']+) {1,3}(?:\p{Lu}\.? {1,3})?(?:\([a-z ]{2,20}\) {0,2})?"
    r"(?:(?:cell|home|work|phone|tel|mobile|c|h|w) {0,2}(?:#|no\.?|number)? {0,2}:? {0,2})?"
    r"\(?\d{3}\)?[ .-]?\d{3}[ .-]\d{4}(?!\d)",
    regex.IGNORECASE,
)
_PHONE_SHAPE = regex.compile(r"\d{3}[ .-]\d{4}(?!\d)")


def _names_before_phones(text: str, normalised: str, mode: CaseMode, scored: list[_Scored]) -> list[_Scored]:
    """Unlisted capitalised words right before a phone number name its owner (mixed-case notes)."""
    if mode is not CaseMode.MIXED or _PHONE_SHAPE.search(text) is None:
        return []
    taken = {s.start for s in scored}
    out: list[_Scored] = []
    for phone in _PHONE_SHAPE.finditer(text):
        window_start = max(0, phone.start() - 80)
        found = _PHONE_AFTER_NAMES.search(text, window_start, phone.end() + 1)
        if found is None:
            continue
        for word in _SHAPE_WORD.finditer(text, found.start(1), found.end(1)):
            start, end = word.span()
            if start in taken or not word.group()[0].isupper():
                continue
            if _unlisted_name_word(text, normalised, mode, start, end, True):
                evidence = ("unlisted_name", "followed_by:phone")
                out.append(_Scored(start, end, Label.RELATIVE, CONFIDENT_SCORE, evidence, normalised[start:end]))
    return out


# "Suzette and Hank", "bill & george": coordination carries a confident name's reading to its partner.
_COORDINATION = frozenset({" and ", " & ", " or ", " AND ", " OR ", " And "})


def _ordinary(scored: _Scored) -> bool:
    return "common_word" in scored.evidence or "frequent_word" in scored.evidence


def _adjacency(text: str, scored: list[_Scored]) -> list[_Scored]:
    """Name matches separated by a space or ", " support each other ("John Smith", "Smith, John")."""
    out = list(scored)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        gap = text[a.end : b.start]
        if gap in _COORDINATION and max(a.score, b.score) >= CONFIDENT_SCORE and min(a.score, b.score) >= 0.25:
            # Each keeps its own label: "Dr. Reyes and Georgina" are not both doctors.
            out[i] = _Scored(a.start, a.end, a.label, max(a.score, 0.5), (*a.evidence, "coordinated_name"), a.key)
            out[i + 1] = _Scored(b.start, b.end, b.label, max(b.score, 0.5), (*b.evidence, "coordinated_name"), b.key)
            continue
        joined = gap in {" ", ", ", " , "} or (len(gap) <= 3 and gap.strip() in {"", "."} and a.end - a.start == 1)
        # Two weak matches only support each other when one of them is no ordinary word ("POST FALL").
        weak_pair = a.score >= 0.3 and b.score >= 0.3 and not (_ordinary(a) and _ordinary(b))
        if joined and (max(a.score, b.score) >= CONFIDENT_SCORE or weak_pair):
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
        view = note_view(document)
        normalised = view.normalised
        mode = view.case.case_mode()
        out: list[Span] = []
        for match in _longest(_document_hits(view).places):
            if verb_position(normalised, match.start):
                continue  # "ABLE TO CONVERSE", "CAN CONVERSE": a verb that is also a town's name
            lexicon, base, notes, also_name = _place_static(normalised[match.start : match.end], match.names)
            score = base
            evidence = [LEXICON_EVIDENCE[lexicon]]
            delta, note = _case_adjustment(mode, text, match.start, match.end)
            score += delta
            evidence.append(note)
            evidence.extend(notes)
            trigger = place_trigger(text, normalised, match.start)
            if trigger is not None:
                score += 0.15
                evidence.append(trigger)
            elif also_name:
                # "Jackson", "Houston": also a name; without a place cue the name reading is likelier.
                score -= 0.15
                evidence.append("also_name")
            score = round(min(1.0, max(0.0, score)), 3)
            if score >= self.min_score:
                out.append(Span(match.start, match.end, PLACE_LABELS[lexicon], self.name, score, tuple(evidence)))
        return out


@lru_cache(maxsize=16384)
def _place_static(key: str, names: tuple[str, ...]) -> tuple[str, float, tuple[str, ...], bool]:
    """What does not depend on context for a place match: its lexicon, base score after ambiguity
    penalties, their notes, and whether it is also a listed name."""
    lexicon = next(n for n in PLACE_LABELS if n in names)
    penalty, notes = _place_ambiguity(key, lexicon)
    base = (0.6 if lexicon in {"states", "countries"} else 0.45) + penalty
    return lexicon, base, notes, key in name_matcher()


_SHAPE_WORD = regex.compile(r"[\p{L}][\p{L}'&-]*")
_NAME_AFTER_PREFIX = regex.compile(r"\.?\s+([\p{L}][\p{L}'&-]*)")


# Words that describe an institution between its name and its head noun ("zanyrard va medical center", "quelbury
# community hospital", "theakioton children's hospital"): no name alone, so only a name word before them names it.
_INSTITUTION_DESCRIPTORS = frozenset(
    "va community regional children's childrens women's womens veterans university county district royal "
    "rehabilitation psychiatric memorial general medical".split()
)


def _name_before(text: str, mode: CaseMode, stop: frozenset[str], start: int) -> int | None:
    """Start of up to three name words right before ``start`` on the same line, or None; where none stands right before
    it, up to two descriptor words (_INSTITUTION_DESCRIPTORS) may stand between them and ``start``."""
    line_start = text.rfind("\n", max(0, start - 60), start) + 1
    words = list(_SHAPE_WORD.finditer(text, max(line_start, start - 60), start))[-5:]
    found = _name_words_before(text, mode, stop, start, words[-3:])
    if found is not None:
        return found
    descriptors = 0
    while descriptors < min(2, len(words)) and words[-1 - descriptors].group().lower() in _INSTITUTION_DESCRIPTORS:
        descriptors += 1
    first = len(words) - descriptors  # the first descriptor's index
    if not descriptors or text[words[-1].end() : start].strip():
        return None
    if any(text[words[i].end() : words[i + 1].start()].strip() for i in range(first, len(words) - 1)):
        return None  # descriptors apart ("va, medical center")
    return _name_words_before(text, mode, stop, words[first].start(), words[:first][-3:])


def _name_words_before(
    text: str, mode: CaseMode, stop: frozenset[str], start: int, words: list[regex.Match[str]]
) -> int | None:
    """Start of the name words among ``words`` (the last ones, nothing but blanks between them and ``start``)."""
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
    if "-" in lowered:
        # A double-barrelled name ("kessler-adventist rehab") has name-like parts; shorthand joins have a
        # short or common one ("rotated-co general", "post-op rehab").
        parts = lowered.split("-")
        return all(len(part) >= 4 and _shape_name_word(part, mode, stop) for part in parts)
    # Short rare words are shorthand ("poss rehab", "prev rehab").
    return len(lowered) >= 5 and lowered.isalpha() and table_zipf(lowered) < RARE_WORD_ZIPF + 1.0


# Street types that name a practice after its address ("Mill Lane Surgery", "Quelbury Road Surgery").
_PRACTICE_STREET_WORDS = frozenset({"road", "lane", "street", "avenue", "way", "close", "drive", "place", "square"})
# Endings of the adjectives that name a surgical specialty ("Bariatric", "Colorectal", "Hepatobiliary").
_SPECIALTY_ENDINGS = ("ic", "al", "ary", "ive", "ous")


def _practice_name(words: list[str], mode: CaseMode) -> bool:
    """Capitalised words before a UK practice's head that a listed name does not open: a practice named after its
    street, or after a rare word that is no specialty's adjective ("Brantisk Surgery"; "Bariatric Surgery",
    "Colorectal Surgery" and "Day Surgery" are services)."""
    if mode is not CaseMode.MIXED or not words or not all(w[:1].isupper() for w in words):
        return False
    lowered = [w.lower() for w in words]
    if len(words) >= 2 and lowered[-1] in _PRACTICE_STREET_WORDS:
        return True
    first = lowered[0]
    return (
        len(first) >= 5
        and first.isalpha()
        and table_zipf(first) < RARE_WORD_ZIPF  # rarer than a procedure's word ("Keyhole Surgery")
        and not first.endswith(_SPECIALTY_ENDINGS + CLINICAL_SUFFIXES)
        and first not in load_specialty_words()
    )


_COMPANY_GROUPS = frozenset({"company_suffix"})


def _longest(hits: list[LexiconMatch]) -> list[LexiconMatch]:
    """Longest non-overlapping hits, leftmost first (hits come by start, longest first)."""
    out: list[LexiconMatch] = []
    last_end = -1
    for hit in hits:
        if hit.start >= last_end:
            out.append(hit)
            last_end = hit.end
    return out


# Suffixes that are also clinical shorthand: "inc" is "increased" ("HEP INC TO 700U/HR").
_AMBIGUOUS_COMPANY_SUFFIXES = frozenset({"inc", "co", "corp"})


def _company_suffix_written(text: str, mode: CaseMode, start: int, end: int) -> bool:
    """An ambiguous suffix only counts written as a company suffix ("Inc", "Inc.") in a mixed-case note."""
    surface = text[start:end]
    if surface.lower() not in _AMBIGUOUS_COMPANY_SUFFIXES:
        return True
    return mode is CaseMode.MIXED and surface[:1].isupper() and not surface.isupper()


@dataclass(frozen=True)
class OrganizationShapeDetector:
    """Organisation names by company suffix ("Acme Inc", "Smith and Sons", "Jones LLC")."""

    name: str = "lexicon.organization"
    min_score: float = DEFAULT_MIN_SCORE

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        view = note_view(document)
        mode = view.case.case_mode()
        stop = load_stop_words()
        out: list[Span] = []
        for hit in _longest(_hits_in(_cue_hits(view), _COMPANY_GROUPS)):
            if not _company_suffix_written(text, mode, hit.start, hit.end):
                continue
            start = _name_before(text, mode, stop, hit.start)
            if start is not None:
                out.append(Span(start, hit.end, Label.ORGANIZATION, self.name, 0.6, ("shape:company_suffix",)))
        return [s for s in out if (s.score or 0.0) >= self.min_score]


@dataclass(frozen=True)
class HospitalShapeDetector:
    """Hospital names by shape: "St. X", "X Medical Center", "X Hospital", "X General", "X Memorial"."""

    name: str = "lexicon.hospital"
    min_score: float = DEFAULT_MIN_SCORE

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        view = note_view(document)
        mode = view.case.case_mode()
        stop = load_stop_words()
        out: list[Span] = []
        suffix_ends: dict[int, int] = {}
        hits = _hits_in(_cue_hits(view), _HOSPITAL_GROUPS)
        for hit in hits:
            if "suffix" in hit.names:
                suffix_ends[hit.start] = max(hit.end, suffix_ends.get(hit.start, 0))
        for hit in hits:
            if "suffix" in hit.names and suffix_ends.get(hit.start) == hit.end:
                span = self._before_suffix(text, mode, stop, hit.start, hit.end)
                if span is not None:
                    out.append(span)
            if "name_suffix" in hit.names:
                span = self._after_listed_name(text, mode, stop, hit.start, hit.end)
                if span is not None:
                    out.append(span)
            if "name" in hit.names:
                # A suffix right after a listed name is part of it: "sacred heart Memorial", "Sinai Hospital".
                end = _suffix_end_after(text, hit.end, suffix_ends)
                out.append(Span(hit.start, end, Label.HOSPITAL, self.name, 0.6, ("shape:shared_name",)))
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

    def _after_listed_name(self, text: str, mode: CaseMode, stop: frozenset[str], start: int, end: int) -> Span | None:
        """A UK practice or ward ("Evans Surgery", "Jackson Road Surgery", "Quelbine Ward"): the name words before the
        head begin with a listed surname or place that is no common word, so that a service ("Cardiac Surgery", "Day
        Surgery", "Stroke Ward") is none."""
        if start == 0 or not text[start - 1].isspace():
            return None  # glued to a word: a double-barrelled surname ("Martin-Ward")
        found = _name_before(text, mode, stop, start)
        if found is None:
            return None
        words = regex.findall(r"[\p{L}'\-]+", text[found:start])
        lowered = words[0].lower() if words else ""
        if words[-1].lower() in load_lexicon("first_names") and text[start:end].lower() in load_lexicon("last_names"):
            return None  # a person: a given name before a head that is also a surname ("Charlene Ward")
        listed = lowered in name_matcher() or lowered in place_matcher()
        if not (listed and lowered not in load_lexicon("common_words")) and not _practice_name(words, mode):
            return None
        return Span(found, end, Label.HOSPITAL, self.name, 0.7, ("shape:name_suffix",))

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
        if mode is CaseMode.MIXED and text[start:end].isupper() and prefix in {"st", "mt"}:
            return None  # "SR-ST Transfused", "ST. ABGs": sinus tachycardia, not a saint
        word = following.group(1)
        if mode is CaseMode.MIXED and not word[:1].isupper():
            return None
        if word.lower() in stop or is_clinical_term(word) or (mode is not CaseMode.MIXED and is_common_word(word)):
            return None
        stop_at = _suffix_end_after(text, following.end(1), suffix_ends)
        return Span(start, stop_at, Label.HOSPITAL, self.name, 0.6, ("shape:prefix",))


def _suffix_end_after(text: str, end: int, suffix_ends: dict[int, int]) -> int:
    """The end of a hospital suffix that follows ``end`` after at most three blanks, else ``end``."""
    after = regex.match(r"\s+", text[end : end + 3])
    if after and end + after.end() in suffix_ends:
        return suffix_ends[end + after.end()]
    return end
