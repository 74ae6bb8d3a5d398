"""Completing a kept name to its whole written form, so that no name is half replaced.

A detector may find one token of a name and not its neighbour: the surname found after "Mrs" but not the first
name before it, a first name found by a lexicon but not the pseudo-word surname after it. Replacing only the found
token leaves the real surname beside a tag or, worse, beside a surrogate that vouches for it. After the span filter
has kept a NAME span, this stage extends it over the adjacent tokens that complete a name's shape on the same line:

* a name word right before or after it, separated by one or two spaces, tabs or no-break spaces (up to two words
  each side: "John K. Smith" from "Smith");
* a middle initial ("K." between two name words), a leading one where it opens the line, a field, a bracket or
  a sentence ("K. TRAILYRKIS IS A 67 YEAR OLD"), and a closing capital with its full stop ("Couviolard T. are his
  proxies"), unless a side (L., R.) or the letter of a shorthand or organism ("Smith A. fib", "E. coli"); in a
  note of small letters, a small initial as well ("quorvane j.");
* the other half of "Last, First" (a known first name after "Smith, ", a known surname before ", John"; a first
  name the veto lists as an abbreviation only where it is written as a name and closes the slot: "(Gould, Max)");
* the one word that closes a name slot after a lone listed first name ("Next of kin: Nicholas House (son)",
  "Patient: Sandile Pastor" at the end of its line, "Contact 'Paloma Day'"), or opens one before a lone found
  word ("Patient: MARK BODEK"): a first name followed by one word and then a bracket, a closing quote, a comma or
  the end of the line is a first name and a surname, even when the surname is a common word; kinship and role
  words, months, drugs and the veto's terms still never are (nor, in a one-case note, clinical words);
* the particles of a surname ("de la", "van der", "Mac an", "Ó") between or before name words: "Mac an Átha"
  after "Lydia Mac", "de la Aguilera" before "Aguilera"; a particle is taken only on its way to a name word
  (right) or right before the span (left), so "van" or "an" alone is never added.

* the other names of a list the name is in ("nosarkett and sustenek", "Drs Wood and Chance", "s. kelbur and p. marnow",
  "Mass, Fine and Quorvane"): the people of one list are of one kind, so a name word beside "and" or "&", or between
  the commas of a list an "and" closes, is a name of the kept one's label (:func:`coordinated_names`); an eponym's two
  names before a grade or sign ("Hunt and Hess grade 3") are none.

A neighbour is a name word by :func:`deident.detect.patterns.names.is_name_word`, the test the trigger patterns
use: in mixed-case text a capitalised word that is not a note or clinical word (after a detected name, as after
"Dr."); in a note or window written in one case, where case is no evidence, only a known name that is not a common
word, or a word no dictionary knows. Kinship words, titles, credentials, months, drugs and the veto's terms never
are. Reconciliation, which runs next, then tags the other mentions of each completed name and of its parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import regex

from deident.core.document import Document
from deident.core.labels import Category
from deident.core.span import Span
from deident.detect.crf.learned import token_hash
from deident.detect.lexicon.data import load_drug_names, load_lexicon, load_veto_terms
from deident.detect.patterns.names import (
    DOCTOR_ROLES_WORDS,
    FAMILY_WORDS,
    NON_NAMES,
    PARTICLES,
    STOP_WORDS,
    clinical_terms,
    completes_a_letter,
    is_name_word,
    known_names,
)
from deident.stage1.veto import EPONYM_NAME_PAIRS, in_eponym_pair
from deident.stage2.quoted_names import quoted_names
from deident.stage2.reconcile import COMPLETED
from deident.text.case import window_case
from deident.text.wordfrequency import FUNCTION_WORD_ZIPF, zipf_lowered

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
_LAST_LETTERS = regex.compile(r"\p{L}+$")
# A word broken at the line's end by a hyphen, its rest in small letters opening the next line ("Quor-\nvane"), as
# wrapped, typeset and OCR'd text breaks it.
_BROKEN_AT_LINE_END = regex.compile(r"[-‐][ \t]{0,8}\r?\n[ \t]{0,8}(\p{Ll}[\p{L}'’]{0,30})(?![\p{L}\d])")
_OPENING = "'\"‘“(["
_LAST_PART = regex.compile(r"(?:^|(?<=[\s\-‐]))(\p{L}+)$")  # the last word, or hyphen part, before a point
_WORD_BEFORE = regex.compile(r"\p{L}[\p{L}'’\-]*$")
_VOWEL = regex.compile(r"[aeiouy\p{Mn}àáâãäåæèéêëìíîïòóôõöøùúûüýÿāăąēĕėęěīĭįıōŏőœūŭůűų]")
_FIELD_LABEL_AFTER = regex.compile(r"[ \t\u00a0]*[:#]")
# Before a span only those surname particles that do not end an English phrase are taken ("an", "al", "le" are
# not: "an Ulster ...").
_PARTICLES_BEFORE = PARTICLES - {"an", "le", "ten"}
_MAX_PARTICLES = 2
# What may follow the last word of a name slot: a bracket, closing quote, comma, semicolon or tab, or the end of
# the line (a full stop allowed before it); and what may precede its first word: the start of the line (after a
# list dash), a field's colon, a tab, an opening bracket or quote.
_CLOSES_SLOT = regex.compile(r"(?:\.?[ \t\u00a0]*(?:\n|$)|[ \t\u00a0]*[()\[\],;\t\"”’'])")
_OPENS_SLOT = regex.compile(r"(?:^|\n|[:\t(\[\"“‘']|\n-)[ \t\u00a0]*$")
# A dotted initial right before a name where it opens the line, a field, a bracket or a sentence ("K. TRAILYRKIS IS A
# 67 YEAR OLD", "Patient: j. quorvane"). After a word it may end a sentence ("on vitamin K. Quorvane"): not there.
_OPENING_INITIAL = regex.compile(
    r"(?<=(?:^|[\n:\t.;!?]|(?<![\p{L}\p{N}])[(\[\"“‘'])[ \t\u00a0]{0,3})\p{L}\.[ \t\u00a0]{1,2}$"
)  # an opening quote is no apostrophe: "Asperger's. Braden 17" has no initial
_ROLE_WORDS = frozenset(w for w in FAMILY_WORDS + DOCTOR_ROLES_WORDS if " " not in w)
# A person's role in brackets right after the slot ("(wife)", "(patient)"): in a one-case note, where a clinical
# word may be a surname ("consuelo little (wife)"), only this closes a slot.
_ROLE_AFTER = regex.compile(
    r"[ \t\u00a0]*\([ \t]*(?:" + "|".join(sorted(_ROLE_WORDS | {"patient", "pt"}, key=len, reverse=True)) + r")\b",
    regex.IGNORECASE,
)
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


def _may_be_name(token: str, *, function_words_only: bool = False) -> bool:
    """Not a word that never is a name: a stop word (``function_words_only``: only the commonest, "at", "the", not
    note words such as "page"), a kinship or role word, a month or day, a drug, a veto term, an abbreviation without
    a vowel, a single letter."""
    key = _key(token)
    if len(key) < 2 or key in _MONTHS_AND_DAYS or key in _ROLE_WORDS:
        return False
    if key in STOP_WORDS and (not function_words_only or zipf_lowered(key) >= FUNCTION_WORD_ZIPF):
        return False
    return bool(_VOWEL.search(key)) and key not in load_veto_terms() and key not in load_drug_names()


class _Judge:
    """Whether a word next to a kept name is part of it (the note's case mode at the span decides the test)."""

    def __init__(
        self, text: str, span: Span, clinical_words: frozenset[str], pairs: frozenset[tuple[str, str]] = frozenset()
    ) -> None:
        self.clinical_words = clinical_words
        self.pairs = pairs  # adjacent words of the note's kept names of several words
        self.mode = window_case(text, span.start)
        words = _WORD.findall(span.text_of(text))
        self.shapes = {_shape(w) for w in words if len(w.rstrip(".")) > 1}

    def is_name(self, word: str, *, known_only: str = "", strong: bool = False) -> bool:
        """``strong``: judged as after a title ("Drs Wood and Chance": the title of the list)."""
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
            return _shape(word) in self.shapes - {"lower"} and is_name_word(word, "mixed", strong)
        return token_hash(key) not in self.clinical_words and is_name_word(word, self.mode, strong)

    def is_given_name_after_comma(self, word: str, *, closes_slot: bool) -> bool:
        """The other half of "Last, First": a listed first name or a word no dictionary knows (see :meth:`is_name`);
        or a listed first name that the veto lists as an abbreviation ("Max", "Eve", "Ada": "max assist"), where it
        is written as a name (title case in mixed-case text) and closes the pair's slot: "daughter (Gould, Max)"."""
        if self.is_name(word, known_only="first_names"):
            return True
        key = _key(word)
        return (
            closes_slot
            and self.mode == "mixed"
            and word.istitle()
            and load_veto_terms().get(key) == "abbreviation"
            and key in load_lexicon("first_names")
        )

    def fills_slot(self, token: str, *, role_after: bool) -> bool:
        """Whether a word beside a lone first name fills a name slot that ends as one (see the module docstring);
        ``role_after``: the slot is followed by a person's role in brackets."""
        if not _may_be_name(token):
            return False
        if self.mode == "mixed":
            return _shape(token) in self.shapes - {"lower"}
        return role_after or token_hash(_key(token)) not in self.clinical_words

    @staticmethod
    def is_first_name(word: str) -> bool:
        """A listed first name, or a word no dictionary knows."""
        key = _key(word)
        return key in load_lexicon("first_names") or zipf_lowered(key) < _RARE_ZIPF

    def follows_particle(self, token: str) -> bool:
        """A word after a particle that ends a span: any word that may be a name, written as the name's words are."""
        if not _may_be_name(token):
            return False
        return self.mode != "mixed" or _shape(token) in self.shapes - {"lower"}

    def written_together(self, first: str, second: str) -> bool:
        """Whether another kept name of the note has these two words side by side ("consuelo little"), both words
        that may be names (a kept span that took in "girlfriend" or "at" spreads neither)."""
        pair = (_key(first), _key(second))
        return pair in self.pairs and all(_may_be_name(w, function_words_only=True) for w in (first, second))

    def is_initial(self, word: str) -> bool:
        """A capital letter; in a note of small letters a small one too ("quorvane j.")."""
        return len(word) == 1 and (word.isupper() or (self.mode == "lower" and word.islower()))

    def is_particle(self, word: str, particles: frozenset[str] = PARTICLES) -> bool:
        """A surname particle written as particles are in this note (lower or title case; one-case notes: any)."""
        if word.lower() not in particles:
            return False
        return self.mode != "mixed" or word.islower() or word.istitle()


def _particles_then_name(text: str, at: int, limit: int, judge: _Judge) -> int | None:
    """The end of "particle(s) + name word" starting at ``at`` (after a gap), or None."""
    position = at
    for _ in range(_MAX_PARTICLES):
        particle = _WORD.match(text, position, limit)
        if particle is None or not judge.is_particle(particle.group()):
            return None
        gap = _GAP_AFTER.match(text, particle.end(), limit)
        if gap is None:
            return None
        word = _WORD.match(text, gap.end(), limit)
        if word is None:
            return None
        if not judge.is_particle(word.group()) and judge.is_name(word.group()):
            return word.end()
        position = gap.end()
    return None


def _extend_right(
    text: str, end: int, limit: int, judge: _Judge, single: bool, taken: bytearray, *, first_name: bool = False
) -> int:
    added = 0
    # The rest of a hyphenated surname the span stopped short of ("Shaidor" of "Shaidor-Gouchirk").
    rest = _HYPHEN_PART.match(text, end, limit) if end and text[end - 1].isalpha() else None
    if rest is not None and not taken[rest.start(1)] and judge.is_name(rest.group(1)):
        end = rest.end()
    broken = _BROKEN_AT_LINE_END.match(text, end) if rest is None and end and text[end - 1].isalpha() else None
    if broken is not None and not taken[broken.start(1)] and _rest_of_broken_word(text, end, broken.group(1)):
        return broken.end()  # the word's rest is on the next line: the name goes no further
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
            closes_slot = _CLOSES_SLOT.match(text, word.end(), limit) is not None
            if not judge.is_given_name_after_comma(token, closes_slot=closes_slot):
                break  # "Smith, who ..." is no "Last, First"
            end = word.end()
            break
        if judge.is_initial(token):
            # A middle initial only when a name word follows it ("John K. Smith", not "Smith A. fib").
            dot = word.end() + (text[word.end() : word.end() + 1] == ".")
            after = _GAP_AFTER.match(text, dot, limit)
            following = _WORD.match(text, after.end(), limit) if after else None
            if following is None or not judge.is_name(following.group()) or added + 2 > MAX_WORDS_PER_SIDE:
                if added == 0 and dot > word.end() and _trailing_initial(token, following):
                    end = dot  # "Couviolard T. are his proxy": the name's closing initial, with its stop
                break
            end = following.end()
            added += 2
            continue
        last = _LAST_PART.search(text, max(0, end - _BEFORE_WINDOW), end)
        if last is not None and judge.is_particle(last.group(1)) and judge.follows_particle(token):
            end = word.end()  # a name does not end in a particle: "Sith-de Long", "Ana de Souza" after "Ana de"
            added += 1
            continue
        through = _particles_then_name(text, word.start(), limit, judge)
        if through is not None and not taken[through - 1]:
            end = through  # "Mac an Átha" after "Lydia Mac", "van der Berg" after "Anna"
            added += 1
            continue
        if first_name and added == 0:
            slot_end = word.start() + len(token.rstrip("'’"))  # a closing quote is no part of it
            # Bounded by the line's end: an unbounded match costs time in the rest of the note (regex module).
            closes = _CLOSES_SLOT.match(text, slot_end, limit)
            role_after = _ROLE_AFTER.match(text, slot_end, limit) is not None
            if closes and judge.fills_slot(token[: slot_end - word.start()], role_after=role_after):
                end = slot_end  # "Nicholas House (son)": the surname that closes the slot
                break
        last = _WORD_BEFORE.search(text, max(0, end - _BEFORE_WINDOW), end)
        together = last is not None and judge.written_together(last.group(), token)
        if not together and (not judge.is_name(token) or _FIELD_LABEL_AFTER.match(text, word.end(), limit)):
            break  # not a name word, or the label of the next field ("Smith MRN: ...")
        end = word.end()
        added += 1
    return end


def _rest_of_broken_word(text: str, end: int, piece: str) -> bool:
    """Whether the small letters that open the line after a name and a hyphen may be the rest of its broken word:
    the whole word a listed name ("Ander-\nson"), or the piece no word of grammar, kinship, role, note or clinic
    ("Mr. Quorvane-\nneuro intact" is a heading after the name) and no common word ("Quor-\nvane", not
    "Quorvane-\nresting")."""
    lower = piece.lower()
    before = _LAST_LETTERS.search(text, max(0, end - 30), end)
    if before is not None and f"{before.group()}{piece}".lower() in known_names():
        return True
    return lower not in NON_NAMES and lower not in clinical_terms() and zipf_lowered(lower) < 3.5


def _trailing_initial(initial: str, following: regex.Match[str] | None) -> bool:
    """Whether a capital with its full stop right after a name closes it ("Smith T. visited"): not a side (L., R.),
    and not the letter of a shorthand or an organism that the next word completes ("Smith A. fib", "E. coli")."""
    if initial.upper() in "LR":
        return False
    return following is None or not completes_a_letter(following.group().lower())


def _extend_left(
    text: str,
    start: int,
    judge: _Judge,
    single: bool,
    taken: bytearray,
    *,
    lone: bool = False,
    span_end: int = 0,
    limit: int = 0,
) -> int:
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
        following = _WORD.match(text, start)
        if following is not None and judge.written_together(token, following.group()):
            start = window_start + word.start()  # the name is written whole elsewhere in the note
            added += 1
            continue
        if not judge.is_name(token):
            at = window_start + word.start()
            opens = _OPENS_SLOT.search(text, max(0, at - 4), at) if lone and added == 0 else None
            closes = opens is not None and _CLOSES_SLOT.match(text, span_end, limit) is not None
            if closes and _key(token) in load_lexicon("first_names") and judge.fills_slot(token, role_after=True):
                start = window_start + word.start()  # "Patient: MARK BODEK": the first name that opens the slot
            break
        start = window_start + word.start()
        added += 1
    start = _particles_before(text, start, judge, taken)
    initial = _OPENING_INITIAL.search(text, max(0, start - 8), start)
    at = -1 if initial is None else initial.start()
    # in a mixed-case note a lower-case letter is a list's ("a. Quorvane to call")
    if at >= 0 and not taken[at] and (judge.mode != "mixed" or text[at].isupper()):
        start = at
    return start


def _particles_before(text: str, start: int, judge: _Judge, taken: bytearray) -> int:
    """``start`` moved over the surname particles right before it ("de la" of "de la Aguilera")."""
    for _ in range(_MAX_PARTICLES):
        gap = start - 1
        if gap < 1 or text[gap] not in " \t\u00a0":
            break
        head = gap
        while head > 0 and text[head - 1].isalpha():
            head -= 1
        glued = head > 0 and not text[head - 1].isspace() and text[head - 1] not in _OPENING
        if head == gap or glued or taken[head] or not judge.is_particle(text[head:gap], _PARTICLES_BEFORE):
            break
        start = head
    return start


@dataclass(frozen=True)
class NameCompletion:
    """Pipeline stage: :func:`complete_names` with the model's clinical vocabulary (hashes of lower-cased words)."""

    clinical_words: frozenset[str] = frozenset()
    name: str = "name_completion"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        # Quoted names no detector found are kept names too (deident.stage2.quoted_names), then completed as any.
        return complete_names(document, quoted_names(document, spans, self.clinical_words), self.clinical_words)


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
    pairs = frozenset(
        (_key(first), _key(second))
        for name in names
        for words in [_WORD.findall(name.text_of(text))]
        for first, second in pairwise(words)
    )
    out: list[Span] = []
    for span in spans:
        if span.category is not Category.NAME:
            out.append(span)
            continue
        judge = _Judge(text, span, clinical_words, pairs)
        if not judge.shapes:
            out.append(span)
            continue
        single = sum(w.lower() not in PARTICLES for w in _WORD.findall(span.text_of(text))) == 1
        line_end = text.find("\n", span.end)
        words = _WORD.findall(span.text_of(text))
        first_name = single and len(words) == 1 and judge.is_first_name(words[0])
        limit = len(text) if line_end < 0 else line_end
        end = _extend_right(text, span.end, limit, judge, single, taken, first_name=first_name)
        start = _extend_left(
            text, span.start, judge, single, taken, lone=len(words) == 1, span_end=span.end, limit=limit
        )
        if (start, end) == (span.start, span.end):
            out.append(span)
        else:
            taken[start:end] = b"\x01" * (end - start)  # a word joins one name only
            out.append(span.moved(start, end).with_evidence(f"{COMPLETED} adjacent name words"))
    partners: list[Span] = []
    for span in out:
        if span.category is not Category.NAME:
            continue
        judge = _Judge(text, span, clinical_words, pairs)
        if not judge.shapes:
            continue
        line_end = text.find("\n", span.end)
        limit = len(text) if line_end < 0 else line_end
        for start, end in coordinated_names(text, span.start, span.end, limit, judge, taken):
            taken[start:end] = b"\x01" * (end - start)
            partners.append(span.moved(start, end).with_evidence(f"{COMPLETED} a name listed with a kept name"))
    return tuple(out) + tuple(partners) if partners else tuple(out)


# What joins the names of a list: "Wood and Chance", "s. kelbur & p. marnow", "Mass, Fine and Quorvane". A comma joins
# names only in a list that an "and" closes ("Smith, Cardiology" is no list).
_JOINER_AFTER = regex.compile(r"(?:(?P<c>,)[ \t\u00a0]{1,2}|[ \t\u00a0]{1,2})(?:(?P<a>(?i:and)|&)[ \t\u00a0]{1,2})?")
_JOINER_BEFORE = regex.compile(
    r"(?:(?P<c>,)[ \t\u00a0]{1,2}|[ \t\u00a0]{1,2}(?P<a>(?i:and)|&)[ \t\u00a0]{1,2}|"
    r"(?P<c2>,)[ \t\u00a0]{1,2}(?P<a2>(?i:and)|&)[ \t\u00a0]{1,2})$"
)
_MAX_LISTED = 4  # names on each side of a kept one
# A plural title right before the list's first name: every name of it is a clinician's ("Drs Wood and Chance").
_PLURAL_TITLE_BEFORE = regex.compile(r"(?<![\p{L}])(?i:drs|doctors|messrs|mmes)\.?[ \t\u00a0]{1,2}$")


def coordinated_names(
    text: str, start: int, end: int, limit: int, judge: _Judge, taken: bytearray
) -> list[tuple[int, int]]:
    """(start, end) of the names listed with the kept name ``text[start:end]`` on its line: "nosarkett and
    sustenek", "Drs Wood and Chance" (where "Wood" is kept), "Mass, Fine and Quorvane". Names of one list are people
    of one kind (coordination), so each name word beside an "and", or between the commas of a list that an "and"
    closes, is a name where :meth:`_Judge.is_name` takes it (an initial may open it: "s. kelbur and p. marnow"); a
    kinship or role word, a clinical word or a common word ends the list ("Dr. Smith and team", "Kelbur and PT")."""
    titled = _PLURAL_TITLE_BEFORE.search(text, max(0, start - 12), start) is not None
    right: list[tuple[int, int]] = []
    closed = False
    position = end
    for _ in range(_MAX_LISTED):
        joiner = _JOINER_AFTER.match(text, position, limit)
        if joiner is None or not (joiner["a"] or joiner["c"]):
            break
        partner = _listed_name_after(text, joiner.end(), limit, judge, taken, titled)
        if partner is None or _eponym(text, start, end, *partner):
            break
        right.append(partner)
        position = partner[1]
        if joiner["a"]:
            closed = True
            break
    if not closed:
        right = []
    left: list[tuple[int, int]] = []
    left_closed = False
    position = _before_initial(text, start, judge)  # "p." of "s. kelbur and p. marnow"
    for _ in range(_MAX_LISTED):
        window_start = max(0, position - _BEFORE_WINDOW)
        joiner = _JOINER_BEFORE.search(text, window_start, position)
        if joiner is None:
            break
        joined_by_and = bool(joiner["a"] or joiner["a2"])
        if joined_by_and and left:
            break  # an "and" further out closes another list
        partner = _listed_name_before(text, joiner.start(), judge, taken, titled)
        if partner is None or _eponym(text, start, end, *partner):
            break
        left.append(partner)
        left_closed = left_closed or joined_by_and
        position = partner[0]
    if not (left_closed or closed):
        left = []
    return right + left


def _eponym(text: str, start: int, end: int, partner_start: int, partner_end: int) -> bool:
    """Whether a kept name and a name listed with it are an eponym's: before a grade or sign as the veto reads them
    ("Hunt and Hess grade 3"), or a pair of :data:`EPONYM_NAME_PAIRS` ("hx Hunt and Hess.")."""
    first, last = min(start, partner_start), max(end, partner_end)
    if in_eponym_pair(text, first, last):
        return True
    words = [_key(w) for w in _WORD.findall(text[first:last]) if _key(w) != "and"]  # "&" is no _WORD
    return len(words) >= 2 and (
        (words[0], words[-1]) in EPONYM_NAME_PAIRS or (words[-1], words[0]) in EPONYM_NAME_PAIRS
    )


def _listed_word(word: str, judge: _Judge, titled: bool = False) -> bool:
    """A name word of a list: one :meth:`_Judge.is_name` takes (``titled``: as after a title, where a plural title
    opens the list: "Drs Wood and Chance"); in a note of one case, where case is no evidence, of four letters at
    least unless a listed name ("SAH, KELBUR AND ZHARNOW": an abbreviation opens the list)."""
    if not judge.is_name(word, strong=titled):
        return False
    return judge.mode == "mixed" or len(_key(word)) >= 4 or _key(word) in known_names()


def _listed_name_after(
    text: str, at: int, limit: int, judge: _Judge, taken: bytearray, titled: bool = False
) -> tuple[int, int] | None:
    """The name at ``at`` (an initial, then up to two name words), or None."""
    position = at
    word = _WORD.match(text, position, limit)
    if word is not None and judge.is_initial(word.group()):
        dot = word.end() + (text[word.end() : word.end() + 1] == ".")
        gap = _GAP_AFTER.match(text, dot, limit)
        word = _WORD.match(text, gap.end(), limit) if gap else None
    end = None
    for _ in range(MAX_WORDS_PER_SIDE):
        if word is None or taken[word.start()] or not _listed_word(word.group(), judge, titled):
            break
        if _FIELD_LABEL_AFTER.match(text, word.end(), limit):
            break
        end = word.end()
        gap = _GAP_AFTER.match(text, end, limit)
        word = _WORD.match(text, gap.end(), limit) if gap else None
    return None if end is None else (at, end)


def _listed_name_before(
    text: str, end: int, judge: _Judge, taken: bytearray, titled: bool = False
) -> tuple[int, int] | None:
    """The name that ends at ``end`` (up to two name words, then an initial before them), or None."""
    start = None
    position = end
    for _ in range(MAX_WORDS_PER_SIDE):
        word = _WORD_BEFORE.search(text, max(0, position - _BEFORE_WINDOW), position)
        if word is None or taken[word.start()] or not _listed_word(word.group(), judge, titled):
            break
        before = text[word.start() - 1] if word.start() else " "
        if not before.isspace() and before not in _OPENING:
            break  # glued to what precedes it ("x/Smith")
        start = word.start()
        if not before.isspace():
            break
        gap = _GAP_BEFORE.search(text, max(0, start - 3), start)
        if gap is None:
            break
        position = gap.start()
    if start is None:
        return None
    return _before_initial(text, start, judge), end


_INITIAL_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(\p{L})\.?[ \t\u00a0]{1,2}$")


def _before_initial(text: str, start: int, judge: _Judge) -> int:
    """``start`` moved over an initial right before it ("s. " of "s. kelbur")."""
    initial = _INITIAL_BEFORE.search(text, max(0, start - 5), start)
    return initial.start() if initial is not None and judge.is_initial(initial.group(1)) else start
