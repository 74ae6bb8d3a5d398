"""The scan planner: each fast path (anchor scan, digit-run dispatch, run starts and tails, last line, required
characters, lower-case gates) finds exactly what a full regex scan of each rule finds."""

from __future__ import annotations

import dataclasses
import random

import pytest

from deident.core.labels import Label
from deident.detect.patterns import combined_pattern_detector, pattern_detectors
from deident.detect.patterns.detector import PatternDetector, detect_with
from deident.detect.patterns.hints import WORD_END
from deident.detect.patterns.plan import (
    RUN_WINDOW,
    ScanPlan,
    _anchored_hits,
    _barred_by_prev,
    _fits_of_shape,
    _fitting_nexts,
    _repeating,
    _rules_to_try,
    _spellings,
    anchor_starts,
    build_plan,
    digit_run_matches,
    find_hits,
    first_visible,
    gate_regex,
    last_line_start,
    merge_delimiters,
    same_in_re,
    started_matches,
    tail_matches,
)
from deident.detect.patterns.rules import Pattern, ScanHints, compile_source

from .helpers import (
    DIGIT_PIECES,
    NATIONAL_PHONE_TEXTS,
    SAMPLE,
    all_patterns,
    anchors_of,
    digit_led_patterns,
    digit_texts,
    random_texts,
    with_hints,
)


@pytest.mark.parametrize("text", [SAMPLE, SAMPLE.upper(), SAMPLE.lower()])
def test_anchored_fast_path_matches_a_full_scan(text: str) -> None:
    for detector in pattern_detectors():
        assert isinstance(detector, PatternDetector)
        plan = build_plan(detector.patterns)
        fast = sorted((p.name, h.start, h.end) for p, h in _anchored_hits(plan, text))
        slow = sorted({(p.name, h.start, h.end) for p in plan.anchored for h in find_hits(p, text)})
        assert sorted(set(fast)) == slow


@pytest.mark.parametrize("pattern", digit_led_patterns(), ids=lambda p: p.name)
def test_digit_run_dispatch_finds_what_a_full_scan_finds(pattern: Pattern) -> None:
    """The fast path (one digit-run scan, the rule tried where it can start) equals a regex scan of the rule."""
    plan = build_plan((pattern,))
    matched = 0
    for text in digit_texts():
        slow = [m.span() for m in pattern.compiled.finditer(text)]
        assert [m.span() for _, m in digit_run_matches(plan, text)] == slow, text
        matched += bool(slow)
    assert matched >= 3, "the generated texts must exercise this rule"


def test_digit_run_dispatch_matches_a_full_scan_per_family() -> None:
    texts = digit_texts()[:300]
    for detector in pattern_detectors():
        assert isinstance(detector, PatternDetector)
        slow = tuple(with_hints(p, digit_run=None, anchors=()) for p in detector.patterns)
        for text in texts:
            assert detect_with(detector.name, detector.patterns, text) == detect_with(detector.name, slow, text), text


def test_digit_run_dispatch_is_used_by_digit_led_rules() -> None:
    plans = [build_plan(d.patterns) for d in pattern_detectors() if isinstance(d, PatternDetector)]
    assert sum(len(p.digit_led) for p in plans) >= 20
    assert all(p.digit_runs is not None for p in plans if p.digit_led)


def test_digit_run_dispatch_in_one_plan_of_every_rule_finds_what_each_full_scan_finds() -> None:
    """With every digit-led rule in one plan, the shared digit-run scan (whose prefilter joins every rule's
    ``run_next``) must never keep a rule from a match that its own regex scan finds."""
    patterns = tuple(digit_led_patterns())
    plan = build_plan(patterns)
    matched = set()
    for text in digit_texts():
        fast: dict[str, list[tuple[int, int]]] = {}
        for index, match in digit_run_matches(plan, text):
            fast.setdefault(plan.digit_led[index].name, []).append(match.span())
        for pattern in patterns:
            slow = [m.span() for m in pattern.compiled.finditer(text)]
            assert fast.get(pattern.name, []) == slow, (pattern.name, text)
            if slow:
                matched.add(pattern.name)
    assert matched == {p.name for p in patterns}, "the generated texts must exercise every rule"


def _delimiter_texts() -> list[str]:
    """Anchor words of every family, their gaps written with any mix of blanks and tabs (up to four), followed by
    every word-end character (and by a NUL, which the anchor scan uses internally), at the start, middle and end
    of the text."""
    anchors = sorted(
        {a for d in pattern_detectors() if isinstance(d, PatternDetector) for p in d.patterns for a in anchors_of(p)}
    )
    rng = random.Random(7)
    ends = list(" \t\n\r\f\v.,;:!?-#'\"/()[]<>=+*&@%$^`{}|~\\0123456789\x00_é")
    texts = []
    gaps = [" ", "\t", "  ", " \t", "\t\t", "\t \t", "   ", "    "]
    # What may stand right before an anchor: nothing, any word end, a letter or digit (the anchor then begins no
    # word), non-ASCII letters and punctuation, and the characters that the scan uses for classes.
    befores = ["", "", *ends, "x", "Q", "5", "É", "ß", "\u2014", "\u00a0", "\x01", "\x02", "\x1c"]
    for _ in range(400):
        words = [
            rng.choice(befores)
            + "".join(rng.choice(gaps) + w if i else w for i, w in enumerate(rng.choice(anchors).split(" ")))
            + rng.choice(ends)
            + rng.choice(["", "Smith ", "12/3/05 ", "x"])
            for _ in range(8)
        ]
        texts.append("".join(words))
    return texts


