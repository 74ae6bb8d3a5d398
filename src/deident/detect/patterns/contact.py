"""CONTACT patterns: phone, fax and pager numbers in their common shapes, e-mail, URL and IP address."""

from __future__ import annotations

import ipaddress
from functools import lru_cache

import phonenumbers
import regex
from phonenumbers import ValidationResult

from deident.core.labels import Label
from deident.core.provenance import Confirmation
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.rules import (
    LEADER,
    Hit,
    Pattern,
    ScanHints,
    Validator,
    rx,
    search_before,
    unit_follows,
    words,
)

PHONE_TRIGGER_WORDS = (
    "phone", "ph", "tel", "telephone", "cell", "cell phone", "cellphone", "mobile", "home", "work", "office",
    "contact", "call", "called", "reached at", "reach at", "number", "hm", "wk", "ext",
)  # fmt: skip
PAGER_TRIGGER_WORDS = ("pager", "beeper", "page", "paged", "pg", "bpr", "beep", "pgr", "pager number", "beeper number")
FAX_TRIGGER_WORDS = ("fax", "facsimile", "fax number", "fax no", "fx")
# More ways a form or letter introduces a number (UK and Australian usage included: "mob", "bleep", "switchboard").
MORE_PHONE_TRIGGER_WORDS = (
    "mob", "mob no", "mobile no", "mobile number", "cell no", "cell number", "tel no", "telephone no",
    "telephone number", "phone no", "phone number", "ph no", "contact no", "contact number", "landline",
    "direct line", "switchboard", "bleep", "extension", "whatsapp", "text", "texted", "ring", "rang",
)  # fmt: skip
# Regions whose national numbering a number written without its country code is read in, in turn (ISO 3166
# codes, as phonenumbers spells them). Pass others to contact_detector().
DEFAULT_PHONE_REGIONS: tuple[str, ...] = ("US", "CA", "GB", "IE", "AU")

PHONE_TRIGGERS = words(*PHONE_TRIGGER_WORDS)
PAGER_TRIGGERS = words(*PAGER_TRIGGER_WORDS)
FAX_TRIGGERS = words(*FAX_TRIGGER_WORDS)
_SEP = r"(?:[ \t]{0,2}[-.][ \t]{0,2}|[ \t]{1,2}|/)"
_EXT = r"(?:[ \t]{0,2}(?:x|ext\.?|extension)[ \t]{0,2}\d{1,5})?"
# A first digit not glued to a preceding word, decimal or number; digit-first so the engine skips fast.
_D1 = r"\d(?<!(?:[\w./]|\d[ \t-])\d)"
_D1_PREV = r"[^\w./]"  # what may stand before a run that _D1 starts
_NA = r"(?![\w]|[./-]\d|[ \t]\d)"
# North American shapes: area code, exchange and line, with an optional country code or parentheses.
# Three patterns so that each starts with a cheap literal or digit scan.
_NANP_TAIL = r"\d{3}" + _SEP + r"\d{4}" + _EXT
NANP = _D1 + r"\d{2}" + _SEP + _NANP_TAIL
# After an area code in parentheses the rest may be unbroken: "(617)5550199".
NANP_PAREN = r"(?<![\w])\([ \t]{0,2}\d{3}[ \t]{0,2}\)[ \t]{0,2}-?[ \t]{0,2}\d{3}(?:" + _SEP + r")?\d{4}" + _EXT
NANP_COUNTRY = (
    r"[+1](?<![\w+.][+1])1?" + _SEP + r"(?:\([ \t]{0,2}\d{3}[ \t]{0,2}\)[ \t]{0,2}|\d{3}" + _SEP + ")" + _NANP_TAIL
)
LOCAL = _D1 + r"\d{2}[ \t]{0,2}[-.][ \t]{0,2}\d{4}" + _EXT
# A number written nationally after its trunk prefix "0", as in the UK, Ireland and Australia ("020 7946 0958",
# "07700 900 123", "07700 900123", "01 234 5678"), in groups or unbroken; the area code may stand in parentheses
# ("(02) 9876 5432").
# A dash may stand before it where no word or number does ("DAUGHTER-SMITH---07700 900123"; not "2020-07").
_T0 = r"0(?<![\w+.,/:]0)(?<![\w+.,/:]-0)"
_T0_PREV = r"[^\w+.,/:]"
TRUNK = r"(?:" + _T0 + r"\d{1,4}(?:[ \t-]{1,2}\d{2,6}){1,3}|" + _T0 + r"\d{8,10})"
TRUNK_PAREN = r"(?<!\w)\(0\d{1,4}\)[ \t]{0,2}\d{2,4}(?:[ \t-]{1,2}\d{2,4}){0,2}"
# Two numbers written as one, a slash between them: "617-555-0199/617-555-0142", "555-0199/555-0142", or a second
# line number after a full one ("617-555-0199/0142"). Alone, a number before or after a slash is no phone (dates,
# ratios), so the pair is one pattern, each side checked as the phone rules check it (_slash_pair).
SLASH_PAIR = (
    r"(?P<a>" + _D1 + r"\d{2}" + _SEP + r"\d{3}" + _SEP + r"\d{4}|" + _D1 + r"\d{2}[ \t]{0,2}[-.][ \t]{0,2}\d{4})"
    r"[ \t]{0,2}/[ \t]{0,2}"
    r"(?P<b>\d{3}[ \t]{0,2}[-.][ \t]{0,2}\d{3}[ \t]{0,2}[-.][ \t]{0,2}\d{4}|\d{3}[ \t]{0,2}[-.][ \t]{0,2}\d{4}|\d{4})"
)
# Any phone-shaped run of digit groups (shape only, for numbers right after a phone word).
PHONE_SHAPE = r"\+?\(?\d{1,6}\)?(?:[ \t]{0,2}[-.]?[ \t]{0,2}\(?\d{1,6}\)?){0,5}"


