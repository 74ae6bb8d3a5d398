"""Postcodes outside the US and addresses led by a flat or unit: UK postcodes (the Royal Mail / GOV.UK format), Canadian
postal codes (Canada Post's "A1A 1A1"), a bare ZIP+4, and "Flat 3, 12 High Street" / "Apt 4B, 221 Baker St".

Part of the location family (:func:`deident.detect.patterns.locations.location_patterns` lists these rules).
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from deident.core.labels import Label
from deident.detect.patterns.names import STOP_WORDS
from deident.detect.patterns.regions import CA_PROVINCE_CODES, US_STATE_CODES, US_STATE_NAMES
from deident.detect.patterns.rules import Hit, Pattern, ScanHints, Validator, compile_source, unit_follows, words

# UK postcode, outward code then inward code ("SW1A 1AA", "M60 1NW", "EC1A 1BB", "B33 8TH"): the area's first letter
# is never Q, V or X, its second never I, J or Z; the letter after the district digit is one of ABEHMNPRVWXY (or
# ABCDEFGHJKPSTUW in one-letter areas); the inward letters never include C, I, K, M, O or V. Matched from the district
# digits (a digit-run scan); the area letters before them are checked behind and added by the validator.
_UK_AREA = r"[A-PR-UWYZ][A-HK-Y]?"
_UK_DISTRICT_END = r"(?:\d|[A-HJKPSTUW]|[ABEHMNPRVWXY])?"
_UK_INWARD_LETTERS = r"[ABD-HJLNP-UW-Z]{2}"
UK_POSTCODE = (
    r"\d(?<=(?<![\w])" + _UK_AREA + r"\d)" + _UK_DISTRICT_END + r"[ \t]{1,2}\d" + _UK_INWARD_LETTERS + r"(?![\w])"
)
# Canadian postal code ("K1A 0B1"): forward sortation area (a letter of ABCEGHJ-NPRSTVXY, a digit, a letter) and local
# delivery unit (digit, letter, digit); D, F, I, O, Q and U are never used, W and Z never first.
_CA_FIRST = r"[ABCEGHJ-NPRSTVXY]"
_CA_LETTER = r"[ABCEGHJ-NPRSTV-Z]"
CA_POSTAL_CODE = (
    r"\d(?<=(?<![\w])" + _CA_FIRST + r"\d)" + _CA_LETTER + r"(?:[ \t-]{1,2})?\d" + _CA_LETTER + r"\d(?![\w])"
)
# A UK postcode or Canadian postal code after its label, in any case ("Postcode: sw1a 1aa", "postal code k1a 0b6"):
# the same letters and digits as above, where the label, not the capitals, says what it is.
_LABELLED_POSTCODE = (
    r"\b(?:post[ \t]?code|postal[ \t]{1,2}code)[ \t]{0,2}[:#-]?[ \t]{0,2}(?P<p>"
    + _UK_AREA + r"\d" + _UK_DISTRICT_END + r"[ \t]{0,2}\d" + _UK_INWARD_LETTERS
    + r"|" + _CA_FIRST + r"\d" + _CA_LETTER + r"[ \t-]{0,2}\d" + _CA_LETTER + r"\d)(?![\w])"
)  # fmt: skip
# An Australian address's state or territory and postcode ("Parramatta NSW 2150", "Hobart TAS 7000"): Australia Post
# writes the abbreviation in capitals before four digits, each state's postcodes in its own ranges (below).
_AU_POSTCODE = r"(?<![\w])(?P<st>NSW|VIC|QLD|SA|WA|TAS|NT|ACT|Vic|Qld|Tas)[ \t]{1,2}(?P<pc>\d{4})(?![\w]|[-./,]\d)"
_AU_POSTCODE_RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    "NSW": ((1000, 2599), (2619, 2899), (2921, 2999)),
    "ACT": ((200, 299), (2600, 2618), (2900, 2920)),
    "VIC": ((3000, 3999), (8000, 8999)),
    "QLD": ((4000, 4999), (9000, 9999)),
    "SA": ((5000, 5999),),
    "WA": ((6000, 6999),),
    "TAS": ((7000, 7999),),
    "NT": ((800, 999),),
}
# A UK- or Canadian-shaped postcode of any capitals that ends an address's line ("5426 Vaimal St\nKelbury\nZU9 4HI",
# "Kelbury ON  N1H 7U6"): a mistyped code, or one a generator made up, is found where a street address stands just
# before it (see _after_street_address); matched from the district digits as the strict rules are.
_LINE_END = r"(?=[ \t]{0,4}(?:\r?\n|\Z|,))"
UK_POSTCODE_SHAPE = r"\d(?<=(?<![\w])[A-Z]{1,2}\d)[A-Z\d]?[ \t]{1,2}\d[A-Z]{2}(?![\w])" + _LINE_END
CA_POSTAL_CODE_SHAPE = r"\d(?<=(?<![\w])[A-Z]\d)[A-Z](?:[ \t-]{1,2})?\d[A-Z]\d(?![\w])" + _LINE_END
# A five-digit code (a ZIP code without its state, a German or French postcode) alone at the end of an address block.
ZIP_AFTER_ADDRESS = r"\d(?<![\w.,/-]\d)\d{4}(?:-\d{4})?(?![\w]|[.,/-]\d)" + _LINE_END
_ADDRESS_REACH = 160  # a street line, a town line and their breaks
_GAP_WORD = regex.compile(r"[^ \t\r\n,.]+")


_REGION_CODES = frozenset((*US_STATE_CODES, *CA_PROVINCE_CODES))
_REGION_NAMES = frozenset(name.lower() for name in US_STATE_NAMES)


def _ends_in_region(found: list[str]) -> bool:
    """Whether a state's or province's code or a state's name ends the words ``found`` between a street and a code
    ("Glen Brantisk IL", "New York")."""
    return bool(found) and (
        found[-1] in _REGION_CODES or any(" ".join(found[i:]).lower() in _REGION_NAMES for i in range(len(found)))
    )


def _only_town_between(street: str, found: list[str]) -> bool:
    """Whether the words ``found`` between a street address and a code are only a town and a province or state: at
    most four words written as names are, or a state's or province's code, or capitals where the street is in capitals
    too ("12 Main St. UO 15000", "clinic. CD4 3TC": a sentence or a lab value)."""
    return len(found) <= 4 and all(
        (word[0].isupper() and (word[1:].islower() or not word[1:].isalpha()))
        or word in _REGION_CODES
        or (word.isupper() and street.isupper())
        for word in found
    )


# A ZIP+4 on its own ("21201-3456"): five digits, a hyphen, four digits.
ZIP_PLUS4 = r"\d(?<![\w.,/-]\d)\d{4}-\d{4}(?![\w]|[.,/-]\d)"

UNIT_WORDS = ("flat", "apt", "apartment", "unit", "suite", "ste", "maisonette")
# "Flat 3, ", "Apt. 4B ", "Unit 2/": a flat or unit and its number before the street address.
_UNIT_LEAD = (
    r"\b" + words(*UNIT_WORDS) + r"(?:\.[ \t]{0,2}|[ \t]{1,2})(?:no\.?[ \t]{0,2}|#[ \t]{0,2})?"
    r"(?:\d{1,4}[A-Za-z]?|[A-Za-z]\d{0,3})[ \t]{0,2}[,/]?[ \t]{1,2}(?=\d)"
)

# A town's name: capitalised words in any script's letters, hyphens, apostrophes and en dashes inside ("Saint-Léonard",
# "L'Ancienne-Lorette"), joined by the small words of place names ("Newcastle under Lyme", "Ashton in Makerfield").
_CAPITALISED = r"\p{Lu}[\p{L}'\u2019\-\u2013]{1,40}"
_TOWN_JOINS = ("upon", "under", "in", "on", "by", "le", "la", "les", "de", "du", "des", "sur", "en")
_TOWN = _CAPITALISED + r"(?:[ \t](?:(?:" + "|".join(_TOWN_JOINS) + r")[ \t])?" + _CAPITALISED + r"){0,2}"
# The province or territory between a Canadian town and its postal code ("Granby, QC J2G 1A1").
_PROVINCE = r"(?:" + "|".join(CA_PROVINCE_CODES) + ")"
_TOWN_BEFORE = r"(?r)(?<![\w'])(?P<c>" + _TOWN + r"),?[ \t]{1,2}(?:" + _PROVINCE + r",?[ \t]{1,3})?\Z"
# A multi-line address: the post town alone on the line above the postcode ("12 High Street\nLeeds\nLS1 4AP").
_TOWN_LINE_BEFORE = r"(?r)(?:\A|\n)[ \t]{0,4}(?P<c>" + _TOWN + r"),?[ \t]{0,4}\n[ \t]{0,4}\Z"
# A continental postcode before its town at the end of an address's line or sentence ("Storgata 1, 0155 Oslo", "Via
# Roma 12, 00184 Roma", "Damrak 1, 1012 LG Amsterdam"): four or five digits (a Dutch code adds two capitals) at a line's
# start or after a comma, then the town (see _postcode_before_town).
POSTCODE_BEFORE_TOWN = (
    r"(?P<c>(?P<d>\d(?<=(?:^|\n|,)[ \t]{0,4}\d)\d{3,4})(?:[ \t][A-Z]{2})?)[ \t]{1,2}(?P<t>" + _TOWN + r")"
    r"(?=[ \t]{0,4}(?:\r?\n|\Z|,|\.(?:[ \t\r\n]|\Z)))"
)


def _town_before(text: str, start: int) -> list[Hit]:
    """The town written right before a postcode on its line ("Leeds LS1 4AP") or alone on the line above it: one or
    two capitalised words that are no function words."""
    town = compile_source(_TOWN_BEFORE, False).search(text, max(0, start - 100), start)
    if town is None:
        town = compile_source(_TOWN_LINE_BEFORE, False).search(text, max(0, start - 100), start)
    if town is None or any(w.lower() in STOP_WORDS and w not in _TOWN_JOINS for w in town["c"].split()):
        return []
    return [Hit(town.start("c"), town.end("c"), Label.CITY, score=0.6)]


def _code_start(text: str, m: regex.Match[str], lead: int) -> int:
    """Where a postcode matched from its first digit starts: the ``lead`` capitals (at most) before it belong to it."""
    start = m.start()
    while start > m.start() - lead and start > 0 and text[start - 1].isupper():
        start -= 1
    return start


def _letters_before(lead: int) -> Validator:
    """A postcode matched from its first digit, with its capitals (:func:`_code_start`) and the town before it."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        start = _code_start(text, m, lead)
        return [Hit(start, m.end()), *_town_before(text, start)]

    return check