def _anchor_starts_by_brute_force(plan: ScanPlan, text: str) -> set[tuple[int, int]]:
    """(pattern index, start) of every whole-word anchor spelling in ``text``, found with str.find."""
    lower = text.lower()
    found = set()
    for index, pattern in enumerate(plan.anchored):
        for anchor in anchors_of(pattern):
            for spelling in _spellings(anchor.lower()):
                position = lower.find(spelling)
                while position >= 0:
                    end = position + len(spelling)
                    if (end == len(lower) or lower[end] in WORD_END) and not (
                        position > 0 and lower[position - 1].isalnum()
                    ):
                        found.add((index, position))
                    position = lower.find(spelling, position + 1)
    return found


def test_anchor_scan_finds_every_whole_word_anchor_after_any_word_end() -> None:
    """The Aho-Corasick scan merges characters that no anchor contains into classes; it must still report every
    anchor that begins a word (at the start of the text or after any character but a letter or digit) and is
    followed by any word-end character (or the end of the text), and nothing else; a NUL in the text is no word end."""
    plans = [build_plan(d.patterns) for d in pattern_detectors() if isinstance(d, PatternDetector)]
    plans.append(combined_pattern_detector().plan)
    for plan in plans:
        if plan.automaton is None:
            continue
        for text in _delimiter_texts():
            lower = text.lower()
            merged = merge_delimiters(plan, lower)
            assert merged == lower.translate(plan.delimiter_table)  # the bytes path for ASCII text agrees
            scanned = {(step.index, start) for start, _, steps in anchor_starts(plan, lower) for step in steps}
            assert scanned == _anchor_starts_by_brute_force(plan, text), text


_DR = Pattern("test.dr", Label.DOCTOR, r"dr\.?", hints=ScanHints(anchors=("dr",)))


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("dr", [0]),
        ("dr.", [0]),
        (" dr ", [1]),
        ("xdr ", []),
        ("5dr ", []),
        ("édr ", []),
        ("Édr ", []),
        ("_dr ", [1]),
        ("\x00dr ", [1]),
        ("\x01dr ", [1]),
        ("\u2014dr ", [1]),
        ("(dr)", [1]),
        ("dr5", [0]),
        ("drx", []),
        ("dr_", []),
        ("dr\x00", []),
        ("dr\u2014", []),
        ("dré", []),
        ("dr dr\tdr", [0, 3, 6]),
    ],
)
def test_anchor_starts_are_word_starts(text: str, starts: list[int]) -> None:
    plan = build_plan((_DR,))
    assert [start for start, _, _ in anchor_starts(plan, text.lower())] == starts


@pytest.mark.parametrize("anchor", ["café", "dr_", "a\x00b", "x\x01"])
def test_anchors_must_be_ascii_and_free_of_class_characters(anchor: str) -> None:
    with pytest.raises(ValueError, match="anchors must"):
        build_plan((with_hints(_DR, anchors=(anchor,)),))


def _last_line_patterns() -> list[Pattern]:
    return [p for p in all_patterns() if p.hints.last_line]


_LINE_PIECES = (
    "Mary Rueping", "SUSAN", "john smith RN", "Jean Hudson, RN", "resting comfortably", "Plan:", "BP 120/80", "o'brien",
    "Quorvane S.", "Plan A.", "pt stable. ", "Kathy B.", "  T. Quorvane", "Thanks, Tamsin", "Best regards, ",
    "Tobiah Q.", " 7p-7a", " 0700-1900",
    "\n", "\n", "\n", " ", "  ", "\t", "\r", "\u2028", ",", ".", "x", " MD", "\n\n", "  \n",
)  # fmt: skip


def _line_texts() -> list[str]:
    rng = random.Random(11)
    return random_texts(rng, _LINE_PIECES, 2000, 1, 12)


@pytest.mark.parametrize("pattern", _last_line_patterns(), ids=lambda p: p.name)
def test_last_line_rule_equals_a_full_scan(pattern: Pattern) -> None:
    """Trying a ``last_line`` rule on the last non-blank line alone gives the spans of a scan at every newline."""
    slow = (with_hints(pattern, last_line=False),)
    found = 0
    one_line = ["Mary Rueping", "  T. Quorvane RN \n", "pt stable. Kathy B."]
    for text in ["\nMary Rueping\n", "note\nJean Hudson, RN  \n\n", "\nMary Rueping\nmore", *one_line, *_line_texts()]:
        fast_spans = detect_with("t", (pattern,), text)
        assert fast_spans == detect_with("t", slow, text), text
        found += bool(fast_spans)
    assert found >= 50, "the generated texts must exercise this rule"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a\nb", 1), ("a\nb\n \n", 1), ("abc", -1), ("\n", -1), ("", -1), ("x\n\ny\t\n", 2), ("\nname", 0)],
)
def test_last_line_start(text: str, expected: int) -> None:
    assert last_line_start(text) == expected


def test_name_signature_is_a_last_line_rule() -> None:
    assert [p.name for p in _last_line_patterns()] == ["name.signature", "name.closing_signature", "name.valediction"]


def test_run_window_never_drops_a_rule_that_matches() -> None:
    """Where a digit-led rule's regex matches at a run, the window after the run keeps that rule among those tried."""
    plan = build_plan(tuple(digit_led_patterns()))
    kept = 0
    for text in digit_texts():
        for run in plan.digit_runs.finditer(text) if plan.digit_runs else ():
            start, end = run.span()
            tried = _rules_to_try(plan, end - start, text[end : end + RUN_WINDOW], text[start - 1 : start])
            for index in plan.by_run_length[end - start]:
                if plan.digit_led_regexes[index].match(text, start) is not None:
                    assert index in tried, (plan.digit_led[index].name, text)
                    kept += 1
    assert kept >= 1000