# An extension written after a number: "x1234", "ext. 12", "ext: 1234", "extension 55", ", ext 1234", "#1234". The
# glued "x" and "#" need two digits ("x2" after a number is "twice": "called 555-0143 x2").
_EXTENSION_AFTER = regex.compile(
    r"[ \t]{0,2},?[ \t]{0,2}(?:(?i:ext|extn|extension)\.?[ \t:.#]{0,3}\d{1,6}|(?i:x)[ \t:.]{0,2}\d{2,6}|#[ \t]?\d{2,6})"
    r"(?![\w.]\d|\w)"
)


def _phone_hit(text: str, start: int, end: int, confirmed: Confirmation | None = None) -> Hit:
    """The number with its extension (:func:`_extended`), and with the parentheses around it when they hold nothing
    else ("(410-555-0199)"): they are part of how the number is written, as around an area code."""
    end = _extended(text, end)
    if text[start - 1 : start] == "(" and text[end : end + 1] == ")":
        return Hit(start - 1, end + 1, confirmed=confirmed)
    return Hit(start, end, confirmed=confirmed)


def _extended(text: str, end: int) -> int:
    """The end of a number at ``end`` with the extension written after it, if any: the extension's digits are the
    number's too."""
    extension = _EXTENSION_AFTER.match(text, end)
    return end if extension is None else extension.end()


def _ten_digits(text: str, m: regex.Match[str]) -> list[Hit]:
    digits = sum(ch.isdigit() for ch in m["p"])
    return [_phone_hit(text, m.start("p"), m.end("p"))] if 10 <= digits <= 11 and m["p"][0] in "23456789" else []


_TRIGGER_BEFORE = r"(?r)(?:" + PHONE_TRIGGERS + "|" + PAGER_TRIGGERS + "|" + FAX_TRIGGERS + r")[^\n]{0,24}\Z"
_LOCAL_PARTS = regex.compile(r"(\d{3})([ \t]{0,2}[-.][ \t]{0,2})(\d{4})")
_WRITTEN_AS_PHONE = regex.compile(r"\d{3}([-.])\d{3}\1\d{4}")


def _local(text: str, m: regex.Match[str]) -> list[Hit]:
    if unit_follows(text, m.end()):
        return []
    parts = _LOCAL_PARTS.match(m[0])
    if parts is not None and search_before(_TRIGGER_BEFORE, text, m.start(), 40) is None:
        if _no_local_number(parts):
            return []
        if "." in parts[2] and parts[2][-1] in " \t":
            return []  # a full stop, then a new number: "VT 460. 2100"
    return [_phone_hit(text, m.start(), m.end())]


