"""LOCATION patterns: ZIP codes, street addresses, US states in context, cities before a state, rooms and beds."""

from __future__ import annotations

from functools import lru_cache

import regex
import us

from deident.core.labels import Label
from deident.detect.patterns.base import Hit, Pattern, PatternDetector, anchor_words, compile_source, rx, words
from deident.detect.patterns.names import STOP_WORDS, _case_mode, _zipf

STREET_SUFFIXES = words(
    "street", "st", "avenue", "ave", "av", "road", "rd", "boulevard", "blvd", "drive", "dr", "lane", "ln", "way",
    "court", "ct", "place", "pl", "terrace", "ter", "parkway", "pkwy", "highway", "hwy", "circle", "cir", "square",
    "sq", "trail", "trl", "route", "rte", "pike", "turnpike", "tpke", "alley", "plaza", "crescent", "close",
)  # fmt: skip
# Two-letter codes that are also common clinical abbreviations or words (MD, PA, OR, IN, ME, DE, CO, ...):
# as a state they need a ZIP code after them.
AMBIGUOUS_STATE_CODES = frozenset(
    "MD PA OR IN ME DE CO MA MS NE OH OK HI ID LA MO AL AR CT GA IA MN MT NC NH NV SC SD TN UT VA VT WA WI WV GU AS MP"
    " PR VI DC".split()
)
LIVES_IN_WORDS = ("lives", "living", "live", "resides", "residing", "vacationing", "raised", "born", "grew up")
_NOT_PLACE_WORDS = frozenset("area shelter community bed town city state country facility apartment house".split())
_CLINICAL_SUFFIXES = frozenset({"ct", "sq", "st", "dr", "pl", "ter", "cir", "av", "ave", "way", "close", "court"})
_NOT_STREET_WORDS = STOP_WORDS | frozenset(
    "mg mcg ml cc units unit tabs tab x q po iv prn given gtt drip hours hrs min mins days times doses liters".split()
)


@lru_cache(maxsize=1)
def _state_names() -> str:
    return words(*(s.name for s in us.states.STATES_AND_TERRITORIES), "District of Columbia")


@lru_cache(maxsize=1)
def _state_anchors() -> tuple[str, ...]:
    return anchor_words(*(s.name for s in us.states.STATES_AND_TERRITORIES), "District")


@lru_cache(maxsize=1)
def _state_codes(include_ambiguous: bool) -> str:
    codes = [s.abbr for s in us.states.STATES_AND_TERRITORIES] + ["DC"]
    if not include_ambiguous:
        codes = [c for c in codes if c not in AMBIGUOUS_STATE_CODES]
    return "(?:" + "|".join(sorted(set(codes))) + ")"


def _state_zip(text: str, m: regex.Match[str]) -> list[Hit]:
    source = r"(?r)\b(?P<st>" + _state_codes(True) + "|" + _state_names() + r")\.?,?[ \t]{1,2}\Z"
    state = compile_source(source, False).search(text, max(0, m.start() - 30), m.start())
    if state is None:
        return []
    return [Hit(state.start("st"), state.end("st"), Label.STATE), Hit(m.start(), m.end(), Label.ZIP)]


_CAP_WORD = r"[A-Z][A-Za-z'\-]{1,24}"


def _city_state(text: str, m: regex.Match[str]) -> list[Hit]:
    # Without a ZIP code, "Soft, ND" or "CABG, MI" are clinical abbreviations: require a title-case city.
    title_case_only = not m.groupdict().get("z")
    source = r"(?r)(?<![\w'])(?P<c>" + _CAP_WORD + r"(?:[ \t]" + _CAP_WORD + r"){0,2})\Z"
    city = compile_source(source, False).search(text, max(0, m.start() - 80), m.start())
    if city is None or any(w.lower() in STOP_WORDS for w in city["c"].split()):
        return []
    if title_case_only and any(w.isupper() for w in city["c"].split()):
        return []
    hits = [Hit(city.start("c"), city.end("c"), Label.CITY), Hit(m.start("st"), m.end("st"), Label.STATE)]
    if m.groupdict().get("z"):
        hits.append(Hit(m.start("z"), m.end("z"), Label.ZIP))
    return hits


def _street(text: str, m: regex.Match[str]) -> list[Hit]:
    name_words = m["w"].split()
    if any(w.lower().strip(".,") in _NOT_STREET_WORDS or w.endswith(".") for w in name_words):
        return []
    if not any(ch.isalpha() for ch in m["w"]) or rx(r"\d{1,5}[ \t]{0,2}(?:u|h|x)\b").match(m[0]):
        return []
    suffix = rx(r"(?r)[A-Za-z]{1,12}\.?\Z").search(m[0])
    if (
        suffix
        and suffix[0].lower().rstrip(".") in _CLINICAL_SUFFIXES
        and not all(w[:1].isupper() and not w.isupper() for w in name_words)
    ):
        return []  # "2 mediastinal CT", "6u reg insulin SQ", "2 HR ST": street suffixes that are clinical words
    return [Hit(m.start(), m.end())]