# Characters to put before a digit run: word characters, the punctuation that lookbehinds name, line breaks of
# every kind (``^`` in a multi-line rule only follows "\n") and non-ASCII characters (never a digit: runs are maximal).
_BEFORE_RUN = " \t\n\r\v\f\x85\u2028\u2029.,;:/-+#$=%'\"()[]<>@&*!?_aZxé\u00a0"


def test_run_prev_never_drops_a_rule_that_matches() -> None:
    """Where a digit-led rule's regex matches at a run, the character before the run fits its ``run_prev``."""
    plan = build_plan(tuple(digit_led_patterns()))
    assert sum(p is not None for p in plan.prev_of) >= 20
    rng = random.Random(5)
    kept = 0
    for text in digit_texts():
        for run in plan.digit_runs.finditer(text) if plan.digit_runs else ():
            start, end = run.span()
            # The text as found, and with each kind of character (and a blank or a line start) before the run.
            for before in ("", *rng.sample(_BEFORE_RUN, 6)):
                variant = text[:start] + before + text[start:] if before else text
                at = start + len(before)
                barred = _barred_by_prev(plan, variant[at - 1 : at])
                for index in plan.by_run_length[end - start]:
                    if plan.digit_led_regexes[index].match(variant, at) is not None:
                        assert index not in barred, (plan.digit_led[index].name, variant[max(0, at - 20) : at + 20])
                        kept += 1
    assert kept >= 1000


def test_run_prev_drops_rules_that_cannot_follow_the_character_before() -> None:
    plan = build_plan(tuple(digit_led_patterns()))
    names = {plan.digit_led[i].name for i in _rules_to_try(plan, 1, " Mai", "x")}
    assert "location.street_address" not in names
    assert "location.street_address" in {plan.digit_led[i].name for i in _rules_to_try(plan, 1, " Mai", " ")}
    assert "location.street_address" in {plan.digit_led[i].name for i in _rules_to_try(plan, 1, " Mai", "")}


def test_run_window_drops_rules_whose_next_text_cannot_follow() -> None:
    plan = build_plan(tuple(digit_led_patterns()))
    names = {plan.digit_led[i].name for i in _rules_to_try(plan, 2, " mg ")}
    assert "age.years_old" not in names and "date.day_month_year" not in names
    assert "age.years_old" in {plan.digit_led[i].name for i in _rules_to_try(plan, 2, " yo ")}


@pytest.mark.parametrize(
    ("run_next", "ok"),
    [
        (r"[ \t]{0,2}[yY]", True),
        (r"[/.-]\d{1,2}[/.-]\d", True),
        (r"[^\w.,/:-]|\Z", True),
        (r"\bmg", False),  # \b at a window's end can be false in the whole text
        (r"(?=[a-z])", False),
        (r"(?<!x)y", False),
        (r"/19\d\d", False),  # windows key every digit as 0
    ],
)
def test_run_next_is_checked_when_the_plan_is_built(run_next: str, ok: bool) -> None:
    pattern = Pattern("test.rule", Label.DATE, r"\d{2}(?=/)", hints=ScanHints(digit_run=(2, 2), run_next=run_next))
    if ok:
        assert build_plan((pattern,)).digit_led == (pattern,)
    else:
        with pytest.raises(ValueError, match="run_next"):
            build_plan((pattern,))


def _anchored_patterns() -> list[Pattern]:
    return [p for p in all_patterns() if anchors_of(p)]


# Texts where anchors of one rule overlap, nest, follow one another or sit at the ends of the text: the
# anchored fast path must find exactly what an (overlapped) full regex scan of each rule finds.
_ANCHOR_TEXTS = (
    "Seen by Smith saint patrick's day",
    "on saint patrick's day.",
    "SMITH SAINT PATRICK'S DAY",
    "xmas eve christmas eve, new year's eve new years day",
    "good friday\tgood friday",
    "Dr. Adams and Dr. Baker",
    "dr adams dr baker dr",
    "DR ADAMS DR. BAKER, MD",
    "wife Mary and son John called; spoke with daughter Ann",
    "per Dr. Lee, Dr.Lee aware, NP Jen aware",
    "Mr. and Mrs. Hope visited",
    "Jan 3, Feb 4th, March 2005 and the 3rd of June",
    "monday's tuesday wednesdays",
    "transferred to Quillfield Hospital from Bramble General Hospital",
    "lives in Trenton, moved to Dover",
    "Room 12 bed 3 rm 4, bay 2",
    "pager 83554 fax: 617-555-0100 phone 410-322-1419 beeper#12",
    "MRN: 1234567 mrn 7654321 ssn 123-45-6789 social security 123-45-6789",
    "aged 82, age 45, ages 3 and 4",
    "zip 21201 zipcode 21202 box 12",
    "www.example.org http://a.b.com",
    "summer 2004 fall 2005 winter",
    "University of Maryland univ. of Iowa u of m",
    "in 1992 since 1990 s/p CABG in 2004",
)


def _anchor_texts() -> list[str]:
    texts = [*_ANCHOR_TEXTS, SAMPLE]
    return texts + [t.upper() for t in texts] + [t.lower() for t in texts] + [t.replace(" ", "\t") for t in texts]