def _no_local_number(parts: regex.Match[str]) -> bool:
    """Whether _LOCAL_PARTS's exchange, separator and line are no number: no NANP exchange starts with 0 or 1 ("HR
    100-1112"), and round values after a dash are a range ("SVR 900-1300", "voiding 575-1000")."""
    exchange, separator, line = parts[1], parts[2], int(parts[3])
    return exchange[0] in "01" or (separator.strip() == "-" and int(exchange) < line and line % 100 == 0)


def _nanp(text: str, m: regex.Match[str]) -> list[Hit]:
    raw = m[0]
    digits = "".join(ch for ch in raw if ch.isdigit())
    core = digits[1:] if len(digits) > 10 and digits.startswith("1") else digits
    try:
        number = phonenumbers.parse(raw.split("x")[0].split("ext")[0], "US")
        possible = phonenumbers.is_possible_number(number)
    except phonenumbers.NumberParseException:
        possible = False
    # Fictional and out-of-plan numbers matter as much as real ones, so a possible-length NANP shape
    # with a plausible area code (2-9) is enough.
    if not possible and not (len(core) >= 10 and core[0] in "23456789"):
        return []
    if core[0] in "01":
        # No area code starts with 0 or 1, but after a phone word, or written as phone numbers are ("114-066-2685",
        # three, three and four digits with one hyphen or full stop), a number of this shape is a phone all the same
        # (a placeholder "123-456-7890", a mistyped one).
        in_context = search_before(_TRIGGER_BEFORE, text, m.start(), 40) is not None
        written = _WRITTEN_AS_PHONE.fullmatch(raw) is not None
        return [_phone_hit(text, m.start(), m.end())] if in_context or written else []
    # Confirmed: phonenumbers parsed it as a number of possible length, with an area code that can exist.
    return [_phone_hit(text, m.start(), m.end(), Confirmation.PHONE if possible else None)]


def _dashed_with_country_digit(text: str, m: regex.Match[str]) -> list[Hit]:
    return [] if unit_follows(text, m.end()) else [_phone_hit(text, m.start(), m.end())]


def _plausible_number(written: str) -> bool:
    """Ten digits with an area code and an exchange that can exist (neither starts with 0 or 1), or seven that
    phone.local would take (_no_local_number)."""
    digits = "".join(ch for ch in written if ch.isdigit())
    if len(digits) == 10:
        return digits[0] not in "01" and digits[3] not in "01"
    parts = _LOCAL_PARTS.fullmatch(written)
    return parts is not None and not _no_local_number(parts)


def _slash_pair(text: str, m: regex.Match[str]) -> list[Hit]:
    """Both numbers of a pair written with a slash, where each is a plausible number; a second line number of
    four digits joins the first ("617-555-0199/0142" is one span)."""
    if unit_follows(text, m.end()) or not _plausible_number(m["a"]):
        return []
    if len(m["b"]) == 4:
        return [Hit(m.start(), m.end())]
    if not _plausible_number(m["b"]):
        return []
    return [Hit(m.start("a"), m.end("a")), Hit(m.start("b"), m.end("b"))]


def _international(text: str, m: regex.Match[str]) -> list[Hit]:
    """A number with its country code, after "+" or after the exit code "011" that callers in North America dial
    instead (read as the US reads it)."""
    try:
        number = phonenumbers.parse(m[0], None if m[0].startswith("+") else "US")
    except phonenumbers.NumberParseException:
        return []
    # A number of full length: "+1 2345678" is possible only as a local number, without its area code.
    reason = phonenumbers.is_possible_number_with_reason(number)
    if reason != ValidationResult.IS_POSSIBLE:
        return []
    return [_phone_hit(text, m.start(), m.end(), Confirmation.PHONE)]


def _trunk_zero(text: str, start: int, end: int) -> bool:
    """False only where phone.national cannot match at the digit run [start, end): it starts with the trunk 0."""
    return text[start] == "0"


