"""Date shifting: every date of a patient moves by the same per-patient offset (so intervals
survive) and is written back in its original format, partial dates included ("7/22" -> "9/4",
"July 22nd" -> "September 4th", "'92" -> "'94").

The offset is ``±(365·y + d)`` days with y in 1..4 and d in 14..350: years and month-days always
change, so no date is left as written. Weekdays move too, unless ``preserve_weekday`` asks for an
offset that is a multiple of seven.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import regex

from deident.replace.keys import SecretKey
from deident.replace.shape import apply_case

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_BY_NAME: dict[str, int] = {}
for _number, _name in enumerate(_MONTHS, start=1):
    _MONTH_BY_NAME[_name] = _number
    _MONTH_BY_NAME[_name[:3]] = _number
_MONTH_BY_NAME["sept"] = 9
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_BY_NAME = {name: i for i, name in enumerate(_WEEKDAYS)} | {name[:3]: i for i, name in enumerate(_WEEKDAYS)}
_WEEKDAY_BY_NAME |= {"tues": 1, "thur": 3, "thurs": 3}

_MONTH_RE = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WEEKDAY_RE = (
    r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)"
)
_SUFFIX_RE = r"(?:st|nd|rd|th)"
_DATE_RE = regex.compile(
    rf"""
    (?<![\d/.-])(?P<iy>\d{{4}})(?P<isep>[-/.])(?P<im>\d{{1,2}})(?P=isep)(?P<id>\d{{1,2}})(?![\d/])
    | (?<![\d/.])(?P<nm>\d{{1,2}})(?P<nsep>[/.-])(?P<nd>\d{{1,2}})(?:(?P=nsep)(?P<ny>\d{{4}}|\d{{2}}))?(?![\d/])
    | (?<![\d/.-])(?P<mym>\d{{1,2}})/(?P<myy>\d{{4}})(?![\d/])
    | \b(?P<tm>{_MONTH_RE})(?P<tdot>\.)?(?:[ ]+(?P<td>\d{{1,2}})(?P<tsuf>{_SUFFIX_RE})?\b)?
        (?:(?P<tcomma>,)?[ ]+(?P<ty>\d{{4}}|'\d{{2}})\b)?
    | \b(?P<dd>\d{{1,2}})(?P<dsuf>{_SUFFIX_RE})?(?P<dof>[ ]+of)?[ ]+(?P<dm>{_MONTH_RE})(?P<ddot>\.)?
        (?:(?P<dcomma>,)?[ ]+(?P<dy>\d{{4}})\b)?
    | \b(?P<wd>{_WEEKDAY_RE})\b
    | (?P<yq>')(?P<yq2>\d{{2}})\b
    | (?<![\d/.-])(?P<y4>(?:1[89]|20)\d{{2}})(?![\d/])
    """,
    regex.IGNORECASE | regex.VERBOSE,
)
_TWO_DIGIT_YEAR = regex.compile(r"\d{2}")
_PIVOT = 30  # two-digit years below this are 20xx, others 19xx


def date_offset(key: SecretKey, patient_id: str | None, preserve_weekday: bool = False) -> int:
    """The patient's shift in days (never zero, never a whole number of years)."""
    n = key.number(patient_id, "date-offset", "")
    years = 1 + n % 4
    days = 14 + (n >> 8) % 337
    offset = 365 * years + days
    if preserve_weekday:
        offset -= offset % 7
    elif offset % 7 == 0:
        offset += 1
    return -offset if (n >> 20) & 1 else offset


AGED_90_PLUS = "[age 90+]"
"""What Safe Harbor writes for a year that implies an age over 89 (45 CFR 164.514(b)(2)(i)(C))."""

# How a reduced date is written: the year, or None when the date has none (the part is removed).
_YearWriter = Callable[[int | None, str], str]


def shift_date_text(text: str, offset: int, reduce_to_year: bool = False, aged_before: int | None = None) -> str | None:
    """The text with every date it holds shifted by ``offset`` days, in the same format.

    With ``reduce_to_year`` dates are cut to their year instead (Safe Harbor: no shifting); parts
    with no year become "", and a year before ``aged_before`` (one implying an age over 89) becomes
    :data:`AGED_90_PLUS`. Returns None when no date is recognised.
    """
    writer = _year_writer(aged_before) if reduce_to_year else None
    out: list[str] = []
    last = 0
    found = False
    for match in _DATE_RE.finditer(text):
        try:
            rendered = _render(match, offset, writer)
        except (ValueError, OverflowError):
            continue
        if rendered is None:
            continue
        found = True
        out.append(text[last : match.start()])
        out.append(rendered)
        last = match.end()
    if not found:
        stripped = text.strip()
        if _TWO_DIGIT_YEAR.fullmatch(stripped):  # a bare "92" annotated as a year
            year = _expand_year(int(stripped))
            if writer is not None:
                return text.replace(stripped, writer(year, stripped))
            return text.replace(stripped, f"{_shift_year(year, offset) % 100:02d}")
        return None
    out.append(text[last:])
    return "".join(out)


def date_years(text: str) -> list[int]:
    """The years of the dates ``text`` holds (dates without a year give none)."""
    years: list[int] = []

    def collect(year: int | None, written: str) -> str:
        if year is not None:
            years.append(year)
        return written

    for match in _DATE_RE.finditer(text):
        try:
            _render(match, 0, collect)
        except (ValueError, OverflowError):
            continue
    stripped = text.strip()
    if not years and _TWO_DIGIT_YEAR.fullmatch(stripped):
        years.append(_expand_year(int(stripped)))
    return years


def _year_writer(aged_before: int | None) -> _YearWriter:
    def write(year: int | None, written: str) -> str:
        if year is None:
            return ""
        if aged_before is not None and year < aged_before:
            return AGED_90_PLUS
        if written.startswith("'"):
            return f"'{year % 100:02d}"
        return f"{year % 100:02d}" if len(written) == 2 else str(year)

    return write


def _render(m: regex.Match[str], offset: int, reduce: _YearWriter | None) -> str | None:
    g = m.groupdict()
    year: int | None  # None where the date has no year (or day)
    day: int | None
    if g["iy"]:
        date = dt.date(int(g["iy"]), int(g["im"]), int(g["id"]))
        if reduce is not None:
            return reduce(date.year, g["iy"])
        new = date + dt.timedelta(days=offset)
        sep = g["isep"]
        # Two-digit parts mean a zero-padded ISO date ("2015-09-30" -> "2017-01-08").
        padded = _zero_padded(g["im"], g["id"]) or len(g["im"]) == len(g["id"]) == 2
        return f"{new.year:04d}{sep}{_num(new.month, g['im'], padded)}{sep}{_num(new.day, g['id'], padded)}"
    if g["nm"]:
        first, second, year_text = int(g["nm"]), int(g["nd"]), g["ny"]
        sep = g["nsep"]
        padded = _zero_padded(g["nm"], g["nd"])
        if year_text is None and second > 31:  # "7/92": month and two-digit year
            year = _expand_year(second) if second < 100 else second
            if reduce is not None:
                return reduce(year, str(year))
            new = dt.date(year, first, 15) + dt.timedelta(days=offset)
            return f"{_num(new.month, g['nm'], padded)}{sep}{new.year % 100:02d}"
        if year_text is None and sep == "." and not (first <= 12 and second <= 31):
            return None
        day_first = first > 12 and second <= 12
        month, day = (second, first) if day_first else (first, second)
        year = _year_of(year_text)
        if reduce is not None:
            return reduce(year, str(year))
        new = _shift(year, month, day, offset)
        month_text, day_text = (g["nd"], g["nm"]) if day_first else (g["nm"], g["nd"])
        parts = [_num(new.month, month_text, padded), _num(new.day, day_text, padded)]
        if day_first:
            parts.reverse()
        rendered = sep.join(parts)
        if year_text is not None:
            rendered += sep + _year_text(new.year, year_text)
        return rendered
    if g["mym"]:
        month, year = int(g["mym"]), int(g["myy"])
        if reduce is not None:
            return reduce(year, g["myy"])
        new = dt.date(year, month, 15) + dt.timedelta(days=offset)
        return f"{_num(new.month, g['mym'])}/{new.year:04d}"
    if g["tm"]:
        month = _MONTH_BY_NAME[g["tm"].lower()]
        day = int(g["td"]) if g["td"] else None
        year = _year_of(g["ty"].lstrip("'")) if g["ty"] else None
        if reduce is not None:
            return reduce(year, "0000")
        new = _shift(year, month, day or 15, offset)
        rendered = _month_name(new.month, g["tm"]) + (g["tdot"] or "")
        if day is not None:
            rendered += " " + _num(new.day, g["td"]) + _suffix(new.day, g["tsuf"])
        if g["ty"]:
            rendered += (g["tcomma"] or "") + " " + _year_text(new.year, g["ty"])
        return rendered
    if g["dm"]:
        month = _MONTH_BY_NAME[g["dm"].lower()]
        day = int(g["dd"])
        year = _year_of(g["dy"]) if g["dy"] else None
        if reduce is not None:
            return reduce(year, "0000")
        new = _shift(year, month, day, offset)
        rendered = _num(new.day, g["dd"]) + _suffix(new.day, g["dsuf"]) + (g["dof"] or "")
        rendered += " " + _month_name(new.month, g["dm"]) + (g["ddot"] or "")
        if g["dy"]:
            rendered += (g["dcomma"] or "") + " " + f"{new.year:04d}"
        return rendered
    if g["wd"]:
        if reduce is not None:
            return reduce(None, "")
        index = (_WEEKDAY_BY_NAME[g["wd"].lower()] + offset) % 7
        name = _WEEKDAYS[index]
        if len(g["wd"]) <= 5 and g["wd"].lower() not in _WEEKDAYS:
            name = name[: max(3, len(g["wd"]))] if len(g["wd"]) > 3 else name[:3]
        return apply_case(g["wd"], name)
    if g["yq"]:
        year = _expand_year(int(g["yq2"]))
        if reduce is not None:
            return reduce(year, "'" + g["yq2"])
        return f"'{_shift_year(year, offset) % 100:02d}"
    if g["y4"]:
        year = int(g["y4"])
        return reduce(year, g["y4"]) if reduce is not None else str(_shift_year(year, offset))
    return None


def _shift(year: int | None, month: int, day: int, offset: int) -> dt.date:
    if year is None:
        year = 2000 if (month, day) == (2, 29) else 2001  # a reference year for partial dates
    return dt.date(year, month, day) + dt.timedelta(days=offset)


def _shift_year(year: int, offset: int) -> int:
    return (dt.date(year, 7, 2) + dt.timedelta(days=offset)).year


def _expand_year(two_digits: int) -> int:
    return 2000 + two_digits if two_digits < _PIVOT else 1900 + two_digits


def _year_of(text: str | None) -> int | None:
    if text is None:
        return None
    value = int(text.lstrip("'"))
    return _expand_year(value) if len(text.lstrip("'")) == 2 else value


def _year_text(year: int, original: str) -> str:
    if original.startswith("'"):
        return f"'{year % 100:02d}"
    return f"{year % 100:02d}" if len(original) == 2 else f"{year:04d}"


def _zero_padded(*parts: str) -> bool:
    """A numeric date is zero-padded when any of its parts is ("03/14/2021": both parts get two digits)."""
    return any(len(part) == 2 and part.startswith("0") for part in parts)


def _num(value: int, original: str, padded: bool = False) -> str:
    """Keep zero padding when the original (or, with ``padded``, its date) had it."""
    return f"{value:02d}" if padded or (len(original) == 2 and original.startswith("0")) else str(value)


def _suffix(day: int, original: str | None) -> str:
    if not original:
        return ""
    if day in (11, 12, 13):
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return suffix.upper() if original.isupper() else suffix


def _month_name(month: int, original: str) -> str:
    full = _MONTHS[month - 1]
    low = original.lower()
    if len(original) > 4 or low in _MONTHS:  # "May", "June" and "July" are full names already
        name = full
    elif low == "sept":
        name = "sept" if month == 9 else full[:3]
    else:
        name = full[:3]
    return apply_case(original, name)