@pytest.mark.parametrize("pattern", _anchored_patterns(), ids=lambda p: p.name)
def test_anchored_fast_path_of_each_rule_equals_a_full_scan(pattern: Pattern) -> None:
    plan = build_plan((pattern,))
    for text in _anchor_texts():
        fast = sorted({(h.start, h.end, h.label) for _, h in _anchored_hits(plan, text)})
        slow = sorted({(h.start, h.end, h.label) for h in find_hits(pattern, text)})
        assert fast == slow, (pattern.name, text)


def test_anchored_fast_path_of_all_rules_equals_a_full_scan() -> None:
    plan = combined_pattern_detector().plan
    for text in _anchor_texts():
        fast = sorted({(p.name, h.start, h.end) for p, h in _anchored_hits(plan, text)})
        slow = sorted({(p.name, h.start, h.end) for p in plan.anchored for h in find_hits(p, text)})
        assert fast == slow, text


# What follows the anchors of the rules: blanks and tabs, words in each case, the punctuation the rules look for
# after their trigger, digits, non-ASCII letters (one that folds to an ASCII letter), a newline and the text's end.
_FOLLOW_PIECES = (
    " ", " ", "  ", "\t", "\n", "Quorvane", "quorvane", "QUORVANE", "Tobiah", "the ", "The ", "a ", "an ", "45 ",
    "93", "yo ", "y/o", "(", ")", "(Quorvane)", ":", ": ", ",", ", ", ".", "'s", "'", "\"", "-", "/", "#", "\u017f",
    "\u212a", "É", "é", "\u00a0", "is ", "was ", "and ", "husband", "wife", "name is ", "Street", "Road", "from ",
    "aware", "RN", "MD", "son", "daughter", "to ", "at ", "on ", "pt", "Pt", "PT", "patient", "Patient", "team",
    "renal", "contact", "Dr.", "dr", "family", "Ave", "x1234", "e-mail", "@", "born", "age", "aged", "in", "moved",
)  # fmt: skip


def _follow_texts() -> list[str]:
    """The texts of every rule table of these tests (where the rules match), and random texts of anchors and what
    rules expect after them."""
    from . import (
        test_ages,
        test_checked_ids,
        test_contact,
        test_dates,
        test_fields,
        test_ids,
        test_locations,
        test_names,
        test_postcodes,
        test_professions,
        test_usernames,
    )

    tables = (
        test_ages, test_checked_ids, test_contact, test_dates, test_fields, test_ids, test_locations, test_names,
        test_postcodes, test_professions, test_usernames,
    )  # fmt: skip
    texts = [
        row[0]
        for module in tables
        for value in vars(module).values()
        if isinstance(value, list)
        for row in value
        if isinstance(row, tuple) and row and isinstance(row[0], str)
    ]
    rng = random.Random(17)
    anchors = sorted({a for p in combined_pattern_detector().plan.anchored for a in anchors_of(p)})
    for _ in range(4000):
        pieces = [rng.choice(anchors) if rng.random() < 0.4 else rng.choice(_FOLLOW_PIECES) for _ in range(8)]
        texts.append("".join(pieces))
    return texts


def test_follow_checks_never_skip_a_rule_where_its_regex_matches() -> None:
    """Where a rule's regex matches at an anchor, the character after the anchor and its blanks is one that its
    follow set lists (or is no ASCII character), on texts of anchors and what rules expect after them."""
    plan = combined_pattern_detector().plan
    checked: dict[str, int] = {}
    for text in _follow_texts():
        lower = text.lower()
        if len(lower) != len(text):
            continue
        for start, end, steps in anchor_starts(plan, lower):
            after = first_visible(text, end)
            for step in steps:
                if step.follow is None or step.compiled.match(text, start) is None:
                    continue
                checked[step.pattern.name] = checked.get(step.pattern.name, 0) + 1
                assert after in step.follow or not after.isascii(), (step.pattern.name, text, start)
    # The texts hold matches of most rules with a follow set, so that a set that leaves out a character is seen.
    with_follow = {step.pattern.name for _, (_, _, steps) in plan.automaton.items() for step in steps if step.follow}
    assert len(checked) >= 0.6 * len(with_follow), sorted(with_follow - set(checked))


def test_follow_checks_skip_most_tries_of_rules_that_need_something_else_next() -> None:
    """The patient rules need a name, a bracket or a colon after "pt"; a plain "pt is" tries none of them."""
    plan = combined_pattern_detector().plan
    text = "pt is comfortable. Pt (Quorvane) ok"
    tried = {
        (start, step.pattern.name)
        for start, end, steps in anchor_starts(plan, text.lower())
        for step in steps
        if step.follow is None or first_visible(text, end) in step.follow
    }
    assert not any(start == 0 and name.startswith("name.patient") for start, name in tried)
    assert (19, "name.patient_parenthesised") in tried


@pytest.mark.parametrize(
    ("text", "end", "expected"),
    [
        ("pt is", 2, "i"),
        ("pt\t \tX", 2, "X"),
        ("pt", 2, ""),
        ("pt   ", 2, ""),
        ("pt        :", 2, ":"),  # past the first four characters
        ("pt\nX", 2, "\n"),  # a newline is no blank
        ("pt\u00a0X", 2, "\u00a0"),
    ],
)
def test_first_visible(text: str, end: int, expected: str) -> None:
    assert first_visible(text, end) == expected


