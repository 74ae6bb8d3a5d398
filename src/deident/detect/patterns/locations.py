"""LOCATION patterns: ZIP codes, street addresses, US states in context, cities before a state, rooms and beds (UK and
Canadian postcodes and flat or unit addresses in :mod:`deident.detect.patterns.postcodes`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import regex
import us

from deident.core.labels import Label
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.names import (
    FAMILY,
    IRREGULAR_PASTS,
    STOP_WORDS,
    SUBJECT_VERBS,
    VERB_FORMS,
    clinical_terms,
    is_service_word,
    is_verb_form,
)
from deident.detect.patterns.postcodes import postcode_patterns
from deident.detect.patterns.regions import US_STATE_CODES, US_STATE_NAMES
from deident.detect.patterns.rules import (
    Hit,
    Pattern,
    ScanHints,
    compile_source,
    rx,
    search_before,
    unit_follows,
    word_after,
    words,
)
from deident.text.case import window_case
from deident.text.wordfrequency import FUNCTION_WORD_ZIPF
from deident.text.wordfrequency import zipf as _zipf

STREET_SUFFIX_WORDS = (
    "street", "st", "avenue", "ave", "av", "road", "rd", "boulevard", "blvd", "drive", "dr", "lane", "ln", "way",
    "court", "ct", "place", "pl", "terrace", "ter", "parkway", "pkwy", "highway", "hwy", "circle", "cir", "square",
    "sq", "trail", "trl", "route", "rte", "pike", "turnpike", "tpke", "alley", "plaza", "crescent", "close",
)  # fmt: skip
STREET_SUFFIXES = words(*STREET_SUFFIX_WORDS)
# Two-letter codes that are also common clinical abbreviations or words (MD, PA, OR, IN, ME, DE, CO, ...):
# as a state they need a ZIP code after them.
AMBIGUOUS_STATE_CODES = frozenset(
    "MD PA OR IN ME DE CO MA MS NE OH OK HI ID LA MO AL AR CT GA IA MN MT NC NH NV SC SD TN UT VA VT WA WI WV GU AS MP"
    " PR VI DC".split()
)
# Words after which an employer is named: "works for Verizon", "employed at vista health".
EMPLOYER_TRIGGER_WORDS = (
    "works for", "works at", "working for", "working at", "worked for", "worked at", "employed by", "employed at",
    "employed with", "retired from",
)  # fmt: skip
LIVES_IN_WORDS = ("lives", "living", "live", "resides", "residing", "vacationing", "raised", "born", "grew up")
# Up to three words after a trigger, as group "c", which :func:`_name_after_trigger` cuts to the place or employer.
# Up to three words, an ampersand between two of them too ("works for Brantisk & Sons").
_NAMED_AFTER = r"(?P<c>[A-Za-z][A-Za-z.'\-]{1,24}(?:[ \t]{1,2}(?:&[ \t]{1,2})?[A-Za-z][A-Za-z.'\-]{1,24}){0,2})"
# The words that open location.home_of's phrases (its scan anchors).
_HOME_OF_ANCHORS = ("resident", "native", "originally", "trip", "visiting", "home", "fly", "flying", "flew", "flown",
                    "drive", "driving", "drove", "driven")  # fmt: skip
# Nouns a number after a motion word counts or ranks, where no ward is named: "sent to level 2", "back to day 3".
_ORDINAL_NOUNS = frozenset(
    """
    level levels stage stages grade grades step steps phase phases class type types day days week weeks month months
    year years hour hours minute minutes number numbers page pages line lines group groups round rounds dose doses bag
    bags time times max min maximum minimum visit visits sleep size sizes count score scores rate rates total chapter
    part parts cycle cycles session sessions set sets zone zones position positions point points place seat tier
    """.split()
)
_NOT_PLACE_WORDS = frozenset("area shelter community bed town city state country facility apartment house".split())
# Times of day and meals, which "at" names as it names a site: "SEEN AT MIDNIGHT", "DONE AT BEDTIME", "CAME AT DAWN".
_TIME_OF_DAY_WORDS = frozenset(
    "midnight midday noon bedtime nighttime daytime dawn dusk sunrise sunset breakfast lunch dinner supper mealtime"
    " mealtimes brunch teatime".split()
)
_CLINICAL_SUFFIXES = frozenset({"ct", "sq", "st", "dr", "pl", "ter", "cir", "av", "ave", "way", "close", "court"})
_NOT_STREET_WORDS = STOP_WORDS | frozenset(
    "mg mcg ml cc units unit tabs tab x q po iv prn given gtt drip hours hrs min mins days times doses liters".split()
)


@lru_cache(maxsize=1)
def _state_names() -> str:
    return words(*US_STATE_NAMES)


@lru_cache(maxsize=1)
def _state_codes(include_ambiguous: bool) -> str:
    codes = list(US_STATE_CODES)
    if not include_ambiguous:
        codes = [c for c in codes if c not in AMBIGUOUS_STATE_CODES]
    return "(?:" + "|".join(sorted(set(codes))) + ")"


def _unambiguous_code_anchors() -> tuple[str, ...]:
    """The unambiguous state codes in small letters: the anchors of the rules found from such a code."""
    return tuple(sorted({c.lower() for c in US_STATE_CODES if c not in AMBIGUOUS_STATE_CODES}))


def _state_zip(text: str, m: regex.Match[str]) -> list[Hit]:
    # In any case ("GEORGIA, 01626", "lansing, il  52696"), but a lower-case code that is also a word or a clinical
    # abbreviation ("or 20000", "in 12345") is none.
    source = r"(?r)\b(?P<st>" + _state_codes(True) + "|" + _state_names() + r")\.?,?[ \t]{1,2}\Z"
    state = compile_source(source, True).search(text, max(0, m.start() - 30), m.start())
    if state is None:
        return []
    written = state["st"]
    if len(written) == 2 and not written.isupper() and written.upper() in AMBIGUOUS_STATE_CODES:
        # ... unless an address's commas set it off, a town before it: "fairland, md, 94449", "quelbury, va, 20689".
        town = search_before(_TOWN_COMMA_BEFORE, text, state.start("st"), 30)
        if text[state.end("st") : state.end("st") + 1] != "," or town is None or _no_city_word(town["t"]):
            return []
    hits = [Hit(state.start("st"), state.end("st"), Label.STATE), Hit(m.start(), m.end(), Label.ZIP)]
    city = _city_before(text, state.start("st"))
    return hits if city is None else [city, *hits]


# A town's last word and its comma before a state's code written in small letters.
_TOWN_COMMA_BEFORE = r"(?r)(?<![\w'])(?P<t>[a-z][a-z'\-]{2,24}),[ \t]{1,2}\Z"
_CAP_WORD = r"[A-Z][A-Za-z'\-]{1,24}"
# What stands between a city and the state code after it: perhaps a comma, then one or two blanks.
_CITY_STATE_GLUE = r"(?r),?[ \t]{1,2}\Z"


def _no_city_word(word: str) -> bool:
    """A function word, clinical term or word under three letters ("HR", "IV"): no part of a city's name."""
    lower = word.lower()
    return lower in STOP_WORDS or lower in clinical_terms() or len(word) < 3


def _city_before(text: str, state_start: int) -> Hit | None:
    """The city of "Kicifield MO 97720" and "Kicifield, MO 97720": up to three capitalised words right before a state
    and ZIP code, none a function word or clinical term (the street before it ends at its comma), within 60
    characters of the state."""
    glue = compile_source(_CITY_STATE_GLUE, False).search(text, max(0, state_start - 3), state_start)
    if glue is None:
        return None
    city = _city_just_before(text, glue.start(), 60 - (state_start - glue.start()))
    return None if city is None else Hit(city[0], glue.start(), Label.CITY)


def _town_words(words: list[str]) -> list[str] | None:
    """A capitalised run's words without the function words that open it ("Lives in Kicifield"); None where none is
    left or one inside is no word of a town's name (a function word or clinical term; the short heads of towns'
    names, "St Louis", "El Paso", "La Jolla", are words of it)."""
    while words and _no_town_word(words[0]):
        words = words[1:]
    return None if not words or any(map(_no_town_word, words)) else words


def _city_of_service(text: str, m: regex.Match[str]) -> list[Hit]:
    """The town before its public service ("Quelbury EMS", "Brantisk Fire Dept"): as before a state and ZIP code, and
    each word a listed place or no common word ("Called EMS", "Via Ambulance" name no town)."""
    city = _city_before(text, m.start())
    if city is None:
        return []
    return [city] if _names_a_place(text[city.start : city.end].split()) else []


@lru_cache(maxsize=1)
def _place_words() -> frozenset[str]:
    from deident.detect.lexicon.data import load_lexicon

    return frozenset(load_lexicon("cities")) | frozenset(load_lexicon("us_counties"))


# Words that open many towns' names and are common words alone ("New Haven", "Fort Worth", "San Marcos").
_PLACE_NAME_HEADS = frozenset(
    "new north south east west fort ft port saint st lake mount mt el los las san santa la le de del des du".split()
)


def _names_a_place(words: Sequence[str]) -> bool:
    """Whether capitalised words may be a town's name: the whole a listed place, or each word a listed place, a
    place-name head or no common word (Zipf < 3), and not heads alone ("Abd Soft", "Called", "New" are not)."""
    lowered = [w.lower() for w in words]
    places = _place_words()
    if " ".join(lowered) in places:
        return True
    heads = [w in _PLACE_NAME_HEADS for w in lowered]
    return not all(heads) and all(h or w in places or _zipf(w) < 3.0 for w, h in zip(lowered, heads, strict=True))


# Up to three capitalised words ending right where a ", ST" starts.
_CITY_JUST_BEFORE = r"(?r)(?<![\w'])(?P<c>" + _CAP_WORD + r"(?:[ \t]" + _CAP_WORD + r"){0,2})\Z"


def _city_just_before(text: str, end: int, width: int = 80) -> tuple[int, list[str]] | None:
    """(start, words) of the capitalised words right before ``end`` (within ``width`` characters), without the
    function words that open them ("From Quelbury, TX": "Quelbury"); None where none is left or one is a function word
    or clinical term."""
    city = compile_source(_CITY_JUST_BEFORE, False).search(text, max(0, end - width), end)
    if city is None:
        return None
    words = _town_words(city["c"].split())
    return None if words is None else (end - len(" ".join(words)), words)


def _no_town_word(word: str) -> bool:
    """:func:`_no_city_word`, but for the short heads of towns' names ("St Louis", "El Paso", "La Jolla")."""
    return _no_city_word(word) and word.lower().rstrip(".") not in _PLACE_NAME_HEADS


