"""Speed hints: those derived from the regexes equal what the rules declared by hand before (a snapshot of the
declarations, ``declared_hints.json``), hand-set hints are kept only where the derivation cannot give them, and
the derivations refuse what they cannot prove."""

from __future__ import annotations

import json
import re
from pathlib import Path
from re import _parser  # type: ignore[attr-defined]

import pytest
import regex

from deident.core.labels import Label
from deident.detect.patterns.hints import (
    derive_anchors,
    derive_follows,
    derive_required_char,
    derived_hints,
    scan_hints,
)
from deident.detect.patterns.rules import Pattern, ScanHints

from .helpers import all_patterns

# Every rule's hints as the rules declared them before the hints got their own record (run_check by name).
DECLARED = json.loads((Path(__file__).parent / "declared_hints.json").read_text())
# Where the planner now uses more than was declared: a derived required character of a rule scanned in full, and
# whole state names and "zip code" / "postal code" as anchors instead of their first words (the derivation spells
# the trigger out; either way every match is found, see test_plan.py).
NEW_REQUIRED_CHARS = {"url.domain": ".", "name.initial_surname": "."}
PHRASE_ANCHORS = {"location.state_name", "location.zip_trigger"}


def _as_declared(hints: ScanHints) -> dict[str, object]:
    """``hints`` in the snapshot's form: only the hints that are set, tuples as lists, anchors as a sorted set."""
    out: dict[str, object] = {}
    for name in ScanHints.__dataclass_fields__:
        value = getattr(hints, name)
        if not value:
            continue
        if name == "anchors":
            value = sorted(set(value))
        elif name == "run_check":
            value = value.__name__
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def _declared(name: str) -> dict[str, object]:
    """The snapshot of one rule, with ``run_followers`` read as the planner read it: as the ``run_next`` regex that
    it stood for where the rule gave none (it was ignored where the rule gave one)."""
    declared = dict(DECLARED[name])
    followers = declared.pop("run_followers", None)
    if isinstance(followers, str) and "run_next" not in declared:
        declared["run_next"] = "[" + regex.escape("".join(sorted(set(followers)))) + r"]|\Z"
    return declared


def test_the_snapshot_covers_every_rule() -> None:
    assert sorted(DECLARED) == sorted(p.name for p in all_patterns())


@pytest.mark.parametrize("pattern", all_patterns(), ids=lambda p: p.name)
def test_hints_used_equal_those_declared_before(pattern: Pattern) -> None:
    used, declared = _as_declared(scan_hints(pattern)), _declared(pattern.name)
    if pattern.name in NEW_REQUIRED_CHARS:
        assert used.pop("required_char") == NEW_REQUIRED_CHARS[pattern.name]
    if pattern.name in PHRASE_ANCHORS:
        phrases, words = used.pop("anchors"), declared.pop("anchors")
        assert isinstance(phrases, list) and isinstance(words, list)
        assert {phrase.split()[0] for phrase in phrases} == set(words)
    assert used == declared


@pytest.mark.parametrize("pattern", all_patterns(), ids=lambda p: p.name)
def test_hand_set_hints_are_those_that_cannot_be_derived(pattern: Pattern) -> None:
    derived = derived_hints(pattern.source, pattern.ignore_case)
    if pattern.hints.anchors is not None:
        assert set(pattern.hints.anchors) != set(derived.anchors or ()), "derivable: leave anchors to the regex"
    assert pattern.hints.required_char is None, "a required character is always derived"


def _anchors(source: str, ignore_case: bool = True) -> tuple[str, ...]:
    return derive_anchors(tuple(_parser.parse(source, re.IGNORECASE if ignore_case else 0)))


@pytest.mark.parametrize(
    ("source", "anchors"),
    [
        (r"\b(?:dr|doctor)\.?[ \t]{1,2}(?P<n>[A-Z]\w{1,20})", ("doctor", "dr")),
        (r"\bms\.?[ \t]{1,2}[a-z]", ("ms",)),
        (r"\b(?:cell[ \t]{1,3}phone|mobile)[ \t]{0,2}:", ("cell phone", "mobile")),  # a phrase, with one blank
        (r"\b(?:cell[ \t]{1,3}phone|cell)[ \t]{0,2}:", ("cell",)),  # the parser's common prefix: a word end follows
        (r"\b(?:monday|friday)(?:'?s)?\b", ("friday", "fridays", "monday", "mondays")),  # "s" may follow: spelled
        (r"\bjan(?:uary)?[ \t]\d", ("jan", "january")),
        (r"\bRoom[ \t]\d", ("room",)),  # lower-cased
        (r"\b(?:s/p|status[ \t]{1,3}post)[ \t]{0,2}\d", ("s/p", "status post")),
        (r"\bphone[ \t]{0,2}(?:is[ \t])?\d{3}", ()),  # "phoneis 555" matches: the word need not end
        (r"\bbox", ()),  # the match may end inside a word ("boxes")
        (r"dr\.[ \t][A-Z]", ()),  # no \b: the match need not begin a word
        (r"\b[a-z]{2}[ \t]\d", ()),  # no literal
        (r"\b(?:dr|mr)[A-Za-z]", ()),  # a letter may follow
        (r"\b#\d", ()),  # after \b a non-word character: the anchor would begin no word
        (r"\b(?:cell[ \t]{1,5}phone|mobile):", ("cell", "mobile")),  # more blanks than the scan spells: a word end
        (r"\bbox(?!\w)", ("box",)),  # a lookahead that no word character may follow ends the word
        (r"\bbox(?!x)", ()),
    ],
)
def test_anchors_derived_from_the_regex(source: str, anchors: tuple[str, ...]) -> None:
    assert _anchors(source) == anchors


