"""Global reconciliation: tag every occurrence of a confidently detected name or place, consistently.

Per note (or per patient, when :func:`reconcile_documents` gets several notes of one patient):

1. *Seeds*: NAME and LOCATION spans whose score is at least ``min_score`` (or have no score), and
   trusted phrases (``source`` "trusted.*"). Each seed adds its whole string to a dictionary; a
   multi-word name also adds its separate words and its initial forms ("J. Smith", "J Smith").
2. *Common-word guard*: a single word enters only if it has at least ``min_length`` letters (two: a
   string of two letters, "GH" or "Xu", tags only its mentions written as the seed was) and a
   wordfreq Zipf below ``max_zipf``; a phrase only if its Zipf is below ``max_zipf`` (ICU notes are
   often all upper or all lower case, so case cannot tell "BROWN" the name from "brown" sputum). In a
   mixed-case note an all-lower-case occurrence is tagged only when its Zipf is below
   ``lower_case_max_zipf``. A word of a multi-word name that the lexicon lists as a name and whose Zipf is
   below ``common_name_max_zipf`` ("Ruby", "Mason") enters too, but tags only its mentions written with a
   capital and not all in capitals, in a mixed-case note (in a one-case note only a listed first name that
   opens its name: "JOE REPORTS", not "CONDITION FAIR"): a repeated mention of a detected name is not left.
   A kept name of several words below ``min_score`` spreads its whole string only (not its words).
3. *Type counting*: each dictionary string takes the label most often given to it among the spans of
   the note(s) (ties: higher summed score, then label name); existing spans of that string take that label.
4. *Propagation*: every case-insensitive whole-word occurrence (a possessive "'s" is left outside the
   span) not already covered by a span becomes a span with source "reconcile", unless the stage-1 veto
   (:mod:`deident.stage1.veto`) would drop it where it stands ("Hickman line", a drug name); a seed whose
   string is itself a veto term or a drug ("Dr. Hickman": kept there by its title) enters no dictionary.

Why the veto (issue 16): without it, reconciliation on held-out PhysioNet notes added 2 true PHI tokens and
13 false ones (precision -0.027); with it, the same 2 true tokens and 6 false ones (precision -0.0125).
It is on by default in the bundled model (its manifest's ``stage2``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import accumulate

import regex

from deident.core.document import Document, patient_groups
from deident.core.labels import Category, Label
from deident.core.span import Span, sort_spans
from deident.detect.lexicon.data import load_drug_names, load_lexicon, load_veto_terms
from deident.stage1.veto import PhraseHits, phrase_hits, veto_reasons
from deident.text.normalise import normalise_key
from deident.text.note_view import note_view
from deident.text.wordfrequency import zipf_lowered

SOURCE = "reconcile"
COMPLETED = "completed:"  # the evidence name completion adds to a span it extends
SEED_CATEGORIES: frozenset[Category] = frozenset({Category.NAME, Category.LOCATION})
_LONGEST_SPREAD = 100  # characters of a string that reconciliation spreads
_LETTERS = regex.compile(r"\p{L}")
_WORDS = regex.compile(r"[\p{L}][\p{L}\p{M}'\-]*")  # marks too: "i̇mren" (a lower-cased "İmren") is one word


@dataclass(frozen=True, slots=True)
class ReconcileOptions:
    min_score: float = 0.5
    # Two letters: a hospital's initials ("GH") or a short surname ("Xu"), spread as written (_Entry.spelled).
    min_length: int = 2
    max_zipf: float = 3.5
    lower_case_max_zipf: float = 2.0
    # A word of a multi-word name above ``max_zipf`` but below this, if the lexicon lists it as a name, is spread
    # to its capitalised mentions ("Ruby" of "Ruby Mason"): a repeated mention of a detected name is never left.
    common_name_max_zipf: float = 5.0
    initials: bool = True
    split_names: bool = True
    # Negative evidence (the stage-1 veto, :mod:`deident.stage1.veto`) applies to the strings reconciliation
    # spreads: a seed whose string is a clinical term, drug or device ("Foley" after "Dr.") enters no dictionary,
    # and an occurrence that the veto would drop where it stands ("Foley catheter", a drug) is not tagged.
    veto: bool = True


@dataclass(frozen=True, slots=True)
class _Entry:
    key: str
    pattern: str  # regex for the string (whole words, flexible spaces)
    score: float
    label: Label  # the seed's label, used when no span of the exact string votes
    # A listed name that is also a common word ("Ruby", "Mason" of "Ruby Mason"): tagged only in a mixed-case note
    # where written as a name is ("Ruby reports ...", not "ruby laser" nor "CONDITION FAIR").
    capitalised_only: bool = False
    # ... unless it is a listed first name opening its name ("JOE" of "JOE BLOGGS"): a one-case note calls a person
    # by the first name alone ("JOE REPORTS ..."), and its surname with a title ("MRS FAIR", not "CONDITION FAIR").
    first_name: bool = False
    # A string of two letters ("GH" for a hospital, "Xu") is tagged only where written as the seed was: one case of it
    # may be a clinical abbreviation ("OD" once a day beside a name "Od").
    spelled: str | None = None


_SPELLED_BELOW = 3  # letters: a shorter string spreads only as written (_Entry.spelled)


def _admissible(key: str, options: ReconcileOptions) -> bool:
    letters = len(_LETTERS.findall(key))
    return letters >= options.min_length and zipf_lowered(key) < options.max_zipf


def _word_pattern(words: Sequence[str]) -> str:
    return r"\s+".join(regex.escape(w) for w in words)


def _seed_entries(text: str, span: Span, options: ReconcileOptions) -> list[_Entry]:
    surface = span.text_of(text)
    key = normalise_key(surface)
    score = 1.0 if span.score is None else span.score
    entries: list[_Entry] = []
    words = _WORDS.findall(key)
    if not words:
        return entries
    if _admissible(key, options):
        entries.append(_Entry(key, _word_pattern(key.split()), score, span.label))
    if span.category is Category.NAME and len(words) >= 2:
        if options.split_names:
            for index, word in enumerate(words):
                if _admissible(word, options):
                    entries.append(_Entry(word, regex.escape(word), score, span.label))
                elif _common_listed_name(word, options):
                    first = index == 0 and word in load_lexicon("first_names")
                    entries.append(_Entry(word, regex.escape(word), score, span.label, True, first))
        last = words[-1]
        if options.initials and len(words[0]) > 1 and _admissible(last, options):
            entries.append(
                _Entry(
                    f"{words[0][0]}. {last}",
                    regex.escape(words[0][0]) + r"\.?\s+" + regex.escape(last),
                    score,
                    span.label,
                )
            )
    return [_as_spelled_in(surface, entry) for entry in entries]


def _as_spelled_in(surface: str, entry: _Entry) -> _Entry:
    """``entry`` with :attr:`_Entry.spelled` set, for a string of fewer than _SPELLED_BELOW letters, to its spelling in
    the seed's ``surface``."""
    if len(_LETTERS.findall(entry.key)) >= _SPELLED_BELOW:
        return entry
    found = regex.search(
        r"(?<![\p{L}\p{M}\p{N}])(?:" + entry.pattern + r")(?![\p{L}\p{M}\p{N}])", surface, regex.IGNORECASE
    )
    return replace(entry, spelled=found.group() if found is not None else surface)