def _national(regions: tuple[str, ...]) -> Validator:
    """A trunk-prefixed number: confirmed where phonenumbers finds it a valid number of one of ``regions``;
    kept unconfirmed where it is of possible length there and has 10 or 11 digits (fictional ranges such as the
    UK's "07700 900xxx" are no valid numbers); anything else is rejected (times in a row, "0800 1200")."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        raw = m[0]
        digits = sum(c.isdigit() for c in raw)
        if not 9 <= digits <= 11 or unit_follows(text, m.end()):
            return []
        for region in regions:
            for found in phonenumbers.PhoneNumberMatcher(raw, region, leniency=phonenumbers.Leniency.VALID):
                if found.start == 0 and found.end == len(raw):
                    return [Hit(m.start(), _extended(text, m.end()), confirmed=Confirmation.PHONE)]
        if digits >= 10 and any(_possible(raw, region) for region in regions):
            return [Hit(m.start(), _extended(text, m.end()), score=0.7)]
        return []

    return check


def _possible(raw: str, region: str) -> bool:
    try:
        return bool(phonenumbers.is_possible_number(phonenumbers.parse(raw, region)))
    except phonenumbers.NumberParseException:
        return False


_DATE_SHAPE = r"\d{1,4}[-./]\d{1,2}[-./]\d{1,4}"
_CLOCK_RANGE = r"(?:[01]\d|2[0-3])[0-5]\d[ \t]{0,2}-[ \t]{0,2}(?:[01]\d|2[0-3])[0-5]\d"


def _phone_shape(text: str, m: regex.Match[str]) -> list[Hit]:
    """A number right after a phone, pager or fax word, whatever its digits: 7 to 15 of them, not a date, a clock
    range ("0700-1900") or a quantity."""
    number = m["p"]
    digits = sum(c.isdigit() for c in number)
    if not 7 <= digits <= 15 or unit_follows(text, m.end("p")):
        return []
    if rx(_DATE_SHAPE).fullmatch(number) or rx(_CLOCK_RANGE).fullmatch(number):
        return []
    start, end = m.start("p"), m.end("p")
    if number.count("(") != number.count(")"):
        return []  # a parenthesis of the sentence, not of the number
    label = Label.FAX if m["t"].lower() in FAX_TRIGGER_WORDS else None
    return [Hit(start, _extended(text, end), label=label)]


# The verbs before a number to call; a pager's take an extension after the person paged (see _number_to_call).
_PAGE_VERBS = ("page", "paged", "paging")
_CALL_VERBS = (
    "call", "called", "calling", "reach", "reached", "contact", "contacted", "ring", "rang", "text", "texted",
    *_PAGE_VERBS,
)  # fmt: skip


def _number_to_call(text: str, m: regex.Match[str]) -> list[Hit]:
    """A number to call someone on: a phone (:func:`_phone_shape`), or a hospital's internal extension, five digits
    ("call him at 41234") or a digit, a dash and four ("reached at 5-1234"); four digits may be a clock time. After
    words with no "at" only a pager's verb takes an extension ("page renal fellow 6-7890"): "contacted pharmacy
    10000" or "called son 3-2005" is no number to call."""
    if m["o"] and m["t"].lower() not in _PAGE_VERBS:
        return _phone_shape(text, m)
    # Four digits are a pager's only after a pager's verb and with the number sign ("page Quorvane #3456"): "called
    # wife at 1500" and "at #1500" are times.
    signed = m["t"].lower() in _PAGE_VERBS and text[max(0, m.start("p") - 3) : m.start("p")].rstrip(" \t").endswith("#")
    extension = r"[1-9]\d{4}|\d-\d{4}|\d{4}" if signed else r"[1-9]\d{4}|\d-\d{4}"
    if rx(extension).fullmatch(m["p"]) and not unit_follows(text, m.end("p")):
        return [Hit(m.start("p"), m.end("p"))]
    return _phone_shape(text, m)


def _extension(text: str, m: regex.Match[str]) -> list[Hit]:
    """An internal extension: "ext. 4471" (the digits), or "x4471" / "x3-4471" (the whole of it). The glued "x"
    form is a multiplier too ("x1000"), so it needs the dashed shape of a hospital extension or a phone, pager or
    fax word before it."""
    if m["w"] is not None:
        return [Hit(m.start("p"), m.end("p"))]
    if "-" not in m["p"] and search_before(_TRIGGER_BEFORE, text, m.start(), 40) is None:
        return []
    return [Hit(m.start(), m.end())]


