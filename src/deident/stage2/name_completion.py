"""Completing a kept name to its whole written form, so that no name is half replaced.

A detector may find one token of a name and not its neighbour: the surname found after "Mrs" but not the first
name before it, a first name found by a lexicon but not the pseudo-word surname after it. Replacing only the found
token leaves the real surname beside a tag or, worse, beside a surrogate that vouches for it. After the span filter
has kept a NAME span, this stage extends it over the adjacent tokens that complete a name's shape on the same line:

* a name word right before or after it, separated by one or two spaces, tabs or no-break spaces (up to two words
  each side: "John K. Smith" from "Smith");
* a middle initial ("K." between two name words);
* the other half of "Last, First" (a known first name after "Smith, ", a known surname before ", John").

A neighbour is a name word by :func:`deident.detect.patterns.names.is_name_word`, the test the trigger patterns
use: in mixed-case text a capitalised word that is not a note or clinical word (after a detected name, as after
"Dr."); in a note or window written in one case, where case is no evidence, only a known name that is not a common
word, or a word no dictionary knows. Kinship words, titles, credentials, months, drugs and the veto's terms never
are. Reconciliation, which runs next, then tags the other mentions of each completed name and of its parts.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from deident.core.document import Document
from deident.core.labels import Category
from deident.core.span import Span
from deident.detect.crf.learned import token_hash
from deident.detect.lexicon.data import load_drug_names, load_lexicon, load_veto_terms
from deident.detect.patterns.names import is_name_word
from deident.stage2.reconcile import COMPLETED
from deident.text.case import window_case
from deident.text.wordfrequency import zipf_lowered

# At most this many words are added on each side of a span.
MAX_WORDS_PER_SIDE = 2
_WORD = regex.compile(r"\p{L}[\p{L}'’\-]*")
_GAP_AFTER = regex.compile(r"[ \t\u00a0]{1,2}")
_GAP_BEFORE = regex.compile(r"[ \t\u00a0]{1,2}$")
_COMMA_AFTER = regex.compile(r",[ \t\u00a0]{1,2}")
_COMMA_BEFORE = regex.compile(r",[ \t\u00a0]{1,2}$")
_BEFORE_WINDOW = 40
_RARE_ZIPF = 2.5
_HYPHEN_PART = regex.compile(r"[-‐](\p{L}[\p{L}'’]*)")
_OPENING = "'\"‘“(["
_VOWEL = regex.compile(r"[aeiouy\p{Mn}àáâãäåæèéêëìíîïòóôõöøùúûüýÿāăąēĕėęěīĭįıōŏőœūŭůűų]")
_FIELD_LABEL_AFTER = regex.compile(r"[ \t\u00a0]*[:#]")
_MONTHS_AND_DAYS = frozenset(
    "jan january feb february mar march apr april jun june jul july aug august sep sept september oct october nov "
    "november dec december mon monday tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday "
    "sun sunday".split()
)


def _key(word: str) -> str:
    key = word.rstrip(".").lower()
    return key[:-2] if key.endswith(("'s", "’s")) else key


def _shape(word: str) -> str:
    letters = [c for c in word if c.isalpha()]
    if all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    return "title" if letters[0].isupper() else "other"


class _Judge:
    """Whether a word next to a kept name is part of it (the note's case mode at the span decides the test)."""

    def __init__(self, text: str, span: Span, clinical_words: frozenset[str]) -> None:
        self.clinical_words = clinical_words
        self.mode = window_case(text, span.start)
        words = _WORD.findall(span.text_of(text))
        self.shapes = {_shape(w) for w in words if len(w.rstrip(".")) > 1}

    def is_name(self, word: str, *, known_only: str = "") -> bool:
        key = _key(word)
        if len(key) < 2 or key in _MONTHS_AND_DAYS or key in load_veto_terms() or key in load_drug_names():
            return False
        if known_only and key not in load_lexicon(known_only) and zipf_lowered(key) >= _RARE_ZIPF:
            return False  # the other half of "Last, First" is a listed name or a word no dictionary knows
        if not _VOWEL.search(key):
            return False  # "MRN", "DNR", "PCP": an abbreviation, not a name
        if self.mode == "mixed":
            # Case is evidence in mixed-case text: the neighbour must be written as the name's own words are. The
            # weak test: a capitalised common word next to a name ("Beck Depression Inventory") is no name.
            return _shape(word) in self.shapes - {"lower"} and is_name_word(word, "mixed", False)
        return token_hash(key) not in self.clinical_words and is_name_word(word, self.mode, False)

    @staticmethod
    def is_initial(word: str) -> bool:
        return len(word) == 1 and word.isupper()


def _extend_right(text: str, end: int, limit: int, judge: _Judge, single: bool, taken: bytearray) -> int:
    added = 0
    # The rest of a hyphenated surname the span stopped short of ("Shaidor" of "Shaidor-Gouchirk").
    rest = _HYPHEN_PART.match(text, end, limit) if end and text[end - 1].isalpha() else None
    if rest is not None and not taken[rest.start(1)] and judge.is_name(rest.group(1)):
        end = rest.end()
    while added < MAX_WORDS_PER_SIDE:
        gap = _GAP_AFTER.match(text, end, limit)
        comma = None if gap else _COMMA_AFTER.match(text, end, limit) if single and added == 0 else None
        step = gap or comma
        if step is None:
            break
        word = _WORD.match(text, step.end(), limit)
        if word is None or taken[word.start()]:
            break  # no word, or one that belongs to another kept name already
        token = word.group()
        if comma is not None:
            if not judge.is_name(token, known_only="first_names"):
                break  # "Smith, who ..." is no "Last, First"
            end = word.end()
            break
        if judge.is_initial(token):
            # A middle initial only when a name word follows it ("John K. Smith", not "Smith A. fib").
            dot = word.end() + (text[word.end() : word.end() + 1] == ".")
            after = _GAP_AFTER.match(text, dot, limit)
            following = _WORD.match(text, after.end(), limit) if after else None
            if following is None or not judge.is_name(following.group()) or added + 2 > MAX_WORDS_PER_SIDE:
                break
            end = following.end()
            added += 2
            continue
        if not judge.is_name(token) or _FIELD_LABEL_AFTER.match(text, word.end(), limit):
            break  # not a name word, or the label of the next field ("Smith MRN: ...")
        end = word.end()
        added += 1
    return end


def _extend_left(text: str, start: int, judge: _Judge, single: bool, taken: bytearray) -> int:
    added = 0
    while added < MAX_WORDS_PER_SIDE:
        window_start = max(0, start - _BEFORE_WINDOW)
        before = text[window_start:start]
        comma = _COMMA_BEFORE.search(before) if single and added == 0 else None
        gap = None if comma else _GAP_BEFORE.search(before)
        step = comma or gap
        if step is None:
            break
        word = regex.search(r"\p{L}[\p{L}'’\-]*$", before[: step.start()])
        opening = word is not None and word.start() > 0 and before[word.start() - 1] in _OPENING
        if word is None or (word.start() > 0 and not before[word.start() - 1].isspace() and not opening):
            break  # a word glued to what precedes it ("x/Smith"), unless an opening quote or bracket
        if word.start() == 0 and window_start > 0:
            break  # a word longer than the window is no name
        if taken[window_start + word.start()]:
            break
        token = word.group()
        if comma is not None:
            if judge.is_name(token, known_only="last_names"):
                start = window_start + word.start()
            break
        if not judge.is_name(token):
            break
        start = window_start + word.start()
        added += 1
    return start


@dataclass(frozen=True)
class NameCompletion:
    """Pipeline stage: :func:`complete_names` with the model's clinical vocabulary (hashes of lower-cased words)."""

    clinical_words: frozenset[str] = frozenset()
    name: str = "name_completion"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return complete_names(document, spans, self.clinical_words)


def complete_names(
    document: Document, spans: tuple[Span, ...], clinical_words: frozenset[str] = frozenset()
) -> tuple[Span, ...]:
    """NAME spans extended over the adjacent words that complete a name (see the module docstring);
    ``clinical_words``: hashes (:func:`deident.detect.crf.learned.token_hash`) of words that are no names."""
    text = document.text
    names = [s for s in spans if s.category is Category.NAME]
    if not names:
        return spans
    taken = bytearray(len(text))  # characters inside a kept NAME span
    for name in names:
        taken[name.start : name.end] = b"\x01" * (name.end - name.start)
    out: list[Span] = []
    for span in spans:
        if span.category is not Category.NAME:
            out.append(span)
            continue
        judge = _Judge(text, span, clinical_words)
        if not judge.shapes:
            out.append(span)
            continue
        single = len(_WORD.findall(span.text_of(text))) == 1
        line_end = text.find("\n", span.end)
        end = _extend_right(text, span.end, len(text) if line_end < 0 else line_end, judge, single, taken)
        start = _extend_left(text, span.start, judge, single, taken)
        if (start, end) == (span.start, span.end):
            out.append(span)
        else:
            taken[start:end] = b"\x01" * (end - start)  # a word joins one name only
            out.append(span.moved(start, end).with_evidence(f"{COMPLETED} adjacent name words"))
    return tuple(out)
