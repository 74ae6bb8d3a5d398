"""USERNAME: screen names and logins (Benton et al. 2011, message boards).

A handle is found where its position says it is one: after a header field ("From:", "Posted by",
"Username:"), between the dashes of a post header ("Re: title - handle - 3/20/2006"), after a quote
marker at a line start ("> handle is right") or an at sign ("@handle"); or where its shape alone
says so (letters joined by an underscore, "summer_rain77"). The author field of the note's metadata
(``metadata.author``) and its variants (the letters without the digits, "katrina" of "katrina33";
the words of a camel-case handle, the words apart or run together) are found everywhere, and so are
the handles of every poster among the notes detected together (``metadata.board_handles``, set by
``Deidentifier.detect_many``). Every handle found once is then tagged at each of its occurrences in
the note (a thread quotes and answers its posters by name).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import AnyStr

import ahocorasick
import regex

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.patterns.names import NON_NAMES, known_names
from deident.text.charset import ascii_bytes, ascii_like
from deident.text.wordfrequency import zipf

# Stdlib ``re`` throughout (its scans cost far less here than the ``regex`` module's): in ``re`` with str patterns,
# \w is Unicode, so a letter is [^\W\d_].
# A handle: a letter, then letters, digits, "_", "." or "-" (no blank), at most 32 characters.
_HANDLE = r"[^\W\d_][\w.\-]{1,31}"
_HANDLE_END = r"(?<![.\-])(?![\w@])"
# Header fields that name a poster or a login. A field with a colon ("From:", "Username:") takes any handle that is
# not a common word; a phrase ("posted by", "signed by") only a handle-shaped word: after "signed by" or "written by"
# a person's name is the name rules' business, and "from home" is no header. Each is tried only where one of its
# first words stands (a str.find on the lower-cased text), and only after a blank, ">", "(" or "[" or at the start.
FIELD_WORDS = ("from", "author", "user", "screen", "handle", "login", "poster", "sender", "member", "nick", "account")
_LOGIN_NAME = (
    r"user[ \t]?(?:name|id)|screen[ \t]?name|login(?:[ \t]?(?:name|id))?|nick[ \t]?name|account[ \t]?name|handle"
)
_FIELD = re.compile(
    r"(?i)(?:from|author|user|" + _LOGIN_NAME + r"|poster|sender|member)"
    r"[ \t]*:[ \t]{0,3}(?P<u>" + _HANDLE + ")" + _HANDLE_END
)
# A login named in a sentence: "my username is bluebird_77", "his screen name was Tquorvane". Only a word that is no
# common word, or one with a digit, "_" or "." in it ("the handle is loose", "login is slow" name none).
NAMED_WORDS = ("user", "screen", "login", "nick", "account", "handle")
_NAMED = re.compile(
    r"(?i)(?:" + _LOGIN_NAME + r")[ \t]{1,2}(?:is|was)[ \t]{1,3}['\"“‘]?(?P<u>" + _HANDLE + ")" + _HANDLE_END
)
# ("originally posted by", "last edited by", "electronically signed by" are found from their second word.)
PHRASE_WORDS = ("posted", "reply", "quote", "written", "edited", "signed")
_PHRASE = re.compile(
    r"(?i)(?:posted[ \t]by|reply[ \t]from|quote[ \t]from|written[ \t]by|edited[ \t]by"
    r"|signed(?:[ \t]electronically)?[ \t]by)[ \t]{1,3}(?P<u>" + _HANDLE + ")" + _HANDLE_END
)
_FIELD_START = frozenset(" \t\n\r>([")
# "Re: Parkinson's and methadone?? - ArgueStore - 3/20/2006": a handle between dashes before a date.
_POST_HEADER = re.compile(
    r"[ \t][-\u2013\u2014|][ \t]{1,2}(?P<u>" + _HANDLE + r")" + _HANDLE_END + r"[ \t]{1,2}[-\u2013\u2014|][ \t]{1,2}"
    r"(?:\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}|[^\W\d_]{3,9}\.?[ \t]\d{1,2})"
)
# "> mavilés is right": a quoted poster at a line start.
_QUOTED = re.compile(
    r"(?m)^[ \t]{0,3}>[ \t]{1,2}(?P<u>"
    + _HANDLE
    + r")"
    + _HANDLE_END
    + r"(?=[ \t]{0,2}[,:]|[ \t]{1,2}(?:is|was|said|says|wrote|writes|posted|replied|asked|,))"
)
# A post's first line: "lily86 wrote:", "nlong replied on 5/21/09:", "[2014-05-22 8am] xkline:", "re: jeffrey21" alone.
_POST_START = re.compile(
    r"(?im)^[ \t]{0,3}(?:\[[^\]\n]{4,25}\][ \t]{0,2}(?P<a>" + _HANDLE + r")" + _HANDLE_END + r"[ \t]{0,2}:"
    r"|(?P<b>" + _HANDLE + r")" + _HANDLE_END + r"[ \t]{1,2}(?:wrote|writes|said|says|replied|posted|asked|commented)"
    r"\b[^\n:]{0,30}:"
    r"|re:[ \t]{1,2}(?P<c>" + _HANDLE + r")" + _HANDLE_END + r"[ \t]*$)"
)
# What a text needs for _POST_START to match anywhere in it (its literals, lower-cased).
POST_START_WORDS = ("]", "wrote", "writes", "said", "says", "replied", "posted", "asked", "commented", "re:")
# A signature: "-- Joy (hhumphrey)", "-- James (StephenB)": the handle in parentheses after the name.
_SIGNATURE = re.compile(
    r"(?m)^[ \t]{0,3}(?:--|\u2014|~)[ \t]{0,2}[^\W\d_][\w'.\- ]{0,30}[ \t]\((?P<u>"
    + _HANDLE
    + r")"
    + _HANDLE_END
    + r"\)"
)
# A poster answered by handle or name at the start of a line or sentence, before a reply's words to or about them:
# "tkelbur i'll pm you", "> Quelbine K. i'll pm you", "tobiah.k is right, push for a referral", "zennorth did u ever
# hear back" (Benton 2011: a thread's users answer each other by name). Rare words only, which the detector checks
# ("Mom is right", "She did u ever").
_ADDRESSED = re.compile(
    r"(?im)(?:^|(?<=[.!?][ \t]))[ \t]{0,3}(?:>[ \t]{0,2})?(?P<u>" + _HANDLE + r")" + _HANDLE_END
    + r"(?:[ \t](?P<i>[a-z])\.(?![\w]))?[ \t]{0,2},?[ \t]{1,2}"
    r"(?:i'?ll[ \t]pm[ \t](?:you|u)|i[ \t]will[ \t]pm[ \t](?:you|u)|(?:is|was)[ \t]right|did[ \t](?:you|u)[ \t]ever"
    r"|have[ \t](?:you|u)[ \t]tried)\b"
)  # fmt: skip
# What a text needs for _ADDRESSED to match anywhere in it (its literals, lower-cased).
ADDRESSED_WORDS = ("pm you", "pm u", "is right", "was right", "u ever", "you ever", "u tried", "you tried")
# A poster thanked by handle: "thx tedwards for the advice", "thanks PlayerInstead!" (not "thanks everyone for": the
# handle must be rare, which the detector checks).
THANKS_WORDS = ("thank", "thx", "ty", "kudos", "props", "shout")
_THANKED = re.compile(
    r"(?i)(?<![\w'])(?:thanks|thx|thank[ \t]you|ty|tyvm|kudos[ \t]to|props[ \t]to|shout[ \t]?out[ \t]to)"
    r"[ \t]{1,2}(?P<u>" + _HANDLE + r")" + _HANDLE_END + r"(?=[ \t]{1,2}for\b|[ \t]{0,2}[!,])"
)
# A poster greeted or cheered on by handle or first name, the rest of the sentence after a comma or "!", or nothing
# after it on the line: "hang in there bramblefoot!", "Hi Tamsin, sorry to hear", "good luck zennorth". The same
# checks as thanked ("hi all,", "hang in there hun!" name no one).
GREETING_WORDS = (
    "hang",
    "good",
    "best",
    "hi",
    "hey",
    "hello",
    "hiya",
    "welcome",
    "congrats",
    "congratulations",
    "hugs",
)
_GREETED = re.compile(
    r"(?i)(?<![\w'])(?:hang[ \t]in[ \t]there|good[ \t]luck|best[ \t]of[ \t]luck|best[ \t]wishes|hi|hey|hello|hiya"
    r"|welcome|congrats|congratulations|hugs)[ \t]{1,2}(?:to[ \t]{1,2})?(?P<u>"
    + _HANDLE
    + r")"
    + _HANDLE_END
    + r"(?=[ \t]{0,2}(?:[!,]|\r?\n|$))"
)
# Words after "thanks" that are no one ("thanks heaps for", "thx alot", "thanks sweetie!"), rare enough to pass the
# frequency gate; and stretched words ("thanks sooo much").
THANKS_NOT_HANDLES = frozenset(
    "heaps bunches bunch alot lots tons loads sweetie sweety hun hon babe dear darling muchly kindly hugely mucho ya "
    "yall y'all u you hugs xx xo xoxo".split()
)
_STRETCHED = re.compile(r"(\w)\1\1")
# A first name with two to four digits glued on ("katrina33", "megan04"): a handle's commonest shape. Found by a
# cheap scan for four letters and two digits, then checked whole.
_NAME_DIGITS_SEED_UNICODE = re.compile(r"[^\W\d_]{4}\d\d")  # the definition; found faster on a folded copy
# The folded copy's bytes for ASCII: letters as "a", digits as "0", the rest as " ".
_FOLD = bytes(97 if 65 <= c <= 90 or 97 <= c <= 122 else 48 if 48 <= c <= 57 else 32 for c in range(256))
_NAME_DIGITS = re.compile(r"(?P<l>[^\W\d_]{4,16})\d{2,4}(?![\w@]|\.\w)")
_NAME_DIGITS_BEFORE = frozenset("@.-/#_")
_AT = re.compile(r"@(?P<u>" + _HANDLE + ")" + _HANDLE_END)  # tried at each "@" not after a word or "."
# A Reddit user as the site writes one: "u/tquorvane", "/u/Brantisk_77" (3 to 20 letters, digits, "_" or "-"). Not
# after a number or a word ("10 u/min", "f/u/..."), nor a unit ("u/day", "u/hr": units per day or hour).
_SLASH_USER = re.compile(r"(?<![\w/])/?u/(?P<u>[A-Za-z0-9_\-]{3,20})(?![\w\-/])")
_SLASH_USER_UNITS = frozenset("min day hour week month dose".split())
_NUMBER_BEFORE = re.compile(r"\d[ \t]{0,2}\Z")
# Shape alone: two alphabetic parts of three or more letters joined by "_" (digits may follow).
# Not in brackets ("[report_end]", "<PHI_TYPE>": markup) and not in capitals ("BP_SYS": a field name).
# Tried at the start of the letters before each "_".
_UNDERSCORED = re.compile(r"(?P<u>[^\W\d_]{3,}(?:_[^\W\d_]{2,})+\d{0,4})" + _HANDLE_END + r"(?![\]>}])")
_UNDERSCORED_BEFORE = frozenset("@.[<{_")
_CAMEL_PARTS = regex.compile(r"\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})")

FIELD_SCORE = 0.8
POSITION_SCORE = 0.7
SHAPE_SCORE = 0.6
REPEAT_SCORE = 0.7
# A variant of the author's handle (its letters alone, a word of it) is only sought when rarer than this (Zipf):
# "katrina" of "katrina33", but not "summer" of "summer_rain77".
VARIANT_MAX_ZIPF = 4.0
# A word at least this frequent (Zipf) is a word, not a handle, unless its shape says otherwise ("From: home").
COMMON_ZIPF = 4.0
# A word of a handle rarer than this but too common for VARIANT_MAX_ZIPF is sought in title case inside a sentence.
TITLE_MAX_ZIPF = 4.6


def _is_handle(word: str) -> bool:
    """Whether a captured word may be a handle: not a function or clinical word, not a bare number or initial."""
    core = word.strip("._-")
    if len(core) < 2 or core.lower() in NON_NAMES:
        return False
    if core.isupper() and core.isalpha() and len(core) <= 5:
        return False  # an abbreviation: "From: MICU", "signed by NP"
    return any(ch.isalpha() for ch in core)


def _long_enough(word: str) -> bool:
    """Four letters or more, or digits in it: "hsb" after "signed by" is someone's initials."""
    return len(word) >= 4 or any(ch.isdigit() for ch in word)