def test_window_fits_worked_out_from_prefixes_equal_the_direct_ones() -> None:
    """The incremental (prefix-filtered) choice of ``run_next`` regexes equals trying every regex on the window."""
    plan = dataclasses.replace(combined_pattern_detector().plan, fits_by_shape={}, to_try={})
    rng = random.Random(7)
    alphabet = "0 \t\n/.-,:'%#()xyYsSmgJanoft+"
    windows = {"".join(rng.choices(alphabet, k=rng.randint(0, RUN_WINDOW))) for _ in range(3000)}
    windows |= {piece[:RUN_WINDOW] for piece in DIGIT_PIECES}
    fitting = 0
    for window in sorted(windows):
        shape = window.translate(str.maketrans("123456789", "000000000"))
        direct = _fitting_nexts(plan, shape)
        assert _fits_of_shape(plan, shape) == direct, window
        fitting += bool(direct)
    assert fitting > 100


def _fresh_plan() -> ScanPlan:
    return dataclasses.replace(
        combined_pattern_detector().plan,
        fits_by_shape={},
        to_try={},
        to_try_by_shape={},
        candidates={},
        barred_by_prev={},
    )


def test_rules_settled_by_window_prefixes_equal_the_direct_choice() -> None:
    """The rules to try at a run, settled prefix by prefix of the window's shape and remembered by shape, are those
    that the run's length and the character before it allow and whose ``run_next`` fits the whole window."""
    plan = _fresh_plan()
    rng = random.Random(17)
    alphabet = "0123456789 \t\n/.-,:'%#()xyYsSmgJanoft+"
    windows = sorted({"".join(rng.choices(alphabet, k=rng.randint(0, RUN_WINDOW))) for _ in range(3000)})
    windows += [piece[:RUN_WINDOW] for piece in DIGIT_PIECES]
    befores = ["", " ", "x", "5", "/", "-", "(", "\n", "#", ":", "$", "é"]
    tried = 0
    for window in windows:
        before = rng.choice(befores)
        length = rng.randint(1, len(plan.by_run_length) - 1)
        fits = _fitting_nexts(plan, window.translate(str.maketrans("123456789", "000000000")))
        barred = _barred_by_prev(plan, before)
        direct = tuple(
            i
            for i in plan.by_run_length[length]
            if i not in barred and (plan.next_of[i] < 0 or plan.next_of[i] in fits)
        )
        assert _rules_to_try(plan, length, window, before) == direct, (length, before, window)
        assert _rules_to_try(plan, length, window, before) == direct  # remembered
        tried += bool(direct)
    assert tried > 500


@pytest.mark.parametrize(
    ("length", "window", "other", "before"),
    [
        (2, "/12/", "/39/", ""),
        (2, "/12/", "/39/", " "),
        (3, " 555", " 123", "("),
        (3, "-123", "-900", " "),
        (4, ".1.2", ".9.0", " "),
        (1, " yo ", " yo ", "x"),
    ],
)
def test_windows_that_differ_in_digits_only_share_their_rules(
    length: int, window: str, other: str, before: str
) -> None:
    plan = _fresh_plan()
    first = _rules_to_try(plan, length, window, before)
    assert len(plan.to_try_by_shape) == 1
    assert _rules_to_try(plan, length, other, before) == first
    assert len(plan.to_try_by_shape) == 1


@pytest.mark.parametrize(
    "text",
    [
        "beeper number 83554 today",
        "fax no 617-555-0100.",
        "wife called by phone, then seen by Dr. Adams",
        "christmas eve at home",
        "nurse practitioner Jane Adams aware",
        "PAGER BEEPER NUMBER 83554",
    ],
)
def test_rule_reached_from_two_anchors_at_one_start_is_tried_once(text: str) -> None:
    """A rule whose anchors include a phrase and its first word ("beeper", "beeper number") is reached twice at
    one start; the scan remembers such starts, so each hit comes once, as in the full scan."""
    plan = combined_pattern_detector().plan
    fast = [(p.name, h.start, h.end) for p, h in _anchored_hits(plan, text)]
    assert fast, text
    assert len(fast) == len(set(fast)), fast
    assert set(fast) == {(p.name, h.start, h.end) for p in plan.anchored for h in find_hits(p, text)}


_STARTED_PIECES = (
    "+1 800 555 1234", "1-800-555-1234", "11 (617) 555 0100", "1.617.555.0100", "+1 (617)555-0100 ext 1",
    " - 555 123 4567",
    "1/617/555/0100", "x1", "21", "111", ".1 ", "+", "++1", "a1", "1", "11", " ", "\t", "-", ".", "/", "(", ")", "555",
    "0100", "617", "\u0661", "\u0661\u0661 800 555 1234", "\n", "ext", "x", "10 ml", "1 800", " 555-1234",
)  # fmt: skip


def _started_texts() -> list[str]:
    rng = random.Random(11)
    texts = ["+1 800 555 1234 ext 1 - 555 123 4567", "call 1 800 555 1234 or +1 617 555 0100.", *digit_texts()]
    texts += random_texts(rng, _STARTED_PIECES, 3000, 1, 14)
    return texts


def test_rules_tried_at_their_starts_find_what_finditer_finds() -> None:
    """A rule tried only at its ``run_starts`` digit runs and ``char_starts`` characters gives ``finditer``'s
    matches: the starts it declares are every place where it can match."""
    plan = combined_pattern_detector().plan
    started = [
        (p, c)
        for p, c in zip(plan.scanned, plan.scanned_regexes, strict=True)
        if p.hints.run_starts or p.hints.char_starts
    ]
    assert started and plan.digit_runs is not None
    found = 0
    for text in _started_texts():
        runs: list[tuple[int, str]] = []
        list(digit_run_matches(plan, text, runs))
        for pattern, compiled in started:
            fast = [m.span() for m in started_matches(pattern, compiled, text, runs)]
            assert fast == [m.span() for m in compiled.finditer(text)], (pattern.name, text)
            found += len(fast)
    assert found > 100