# An address written out so that harvesters miss it: the "at" in brackets ("jo [at] example [dot] com", "jo (at)
# gmail.com"), or a plain "at" with every "dot" spelled out ("jo at example dot com"); a plain " at " before a dotted
# domain ("meet jo at example.com") is not one.
_BRACKETED_AT = r"[ \t]{0,2}[\[(<{][ \t]{0,2}at[ \t]{0,2}[\])>}][ \t]{0,2}"
_WORD_DOT = r"(?:[ \t]{0,2}[\[(<{][ \t]{0,2}dot[ \t]{0,2}[\])>}][ \t]{0,2}|[ \t]{1,2}dot[ \t]{1,2})"
_ANY_DOT = r"(?:" + _WORD_DOT + r"|\.)"
_DOMAIN_LABEL = r"[a-z0-9][a-z0-9-]{0,62}"
_EMAIL_DOMAINS = r"(?:com|org|net|edu|gov|mil|info|biz|io|us|uk|ca|de|au|nz|ie|fr|co)\b"
_LOCAL_PART = r"[a-z0-9][a-z0-9._%+-]{0,63}"
_SPELLED_EMAIL = (
    # the local part may spell its dots out too ("jo dot quorvane at example dot com")
    r"(?<![\w.+-])" + _LOCAL_PART + r"(?:" + _WORD_DOT + _LOCAL_PART + r"){0,3}(?:"
    + _BRACKETED_AT + _DOMAIN_LABEL + r"(?:" + _ANY_DOT + _DOMAIN_LABEL + r"){0,3}" + _ANY_DOT
    + r"|[ \t]{1,2}at[ \t]{1,2}" + _DOMAIN_LABEL + r"(?:" + _WORD_DOT + _DOMAIN_LABEL + r"){0,3}" + _WORD_DOT
    + r")" + _EMAIL_DOMAINS
)  # fmt: skip


def _email(text: str, m: regex.Match[str]) -> list[Hit]:
    local = search_before(r"(?r)(?<![\w.+-])[a-z0-9][a-z0-9._%+-]{0,63}\Z", text, m.start(), 64)
    return [] if local is None else [Hit(local.start(), m.end(), confirmed=Confirmation.EMAIL)]


# The host name before a domain, searched backwards from it ("www.quorvane", "bit").
_HOST_BEFORE = r"(?r)(?<![\w@.-])(?:[a-z0-9-]{1,63}\.){0,3}[a-z0-9][a-z0-9-]{0,62}\Z"


def _domain(text: str, m: regex.Match[str]) -> list[Hit]:
    head = search_before(_HOST_BEFORE, text, m.start(), 260)
    if head is None or not any(c.isalpha() for c in head[0]):
        return []
    return [Hit(head.start(), m.end(), confirmed=Confirmation.URL)]


# A host under any country's domain (ISO 3166 codes: "bit.ly", "quorvane.me") or a newer generic one, with a path after
# it ("bit.ly/3xQzK9", "quorvane.me/blog"): the path says it is an address, where "pt.in" alone would be a typo.
_NEWER_GENERIC_DOMAINS = frozenset({"app", "dev", "health", "online", "site", "xyz", "blog", "club", "link", "page"})


@lru_cache(maxsize=1)
def _address_domains() -> frozenset[str]:
    from deident.detect.lexicon.data import load_lexicon

    return load_lexicon("country_codes") | _NEWER_GENERIC_DOMAINS


def _domain_with_path(text: str, m: regex.Match[str]) -> list[Hit]:
    if m["tld"].lower() not in _address_domains():
        return []
    head = search_before(_HOST_BEFORE, text, m.start(), 260)
    # A host name of three letters or more ("bit"; not "q.am/pm" or "pt.in/out") and a path with a letter or digit.
    if head is None or sum(c.isalpha() for c in head[0]) < 3 or not any(c.isalnum() for c in m["path"]):
        return []
    return [Hit(head.start(), m.end(), confirmed=Confirmation.URL)]


def _ip(text: str, m: regex.Match[str]) -> list[Hit]:
    try:
        address = ipaddress.ip_address(m[0])
    except ValueError:
        return []
    if isinstance(address, ipaddress.IPv4Address) and m[0].startswith("0"):
        return []  # dotted version numbers and lab strings, not addresses
    if text[m.start() - 1 : m.start()] == "/":
        return []  # the tail of a blood gas run together: "80/48/7.45.34.7"
    return [Hit(m.start(), m.end(), confirmed=Confirmation.IP)]