@pytest.mark.parametrize(
    ("source", "char"),
    [
        (r"@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}\.){1,6}[A-Za-z]{2,24}\b", "@"),
        (r"(?<![\w+])\+(?:[1-9]\d{0,2})", "+"),  # a lookbehind matches no text
        (r"(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}", ":"),  # inside a group repeated at least twice
        (r"(?:[0-9a-f]{0,4}:){0,7}x", ""),  # a group that may be skipped requires nothing
        (r"(?:a|,)b", ""),  # an alternation requires nothing
        (r"(?=#)\w", ""),  # a lookahead matches no text
        (r"abc", ""),  # letters (case folding makes them several characters)
    ],
)
def test_required_char_derived_from_the_regex(source: str, char: str) -> None:
    assert derive_required_char(tuple(_parser.parse(source, re.IGNORECASE))) == char


_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LETTERS = _UPPER | {c.lower() for c in _UPPER}


@pytest.mark.parametrize(
    ("source", "ignore_case", "anchor", "follow"),
    [
        # What comes after the anchor and its blanks
        (r"\bpt[ \t]{0,2}:[ \t]{1,3}(?P<s>[A-Za-z]+)", True, "pt", {":"}),
        (r"\b(?:pt|patient|name)[ \t]{0,2}\((?P<n>[A-Za-z]+)\)", True, "patient", {"("}),
        (r"\b(?:[Pp]t|PT)[ \t]{1,2}(?P<n>[A-Z][a-z]+)", False, "pt", _UPPER),  # case-sensitive: capitals only
        (r"\b(?:[Pp]t|PT)[ \t]{1,2}(?P<n>[A-Z][a-z]+)", True, "pt", _LETTERS),  # case-blind: both cases
        (r"\b(?i:to|at)[ \t]{1,2}(?:the[ \t]{1,2})?(?P<s>[A-Z][a-z]+)", False, "to", _UPPER | {"t"}),
        (r"\b(?i:to)[ \t]{1,2}(?-i:[A-Z])", True, "to", _UPPER),  # a scoped flag inside a case-blind rule
        (r"\bis[ \t]{1,2}an?[ \t]{1,2}\d{1,3}", True, "is", {"a", "A"}),
        (r"\bage[ \t]{0,2}\d", True, "age", set("0123456789")),
        (r"\bin[ \t]{1,2}from[ \t]{1,2}[A-Z]", False, "in from", _UPPER),  # a phrase: after its last word
        (r"\bdr\.?[ \t]{0,2}(?:[A-Z]\.)?[A-Z]", False, "dr", {"."} | _UPPER),  # optional parts: either first
        (r"(?<=\()(?:patient|pt)(?=\))", True, "pt", {")"}),  # a lookahead's first character when nothing follows
        (r"\bpt'?s[ \t]name", True, "pt", {"'", "s", "S"}),  # where a word end was derived inside the word
        (r"(?<=[.!][ \t]{0,3}\w+[ \t])(?:was|and[ \t]{1,2}(?:son|wife))", True, "and", {"s", "S", "w", "W"}),
        (r"\bst[ \t]{1,2}\u017f", True, "st", {"\u017f", "S", "s"}),  # a non-ASCII character folds to ASCII
        # Nothing shown: the match may end, or go on with a newline, a class of blanks and more, or any character
        (r"(?<=\w[ \t])(?:was|and[ \t]{1,2}wife)(?![\w'])", True, "was", None),
        (r"\bpt(?:[ \t]|$)", True, "pt", None),
        (r"\bpt\s+[A-Z]", False, "pt", None),
        (r"\bpt[ \t\n]+[A-Z]", False, "pt", None),
        (r"\bpt[ \t]*.", True, "pt", None),
        (r"\bpt[ \t]*[^a-z]", True, "pt", None),
        (r"\bpt[ \t]*(?:x|\w)", True, "pt", None),
        (r"\bmr\.?", True, "mrs", None),  # no way through the regex spells the anchor
        (r"(?r)\bpt[ \t][A-Z]", False, "pt", None),  # regex-only syntax
    ],
)
def test_follow_derived_from_the_regex(
    source: str, ignore_case: bool, anchor: str, follow: set[str] | frozenset[str] | None
) -> None:
    assert derive_follows(source, ignore_case, (anchor,)) == (None if follow is None else frozenset(follow),)


def test_regex_only_syntax_derives_nothing() -> None:
    assert derived_hints(r"(?r)\bdr\.", True) == ScanHints(anchors=(), required_char="")


def test_rules_placed_by_hand_get_no_derived_hints() -> None:
    """Anchors would override a hand-set placement, and a required character is only looked at in a full scan."""
    decade = Pattern("test.decade", Label.DATE, r"\b(?:19|20)\d0s")
    assert scan_hints(decade).anchors == ("19", "20")
    placed = Pattern(decade.name, decade.label, decade.source, hints=ScanHints(digit_run=(4, 4)))
    assert scan_hints(placed).anchors == () and scan_hints(placed).required_char == ""
    written = Pattern(decade.name, decade.label, r"#\d", hints=ScanHints(required_char=""))
    assert scan_hints(written).required_char == ""
    assert scan_hints(Pattern(decade.name, decade.label, r"#\d")).required_char == "#"
