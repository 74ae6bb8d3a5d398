"""USERNAME detector: handles by position, shape, author field and repetition (synthetic cases)."""

from __future__ import annotations

import random

import pytest

from deident.core.document import Document, DocumentMetadata
from deident.core.labels import Label
from deident.detect.patterns.usernames import (
    ANCHOR_WORDS,
    anchor_word_starts,
    anchor_word_starts_by_find,
    author_variants,
    title_variants,
    username_detector,
)

from .helpers import SAMPLE, random_texts

POSITIVES: list[tuple[str, str]] = [
    ("From: quillrunner77\nDate: 3 Apr 2019", "quillrunner77"),
    ("Username: bramblefoot", "bramblefoot"),
    # a login's field with its kind of name, or named in a sentence
    ("user ID: tquorvane", "tquorvane"),
    ("Account name: tobiah.q", "tobiah.q"),
    ("My username is bluebird_77 and I post here a lot.", "bluebird_77"),
    ("my screen name is Bluebird77", "Bluebird77"),
    ("his login was tquorvane2 until March.", "tquorvane2"),
    ("Her nickname is Kiochao on the board.", "Kiochao"),
    ("posted by TeaKettleFan on 4/2/2011", "TeaKettleFan"),
    ("Signed electronically by qwalloway on May 3, 2020", "qwalloway"),
    ("Last edited by zennorth; 3/19/2002 at 8pm.", "zennorth"),
    ("Re: statins and cramps?? - MossyGate - 3/20/2006\nanyone?", "MossyGate"),
    ("> fernwhistle is right, ask for a referral", "fernwhistle"),
    ("thanks @quillrunner77 for that", "quillrunner77"),
    # a Reddit user, as the site writes one
    ("u/tquorvane posted this last week", "tquorvane"),
    ("thanks u/Brantisk_77!", "Brantisk_77"),
    ("see /u/kiochao-q's post", "kiochao-q"),
    ("lily86 wrote:\nsorry for my english", "lily86"),
    ("nlong replied on 5/21/09:\nhave u tried", "nlong"),
    ("[2014-05-22 8am] xkline:\npain is bad", "xkline"),
    ("re: jeffrey21\nthere's a group", "jeffrey21"),
    ("-- Joy (hhumphrey)", "hhumphrey"),
    ("so tired of waiting lol summer_rain77 knows", "summer_rain77"),
    ("katrina33 did u ever hear back", "katrina33"),
    # a poster thanked by handle (invented handles): the handle need not look like one
    ("thx quillrunner for the advice!!", "quillrunner"),
    ("ok. thanks TeaKettleFan! see u", "TeaKettleFan"),
    ("thank you bramblefoot, that helped", "bramblefoot"),
    ("kudos to zennorth for posting the link", "zennorth"),
    # a poster greeted or cheered on by handle or name (invented): a comma, "!" or the line's end after it
    ("hang in there quillrunner!", "quillrunner"),
    # a poster answered by handle or name at a line's or sentence's start, before a reply's words
    ("re: kelbur5\nUklailor i'll pm you", "Uklailor"),
    ("> quelbine k. i'll pm you", "quelbine k."),
    ("paiciondova.ziependski is right, push for a referral", "paiciondova.ziependski"),
    ("skin warm and dry. lysorunto.houjounto did u ever hear back?", "lysorunto.houjounto"),
    ("Hi Tamsinelle, sorry to hear about your mom", "Tamsinelle"),
    ("good luck bramblefoot\nlet us know", "bramblefoot"),
    ("hugs to zennorth!! we are here", "zennorth"),
    ("Welcome Quorvane, glad you found us", "Quorvane"),
]
NEGATIVES: list[str] = [
    "Mom is right, push for a referral. She did u ever hear back? Everyone i'll pm you.",
    "Pt is right sided weak. Doctor was right about it. Family have you tried calling?",
    # a rate per unit, a follow-up, an ultrasound
    "heparin at 18 u/kg/hr, insulin 2 u/hr and 10 u/min; insulin u/day",
    "f/u/with renal; u/s showed; cu/zn ratio; menu/home",
    # a common word after a login's name and a verb
    "the door handle is loose",
    "login is slow today",
    "user is confused about meds",
    "the handle is broken again",
    "transferred from: MICU at 0400",
    "pt came from home with wife",
    "consent signed by hsb. no source found",
    "tf @goal of 80cc/hr",
    "new order written by resident",
    "[report_end]",
    "BP_SYS 120 charted",
    "Re: Parkinson's and methadone?? anyone",
    "k 3.8 hct 28.2 given 40meq kcl",
    "From: Dr. Smith",
    "Signed electronically by John Carter, MD on May 3",
    # thanked, but no one: common words, fond names, stretched words
    "thanks everyone for the replies",
    "thanks again for the tips",
    "thx alot for this",
    "thanks heaps for that",
    "thanks sweetie!",
    "thanks sooo much!",
    "thank you doctor for listening",
    "ty for the info",
    # greeted, but no one: common words, fond names, or more of the sentence after the word
    "hang in there girl!",
    "hang in there hun!",
    "hi all, new here",
    "hey guys!",
    "welcome back!",
    "hello again,",
    "good luck with the surgery",
    "hi bramblefoot said the nurse",
    "Pt states hi to wife, good luck",
    "INR hi, recheck in am",
]


