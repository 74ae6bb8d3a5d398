"""ID patterns: SSN; medical record, account, health-plan, licence, vehicle, device and generic numbers.

Most IDs are found through a trigger ("MRN:", "acct #", "policy no") followed by an ID-shaped token;
SSNs and VINs are also found by shape and confirmed with python-stdnum or the VIN check digit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import regex
from stdnum import luhn
from stdnum.us import ssn as us_ssn

from deident.core.labels import Label
from deident.core.provenance import Confirmation
from deident.detect.patterns.checked_ids import checked_id_patterns
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.rules import LEADER, Hit, Pattern, ScanHints, rx, search_before, unit_follows, words
from deident.text.wordfrequency import zipf

# An ID-shaped token: letters, digits and inner separators, with at least one digit (checked below).
ID_TOKEN = r"(?P<p>[A-Za-z0-9](?:[A-Za-z0-9]|[-./][A-Za-z0-9]){2,24})"
# After its trigger, an identifier is often typed in groups with blanks between them, or a dash with blanks around it
# (an NHS number's 3-3-4, a card's 4-4-4-4, "MRN: 123 456 789", "SSN: 123 - 45 - 6789"): each further group is letters
# and digits of two characters at least, which open with a digit or with two to four letters and a digit ("XJH 123 456
# 789", a spaced Medicare number "1EG4 TE5 MK73"; not "x2" of "MRN 1234567 x2"), and no decimal, time
# or date goes on after it ("MRN 1234567 12:30" keeps only the number). A word ("MRN 1234567 seen today") ends it.
_ID_GROUP_GAP = r"(?:[ \t]|[ \t]-[ \t]?|-[ \t])"  # a dash without blanks is inside a group (ID_TOKEN)
_ID_GROUP = _ID_GROUP_GAP + r"(?:\d|(?=[A-Za-z]{1,4}\d)[A-Za-z]{2})[A-Za-z0-9]{1,11}(?![\w]|[-/.:,][A-Za-z0-9])"
# A colon may join a prefix to a letter-led part ("Accession # 11:C58868"), never two numbers (a time, "12:30").
SPACED_ID_TOKEN = r"(?P<p>[A-Za-z0-9](?:[A-Za-z0-9]|[-./][A-Za-z0-9]|:[A-Za-z]){1,24}(?:" + _ID_GROUP + r"){0,5})"
# Between an SSN's groups after its trigger: a dash or dot, blanks around it or none, or blanks ("123 - 45 - 6789").
_SSN_GAP = r"(?:[ \t]{0,2}[.-][ \t]{0,2}|[ \t]{1,2})?"
_GAP = (
    r"[ \t]{0,2}(?:#|no\.?|num(?:ber)?|number|id)?[ \t]{0,2}(?:" + LEADER + r"|[:#=.])?[ \t]{0,2}"
    r"(?:(?:is|was)[ \t]{1,2})?"
)

TRIGGER_PHRASES: dict[Label, tuple[str, ...]] = {
    Label.MEDICALRECORD: (
        "mrn", "mr#", "mr #", "mr no", "medical record", "medical record number", "med rec", "unit no", "unit number",
        "hospital number", "hosp no", "chart", "chart number", "patient id", "pt id", "record number", "record no",
        # Scotland's patient number (ten digits, no check that python-stdnum knows) and a hospital's own; NHS numbers
        # are id.nhs_number's, which checks their format
        "chi number", "chi no", "hospital no",
    ),
    Label.ACCOUNT: ("acct", "account", "acc#", "billing number", "billing account", "invoice"),
    Label.HEALTHPLAN: (
        "member id", "member", "policy", "insurance id", "insurance number", "subscriber id", "subscriber",
        "group number", "medicare", "medicaid", "hicn", "mbi", "plan id", "beneficiary",
        # insurance and health cards outside the US: Ontario's OHIP, British Columbia's PHN, Medicare Australia
        "group no", "health card", "health card number", "ohip", "phn", "personal health number", "medicare card",
        "insurance policy", "policy holder id",
    ),
    Label.LICENSE: ("license", "licence", "lic", "driver's license", "drivers license", "dl", "dea", "npi",
                         "certificate", "cert"),
    Label.VEHICLE: ("license plate", "licence plate", "number plate", "plate", "tag number", "vin", "vehicle id",
                    "registration", "registration number", "reg no", "reg. no", "vehicle registration"),
    Label.DEVICE: ("serial", "serial number", "s/n", "sn", "model number", "device id", "device serial",
                        "lot number", "udi", "implant id"),
    Label.IDNUM: (
        "id", "identifier", "ref", "reference", "case", "claim", "confirmation", "accession", "specimen",
        "requisition", "ticket", "order number", "control number", "tracking number", "file number",
        # insurance authorisations and travel documents
        "prior auth", "prior authorization", "prior authorisation", "pre-auth", "preauth", "authorization",
        "authorisation", "auth", "passport", "passport number",
        # a transcription footer: "Job #: 104943", "Job: M00760  Doc: 949630"
        "job", "doc",
        # a pathology or laboratory report's and an encounter's numbers ("Path # SP-19-12345", "CSN: 123456789")
        "path", "pathology", "surgical pathology", "cytology", "slide", "encounter", "encounter number", "csn", "fin",
        "visit number", "admission number",
    ),
}  # fmt: skip
_VIN_VALUES = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9), strict=True))}
_VIN_VALUES.update(dict(zip("JKLMN", range(1, 6), strict=True)))
_VIN_VALUES.update({"P": 7, "R": 9, **dict(zip("STUVWXYZ", range(2, 10), strict=True))})
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
_NOT_ID_BEFORE = r"(?:pager|beeper|page|pg|room|rm|bed|phone|cell|tel|fax|home|work)[ \t]{0,2}#?[ \t]{0,2}\Z"


_QUANTITY = r"\d{1,12}-?(?:cc|u|ml|mg|mcg|g|kg|l|meq|mmol|units?|pm|am|p|a|hr|hrs|h|min|mins|s|x|td|bun|cr|mmhg|cm|mm)"


def vin_check_digit_ok(vin: str) -> bool:
    """The ISO 3779 / FMVSS 115 check digit (position 9) of a North American VIN."""
    vin = vin.upper()
    if len(vin) != 17 or any(c not in _VIN_VALUES for c in vin):
        return False
    total = sum(_VIN_VALUES[c] * w for c, w in zip(vin, _VIN_WEIGHTS, strict=True)) % 11
    return vin[8] == ("X" if total == 10 else str(total))


def _id_token(min_digits: int, plate: bool = False) -> Callable[[str, regex.Match[str]], list[Hit]]:
    """``plate``: two digits are enough among three letters or more, as a British plate has them ("KX19 ABC")."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        start = m.start("p")
        ends = _group_ends(text, start, m.end("p"))
        # The longest run of groups that is an identifier: "MRN 1234567 2 days ago" is the number without the count.
        for end in ends:
            token = text[start:end]
            digits = sum(c.isdigit() for c in token)
            enough = digits >= min_digits or (plate and digits == 2 and sum(c.isalpha() for c in token) >= 3)
            if not enough or unit_follows(text, end):
                continue
            if end != ends[-1] and not _grouped_id(text[start : ends[-1]], token):
                continue
            if "." in token and rx(r"[\d.\-/]{1,40}").fullmatch(token):
                return []  # a measurement after a section header ("ID: 95.8-97.2"), not an identifier
            return [Hit(start, end)]
        return []

    return check