@lru_cache(maxsize=8)
def contact_patterns(regions: tuple[str, ...] = DEFAULT_PHONE_REGIONS) -> tuple[Pattern, ...]:
    """The contact rules; numbers written without a country code are read in ``regions`` in turn."""
    P = Label.PHONE
    return (
        Pattern(
            "phone.nanp",
            P,
            NANP + _NA,
            0.9,
            _nanp,
            hints=ScanHints(digit_run=(3, 3), run_next=_SEP + r"\d{3}", run_prev=_D1_PREV),
        ),
        Pattern("phone.nanp_parentheses", P, NANP_PAREN + _NA, 0.9, _nanp),
        # Starts at "+" or at a "1" or "11" run: the lookbehind keeps a word character (a digit) out before it, and
        # a separator (no digit) follows "11?".
        Pattern(
            "phone.nanp_country_code",
            P,
            NANP_COUNTRY + _NA,
            0.9,
            _nanp,
            hints=ScanHints(run_starts=("1", "11"), char_starts="+"),
        ),
        Pattern(
            # A one-digit country code before a number written as North American ones are: "7-495-123-4567",
            # "6-064-516-4243" (a mistyped "1-").
            "phone.country_digit_dashed",
            P,
            r"\d(?<![\w+.-]\d)-\d{3}-\d{3}-\d{4}" + _NA,
            0.8,
            _dashed_with_country_digit,
            hints=ScanHints(digit_run=(1, 1), run_next=r"-\d{3}-", run_prev=r"[^\w+.-]"),
        ),
        Pattern(
            "phone.international",
            P,
            # "+44 (0)20 7946 0958", "+33 (0)3 85 81 07 04": a group may follow a closing parenthesis directly.
            # Or unbroken after the country code, or after it and a blank: "+447700900123", "+34 874356169".
            r"(?<![\w+])\+(?:[1-9]\d{0,2})"
            r"(?:(?:(?:[ \t.-]{1,2}|(?<=\)))\(?\d{1,6}\)?){2,6}|\d{5,12}|[ \t.-]{1,2}\d{7,12})(?![\w]|[.-]\d)",
            0.85,
            _international,
        ),
        Pattern(
            # "011 44 20 7946 0958": dialled from North America, the exit code stands for "+".
            "phone.exit_code",
            P,
            r"(?<![\w+])011[ \t.-]{1,2}[1-9]\d{0,2}(?:[ \t.-]{1,2}\(?\d{1,6}\)?){2,5}(?![\w]|[.-]\d)",
            0.85,
            _international,
            hints=ScanHints(run_starts=("011",)),
        ),
        Pattern(
            "phone.local",
            P,
            LOCAL + _NA,
            0.7,
            _local,
            hints=ScanHints(digit_run=(3, 3), run_next=r"[ \t]{0,2}[-.][ \t]{0,2}\d{4}", run_prev=_D1_PREV),
        ),
        Pattern(
            "phone.slash_pair",
            P,
            SLASH_PAIR + _NA,
            0.7,
            _slash_pair,
            hints=ScanHints(digit_run=(3, 3), run_next=_SEP + r"\d", run_prev=_D1_PREV),
        ),
        Pattern(
            "phone.split_digits",
            P,
            # Odd groupings typed in notes: "240444-1243", "202 2671093", "301 273 45166".
            r"(?P<p>" + _D1 + r"(?:\d{2}[ \t]{1,2}\d{7}|\d{5}-\d{4}|\d{2}[ \t]\d{3}[ \t]\d{4,5}))" + _NA,
            0.6,
            _ten_digits,
            hints=ScanHints(
                digit_run=(3, 6),
                # Three digits then blanks and digits, or six digits then a dash and digits.
                run_next=r"[ \t]{1,2}\d{3}|-\d{4}",
                run_prev=_D1_PREV,
            ),
        ),
        Pattern(
            "phone.trigger_local",
            P,
            r"\b" + PHONE_TRIGGERS + r"[ \t]{0,2}(?:" + LEADER + r"|[#:.])?[ \t]{0,2}(?:is[ \t]{1,2}|at[ \t]{1,2})?"
            r"(?P<p>\d{3}[ \t]{1,2}\d{4}|\d{7}|\d{10})" + _NA,
            0.75,
            None,
            group="p",
            hints=ScanHints(anchors=PHONE_TRIGGER_WORDS),
        ),
        Pattern(
            "phone.national",
            P,
            TRUNK + _NA,
            0.85,
            _national(regions),
            hints=ScanHints(digit_run=(2, 11), run_prev=_T0_PREV, run_check=_trunk_zero),
        ),
        Pattern("phone.national_parentheses", P, TRUNK_PAREN + _NA, 0.85, _national(regions)),
        Pattern(
            "phone.trigger_shape",
            P,
            r"\b(?P<t>"
            + words(*PHONE_TRIGGER_WORDS, *MORE_PHONE_TRIGGER_WORDS, *PAGER_TRIGGER_WORDS, *FAX_TRIGGER_WORDS)
            + r")(?![\w])[ \t]{0,2}(?:#|no\.?|number)?[ \t]{0,2}(?:"
            + LEADER
            + r"|[#:.])?[ \t]{0,2}(?:(?:is|at|on)[ \t]{1,2})?"
            + r"(?:#[ \t]{0,2})?(?P<p>"
            + PHONE_SHAPE
            + r")"
            + _NA,
            0.7,
            _phone_shape,
            group="p",
        ),
        Pattern(
            # A number to call someone on, right after the verb or up to three words after it: "Call daughter at
            # 555 1234 after 5", "please reach her son on 07700 900123", "call him at 41234", "pls call 4-5678", with
            # a number sign before it ("paged at #4-5678"), or the words with no "at" ("page renal fellow 6-7890",
            # "call son 617-555-0143"; see _number_to_call: no date, clock time or range, or quantity: "called wife at
            # 1500", "call 2-3 times").
            "phone.call_at",
            P,
            r"\b(?P<t>" + "|".join(_CALL_VERBS) + r")"
            r"[ \t]{1,2}"
            r"(?:(?:[A-Za-z][A-Za-z'.]{0,15}[ \t]{1,2}){0,3}(?:at|on|@)[ \t]{1,2}"
            r"|(?P<o>(?:[A-Za-z][A-Za-z'.]{0,15}[ \t]{1,2}){1,3}))?(?:#[ \t]{0,2})?(?P<p>" + PHONE_SHAPE + r")" + _NA,
            0.7,
            _number_to_call,
            group="p",
        ),
        Pattern(
            # A number typed a digit at a time after a phone word or a verb of calling, as a reader is asked to read
            # it or to slip it past one: "Call 6 1 7 5 5 5 0 1 4 3", "mobile: 0 7 7 0 0  9 0 0 1 2 3". Seven to
            # fifteen digits, each alone.
            "phone.digit_by_digit",
            P,
            r"\b(?P<t>"
            + words(
                *PHONE_TRIGGER_WORDS, *MORE_PHONE_TRIGGER_WORDS, *PAGER_TRIGGER_WORDS, *FAX_TRIGGER_WORDS, *_CALL_VERBS
            )
            + r")(?![\w])[ \t]{0,2}(?:#|no\.?|number)?[ \t]{0,2}(?:"
            + LEADER
            + r"|[#:.])?[ \t]{0,2}(?:(?:is|at|on)[ \t]{1,2})?(?P<p>\d(?:[ \t]{1,2}\d){6,14})(?![\w]|[ \t]{1,2}\d)",
            0.7,
            None,
            group="p",
        ),
        Pattern(
            "phone.pager",
            P,
            r"\b"
            + PAGER_TRIGGERS
            + r"[ \t]{0,2}(?:#|no\.?|number)?[ \t]{0,2}(?:"
            + LEADER
            + r"|[:#.])?[ \t]{0,2}(?:is[ \t]{1,2})?"
            # the number may stand in brackets after the word ("PAGER (12345)"), five digits or an extension's shape
            # there (a clock time in brackets after "paged" is as likely as four digits: "paged (1400)")
            r"(?:\([ \t]?(?=\d{1,2}-\d{4}|\d{5}))?"
            r"(?P<p>\d{1,2}-\d{4}|\d{3,7}(?:[ \t]{0,2}[-.][ \t]{0,2}\d{3,4})?)" + _NA,
            0.8,
            None,
            group="p",
            hints=ScanHints(anchors=PAGER_TRIGGER_WORDS),
        ),
        Pattern(
            "phone.extension",
            P,
            r"(?<![\w-])(?:(?P<w>(?i:ext|extension)[.-]?[ \t]{0,2}#?[ \t]{0,2})|[xX])"
            r"(?P<p>\d{1,2}-\d{4}|\d{4,5})" + _NA,
            0.75,
            _extension,
            # Scanned only in notes with an "x" (of "ext", "extension" or "x" itself) before four digits at all; the
            # gate opens with its literal, which the search skips to (a full scan opens at every character).
            hints=ScanHints(lower_gate=r"x(?:t|tension)?[.-]?[ \t]{0,2}#?[ \t]{0,2}\d\d?-?\d\d\d"),
        ),
        Pattern(
            "fax.trigger",
            Label.FAX,
            r"\b"
            + FAX_TRIGGERS
            + r"[ \t]{0,2}(?:#|no\.?|number)?[ \t]{0,2}[:#]?[ \t]{0,2}(?P<p>"
            + NANP
            + "|"
            + NANP_PAREN
            + "|"
            + LOCAL
            + ")"
            + _NA,
            0.95,
            None,
            group="p",
            hints=ScanHints(anchors=FAX_TRIGGER_WORDS),
        ),
        Pattern(
            "email.address",
            Label.EMAIL,
            # Searched from the "@" (a fast literal scan); the validator adds the local part before it.
            r"@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}\.){1,6}[A-Za-z]{2,24}\b",
            0.95,
            _email,
            ignore_case=False,
        ),
        Pattern(
            "email.spelled_out",
            Label.EMAIL,
            _SPELLED_EMAIL,
            0.85,
            # Scanned only in notes that hold a word "at" or "dot" before a closing bracket, or a word "dot" before a
            # blank, at all (what every spelled-out address holds). Each branch opens with its literal, which the search
            # skips to, and looks behind it after: twice as fast as a gate that opens with a class of characters.
            hints=ScanHints(lower_gate=r"at(?<![a-z0-9]at)[ \t]{0,2}[\])>}]|dot(?<![a-z0-9]dot)[ \t\])>}]"),
        ),
        Pattern(
            "url.web",
            Label.URL,
            r"\b(?:(?:https?|ftp)://|www\.)[^\s<>\"'()]{1,2000}(?<![.,;:!?])",
            0.95,
            hints=ScanHints(anchors=("http", "https", "ftp", "www")),
            confirms=Confirmation.URL,
        ),
        Pattern(
            "url.domain",
            Label.URL,
            # Found from its top-level domain (a cheap literal search), then extended backwards.
            r"\.(?:com|org|net|edu|gov|mil|info|biz|io|us|uk|ca|de)(?:/[^\s<>\"'()]{0,2000}(?<![.,;:!?]))?(?![\w@-])",
            0.8,
            _domain,
            # The same domains, written as a tree (fewer tries after each full stop), on the lower-cased text.
            hints=ScanHints(lower_gate=r"\.(?:c(?:om|a)|org|net|edu|gov|mil|i(?:nfo|o)|biz|u[sk]|de)"),
        ),
        Pattern(
            "url.domain_path",
            Label.URL,
            # Found from the domain and the path after it, then extended backwards to the host.
            r"\.(?P<tld>[a-z]{2}|[a-z]{3,6})/(?P<path>[^\s<>\"'()]{2,2000})(?<![.,;:!?])",
            0.8,
            _domain_with_path,
            hints=ScanHints(lower_gate=r"\.[a-z][a-z][a-z]{0,4}/[^ \t\n]"),
        ),
        Pattern(
            "ip.v4",
            Label.IPADDR,
            r"(?=\d)(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w]|\.\d)",
            0.9,
            _ip,
            hints=ScanHints(digit_run=(1, 3), run_next=r"\.\d{1,3}\.\d{1,3}\.\d", run_prev=r"[^\w.]"),
        ),
        Pattern(
            "ip.v6",
            Label.IPADDR,
            r"(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])",
            0.8,
            _ip,
        ),
    )


def contact_detector(regions: tuple[str, ...] = DEFAULT_PHONE_REGIONS) -> PatternDetector:
    """The contact family; phone numbers written without a country code are read in ``regions`` in turn."""
    return PatternDetector("patterns.contact", contact_patterns(regions))