def _city_state(text: str, m: regex.Match[str]) -> list[Hit]:
    # Without a ZIP code, "Soft, ND" or "CABG, MI" are clinical abbreviations: require a title-case town's name.
    title_case_only = not m.groupdict().get("z")
    city = _city_just_before(text, m.start())
    if city is None:
        return []
    start, words = city
    if title_case_only and (any(w.isupper() for w in words) or not _names_a_place(words)):
        return []
    hits = [Hit(start, m.start(), Label.CITY), Hit(m.start("st"), m.end("st"), Label.STATE)]
    if m.groupdict().get("z"):
        hits.append(Hit(m.start("z"), m.end("z"), Label.ZIP))
    return hits


# A state code that is also a clinical or common abbreviation ("MD", "MS", "PA", "IN") after "in/from City,": only where
# the sentence goes on as after a place ("Grew up in Quelbury, WI; graduated", "moved from Quelbury, AL to live", "we
# live in Quelbury, NH near the lake", "a good neuro in Quelbury, NH?").
_PLACE_CLAUSE_END = (
    r"(?=[ \t]{0,2}(?:[;.,)?!]|\n|\Z)"
    r"|[ \t]{1,2}(?i:and|to|in|for|with|where|until|since|but|when|after|before|near|area)\b)"
)
_PLACE_PREPOSITION = r"(?r)\b(?:in|from|to|near|outside|of)[ \t]{1,2}\Z"