# The words of the triggers, and of what may stand between a trigger and its number: no prefix code of a number.
_TRIGGER_WORDS = frozenset(
    word for phrases in TRIGGER_PHRASES.values() for phrase in phrases for word in phrase.split()
) | {"no", "num", "number", "id", "is"}


def _grouped_id(first: str, token: str) -> bool:
    """Whether a token of several groups is one identifier: six letters and digits at least ("chart 12 34" is no
    record number), a first group with a digit or of two to four capitals (a prefix code: "XJH 123 456 789"; not "ID:
    received 1000mg" nor "Nampa, ID in 2017"), and no dose among the groups ("1000mg")."""
    if sum(c.isalnum() for c in token) < 6:
        return False
    if not any(c.isdigit() for c in first) and not (
        2 <= len(first) <= 4 and first.isalpha() and first.isupper() and first.lower() not in _TRIGGER_WORDS
    ):
        return False  # "Medicare MBI 1EG4-TE5-MK73": the number is the one after "MBI"
    return not any(rx(_QUANTITY).fullmatch(group) for group in token.split()[1:])


def _group_ends(text: str, start: int, end: int) -> list[int]:
    """The ends of the token's blank-separated groups (see SPACED_ID_TOKEN), the whole token's first."""
    gaps = [gap.start() for gap in rx(r"[ \t]?-?[ \t]").finditer(text, start, end)]
    return sorted({end, *gaps}, reverse=True)


