"""Features of one candidate span, as a sparse ``dict[str, float]`` for the span classifier.

Feature names never contain the candidate's own words. Context words (+-2 tokens) appear only when
they are common English words (wordfreq Zipf >= ``CONTEXT_MIN_ZIPF``) or trigger words; rarer words
are replaced by their shape, so a saved model cannot carry a name or an address from training notes.

Cross-occurrence features (same string elsewhere in the note or in the patient's other notes) come
from a :class:`CandidateContext` value computed beforehand by :func:`build_contexts`; nothing is
shared or mutated between documents.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import ahocorasick
import regex

from deident.core.document import Document, patient_groups
from deident.core.provenance import parts_of, source_family
from deident.core.span import Span
from deident.text.charset import ascii_like
from deident.text.normalise import normalise_key
from deident.text.note_view import note_view
from deident.text.sections import Section, SectionDetector, section_at
from deident.text.segment import at_line_start
from deident.text.wordfrequency import zipf_lowered

CONTEXT_MIN_ZIPF = 5.5  # high enough that surnames ("smith" 4.9) and most first names stay out
WINDOW = 2
EVIDENCE_MAX_CHARS = 80
TRIGGER_WINDOW = 4
CONTEXT_CHARS = 60
AUTOMATON_MAX_NEEDLE = 64  # longer candidate strings are counted one by one (see substring_counts)
CRF_SOURCE = "crf"
CRF_MEAN_NOTE = "crf:mean="  # the CRF's evidence; the union keeps it as "crf: crf:mean=0.42"
CRF_P_EDGES = (0.01, 0.03, 0.1, 0.3, 0.7, 0.9, 0.99)
ZIPF_EDGES = (1, 2, 3, 4, 5, 6)
TRIGGERS: frozenset[str] = frozenset(
    {
        # names
        "dr", "doctor", "md", "rn", "np", "pa", "mr", "mrs", "ms", "miss", "attending", "resident", "nurse",
        "son", "daughter", "wife", "husband", "mother", "father", "sister", "brother", "niece", "nephew",
        "friend", "family", "spouse", "proxy", "called", "spoke", "per", "by", "signed", "seen", "pt", "patient",
        # locations
        "hospital", "clinic", "center", "rehab", "home", "transferred", "from", "to", "at", "lives", "st", "street",
        "ave", "road", "rd", "city", "town", "nursing", "facility", "transfer",
        # numbers
        "age", "aged", "yo", "old", "year", "years", "y", "born", "dob", "on", "date", "since", "until",
        "phone", "tel", "pager", "beeper", "cell", "fax", "call", "mrn", "id", "number", "no", "#", "unit", "room",
        "bed", "x", "ext",
    }
)  # fmt: skip
_SHAPE_MAP = regex.compile(r"\p{Lu}+|\p{Ll}+|\p{N}+")
_WORD = regex.compile(r"[\p{L}]+")
_TOKEN_TEXT = regex.compile(r"[^\W_]+|[^\s]")  # the token definition of deident.text.tokenize, as strings
# The same for texts whose only non-ASCII characters are symbols (charset.ascii_like), with the faster engine.
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_ASCII_TOKEN_TEXT = re.compile(r"[^\W_]+|\S", re.ASCII)


@dataclass(frozen=True, slots=True)
class CandidateContext:
    """Counts of candidate strings around one note (keys are :func:`normalise_key` strings).

    ``note_counts``: candidates with that key in this note; ``patient_notes``: number of the patient's
    *other* notes in which the key is a candidate.
    """

    note_counts: Mapping[str, int] = field(default_factory=dict, repr=False)
    patient_notes: Mapping[str, int] = field(default_factory=dict, repr=False)


def note_context(document: Document, spans: Sequence[Span]) -> CandidateContext:
    """Context from this note alone (what a per-document pipeline stage can see)."""
    text = document.text
    return CandidateContext(Counter(normalise_key(s.text_of(text)) for s in spans), {})


def build_contexts(documents: Sequence[Document], candidates: Sequence[Sequence[Span]]) -> list[CandidateContext]:
    """Contexts for notes processed together; notes of one patient (``patient_id``) see each other."""
    if len(documents) != len(candidates):
        raise ValueError("documents and candidates differ in length")
    keysets = [
        frozenset(normalise_key(s.text_of(d.text)) for s in spans)
        for d, spans in zip(documents, candidates, strict=True)
    ]
    others: list[dict[str, int]] = [{} for _ in documents]
    for members in patient_groups(documents):  # a note without a patient id is a group alone: no other notes
        totals: Counter[str] = Counter()
        for i in members:
            totals.update(keysets[i])
        for i in members:
            others[i] = {k: totals[k] - 1 for k in keysets[i] if totals[k] > 1}
    return [
        CandidateContext(Counter(normalise_key(s.text_of(doc.text)) for s in spans), other)
        for doc, spans, other in zip(documents, candidates, others, strict=True)
    ]


# word_shape's values, memoised (a pure function of the text; candidate surfaces recur across notes).
_shapes: dict[str, str] = {}
_SHAPE_MEMO_LIMIT = 100_000


def word_shape(text: str) -> str:
    """ "Smith" -> "Xx", "12/03/2020" -> "d/d/d", "O'Neil" -> "X'Xx" (runs collapsed, max 12 chars)."""
    shape = _shapes.get(text)
    if shape is None:
        if len(_shapes) >= _SHAPE_MEMO_LIMIT:
            _shapes.clear()
        shape = _shapes[text] = _SHAPE_MAP.sub(_shape_of_run, text.replace(" ", "_"))[:12]
    return shape


def _shape_of_run(m: regex.Match[str]) -> str:
    s = m.group()
    return "X" if s[0].isupper() else "x" if s[0].islower() else "d"


def case_class(text: str) -> str:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "none"
    if all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    words = _WORD.findall(text)
    if words and all(w[0].isupper() and (len(w) == 1 or w[1:].islower()) for w in words):
        return "title"
    return "mixed"


# _context_word's values, memoised (a pure function of the token; context tokens repeat across notes).
_context_words: dict[str, str] = {}
_CONTEXT_MEMO_LIMIT = 100_000


def _context_word(word: str) -> str:
    """The token as a context feature: itself (lower case) when common, a trigger or punctuation, else its shape."""
    known = _context_words.get(word)
    if known is None:
        if len(_context_words) >= _CONTEXT_MEMO_LIMIT:
            _context_words.clear()
        known = _context_words[word] = _context_word_of(word)
    return known


def _context_word_of(word: str) -> str:
    low = word.lower()
    if (
        low in TRIGGERS
        or (low.isalpha() and zipf_lowered(low) >= CONTEXT_MIN_ZIPF)
        or not any(c.isalnum() for c in low)
    ):
        return low
    return "<" + word_shape(word) + ">"


def scaled_logit(p: float, eps: float) -> float:
    """log(p / (1 - p)) with p clipped to [eps, 1 - eps], divided by its bound: a value in [-1, 1]."""
    p = min(max(p, eps), 1.0 - eps)
    return math.log(p / (1.0 - p)) / math.log((1.0 - eps) / eps)


def crf_peak(span: Span) -> float | None:
    """The highest marginal of the span's CRF parts (None where the CRF did not propose it)."""
    return max((p.score for p in parts_of(span) if p.source == CRF_SOURCE and p.score is not None), default=None)