def test_run_starts_must_be_digit_runs_the_scan_reports() -> None:
    with pytest.raises(ValueError, match="run_starts"):
        build_plan((Pattern("test.plus", Label.PHONE, r"\+\d", hints=ScanHints(run_starts=("+",))),))
    # Without a digit-led rule there is no digit-run scan: the rule is scanned in full and still found.
    started = Pattern("test.one", Label.PHONE, r"(?<!\d)1-\d{3}", hints=ScanHints(run_starts=("1",)))
    assert build_plan((started,)).digit_runs is None
    assert [(s.start, s.end) for s in detect_with("test", (started,), "call 1-800 or 21-800")] == [(5, 10)]


_TAIL_PIECES = (
    "1HGCM82633A004352", "1HGCM82633A004353", "JH4KA7561PC008269", "11111111111111111", "1111111111111111",
    "111111111111111111", "ABCDEFGHJKLMN1234", "abcdefghjklmn1234", "IOQ", "_", "-", " ", "\n", "1", "1234", "12345",
    "A", "Z", "x", "é", "\u0661\u0662\u0663\u0664", ".", "VIN:", "#",
)  # fmt: skip


def _tail_texts() -> list[str]:
    rng = random.Random(13)
    texts = ["VIN 1HGCM82633A004352.", "vin:1HGCM82633A004352 and JH4KA7561PC008269", *digit_texts()[:200]]
    texts += random_texts(rng, _TAIL_PIECES, 3000, 1, 8)
    return texts


def test_rules_tried_at_run_tails_find_what_finditer_finds() -> None:
    """A rule tried only at the last digits of the runs (``run_tail``) gives ``finditer``'s matches."""
    plan = combined_pattern_detector().plan
    tailed = [(p, c) for p, c in zip(plan.scanned, plan.scanned_regexes, strict=True) if p.hints.run_tail]
    assert [p.name for p, _ in tailed] == ["id.vin"] and plan.shortest_tail_run == 4
    found = 0
    for text in _tail_texts():
        runs: list[tuple[int, int]] = []
        list(digit_run_matches(plan, text, None, runs))
        for pattern, compiled in tailed:
            fast = [m.span() for m in tail_matches(pattern, compiled, text, runs)]
            assert fast == [m.span() for m in compiled.finditer(text)], (pattern.name, text)
            found += len(fast)
    assert found > 100


_REQUIRED_CHAR_TEXTS = (
    "mail john.doe@example.com now", "acct # 1234567", "call +44 20 7946 0958", "call (617) 555-0100 x12",
    "CABG '92", "host fe80::1 and 2001:db8::ff00:42:8329", "lives in Austin, TX 78701", "on (02) 9876 5432",
    "Rosa K. wrote", "stable.\n- rich rn", "-- Joy (hhumphrey)", "grew up in Quelbury, MN and",
    "Verified by J.Q. on 3/5", "QUORVANE, TOBIAH\nNPN 7P-7A", SAMPLE,
)  # fmt: skip


def test_rules_skipped_without_their_required_char_match_only_where_it_is() -> None:
    """A scanned rule with ``required_char`` is skipped for texts without that character: every match holds it,
    and the detectors find the same with and without the shortcut."""
    plan = combined_pattern_detector().plan
    required = {p.name: c for p, c in zip(plan.scanned, plan.scanned_required, strict=True) if c}
    rules = [p for p in plan.scanned if p.name in required]
    assert set(required.values()) >= {"@", "#", "+", "(", "'", ":", ","}
    texts = [*_REQUIRED_CHAR_TEXTS, *digit_texts()[:300], *_started_texts()[:500]]
    for pattern in rules:
        matches = [(t, m) for t in texts for m in pattern.compiled.finditer(t)]
        assert matches, pattern.name
        assert all(required[pattern.name] in m[0] for _, m in matches), pattern.name
    for detector in pattern_detectors():
        assert isinstance(detector, PatternDetector)
        plain = tuple(with_hints(p, required_char="") for p in detector.patterns)
        for text in _REQUIRED_CHAR_TEXTS:
            assert detect_with(detector.name, detector.patterns, text) == detect_with(detector.name, plain, text)


_STREET_PIECES = (
    "19", "4", "12345", "123456", "B", " ", "  ", "\t", "\n", ",", ".", "'", "-", "N.", "S", "Main", "Clover", "Oak",
    "St", "st", "ST", "Street", "street's", "Ave.", "AVE", "Rd", "Dr", "drive", "way", "Close", "mg", "of", "x" * 26,
    "St.Paul", "Court", "Apt 4", "#", "é", "Stone", "5th", "q", "Ct", "sq", "Road,", "Lane-", "ln", "Flats", "FORD",
    "junction,", "Suite 7", "23rd", "1ST", "NW ", "se ", "46th",
)  # fmt: skip
# (No "ſ" or Kelvin sign: the case-insensitive rule matches them as s and k where its case-sensitive ``run_next``
# does not, a known gap of the run-window prefilter that this test is not about.)