def _ssn(text: str, m: regex.Match[str]) -> list[Hit]:
    digits = "".join(c for c in m["p"] if c.isdigit())
    if us_ssn.is_valid(digits):
        return [Hit(m.start("p"), m.end("p"), score=0.95, confirmed=Confirmation.CHECKSUM)]
    # Invalid areas (000, 666, 9xx) still look like SSNs in synthetic or mistyped notes; keep them weaker.
    if digits[3:5] == "00" or digits[5:] == "0000":
        return []
    return [Hit(m.start("p"), m.end("p"), score=0.6, evidence=("ssn-invalid",))]


# UK National Insurance number (HMRC): two prefix letters (D, F, I, Q, U and V never; O never second), six digits in
# pairs written together or apart, a suffix letter A-D ("AB 12 34 56 C", "JG103759A"). Matched from the first digit
# pair; the validator adds the prefix and refuses the prefixes HMRC never allocates.
NINO = (
    r"\d\d(?<=(?<![\w])(?P<pre>[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z])(?P<s>[ ]?)\d\d)"
    r"(?P=s)\d\d(?P=s)\d\d(?P=s)[A-D](?![\w])"
)
_NINO_NEVER = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})
# A MAC address (IEEE 802): six pairs of hexadecimal digits, one separator throughout ("00:1A:2B:3C:4D:5E").
MAC_ADDRESS = r"(?<![\w:.-])[0-9A-Fa-f]{2}(?P<s>[:-])(?:[0-9A-Fa-f]{2}(?P=s)){4}[0-9A-Fa-f]{2}(?![\w:.-])"


def _nino(text: str, m: regex.Match[str]) -> list[Hit]:
    return [] if m["pre"] in _NINO_NEVER else [Hit(m.start("pre"), m.end())]


# Payment card numbers (ISO/IEC 7812): the issuer prefixes and lengths of the major networks, then the Luhn digit.
# (prefix range low, high, number of prefix digits, allowed lengths)
_CARD_ISSUERS: tuple[tuple[int, int, int, frozenset[int]], ...] = (
    (4, 4, 1, frozenset({13, 16, 19})),  # Visa
    (51, 55, 2, frozenset({16})),  # Mastercard
    (2221, 2720, 4, frozenset({16})),  # Mastercard 2-series
    (34, 34, 2, frozenset({15})),  # American Express
    (37, 37, 2, frozenset({15})),
    (6011, 6011, 4, frozenset(range(16, 20))),  # Discover
    (644, 649, 3, frozenset(range(16, 20))),
    (65, 65, 2, frozenset(range(16, 20))),
    (3528, 3589, 4, frozenset(range(16, 20))),  # JCB
    (300, 305, 3, frozenset(range(14, 20))),  # Diners Club
    (36, 36, 2, frozenset(range(14, 20))),
    (38, 39, 2, frozenset(range(16, 20))),
    (62, 62, 2, frozenset(range(16, 20))),  # UnionPay
)