def _po_box(text: str, m: regex.Match[str]) -> list[Hit]:
    head = rx(r"(?r)\b(?:p\.?[ \t]?o\.?|post[ \t]office)[ \t]{0,2}\Z").search(text, max(0, m.start() - 20), m.start())
    return [] if head is None else [Hit(head.start(), m.end())]


def _place_after_trigger(text: str, m: regex.Match[str]) -> list[Hit]:
    kept_end = -1
    mode = _case_mode(text, m.start("c"))
    for tok in rx(r"[A-Za-z][A-Za-z.'\-]{0,30}").finditer(m["c"]):
        word = tok[0].rstrip(".")
        if word.lower() in STOP_WORDS or word.lower() in _NOT_PLACE_WORDS:
            break
        # A place name is capitalised in mixed-case text and is not a common word anywhere.
        if mode == "mixed" and not word[0].isupper():
            break
        # A common word continues a capitalised place name ("Daytona Beach") but does not start one.
        if _zipf(word.lower()) >= (5.5 if kept_end >= 0 and mode == "mixed" else 4.5):
            break
        kept_end = m.start("c") + tok.end()
    if kept_end < 0:
        return []
    end = kept_end - 1 if text[kept_end - 1] == "." else kept_end
    return [Hit(m.start("c"), end)]


@lru_cache(maxsize=1)
def location_patterns() -> tuple[Pattern, ...]:
    return (
        Pattern(
            "location.state_zip",
            Label.ZIP,
            # Searched from the ZIP's digits (fast); the validator looks back for the state.
            r"\d(?<![\w-]\d)\d{4}(?:-\d{4})?(?![\w]|-\d)",
            0.95,
            _state_zip,
            ignore_case=False,
        ),
        Pattern(
            "location.zip_trigger",
            Label.ZIP,
            r"\b(?:zip|zip code|zipcode|postal code)[ \t]{0,2}[:#]?[ \t]{0,2}(?P<z>\d{5}(?:-\d{4})?)\b",
            0.95,
            None,
            group="z",
            anchors=("zip", "zipcode", "postal"),
        ),
        Pattern(
            "location.city_state",
            Label.CITY,
            # Searched from ", ST" (a literal comma first); the validator looks back for the city.
            r",[ \t]{1,2}(?P<st>" + _state_codes(False) + r")\b(?:[ \t]{1,2}(?P<z>\d{5}(?:-\d{4})?)\b)?",
            0.8,
            _city_state,
            ignore_case=False,
        ),
        Pattern("location.state_name", Label.STATE, r"\b" + _state_names() + r"\b", 0.6, anchors=_state_anchors()),
        Pattern(
            "location.street_address",
            Label.STREET,
            r"\d(?<![\w./-]\d)\d{0,4}[A-Za-z]?[ \t]{1,2}(?:[NSEW]\.?[ \t]{1,2})?(?P<w>[A-Za-z][A-Za-z'.\-]{0,24}"
            r"(?:[ \t]{1,2}[A-Za-z][A-Za-z'.\-]{0,24}){0,3})[ \t]{1,2}" + STREET_SUFFIXES + r"\b\.?"
            r"(?:,?[ \t]{0,2}(?:apt|apartment|unit|suite|ste|#)\.?[ \t]{0,2}#?[ \t]{0,2}[A-Za-z0-9-]{1,6}\b)?",
            0.8,
            _street,
        ),
        Pattern(
            "location.po_box",
            Label.STREET,
            r"\bbox[ \t]{0,2}#?[ \t]{0,2}\d{1,6}\b",
            0.9,
            _po_box,
            anchors=("box",),
        ),
        Pattern(
            "location.room_bed",
            Label.ROOM,
            r"\b(?:room|rm|bed|bay|cubicle|isolette)\.?[ \t]{0,2}(?:#|no\.?|number)?[ \t]{0,2}:?[ \t]{0,2}"
            r"(?P<r>\d{1,4}[A-Za-z]?|[A-Za-z]-?\d{1,4})(?![\w]|[./-]\d)",
            0.8,
            None,
            group="r",
            anchors=("room", "rm", "bed", "bay", "cubicle", "isolette"),
        ),
        Pattern(
            "location.lives_in",
            Label.CITY,
            r"\b" + words(*LIVES_IN_WORDS) + r"[ \t]{1,2}(?:in|at|near|to)[ \t]{1,2}(?P<c>[A-Za-z][A-Za-z.'\-]{1,24}"
            r"(?:[ \t]{1,2}[A-Za-z][A-Za-z.'\-]{1,24}){0,2})",
            0.6,
            _place_after_trigger,
            anchors=anchor_words(*LIVES_IN_WORDS),
        ),
    )


def location_detector() -> PatternDetector:
    return PatternDetector("patterns.location", location_patterns())