def test_run_checks_never_drop_a_match() -> None:
    """A rule's ``run_check`` is false only where its regex finds no match at the run (the street shape here)."""
    checked = [p for p in digit_led_patterns() if p.hints.run_check is not None]
    assert [p.name for p in checked] == [
        "phone.national",
        "location.street_address",
        "location.street_address_usps",
        "location.street_joined_type",
    ]
    rng = random.Random(29)
    texts = [*digit_texts()[:300], *NATIONAL_PHONE_TEXTS]
    texts += random_texts(rng, _STREET_PIECES, 3000, 2, 16)
    # Address shapes, with a random piece put anywhere: near misses of every part of the regex.
    for _ in range(3000):
        parts = [rng.choice(("19", "4", "1234", "12345")), rng.choice(("", "B", "b")), rng.choice((" ", "  ", "\t"))]
        parts += [rng.choice(("", "N. ", "S ", "e. "))]
        parts += [
            w + rng.choice((" ", "  ", "\t"))
            for w in rng.choices(("Main", "Clover", "old", "x" * 25), k=rng.randint(1, 5))
        ]
        parts += [
            rng.choice(("St", "street", "AVE.", "Dr", "stone", "Close", "WAY", "Flats", "JUNCTION", "ford")),
            rng.choice(("", ".", ",", "'s", "x", " Apt 4", "\n", ", MA", " Suite 7\n")),
        ]
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(_STREET_PIECES))
        texts.append("".join(parts))
    # Grid addresses ("4417 NW 23rd Ave", "55 W 46th St"), with a random piece put anywhere.
    for _ in range(1000):
        parts = [
            rng.choice(("55", "4417")),
            " ",
            rng.choice(("", "NW ", "w ", "SE. ")),
            rng.choice(("23rd", "4TH", "1st")),
        ]
        parts += [
            rng.choice((" ", "\t")),
            rng.choice(("Ave", "ST", "st", "Street", "Flats", "mg")),
            rng.choice(("", ",", "\n")),
        ]
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(_STREET_PIECES))
        texts.append("".join(parts))
    texts += random_texts(rng, _NATIONAL_PIECES, 1500, 2, 9)  # near misses of nationally written numbers
    # Streets with a joined type before the number ("Quorvanestraße 5", "Berliner Straße 12"), near misses too.
    for _ in range(3000):
        parts = [
            rng.choice(("Quorvane", "Berliner ", "x", "", "QUORVANE", "Kerk")),
            rng.choice(
                ("straße", "Straße", "strasse", "ſtraße", "str.", "weg", "Allee", "straat", "gatan", "vej", "ade")
            ),
            rng.choice((" ", "  ", "\t", "   ", "", " \t")),
            rng.choice(("5", "12B", "1234", "12345", "7.5", "3-4", "9 mg")),
        ]
        parts.insert(rng.randrange(len(parts) + 1), rng.choice((" ", ".", "x", "", "\n", "(")))
        texts.append("".join(parts))
    for pattern in checked:
        plan = build_plan((pattern,))
        matched = 0
        for text in texts:
            slow = [m.span() for m in pattern.compiled.finditer(text)]
            assert [m.span() for _, m in digit_run_matches(plan, text)] == slow, text
            matched += bool(slow)
        assert matched >= 100, pattern.name


_NATIONAL_PIECES = (
    "0", "020", "07700", "0412", "01", "7946", "0958", "900", "123", "345", "678", " ", "  ", "-", "\t", "x", "(", ")",
    ".", "/", "+", "12", "5", "mg", "020 7946 0958", "0412 345 678", "07700900123", "(02) 9876 5432",
)  # fmt: skip


_GATE_PIECES = (
    "www", ".", "Example", "COM", "com", "Org", ".net", ".EDU", ".gov", ".mil", ".Info", ".biz", ".io", ".US", ".uk",
    ".ca", ".De", "/path", "?q=1", " ", "\n", "@", "-", "x", "ſ", ".co", ".comm", "https://", "e.g.", "Dr.", "(", ")",
    "J", "e", "Z.", "  ", "\t", "Yi", "MILLER", "o'brien", "&", "'", "/", "_",
    # addresses written out: "jo [at] example [dot] com", "jo at example dot com"
    "jo", " at ", "[at]", " (AT) ", "<at>", " dot ", "[dot]", " DOT ", "{dot}", "[ at ]", "(\tat)",
    # addresses under a country's domain with a path: "bit.ly/3xQzK9", "quorvane.me/blog"
    "bit", ".ly/", "3xQzK9", ".ME/", "blog", ".app/", "q.am/pm",
    # MAC addresses: "00:1A:2B:3C:4D:5E", "00-1a-2b-3c-4d-5e"
    "00:1A:2B:", "3C:4D:5E", "00-1a-", "2b-3c-4d-5e", "ff", ":", "-",
    # coordinates: "42.3601, -71.0589", "42°21′36″N 71°03′34″W"
    "42.3601", "-71.0589", ", ", "°", "21′", "36″", "N", "W", "0.1276", "7.5",
    # extensions: "ext. 1234", "x12-3456", "Extension #12345"
    "ext.", "Extension", "EXT", "#", "X", "1234", "12-3456", "98765",
)  # fmt: skip


