"""The scan planner: from a table of rules and their speed hints, one plan that finds every rule's matches in a
text with one Aho-Corasick scan (anchored rules), one digit-run scan (digit-led rules and those started at digit
runs) and a regex scan for the rest; :func:`find_all` runs it and gives exactly what a full regex scan of each
rule gives (the equality tests in tests/detect/patterns/test_plan.py hold every fast path to that).
"""

from __future__ import annotations

import itertools
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple, TypeVar

import ahocorasick
import regex

from deident.detect.patterns.hints import WORD_END, derive_follows, scan_hints
from deident.detect.patterns.rules import Hit, Pattern, compile_source, validated

_SAME_ESCAPES = frozenset("dDwWbBAZntrfvx0")
_LETTER_ESCAPE = re.compile(r"\\([A-Za-z])")


def same_in_re(source: str) -> bool:
    """Whether ``source`` (case-sensitive) finds the same matches in ASCII text with the standard library's ``re``
    as with ``regex``: it compiles in ``re`` without warnings (``regex``-only constructs such as ``\\p{..}``,
    variable-width lookbehinds or nested sets fail or warn there) and escapes no letter but those that mean the
    same in both."""
    if any(escape not in _SAME_ESCAPES for escape in _LETTER_ESCAPE.findall(source.replace("\\\\", ""))):
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            re.compile(source)
    except (re.error, Warning):
        return False
    return True


def gate_regex(pattern: Pattern) -> re.Pattern[str]:
    """A rule's ``lower_gate``, compiled with the standard library's ``re``: it searches a text for such a simple
    regex several times faster than ``regex``. A gate that ``re`` could read otherwise (:func:`same_in_re`) is
    rejected."""
    gate = pattern.hints.lower_gate
    if not same_in_re(gate):
        raise ValueError(f"{pattern.name}: lower_gate must read the same in re and regex (no \\s, \\p, ...)")
    return re.compile(gate)


def last_line_start(text: str) -> int:
    """Offset of the newline that begins the last non-blank line of ``text`` (-1: none)."""
    return text.rfind("\n", 0, len(text.rstrip()))


def find_hits(pattern: Pattern, text: str) -> list[Hit]:
    """All validated hits of one pattern in ``text``, by a full regex scan that tries every start position
    (overlapped: a match may begin inside the previous one), the reference for the anchored fast path."""
    hits: list[Hit] = []
    for match in pattern.compiled.finditer(text, overlapped=True):
        hits.extend(validated(pattern, text, match))
    return hits


