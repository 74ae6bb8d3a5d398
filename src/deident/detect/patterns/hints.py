"""Speed hints derived from a rule's regex: its anchors (the literal words every match starts with) and a
character every match contains, so that rule authors write them only where the regex cannot tell them.

The regex is read with the standard library's parser (``re._parser``), which reads the constructs that the
derivations look at (literals, groups, alternations, optional parts, blank runs, ``\\b``) as ``regex`` does; a
rule that it cannot read, or whose hints cannot be proven, gets none (it is then scanned in full, unless its
author sets them).
"""

from __future__ import annotations

import dataclasses
import re
import string
import warnings
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]  # private: no public API gives the opcodes
from re import _parser  # type: ignore[attr-defined]
from typing import Any

from deident.detect.patterns.rules import Pattern, ScanHints

# What ends a word for the anchor scan: an anchor is only found where one of these (or the end of the text) follows.
WORD_END = " \t\n\r\f\v.,;:!?-#'\"/()[]<>=+*&@%$^`{}|~\\0123456789"

# Past this many spellings a rule's anchors are not derived (an automaton that large costs more than it saves).
_MOST_ANCHORS = 2000

# A parsed item: an opcode and its argument, as ``re._parser`` gives them (untyped: the parser is private).
_Item = tuple[Any, Any]


class _Unprovable(Exception):
    """The derivation cannot show that a hint holds for every match."""


def scan_hints(pattern: Pattern) -> ScanHints:
    """The hints the planner uses for ``pattern``: those its author set, with the derivable ones left open
    (``None``) derived from its regex (``()`` / ``""`` where nothing can be derived)."""
    hints = pattern.hints
    if hints.anchors is not None and hints.required_char is not None:
        return hints
    # A rule placed by hand (at digit runs, starts, run tails or the last line) is tried there alone: derived
    # anchors would override that, and a required character is only looked at for the rules scanned in full.
    placed = hints.digit_run is not None or hints.run_starts or hints.char_starts or hints.run_tail or hints.last_line
    if placed:
        return dataclasses.replace(hints, anchors=hints.anchors or (), required_char=hints.required_char or "")
    derived = derived_hints(pattern.source, pattern.ignore_case)
    anchors = hints.anchors if hints.anchors is not None else derived.anchors
    required_char = hints.required_char if hints.required_char is not None else ""
    if hints.required_char is None and not anchors:  # scanned in full
        required_char = derived.required_char or ""
    return dataclasses.replace(hints, anchors=anchors, required_char=required_char)