def _whole_name_entry(text: str, span: Span, options: ReconcileOptions) -> _Entry | None:
    if span.category is not Category.NAME:
        return None
    key = normalise_key(span.text_of(text))
    if len(_WORDS.findall(key)) < 2 or not _admissible(key, options) or (options.veto and _clinical_string(key)):
        return None
    return _Entry(key, _word_pattern(key.split()), 1.0 if span.score is None else span.score, span.label)


def _common_listed_name(word: str, options: ReconcileOptions) -> bool:
    """A first name or surname of the lexicon that is also a common word, but not among the commonest."""
    if len(_LETTERS.findall(word)) < options.min_length or zipf_lowered(word) >= options.common_name_max_zipf:
        return False
    return word in load_lexicon("first_names") or word in load_lexicon("last_names")


def _is_seed(span: Span, options: ReconcileOptions) -> bool:
    if span.source.startswith("trusted."):
        return True
    return span.category in SEED_CATEGORIES and (span.score is None or span.score >= options.min_score)


def _clinical_string(key: str) -> bool:
    """Whether a dictionary string is a veto term or a drug name (stage 1's negative evidence)."""
    return key in load_veto_terms() or key in load_drug_names()


def _vote(votes: Counter[Label], weights: dict[Label, float]) -> Label:
    return min(votes, key=lambda lab: (-votes[lab], -weights.get(lab, 0.0), lab.value))