def crf_features(span: Span, fams: str) -> dict[str, float]:
    """The CRF's peak and mean marginal as scaled log-odds, and the peak's bucket per detector set.

    Candidates mostly sit at the extremes of the CRF's probability, where a raw probability hardly
    varies; log-odds spread out the low end (0.005 .. 0.1) where stage-1-only CRF proposals live.
    """
    f: dict[str, float] = {}
    peak = crf_peak(span)
    if peak is None:
        f["crf_absent"] = 1.0
        return f
    f["crf_logit"] = scaled_logit(peak, 1e-4)
    f[f"crf_p={_bucket(peak, CRF_P_EDGES)}&fams={fams}"] = 1.0
    means = []
    for note in span.evidence:
        body = note.removeprefix(f"{CRF_SOURCE}: ")  # the union's prefix, absent on a lone CRF span
        if body.startswith(CRF_MEAN_NOTE):
            try:
                means.append(float(body[len(CRF_MEAN_NOTE) :]))
            except ValueError:
                continue
    if means:
        f["crf_mean_logit"] = scaled_logit(max(means), 1e-3)
    return f


def _bucket(value: float, edges: Sequence[float]) -> str:
    for edge in edges:
        if value < edge:
            return f"<{edge:g}"
    return f">={edges[-1]:g}"