def test_lower_gates_never_skip_a_text_with_a_match() -> None:
    """A scanned rule's ``lower_gate`` finds something in the lower-cased text wherever the rule matches (ASCII)."""
    gated = [p for p in all_patterns() if p.hints.lower_gate]
    assert sorted(p.name for p in gated) == [
        "email.spelled_out",
        "id.mac_address",
        "location.coordinates",
        "name.initial_surname",
        "phone.extension",
        "url.domain",
        "url.domain_path",
    ]
    rng = random.Random(31)
    texts = [*_REQUIRED_CHAR_TEXTS, "see WWW.EXAMPLE.ORG/Path and foo.Co.UK."]
    # the spelled-out forms whose only "dot" is bracketed (few random joins of the pieces spell them)
    texts += ["mail jo at example(dot)com", "jo at example [DOT] org", "jo{dot}q [at] x.com", "jo (at) mail(dot)co.uk"]
    # extensions, each way of writing one
    texts += ["call 555-0100 ext. 1234", "x12-3456", "Extension #12345", "EXT-4567", "(X1234)", "ext  # 98765"]
    texts.append("ext.1-2345")
    texts += random_texts(rng, _GATE_PIECES, 4000, 1, 10)
    # Initials before a surname ("per J. Yi"), with a random piece put anywhere.
    for _ in range(2000):
        parts = [rng.choice(("per ", "\n", "", "x", "(", "-")), rng.choice("JjZzEeLq"), "."]
        parts.append(rng.choice((" ", "  ", "\t")))
        parts.append(rng.choice(("Yi", "MILLER", "welsh", "O'Brien", "Stord-Painter", "x" * 27)))
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(_GATE_PIECES))
        texts.append("".join(parts))
    matched = 0
    for pattern in gated:
        gate = compile_source(pattern.hints.lower_gate, False)
        for text in texts:
            if pattern.compiled.search(text) is not None and text.isascii():
                assert gate.search(text.lower()) is not None, text
                matched += 1
    assert matched > 600
    for detector in pattern_detectors():
        assert isinstance(detector, PatternDetector)
        plain = tuple(with_hints(p, lower_gate="") for p in detector.patterns)
        for text in texts[:500]:
            assert detect_with(detector.name, detector.patterns, text) == detect_with(detector.name, plain, text)


@pytest.mark.parametrize(
    ("source", "same"),
    [
        (r"\.(?:c(?:om|a)|org|net)", True),
        (r"\.(?<=(?<![\w.'/&+^-])[a-z]\.)[ \t]{1,2}[a-z]", True),
        (r"\d{3}\b-\D\W", True),
        (r"a\\s", True),  # an escaped backslash, then a plain s
        (r"[ \t]\Z", True),
        (r"\s", False),
        (r"x\S", False),
        (r"a\\\s", False),
        (r"\p{L}", False),
        (r"\h", False),
        (r"(?<=a|bc)x", False),  # variable-width lookbehind: regex only
        (r"[[:alpha:]]", False),
        (r"(?r)ab", False),
        (r"(?|a|b)", False),
    ],
)
def test_same_in_re(source: str, same: bool) -> None:
    assert same_in_re(source) is same


def test_plan_rejects_a_gate_that_re_reads_otherwise() -> None:
    gated = Pattern("test.gated", Label.URL, r"x\.com", hints=ScanHints(lower_gate=r"\s\.com"))
    with pytest.raises(ValueError, match="lower_gate"):
        build_plan((gated,))


def test_gates_compiled_with_re_find_what_regex_finds() -> None:
    gated = [p for p in all_patterns() if p.hints.lower_gate]
    assert gated
    rng = random.Random(41)
    texts = [t.lower() for t in random_texts(rng, _GATE_PIECES, 4000, 1, 10) if t.isascii()]
    # Initials: a character, a letter (or not), a full stop, blanks and a letter (or not).
    before = [chr(c) for c in range(128)]
    texts += [
        "".join(
            (
                rng.choice(before),
                rng.choice("ab1_."),
                ".",
                rng.choice((" ", "  ", "\t", " \t", "   ")),
                rng.choice("ab1 "),
            )
        )
        for _ in range(4000)
    ]
    texts += ["".join(rng.choices([chr(c) for c in range(128)], k=rng.randint(0, 12))) for _ in range(4000)]
    # Extensions: a word or "x", a separator, blanks, a hash, digits and hyphens (or not).
    texts += [
        "".join(
            (
                rng.choice(("ext", "x", "extension", "tx", "e")),
                rng.choice(("", ".", "-", ":")),
                rng.choice(("", " ", "\t", "   ")),
                rng.choice(("", "#")),
                "".join(rng.choices("0123456789-", k=rng.randint(0, 7))),
            )
        )
        for _ in range(1000)
    ]
    for pattern in gated:
        fast, slow = gate_regex(pattern), compile_source(pattern.hints.lower_gate, False)
        found = 0
        for text in texts:
            match, expected = fast.search(text), slow.search(text)
            assert (match and match.span()) == (expected and expected.span()), text
            found += match is not None
        assert found > 100, pattern.name


def test_repeating_pairs_are_rules_reached_by_a_key_and_by_one_of_its_prefixes() -> None:
    rng = random.Random(5)
    for _ in range(200):
        keys = {
            "".join(rng.choice("ab ") for _ in range(rng.randint(1, 5))): tuple(rng.sample(range(6), rng.randint(1, 3)))
            for _ in range(rng.randint(1, 12))
        }
        direct = {
            pair
            for key, indices in keys.items()
            for shorter, shorter_indices in keys.items()
            if len(shorter) < len(key) and key.startswith(shorter)
            for index in set(indices) & set(shorter_indices)
            for pair in ((key, index), (shorter, index))
        }
        assert _repeating(keys) == direct, keys


def test_anchor_steps_are_built_once_per_rule_repeat_flag_and_follow() -> None:
    """The automaton's many keys (spellings times delimiters) share one step per (rule, may_repeat, follow)."""
    plan = combined_pattern_detector().plan
    assert plan.automaton is not None
    steps = {id(step): step for _, (_, _, key_steps) in plan.automaton.items() for step in key_steps}
    assert len(steps) == len({(step.index, step.may_repeat, step.follow) for step in steps.values()})
    assert all(step.pattern is plan.anchored[step.index] for step in steps.values())