def reconcile_documents(
    documents: Sequence[Document], spans_per_document: Sequence[Sequence[Span]], options: ReconcileOptions | None = None
) -> list[tuple[Span, ...]]:
    """Reconcile notes together: notes with the same ``patient_id`` share one dictionary.

    Notes without a patient id are reconciled alone.
    """
    if len(documents) != len(spans_per_document):
        raise ValueError("documents and spans differ in length")
    options = options or ReconcileOptions()
    out: list[tuple[Span, ...]] = [()] * len(documents)
    for members in patient_groups(documents):
        results = _reconcile_group([documents[i] for i in members], [spans_per_document[i] for i in members], options)
        for i, spans in zip(members, results, strict=True):
            out[i] = spans
    return out


def reconcile_document(
    document: Document, spans: Sequence[Span], options: ReconcileOptions | None = None
) -> tuple[Span, ...]:
    return reconcile_documents([document], [spans], options)[0]


def _reconcile_group(
    documents: Sequence[Document], spans_per_document: Sequence[Sequence[Span]], options: ReconcileOptions
) -> list[tuple[Span, ...]]:
    entries: dict[str, _Entry] = {}
    seed_notes: Counter[str] = Counter()
    for doc, spans in zip(documents, spans_per_document, strict=True):
        seen: set[str] = set()
        for span in spans:
            if not _is_seed(span, options):
                # A kept name of several words below the seed score: its whole string, written again, is the same
                # name (a repeated mention of a detected name is never left); its words alone are not spread.
                entry = _whole_name_entry(doc.text, span, options)
                if entry is not None and entry.key not in entries:
                    entries[entry.key] = entry
                    seen.add(entry.key)
                continue
            if _is_seed(span, options):
                for entry in _seed_entries(doc.text, span, options):
                    if options.veto and _clinical_string(entry.key):
                        continue
                    old = entries.get(entry.key)
                    if old is None or entry.score > old.score:
                        entries[entry.key] = entry
                    seen.add(entry.key)
        seed_notes.update(seen)
    _add_anchored_names(documents, spans_per_document, entries, options)
    # No name or place is longer than this: a longer string ("Dr" and a run of 8,000 letters) is not spread, and a
    # search for it, case-blind, would cost its length at every position of every note of the group.
    entries = {key: entry for key, entry in entries.items() if len(key) <= _LONGEST_SPREAD}
    if not entries:
        return [sort_spans(spans) for spans in spans_per_document]

    # Type counting over all spans of the group whose string is in the dictionary.
    votes: dict[str, Counter[Label]] = defaultdict(Counter)
    weights: dict[str, dict[Label, float]] = defaultdict(lambda: defaultdict(float))
    for doc, spans in zip(documents, spans_per_document, strict=True):
        for span in spans:
            key = normalise_key(span.text_of(doc.text))
            if key in entries:
                votes[key][span.label] += 1
                weights[key][span.label] += 1.0 if span.score is None else span.score
            if span.category is Category.NAME:
                for word in _WORDS.findall(key):
                    if word in entries and word != key:
                        votes[word][span.label] += 1
                        weights[word][span.label] += 1.0 if span.score is None else span.score
    label_of = {key: _vote(votes[key], weights[key]) for key in entries if votes[key]}
    keys_by_pattern = sorted(entries.values(), key=lambda e: (-len(e.key), e.key))
    matcher = regex.compile(
        r"(?<![\p{L}\p{M}\p{N}])(?:" + "|".join(f"(?P<k{i}>{e.pattern})" for i, e in enumerate(keys_by_pattern)) + r")"
        r"(?![\p{L}\p{M}\p{N}])",
        regex.IGNORECASE,
    )

    results: list[tuple[Span, ...]] = []
    for doc, spans in zip(documents, spans_per_document, strict=True):
        text = doc.text
        upper = note_view(doc).case.upper_fraction()
        mixed_case = 0.02 <= upper <= 0.9
        relabelled: list[Span] = []
        for span in spans:
            key = normalise_key(span.text_of(text))
            # A common word that is a listed name only spreads; its existing spans keep their labels.
            known = entries.get(key)
            label = label_of.get(key) if known is not None and not known.capitalised_only else None
            if label is not None and label is not span.label:
                span = replace(
                    span.with_label(label),
                    evidence=(*span.evidence, f"reconcile: relabelled to {label.value} by type count"),
                )
            relabelled.append(span)
        added: list[Span] = []
        phrases: PhraseHits | None = None  # the note's multi-word veto terms, found when first needed
        # Whether a match overlaps a span: the spans that start before it ends, sorted by start, and the furthest
        # end among the first i of them (one binary search per match, not a look at every span). The matches
        # themselves never overlap one another (finditer), so the spans added here need no such check.
        occupied = sorted((s.start, s.end) for s in relabelled)
        starts = [s for s, _ in occupied]
        reach = list(accumulate((e for _, e in occupied), max))
        for m in matcher.finditer(text):
            start, end = m.span()
            before_end = bisect_left(starts, end)
            if before_end and reach[before_end - 1] > start:
                continue
            found = m.group()
            if mixed_case and found.islower() and zipf_lowered(found) >= options.lower_case_max_zipf:
                continue
            entry = keys_by_pattern[int(str(m.lastgroup)[1:])]  # the one alternative k<i> that matched
            if entry.spelled is not None and found != entry.spelled:
                continue
            if entry.capitalised_only:
                written_as_name = mixed_case and found[0].isupper() and not found.isupper()
                if not written_as_name and (mixed_case or not entry.first_name):
                    continue  # case is the only evidence (see _Entry.first_name for one-case notes)
            label = label_of.get(entry.key, entry.label)
            where = "patient's notes" if seed_notes[entry.key] and len(documents) > 1 else "note"
            evidence = (f"reconcile: same string tagged {label.value} elsewhere in the {where}",)
            span = Span(start, end, label, SOURCE, entry.score, evidence)
            if options.veto:
                phrases = phrase_hits(doc) if phrases is None else phrases
                if veto_reasons(doc, span, phrases):
                    continue
            added.append(span)
        results.append(sort_spans((*relabelled, *added)))
    return results