@dataclass(frozen=True)
class FeatureExtractor:
    """Computes features for all candidates of one document (tokens and sections computed once)."""

    sections: SectionDetector | None = None  # None: the default headings (read from the note's view)

    def document_features(
        self, document: Document, spans: Sequence[Span], context: CandidateContext | None = None
    ) -> list[dict[str, float]]:
        text = document.text
        if context is None:
            context = note_context(document, spans)
        view = note_view(document)
        found_sections = list(view.sections if self.sections is None else self.sections.find(text))
        note_upper = view.case.upper_fraction()
        # How often each candidate's string occurs in the note, all counted in one pass (not one scan per candidate).
        repeats = substring_counts(text.lower(), {span.text_of(text).lower() for span in spans})
        scans = (_ASCII_WORD, _ASCII_TOKEN_TEXT) if ascii_like(text) else (_WORD, _TOKEN_TEXT)
        return [self._features(text, repeats, span, found_sections, note_upper, context, scans) for span in spans]

    def _features(
        self,
        text: str,
        repeats: Mapping[str, int],
        span: Span,
        found_sections: list[Section],
        note_upper: float,
        context: CandidateContext,
        scans: tuple[re.Pattern[str] | regex.Pattern[str], re.Pattern[str] | regex.Pattern[str]] = (_WORD, _TOKEN_TEXT),
    ) -> dict[str, float]:
        word_scan, token_scan = scans  # letters runs and tokens (see _ASCII_WORD)
        cat = span.category.value
        f: dict[str, float] = {"bias": 1.0, f"label={span.label.value}": 1.0, f"cat={cat}": 1.0}
        parts = parts_of(span)
        families = {source_family(p.source) for p in parts}
        for p in parts:
            f[f"src={p.source}"] = 1.0
            f[f"srclabel={source_family(p.source)}:{p.label.value}"] = 1.0
            if p.score is not None:
                key = f"score={p.source}"
                f[key] = max(f.get(key, 0.0), p.score)
        for fam in families:
            f[f"fam={fam}"] = 1.0
        f["n_families"] = float(len(families))
        f[f"n_families={len(families)}"] = 1.0
        fams = "+".join(sorted(families))
        f["fams=" + fams] = 1.0
        f[f"fams={fams}&cat={cat}"] = 1.0
        f.update(crf_features(span, fams))
        for note in span.evidence:
            # Only rule and lexicon evidence (names of lists and rules); other detectors may cite words.
            if note.startswith(("lexicon.", "patterns.", "known.")) and len(note) <= EVIDENCE_MAX_CHARS:
                f["ev=" + note] = 1.0
        if span.score is not None:
            f["score"] = span.score

        surface = span.text_of(text)
        words = word_scan.findall(surface)
        cls = case_class(surface)
        note_case = "upper" if note_upper > 0.9 else "lower" if note_upper < 0.02 else "mixed"
        f[f"shape={word_shape(surface)}"] = 1.0
        f[f"case={cls}"] = 1.0
        f[f"note_case={note_case}"] = 1.0
        f[f"case={cls}&note={note_case}"] = 1.0
        f[f"case={cls}&cat={cat}"] = 1.0
        f[f"fams={fams}&note={note_case}"] = 1.0
        f["note_upper_frac"] = note_upper
        f[f"n_tokens={min(len(token_scan.findall(surface)), 5)}"] = 1.0
        f[f"length={_bucket(span.length, (2, 4, 7, 12, 20))}"] = 1.0
        f["has_digit"] = float(any(c.isdigit() for c in surface))
        f["has_alpha"] = float(bool(words))
        if words:
            zipfs = [zipf_lowered(w) for w in words]
            f["zipf_min"] = min(zipfs) / 8.0
            f["zipf_max"] = max(zipfs) / 8.0
            whole = zipfs[0] if len(words) == 1 else zipf_lowered(" ".join(words))  # one word: its own value
            f["zipf_whole"] = whole / 8.0
            f[f"zipf_whole={_bucket(whole, ZIPF_EDGES)}"] = 1.0
            f[f"zipf_whole={_bucket(whole, ZIPF_EDGES)}&cat={cat}"] = 1.0

        # Tokenize only a window around the span: cost grows with candidates, not with note length.
        before = token_scan.findall(text, max(0, span.start - CONTEXT_CHARS), span.start)[-TRIGGER_WINDOW:]
        after = token_scan.findall(text, span.end, span.end + CONTEXT_CHARS)[:TRIGGER_WINDOW]
        left = [_context_word(t) for t in before[-WINDOW:]]
        right = [_context_word(t) for t in after[:WINDOW]]
        left = ["<s>"] * (WINDOW - len(left)) + left
        right = right + ["</s>"] * (WINDOW - len(right))
        for i, w in enumerate(reversed(left), 1):
            f[f"w-{i}={w}"] = 1.0
        for i, w in enumerate(right, 1):
            f[f"w+{i}={w}"] = 1.0
        f[f"bg-={left[0]}_{left[1]}"] = 1.0
        f[f"bg+={right[0]}_{right[1]}"] = 1.0
        f[f"w-1={left[1]}&cat={cat}"] = 1.0
        for t in (*before, *after):
            low = t.lower()
            if low in TRIGGERS:
                f[f"trig={low}"] = 1.0
        starts_line = at_line_start(text, span.start)
        f[f"line_start={int(starts_line)}"] = 1.0

        section = section_at(found_sections, span.start) or "none"
        f[f"section={section}"] = 1.0
        f[f"section={section}&cat={cat}"] = 1.0

        key = normalise_key(surface)
        in_note = context.note_counts.get(key, 1) - 1
        f["same_in_note"] = math.log1p(max(in_note, 0))
        f["same_in_note_any"] = float(in_note > 0)
        in_patient = context.patient_notes.get(key, 0)
        f["same_in_patient"] = math.log1p(in_patient)
        f["same_in_patient_any"] = float(in_patient > 0)
        # Case-insensitive substring count (non-overlapping, as str.count): whole-word precision matters little here.
        occurrences = repeats[surface.lower()]
        f["text_repeats"] = math.log1p(max(occurrences - 1, 0))
        return f