@dataclass(frozen=True)
class ScanPlan:
    """Which rules are tried how (anchored, digit-led, scanned), with everything compiled and the memos of the
    digit-run dispatch; built once per table of rules (:func:`build_plan`)."""

    scanned: tuple[Pattern, ...]
    anchored: tuple[Pattern, ...]
    automaton: ahocorasick.Automaton | None
    scanned_regexes: tuple[regex.Pattern[str], ...] = ()
    # scanned_gates[i]: the compiled ``lower_gate`` of scanned[i] (None: none), see :func:`gate_regex`.
    scanned_gates: tuple[re.Pattern[str] | None, ...] = ()
    # scanned_required[i]: the (given or derived) ``required_char`` of scanned[i] ("": none).
    scanned_required: tuple[str, ...] = ()
    digit_led: tuple[Pattern, ...] = ()
    digit_led_regexes: tuple[regex.Pattern[str], ...] = ()
    digit_led_checks: tuple[Callable[[str, int, int], bool] | None, ...] = ()
    # by_run_length[n]: indices into digit_led of the rules a digit run of length n may start.
    by_run_length: tuple[tuple[int, ...], ...] = ()
    # Lower-cased text is translated with this table before the Aho-Corasick scan (see _delimiter_table).
    delimiter_table: dict[int, str] | None = field(default=None, compare=False)
    # The same mapping as a bytes table, for ASCII text (most notes): bytes.translate is several times faster.
    delimiter_bytes: bytes = b""
    # Finds the maximal digit runs no longer than the longest ``digit_run`` (the rules to try are picked after).
    digit_runs: regex.Pattern[str] | None = None
    # The distinct compiled ``run_next`` regexes, and next_of[i]: the position of digit_led[i]'s among them (-1:
    # anything may follow).
    next_regexes: tuple[regex.Pattern[str], ...] = ()
    next_of: tuple[int, ...] = ()
    # prev_of[i]: digit_led[i]'s compiled ``run_prev`` (None: any character may precede the run).
    prev_of: tuple[regex.Pattern[str] | None, ...] = ()
    # Memos: (run length, the character before the run, the text after it as written) -> the rules worth trying
    # there; and the shape of that text (digits as 0) -> the positions in next_regexes that it fits (shared by every
    # run length).
    to_try: dict[tuple[int, str, str], tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    # Behind it, the same keyed with the shape of the text after the run (digits as 0), which many windows share.
    to_try_by_shape: dict[tuple[int, str, str], tuple[int, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # Sets of digit_led positions as bit masks (bit i: digit_led[i]): the rules that anything may follow, and per
    # position in next_regexes the rules with that ``run_next``.
    no_next_mask: int = 0
    next_masks: tuple[int, ...] = ()
    # (run length, the character before the run) -> the mask of the rules that such a run may start (its length and
    # ``run_prev`` allow them; see :func:`_run_candidates`).
    candidates: dict[tuple[int, str], int] = field(default_factory=dict, compare=False, repr=False)
    # The shape of the text after a run (or a prefix of it) -> the mask of the rules whose ``run_next`` it fits.
    shape_masks: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    # A mask -> its rules' positions, in increasing order.
    mask_positions: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    # The character before a run -> the positions in digit_led of the rules whose ``run_prev`` it does not fit.
    barred_by_prev: dict[str, frozenset[int]] = field(default_factory=dict, compare=False, repr=False)
    fits_by_shape: dict[str, frozenset[int]] = field(default_factory=dict, compare=False, repr=False)
    # Every ``run_starts`` text of the scanned rules.
    run_start_texts: frozenset[str] = frozenset()
    # The fewest digits that a ``run_tail`` rule's run may have (0: no such rule, or no digit-run scan).
    shortest_tail_run: int = 0


_GAPS = tuple("".join(g) for n in (1, 2, 3) for g in itertools.product(" \t", repeat=n))


# The scanned text has a blank for every tab (_scan_character), so the plan keys each anchor with runs of blanks
# only: the spellings with tabs would all become these keys (a five-word anchor has 38,416 spellings with tabs, 81
# without; keying the tabs' too took half of every load).
_SCANNED_GAPS = (" ", "  ", "   ")


def _spellings(anchor: str, gaps: tuple[str, ...] = _GAPS) -> list[str]:
    """A phrase anchor ("at bedside") with every gap between words that ``words`` lets its regex match (1-3 blanks
    or tabs), or only the ``gaps`` given."""
    spellings = [""]
    for i, word in enumerate(anchor.split(" ")):
        spellings = [s + gap + word for s in spellings for gap in (gaps if i else ("",))]
    return spellings


# Before the Aho-Corasick scan, the lower-cased text is translated so that a few characters stand for whole classes:
# each anchor is then keyed with a few characters before and after it instead of every word end (a far smaller
# automaton, built faster). Word-end characters that no anchor contains and that are no digits all become
# _OTHER_DELIMITER, the digits that no anchor contains _DIGIT_DELIMITER (a word end, but no word boundary before an
# anchor), the other characters that are neither letters, digits nor word ends and that no anchor contains
# _NOT_DELIMITER (the text's own _OTHER_DELIMITER among them), and non-ASCII letters and digits _OTHER_ALNUM.
_OTHER_DELIMITER = "\x00"
_DIGIT_DELIMITER = "\x01"
_OTHER_ALNUM = "\x02"
_NOT_DELIMITER = "_"
_CLASS_CHARACTERS = _OTHER_DELIMITER + _DIGIT_DELIMITER + _OTHER_ALNUM + _NOT_DELIMITER


def _scan_character(c: str, anchor_chars: set[str]) -> str:
    """What the ASCII character ``c`` becomes in the scanned text (see _OTHER_DELIMITER). A tab becomes a blank: in
    anchor spellings both only stand in the gaps between words, where every mix of them is spelled."""
    if c == "\t":
        return " "
    if c in anchor_chars or c == " ":
        return c
    if c.isalnum():
        return _DIGIT_DELIMITER if c in WORD_END else c
    return _OTHER_DELIMITER if c in WORD_END else _NOT_DELIMITER


class _ScanTable(dict[int, str]):
    """The translation table of the scanned text: the ASCII characters are listed; a non-ASCII character (in no
    anchor, which are ASCII, and no word end) becomes _OTHER_ALNUM when it is a letter or digit (it then ends no word
    and begins none), else _NOT_DELIMITER (it ends no word, but an anchor after it begins one)."""

    def __missing__(self, code: int) -> str:
        return _OTHER_ALNUM if chr(code).isalnum() else _NOT_DELIMITER


def _delimiter_table(anchor_chars: set[str]) -> tuple[_ScanTable, str, str]:
    """The translation table, the word-end characters that remain after it (what may follow an anchor) and the
    characters other than letters and digits that remain after it (what may precede an anchor that begins a word).

    Only characters that no anchor spelling contains are merged, so an anchor at a word boundary matches in the
    translated text exactly where it matches in the original (same offsets, same keys).
    """
    if not all(c.isascii() for c in anchor_chars):
        raise ValueError("anchors must be ASCII")
    if anchor_chars & set(_CLASS_CHARACTERS):
        raise ValueError(f"anchors must not contain any of {_CLASS_CHARACTERS!r}")
    table = _ScanTable({code: _scan_character(chr(code), anchor_chars) for code in range(128)})
    followers = "".join(sorted({table[ord(c)] for c in WORD_END}))
    preceders = "".join(sorted({table[code] for code in range(128) if not chr(code).isalnum()} | {_NOT_DELIMITER}))
    return table, followers, preceders


class _AnchorStep(NamedTuple):
    """One rule to try where an anchor key is found: its index in ``ScanPlan.anchored``, whether another key that
    can be found at the same start also leads to it (then a start must be remembered, so it is tried once), the
    rule and its compiled regex, and the ASCII characters that may come first after the anchor and its blanks in a
    match (:func:`~deident.detect.patterns.hints.derive_follows`; None: any)."""

    index: int  # type: ignore[assignment]  # a field may shadow tuple.index (steps are read by name or unpacked)
    may_repeat: bool
    pattern: Pattern
    compiled: regex.Pattern[str]
    follow: frozenset[str] | None


def _anchor_step(index: int, may_repeat: bool, pattern: Pattern, follow: frozenset[str] | None) -> _AnchorStep:
    return _AnchorStep(index, may_repeat, pattern, pattern.compiled, follow)


def _repeating(keys: dict[str, tuple[int, ...]]) -> set[tuple[str, int]]:
    """(key, rule index) pairs where another key that leads to the same rule can be found at the same start: two
    keys are only found at one start when one is a prefix of the other."""
    out: set[tuple[str, int]] = set()
    index_sets = {key: frozenset(indices) for key, indices in keys.items()}  # once per key, not once per prefix
    for key, indices in index_sets.items():
        for end in range(1, len(key)):
            shorter = index_sets.get(key[:end])
            if shorter:
                for index in indices & shorter:
                    out.update(((key, index), (key[:end], index)))
    return out


def build_plan(patterns: tuple[Pattern, ...]) -> ScanPlan:
    """The plan of a table of rules (remembered: the detectors share one plan per table).

    Remembered per table and validators: rules compare equal whatever their validator, and two tables that differ
    only there (phone numbers read in other regions) need plans of their own."""
    return _build_plan(patterns, tuple(p.validator for p in patterns))


@lru_cache(maxsize=64)
def _build_plan(patterns: tuple[Pattern, ...], validators: tuple[object, ...]) -> ScanPlan:
    del validators  # part of the cache key only
    hints = {p: scan_hints(p) for p in patterns}
    anchored = tuple(p for p in patterns if hints[p].anchors)
    automaton = None
    table = None
    if anchored:
        spelled: dict[str, set[int]] = {}
        # (spelling, rule index) -> what may follow the anchor in the rule's matches; None (any) wins a union.
        follows: dict[tuple[str, int], frozenset[str] | None] = {}
        for index, pattern in enumerate(anchored):
            anchors = tuple(anchor.lower() for anchor in hints[pattern].anchors or ())
            rule_follows = derive_follows(pattern.source, pattern.ignore_case, anchors)
            for anchor, follow in zip(anchors, rule_follows, strict=True):
                for spelling in _spellings(anchor, _SCANNED_GAPS):
                    spelled.setdefault(spelling, set()).add(index)
                    known = follows.get((spelling, index), frozenset())
                    follows[spelling, index] = None if known is None or follow is None else known | follow
        table, delimiters, preceders = _delimiter_table({c for spelling in spelled for c in spelling})
        # Each key with every pattern index it has, in increasing order (the order in which the patterns are tried
        # at a position).
        by_anchor = {key: sorted(indices) for key, indices in spelled.items()}
        # Keyed with the character after the word, so only whole-word occurrences are reported
        # (far fewer hits than every substring, e.g. "pa" in "patient").
        keys = {anchor + d: tuple(indices) for anchor, indices in by_anchor.items() for d in delimiters}
        repeating = _repeating(keys)
        automaton = ahocorasick.Automaton()
        # One step per (rule, may_repeat, follow), shared by the many keys (anchor spellings times delimiters) that
        # lead to it: building one per key cost ~0.1 s of every load.
        step_of = {
            (i, may_repeat, follow): _anchor_step(i, may_repeat, anchored[i], follow)
            for i, follow in {(i, f) for (_, i), f in follows.items()}
            for may_repeat in (False, True)
        }
        repeating_keys = {key for key, _ in repeating}
        for spelling, indices in by_anchor.items():
            followed = [(i, follows[spelling, i]) for i in indices]
            once = tuple(step_of[i, False, follow] for i, follow in followed)  # the steps of most keys
            for d in delimiters:
                key = spelling + d
                steps = (
                    tuple(step_of[i, (key, i) in repeating, follow] for i, follow in followed)
                    if key in repeating_keys
                    else once
                )
                value = (len(key) + 1, len(spelling), steps)
                # And with each character that may stand before a word: only anchors that begin a word are reported
                # (the scanned text starts with a blank, so an anchor that begins the text is reported too).
                for before in preceders:
                    automaton.add_word(before + key, value)
        automaton.make_automaton()
    digit_led = tuple(p for p in patterns if not hints[p].anchors and p.hints.digit_run is not None)
    for pattern in digit_led:
        _check_run_next(pattern)
    scanned = tuple(p for p in patterns if not hints[p].anchors and p.hints.digit_run is None)
    longest = max((p.hints.digit_run[1] for p in digit_led if p.hints.digit_run), default=0)
    tails = [p.hints.run_tail for p in scanned if p.hints.run_tail is not None]
    if digit_led:
        # The scan must report the runs that the run_tail rules may end (their runs are longer than any rule's).
        longest = max([longest, *(most for _, most in tails)])
    nexts = sorted({p.hints.run_next for p in digit_led} - {""})
    next_of = tuple(nexts.index(p.hints.run_next) if p.hints.run_next else -1 for p in digit_led)
    runs = [p.hints.digit_run or (0, -1) for p in digit_led]
    by_run_length = tuple(
        tuple(i for i, (shortest, most) in enumerate(runs) if shortest <= n <= most) for n in range(longest + 1)
    )
    return ScanPlan(
        scanned=scanned,
        anchored=anchored,
        automaton=automaton,
        scanned_regexes=tuple(p.compiled for p in scanned),
        scanned_gates=tuple(gate_regex(p) if p.hints.lower_gate else None for p in scanned),
        scanned_required=tuple(hints[p].required_char or "" for p in scanned),
        digit_led=digit_led,
        digit_led_regexes=tuple(p.compiled for p in digit_led),
        digit_led_checks=tuple(p.hints.run_check for p in digit_led),
        by_run_length=by_run_length,
        delimiter_table=table,
        delimiter_bytes=bytes(ord(table[i]) if i < 128 else i for i in range(256)) if table else b"",
        digit_runs=compile_source(rf"(?<!\d)\d{{1,{longest}}}(?!\d)", False) if digit_led else None,
        next_regexes=tuple(compile_source(n, False) for n in nexts),
        next_of=next_of,
        no_next_mask=sum(1 << i for i, j in enumerate(next_of) if j < 0),
        next_masks=tuple(sum(1 << i for i, j in enumerate(next_of) if j == k) for k in range(len(nexts))),
        prev_of=tuple(compile_source(p.hints.run_prev, p.ignore_case) if p.hints.run_prev else None for p in digit_led),
        run_start_texts=_run_start_texts(scanned, longest),
        shortest_tail_run=min((digits for digits, _ in tails), default=0) if digit_led else 0,
    )


def _run_start_texts(scanned: tuple[Pattern, ...], longest: int) -> frozenset[str]:
    """The ``run_starts`` of the scanned rules; empty (every rule is then scanned in full) where the digit-run scan
    cannot report them all (it finds runs of at most ``longest`` digits)."""
    texts = frozenset(t for p in scanned for t in p.hints.run_starts)
    for pattern in scanned:
        if not all(t.isdigit() for t in pattern.hints.run_starts):
            raise ValueError(f"{pattern.name}: run_starts must be digit runs")
    return texts if all(len(t) <= longest for t in texts) else frozenset()


def digit_run_matches(
    plan: ScanPlan,
    text: str,
    run_starts: list[tuple[int, str]] | None = None,
    tail_runs: list[tuple[int, int]] | None = None,
) -> Iterator[tuple[int, regex.Match[str]]]:
    """The matches of the digit-led rules (index into ``plan.digit_led``, match), tried only where they can start.

    Equivalent to a ``finditer`` scan per rule: runs are visited left to right, and a rule is not tried
    again before the end of its previous match (matches of one rule never overlap). The starts of the runs
    that ``plan.run_start_texts`` lists are appended to ``run_starts`` (with the run) when given, and the
    (start, end) of every run of at least ``plan.shortest_tail_run`` digits to ``tail_runs``.
    """
    if plan.digit_runs is None:
        return
    start_texts = plan.run_start_texts
    longest_start = max(map(len, start_texts), default=0)
    shortest_tail = plan.shortest_tail_run or len(text) + 1
    resume = [0] * len(plan.digit_led)
    regexes = plan.digit_led_regexes
    checks = plan.digit_led_checks
    memo = plan.to_try
    for run in plan.digit_runs.finditer(text):
        start, end = run.span()
        if end - start <= longest_start and run_starts is not None and text[start:end] in start_texts:
            run_starts.append((start, text[start:end]))
        if end - start >= shortest_tail and tail_runs is not None:
            tail_runs.append((start, end))
        # text[start - 1 : start] is "" at the start of the text (the slice [-1:0] is empty).
        key = (end - start, text[start - 1 : start], text[end : end + RUN_WINDOW])
        indices = memo.get(key)
        if indices is None:
            indices = _memo(memo, key, _rules_to_try(plan, key[0], key[2], key[1]))
        if not indices:
            continue  # most runs: no rule can start there
        for index in indices:
            if start < resume[index]:
                continue
            check = checks[index]
            if check is not None and not check(text, start, end):
                continue
            match = regexes[index].match(text, start)
            if match is not None:
                resume[index] = match.end() if match.end() > start else start + 1
                yield index, match


# How much of the text after a digit run decides which rules are tried there, and how many such decisions are
# remembered (a few thousand distinct ones cover most notes).
RUN_WINDOW = 4
MAX_MEMO = 1 << 16
# Windows are keyed with every digit written as 0 (more of them alike): ``run_next`` regexes must not tell
# digits apart, which build_plan checks.
_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")
_QUANTIFIER = regex.compile(r"\{\d*,?\d*\}")


# Constructs whose truth at the end of a window can be false in the whole text: a window would then drop a rule.
_WINDOW_UNSAFE = regex.compile(r"\\[bB]|\(\?<?[=!]")


def _check_run_next(pattern: Pattern) -> None:
    """Reject a ``run_next`` that a window of the text could judge wrongly (see :func:`_rules_to_try`)."""
    source = pattern.hints.run_next
    if any(c.isdigit() for c in _QUANTIFIER.sub("", source)):
        raise ValueError(f"{pattern.name}: run_next must match digits with \\d only (windows key digits as 0)")
    if _WINDOW_UNSAFE.search(source):
        raise ValueError(f"{pattern.name}: run_next must not use \\b, \\B or lookarounds")
    if _WINDOW_UNSAFE.search(pattern.hints.run_prev):
        raise ValueError(f"{pattern.name}: run_prev must not use \\b, \\B or lookarounds (it sees one character)")


K = TypeVar("K")
V = TypeVar("V")


def _memo(memo: dict[K, V], key: K, value: V) -> V:
    if len(memo) >= MAX_MEMO:
        memo.clear()  # bounded: unusual text cannot grow it without end
    memo[key] = value
    return value


def _rules_to_try(plan: ScanPlan, length: int, window: str, before: str = "") -> tuple[int, ...]:
    """The digit-led rules that may start at a run of ``length`` digits followed by ``window`` (the next
    RUN_WINDOW characters of the text, fewer at its end) and preceded by ``before`` (the one character before the
    run; "" at the start of the text): those whose ``run_next`` fits the window and whose ``run_prev`` fits
    ``before``, in the order of ``plan.digit_led``; remembered by the window's shape (digits as 0)."""
    shape = window.translate(_DIGITS_AS_ZERO)
    key = (length, before, shape)
    indices = plan.to_try_by_shape.get(key)
    if indices is None:
        mask = _settled_rules(plan, _run_candidates(plan, length, before), shape)
        indices = plan.mask_positions.get(mask)
        if indices is None:
            indices = _memo(plan.mask_positions, mask, tuple(i for i in range(mask.bit_length()) if mask >> i & 1))
        indices = _memo(plan.to_try_by_shape, key, indices)
    return indices


def _settled_rules(plan: ScanPlan, allowed: int, shape: str) -> int:
    """The mask of the rules among ``allowed`` that a run followed by text of this shape may start: those with no
    ``run_next``, and those whose ``run_next`` fits the shape. The regexes that fit a shape are among those that fit
    each of its prefixes (see :func:`_fits_of_shape`), so the shape is settled prefix by prefix, and its longer
    prefixes are not looked at past the shortest prefix that no open rule fits."""
    open_rules = allowed & ~plan.no_next_mask
    # The empty prefix fits every regex that a longer one fits: it decides nothing when the shape is longer.
    end = min(1, len(shape))
    while open_rules and end <= len(shape):
        open_rules &= _shape_mask(plan, shape[:end])
        end += 1
    return (allowed & plan.no_next_mask) | open_rules


def _shape_mask(plan: ScanPlan, shape: str) -> int:
    """The mask of the rules whose ``run_next`` fits text of this shape (:func:`_fits_of_shape`); remembered."""
    mask = plan.shape_masks.get(shape)
    if mask is None:
        mask = 0
        for position in _fits_of_shape(plan, shape):
            mask |= plan.next_masks[position]
        mask = _memo(plan.shape_masks, shape, mask)
    return mask


def _run_candidates(plan: ScanPlan, length: int, before: str) -> int:
    """The mask of the rules that a run of ``length`` digits after ``before`` may start, by its length and
    ``run_prev``; remembered."""
    key = (length, before)
    mask = plan.candidates.get(key)
    if mask is None:
        barred = _barred_by_prev(plan, before)
        mask = _memo(plan.candidates, key, sum(1 << i for i in plan.by_run_length[length] if i not in barred))
    return mask


def _barred_by_prev(plan: ScanPlan, before: str) -> frozenset[int]:
    """Positions in ``plan.digit_led`` of the rules whose ``run_prev`` the character ``before`` does not fit
    (none at the start of the text), remembered."""
    barred = plan.barred_by_prev.get(before)
    if barred is None:
        barred = frozenset(
            i for i, prev in enumerate(plan.prev_of) if before and prev is not None and prev.fullmatch(before) is None
        )
        barred = _memo(plan.barred_by_prev, before, barred)
    return barred


def _fits_of_shape(plan: ScanPlan, shape: str) -> frozenset[int]:
    """:func:`_fitting_nexts` of a window shape, remembered, and for a new shape worked out from its prefix's.

    A regex that (partially) matches a window also partially matches the window less its last character (the
    same match attempt runs out of text there): with no lookarounds and no ``\\b`` (checked by _check_run_next),
    only the prefix's fitting regexes can fit, and the many windows that share a prefix try far fewer regexes.
    """
    fits = plan.fits_by_shape.get(shape)
    if fits is None:
        candidates = _fits_of_shape(plan, shape[:-1]) if shape else range(len(plan.next_regexes))
        fits = _memo(plan.fits_by_shape, shape, _fitting_nexts(plan, shape, candidates))
    return fits


def _fitting_nexts(plan: ScanPlan, window: str, candidates: Iterable[int] | None = None) -> frozenset[int]:
    """Positions in ``plan.next_regexes`` (among ``candidates``; None: all) of the regexes that match ``window`` or
    some longer text that starts with it (a partial match), so that no rule that could match is left out; ``\\Z``
    at the end of a short window also matches, which only keeps more rules. They must not look behind their start
    (they only see the window).
    """
    regexes = plan.next_regexes
    indices = range(len(regexes)) if candidates is None else candidates
    return frozenset(i for i in indices if regexes[i].match(window, partial=True) is not None)


def _digit_run_hits(
    plan: ScanPlan,
    text: str,
    run_starts: list[tuple[int, str]] | None = None,
    tail_runs: list[tuple[int, int]] | None = None,
) -> list[tuple[Pattern, Hit]]:
    out: list[tuple[Pattern, Hit]] = []
    for index, match in digit_run_matches(plan, text, run_starts, tail_runs):
        pattern = plan.digit_led[index]
        for hit in validated(pattern, text, match):
            out.append((pattern, hit))
    return out


def merge_delimiters(plan: ScanPlan, lower: str) -> str:
    """``lower`` with the characters that no anchor contains merged into classes (see :func:`_delimiter_table`)."""
    if lower.isascii():
        return lower.encode("ascii").translate(plan.delimiter_bytes).decode("ascii")
    # The ASCII runs by the bytes table, the few non-ASCII ones by the table itself (a mapping char by char).
    pieces = _NON_ASCII_RUNS.split(lower)
    table = plan.delimiter_table or {}  # set on every plan with anchors, the only ones scanned
    for i in range(0, len(pieces), 2):
        pieces[i] = pieces[i].encode("ascii").translate(plan.delimiter_bytes).decode("ascii")
    for i in range(1, len(pieces), 2):
        pieces[i] = pieces[i].translate(table)
    return "".join(pieces)


_NON_ASCII_RUNS = re.compile(r"([^\x00-\x7f]+)")  # split() keeps them, at the odd positions


def anchor_starts(plan: ScanPlan, lower: str) -> Iterator[tuple[int, int, tuple[_AnchorStep, ...]]]:
    """(start, end, steps) for each anchor key found in ``lower`` (a lower-cased text of the same length as the
    text) where it begins a word (at the start of the text or after a character that is no letter or digit) and ends
    one (before a word-end character or at the end of the text), in the order of the ends of the keys; ``end`` is
    where the anchor's spelling ends."""
    if plan.automaton is None:
        return
    # A blank before the text lets an anchor that begins it be reported, one after it an anchor that ends it; the
    # keys begin with the character before the anchor, which the leading blank offsets.
    for last, (length, spelled, steps) in plan.automaton.iter(" " + merge_delimiters(plan, lower) + " "):
        start = last - length + 1
        yield start, start + spelled, steps


_VISIBLE = re.compile(r"[^ \t]")


def first_visible(text: str, end: int) -> str:
    """The first character of ``text`` from ``end`` on that is no blank or tab ("" where there is none)."""
    piece = text[end : end + 4].lstrip(" \t")  # most anchors: a blank or two, then the next word
    if piece:
        return piece[0]
    found = _VISIBLE.search(text, end + 4)
    return found.group() if found else ""


def _anchored_hits(plan: ScanPlan, text: str, lower: str | None = None) -> list[tuple[Pattern, Hit]]:
    """The hits of the anchored rules: each rule is tried wherever one of its anchors begins a word.

    This is what :func:`find_hits` gives (an overlapped scan): a rule's matches may overlap, so "Dr. A and
    Dr. B" gives both names even where the first match runs past the second "Dr.", and "saint patrick's day"
    also gives "patrick's day" (the contained hit is dropped when the family's spans are resolved). ``lower`` is
    ``text.lower()`` when the caller has it.
    """
    if lower is None:
        lower = text.lower()
    if len(lower) != len(text) or plan.automaton is None:  # case folding moved offsets: scan instead
        return [(p, h) for p in plan.anchored for h in find_hits(p, text)]
    out: list[tuple[Pattern, Hit]] = []
    tried: set[tuple[int, int]] = set()
    for start, end, steps in anchor_starts(plan, lower):
        after = None
        for index, may_repeat, pattern, compiled, follow in steps:
            if follow is not None:
                # A rule whose matches need another character next cannot match here (a non-ASCII one may fold).
                after = first_visible(text, end) if after is None else after
                if after not in follow and after.isascii():
                    continue
            if may_repeat:
                if (index, start) in tried:
                    continue
                tried.add((index, start))
            match = compiled.match(text, start)
            if match is not None:
                for hit in validated(pattern, text, match):
                    out.append((pattern, hit))
    return out


def started_matches(
    pattern: Pattern, compiled: regex.Pattern[str], text: str, run_starts: list[tuple[int, str]]
) -> Iterator[regex.Match[str]]:
    """What ``compiled.finditer(text)`` gives for a rule with ``run_starts`` or ``char_starts``, trying it only at
    the digit runs in ``run_starts`` ((start, run) of each run that ``plan.run_start_texts`` lists) that the rule
    lists and at its ``char_starts`` characters; a match is not tried before the end of the previous one."""
    starts = {start for start, run in run_starts if run in pattern.hints.run_starts}
    for char in pattern.hints.char_starts:
        position = text.find(char)
        while position >= 0:
            starts.add(position)
            position = text.find(char, position + 1)
    resume = 0
    for start in sorted(starts):
        if start < resume:
            continue
        match = compiled.match(text, start)
        if match is not None:
            resume = match.end() if match.end() > start else start + 1
            yield match


def tail_matches(
    pattern: Pattern, compiled: regex.Pattern[str], text: str, tail_runs: list[tuple[int, int]]
) -> Iterator[regex.Match[str]]:
    """What ``compiled.finditer(text)`` gives for a rule with ``run_tail`` (n, longest), trying it only at the last n
    digits of the runs in ``tail_runs`` ((start, end) of every run at least ``plan.shortest_tail_run`` long, in
    order) of n to ``longest`` digits. Each match lies in its own run, so matches never overlap."""
    if pattern.hints.run_tail is None:
        raise ValueError(f"{pattern.name}: no run_tail")
    digits, longest = pattern.hints.run_tail
    for start, end in tail_runs:
        if digits <= end - start <= longest:
            match = compiled.match(text, end - digits)
            if match is not None:
                yield match


def find_all(plan: ScanPlan, text: str) -> list[tuple[Pattern, Hit]]:
    """Every validated hit of the plan's rules in ``text``, as (rule, hit): what a full regex scan of each rule
    gives (an overlapped one for the anchored rules), found at the places their hints allow."""
    found: list[tuple[Pattern, Hit]] = []
    lower = text.lower()
    run_starts: list[tuple[int, str]] | None = [] if plan.run_start_texts and plan.digit_runs is not None else None
    tail_runs: list[tuple[int, int]] | None = [] if plan.shortest_tail_run else None
    digit_hits = _digit_run_hits(plan, text, run_starts, tail_runs)
    scanned = zip(plan.scanned, plan.scanned_regexes, plan.scanned_gates, plan.scanned_required, strict=True)
    for pattern, compiled, gate, required_char in scanned:
        hints = pattern.hints  # the hints below are never derived (see ScanPlan.scanned_required)
        if run_starts is not None and (hints.run_starts or hints.char_starts):
            for match in started_matches(pattern, compiled, text, run_starts):
                for hit in validated(pattern, text, match):
                    found.append((pattern, hit))
            continue
        if tail_runs is not None and hints.run_tail is not None:
            for match in tail_matches(pattern, compiled, text, tail_runs):
                for hit in validated(pattern, text, match):
                    found.append((pattern, hit))
            continue
        if hints.last_line:
            start = last_line_start(text)
            line_match = compiled.match(text, max(start, 0))  # a note of one line: its start
            if line_match is not None:
                for hit in validated(pattern, text, line_match):
                    found.append((pattern, hit))
            continue
        if required_char and required_char not in text:
            continue
        if gate is not None and text.isascii() and gate.search(lower) is None:
            continue
        for match in compiled.finditer(text):
            for hit in validated(pattern, text, match):
                found.append((pattern, hit))
    found.extend(digit_hits)
    found.extend(_anchored_hits(plan, text, lower))
    return found