def card_number_ok(digits: str) -> bool:
    """A payment card number: a known issuer prefix, that issuer's length and a valid Luhn check digit."""
    if not digits.isdigit():
        return False
    length = len(digits)
    issued = any(
        low <= int(digits[:width]) <= high and length in lengths for low, high, width, lengths in _CARD_ISSUERS
    )
    return issued and luhn.is_valid(digits)


def _card(text: str, m: regex.Match[str]) -> list[Hit]:
    number = m[0]
    separators = {c for c in number if not c.isdigit()}
    if len(separators) > 1:
        return []  # one separator throughout, as cards are printed
    if not card_number_ok("".join(c for c in number if c.isdigit())):
        return []
    return [Hit(m.start(), m.end(), confirmed=Confirmation.CHECKSUM)]


def _with_capitals_before(text: str, m: regex.Match[str]) -> list[Hit]:
    if rx(_QUANTITY).fullmatch(m[0]):
        return []  # "1500CC", "1000U", "1145AM", "1940S": a quantity, time or decade
    start = m.start()
    while start > 0 and (
        text[start - 1].isupper() or (text[start - 1] == "-" and text[start - 2 : start - 1].isupper())
    ):
        start -= 1
    return [Hit(start, m.end())]


def _vin(text: str, m: regex.Match[str]) -> list[Hit]:
    # The match is the last four digits (a fast digit-first scan); the VIN is the 17 characters ending there.
    start = m.end() - 17
    return [Hit(start, m.end(), confirmed=Confirmation.CHECKSUM)] if vin_check_digit_ok(text[start : m.end()]) else []


def _plate(text: str, m: regex.Match[str]) -> list[Hit]:
    """A plate mixes letters and digits ("897T8", "izq 794"); a word or a bare number in parentheses is none."""
    plate = m["p"]
    if not (any(c.isdigit() for c in plate) and any(c.isalpha() for c in plate)) or unit_follows(text, m.start("p")):
        return []
    if rx(_QUANTITY).fullmatch(plate.replace(" ", "")):
        return []  # "car (2L)", "van (10mg)": a quantity
    parts = regex.split(r"[ -]", plate)
    # "car (2 hours)", "plate 727n lol": a word; but capitals beside a group that mixes letters and digits are the
    # plate's letters ("KX19 ABC")
    mixed = any(
        any(c.isdigit() for c in part) and any(c.isalpha() for c in part) and not rx(_QUANTITY).fullmatch(part)
        for part in parts
    )
    if any(part.isalpha() and zipf(part.lower()) >= 3.5 and not (mixed and part.isupper()) for part in parts):
        return []
    return [Hit(m.start("p"), m.end("p"))]


def _hash_number(text: str, m: regex.Match[str]) -> list[Hit]:
    if rx(_NOT_ID_BEFORE).search(text, max(0, m.start() - 20), m.start() + 1) or unit_follows(text, m.end("p")):
        return []
    return [Hit(m.start("p"), m.end("p"))]


def _long_number(text: str, m: regex.Match[str]) -> list[Hit]:
    if unit_follows(text, m.end()) or search_before(_NOT_ID_BEFORE, text, m.start(), 20):
        return []
    return [Hit(m.start(), m.end())]