def _has_digit_or_mark(word: str) -> bool:
    return any(ch.isdigit() or ch in "_." for ch in word)


def _handle_shaped(word: str) -> bool:
    """A login rather than a person's name: lower case, or digits, "_" or "." inside, or camel case."""
    inner_capital = any(ch.isupper() for ch in word[1:]) and not word.isupper()
    return word.islower() or _has_digit_or_mark(word) or inner_capital


def author_variants(author: str) -> list[str]:
    """The author's handle and the variants posters write for it, longest first."""
    handle = author.strip().lstrip("@")
    if not handle or not _is_handle(handle):
        return []
    variants = {handle}
    letters = regex.sub(r"[\p{N}_.\-]+$", "", handle)
    words = [w for w in regex.split(r"[_.\-\p{N}]+", handle) if w]
    if len(words) == 1:
        words = _CAMEL_PARTS.findall(handle)
    for variant in (letters, *words):
        low = variant.lower()
        if len(variant) >= 4 and low not in NON_NAMES and zipf(low) < VARIANT_MAX_ZIPF:
            variants.add(variant)
    if len(words) >= 2:
        # The words written apart or run together: "sunny daze" and "SunnyDaze" of "sunny_daze" (matched in any case).
        variants.update((" ".join(words), "".join(words)))
    return sorted(variants, key=lambda v: (-len(v), v))