def substring_counts(text: str, needles: Iterable[str]) -> dict[str, int]:
    """``{needle: text.count(needle)}`` for non-empty needles (non-overlapping occurrences, found left to right, as
    ``str.count`` counts them), all found in one Aho-Corasick pass over the text: counting each needle with its own
    scan costs the note's length per candidate, quadratic on a long note dense with candidates.

    A needle longer than ``AUTOMATON_MAX_NEEDLE`` is counted by ``str.count`` instead: the automaton's walk reports
    matches by following suffix links, up to a needle's length at each position, so one long candidate in a run of
    one repeated character ("aaaa...", 48,000 long: 1.6 s) cost the square of its length. Such candidates are few.
    """
    counts = dict.fromkeys(needles, 0)
    short = [needle for needle in counts if len(needle) <= AUTOMATON_MAX_NEEDLE]
    for needle in counts.keys() - short:
        counts[needle] = text.count(needle)
    if not short:
        return counts
    automaton = ahocorasick.Automaton()
    for needle in short:
        automaton.add_word(needle, needle)
    automaton.make_automaton()
    free = dict.fromkeys(short, 0)  # per needle, where its next counted occurrence may start
    for last, needle in automaton.iter(text):
        start = last - len(needle) + 1
        if start >= free[needle]:
            counts[needle] += 1
            free[needle] = start + len(needle)
    return counts


def candidate_features(
    document: Document, spans: Sequence[Span], context: CandidateContext | None = None
) -> list[dict[str, float]]:
    """Features of each span of ``spans`` (stage-1 candidates of ``document``), in order."""
    return FeatureExtractor().document_features(document, spans, context)