@lru_cache(maxsize=1024)
def parsed_regex(source: str, ignore_case: bool) -> tuple[tuple[_Item, ...], bool] | None:
    """The regex's items as ``re._parser`` reads them and whether it is case-blind as a whole (its flag or a leading
    ``(?i)``); None for a ``regex``-only construct, which ``re`` fails on or reads otherwise. Read once per rule for
    every derivation."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "possible nested set": a ``regex`` construct that ``re`` reads otherwise
            parsed = _parser.parse(source, re.IGNORECASE if ignore_case else 0)
    except (re.error, Warning):
        return None
    return tuple(parsed), bool(parsed.state.flags & re.IGNORECASE)


@lru_cache(maxsize=1024)
def derived_hints(source: str, ignore_case: bool) -> ScanHints:
    """``anchors`` and ``required_char`` as far as they follow from the regex (empty where they do not)."""
    parsed = parsed_regex(source, ignore_case)
    if parsed is None:
        return ScanHints(anchors=(), required_char="")  # a ``regex``-only construct: nothing is derived
    items, _ = parsed
    return ScanHints(anchors=derive_anchors(items), required_char=derive_required_char(items))


def derive_anchors(items: tuple[_Item, ...]) -> tuple[str, ...]:
    """The lower-case spellings of the literal trigger that every match starts with, where the regex starts with
    ``\\b`` and literal words or phrases (alternatives spelled each, their blank runs as one blank, optional parts
    both ways) and each spelling is followed by a word end (a :data:`WORD_END` character or ``\\b``); else ().

    ``\\b`` and ``\\d`` count as word ends, as they did for the anchors written by hand, and so they share the
    known gaps of those: the anchor scan finds no anchor followed by a non-ASCII punctuation mark or digit or an ASCII
    control character, nor one spelled with a character that the case-insensitive regex matches as an ASCII letter
    but whose lower case is none ("ſ" for s).
    """
    if len(items) < 2 or items[0] != (sre.AT, sre.AT_BOUNDARY):
        return ()
    try:
        spellings = _expand(items[1:], "", 0)
    except _Unprovable:
        return ()
    # After ``\b`` a word character: the anchor begins a word, where the scan looks for it.
    return tuple(sorted(spellings)) if all(s[0].isalnum() for s in spellings) else ()


_LEAVE = ("leave", None)  # marks the end of an alternative (or optional part) inside the item list


def _expand(items: tuple[_Item, ...], spelled: str, depth: int) -> set[str]:
    """The spellings of the anchor that ``items`` continue after ``spelled``. ``depth`` counts the alternatives (and
    optional parts) that ``items`` are inside: there a blank run is spelled as a blank (a phrase of ``words``); outside
    them the spelling ends as soon as a word end follows."""
    if spelled and depth == 0 and _ends_word(items, spelled):
        return {spelled}
    if not items:
        raise _Unprovable("the match may end inside the anchor")
    (op, av), rest = items[0], items[1:]
    if op is _LEAVE[0]:
        return _expand(rest, spelled, depth - 1)
    if op is sre.LITERAL and isinstance(av, int) and chr(av).isascii():
        return _expand(rest, spelled + chr(av).lower(), depth)
    if op is sre.SUBPATTERN:
        return _expand((*_body(av), *rest), spelled, depth)
    if op is sre.BRANCH:
        found: set[str] = set()
        for alternative in av[1]:
            found |= _expand((*alternative, _LEAVE, *rest), spelled, depth + 1)
            if len(found) > _MOST_ANCHORS:
                raise _Unprovable("too many spellings")
        return found
    if op is sre.MAX_REPEAT and av[0] == 0 and av[1] == 1:
        body = tuple(av[2])
        skipped = _expand(rest, spelled, depth)
        if spelled and _ends_word(body, spelled):
            return {spelled} | skipped  # where the optional part is there, the word ends before it
        return _expand((*body, _LEAVE, *rest), spelled, depth + 1) | skipped
    if _is_blank_run(op, av) and depth > 0:
        return _expand(rest, spelled + " ", depth)
    if spelled and _ends_word(items, spelled):
        return {spelled}
    raise _Unprovable("no literal spelling")


def _body(av: Any) -> tuple[_Item, ...]:
    return tuple(av[-1])  # (group, add flags, del flags, pattern)


def _is_blank_run(op: Any, av: Any) -> bool:
    """``[ \\t]{m,n}`` with 1 <= m <= n <= 3 (the scan spells a blank as one to three blanks or tabs): what
    ``words`` writes between the words of a phrase."""
    if op is not sre.MAX_REPEAT or not 1 <= av[0] <= av[1] <= 3:
        return False
    body = list(av[2])
    return len(body) == 1 and body[0][0] is sre.IN and sorted(body[0][1]) == [(sre.LITERAL, 9), (sre.LITERAL, 32)]


def _ends_word(items: tuple[_Item, ...], spelled: str) -> bool:
    """Whether every match goes on after ``spelled`` with a :data:`WORD_END` character (or a word end)."""
    try:
        return _first_chars(items, spelled[-1:].isalnum()) <= set(WORD_END)
    except _Unprovable:
        return False


def _first_chars(items: tuple[_Item, ...], after_word: bool) -> set[str]:
    """The characters that the text matched by ``items`` may start with; where it ends a word (``\\b`` after a word
    character, or a lookahead that no word character may follow), a blank stands for what may come next."""
    if not items:
        raise _Unprovable("the match may end here")
    (op, av), rest = items[0], items[1:]
    if op is _LEAVE[0]:
        return _first_chars(rest, after_word)
    if op is sre.LITERAL and isinstance(av, int):
        return {chr(av), chr(av).upper(), chr(av).lower()}
    if op is sre.AT and av is sre.AT_BOUNDARY and after_word:
        return {" "}
    if op is sre.ASSERT_NOT and _no_word_char_follows(av):
        return {" "}
    if op is sre.IN:
        return _set_chars(av)
    if op is sre.SUBPATTERN:
        return _first_chars((*_body(av), *rest), after_word)
    if op is sre.BRANCH:
        alternatives = av[1]
        return set().union(*(_first_chars((*alternative, *rest), after_word) for alternative in alternatives))
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, _, body = av
        if low == 0:
            return _first_chars((*body, *rest), after_word) | _first_chars(rest, after_word)
        return _first_chars(tuple(body), after_word)
    if op in (sre.ASSERT, sre.ASSERT_NOT) and av[0] < 0:
        return _first_chars(rest, after_word)  # a lookbehind looks at what came before
    raise _Unprovable(f"cannot tell what {op} starts with")


def _no_word_char_follows(av: Any) -> bool:
    """Whether a negative lookaround is a lookahead that forbids every word character (``(?![\\w-]|...)``)."""
    direction, items = av
    if direction != 1:
        return False
    items = list(items)
    if len(items) == 1 and items[0][0] is sre.BRANCH:
        return any(_is_word_class(list(alternative)) for alternative in items[0][1][1])
    return _is_word_class(items)


def _is_word_class(items: list[_Item]) -> bool:
    """One character set that holds ``\\w`` (and maybe more)."""
    return len(items) == 1 and items[0][0] is sre.IN and (sre.CATEGORY, sre.CATEGORY_WORD) in items[0][1]


def _set_chars(av: Any) -> set[str]:
    chars: set[str] = set()
    for op, arg in av:
        if op is sre.LITERAL:
            chars.add(chr(arg))
        elif op is sre.RANGE and arg[1] - arg[0] < 128:
            chars.update(chr(c) for c in range(arg[0], arg[1] + 1))
        elif op is sre.CATEGORY and arg is sre.CATEGORY_DIGIT:
            chars.update(string.digits)  # (and non-ASCII digits: the known gap of derive_anchors)
        else:
            raise _Unprovable(f"cannot list the characters of {op}")
    return chars


def derive_required_char(items: tuple[_Item, ...]) -> str:
    """The first ASCII character other than a letter that every match contains, read from the parts of the regex
    that every match goes through (outside lookarounds); "" where there is none."""
    for op, av in items:
        if op is sre.LITERAL and isinstance(av, int) and chr(av).isascii() and not chr(av).isalpha():
            return chr(av)
        if op is sre.SUBPATTERN:
            found = derive_required_char(_body(av))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] >= 1:
            found = derive_required_char(tuple(av[2]))
        else:
            continue
        if found:
            return found
    return ""


# Blanks, which the follow check skips: what a rule's regex writes between the anchor and the next word.
_BLANKS = frozenset(" \t")
_FLAGS = "flags"  # marks where a scoped flag group ends inside an item list: ("flags", the flag outside it)


@lru_cache(maxsize=1024)
def derive_follows(source: str, ignore_case: bool, anchors: tuple[str, ...]) -> tuple[frozenset[str] | None, ...]:
    """For each of ``anchors`` (lower case, one blank per gap, as the plan spells them), the ASCII characters that may
    come first after it and the blanks or tabs after it, in every match of the regex that starts with it: the scan
    tries the rule at that anchor only where such a character (or one that is not ASCII) follows. None where the
    regex does not show it: a match might end there or go on with a blank, a newline or a class the derivation cannot
    list, or no way through the regex spells the anchor.

    Lookarounds and ``\\b`` are skipped (they only narrow what matches), except that a lookahead's first character
    counts where the rest gives none ("(?<=\\()pt(?=\\))" needs a ")" next). A character in a case-blind part counts
    in both cases; a non-ASCII one adds its case forms and case folding, and a non-ASCII character in the text always
    passes (the regex may fold it to an ASCII one: the Kelvin sign, U+212A, for "k").
    """
    parsed = parsed_regex(source, ignore_case)
    if parsed is None:
        return (None,) * len(anchors)
    items, blind = parsed
    root: _Node = {}
    for anchor in anchors:
        node = root
        for char in anchor:
            node = node.setdefault(char, {})
        node[""] = anchor
    found: dict[str, set[str] | None] = {}
    _walk_on(items, root, blind, found)
    return tuple(None if found.get(anchor) is None else frozenset(found[anchor] or ()) for anchor in anchors)


# A trie of anchors: a character -> the node after it; "" -> the anchor that ends at this node.
_Node = dict[str, Any]


def _walk(items: tuple[_Item, ...], node: _Node, blind: bool, found: dict[str, set[str] | None]) -> None:
    """Go on along ``items`` from ``node`` (a prefix of some anchors just spelled): where an anchor ends here, add
    what may follow it to ``found``; then spell the longer anchors."""
    anchor = node.get("")
    if anchor is not None and found.get(anchor, ()) is not None:
        try:
            found[anchor] = (found.get(anchor) or set()) | _first_visible(items, blind)
        except _Unprovable:
            found[anchor] = None
    if len(node) > (anchor is not None):
        _walk_on(items, node, blind, found)


def _walk_on(items: tuple[_Item, ...], node: _Node, blind: bool, found: dict[str, set[str] | None]) -> None:
    """Spell on from ``node`` along ``items``; where the regex cannot be followed, every anchor longer than the
    prefix at ``node`` gets None (nothing shown)."""
    try:
        _spell(items, node, blind, found)
    except _Unprovable:
        for anchor in _longer(node):
            found[anchor] = None


def _longer(node: _Node) -> list[str]:
    """The anchors that go on past ``node``."""
    out: list[str] = []
    for char, child in node.items():
        if char:
            if "" in child:
                out.append(child[""])
            out.extend(_longer(child))
    return out


def _spell(items: tuple[_Item, ...], node: _Node, blind: bool, found: dict[str, set[str] | None]) -> None:
    if not items:
        raise _Unprovable("the match may end inside an anchor")
    (op, av), rest = items[0], items[1:]
    if op is _LEAVE[0] or op is sre.AT or op in (sre.ASSERT, sre.ASSERT_NOT):
        _spell(rest, node, blind, found)  # zero-width: passed over
    elif op == _FLAGS:
        _spell(rest, node, av, found)
    elif op is sre.LITERAL:
        char = chr(av)
        if not char.isascii():
            raise _Unprovable("a non-ASCII character in an anchor")
        child = node.get(" " if char in _BLANKS else char.lower())
        if child is not None:
            _walk(rest, child, blind, found)
    elif op is sre.IN:
        chars = _set_chars(av)
        for key in {" " if c in _BLANKS else c.lower() for c in chars}:
            if key and key in node:
                _walk(rest, node[key], blind, found)
    elif op is sre.SUBPATTERN:
        inner_items, inner = _entered(av, rest, blind)
        _spell(inner_items, node, inner, found)
    elif op is sre.BRANCH:
        for alternative in av[1]:
            _walk_on((*alternative, *rest), node, blind, found)
    elif op is sre.MAX_REPEAT and _is_blank_run(op, av):
        if " " in node:
            _walk(rest, node[" "], blind, found)
    elif op is sre.MAX_REPEAT and av[0] == 0 and av[1] == 1:
        _walk_on(rest, node, blind, found)
        _walk_on((*av[2], *rest), node, blind, found)
    else:
        raise _Unprovable(f"cannot spell an anchor through {op}")


def _entered(av: Any, rest: tuple[_Item, ...], blind: bool) -> tuple[tuple[_Item, ...], bool]:
    """A group's body followed by ``rest``, and whether the body is case-blind: its scoped flags (``(?i:...)``,
    ``(?-i:...)``) or the flag outside, which a _FLAGS mark restores after the body where they differ."""
    _, add_flags, del_flags, body = av
    inner = blind
    if add_flags & re.IGNORECASE:
        inner = True
    elif del_flags & re.IGNORECASE:
        inner = False
    closing = ((_FLAGS, blind),) if inner != blind else ()
    return (*body, *closing, *rest), inner


def _first_visible(items: tuple[_Item, ...], blind: bool) -> set[str]:
    """The characters that the first character other than a blank or tab that ``items`` match may be; raises where
    a match may end, or go on, without one the derivation can list."""
    if not items:
        raise _Unprovable("the match may end here")
    (op, av), rest = items[0], items[1:]
    if op is _LEAVE[0] or op is sre.AT or (op in (sre.ASSERT, sre.ASSERT_NOT) and (op is sre.ASSERT_NOT or av[0] < 0)):
        return _first_visible(rest, blind)
    if op == _FLAGS:
        return _first_visible(rest, av)
    if op is sre.ASSERT:  # a lookahead: what it needs next is needed too
        try:
            return _first_visible(tuple(av[1]), blind)
        except _Unprovable:
            return _first_visible(rest, blind)
    if op is sre.LITERAL:
        return _first_visible(rest, blind) if chr(av) in _BLANKS else _cased({chr(av)}, blind)
    if op is sre.IN:
        chars = _set_chars(av)
        if chars <= _BLANKS:
            return _first_visible(rest, blind)
        if chars & _BLANKS:
            raise _Unprovable("a class of blanks and other characters")
        return _cased(chars, blind)
    if op is sre.SUBPATTERN:
        return _first_visible(*_entered(av, rest, blind))
    if op is sre.BRANCH:
        return set().union(*(_first_visible((*alternative, *rest), blind) for alternative in av[1]))
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, _, body = av
        if _only_blanks(tuple(body)):
            return _first_visible(rest, blind)
        # The body always takes a character other than a blank (else this raises): the first repetition's comes first.
        first = _first_visible(tuple(body), blind)
        return first if low >= 1 else first | _first_visible(rest, blind)
    raise _Unprovable(f"cannot tell what {op} starts with")


def _only_blanks(items: tuple[_Item, ...]) -> bool:
    """Whether ``items`` match nothing but blanks and tabs (a run of them, perhaps none)."""
    for op, av in items:
        if op is sre.LITERAL and chr(av) in _BLANKS:
            continue
        if op is sre.IN and _listed_blanks(av):
            continue
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and _only_blanks(tuple(av[2])):
            continue
        return False
    return True


def _listed_blanks(av: Any) -> bool:
    try:
        return _set_chars(av) <= _BLANKS
    except _Unprovable:
        return False


def _cased(chars: set[str], blind: bool) -> set[str]:
    """``chars`` and, where matched case-blind, their other cases (and the case folding of a non-ASCII one)."""
    if not blind:
        return set(chars)
    out = set(chars)
    for c in chars:
        out.update(c.lower(), c.upper())
        if not c.isascii():
            out.update(c.casefold())
    return out
