"""Names written in quotes that no detector found: a quoted phrase shaped as a person's name.

Notes quote a person's name as it was given ('Pt states "Ann Quorvane" is her legal name', "Contact 'Bob
Tilbet'") and a name no lexicon knows, with no title or kinship word before it, gives the detectors nothing to go
on. A quoted phrase is taken as a name when it is two or three capitalised words or initials between matching
quotes, every word either a word no dictionary knows or a listed name, at least one of them no dictionary knows, and
none a word of the model's clinical vocabulary, a drug, a veto term, a month or day, a kinship or role word. Quoted
speech ("Feeling Better"), quoted drugs ("Metoprolol Succinate") and quoted clinical phrases are left alone. The
span's category is NAME, labelled as the longest name span a detector found inside it, else PATIENT (nothing in the
quote tells whose name it is); name completion and reconciliation then treat it as any kept name.
"""

from __future__ import annotations

from bisect import bisect_left

import regex

from deident.core.document import Document
from deident.core.labels import Category, Label
from deident.core.span import Span, sort_spans
from deident.detect.crf.learned import token_hash
from deident.detect.lexicon.data import load_drug_names, load_lexicon, load_veto_terms
from deident.detect.patterns.names import DOCTOR_ROLES_WORDS, DOCTOR_TITLES_WORDS, FAMILY_WORDS
from deident.text.wordfrequency import zipf_lowered

SOURCE = "stage2.quoted_name"
SCORE = 0.6
# No dictionary knows a word rarer than this (Zipf), the threshold name completion uses.
RARE_ZIPF = 2.5
# A capitalised word, with an inner capital ("McSharry", "DeLuca") and hyphen or apostrophe parts ("O'Neil-Ruiz").
_NAME_WORD = r"\p{Lu}[\p{Ll}\p{M}]*(?:\p{Lu}[\p{Ll}\p{M}]+)?(?:['’\-]\p{Lu}?[\p{Ll}\p{M}]*)*"
# A word of the name, or a dotted initial ("Quorvane S.", "J. Quorvane"; an initial without its stop is a _NAME_WORD).
_NAME_ITEM = rf"(?:\p{{Lu}}\.|{_NAME_WORD})"
_QUOTED = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<open>[\"“'‘])"
    rf"(?P<name>{_NAME_ITEM}(?:[ \u00a0]{_NAME_ITEM}){{1,2}})"
    r"(?P<close>[\"”'’])(?![\p{L}\p{N}])"
)
# Spans inside a quoted name that it replaces: names, and places (a name no lexicon knows is often taken for one).
_REPLACEABLE = frozenset({Category.NAME, Category.LOCATION})
_CLOSING = {'"': '"', "“": "”", "'": "'", "‘": "’"}
_NO_NAMES = frozenset(w for w in FAMILY_WORDS + DOCTOR_ROLES_WORDS + DOCTOR_TITLES_WORDS if " " not in w) | frozenset(
    "jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october "
    "nov november dec december monday tuesday wednesday thursday friday saturday sunday".split()
)


def _word_kind(word: str, clinical_words: frozenset[str]) -> str:
    """'rare' (no dictionary knows it), 'listed' (a listed name) or 'other'."""
    key = word.lower()
    if key in _NO_NAMES or key in load_veto_terms() or key in load_drug_names():
        return "other"
    if token_hash(key) in clinical_words:
        return "other"
    if zipf_lowered(key) < RARE_ZIPF:
        return "rare"
    if key in load_lexicon("first_names") or key in load_lexicon("last_names"):
        return "listed"
    return "other"


def quoted_names(
    document: Document, spans: tuple[Span, ...], clinical_words: frozenset[str] = frozenset()
) -> tuple[Span, ...]:
    """``spans`` with a PATIENT span for each quoted name (see the module docstring), which replaces the name and
    place spans inside it; none where a span crosses its quotes or a span of another category lies inside."""
    text = document.text
    if '"' not in text and "'" not in text and "“" not in text and "‘" not in text:
        return spans
    # What covers each character: 1 a NAME span, 2 a span of another category (one pass over the spans, so that a
    # note with many quotes costs no scan of all spans per quote).
    cover = bytearray(len(text))
    for span in spans:
        cover[span.start : span.end] = (b"\x01" if span.category in _REPLACEABLE else b"\x02") * span.length
    ordered = sorted(spans, key=lambda s: s.start)
    starts = [s.start for s in ordered]
    added: list[Span] = []
    replaced: set[int] = set()  # indices into ``ordered``
    for match in _QUOTED.finditer(text):
        if _CLOSING[match.group("open")] != match.group("close"):
            continue
        start, end = match.span("name")
        if cover[start - 1] or cover[end] or 2 in cover[start:end]:
            continue  # a span crosses the quotes, or one that is no name or place lies inside
        words = regex.split(r"[ \u00a0]", match.group("name"))
        parts = [part for word in words for part in regex.split(r"[\-'’]", word.rstrip(".")) if len(part) > 1]
        kinds = [_word_kind(part, clinical_words) for part in parts]
        if "other" in kinds or "rare" not in kinds:
            continue
        inside = range(bisect_left(starts, start), bisect_left(starts, end))
        replaced.update(inside)
        # A detector that found the name inside tells whose it may be ("Dr"); nothing else in the quote does.
        named = [ordered[i] for i in inside if ordered[i].category is Category.NAME]
        label = max(named, key=lambda s: s.length).label if named else Label.PATIENT
        added.append(Span(start, end, label, SOURCE, SCORE, ("quoted phrase shaped as a name",)))
    if not added:
        return spans
    return sort_spans((*(s for i, s in enumerate(ordered) if i not in replaced), *added))