def _texts(document: Document) -> list[str]:
    return [document.text[s.start : s.end] for s in username_detector().detect(document)]


@pytest.mark.parametrize(("text", "expected"), POSITIVES)
def test_finds_handle(text: str, expected: str) -> None:
    assert expected in _texts(Document("d", text))


@pytest.mark.parametrize("text", NEGATIVES)
def test_no_handle(text: str) -> None:
    assert _texts(Document("d", text)) == []


def test_handle_found_once_is_tagged_everywhere() -> None:
    text = "From: mossgate\n\nask mossgate, and MOSSGATE again"
    spans = username_detector().detect(Document("d", text))
    assert [text[s.start : s.end] for s in spans] == ["mossgate", "mossgate", "MOSSGATE"]
    assert {s.label for s in spans} == {Label.USERNAME}
    assert spans[1].evidence == ("pattern:username.repeated",)


def test_author_field_and_its_variants() -> None:
    meta = DocumentMetadata(author="katrina33")
    text = "katrina here again. thanks Katrina33!"
    spans = username_detector().detect(Document("d", text, meta))
    assert [text[s.start : s.end] for s in spans] == ["katrina", "Katrina33"]


@pytest.mark.parametrize(
    ("author", "variants"),
    [
        ("katrina33", ["katrina33", "katrina"]),
        # "Gate" is a common word, not a variant; the words apart and run together are
        ("MossyGate", ["Mossy Gate", "MossyGate", "Mossy"]),
        # "summer" and "rain" are common words
        ("summer_rain77", ["summer_rain77", "summer rain", "summer_rain", "summerrain"]),
        ("sunny_daze", ["sunny daze", "sunny_daze", "sunnydaze", "daze"]),
        ("@bramblefoot", ["bramblefoot"]),
        ("", []),
    ],
)
def test_author_variants(author: str, variants: list[str]) -> None:
    assert author_variants(author) == variants


def test_spans_name_source_and_carry_no_text() -> None:
    text = "From: quillrunner77"
    (span,) = username_detector().detect(Document("d", text))
    assert span.source == "patterns.username"
    assert span.score is not None
    assert "quillrunner77" not in repr(span)


def test_deterministic() -> None:
    doc = Document("d", "From: a_bc_de\n> fernwhistle is right\nthx @fernwhistle")
    assert username_detector().detect(doc) == username_detector().detect(doc)


@pytest.mark.parametrize(
    ("author", "variants"),
    [
        ("sunny_daze", ["Sunny"]),  # "sunny" is too common to seek in lower case
        ("katrina33", []),  # rare enough to be sought in any case already
        ("summer_rain77", []),  # "summer" and "rain" too common even capitalised
        ("", []),
    ],
)
def test_title_variants(author: str, variants: list[str]) -> None:
    assert title_variants(author) == variants


# (text, handles found) for a board whose posters include "sunny_daze" (not this note's author).
BOARD_CASES: list[tuple[str, list[str]]] = [
    ("what SUNNYDAZE said", ["SUNNYDAZE"]),
    ("thanks Sunny, that helped", ["Sunny"]),
    ("SunnyDaze said the same", ["SunnyDaze"]),
    ("what sunny daze wrote", ["sunny daze"]),
    ("hope daze is ok", ["daze"]),
    # hard negatives: the common word in lower case or opening a sentence
    ("a sunny day at last", []),
    ("Sunny days help. Sunny weather too", []),
]


@pytest.mark.parametrize(("text", "expected"), BOARD_CASES)
def test_board_handles_are_sought_with_their_variants(text: str, expected: list[str]) -> None:
    board = Document("b", text, DocumentMetadata(author="quillrunner77", board_handles=("quillrunner77", "sunny_daze")))
    assert _texts(board) == expected
    assert _texts(Document("b", text)) == []  # without the board: nothing


def test_the_anchor_words_are_found_where_a_find_per_word_finds_them() -> None:
    """The fast path (one Aho-Corasick pass) equals the reference (a str.find per word), overlapping and glued words
    included ("thankthank", "hihello", "userscreen")."""
    pieces = [*ANCHOR_WORDS, " ", "\n", ">", "(", "x", "é", "thank", "hi", "hel", "lo", "ty", "!", ",", "İ"]
    texts = [
        SAMPLE.lower(),
        "",
        "hihello thankthank userscreen fromfrom",
        *random_texts(random.Random(5), pieces, 400, 1, 40),
    ]
    found = 0
    for text in texts:
        lower = text.lower()
        assert anchor_word_starts(lower) == anchor_word_starts_by_find(lower), text
        found += bool(anchor_word_starts(lower))
    assert found > 300