def _street_before(text: str, start: int, street_rules: Callable[[], tuple[Pattern, ...]]) -> list[str] | None:
    """The words between a street address that one of ``street_rules`` finds in the reach before ``start`` and
    ``start``, where they are only a town and a state or province (:func:`_only_town_between`); None: no such street."""
    reach = max(0, start - _ADDRESS_REACH)
    for rule in street_rules():
        for street in rule.compiled.finditer(text, reach, start):
            hits = [Hit(*street.span(rule.group))] if rule.validator is None else rule.validator(text, street)
            if not hits:
                continue
            between = _GAP_WORD.findall(text, hits[0].end, start)
            if _only_town_between(text[hits[0].start : hits[0].end], between):
                return between
    return None


def _after_street_address(lead: int, street_rules: Callable[[], tuple[Pattern, ...]]) -> Validator:
    """A postcode-shaped code matched from its first digit (the ``lead`` capitals before it belong to it) where one of
    ``street_rules`` finds a street address in the reach before it: the end of an address block."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        start = _code_start(text, m, lead)
        between = _street_before(text, start, street_rules)
        if between is None:
            return []
        # the town before a state or province is the state rules' (location.state_zip), ours otherwise
        towns = [] if _ends_in_region(between) else _town_before(text, start)
        return [Hit(start, m.end()), *towns]

    return check


def _postcode_before_town(street_rules: Callable[[], tuple[Pattern, ...]]) -> Validator:
    """A continental postcode and the town after it (:data:`POSTCODE_BEFORE_TOWN`) where the town is a listed city or
    a street address stands before the code; a year's four digits ("..., 2019 Boston") only after a street."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        from deident.detect.patterns.locations import listed_city  # locations imports this module

        digits = m["d"]
        year_like = len(digits) == 4 and 1900 <= int(digits) <= 2099
        listed = listed_city(m["t"].lower())
        if (year_like or not listed) and _street_before(text, m.start(), street_rules) is None:
            return []
        return [Hit(m.start(), m.end("c")), Hit(m.start("t"), m.end("t"), Label.CITY, score=0.6)]

    return check