@lru_cache(maxsize=1)
def id_patterns() -> tuple[Pattern, ...]:
    triggered = tuple(
        Pattern(
            f"id.trigger_{label.value.lower()}",
            label,
            r"\b" + words(*phrases) + r"(?![\w])" + _GAP + SPACED_ID_TOKEN + r"(?![\w]|[-./][A-Za-z0-9])",
            0.85 if label is not Label.IDNUM else 0.7,
            _id_token(3 if label is not Label.IDNUM else 4, plate=label is Label.VEHICLE),
            group="p",
        )
        for label, phrases in TRIGGER_PHRASES.items()
    )
    return (
        Pattern(
            "id.ssn",
            Label.SSN,
            r"(?P<p>\d(?<![\w-]\d)(?:\d{2}-\d{2}-\d{4}|\d{2} \d{2} \d{4}))(?![\w]|-\d)",
            0.9,
            _ssn,
            hints=ScanHints(digit_run=(3, 3), run_next=r"[- ]\d{2}[- ]\d{4}", run_prev=r"[^\w-]"),
        ),
        Pattern(
            "id.ssn_trigger",
            Label.SSN,
            r"\b(?:ssn|ss#|ss no|social security(?:[ \t]{1,2}(?:number|no|#))?)[ \t]{0,2}[:#]?[ \t]{0,2}"
            r"(?P<p>\d{3}" + _SSN_GAP + r"\d{2}" + _SSN_GAP + r"\d{4})\b",
            0.95,
            None,
            group="p",
            hints=ScanHints(anchors=("ssn", "ss#", "ss", "social")),
        ),
        Pattern(
            # After its name, a National Insurance number of any prefix: HMRC's own example "QQ 12 34 56 C" and a
            # mistyped prefix are someone's number all the same (id.uk_national_insurance refuses them untriggered).
            "id.nino_trigger",
            Label.SSN,
            r"\b(?:nino|ni[ \t]{1,2}(?:number|no\.?|#)|national[ \t]{1,2}insurance(?:[ \t]{1,2}(?:number|no\.?|#))?)"
            r"[ \t]{0,2}[:#]?[ \t]{0,2}(?P<p>[A-Za-z]{2}(?P<s>[ ]?)\d\d(?P=s)\d\d(?P=s)\d\d(?P=s)[A-Da-d])(?![\w])",
            0.9,
            None,
            group="p",
            hints=ScanHints(anchors=("nino", "ni", "national")),  # by hand: none is derived past a gap in a branch
        ),
        Pattern(
            # A UK bank's sort code after its name, six digits in pairs ("Sort code: 40-47-84", "sort code 404784"),
            # which with an account number identifies a person's bank account.
            "id.uk_sort_code",
            Label.ACCOUNT,
            r"\bsort[ \t]{0,2}code[ \t]{0,2}[:#]?[ \t]{0,2}(?:is[ \t]{1,2})?(?P<p>\d\d(?P<s>[- ]?)\d\d(?P=s)\d\d)"
            r"(?![\w]|[-./]\d)",
            0.9,
            None,
            group="p",
            hints=ScanHints(anchors=("sort", "sortcode")),  # by hand: none is derived past the optional gap
        ),
        *triggered,
        *checked_id_patterns(),
        Pattern(
            "id.uk_national_insurance",
            Label.SSN,
            NINO,
            0.85,
            _nino,
            ignore_case=False,
            # after the run, the next pair (spaced form) or the closing letter
            hints=ScanHints(digit_run=(2, 6), run_prev="[A-Z ]", run_next=r"[ ]?[\dA-D]"),
        ),
        Pattern(
            "id.mac_address",
            Label.DEVICE,
            MAC_ADDRESS,
            0.9,
            None,
            # Scanned only in notes with two hexadecimal pairs between colons or hyphens (every address holds them; a
            # gate that opens with a separator is searched twice as fast as one that opens with a pair).
            hints=ScanHints(lower_gate=r"[:-][0-9a-f][0-9a-f][:-][0-9a-f][0-9a-f][:-]"),
        ),
        Pattern(
            "id.vin",
            Label.VEHICLE,
            r"\d{4}(?<=\b[A-HJ-NPR-Z0-9]{13}\d{4})\b",
            0.9,
            _vin,
            ignore_case=False,
            # The four digits end a digit run (\b after them) of at most 17 digits (\b 17 characters before).
            hints=ScanHints(run_tail=(4, 17)),
        ),
        Pattern(
            # "pt's car (FUK7121) left in garage", "truck (izq 794)": a plate in parentheses after the vehicle.
            "id.plate_in_parentheses",
            Label.VEHICLE,
            r"\b(?:car|truck|van|vehicle|suv|motorcycle|jeep)[ \t]{0,2}\([ \t]{0,2}"
            r"(?P<p>[A-Za-z0-9]{1,4}[ -]?[A-Za-z0-9]{1,5})[ \t]{0,2}\)",
            0.7,
            _plate,
            group="p",
        ),
        Pattern(
            # "license plate LRH 013", "plate H48-HKY": a plate written in two groups after the word (one unbroken
            # group is the VEHICLE trigger rule's).
            "id.plate_after_word",
            Label.VEHICLE,
            r"\b(?:(?:(?:licen[cs]e|number)[ \t]{1,2})?plates?|(?:vehicle[ \t]{1,2})?registration)"
            r"(?:[ \t]{1,2}(?:number|no\.?|#))?[ \t]{0,2}[:#]?[ \t]{0,2}(?:(?:is|was)[ \t]{1,2})?"
            r"(?P<p>[A-Za-z0-9]{1,4}[ -][A-Za-z0-9]{1,5})(?![\w]|[-./][A-Za-z0-9])",
            0.7,
            _plate,
            group="p",
            # by hand: the optional first word
            hints=ScanHints(anchors=("licence", "license", "number", "plate", "plates", "vehicle", "registration")),
        ),
        Pattern(
            "id.payment_card",
            Label.ACCOUNT,
            # Grouped as printed (4-4-4-4, 4-4-4-4-3, 4-6-5, 4-6-4) or unbroken; the validator checks issuer,
            # length and the Luhn digit.
            r"\d(?<![\w.,/-]\d)(?:\d{3}(?:[ -]\d{4}){2}[ -]\d{1,4}(?:[ -]\d{3})?|\d{3}[ -]\d{6}[ -]\d{4,5}|\d{12,18})"
            r"(?![\w]|[.,/-]\d|[ -]\d)",
            0.9,
            _card,
            ignore_case=False,
            hints=ScanHints(digit_run=(4, 19), run_prev=r"[^\w.,/-]"),
        ),
        Pattern(
            "id.hash_number",
            Label.IDNUM,
            r"#[ \t]{0,2}(?P<p>\d{5,15})(?![\w]|[.,]\d)",
            0.6,
            _hash_number,
        ),
        Pattern(
            "id.letter_digit_shape",
            Label.IDNUM,
            # e.g. AB1234567, K-2034981, 4471-XJ: several digits mixed with capitals, not a unit or a lead.
            # Searched from its first digit (a fast scan), the capitals before it are added by the validator.
            r"\d(?:(?<=(?<![\w-])[A-Z]{1,4}-?\d)\d{4,14}|(?<![\w-]\d)\d{3,11}-?[A-Z]{1,4}\d{0,8})(?![\w]|-\w)",
            0.5,
            _with_capitals_before,
            ignore_case=False,
            # Both branches start at the first digit of a run: 5-15 digits after capitals, 4-12 before them.
            hints=ScanHints(digit_run=(4, 15)),
        ),
        Pattern(
            "id.long_number",
            Label.IDNUM,
            r"\d(?<![\w.,/-]\d)\d{6,13}(?![\w]|[.,/-]\d)",
            0.45,
            _long_number,
            ignore_case=False,
            hints=ScanHints(digit_run=(7, 14), run_prev=r"[^\w.,/-]"),
        ),
    )


def id_detector() -> PatternDetector:
    return PatternDetector("patterns.id", id_patterns())