def _city_ambiguous_state(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "lives in Quelbury, MN and", "Moved from Quelbury, AL to": a city after a place preposition (see
    :func:`_town_after_preposition`), then an ambiguous state code. "in Pain, MD aware" and "to Floor, PA to see" name
    no place."""
    town = _town_after_preposition(text, m.start())
    if town is None:
        return []
    return [Hit(town, m.start(), Label.CITY), Hit(m.start("st"), m.end("st"), Label.STATE)]


# A one-word town, a comma and its state's name after a place preposition: "saw him in klistilton, mississippi".
_TOWN_BEFORE_STATE_NAME = (
    r"(?r)\b(?:in|from|near|outside|of)[ \t]{1,2}(?P<c>[A-Za-z][A-Za-z'\-]{1,24})[ \t]{0,2},[ \t]{0,2}\Z"
)


def _state_name(text: str, m: regex.Match[str]) -> list[Hit]:
    """A state's name, and the town before it where one word, a comma, follows a place preposition: "in klistilton,
    mississippi", "from Quelbury, Texas" (in any case: a forum's lower case too). The word names a place as a town's
    words do (:func:`_names_a_place`: a listed place or no common word), capitalised where the text has case; "in
    pain, texas" or "of rehab, georgia" name no town."""
    state = Hit(m.start(), m.end(), Label.STATE)
    town = search_before(_TOWN_BEFORE_STATE_NAME, text, m.start(), 40)
    if town is None:
        return [state]
    word = town["c"]
    lower = word.lower()
    if lower in STOP_WORDS or lower in clinical_terms() or not _names_a_place([word]):
        return [state]
    if window_case(text, town.start("c")) == "mixed" and not word[0].isupper():
        return [state]
    return [Hit(town.start("c"), town.end("c"), Label.CITY), state]


# State codes that are also a laboratory's symbol in a note ("Ca" for calcium).
_LAB_SYMBOL_CODES = frozenset({"ca"})


def _city_unpunctuated_state(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "saw her in Quelbury KS for this", "moved from Quelbury NJ to Ohio": a town and a state code with no comma
    between them, after a place preposition (see :func:`_town_after_preposition`); only codes that are no clinical
    abbreviation (not "MD", "PA", "MS"; see AMBIGUOUS_STATE_CODES). In text with case, the code right after the
    preposition is the state alone ("anyone know a good neuro in NY?", "moved here from NJ."), but a clinical
    abbreviation or a laboratory's symbol ("changes in MI", "increase in CA")."""
    town = _town_after_preposition(text, m.start() - 1)
    if town is None:
        code = m[0].lower()
        if code in clinical_terms() or code in _LAB_SYMBOL_CODES or window_case(text, m.start()) != "mixed":
            return []  # "changes in MI", "s/p TX", "increase in CA" (calcium)
        return [Hit(m.start(), m.end(), Label.STATE)] if search_before(_PLACE_PREPOSITION, text, m.start(), 12) else []
    return [Hit(town, m.start() - 1, Label.CITY), Hit(m.start(), m.end(), Label.STATE)]


# The ambiguous codes that a town and its comma may stand before in small letters ("from quelbury, ma"); not "in" and
# "or", the commonest words of all, whose every use the rule would try.
_COMMA_AMBIGUOUS_CODES = tuple(sorted(c.lower() for c in AMBIGUOUS_STATE_CODES - {"IN", "OR"}))


def _rare_town_lowercase_state(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "saw her in leakymford nj for this", "pt is from quelbury, ma": in text written in small letters, a state's code
    after one word that no dictionary knows, which a place preposition opens: the town and its state. An ambiguous
    code ("ma", "me", "de") only after the town's comma."""
    if window_case(text, m.start()) != "lower" or m[0] in clinical_terms():
        return []
    town = search_before(r"(?r)(?<![\w'-])(?P<c>[a-z]{4,24})(?P<comma>,?)[ \t]\Z", text, m.start(), 30)
    if town is None or search_before(_PLACE_PREPOSITION, text, town.start("c"), 12) is None:
        return []
    if not town["comma"] and m[0] in _COMMA_AMBIGUOUS_CODES:
        return []
    word = town["c"]
    if _zipf(word) >= 2.0 or word in clinical_terms() or word in STOP_WORDS:
        return []
    return [Hit(town.start("c"), town.end("c"), Label.CITY), Hit(m.start(), m.end(), Label.STATE)]


# Not "NH" and "VA", also a nursing home's and the veterans' hospital's abbreviations after a care site's name ("from
# Brantisk NH", "the Brantisk VA"), which location.abbreviated_care_site reads.
_UNPUNCTUATED_AMBIGUOUS_CODES = tuple(sorted(AMBIGUOUS_STATE_CODES - {"NH", "VA"}))


def _city_unpunctuated_ambiguous_state(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "lives in Louisville CO and", "from Newnan GA with": an ambiguous state code (AMBIGUOUS_STATE_CODES) right after
    a town that a place preposition opens (:func:`_town_after_preposition`), whose words are no clinical or service
    words: "seen in Cardiology OR today", "in Pain MD aware" name no place."""
    town = _town_after_preposition(text, m.start() - 1)
    if town is None or any(w.lower() in clinical_terms() for w in text[town : m.start()].split()):
        return []
    return [Hit(town, m.start() - 1, Label.CITY), Hit(m.start(), m.end(), Label.STATE)]


def _town_after_preposition(text: str, end: int) -> int | None:
    """The start of the town's name that ends at ``end``: capitalised words right before it, after a place
    preposition ("in", "from", "near"), each a listed place or no common word; in capitals only a listed place's whole
    name ("FROM SAN ANTONIO TX WITH", "LIVES IN RIPON CA AND"; not "IN PAIN MD AWARE")."""
    if text[end - 1 : end].isupper():  # a town in capitals ends in one
        listed = search_before(_LISTED_TOWN_AFTER_PREPOSITION, text, end, 60)
        if listed is not None and listed["c"].isupper() and listed["c"].lower() in _place_words():
            return listed.start("c")
    city = _city_just_before(text, end)
    if city is None:
        return None
    start, words = city
    if search_before(_PLACE_PREPOSITION, text, start, 12) is None or any(w.isupper() for w in words):
        return None
    return start if _names_a_place(words) else None


# A town in capitals right after its place preposition, up to the state code: "FROM SAN ANTONIO", "IN RIPON".
_LISTED_TOWN_AFTER_PREPOSITION = (
    r"(?r)\b(?:in|from|to|near|outside|of)[ \t]{1,2}(?P<c>[A-Z][A-Z'\-]{1,24}(?:[ \t][A-Z][A-Z'\-]{1,24}){0,2})\Z"
)


def _has_non_street_word(name_words: list[str]) -> bool:
    """A function or clinical word, or an abbreviation with a full stop, among a street's name words."""
    return any(w.lower().strip(".,") in _NOT_STREET_WORDS or w.endswith(".") for w in name_words)


# The town written after a street address and a comma ("6066 Tygrask St, Makiard, 59369", "12 Oak St, Quelbury" at the
# line's end): one to three words that close the address's part, a comma, a semicolon, the line's end, a postcode, a
# ZIP code or a state's code after them. Capitalised words in mixed-case text, capitals in one-case text.
_TOWN_AFTER_STREET = regex.compile(
    r",[ \t]{1,2}(?P<t>(?P<cap>[A-Z][a-z][A-Za-z'\-]{0,23}(?:[ \t][A-Z][a-z][A-Za-z'\-]{0,23}){0,2})"
    r"|[A-Z][A-Z'\-]{2,24}(?:[ \t][A-Z][A-Z'\-]{2,24}){0,2})"
    r"(?=[ \t]{0,2}(?:[,;\n]|\Z|\d|[A-Z]{1,2}\d|[A-Z]{2}(?![\w'])))"
)
_TOWN_WORD = regex.compile(r"\S+")  # the town's words are joined by single blanks or tabs
_NOT_TOWN_WORDS = frozenset("apt apartment unit suite ste flat floor room rm building bldg block tel phone fax".split())


def _town_after_street(text: str, end: int) -> list[Hit]:
    """The town after a street address that ends at ``end`` (see _TOWN_AFTER_STREET), as a CITY hit; none where a word
    is a function, unit, note or clinical word, or, in one-case text, a common word that is no listed city."""
    found = _TOWN_AFTER_STREET.match(text, end)
    if found is None:
        return []
    one_case = found["cap"] is None
    if one_case and window_case(text, found.start("t")) == "mixed":
        return []  # capitals in mixed-case text are an acronym's
    words = list(_TOWN_WORD.finditer(text, found.start("t"), found.end("t")))
    lowers = [word[0].lower() for word in words]
    states = _states_and_countries()
    for i in range(1, len(words)):  # the town ends where a state's or country's name begins ("Margate Florida")
        if lowers[i] in states or " ".join(lowers[i : i + 2]) in states:
            words, lowers = words[:i], lowers[:i]
            break
    for lower in lowers:
        if lower in STOP_WORDS or lower in _NOT_PLACE_WORDS or lower in _NOT_TOWN_WORDS or lower in clinical_terms():
            return []
        if one_case and _zipf(lower) >= 4.5 and not listed_city(lower):
            return []
    return [Hit(words[0].start(), words[-1].end(), Label.CITY)]


def _street(text: str, m: regex.Match[str]) -> list[Hit]:
    name_words = m["w"].split()
    if _has_non_street_word(name_words):
        return []
    if not any(ch.isalpha() for ch in m["w"]) or rx(r"\d{1,5}[ \t]{0,2}(?:u|h|x)\b").match(m[0]):
        return []
    suffix = rx(r"(?r)[A-Za-z]{1,12}\.?\Z").search(m[0])
    if (
        suffix
        and suffix[0].lower().rstrip(".") in _CLINICAL_SUFFIXES
        and not all(_capitalised(w) or (w[:1].isdigit() and _capitalised(suffix[0])) for w in name_words)
    ):
        return []  # "2 mediastinal CT", "6u reg insulin SQ", "2 HR ST": street suffixes that are clinical words
    return [Hit(m.start(), m.end()), *_town_after_street(text, m.end())]


def _capitalised(word: str) -> bool:
    return word[:1].isupper() and not word.isupper()


# The street rule's words part (letters, ' . - and blanks) reaches its suffix within this many characters of the
# house number's end: a letter, two blanks, "N. " and four words of 25 characters with their blanks, then the suffix.
_STREET_REACH = 1 + 2 + 4 + 4 * 25 + 4 * 2 + max(map(len, STREET_SUFFIX_WORDS))
_STREET_SUFFIX_BYTES = frozenset(w.encode("ascii") for w in STREET_SUFFIX_WORDS)
# Lower-cases letters, keeps digits (an ordinal street name: "23rd"), makes ' . - blanks (a suffix ends at them: \b)
# and every character that the words part cannot hold a newline (the words part ends before it).
_STREET_TABLE = bytes(
    c + 32 if 65 <= c <= 90 else c if 97 <= c <= 122 or 48 <= c <= 57 or c in b" \t" else 32 if c in b"'.-" else 10
    for c in range(256)
)


def _suffix_may_follow(text: str, end: int, reach: int, suffixes: frozenset[bytes]) -> bool:
    """False only where no street suffix of ``suffixes`` stands as a word among the letters, blanks and ' . - that
    follow ``end`` within ``reach`` characters (in ASCII text). Far cheaper than a street regex, which fails at most
    digit runs ("5 mg of", "2 L NC")."""
    segment = text[end : end + reach]
    if not segment.isascii():
        return True  # (non-ASCII letters may case-fold to ASCII ones in the regex: leave it to the regex)
    folded = segment.encode("ascii").translate(_STREET_TABLE)
    cut = folded.find(b"\n")
    return not suffixes.isdisjoint((folded if cut < 0 else folded[:cut]).split())


def _street_may_start(text: str, start: int, end: int) -> bool:
    """False only where location.street_address cannot match at the digit run [start, end)."""
    return _suffix_may_follow(text, end, _STREET_REACH, _STREET_SUFFIX_BYTES)


@lru_cache(maxsize=1)
def _usps_suffix_bytes() -> frozenset[bytes]:
    return frozenset(w.encode("ascii") for w in usps_suffix_words())


# The USPS rule's words part: a letter, two blanks, "N. ", three words of 25 characters with their blanks, the suffix.
_USPS_REACH = 1 + 2 + 4 + 3 * 25 + 3 * 2 + 12


def _usps_street_may_start(text: str, start: int, end: int) -> bool:
    """False only where location.street_address_usps cannot match at the digit run [start, end)."""
    return _suffix_may_follow(text, end, _USPS_REACH, _usps_suffix_bytes())


@lru_cache(maxsize=1)
def usps_suffix_words() -> tuple[str, ...]:
    """The USPS street suffixes (faker's en_US list: "Flats", "Junction", "Motorway") beyond STREET_SUFFIX_WORDS."""
    from faker.providers.address.en_US import Provider

    return tuple(sorted({w.lower() for w in Provider.street_suffixes} - set(STREET_SUFFIX_WORDS)))


_UNIT = r"(?:,?[ \t]{0,2}(?P<unit>apt|apartment|unit|suite|ste|#)\.?[ \t]{0,2}#?[ \t]{0,2}[A-Za-z0-9-]{1,6}\b)"
# The house number both street rules start with ("12", "12B", "12 N."), what follows it for the digit-run dispatch, and
# the characters that may follow its digits.
_HOUSE_NUMBER = r"\d(?<![\w./-]\d)\d{0,4}[A-Za-z]?[ \t]{1,2}(?:(?:[NS][EW]|[NSEW])\.?[ \t]{1,2})?"
_HOUSE_NUMBER_FRENCH = r"\d(?<![\w./-]\d)\d{0,4},?[ \t]{1,2}"
_HOUSE_NUMBER_NEXT = r"[A-Za-z]?[ \t]{1,2}(?:(?i:[NS][EW]|[NSEW])\.?[ \t]{1,2})?"  # case-blind, as the rules are
# A street's first name word: a word, or an ordinal ("55 W 46th St", "4417 NW 23rd Ave").
_STREET_FIRST_WORD = r"(?:[A-Za-z][A-Za-z'.\-]{0,24}|\d{1,3}(?i:st|nd|rd|th))"
_HOUSE_NUMBER_FOLLOWERS = " \tABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ZIP_AHEAD = regex.compile(r"[^\n]{0,60}\n?[^\n]{0,60}?\b\d{5}(?:-\d{4})?\b")


# Addresses of continental Europe write the house number after the street's name (the Universal Postal Union's
# address formats): the type first ("Via Roma 10", "Calle Mayor 15", "Rua Augusta 274", "Rue de la Loi 16",
# "ul. Marszałkowska 10"), or a type joined to the name's end ("Hauptstraße 5", "Kerkstraat 12", "Storgatan 3"). The
# types written first are the scan's anchors, so ASCII only ("Allée" and "Praça" are left out).
_TYPE_FIRST_STREET_TYPES = (
    "Rue", "Avenue", "Boulevard", "Chemin", "Quai", "Impasse", "Via", "Viale", "Piazza", "Piazzale", "Corso", "Vicolo",
    "Calle", "Avenida", "Plaza", "Paseo", "Carrer", "Passeig", "Rambla", "Camino", "Carretera", "Rua", "Travessa",
    "Ulica", "ul.",
)  # fmt: skip
# The particles between a type and a name ("de la", "della", "d'", "dos").
_STREET_PARTICLE = (
    r"(?:(?:de|del|della|delle|dello|dei|degli|di|da|das|do|dos|des|du|la|las|los|le|les|el)[ \t]{1,2}|[dl]['’])"
)
_STREET_NAME_WORD = r"\p{Lu}[\p{Ll}'’\-]{1,24}"
_TYPE_FIRST_STREET = (
    r"(?<![\w.])(?P<t>" + words(*_TYPE_FIRST_STREET_TYPES) + r")[ \t]{1,2}"
    + r"(?P<w>" + _STREET_PARTICLE + r"{0,2}" + _STREET_NAME_WORD
    + r"(?:[ \t]" + _STREET_PARTICLE + r"{0,2}" + _STREET_NAME_WORD + r"){0,3}),?[ \t]{1,2}"
    + r"(?P<n>\d{1,4}[a-zA-Z]?)(?![\w]|[.,/-]\d)"
)  # fmt: skip
# The street types written as a name's last part: German, Dutch, Scandinavian, Finnish; or German's as a word after
# an adjective ("Berliner Straße 12").
_JOINED_STREET_TYPES = (
    "straße", "strasse", "str.", "weg", "allee", "platz", "gasse", "damm", "ufer", "steig", "chaussee", "straat",
    "laan", "gracht", "plein", "singel", "kade", "dijk", "gatan", "vägen", "gränd", "torget", "vej", "veien", "katu",
)  # fmt: skip
_LONGEST_JOINED_TYPE = max(map(len, _JOINED_STREET_TYPES))
# Found from the house number (a digit-led rule: a scan of every note for the types cost 0.03 s over physionet-dev),
# the name and type before it in the lookbehind.
_JOINED_STREET = (
    r"\d(?<=(?<![\w.])(?P<w>\p{Lu}\p{Ll}{2,30}(?:[ \t](?=\p{Lu})|(?=\p{Ll}))(?P<sfx>(?i:"
    + words(*_JOINED_STREET_TYPES)
    + r")))[ \t]{1,2}\d)\d{0,3}[a-zA-Z]?(?![\w]|[.,/-]\d)"
)


def _joined_type_before(text: str, start: int, end: int) -> bool:
    """Whether one or two blanks and a joined street type stand right before the digit run (the run_check of
    location.street_joined_type)."""
    blanks = start
    while blanks > 0 and start - blanks < 3 and text[blanks - 1] in " \t":
        blanks -= 1
    if not 1 <= start - blanks <= 2:
        return False
    # casefold, as the rule's case-blind type matches "ſ" for "s" too; "ß" folds to "ss" ("strasse" is listed)
    return text[max(0, blanks - _LONGEST_JOINED_TYPE) : blanks].casefold().endswith(_JOINED_STREET_TYPES)


def _type_first_street(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "Via Roma 10", "Rue de la Loi 16": no clinical or function word among the name's words ("Via Foley 16 Fr"), no
    unit after the number ("Via PEG 30 ml" is a route and a dose)."""
    name_words = [w for w in m["w"].split() if w[:1].isupper()]
    if _has_non_street_word(name_words) or unit_follows(text, m.end("n")):
        return []
    if any(w.lower() in clinical_terms() for w in name_words):
        return []
    return [Hit(m.start(), m.end())]


def _joined_street(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "Hauptstraße 5", "Kerkstraat 12", "Berliner Straße 12": a word no English dictionary knows well (not
    "Blockade 2"), no unit after the number."""
    whole = m["w"].split()[-1]
    if len(whole) - len(m["sfx"]) < 3 and " " not in m["w"]:
        return []  # the type alone, or one or two letters before it ("Agata 3")
    if _zipf(whole.lower()) >= 3.0 or unit_follows(text, m.end()):
        return []
    return [Hit(m.start("w"), m.end())]


def _usps_street(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "8642 Jennifer Flats, Dakota Ridge", "435 JERRY JUNCTION APT. 150": most USPS suffixes are also words
    ("2 mechanical falls", "3 more runs"), so the address must look like one: in mixed-case text every word is
    capitalised; in one-case text a unit ("Apt. 150") or a ZIP code follows."""
    name_words = m["w"].split()
    if _has_non_street_word(name_words):
        return []
    if window_case(text, m.start()) == "mixed":
        if not all(map(_capitalised, (*name_words, m["sfx"]))):
            return []
    elif not m["unit"] and not _ZIP_AHEAD.match(text, m.end()):
        return []
    return [Hit(m.start(), m.end()), *_town_after_street(text, m.end())]


def _po_box(text: str, m: regex.Match[str]) -> list[Hit]:
    head = search_before(r"(?r)\b(?:p\.?[ \t]?o\.?|post[ \t]office)[ \t]{0,2}\Z", text, m.start(), 20)
    return [] if head is None else [Hit(head.start(), m.end())]


# Common words that continue an organisation's name once it has begun: "vista health", "Acme Systems".
ORGANIZATION_WORDS = frozenset(
    "health healthcare systems system bank insurance group services partners associates foundation company "
    "corporation industries labs laboratories solutions hospital college university school".split()
)


def _place_after_trigger(text: str, m: regex.Match[str]) -> list[Hit]:
    return _name_after_trigger(text, m, frozenset(), listed_places=True)


def _place_not_care_site(text: str, m: regex.Match[str]) -> list[Hit]:
    """A place after a trigger, unless its first word is a care site or unit ("son from rehab", "wife from the ICU"), or
    a state or country, which Safe Harbor leaves ("daughter from Calif.", "son here from England-extensive ...")."""
    first = m["c"].split()[0].rstrip(".,")
    if _clinical_place(first) or first.split("-")[0].lower() in _states_and_countries():
        return []
    return _place_after_trigger(text, m)


# Below this word frequency a word of one-case text is no English word a move could reach ("moved to painful stimuli").
_RARE_WORD_ZIPF = 3.0


def _place_moved_to(text: str, m: regex.Match[str]) -> list[Hit]:
    """:func:`_place_not_care_site` after a move ("moved to Quelbury", "in from quelbury"); in one-case text, where no
    capital marks a name, each word must be a listed city or a rare word ("MOVED TO PAINFUL STIMULI" is a response)."""
    hits = _place_not_care_site(text, m)
    if not hits or window_case(text, m.start("c")) == "mixed":
        return hits
    place_words = text[hits[0].start : hits[0].end].lower().split()
    rare = all(_zipf(word) < _RARE_WORD_ZIPF or listed_city(word) for word in place_words)
    return hits if rare else []


def _person_from(text: str, m: regex.Match[str]) -> list[Hit]:
    """:func:`_place_moved_to` of the place a patient comes from, unless a care site's kind follows its name ("Pt from
    Brantisk NH", "pt from Quelbury Rehab": the site's name, which the care-site rules take with their own label)."""
    hits = _place_moved_to(text, m)
    if not hits:
        return []
    words = [w.strip(".,").lower() for w in text[hits[0].start : hits[-1].end].split()[1:]]
    after = word_after(text, hits[-1].end)  # a department may follow ("Pt from SJH ED"), not a site's kind
    if any(_care_site_kind(w) or _generic_place_word(w) for w in words) or (after and _care_site_kind(after)):
        return []
    return hits


def _care_site_kind(lower: str) -> bool:
    return lower.upper() in CARE_SITE_ABBREVIATIONS or lower in FACILITY_TYPE_WORDS


def listed_city(lower: str) -> bool:
    """Whether a lower-cased word is a city of the cities lexicon ("orange", "reading", "mobile")."""
    from deident.detect.lexicon.data import load_lexicon

    return lower in load_lexicon("cities")


def _listed_city_alone(word: str, text: str, end: int) -> bool:
    """A listed city's name that no word other than a function word or a verb follows: "lives in Orange with wife",
    "son from Reading called", not "lives in mobile home" (a common word goes on into a common phrase)."""
    if not listed_city(word.lower()):
        return False
    after = word_after(text, end)
    return after is None or after in VERB_FORMS or _zipf(after) >= FUNCTION_WORD_ZIPF


@lru_cache(maxsize=1)
def _states_and_countries() -> frozenset[str]:
    """Lower-case names of countries and US states, and the states' AP abbreviations without the full stop ("calif")."""
    from deident.detect.lexicon.data import load_states_and_countries

    abbreviations = {state.ap_abbr.rstrip(".").lower() for state in us.states.STATES_AND_TERRITORIES if state.ap_abbr}
    return frozenset(load_states_and_countries()) | abbreviations


def _employer_after_trigger(text: str, m: regex.Match[str]) -> list[Hit]:
    return _name_after_trigger(text, m, ORGANIZATION_WORDS)


def _name_after_trigger(
    text: str, m: regex.Match[str], continuing: frozenset[str], listed_places: bool = False
) -> list[Hit]:
    """The place or organisation words at the start of group "c"; ``continuing`` words may follow the first. With
    ``listed_places``, a listed city that is also a common word opens the name where it stands alone ("lives in
    Orange", "LIVES IN READING WITH WIFE"; not "LIVES IN MOBILE HOME")."""
    kept_end = -1
    mode = window_case(text, m.start("c"))
    for tok in rx(r"[A-Za-z][A-Za-z.'\-]{0,30}").finditer(m["c"]):
        word = tok[0].rstrip(".")
        # After an ampersand any word continues an organisation's name, cased as names are here: "Brantisk & Sons",
        # "Quorvane & Co." (a place's does not: "lives in Brantisk & works nights").
        joined = bool(continuing) and kept_end >= 0 and "&" in text[kept_end : m.start("c") + tok.start()]
        if joined and (mode != "mixed" or word[0].isupper()):
            kept_end = m.start("c") + tok.end()
            continue
        if word.lower() in STOP_WORDS or word.lower() in _NOT_PLACE_WORDS:
            break
        # A place name is capitalised in mixed-case text and is not a common word anywhere.
        if mode == "mixed" and not word[0].isupper():
            break
        if kept_end >= 0 and word.lower() in clinical_terms():
            break  # a dose's frequency or a unit after the place: "in from Quelbury TID", "QUELBURY HD #4"
        # A common word continues a capitalised place name ("Daytona Beach") but does not start one.
        if kept_end >= 0 and word.lower() in continuing:
            kept_end = m.start("c") + tok.end()
            continue
        if _zipf(word.lower()) >= (5.5 if kept_end >= 0 and mode == "mixed" else 4.5) and not (
            listed_places and kept_end < 0 and _listed_city_alone(word, text, m.start("c") + tok.end())
        ):
            break
        kept_end = m.start("c") + tok.end()
        if tok[0].endswith(".") and len(word) > 2:
            break  # a full stop after a word ends the sentence ("moved to Santa Clara. Started"); "St." goes on
    if kept_end < 0:
        return []
    end = kept_end - 1 if text[kept_end - 1] == "." else kept_end
    return [Hit(m.start("c"), end)]


# Words after which a care site is named: "admitted to X", "transfer from X", "followed at X", "bed @ X".
# Verbs need a preposition after them ("admit WBCs" is no transfer); phrases already end with one.
MOTION_VERBS = (
    "admitted", "admit", "adm", "readmitted", "transferred", "transfer", "transfered", "trans", "xfer", "tx", "sent",
    "taken", "brought", "flighted", "med-flighted", "medflighted", "medflight", "airlifted", "referred", "followed",
    "go", "goes", "going", "went", "came", "come", "arrived", "arrival", "presented", "presents", "enroute",
)  # fmt: skip
MOTION_PHRASES = (
    "received from", "recieved from", "surgeon from", "bed @", "bed at", "came into", "en route to",
    # the discharge planning of a rehabilitation or nursing facility: "screened by Youville", "accepted at Spaulding"
    "screened by", "rescreened by", "re-screened by", "accepted at", "accepted to", "accepted by",
)  # fmt: skip
MOTION_VERB = (
    words(*MOTION_VERBS)
    + r"(?![\w-])[ \t]{1,2}(?:(?:back|over|here|directly|today|tomorrow|tonight|now|soon|later)[ \t]{1,2})?"
    r"(?:in[ \t]{1,2}transfer[ \t]{1,2})?"
    # the means of the move: "transferred via ambulance from Quelbury", "FLIGHTED BY HELICOPTER FROM"
    r"(?:(?:via|by)[ \t]{1,2}(?:ambulance|ems|helicopter|med[ \t-]?flight|air)[ \t]{1,2})?"
    r"(?:to|from|at|@)[ \t]{1,2}(?:the[ \t]{1,2})?"
)
MOTION_PHRASE = words(*MOTION_PHRASES) + r"[ \t]{1,2}(?:the[ \t]{1,2})?"
# Care a patient had somewhere, then "at" or "@" and the site: "cath at Quelbury showed 3VD", "HD @ QUELBURY M/W/F",
# "CABG AT QUELBURY IN 2001", "seen at Quelbury last month".
PROCEDURE_WORDS = (
    "cath", "catheterization", "cabg", "ptca", "pci", "stent", "stented", "angioplasty", "angiogram", "surgery",
    "operation", "hd", "dialysis", "dialyzed", "mri", "ct", "echo", "tee", "biopsy", "ercp", "egd", "colonoscopy",
    "ablation", "pacemaker", "aicd", "icd", "avr", "mvr", "transplant", "chemo", "chemotherapy", "radiation", "xrt",
    "appt", "appointment", "treated", "treatment", "seen", "done", "performed", "hospitalized", "hospitalization",
    "evaluated", "delivered",
)  # fmt: skip
PROCEDURE_AT = words(*PROCEDURE_WORDS) + r"(?![\w-])[ \t]{1,2}(?:at|@)[ \t]{1,2}(?:the[ \t]{1,2})?"
# Care-site and clinical words that follow motion words but name no place.
_CLINICAL_PLACES = frozenset(
    """
    ed er ew icu ccu micu sicu nicu picu cvicu vicu tsicu csru ctic ssu pcu stepdown step-down tele telemetry or
    pacu ct mri cath lab ir ep eu xray x-ray us echo ekg ecg eeg cxr cta kub floor floors rehab home osh hosp
    hospital hospitals clinic nursing facility snf ltac ltach nh vna hospice morgue unit units ward wards room rm bed
    bay surgery dialysis hd cvvh pt ot slp radiology vascular neuro neurology cards cardiology medicine gi pulm onc
    heme renal psych ortho urology ent bronch endoscopy egd ercp tee tte holding area pre-op preop post-op postop
    stretcher chair commode bathroom shower scale bedside outside another other same this that his her their our
    your my the a an of with without by for on in at to from and or dr md rn np pa pcp emergency intensive coronary
    surgical medical general cardiac trauma burn ob l&d bed. sleep rest sedation baseline nsr afib sr vent cpap
    bipap trach lasix wbcs wbc labs lab abg pharmacy pathology lab. va bb tlc v-tach vtach v-fib vfib a-fib afib svt
    """.split()
)
HOSPITAL_SUFFIXES = ("hospital", "hosp", "hosp.", "regional", "memorial", "medical center", "med center",
                     "medical ctr", "health center", "heart center", "healthcare", "campus")  # fmt: skip
# Suffixes that are part of the name ("Laurel Regional"); "hospital" and "medical center" stay outside it.
_NAME_PART_SUFFIXES = frozenset({"regional", "memorial", "general"})
# Words of a facility's type that stand between its name and the suffix ("Park Children's Hospital", "WEXFORD
# COUNTY HOSPITAL"): part of the name after a name word, no name on their own ("the county hospital").
FACILITY_TYPE_WORDS = frozenset(
    """
    children's childrens women's womens community county university general memorial regional veterans va
    rehab rehabilitation state city district teaching specialty psychiatric cancer heart eye
    """.split()
)
_SORTED_UNITS = frozenset("".join(sorted(u)) for u in ("micu", "sicu", "nicu", "picu", "ccu", "icu", "csru", "pacu"))
_SITE_WORD_RE = r"[A-Za-z][A-Za-z'&\-]{0,24}\.?"


def _clinical_place(word: str) -> bool:
    """A care-unit word or a typo of one ("micua", "icus")."""
    lower = word.lower()
    if "".join(sorted(lower)) in _SORTED_UNITS:
        return True  # a transposition typo ("mciu")
    return lower in _CLINICAL_PLACES or any(
        lower.startswith(p) and len(lower) <= len(p) + 2 for p in ("micu", "sicu", "ccu", "icu", "csru", "pacu")
    )


def _generic_place_word(lower: str) -> bool:
    """A function word, a care site or unit, a generic place word ("town", "facility") or a time of day ("midnight"):
    no part of a place's name."""
    return lower in STOP_WORDS or lower in _NOT_PLACE_WORDS or lower in _TIME_OF_DAY_WORDS or _clinical_place(lower)


def _site_word(token: str, mode: str) -> bool:
    """A word that may be (part of) a care site's name: not clinical, not a common word unless capitalised."""
    word = token.strip(".,'").lower()
    if not word or _generic_place_word(word):
        return False
    if any(c.isdigit() for c in word):
        return False
    if mode == "mixed":
        return token[:1].isupper() and _zipf(word) < 5.6
    return _zipf(word) < 4.0


def _ward_word(word: str, mode: str) -> bool:
    """A word that names a ward before its floor number after a motion word. Wards are named after donors, places and
    plain words alike ("admitted to Good 3", "TRANSFER TO CASE 4"), so any word may, capitalised in mixed-case text,
    but a function word, a care site, a clinical word or a word that counts or ranks ("sent to level 2")."""
    lower = word.lower()
    if _generic_place_word(lower) or lower in _ORDINAL_NOUNS or lower in clinical_terms():
        return False
    return mode != "mixed" or (word[0].isupper() and word[1:].islower())


def _site_after_motion(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "transferred to Calvert", "followed at GH", "ADMITTED TO QUARTERMAIN 3": a care site after a motion word."""
    tok = rx(_SITE_WORD_RE).match(text, m.end())
    if tok is not None and _clinical_place(tok[0].rstrip(".")):
        # "sent to ED at GH": a unit, then the site it belongs to
        at = rx(r"[ \t]{1,2}(?:at|@|in)[ \t]{1,2}").match(text, tok.end())
        tok = rx(_SITE_WORD_RE).match(text, at.end()) if at else None
    if tok is None:
        return []
    word = tok[0].rstrip(".")
    mode = window_case(text, tok.start())
    lower = word.lower()
    if _generic_place_word(lower):
        return []
    saint = rx(r"(?:st|saint)\.?[ \t]{1,2}(?P<n>[A-Za-z][a-z]{0,24}\b\.?)").match(text, tok.start())
    if saint is not None and (mode != "mixed" or saint["n"][0].isupper()):
        return [Hit(saint.start(), saint.end("n") - saint["n"].endswith("."), Label.HOSPITAL)]  # "St A.", "St Joseph"
    acronym = 2 <= len(word) <= 5 and word.isalpha() and (word.isupper() or mode != "mixed")
    # A short acronym that is no English word (GH, GBMC) or a rare word (Calvert) names a site; in mixed-case
    # text a capital letter lets a less rare word through ("Surgeon from Harbor").
    rare = 4.5 if mode == "mixed" and word[0].isupper() else 3.3
    # "ADMITTED TO RIVERSIDE7", "transferred to Reading 2": a word glued to a floor number, or a blank before it, is
    # a ward's name after a motion word, even a less rare word (not a dose, a time or a count: "sent to Lasix 2 mg",
    # "went to OR 2x").
    floor = rx(r"[ \t]?[1-9]\d?(?![\w/:%-]|[.,]\d|[ \t]{0,2}(?:[-/x]\d|am\b|pm\b))").match(
        text, tok.start() + len(word)
    )
    if (
        floor is not None
        and len(word) >= 4
        and word.isalpha()
        and not unit_follows(text, floor.end())
        and _ward_word(word, mode)
    ):
        glued = floor[0][0].isdigit()  # the glued number is part of the ward's name, a separate one is not
        return [Hit(tok.start(), floor.end() if glued else tok.start() + len(word), Label.LOCATION_OTHER)]
    if not (
        (acronym and _zipf(lower) < 3.0)
        or (_site_word(word, mode) and _zipf(lower) < rare)
        or _one_case_site_alone(text, tok.start(), word, mode)
    ):
        return []
    return [Hit(tok.start(), tok.start() + len(word), Label.LOCATION_OTHER)]


# What may follow a site named alone after a motion word: the clause's end, a number or date, or a function word
# ("ADMITTED TO MERCY ON 3/4", "TRANSFERRED FROM SINAI FOR CATH", "to go to genesis tomorrow").
_AFTER_SITE_ALONE = r"[ \t]{0,3}(?:\Z|[\r\n.,;:)(\]\-–]|\d|(?P<w>[A-Za-z]+)\b)"


def _one_case_site_alone(text: str, start: int, word: str, mode: str) -> bool:
    """In one-case text, where no capital marks a name, a word of middling frequency that stands alone as the object
    of a motion word ("ADMITTED TO MERCY ON 3/4", "PT TRANSFERRED FROM SINAI.") names the site; a word that goes on
    into a noun ("TAKEN FROM TRIPLE LUMEN", "admitted to severe pain") or a clinical word or service does not."""
    lower = word.lower()
    if mode == "mixed" or len(word) < 4 or not word.isalpha() or _zipf(lower) >= 4.5:
        return False
    if lower in clinical_terms() or is_service_word(lower) or lower in _ORDINAL_NOUNS:
        return False
    if lower.endswith(("ing", "ed", "ly")) or is_verb_form(lower):  # "ADMITTED TO DRINKING", "CAME TO AGITATED"
        return False
    after = rx(_AFTER_SITE_ALONE).match(text, start + len(word))
    return after is not None and (after["w"] is None or after["w"].lower() in STOP_WORDS)


# The place words between an article (or "longtime", "former") and "resident" or "native": "a Quelbury resident",
# "A LONGTIME QUELBURY RESIDENT", "a Saint Quelbury native".
_DEMONYM_MODIFIERS = frozenset({"longtime", "lifelong", "long-time", "former"})
_PLACE_BEFORE_DEMONYM = (
    r"(?r)\b(?:an?|longtime|lifelong|long-time|former)[ \t]{1,2}"
    r"(?P<c>[A-Za-z][A-Za-z'\-]{1,24}(?:[ \t]{1,2}[A-Za-z][A-Za-z'\-]{1,24})?)[ \t]{1,2}\Z"
)


def _place_before_demonym(text: str, m: regex.Match[str]) -> list[Hit]:
    """The town a resident or native is of, named before the word: capitalised where the text has case, each word
    no care site, service, clinical, generic or common word unless a listed city ("a Quelbury resident", "a Reading
    native"; "a MICU resident", "a psych resident", "a new resident", "a Spanish native" stay none)."""
    found = search_before(_PLACE_BEFORE_DEMONYM, text, m.start(), 60)
    if found is None:
        return []
    mode = window_case(text, found.start("c"))
    common = 4.5 if mode == "mixed" else _RARE_WORD_ZIPF
    start, place = found.start("c"), found["c"]
    first = place.split()[0]
    if first.lower() in _DEMONYM_MODIFIERS:  # "a longtime Quelbury resident"
        start += len(place) - len(place[len(first) :].lstrip())
        place = place[len(first) :].lstrip()
    for word in place.split():
        lower = word.lower()
        if _generic_place_word(lower) or lower in _ORDINAL_NOUNS or lower in clinical_terms() or is_service_word(lower):
            return []
        if lower in _states_and_countries() or (mode == "mixed" and not word[0].isupper()):
            return []
        if _zipf(lower) >= common and not listed_city(lower):
            return []
    return [Hit(start, found.end("c"), Label.LOCATION_OTHER)] if place else []


def _ward_number(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "ON QUARTERMAIN 6", "transfer to quartermain 2": a rare word naming a ward, then its floor number."""
    word = m["w"]
    mixed = window_case(text, m.start("w")) == "mixed"
    if mixed and not word[0].isupper():
        return []  # "order to transfuse 2 units": in mixed-case text a ward name is capitalised
    # Wards are named after donors, whose surnames may be uncommon words ("Call out to Stoneman 5"); a capital in text
    # with case tells such a name from a verb after "to" ("plan to wean 2 more"), which one-case text cannot.
    if _clinical_place(word) or word.lower() in STOP_WORDS or _zipf(word.lower()) >= (3.0 if mixed else 2.0):
        return []
    if unit_follows(text, m.end()):
        return []  # "on levophed 5 mcg": a drug and its dose
    return [Hit(m.start("w"), m.end("w"), Label.LOCATION_OTHER)]


def _hospital_name(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "Calvert Hospital", "LAUREL REGIONAL", "Memorial Hospital": the name words before the suffix."""
    suffix = m[0].lower()
    name_part = suffix.split()[0] in _NAME_PART_SUFFIXES
    following = rx(r"[ \t]{1,2}(?P<w>[A-Za-z]{1,24})").match(text, m.end())
    if name_part and following and following["w"].lower() not in STOP_WORDS | {"hosp", "med", "center", "ctr"}:
        return []  # "regional anesthesia", "memorial service": the suffix word is used as an adjective
    # "Memorial Hospital", "General Hospital": a name-part word right before "hospital" is the name.
    kept = _site_name_before(text, m.start(), lambda word: not name_part and word.lower() in _NAME_PART_SUFFIXES)
    if not kept and not name_part:
        kept = _named_after_preposition(text, m.start())
    if not kept:
        return []
    if name_part and not any(_zipf(text[s:e].strip(".").lower()) < 4.0 for s, e in kept):
        return []  # "general surgery", "regional anesthesia": a rare name word is needed before these
    end = m.end() if name_part else kept[-1][1]
    return [Hit(kept[0][0], end, Label.HOSPITAL)]


# "FROM HOPE HOSPITAL", "at orange hospital": the one word between a preposition of place and a hospital's suffix.
_PREPOSITION_THEN_WORD = r"(?r)\b(?P<p>from|to|at|@|in)[ \t]{1,2}(?P<n>[A-Za-z][A-Za-z'\-]{2,24})[ \t]{1,2}\Z"
# Verbs that "to" makes an infinitive before "hospital": "wanted to leave hospital", "refuses to enter hospital".
_TO_VERBS = frozenset({*SUBJECT_VERBS, *IRREGULAR_PASTS, "enter", "exit", "discharge", "transfer", "admit"})


def _named_after_preposition(text: str, end: int) -> list[tuple[int, int]]:
    """In a note of one case, where no capital tells a name from a word, the one word between a preposition of place
    and a hospital's suffix names it, a common word too ("TRANSFERRED FROM HOPE HOSPITAL"), but a generic, clinical,
    descriptive or type word ("from outside hospital", "to another hospital", "at community hospital")."""
    found = search_before(_PREPOSITION_THEN_WORD, text, end, 40)
    if found is None or window_case(text, found.start("n")) == "mixed":
        return []
    lower = found["n"].lower()
    if _generic_place_word(lower) or lower in FACILITY_TYPE_WORDS or lower in clinical_terms():
        return []
    if found["p"].lower() == "to" and lower in _TO_VERBS:
        return []
    if lower in _HOSPITAL_DESCRIPTORS or (lower.endswith(("al", "ic", "ed", "ing")) and not listed_city(lower)):
        return []  # "regional", "psychiatric", "affiliated", "teaching": what kind of hospital, not which
    return [(found.start("n"), found.end("n"))]


_HOSPITAL_DESCRIPTORS = frozenset(
    "outside another other local community nearby previous same state private public city county veterans va "
    "childrens children's womens women's mens university teaching rehab rehabilitation mental psych day night "
    "that this your our their his her a an the any".split()
)


def _site_name_before(text: str, end: int, names_next_to_suffix: Callable[[str], bool]) -> list[tuple[int, int]]:
    """The words of a care site's or school's name right before its suffix at ``end``: up to three, facility type
    words ("County", "Children's") only after a name word, which ``names_next_to_suffix`` may also accept right
    before the suffix; [] where none names it."""
    before = search_before(
        r"(?r)(?<![\w'])(?P<n>[A-Za-z][A-Za-z.'\-]{0,24}(?:[ \t]{1,2}[A-Za-z][A-Za-z.'\-]{0,24}){0,2})"
        r"[ \t]{1,2}\Z",
        text,
        end,
        80,
    )
    if before is None:
        return []
    mode = window_case(text, end)
    start = before.start("n")
    toks = [(start + t.start(), start + t.end(), t[0]) for t in rx(r"[A-Za-z][A-Za-z.'\-]{0,24}").finditer(before["n"])]
    kept: list[tuple[int, int]] = []
    named = False  # a name word (not only type words) is among the kept ones
    for s, e, piece in reversed(toks):
        if piece.endswith(".") and len(piece) > 2:
            break  # a sentence ends before the name
        if (not kept and names_next_to_suffix(piece)) or _site_word(piece, mode):
            named = True
        elif named or piece.lower() not in FACILITY_TYPE_WORDS:
            break  # type words stand next to the suffix, after the name
        kept.insert(0, (s, e))
    return kept if named else []


# A care site named before the abbreviation of its kind: "from Brantisk NH" (a nursing home, or the state: a place
# either way), "Quorvane SNF", "the Brantisk VA", "Kitork VAMC", "Quelbury VNA" (a visiting nurse association); "the
# VA" alone names none.
CARE_SITE_ABBREVIATIONS = ("NH", "SNF", "LTC", "ALF", "ECF", "LTACH", "LTAC", "VA", "VAMC", "VNA")


def _abbreviated_care_site(text: str, m: regex.Match[str]) -> list[Hit]:
    """The name words before a care site's abbreviation, as a care site's before its suffix; none a function, clinical
    word or verb ("REFUSED NH", "DECLINED SNF"), and one at least rare (in text without case, rarer still). In text
    with case the abbreviation is written in capitals ("Brantisk va" is none)."""
    mixed = window_case(text, m.start()) == "mixed"
    if mixed and not m[0].isupper():
        return []
    kept = _site_name_before(text, m.start(), lambda word: False)
    if not kept:
        return []
    if not _care_site_name([text[s:e].strip(".").lower() for s, e in kept], mixed):
        return []
    return [Hit(kept[0][0], kept[-1][1], Label.LOCATION_OTHER)]


def _care_site_name(lowered: Sequence[str], mixed: bool) -> bool:
    """Whether a care site's name words (lower case) may name it: none a function, clinical word or verb, and one at
    least rare (rarer still in text without case)."""
    if any(w in STOP_WORDS or w in clinical_terms() or is_verb_form(w) for w in lowered):
        return False
    rare = 4.5 if mixed else 3.0
    return any(_zipf(w) < rare for w in lowered)


# The kinds of care site whose own name a note gives in brackets after the kind: "OSH (Quelbury)", "from rehab
# (Quelbury Manor)", "NH (Brantisk House)".
_SITE_KINDS_BEFORE_BRACKETS = (
    "osh", "outside hospital", "outside hosp", "rehab", "nursing home", "assisted living", "hospice",
    *(abbreviation.lower() for abbreviation in CARE_SITE_ABBREVIATIONS),
)  # fmt: skip
# The nouns that close a care home's name after its name word ("Quelbury House", "Brantisk Manor").
_HOME_NAME_NOUNS = frozenset("house manor lodge court gardens village hall villa home centre center place park".split())


def _site_in_brackets(text: str, m: regex.Match[str]) -> list[Hit]:
    """The name of a care site in brackets after its kind: each word one that may name a site (capitalised where the
    text has case) or, after the first, a facility's type word or a home's noun ("House"), and the words as a care
    site's name (:func:`_care_site_name`, as before a site's abbreviation): "OSH (CT neg)", "NH (Baseline)" are
    none."""
    mode = window_case(text, m.start("n"))
    pieces = m["n"].split()
    lowered = [piece.strip(".").lower() for piece in pieces]
    if not _care_site_name(lowered, mode == "mixed") or not _site_word(pieces[0], mode):
        return []
    if not all(
        _site_word(piece, mode) or word in FACILITY_TYPE_WORDS or word in _HOME_NAME_NOUNS
        for piece, word in zip(pieces[1:], lowered[1:], strict=True)
    ):
        return []
    return [Hit(m.start("n"), m.end("n"), Label.LOCATION_OTHER)]


# A street named without a house number after a word of place ("off Brantisk Road", "lives on Quorvane Avenue"): up to
# three capitalised words and a capitalised street type, in text with case.
_STREET_TYPES_NAMED = (
    "Road", "Street", "Avenue", "Lane", "Drive", "Way", "Close", "Crescent", "Boulevard", "Terrace", "Place", "Court",
    "Grove", "Gardens", "Rd", "St", "Ave", "Ln", "Blvd",
)  # fmt: skip
_STREET_NAMED = (
    r"\b(?i:on|off|along|onto|near|down|up|at|from|to|into|of)[ \t]{1,2}(?:the[ \t]{1,2})?"
    r"(?P<s>[A-Z][a-z'\-]{1,24}(?:[ \t][A-Z][a-z'\-]{1,24}){0,2}[ \t](?:" + "|".join(_STREET_TYPES_NAMED) + r"))"
    r"(?![\w'])"
)


def _street_named(text: str, m: regex.Match[str]) -> list[Hit]:
    """A named street: no clinical or function word in its name, one word at least no common word ("off Brantisk
    Road", "on Elm Street"; "the High Street", "Main Street", "on Harley Street" of a clinic's address are streets too
    common to name a person's)."""
    if window_case(text, m.start("s")) != "mixed":
        return []
    name = m["s"].split()[:-1]
    lowered = [w.lower() for w in name]
    if any(w in STOP_WORDS or _clinical_place(w) or w in clinical_terms() for w in lowered):
        return []
    if not any(_zipf(w) < 4.5 for w in lowered):
        return []
    return [Hit(m.start("s"), m.end("s"))]


# The kinds of school that follow a school's name ("Brantisk Primary School", "QUELBURY HIGH SCHOOL").
SCHOOL_SUFFIXES = (
    "primary school", "secondary school", "high school", "middle school", "elementary school", "junior school",
    "infant school", "infants school", "grammar school", "junior high", "junior high school", "sixth form college",
)  # fmt: skip


# Words that say what kind of school it is, no name on their own ("Senior High School", "Central Primary School").
_SCHOOL_TYPE_WORDS = frozenset(
    "senior junior community catholic christian state public private local county city village central"
    " international independent special new".split()
)


def _school_name(text: str, m: regex.Match[str]) -> list[Hit]:
    """A school named before its kind: the name words as a care site's (no common word unless capitalised), one at
    least no word of a school's kind."""
    kept = _site_name_before(text, m.start(), lambda word: False)
    if not any(text[s:e].lower() not in _SCHOOL_TYPE_WORDS for s, e in kept):
        return []
    return [Hit(kept[0][0], m.end())]


# Head nouns of natural places ("the Eastern Shore", "Chesapeake Bay") and the words that open such names
# ("Lake Tahoe", "Cape Cod", "Mount Airy"). Matched only in mixed-case text, where title case marks a name.
GEO_HEAD_WORDS = (
    "shore", "bay", "island", "islands", "beach", "valley", "lake", "lakes", "mountain", "mountains", "river",
    "falls", "harbor", "harbour", "hills", "coast", "springs", "keys", "peninsula", "canyon", "creek",
)  # fmt: skip
GEO_OPENER_WORDS = ("lake", "mount", "mt", "mt.", "cape", "isle of", "fort")
_TITLE_WORD = r"[A-Z][a-z]{1,24}(?:-[A-Z][a-z]{1,24})?"


def _geo_name_word(word: str) -> bool:
    return not _generic_place_word(word.lower())


def _geo_after_name(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "the Eastern Shore", "Chesapeake Bay": one or two title-case words before a title-case natural head noun."""
    if not _is_title(m[0]) or window_case(text, m.start()) != "mixed":
        return []
    before = search_before(
        r"(?r)(?<![\w'.])(?P<n>" + _TITLE_WORD + r"(?:[ \t]" + _TITLE_WORD + r")?)[ \t]\Z", text, m.start(), 60
    )
    if before is None:
        return []
    start = m.start()
    for word in reversed(before["n"].split()):  # name words from the right, while they are title case
        if not (_is_title(word) and _geo_name_word(word)):
            break
        start = text.rindex(word, 0, start)
    if start == m.start():
        return []
    if _sentence_starts_at(text, start) and _zipf(text[start : m.start()].split()[0].lower()) >= 4.0:
        return []  # "Clear River water": a capital at a sentence's start is no evidence
    return [Hit(start, m.end(), Label.LOCATION_OTHER)]


def _is_title(word: str) -> bool:
    return word[:1].isupper() and word[1:2].islower()


def _sentence_starts_at(text: str, start: int) -> bool:
    before = text[max(0, start - 8) : start].rstrip()
    return not before or before[-1] in ".!?:;\n"


def _geo_after_opener(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "Lake Tahoe", "Cape Cod", "Mount Airy": a title-case opener and a title-case name word."""
    if not (_is_title(m[0]) and _is_title(m["n"])) or window_case(text, m.start()) != "mixed":
        return []
    if not _geo_name_word(m["n"]) or (_sentence_starts_at(text, m.start()) and _zipf(m["n"].lower()) >= 4.0):
        return []
    return [Hit(m.start(), m.end(), Label.LOCATION_OTHER)]


def _university(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "University of Maryland", "U of MD", "U Maryland"."""
    place = m["c"]
    state = us.states.lookup(place) is not None
    if m["u"].lower() == "u" and not (state and (m["of"] or len(place) > 2)):
        return []  # "2 u of prbc": units; "f/u in": follow up
    if not state and (place.lower() in STOP_WORDS or _clinical_place(place)):
        return []
    return [Hit(m.start(), m.end("c"), Label.HOSPITAL)]


# Geographic coordinates (HIPAA: a geographic subdivision smaller than a state, "and their equivalent geocodes"):
# decimal degrees with four or more decimals ("42.3601, -71.0589") or degrees, minutes and seconds with hemispheres
# ("42°21'36\"N 71°03'34\"W").
_DECIMAL_COORDINATES = (
    r"(?<![\w.+-])(?P<lat>[-+]?\d{1,2}\.\d{4,8})°?(?:[ \t]{0,2}[NS]\b)?[ \t]{0,2},[ \t]{0,2}"
    r"(?P<lon>[-+]?\d{1,3}\.\d{4,8})°?(?:[ \t]{0,2}[EW]\b)?(?![\w]|[.,]\d)"
)
_DMS = r"\d{1,3}°[ \t]{0,2}\d{1,2}['′][ \t]{0,2}(?:\d{1,2}(?:\.\d{1,4})?[\"″][ \t]{0,2})?"
_DMS_COORDINATES = r"(?<![\w.])" + _DMS + r"[NS][ \t]{0,2},?[ \t]{0,2}" + _DMS + r"[EW]\b"


def _coordinates(text: str, m: regex.Match[str]) -> list[Hit]:
    if m["lat"] is not None and (abs(float(m["lat"])) > 90 or abs(float(m["lon"])) > 180):
        return []
    return [Hit(m.start(), m.end())]


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
            hints=ScanHints(digit_run=(5, 5), run_prev=r"[^\w-]"),
        ),
        Pattern(
            "location.zip_trigger",
            Label.ZIP,
            r"\b(?:zip|zip code|zipcode|postal code)[ \t]{0,2}[:#]?[ \t]{0,2}(?P<z>\d{5}(?:-\d{4})?)\b",
            0.95,
            None,
            group="z",
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
        Pattern(
            "location.city_ambiguous_state",
            Label.CITY,
            r",[ \t]{1,2}(?P<st>" + "|".join(sorted(AMBIGUOUS_STATE_CODES)) + r")" + _PLACE_CLAUSE_END,
            0.6,
            _city_ambiguous_state,
            ignore_case=False,
        ),
        Pattern(
            "location.city_unpunctuated_state",
            Label.CITY,
            # Found from the code (one blank after the town); the validator looks back for the town.
            r"(?<=\p{L}[ \t])" + _state_codes(False) + r"(?![\w'])" + _PLACE_CLAUSE_END,
            0.6,
            _city_unpunctuated_state,
            ignore_case=False,
            hints=ScanHints(anchors=_unambiguous_code_anchors()),
        ),
        Pattern(
            "location.rare_town_lowercase_state",
            Label.CITY,
            # Found from the code in small letters (one blank after the town or its comma); the validator looks back
            # for the town.
            r"(?<=\p{L},?[ \t])(?:" + _state_codes(False).lower() + "|" + "|".join(_COMMA_AMBIGUOUS_CODES) + r")"
            r"(?![\w'])" + _PLACE_CLAUSE_END,
            0.6,
            _rare_town_lowercase_state,
            ignore_case=False,
            hints=ScanHints(anchors=(*_unambiguous_code_anchors(), *_COMMA_AMBIGUOUS_CODES)),
        ),
        Pattern(
            "location.city_unpunctuated_ambiguous_state",
            Label.CITY,
            # "lives in Louisville CO and", "from Newnan GA with": a code that is also a clinical abbreviation, with no
            # comma, only after a town that a place preposition opens, the sentence going on as after a place.
            r"(?<=\p{L}[ \t])(?:" + "|".join(_UNPUNCTUATED_AMBIGUOUS_CODES) + r")(?![\w'])" + _PLACE_CLAUSE_END,
            0.6,
            _city_unpunctuated_ambiguous_state,
            ignore_case=False,
            hints=ScanHints(anchors=tuple(code.lower() for code in _UNPUNCTUATED_AMBIGUOUS_CODES)),
        ),
        Pattern("location.state_name", Label.STATE, r"\b" + _state_names() + r"\b", 0.6, _state_name),
        Pattern(
            "location.coordinates",
            Label.LOCATION_OTHER,
            r"(?:" + _DECIMAL_COORDINATES + "|" + _DMS_COORDINATES + ")",
            0.9,
            _coordinates,
            ignore_case=False,
            # Scanned only in notes with a number of four or more decimals, or a degree sign, at all.
            hints=ScanHints(lower_gate=r"\.\d\d\d\d|°"),
        ),
        Pattern(
            "location.street_address",
            Label.STREET,
            _HOUSE_NUMBER
            + r"(?P<w>"
            + _STREET_FIRST_WORD
            + r"(?:[ \t]{1,2}[A-Za-z][A-Za-z'.\-]{0,24}){0,3})[ \t]{1,2}"
            + STREET_SUFFIXES
            + r"\b\.?"
            + _UNIT
            + "?",
            0.8,
            _street,
            hints=ScanHints(
                digit_run=(1, 5),
                run_next=_HOUSE_NUMBER_NEXT + _STREET_FIRST_WORD + r"[ \t]",
                run_prev=r"[^\w./-]",
                run_check=_street_may_start,
            ),
        ),
        Pattern(
            "location.street_address_usps",
            Label.STREET,
            _HOUSE_NUMBER
            + r"(?P<w>[A-Za-z][A-Za-z'.\-]{1,24}(?:[ \t]{1,2}[A-Za-z][A-Za-z'.\-]{1,24}){0,2})[ \t]{1,2}(?P<sfx>"
            + words(*usps_suffix_words())
            + r")\b"
            + _UNIT
            + r"?(?=[ \t]{0,4}(?:[,;]|\n|$))",
            0.7,
            _usps_street,
            hints=ScanHints(
                digit_run=(1, 5),
                run_next=_HOUSE_NUMBER_NEXT + r"[A-Za-z][A-Za-z'.\-]{1,24}[ \t]",
                run_prev=r"[^\w./-]",
                run_check=_usps_street_may_start,
            ),
        ),
        Pattern(
            "location.street_address_french",
            Label.STREET,
            # Quebec's order, the street type after the number and before the name: "1176, chemin Thibault",
            # "45 rue de la Gauchetière", "8 boul. René-Lévesque"; the name is capitalised.
            _HOUSE_NUMBER_FRENCH
            + r"(?i:rue|avenue|av\.|boulevard|boul\.|chemin|ch\.|rang|mont[ée]e|c[ôo]te|all[ée]e|impasse|croissant)"
            + r"[ \t]{1,2}(?:(?:de[ \t]la|de[ \t]l'|des|du|de|d'|l')[ \t]?)?"
            + r"\p{Lu}[\p{L}'\-]{1,24}(?:[ \t-]\p{Lu}[\p{L}'\-]{1,24}){0,2}(?![\w'])",
            0.8,
            None,
            ignore_case=False,
            hints=ScanHints(digit_run=(1, 5), run_next=r",?[ \t]{1,2}(?i:[rabcmdi])", run_prev=r"[^\w./-]"),
        ),
        Pattern(
            "location.street_type_first",
            Label.STREET,
            _TYPE_FIRST_STREET,
            0.8,
            _type_first_street,
            ignore_case=False,
            # by hand: the lookbehind hides the types from the derivation ("ul." is found at "ul")
            hints=ScanHints(anchors=tuple(sorted({t.lower().rstrip(".") for t in _TYPE_FIRST_STREET_TYPES}))),
        ),
        Pattern(
            "location.street_joined_type",
            Label.STREET,
            _JOINED_STREET,
            0.8,
            _joined_street,
            ignore_case=False,
            hints=ScanHints(digit_run=(1, 4), run_prev=r"[ \t]", run_check=_joined_type_before),
        ),
        Pattern(
            "location.po_box",
            Label.STREET,
            r"\bbox[ \t]{0,2}#?[ \t]{0,2}\d{1,6}\b",
            0.9,
            _po_box,
        ),
        Pattern(
            "location.room_bed",
            Label.ROOM,
            r"\b(?:room|rm|bed|bay|cubicle|isolette)\.?[ \t]{0,2}(?:#|no\.?|number)?[ \t]{0,2}:?[ \t]{0,2}"
            r"(?P<r>\d{1,4}[A-Za-z]?|[A-Za-z]-?\d{1,4})(?![\w]|[./-]\d)",
            0.8,
            None,
            group="r",
            hints=ScanHints(anchors=("room", "rm", "bed", "bay", "cubicle", "isolette")),
        ),
        Pattern(
            "location.lives_in",
            Label.CITY,
            r"\b"
            + words(*LIVES_IN_WORDS)
            # An adverb may stand between: "lives nearby in Rockport", "now living in Towson".
            + r"[ \t]{1,2}(?:(?:nearby|close[ \t]by|locally|now|currently|alone|mostly)[ \t]{1,2})?"
            # and with whom: "lives with son and family in Quelbury"
            + r"(?:with[ \t]{1,2}(?:[A-Za-z']{1,12}[ \t]{1,2}){1,4}?)?"
            + r"(?:in|at|near|to)[ \t]{1,2}"
            + _NAMED_AFTER,
            0.6,
            _place_after_trigger,
        ),
        Pattern(
            # Where someone is from or went: "a resident of Quorvane", "originally from Brantisk", "a trip to Tobiah".
            "location.home_of",
            Label.CITY,
            r"\b(?:(?:resident|native)[ \t]{1,2}of|originally[ \t]{1,2}from|trip[ \t]{1,2}to|visiting[ \t]{1,2}from"
            r"|home[ \t]{1,2}is[ \t]{1,2}in"
            # a relative's journey: "flying in from Quelbury", "drove up from Quelbury"
            r"|(?:fly|flying|flew|flown|drive|driving|drove|driven)[ \t]{1,2}(?:(?:in|up|down|back)[ \t]{1,2})?"
            r"(?:(?:today|tonight|tomorrow|later|soon)[ \t]{1,2})?(?:from|to|into))[ \t]{1,2}" + _NAMED_AFTER,
            0.6,
            _place_after_trigger,
            # By hand: the first words, not every phrase the optional words make.
            hints=ScanHints(anchors=_HOME_OF_ANCHORS),
        ),
        Pattern(
            # A move or a journey, whoever made it: "she moved to Quelbury last year", "moved back from Brantisk",
            # "sister tamsin in from quelbury this am". A care site or unit after it is no place ("moved to the ICU",
            # "in from rehab"), nor is a common word ("moved to chair").
            "location.moved",
            Label.CITY,
            r"\b(?:(?:moved|relocated|relocating)[ \t]{1,2}(?:(?:back|away|here|there)[ \t]{1,2})?(?:to|from)"
            r"|in[ \t]{1,2}from)[ \t]{1,2}" + _NAMED_AFTER,
            0.5,
            _place_moved_to,
            hints=ScanHints(anchors=("moved", "relocated", "relocating", "in")),
        ),
        Pattern(
            # Where a relative comes from: "daughter from Quelbury called", "FAMILY FROM FOSTYARD STAYING AT A HOTEL".
            "location.family_from",
            Label.CITY,
            r"\b(?:" + FAMILY + r"|family|families|relatives?|friends?)[ \t]{1,2}(?:(?:is|are|was|were)[ \t]{1,2})?"
            r"(?:(?:in|up|down|here|visiting)[ \t]{1,2})?from[ \t]{1,2}" + _NAMED_AFTER,
            0.6,
            _place_not_care_site,
        ),
        Pattern(
            # Where the patient comes from, as a note's social history says it: "Pt is from Quelbury, lives with wife",
            # "he was originally from brantisk", "Pt from SJH ED with sepsis" (one-case text: rare or listed words only,
            # as after a move).
            "location.person_from",
            Label.CITY,
            r"\b(?:pt|patient|he|she)[ \t]{1,2}(?:(?:is|was)[ \t]{1,2})?(?:(?:originally|also)[ \t]{1,2})?"
            r"from[ \t]{1,2}" + _NAMED_AFTER,
            0.5,
            _person_from,
        ),
        Pattern(
            # Where the writer is from, in a message or a post: "I'm from Quelbury", "i'm 72, a pharmacist from
            # quelbury, and", "we are originally from Brantisk Falls".
            "location.writer_from",
            Label.CITY,
            r"\b(?:i'?m|i[ \t]am|we'?re|we[ \t]are)[ \t]{1,2}(?:\d{1,3}[ \t]{0,2},[ \t]{1,2})?"
            r"(?:an?[ \t]{1,2}(?:[a-z][a-z\-]{1,24}[ \t]{1,2}){1,3})?(?:(?:originally|also)[ \t]{1,2})?from[ \t]{1,2}"
            + _NAMED_AFTER,
            0.5,
            _place_not_care_site,
        ),
        Pattern(
            # A town's public services: "Quelbury EMS brought pt in", "BRANTISK FIRE DEPT".
            "location.city_service",
            Label.CITY,
            r"(?<![\w-])(?:EMS|[Ff]ire[ \t]{1,2}(?:[Dd]ept\.?|[Dd]epartment|[Rr]escue)"
            r"|FIRE[ \t]{1,2}(?:DEPT\.?|DEPARTMENT|RESCUE)|[Pp]olice|POLICE|[Aa]mbulance|AMBULANCE)(?![\w-])",
            0.5,
            _city_of_service,
            ignore_case=False,
            hints=ScanHints(anchors=("ems", "fire", "police", "ambulance")),  # by hand: none is read from a cased regex
        ),
        Pattern(
            # A care agency of a town: "VNA of Quelbury", "Hospice of Brantisk Falls".
            "location.agency_of",
            Label.CITY,
            r"\b(?:vna|visiting[ \t]{1,2}nurses?(?:[ \t]{1,2}association)?|hospice|home[ \t]{1,2}(?:care|health)"
            r"|elder[ \t]{1,2}services|council[ \t]{1,2}on[ \t]{1,2}aging)[ \t]{1,2}of[ \t]{1,2}(?:the[ \t]{1,2})?"
            + _NAMED_AFTER,
            0.5,
            _place_not_care_site,
        ),
        Pattern(
            "location.employer",
            Label.ORGANIZATION,
            r"\b" + words(*EMPLOYER_TRIGGER_WORDS) + r"[ \t]{1,2}" + _NAMED_AFTER,
            0.5,
            _employer_after_trigger,
        ),
        Pattern(
            # "works as a driver for Zentrix": the employer after the job.
            "location.employer_after_job",
            Label.ORGANIZATION,
            r"\b(?:works|worked|working|employed)[ \t]{1,2}as[ \t]{1,2}(?:an?[ \t]{1,2})?[A-Za-z][A-Za-z\-]{1,24}"
            r"(?:[ \t]{1,2}[A-Za-z][A-Za-z\-]{1,24})?[ \t]{1,2}(?:for|at|with)[ \t]{1,2}(?:the[ \t]{1,2})?"
            + _NAMED_AFTER,
            0.5,
            _employer_after_trigger,
        ),
        Pattern(
            "location.site_after_motion",
            Label.LOCATION_OTHER,
            r"\b" + MOTION_VERB,
            0.5,
            _site_after_motion,
        ),
        Pattern(
            "location.site_after_phrase",
            Label.LOCATION_OTHER,
            r"\b" + MOTION_PHRASE,
            0.5,
            _site_after_motion,
        ),
        Pattern(
            "location.place_before_demonym",
            Label.LOCATION_OTHER,
            r"\b(?:resident|native)(?![\w-])",
            0.5,
            _place_before_demonym,
        ),
        Pattern(
            "location.site_after_procedure",
            Label.LOCATION_OTHER,
            r"\b" + PROCEDURE_AT,
            0.5,
            _site_after_motion,
        ),
        Pattern(
            "location.ward_number",
            Label.LOCATION_OTHER,
            # Found from the floor number (a digit run); the trigger and ward name are checked behind it.
            r"[1-9](?<=\b(?:to|on|from|transfer|plan:?)[ \t]{1,2}(?P<w>[A-Za-z]{4,24})[ \t]{1,2}[1-9])"
            r"(?![\w.,/:-]|[ \t]{0,2}(?:[-/x]\d|am\b|pm\b))",
            0.5,
            _ward_number,
            hints=ScanHints(digit_run=(1, 1), run_next=r"[^\w.,/:-]|\Z", run_prev=r"[ \t]"),
        ),
        Pattern(
            "location.hospital_name",
            Label.HOSPITAL,
            r"\b" + words(*HOSPITAL_SUFFIXES) + r"(?![\w])",
            0.6,
            _hospital_name,
        ),
        Pattern("location.street_named", Label.STREET, _STREET_NAMED, 0.5, _street_named, ignore_case=False),
        Pattern(
            "location.abbreviated_care_site",
            Label.LOCATION_OTHER,
            r"\b" + words(*CARE_SITE_ABBREVIATIONS) + r"(?![\w'])",
            0.5,
            _abbreviated_care_site,
        ),
        Pattern(
            "location.site_in_brackets",
            Label.LOCATION_OTHER,
            r"\b" + words(*_SITE_KINDS_BEFORE_BRACKETS) + r"[ \t]{0,2}\([ \t]{0,2}"
            r"(?P<n>[A-Za-z][A-Za-z.'\-]{0,24}(?:[ \t]{1,2}[A-Za-z][A-Za-z.'\-]{0,24}){0,2})[ \t]{0,2}\)",
            0.5,
            _site_in_brackets,
        ),
        Pattern(
            "location.school_name",
            Label.ORGANIZATION,
            r"\b" + words(*SCHOOL_SUFFIXES) + r"(?![\w])",
            0.6,
            _school_name,
        ),
        Pattern(
            "location.natural_place",
            Label.LOCATION_OTHER,
            r"\b" + words(*GEO_HEAD_WORDS) + r"\b",
            0.5,
            _geo_after_name,
        ),
        Pattern(
            "location.natural_place_opener",
            Label.LOCATION_OTHER,
            r"\b" + words(*GEO_OPENER_WORDS) + r"[ \t]{1,2}(?P<n>" + _TITLE_WORD + r")\b",
            0.5,
            _geo_after_opener,
        ),
        Pattern(
            "location.university",
            Label.HOSPITAL,
            r"(?<![\w/])(?P<u>university|univ\.?|u)[ \t]{1,2}(?P<of>of[ \t]{1,2})?"
            r"(?P<c>[A-Za-z][A-Za-z'\-]{1,24})(?![\w'-])",
            0.6,
            _university,
            hints=ScanHints(anchors=("university", "univ", "univ.", "u")),
        ),
        *postcode_patterns(_street_rules),
    )


def _street_rules() -> tuple[Pattern, ...]:
    """The street address rules, which a flat or unit lead ("Flat 3, ") joins."""
    return tuple(p for p in location_patterns() if p.name.startswith("location.street_address"))


def location_detector() -> PatternDetector:
    return PatternDetector(
        "patterns.location",
        location_patterns(),
        repeated=frozenset(
            {
                "location.site_after_motion",
                "location.site_after_phrase",
                "location.site_after_procedure",
                "location.hospital_name",
                "location.ward_number",
            }
        ),
    )