def _au_postcode(text: str, m: regex.Match[str]) -> list[Hit]:
    """A state's postcode only in that state's ranges ("NSW 2150", not "NT 2150" or "SA 1200"), the town before it."""
    code = int(m["pc"])
    if not any(low <= code <= high for low, high in _AU_POSTCODE_RANGES[m["st"].upper()]):
        return []
    return [
        Hit(m.start("st"), m.end("st"), Label.STATE),
        Hit(m.start("pc"), m.end("pc")),
        *_town_before(text, m.start("st")),
    ]


def _zip_plus4(text: str, m: regex.Match[str]) -> list[Hit]:
    if unit_follows(text, m.end()):
        return []
    first, second = m[0].split("-")
    if first.endswith("00") and second.endswith("00"):
        return []  # a range of round values ("15000-2500" written loosely, "10000-9000"), not a ZIP+4
    return [Hit(m.start(), m.end())]


def _unit_then_street(street_rules: Callable[[], tuple[Pattern, ...]]) -> Validator:
    """A flat or unit lead joined to the street address that follows it, when one of ``street_rules`` finds one
    there."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        for rule in street_rules():
            street = rule.compiled.match(text, m.end())
            if street is None or rule.validator is None:
                continue
            hits = rule.validator(text, street)
            if hits and hits[0].start == m.end():
                return [Hit(m.start(), hits[0].end)]
        return []

    return check


def postcode_patterns(street_rules: Callable[[], tuple[Pattern, ...]]) -> tuple[Pattern, ...]:
    """The rules of this module; ``street_rules`` gives the street address rules that a unit lead joins."""
    return (
        Pattern(
            "location.uk_postcode",
            Label.ZIP,
            UK_POSTCODE,
            0.85,
            _letters_before(2),
            ignore_case=False,
            hints=ScanHints(digit_run=(1, 2), run_prev="[A-Z]"),
        ),
        Pattern(
            "location.ca_postal_code",
            Label.ZIP,
            CA_POSTAL_CODE,
            0.85,
            _letters_before(1),
            ignore_case=False,
            hints=ScanHints(digit_run=(1, 1), run_prev="[A-Z]"),
        ),
        Pattern(
            "location.uk_postcode_shape",
            Label.ZIP,
            UK_POSTCODE_SHAPE,
            0.7,
            _after_street_address(2, street_rules),
            ignore_case=False,
            hints=ScanHints(digit_run=(1, 2), run_prev="[A-Z]"),
        ),
        Pattern(
            "location.ca_postal_code_shape",
            Label.ZIP,
            CA_POSTAL_CODE_SHAPE,
            0.7,
            _after_street_address(1, street_rules),
            ignore_case=False,
            hints=ScanHints(digit_run=(1, 1), run_prev="[A-Z]"),
        ),
        Pattern(
            "location.zip_after_address",
            Label.ZIP,
            ZIP_AFTER_ADDRESS,
            0.7,
            _after_street_address(0, street_rules),
            ignore_case=False,
            hints=ScanHints(digit_run=(5, 5), run_prev=r"[^\w.,/-]"),
        ),
        Pattern(
            "location.postcode_before_town",
            Label.ZIP,
            POSTCODE_BEFORE_TOWN,
            0.7,
            _postcode_before_town(street_rules),
            ignore_case=False,
            hints=ScanHints(digit_run=(4, 5), run_prev=r"[ \t\n,]", run_next=r"[ \t]"),
        ),
        Pattern(
            "location.postcode_labelled",
            Label.ZIP,
            _LABELLED_POSTCODE,
            0.9,
            None,
            group="p",
            hints=ScanHints(anchors=("postcode", "post code", "postal code")),
        ),
        Pattern(
            "location.au_postcode",
            Label.ZIP,
            _AU_POSTCODE,
            0.85,
            _au_postcode,
            ignore_case=False,
            # by hand: none is derived from a case-sensitive alternation
            hints=ScanHints(anchors=("nsw", "vic", "qld", "sa", "wa", "tas", "nt", "act")),
        ),
        Pattern(
            "location.zip_plus4",
            Label.ZIP,
            ZIP_PLUS4,
            0.7,
            _zip_plus4,
            ignore_case=False,
            hints=ScanHints(digit_run=(5, 5), run_next="-", run_prev=r"[^\w.,/-]"),
        ),
        Pattern(
            "location.unit_street_address",
            Label.STREET,
            _UNIT_LEAD,
            0.8,
            _unit_then_street(street_rules),
        ),
    )