def _add_anchored_names(
    documents: Sequence[Document],
    spans_per_document: Sequence[Sequence[Span]],
    entries: dict[str, _Entry],
    options: ReconcileOptions,
) -> None:
    """A kept name below the seed score that shares a word with a confident name is that person's name too
    ("zeanaintova chiferko" where "Mrs Chiferko" was confident): its other words join the dictionary at the
    confident name's score, so its first name's other mentions are tagged as well."""
    confident = {key: e for key, e in entries.items() if e.label.category is Category.NAME}
    if not confident:
        return
    for doc, spans in zip(documents, spans_per_document, strict=True):
        for span in spans:
            if span.category is not Category.NAME or _is_seed(span, options):
                continue
            words = _WORDS.findall(normalise_key(span.text_of(doc.text)))
            anchors = [confident[w] for w in words if w in confident]
            if len(words) < 2 or not anchors:
                continue
            score = max(anchor.score for anchor in anchors)
            for entry in _seed_entries(doc.text, span, options):
                if entry.key not in entries and not (options.veto and _clinical_string(entry.key)):
                    entries[entry.key] = replace(entry, score=score)


@dataclass(frozen=True)
class ReconcileStage:
    """Reconciliation as a group stage: per note when called on one document; across each patient's
    notes (:func:`reconcile_documents`) when the pipeline runs several documents together."""

    options: ReconcileOptions = ReconcileOptions()
    name: str = "reconcile"
    # The round after name completion (deident.stage2.assemble): only a patient one of whose reconciled mentions
    # completion then extended has new strings to spread; the others are passed through, so the round costs
    # nothing on most notes.
    after_completion: bool = False

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return self.apply_many([document], [spans])[0]

    def apply_many(
        self, documents: Sequence[Document], spans_per_document: Sequence[tuple[Span, ...]]
    ) -> list[tuple[Span, ...]]:
        if not self.after_completion:
            return reconcile_documents(documents, spans_per_document, self.options)
        out = [tuple(spans) for spans in spans_per_document]
        for members in patient_groups(documents):
            if any(_completed_mention(span) for i in members for span in spans_per_document[i]):
                group = reconcile_documents([documents[i] for i in members], [out[i] for i in members], self.options)
                for i, spans in zip(members, group, strict=True):
                    out[i] = spans
        return out


def _completed_mention(span: Span) -> bool:
    """A mention reconciliation added that name completion then extended (see deident.stage2.name_completion)."""
    return span.source == SOURCE and any(note.startswith(COMPLETED) for note in span.evidence)