def title_variants(author: str) -> list[str]:
    """Words of the handle too common to seek in any case but rare enough to be the poster's name when written
    with a capital inside a sentence: "Sunny" of "sunny_daze" ("thanks Sunny!", not "a sunny day")."""
    handle = author.strip().lstrip("@")
    if not handle or not _is_handle(handle):
        return []
    words = [w for w in regex.split(r"[_.\-\p{N}]+", handle) if w]
    if len(words) == 1:
        words = _CAMEL_PARTS.findall(handle)
    out = {
        word.capitalize()
        for word in words
        if len(word) >= 4 and word.lower() not in NON_NAMES and VARIANT_MAX_ZIPF <= zipf(word.lower()) < TITLE_MAX_ZIPF
    }
    return sorted(out)


@lru_cache(maxsize=16)
def _handle_patterns(handles: tuple[str, ...]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """One pattern for the handles and their variants (any case) and one for their title-case words (case kept,
    not opening a sentence), built once per set of handles (a batch's board)."""
    anywhere = sorted({v for h in handles for v in author_variants(h) if len(v) >= 3}, key=lambda v: (-len(v), v))
    titled = sorted({v for h in handles for v in title_variants(h)} - {v.lower() for v in anywhere})
    first = None
    if anywhere:
        first = re.compile(r"(?<![\w@.])(?:" + "|".join(map(re.escape, anywhere)) + ")" + _HANDLE_END, re.IGNORECASE)
    second = None
    if titled:
        second = re.compile(
            r"(?<![.!?:\n]\s)(?<![\w@.])(?<!^)(?:" + "|".join(map(re.escape, titled)) + ")" + _HANDLE_END
        )
    return first, second


@dataclass(frozen=True)
class UsernameDetector:
    """Screen names by position, shape and the note's author field, then at every occurrence."""

    name: str = "patterns.username"

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        lower = text.lower()
        found: dict[tuple[int, int], tuple[float, str]] = {}

        def add(start: int, end: int, score: float, note: str) -> None:
            if found.get((start, end), (0.0, ""))[0] < score:
                found[(start, end)] = (score, note)

        starts = anchor_word_starts(lower)
        for m in _anchored(_FIELD, text, starts, FIELD_WORDS):
            word = m["u"]
            if _is_handle(word) and (_handle_shaped(word) or zipf(word.lower()) < COMMON_ZIPF):
                add(m.start("u"), m.end("u"), FIELD_SCORE, "pattern:username.field")
        for m in _anchored(_NAMED, text, starts, NAMED_WORDS):
            word = m["u"]
            if _is_handle(word) and (zipf(word.lower()) < COMMON_ZIPF or _has_digit_or_mark(word)):
                add(m.start("u"), m.end("u"), FIELD_SCORE, "pattern:username.named")
        for m in _anchored(_PHRASE, text, starts, PHRASE_WORDS):
            word = m["u"]
            if _is_handle(word) and _handle_shaped(word) and zipf(word.lower()) < COMMON_ZIPF and _long_enough(word):
                add(m.start("u"), m.end("u"), FIELD_SCORE, "pattern:username.posted_by")
        starts_seen: set[int] = set()
        for start in _name_digit_seeds(text):
            while start > 0 and (text[start - 1].isalpha()):
                start -= 1
            if start in starts_seen or (
                start > 0 and (text[start - 1].isdigit() or text[start - 1] in _NAME_DIGITS_BEFORE)
            ):
                continue
            starts_seen.add(start)
            seeded = _NAME_DIGITS.match(text, start)
            if seeded is None:
                continue
            letters = seeded["l"]
            if letters.lower() in known_names() and (letters.islower() or letters.istitle()):
                add(seeded.start(), seeded.end(), SHAPE_SCORE, "pattern:username.name_digits")
        positional = (
            (_POST_HEADER, "pattern:username.post_header", ("-", "|", "\u2013", "\u2014")),
            (_QUOTED, "pattern:username.quoted", (">",)),
            (_POST_START, "pattern:username.post_start", POST_START_WORDS),
            (_SIGNATURE, "pattern:username.signature", ("(",)),
        )
        for rule, note, needed in positional:
            if not any(word in lower for word in needed):
                continue  # a rule's literal is missing: no scan
            for m in rule.finditer(text):
                group = m.lastgroup  # each alternative of a rule captures the handle in one named group
                if group is not None and _is_handle(m[group]):
                    add(m.start(group), m.end(group), POSITION_SCORE, note)
        addressed = (
            (_THANKED, THANKS_WORDS, "pattern:username.thanked"),
            (_GREETED, GREETING_WORDS, "pattern:username.greeted"),
        )
        for rule, first_words, note in addressed:
            for m in _anchored(rule, text, starts, first_words):
                word = m["u"]
                low = word.lower()
                if (
                    _is_handle(word)
                    and _long_enough(word)
                    and zipf(low) < COMMON_ZIPF
                    and low not in THANKS_NOT_HANDLES
                    and not _STRETCHED.search(low)
                ):
                    add(m.start("u"), m.end("u"), POSITION_SCORE, note)
        if any(word in lower for word in ADDRESSED_WORDS):
            for m in _ADDRESSED.finditer(text):
                word = m["u"]
                if _is_handle(word) and _long_enough(word) and zipf(word.lower()) < COMMON_ZIPF:
                    end = m.end("i") + 1 if m["i"] else m.end("u")  # a surname's initial, with its full stop
                    add(m.start("u"), end, POSITION_SCORE, "pattern:username.addressed")
        for m in _at_handles(text):
            # "@" is also "at" in notes ("tf @goal", "@ rate"): only a rare or handle-shaped word.
            word = m["u"]
            if (
                _is_handle(word)
                and _long_enough(word)
                and (zipf(word.lower()) < COMMON_ZIPF or _has_digit_or_mark(word))
            ):
                add(m.start("u"), m.end("u"), POSITION_SCORE, "pattern:username.at")
        for m in _slash_users(text, lower):
            add(m.start("u"), m.end("u"), FIELD_SCORE, "pattern:username.slash_user")
        for m in _underscored(text):
            if not m["u"].isupper():  # "BP_SYS": a field name
                add(m.start("u"), m.end("u"), SHAPE_SCORE, "pattern:username.underscored")
        handles = {text[s:e] for s, e in found}
        # Each handle at every occurrence: a thread quotes and answers its posters by name.
        for handle in sorted(handles, key=lambda h: (-len(h), h)):
            if len(handle) < 3:
                continue
            pattern = re.compile(r"(?<![\w@.])" + re.escape(handle) + _HANDLE_END, re.IGNORECASE)
            for m in pattern.finditer(text):
                add(m.start(), m.end(), REPEAT_SCORE, "pattern:username.repeated")
        # The note's author and every poster of the notes detected with it (a board's users answer each other),
        # with the variants written for a handle.
        metadata = document.metadata
        posters = tuple(sorted({*metadata.board_handles, *((metadata.author,) if metadata.author else ())}))
        for poster_pattern in _handle_patterns(posters) if posters else ():
            for m in poster_pattern.finditer(text) if poster_pattern is not None else ():
                add(m.start(), m.end(), REPEAT_SCORE, "pattern:username.repeated")
        return [
            Span(start, end, Label.USERNAME, self.name, score, (note,))
            for (start, end), (score, note) in sorted(found.items())
        ]


def _positions(haystack: AnyStr, needle: AnyStr) -> Iterator[int]:
    """Every position of ``needle`` in ``haystack`` (overlapping), by str.find: far cheaper than a regex scan."""
    i = haystack.find(needle)
    while i >= 0:
        yield i
        i = haystack.find(needle, i + 1)


def _name_digit_seeds(text: str) -> list[int]:
    """Where four letters are followed by two digits (a superset of the name-and-digits handles' positions), found in
    the text folded to one byte per character: letters "a", digits "0", the rest a space (ASCII runs by a bytes
    table, the few non-ASCII ones character by character)."""
    if ascii_like(text):
        folded = ascii_bytes(text).translate(_FOLD)
    else:
        pieces = _NON_ASCII_RUNS.split(text)  # ASCII runs at the even positions
        folded = b"".join(
            piece.encode("ascii").translate(_FOLD) if i % 2 == 0 else bytes(map(_fold_char, piece))
            for i, piece in enumerate(pieces)
        )
    return list(_positions(folded, b"aaaa00"))


_NON_ASCII_RUNS = re.compile(r"([^\x00-\x7f]+)")
_LETTER = re.compile(r"[^\W\d_]")  # the classes of _NAME_DIGITS_SEED_UNICODE
_DIGIT = re.compile(r"\d")
# _fold_char's answers, memoised.
_folds: dict[str, int] = {}


def _fold_char(char: str) -> int:
    """A non-ASCII character's byte in the folded text: "a" for a letter, "0" for a digit, else a space."""
    byte = _folds.get(char)
    if byte is None:
        byte = _folds[char] = 97 if _LETTER.match(char) else 48 if _DIGIT.match(char) else 32
    return byte


def _at_handles(text: str) -> list[re.Match[str]]:
    """Handles after an "@" that follows no letter, digit, "_", "." or "@" (so not an e-mail address)."""
    out: list[re.Match[str]] = []
    for i in _positions(text, "@"):
        before = text[i - 1] if i else " "
        if not (before.isalnum() or before in "_.@"):
            m = _AT.match(text, i)
            if m is not None:
                out.append(m)
    return out


def _slash_users(text: str, lower: str) -> list[re.Match[str]]:
    """Reddit users ("u/tquorvane"), tried at each "u/"; not after a number ("10 u/min") nor a unit."""
    out: list[re.Match[str]] = []
    for i in _positions(lower, "u/"):
        start = i - 1 if i and text[i - 1] == "/" else i
        if _NUMBER_BEFORE.search(text, max(0, start - 3), start):
            continue
        m = _SLASH_USER.match(text, start)
        if m is not None and m["u"].lower() not in _SLASH_USER_UNITS:
            out.append(m)
    return out


def _underscored(text: str) -> list[re.Match[str]]:
    """Underscore-joined handles, tried from the letters before each "_" (not after a word, markup or "@")."""
    out: list[re.Match[str]] = []
    done = -1
    for i in _positions(text, "_"):
        start = i
        while start > 0 and text[start - 1].isalpha():
            start -= 1
        before = text[start - 1] if start else " "
        if start > done and not (before.isalnum() or before in _UNDERSCORED_BEFORE):
            m = _UNDERSCORED.match(text, start)
            if m is not None:
                out.append(m)
                done = m.end()
    return out


def _anchored(
    rule: re.Pattern[str], text: str, starts: Mapping[str, list[int]], first_words: tuple[str, ...]
) -> list[re.Match[str]]:
    """Matches of ``rule`` tried only where one of ``first_words`` starts a word (after a blank, ">", "(", "[" or at the
    text's start), at the ``starts`` of :func:`anchor_word_starts`: far cheaper than scanning with the rule."""
    out: list[re.Match[str]] = []
    for i in sorted({i for word in first_words for i in starts.get(word, ())}):
        if i == 0 or text[i - 1] in _FIELD_START:
            m = rule.match(text, i)
            if m is not None:
                out.append(m)
    return out


# The first words of the rules tried where one of them starts (see _anchored).
ANCHOR_WORDS = tuple(sorted({*FIELD_WORDS, *NAMED_WORDS, *PHRASE_WORDS, *THANKS_WORDS, *GREETING_WORDS}))


@lru_cache(maxsize=1)
def _anchor_automaton() -> ahocorasick.Automaton:
    automaton = ahocorasick.Automaton()
    for word in ANCHOR_WORDS:
        automaton.add_word(word, (len(word), word))
    automaton.make_automaton()
    return automaton


def anchor_word_starts(lower: str) -> dict[str, list[int]]:
    """Where each of :data:`ANCHOR_WORDS` starts in the lower-cased text (every occurrence, overlapping ones too, in
    increasing order), in one Aho-Corasick pass: a str.find per word and note (:func:`anchor_word_starts_by_find`, the
    reference that the tests hold it equal to) cost three times as much."""
    starts: dict[str, list[int]] = {}
    for end, (length, word) in _anchor_automaton().iter(lower):
        starts.setdefault(word, []).append(end - length + 1)
    return starts


def anchor_word_starts_by_find(lower: str) -> dict[str, list[int]]:
    """:func:`anchor_word_starts` by a str.find per word (the reference)."""
    return {word: found for word in ANCHOR_WORDS if (found := list(_positions(lower, word)))}


def username_detector() -> UsernameDetector:
    return UsernameDetector()
