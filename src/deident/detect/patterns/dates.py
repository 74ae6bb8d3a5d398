"""DATE patterns: numeric and written dates, years in context, weekdays, holidays and seasons.

Validators reject impossible dates and the many clinical numbers shaped like dates: doses and fractions
(1/2 amp, 5/10 mg), ranges (2-3), scores (4/5 strength, GCS 3/15), blood pressures (120/80) and
lab or ventilator values (40%/5/5, 7.35/40/80, PS 10/5).
"""

from __future__ import annotations

import calendar
from functools import lru_cache

import regex

from deident.core.labels import Label
from deident.core.provenance import Confirmation
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.rules import Hit, Pattern, ScanHints, rx, search_before, unit_follows, words
from deident.text.number_words import TEENS, TENS, UNITS

MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_MONTH_NUMBER = {
    name: i
    for i in range(1, 13)
    for name in (calendar.month_name[i].lower(), calendar.month_abbr[i].lower(), "sept" if i == 9 else "")
    if name
}

# French month names as Canadian (and other French) notes write them ("15 mars 2019", "1er août 2020"); sought only in
# a day-month-year date, where a year vouches for the month word ("mai", "mars" are words too).
_FRENCH_MONTHS = (
    "janvier", "février", "fevrier", "mars", "avril", "mai", "juin", "juillet", "août", "aout", "septembre", "octobre",
    "novembre", "décembre", "decembre",
)  # fmt: skip
_FRENCH_MONTH_NUMBER = dict(zip(_FRENCH_MONTHS, (1, 2, 2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 12), strict=True))
_MONTH_NUMBER.update(_FRENCH_MONTH_NUMBER)
FRENCH_MONTH = words(*_FRENCH_MONTHS)

# Laboratory tests whose names stand before their values, and before the day they were drawn ("Labs 12/2: wbc 12").
_LAB_NAMES = r"labs?|hct|hgb|wbc|plt|inr|ptt|k|na|cl|hco3|bun|cr|glucose|mg|ca|phos|lytes"
# Words before a slash pair that make it a measurement, setting or score rather than a date ("R AC" is the right
# antecubital fossa, a line site, not the A/C ventilator mode).
_CLINICAL_BEFORE = (
    r"(?:\b(?:bp|b/p|sbp|dbp|map|abp|nbp|nibp|cuff|art|a-line|abg|vbg|gas|peep|ps|psv|cpap|bipap|ipap|epap|imv|simv"
    r"|(?<!\b(?:r|l|rt|lt|right|left)[ \t])ac|vent|tv|vt|rr|fio2|settings?|gcs|apgar|score|strength|motor|grip"
    r"|pulses?|pupils?|heme|guiac|guaiac|ratio"
    r"|peak|plat|plateau|pip|i:e|ie|ve|mv|hr|cvp|pap|pad|pcwp|wedge|ci|co|svr|pa|rv|ra|lv|la|sao2|spo2|o2|sats?"
    r"|x|times|out|" + _LAB_NAMES + r"|po4|pt|gluc|bs|fs|fsbs|co2"
    r"|pressures?|sat|sats|setting)[ \t:=]{0,3}(?:of[ \t]{1,3})?)\Z"
)
# Words before a numeric date that make it a date even when it is also a plausible fraction.
_DATE_CONTEXT_BEFORE = (
    r"\b(?:on|since|from|until|till|thru|through|dated?|by|before|after|admitted|adm|admit|readmitted|discharged"
    r"|d/c'?d|started|placed|done|performed|drawn|sent|last|of|as of|s/p|status post|cath|echo|ct|mri|cxr|surgery"
    r"|op|or|ekg|ecg|tee|tte|eeg|ir|egd|transferred|seen|visit|f/u|follow up|follow-up|due|scheduled|re-?intubated"
    r"|intubated|extubated|extubation|intubation|weaned|weaned off|wened|arrest|mi|cabg|ptca|cva|born|dob|tx"
    r"|treated|appt|appointment"
    # a weekday written before the day and month ("Wed 3/4 @ 2pm", "Tuesday 3/4"); not "sat" or "sun" (saturation)
    r"|(?:mon|tue|tues|wed|thu|thur|thurs|fri)\.?|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    # when something last happened, as charts record it ("last BM 3/4", "LBM 3/4", "LMP 2/28")
    r"|lbm|lmp|last[ \t]{1,2}(?:bm|bowel[ \t]{1,2}movement|dose|drink|meal|void|seizure|fall|period|menses|dialysis|hd"
    r"|chemo|transfusion|admission|visit|colonoscopy|flu[ \t]{1,2}shot|tetanus))[ \t:,]{1,3}\Z"
)
# The same words with a clock time between them and the date: "Extubated 2pm 12/7", "intubated @ 0800 3/4".
_TIMED_DATE_CONTEXT_BEFORE = (
    _DATE_CONTEXT_BEFORE.removesuffix(r"\Z")
    + r"(?:(?:at|@)[ \t]{0,2})?(?:\d{1,2}(?::[0-5]\d)?[ \t]?(?:am|pm|a\.m\.|p\.m\.)|[0-2]\d:?[0-5]\d(?:[ \t]?hrs?)?)"
    r"[ \t,]{1,3}\Z"
)
# A ventilator's modes and settings (not its events, such as extubation): "started 1400 5/5" on CPAP is PS over PEEP.
_VENT_MODE = r"\b(?:vent|cpap|bipap|peep|psv?|simv|imv|a/?c|fio2|settings?)\b"
# A lab's name before a day and month that labels its values with a colon ("Labs 12/2: wbc 12").
_LAB_BEFORE = r"\b(?:" + _LAB_NAMES + r")[ \t]{1,2}\Z"
_LABEL_COLON_AFTER = r":[ \t]{1,3}[\w.]"
# A note's heading right after a day and month ("1/4 npn nights", "3/4 Nursing Progress Note"): the date of the note.
_NOTE_HEADING_AFTER = (
    r"[ \t]{1,3}(?:npn|nsg|nursing|addendum|(?:progress|admission|admit|transfer|event|shift)[ \t]{1,2}note)\b"
)
_PAIN_NEAR = r"\b(?:pain|cp|c/p|discomfort|ha|headache|angina|scale|rates?|rated|c/o)\b"
# Ventilator context earlier on the same line: settings come in runs ("IMV 700x10, 50% 8/5"); "in the setting of"
# and an ejection fraction or saturation in per cent are not.
_VENT_BEFORE = (
    r"(?:peep|\bpsv?\b|cpap|bipap|simv|\bimv|a/c|\bvent\b|settings?(?![ \t]{1,2}of\b)"
    r"|fio2|(?<!\b(?:ef|lvef|sats?|spo2|sao2|o2)[ \t:=]{0,3}(?:of[ \t]{1,2})?\d{0,2})\d%)[^\n]{0,40}\Z"
)
# A literal that each alternative of _VENT_BEFORE contains (lower case): an ASCII window with none of them holds no
# ventilator context, which spares the regex for most dates.
_VENT_CUES = ("peep", "ps", "cpap", "bipap", "simv", "imv", "a/c", "vent", "setting", "fio2", "%")
_VENT_AFTER = r"[ \t]{0,2}(?:bipap|cpap|i?ps|peep|psv|simv|imv|fio2|\d{2}%)"
_FRACTIONS = {(1, 2), (1, 3), (2, 3), (1, 4), (3, 4), (1, 8)}
_TIME_AFTER = r"[ \t]{0,2}(?:hrs?|h|pm|am|o'?clock|hours)\b"
_TIME_CONTEXT = r"\b(?:since|from|until|till|by|before|after|at|@|to|-)[ \t]{1,3}\Z"


def _valid_day(month: int, day: int, year: int | None = None) -> bool:
    if not 1 <= month <= 12 or day < 1:
        return False
    return day <= calendar.monthrange(year if year and 1 <= year <= 9999 else 2000, month)[1]


def _full_year(y: str) -> int:
    value = int(y)
    if len(y) == 4:
        return value
    return 1900 + value if value >= 30 else 2000 + value


def _before(text: str, start: int, width: int = 30) -> str:
    return text[max(0, start - width) : start]


def _numeric_mdy(text: str, m: regex.Match[str]) -> list[Hit]:
    a, b, y = int(m["a"]), int(m["b"]), m["y"]
    sep = m.groupdict().get("sep") or ""
    if sep != sep.strip() and not (len(y) == 4 and (_valid_day(a, b, int(y)) or _valid_day(b, a, int(y)))):
        return []  # blanks around the separators: only a real date with its full year ("rated 4 - 5 - 10" is none)
    if len(y) != 4 and text[m.start() - 1 : m.start()] == "=":
        return []  # "SIMV=12/5/10": after "=" only a four-digit year makes the triple a date
    year = _full_year(y)
    if not 1900 <= year <= 2099:
        return []
    # "ON 2/30/15": after a date word a day up to 31 is a date as written, even where the month is shorter.
    # A four-digit year says as much: "4/31/2019" is a date as written.
    real = _valid_day(a, b, year) or _valid_day(b, a, year)
    if not real and not (
        1 <= a <= 12 and 1 <= b <= 31 and (len(y) == 4 or _ends_with(_DATE_CONTEXT_BEFORE, _before(text, m.start())))
    ):
        return []
    if unit_follows(text, m.end()):
        return []
    # Only a real calendar date is confirmed: a date-shaped impossible one is a candidate the filter judges.
    return [Hit(m.start(), m.end(), confirmed=Confirmation.FULL_DATE if real else None)]


def _day_of_year(month: int, day: int) -> int:
    return sum(calendar.monthrange(2000, i)[1] for i in range(1, month)) + day


def _numeric_range(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "bipap 5/29-6/1", "XRT 10/01/10/02": two month/day dates in calendar order, a range or a run of dates.

    Scores and settings that repeat a denominator ("strength 4/5-5/5", "GCS 3/15-5/15") or read as pressure support
    over PEEP on both sides near a ventilator word ("PS 10/5-12/5") are not dates."""
    a, b = int(m["a"]), int(m["b"])
    a2, b2 = (int(m["a2"]), int(m["b2"])) if m["a2"] is not None else (int(m["a3"]), int(m["b3"]))
    years = [_full_year(y) for y in (m["y"], m["y2"]) if y is not None]
    if any(not 1900 <= year <= 2099 for year in years):
        return []
    before = _before(text, m.start())
    date_context = _ends_with(_DATE_CONTEXT_BEFORE, before)
    for month, day in ((a, b), (a2, b2)):
        if not (_valid_day(month, day) or (date_context and 1 <= month <= 12 and 1 <= day <= 31)):
            return []
    gap = (_day_of_year(a2, b2) - _day_of_year(a, b)) % 366
    if len(years) == 2 and years[1] != years[0]:
        gap = 1 if 0 < years[1] - years[0] <= 3 else 0  # "12/20/19-1/3/20": across a new year
    if not 1 <= gap <= 120 or unit_follows(text, m.end()):
        return []
    if not date_context:
        if b == b2 or ((a, b) in _FRACTIONS and (a2, b2) in _FRACTIONS):
            return []
        if _pressure_pair(a, b) and _pressure_pair(a2, b2) and _vent_near(text, m.start(), m.end()):
            return []  # a weaning step "PS 12/5-10/5"; as for one pair, only where a ventilator word is near
        if rx(_VENT_AFTER).match(text, m.end()):
            return []
    return [Hit(m.start(), m.end(), evidence=("date range",))]  # one span: the range is one date mention


def _glued_date(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "S/P LAP CHOLE6/95", "admitted12/03": a date glued to the word before it (the word is not part of it)."""
    before = _before(text, m.start()) + " "  # judged as if a blank stood between
    if _ends_with(_CLINICAL_BEFORE, before):
        return []
    a, b = int(m["a"]), int(m["b"])
    if not 1 <= a <= 12 or unit_follows(text, m.end()):
        return []
    context = _ends_with(_DATE_CONTEXT_BEFORE, before)
    if not context and (m.start() < 3 or not text[m.start() - 3].isalpha()):
        return []  # a two-letter word glued to a date ("ON12/3") only where it is a date word
    if m["y"] is not None:
        year = _full_year(m["y"])
        if 1900 <= year <= 2099 and (_valid_day(a, b, year) or 1 <= b <= 31):
            return [Hit(m.start(), m.end(), evidence=("glued",))]
        return []
    if 32 <= b <= 99 and len(m["b"]) == 2:
        return [Hit(m.start(), m.end(), evidence=("glued", "month/year"))]
    event = r"\b(?:" + EVENT_WORDS + r")[ \t]\Z"
    if _valid_day(a, b) and (context or _ends_with(event, before)):
        return [Hit(m.start(), m.end(), evidence=("glued",))]
    return []


def _ends_with(source: str, before: str) -> bool:
    """Whether ``source`` (a regex that ends in ``\\Z``) matches at the end of ``before``. Searched in reverse:
    the one attempt that can succeed comes first, rather than after one at every earlier position."""
    return rx("(?r)" + source).search(before) is not None


_DILUTION_WORDS = r"(?:dilution|diluted|titer|titre|ratio|conc(?:entration)?)"
_DILUTION_AFTER = r"[ \t]{1,2}" + _DILUTION_WORDS + r"\b"
_DILUTION_BEFORE = r"(?r)\b" + _DILUTION_WORDS + r"[ \t:]{0,3}(?:of[ \t]{1,2})?\Z"


def _numeric_month_year(text: str, m: regex.Match[str]) -> list[Hit]:
    """A month 1-12 and a year 1900-2049: "s/p CABG 9/2002", "since 09-2002". With a hyphen only a two-digit month
    ("3-2000" is a range); never a measurement ("cuff 1/2000"), a dilution or a quantity with its unit."""
    month, year = int(m["a"]), int(m["y"])
    if not (1 <= month <= 12 and 1900 <= year <= 2049) or (m["sep"] == "-" and len(m["a"]) < 2):
        return []
    if unit_follows(text, m.end()) or _ends_with(_CLINICAL_BEFORE, _before(text, m.start())):
        return []
    if rx(_DILUTION_AFTER).match(text, m.end()) or rx(_DILUTION_BEFORE).search(text, max(0, m.start() - 30), m.start()):
        return []
    return [Hit(m.start(), m.end(), evidence=("month/year",))]


def _numeric_md(text: str, m: regex.Match[str]) -> list[Hit]:
    month, day = int(m["a"]), int(m["b"])
    if unit_follows(text, m.end()):
        return []
    before = _before(text, m.start())
    if m["sep"] == "/" and 1 <= month <= 12 and (32 <= day <= 99 or m["b"] == "00") and len(m["b"]) == 2:
        # month/year ("s/p CABG 11/92", "colonoscopy 2/00": no day is 00, so "00" is the year 2000); blood
        # pressures have three-digit systolic values
        if _ends_with(_CLINICAL_BEFORE, before):
            return []
        return [Hit(m.start(), m.end(), evidence=("month/year",))]
    # A lab's name, then the day as the label of its values ("Labs 12/2: wbc 12", "Hct 12/2: 28.5"): a date, though a
    # lab's name before a pair is otherwise a value's (see _CLINICAL_BEFORE).
    lab_day = _ends_with(_LAB_BEFORE, before) and rx(_LABEL_COLON_AFTER).match(text, m.end()) is not None
    date_context = (
        lab_day or _ends_with(_DATE_CONTEXT_BEFORE, before) or rx(_NOTE_HEADING_AFTER).match(text, m.end()) is not None
    )
    if not date_context and _ends_with(_TIMED_DATE_CONTEXT_BEFORE, before):
        window = text[max(0, m.start() - 50) : m.end() + 40]
        date_context = rx(_VENT_MODE).search(window) is None
    # "at 0630 2/31": after a date word or a clock time, a day up to 31 is still a date as written.
    if not (_valid_day(month, day) or (1 <= month <= 12 and 1 <= day <= 31 and _written_as_date(before, date_context))):
        return []
    if day == 10 and (rx(_PAIN_NEAR).search(text, m.end(), m.end() + 30) or rx(_PAIN_NEAR).search(before)):
        return []  # a pain score "6/10"
    if not date_context and _vent_before(text, m.start()):
        return []  # ventilator settings "SIMV 500x10, 40%, & 5/8"
    if rx(_VENT_AFTER).match(text, m.end()) or (not lab_day and _ends_with(_CLINICAL_BEFORE, before)):
        return []
    # A day written with its leading zero is no grade and no fraction ("in 3/04", "pain 3/04"): those are never padded.
    padded = len(m["b"]) == 2 and m["b"][0] == "0"
    if not date_context and not padded and 4 <= day <= 6 and month <= day and _grade_near(text, m.start(), m.end()):
        return []  # a graded finding: power "4/5 in the left arm", a "3/6 ejection systolic murmur"
    if not date_context and _pressure_pair(month, day) and _vent_near(text, m.start(), m.end()):
        return []  # pressure support over PEEP: "wean down to 10/5", "Vent changed over to 5/5", "5/5 ABG"
    if date_context:
        return [Hit(m.start(), m.end(), evidence=("date-context",))]
    if m["sep"] == "-":
        return []  # m-d without context is far more often a range ("2-3", "CVP 15-4")
    if (month, day) in _FRACTIONS and not padded:
        return []
    return [Hit(m.start(), m.end())]


# Ventilator and blood-gas words near a slash pair, before or after it, on any line.
_VENT_NEAR = r"\b(?:vent|cpap|bipap|peep|psv?|abg|gas|wean\w*|extubat\w*|fio2|trach[ \t]collar)\b"


# Words that make a slash pair over 4, 5 or 6 a graded finding: murmurs are graded out of 6 (or 4), muscle power out
# of 5 (MRC), reflexes out of 4; found right after the pair or just before it.
_GRADE_AFTER = (
    r"[ \t]{0,2}(?:(?:[a-z\-]{1,12}[ \t]{1,2}){0,2}"
    r"(?:murmurs?|sem|ejection|systolic|diastolic|holosystolic|pansystolic)"
    r"|strength|power|bilat\w*|throughout|symmetric\w*|globally|reflex\w*"
    r"|in[ \t]{1,2}(?:(?:the|both|all|his|her|each)[ \t]{1,2})?(?:(?:left|right|l|r|upper|lower|proximal|distal)"
    r"[ \t]{1,2}){0,2}(?:arms?|legs?|limbs?|extremit\w*|hands?|feet|foot|hips?|shoulders?|ues?|les?|quads?|biceps"
    r"|triceps|deltoids?|muscles?))\b"
)
_GRADE_BEFORE = (
    r"\b(?:power|strength|grade|graded|murmur|mrc|reflexes|motor|grip|pulses?)[ \t:=]{0,3}(?:of[ \t]{1,2})?\Z"
)


def _grade_near(text: str, start: int, end: int) -> bool:
    lower = text[end : end + 50].lower()
    return (
        rx(_GRADE_AFTER).match(lower) is not None
        or rx(_GRADE_BEFORE).search(text[max(0, start - 20) : start].lower()) is not None
    )


def _pressure_pair(support: int, peep: int) -> bool:
    """Whether a slash pair reads as pressure support over PEEP (cm H2O): the first no smaller, PEEP 3-10."""
    return 3 <= peep <= 10 and peep <= support <= 25


def _vent_near(text: str, start: int, end: int) -> bool:
    """A ventilator word within 50 characters before or 40 after, in the same paragraph."""
    lo, hi = max(0, start - 50), min(len(text), end + 40)
    blank_before, blank_after = text.rfind("\n\n", lo, start), text.find("\n\n", end, hi)
    lo, hi = max(lo, blank_before + 1), hi if blank_after < 0 else blank_after
    return rx(_VENT_NEAR).search(text, lo, hi) is not None


def _written_as_date(before: str, date_context: bool) -> bool:
    return date_context or rx(r"\b[0-2]\d[0-5]\d[ \t]{1,2}\Z").search(before) is not None


def _vent_before(text: str, start: int) -> bool:
    """Ventilator context earlier on the line, within 40 characters before ``start`` (see _VENT_BEFORE)."""
    window = text[max(0, start - 40) : start]
    if window.isascii():  # (non-ASCII text may hold letters that case-fold to a cue's, such as the long s)
        lowered = window.lower()
        if not any(cue in lowered for cue in _VENT_CUES):
            return False
    return search_before(_VENT_BEFORE, text, start, 40) is not None


def _iso(text: str, m: regex.Match[str]) -> list[Hit]:
    year, month, day = int(m["y"]), int(m["a"]), int(m["b"])
    if 1900 <= year <= 2099 and _valid_day(month, day, year):
        return [Hit(m.start(), m.end(), confirmed=Confirmation.FULL_DATE)]
    return []


def _written(text: str, m: regex.Match[str]) -> list[Hit]:
    month = _MONTH_NUMBER.get(m["mon"].lower().rstrip("."))
    if month is None:
        return []
    groups = m.groupdict()
    day, year = groups.get("d"), groups.get("y")
    # A day range's first day before the day ("4-6 March"), or its last after it ("March 4-6").
    first, last = groups.get("d0"), groups.get("d2")
    if day is not None and not _valid_day(month, int(day)):
        return []
    if day is None and year is None:
        return []
    if groups.get("the") and not rx(r"\d(?:st|nd|rd|th)\b").match(text, m.end("d") - 1):
        return []  # "March the 3rd" is a date; "in March the 3 of us" is not
    day_first = day is not None and m.start("d") < m.start("mon")
    if day_first and year is None and text[m.end("d") : m.end("d") + 1] == ".":
        return []  # "2. May consider", "1. March to OR": a numbered list's item, unless a year follows
    if day is not None and first is not None and not 1 <= int(first) < int(day):
        return []  # the range's days in order
    if day is not None and last is not None and not (int(day) < int(last) and _valid_day(month, int(last))):
        return []
    if m["mon"].lower() == "may":  # the modal verb too
        if (first or last) and year is None:
            return []  # "needs 2-3 may be more": a range before the modal verb, unless a year follows
        if day is not None and not day_first and text.startswith("-", m.end("mon")):
            return []  # "may-2": the modal verb as often as the month (not "31-May-1987", whose day comes first)
    end = m.end()
    if year is not None and not 1900 <= _full_year(year.lstrip("'")) <= 2099:
        if day is None or m.start("d") > m.start("mon") or rx(_CLOCK).fullmatch(year) is None:
            return []
        # A clock time after a day and month, not a year: "18th of April 0930"
        year, end = None, m.end("mon")
    elif unit_follows(text, m.end()) and year is None:
        return []
    if year is None and text[end - 1 : end] == "." and m["mon"].lower() in _FULL_MONTH_NAMES:
        end -= 1  # a sentence's full stop after a month written in full ("seen on 18 April."), not an abbreviation's
    full = day is not None and year is not None and _valid_day(month, int(day), _full_year(year.lstrip("'")))
    hits = [Hit(m.start(), end, confirmed=Confirmation.FULL_DATE if full else None)]
    if day is not None:
        hits.extend(_range_day(text, m, month, int(day)))
    return hits


_CLOCK = r"(?:[01]\d|2[0-3])[0-5]\d"
_FULL_MONTH_NAMES = frozenset(calendar.month_name[i].lower() for i in range(1, 13))


_RANGE_JOIN = r"[ \t]{0,2}(?:-{1,2}>?|–|to|thru|through|&|and)[ \t]{0,2}"
_GLUED_RANGE = r"(?:-{1,2}|–)"  # the dash of a day range written without blanks ("4-6 March", "March 4-6")


def _range_day(text: str, m: regex.Match[str], month: int, day: int) -> list[Hit]:
    """The other day of a day range around a written date: "1->2 nov", "3-4 March", "Nov 1 to 3" (an earlier day
    before a day-month date, a later one after a month-day date without a year)."""
    if m.start("d") < m.start("mon"):
        source = r"(?r)(?<![\w/.:-])(?P<d>\d{1,2})(?:st|nd|rd|th)?" + _RANGE_JOIN + r"\Z"
        before = search_before(source, text, m.start(), 16)
        if before is not None and 1 <= int(before["d"]) < day:
            return [Hit(before.start("d"), before.end("d"), evidence=("day range",))]
        return []
    if m.groupdict().get("y") is not None:
        return []
    after = rx(_RANGE_JOIN + r"(?P<d>\d{1,2})(?:st|nd|rd|th)?(?![\w/.:]\w)").match(text, m.end())
    if after is None or unit_follows(text, after.end()):
        return []
    if day < int(after["d"]) and _valid_day(month, int(after["d"])):
        return [Hit(after.start("d"), after.end("d"), evidence=("day range",))]
    return []


def _year_in_context(text: str, m: regex.Match[str]) -> list[Hit]:
    context = search_before(
        r"(?r)\b(?P<ctx>" + YEAR_CONTEXT + r")[ \t]{1,3}(?:of[ \t]{1,2}|the[ \t]{1,2}year[ \t]{1,2})?\Z",
        text,
        m.start(),
        30,
    )
    if context is None:
        # after a procedure ("cholecystectomy 1998"), or alone in brackets after one or after "ago" ("3 yrs ago (2001)")
        if search_before(_AFTER_PROCEDURE, text, m.start(), 30) is None and (
            not text.startswith(")", m.end()) or search_before(_BRACKETED_AFTER, text, m.start(), 30) is None
        ):
            return []
        context = rx(r"(?P<ctx>)").match(text, m.start())
        assert context is not None  # an empty pattern matches anywhere
    year = int(m["y"])
    if not 1900 <= year <= 2049:
        return []
    if unit_follows(text, m.end()) or rx(_TIME_AFTER).match(text, m.end()):
        return []
    # 1900-1959 and 2000-2059 are also clock times (HHMM); after a time preposition they are times.
    # A year after 2000 is written where no clock time can be meant: "since 2006)" or "since 2006 but".
    time_like = year % 100 < 60 and not (
        year < 2030
        and year % 5 != 0  # clock times are mostly round ("until 2000", "by 2030")
        and context["ctx"].lower() == "since"
        and rx(r"[ \t]{0,2}(?:[).,;!?\n]|but\b|and\b|when\b|$)").match(text, m.end())
    )
    if time_like and rx(r"since|from|until|till|by|before|after").match(context["ctx"]):
        return []
    return [Hit(m.start("y"), m.end("y"))]


def _plausible_year(y: str) -> bool:
    """A year after an event word: 1900-2049 written in full, or two digits that are no small count (30-99, 0x)."""
    value = int(y)
    if len(y) == 4:
        return 1900 <= value <= 2049
    return value >= 30 or y.startswith("0")


# A span of time after the number: how long ago or for how long, not when ("dx 40 years ago", "quit 45 pack yrs").
_DURATION_AFTER = r"[ \t]{0,2}-?[ \t]?(?:years?|yrs?|months?|mos?|mths?|decades?|pack|pk|ppd|ago)\b"


def _event_year(text: str, m: regex.Match[str]) -> list[Hit]:
    # "CVA in 94 and 00": the second year of a pair shares the event word; each year is judged by what follows it.
    if m["paren"] and (len(m["y"]) != 4 or not text.startswith(")", m.end("y"))):
        return []  # in brackets only a four-digit year alone: "PE (2003)", not "MI (98%)"
    hits: list[Hit] = []
    for group in ("y", "y2"):
        y = m[group]
        if y is None or not _plausible_year(y):
            if group == "y":
                return []
            continue
        end = m.end(group)
        if unit_follows(text, end) or rx(_TIME_AFTER).match(text, end) or rx(_DURATION_AFTER).match(text, end):
            if group == "y":
                return []
            continue
        hits.append(Hit(m.start(group), end))
    return hits


def _apostrophe_year(text: str, m: regex.Match[str]) -> list[Hit]:
    if unit_follows(text, m.end()):
        return []
    return [Hit(m.start("y"), m.end("y"))]


# A procedure or habit named by its shape ("cholecystectomy", "resection", "stopped smoking"): an event.
_PROCEDURE_WORD = r"[a-z]{2,20}(?:ectomy|otomy|ostomy|plasty|pexy|section|scopy|graft|ation)|smoking|quit|stopped"
# What _year_in_context accepts before a year without a context word: a procedure, or an opening bracket after one
# or after "ago" (built once, not per four-digit number).
_AFTER_PROCEDURE = r"(?r)\b(?:" + _PROCEDURE_WORD + r")[ \t,]{1,3}(?:in[ \t]{1,2})?\Z"
_BRACKETED_AFTER = r"(?r)\b(?:" + _PROCEDURE_WORD + r"|ago)[ \t]{0,2}\(\Z"


def _event_apostrophe_year(text: str, m: regex.Match[str]) -> list[Hit]:
    # "74'" is also 74 feet or minutes: only after a medical event ("CVA 74'", "cholecystectomy 77'") or "in".
    before = r"(?r)\b(?:" + EVENT_WORDS + "|" + _PROCEDURE_WORD + r"|in)[ \t,]{1,3}\Z"
    if search_before(before, text, m.start(), 30) is None:
        return []
    return [Hit(m.start("y"), m.end("y"))]


def _ordinal_day(text: str, m: regex.Match[str]) -> list[Hit]:
    if not 1 <= int(m["d"][:-2]) <= 31 or search_before(r"(?r)\bthe[ \t]{1,2}\Z", text, m.start(), 5) is None:
        return []
    return [Hit(m.start("d"), m.end("d"))]


# Dates spelled out in words, as letters, transcribed speech and patients' messages write them: "the fourth of July,
# nineteen sixty", "March the third", "born in nineteen fifty-two" (day ordinals one to thirty-one; years 1900-2099).
_ORDINAL_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_ORDINAL_TEENS = (
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
    "nineteenth",
)  # fmt: skip
_WORD_GAP = r"(?:[ \t]{1,2}|-)"
ORDINAL_DAY_WORD = (
    r"(?:twenty"
    + _WORD_GAP
    + words(*_ORDINAL_UNITS)
    + r"|thirty"
    + _WORD_GAP
    + r"first|twentieth|thirtieth|"
    + words(*_ORDINAL_TEENS, *_ORDINAL_UNITS)
    + ")"
)
_TENS_AND_UNIT = words(*TENS) + r"(?:" + _WORD_GAP + words(*UNITS) + r")?"  # "fifty", "fifty-two"
_BELOW_HUNDRED = r"(?:" + _TENS_AND_UNIT + r"|" + words(*TEENS, *UNITS) + r")"
_TWO_DIGITS = r"(?:" + _TENS_AND_UNIT + r"|" + words(*TEENS) + r"|oh[ \t]{1,2}" + words(*UNITS) + r")"  # of a year
YEAR_WORDS = (
    r"(?:nineteen[ \t]{1,2}(?:hundred[ \t]{1,2}(?:and[ \t]{1,2})?" + _BELOW_HUNDRED + r"|" + _TWO_DIGITS + r")"
    r"|two[ \t]{1,2}thousand(?:[ \t]{1,2}(?:and[ \t]{1,2})?" + _BELOW_HUNDRED + r")?"
    r"|twenty[ \t]{1,2}" + _TWO_DIGITS + r")"
)
_FULL_MONTH = words(*(calendar.month_name[i].lower() for i in range(1, 13)), "sept")
# Where a year spelled out from "two thousand" or "twenty" is a year: after a month, or a word that leads to one.
_YEAR_WORDS_CONTEXT = r"(?r)\b(?:in|of|since|from|until|till|by|born|year|" + _FULL_MONTH + r")[ \t,]{1,3}\Z"


def _spelled_date(text: str, m: regex.Match[str]) -> list[Hit]:
    """A day ordinal or a year in words with its month. The month "may" is also a verb: written as a month where the
    text has case, and before a day ordinal only with "the" or a year ("you may first try", "MAY FIRST TRY")."""
    month, groups = m["mon"], m.groupdict()
    if groups["d"] is None and groups["yw"] is None and groups.get("y") is None:
        return []
    if month.lower() == "may" and groups["d"] is not None and m.start("mon") < m.start("d"):
        if not month[0].isupper() and not text.islower():
            return []
        if groups["yw"] is None and not rx(r"may[ \t]{1,2}the\b").match(text, m.start("mon")):
            return []
    return [Hit(m.start(), m.end())]


def _spelled_year(text: str, m: regex.Match[str]) -> list[Hit]:
    """A year in words: from "nineteen" on its own ("born in nineteen fifty-two"), one from "two thousand" or "twenty"
    only after a month or a word that leads to a year ("in twenty twelve"; "twenty twenty vision" is none); never a
    clock time ("nineteen hundred hours")."""
    if rx(r"[ \t]{1,2}(?:hours?|hrs?|h)\b").match(text, m.end()):
        return []
    if not m["yw"].lower().startswith("nineteen") and search_before(_YEAR_WORDS_CONTEXT, text, m.start(), 16) is None:
        return []
    return [Hit(m.start(), m.end())]


def _mixed_separators(text: str, m: regex.Match[str]) -> list[Hit]:
    # Month first, as US notes write it; "30/10-13" (a pressure and a range) is no date.
    if not 1 <= int(m["a"]) <= 12 or _ends_with(_CLINICAL_BEFORE, _before(text, m.start())):
        return []
    return _numeric_mdy(text, m)


_MONTH_CONTEXT_BEFORE = (
    r"(?r)\b(?:(?:in|since|from|until|during|early|mid|late|last|end[ \t]{1,2}of|beginning[ \t]{1,2}of)[ \t]{1,2}"
    r"|(?:early|mid|late)-)\Z"  # "since mid-Dec", "in late-March"
)


def _month_in_context(text: str, m: regex.Match[str]) -> list[Hit]:
    if search_before(_MONTH_CONTEXT_BEFORE, text, m.start(), 20) is None:
        return []
    if m["mon"].lower() == "may" and not rx(r"\.?[ \t]{0,2}(?:[,;)\n]|$)").match(text, m.end()):
        return []  # "in may be", "since may have": the verb
    return [Hit(m.start("mon"), m.end("mon"))]


def _year_before_event(text: str, m: regex.Match[str]) -> list[Hit]:
    # "09 PTCA to LCX", "13 stent to LCX": a two-digit year opening a history item; counts are "2 stents".
    return [] if int(m["y"]) in range(1, 10) and len(m["y"]) == 1 else [Hit(m.start("y"), m.end("y"))]


def _season_year(text: str, m: regex.Match[str]) -> list[Hit]:
    y = m["y"].lstrip("'")
    if len(y) == 4 and not 1900 <= int(y) <= 2099:
        return []
    return [Hit(m.start(), m.end())]


# What may not stand right before a number's first digit: a word character, a decimal point, a ratio's slash, a sign.
_GLUED_BEFORE = r"\w./%+#$"
# The first digit of a number not glued to a preceding number, decimal, ratio, sign or "=". Written digit-first
# (the lookbehind after it) so that the regex engine can skip quickly to the next digit.
_FIRST_DIGIT = r"\d(?<!(?:[" + _GLUED_BEFORE + r"=]|\d[-:])\d)"
# What may stand before a digit run that _FIRST_DIGIT starts (its lookbehind keeps out the rest).
_FIRST_DIGIT_PREV = r"[^" + _GLUED_BEFORE + "=]"
# The same, with "=" allowed before it, for the dates whose three parts say what they are ("dob=1950-03-04",
# "dob=03/04/1950" in a key=value export; "x=3/4" stays a ratio).
_FIRST_DIGIT_AFTER_KEY = r"\d(?<!(?:[" + _GLUED_BEFORE + r"]|\d[-:])\d)"
_FIRST_DIGIT_AFTER_KEY_PREV = r"[^" + _GLUED_BEFORE + "]"
# Not glued to a following number ("1/2,3", "3/4.5"); but a comma may follow a date that ends in its four-digit year or
# an ISO date, the next cell of a CSV row ("Kelbur,03/04/1950,1234567"; no number is written "1950,123").
_NA = r"(?![\w/%]|[.:-]\d|,\d(?<!(?<!\d)\d{4},\d)(?<!\d{4}-\d\d-\d\d,\d)|'s\b)"
# Between a numeric date's parts: "/", "." or "-", or the same with blanks around it, as typed or read from a scan
# ("DOB: 03 / 04 / 1950"); a date so written needs its four-digit year and to be a real calendar date (_numeric_mdy).
_DATE_SEPARATOR = r"[/.-]|[ \t]{1,2}[/.-][ \t]{0,2}|[/.-][ \t]{1,2}"
_SEPARATED_NEXT = r"[ \t]{0,2}[/.-][ \t]{0,2}"  # the same for the digit-run dispatch (run_next)
# Events written right after a two-digit year ("95 CABG").
_EVENT_AFTER_YEAR = "ptca|pci|cabg|stent|stents|stented|mi|nstemi|stemi|cva|tia|avr|mvr|cath|turp|aicd|ppm"

_DAY = r"(?P<d>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<y>'\d{2}|\d{4}|\d{2})"

EVENT_PHRASES = (
    "s/p", "status post", "mi", "ami", "nstemi", "stemi", "cabg", "avr", "mvr", "tvr", "ptca", "pci", "cva", "tia",
    "stroke", "stent", "stents", "stented", "cath", "dx", "dx'd", "diagnosed", "bypass", "repair", "replacement",
    "redo", "arrest", "surgery", "ppm", "aicd", "turp", "thr", "tkr", "lobectomy", "colectomy", "mastectomy",
    "nephrectomy", "amputation", "bka", "aka", "fx", "chf", "dvt", "pe", "lap chole", "appy", "chole", "ca",
    "cancer", "transplant", "hx", "quit",
)  # fmt: skip
YEAR_CONTEXT_PHRASES = (
    "in", "since", "from", "during", "year", "circa", "until", "till", "of", "by", "before", "after", "early",
    "late", "mid", "summer", "winter", "spring", "fall", "autumn", "dx", "diagnosed", "born", "dob",
    "it is", "it's", "its", "year is",
)  # fmt: skip
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
HOLIDAY_NAMES = (
    "christmas", "christmas eve", "xmas", "thanksgiving", "easter", "new year's day", "new years day",
    "new year's eve", "new years eve", "halloween", "memorial day", "labor day", "independence day",
    "fourth of july", "4th of july", "valentine's day", "valentines day", "hanukkah", "chanukah", "passover",
    "yom kippur", "rosh hashanah", "ramadan", "mother's day", "father's day", "veterans day", "columbus day",
    "presidents day", "presidents' day", "martin luther king day", "mlk day", "saint patrick's day",
    "patrick's day", "good friday",
)  # fmt: skip


EVENT_WORDS = words(*EVENT_PHRASES)
YEAR_CONTEXT = words(*YEAR_CONTEXT_PHRASES)
WEEKDAYS = words(*WEEKDAY_NAMES)
HOLIDAYS = words(*HOLIDAY_NAMES)


@lru_cache(maxsize=1)
def date_patterns() -> tuple[Pattern, ...]:
    D = Label.DATE
    return (
        Pattern(
            "date.numeric_mdy",
            D,
            r"(?P<a>"
            + _FIRST_DIGIT_AFTER_KEY
            + r"\d?)(?P<sep>"
            + _DATE_SEPARATOR
            + r")(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})"
            + _NA,
            0.95,
            _numeric_mdy,
            hints=ScanHints(
                digit_run=(1, 2),
                run_next=_SEPARATED_NEXT + r"\d{1,2}" + _SEPARATED_NEXT,
                run_prev=_FIRST_DIGIT_AFTER_KEY_PREV,
            ),
        ),
        Pattern(
            "date.numeric_md",
            D,
            r"(?P<a>" + _FIRST_DIGIT + r"\d?)(?P<sep>[/-])(?P<b>\d{1,2})" + _NA,
            0.8,
            _numeric_md,
            hints=ScanHints(
                digit_run=(1, 2),
                # The day takes the whole digit run after the separator, and no word character follows it (_NA).
                run_next=r"[/-]\d{1,2}(?:[^\w/%]|\Z)",
                run_prev=_FIRST_DIGIT_PREV,
            ),
        ),
        Pattern(
            # "9/2002", "09-2002": a month and a four-digit year (numeric_md takes two-digit years: "11/92").
            "date.numeric_month_year",
            D,
            r"(?P<a>" + _FIRST_DIGIT + r"\d?)(?P<sep>[/-])(?P<y>(?:19|20)\d{2})" + _NA,
            0.8,
            _numeric_month_year,
            hints=ScanHints(digit_run=(1, 2), run_next=r"[/-]\d{4}(?:[^\w/%]|\Z)", run_prev=_FIRST_DIGIT_PREV),
        ),
        Pattern(
            "date.numeric_range",
            D,
            # "5/29-6/1", "5/29/19-6/1/19", "10/01/10/02" (a run of dates, no years)
            r"(?P<a>" + _FIRST_DIGIT + r"\d?)/(?P<b>\d{1,2})(?:"
            r"(?:/(?P<y>\d{4}|\d{2}))?[ \t]{0,2}(?:-{1,2}|–)[ \t]{0,2}(?P<a2>\d{1,2})/(?P<b2>\d{1,2})"
            r"(?:/(?P<y2>\d{4}|\d{2}))?|/(?P<a3>\d{1,2})/(?P<b3>\d{1,2}))" + _NA,
            0.8,
            _numeric_range,
            hints=ScanHints(
                digit_run=(1, 2),
                run_next=r"/\d{1,2}(?:[ \t]{0,2}(?:-|–)|/\d)",
                run_prev=_FIRST_DIGIT_PREV,
            ),
        ),
        Pattern(
            "date.glued",
            D,
            r"(?P<a>\d(?<=[A-Za-z]{2}\d)\d?)/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?" + _NA,
            0.7,
            _glued_date,
            hints=ScanHints(digit_run=(1, 2), run_next=r"/\d", run_prev=r"[A-Za-z]"),
        ),
        Pattern(
            "date.iso",
            D,
            # ISO 8601, a time after "T" too ("2019-03-04T10:00:00Z": the date alone is the span)
            r"(?P<y>"
            + _FIRST_DIGIT_AFTER_KEY
            + r"\d{3})(?P<sep>"
            + _DATE_SEPARATOR
            + r")(?P<a>\d{1,2})(?P=sep)(?P<b>\d{1,2})"
            r"(?:(?=T\d{2}:?\d{2})|" + _NA + ")",
            0.95,
            _iso,
            hints=ScanHints(
                digit_run=(4, 4),
                run_next=_SEPARATED_NEXT + r"\d{1,2}" + _SEPARATED_NEXT,
                run_prev=_FIRST_DIGIT_AFTER_KEY_PREV,
            ),
        ),
        Pattern(
            "date.month_day_year",
            D,
            # "March 3rd , 1950": a blank before the comma too, before a four-digit year; "March 4-6, 2019": a range of
            # days joined by a dash (_written checks the second day)
            r"\b(?P<mon>"
            + MONTH
            # "March the 3rd": "the" before a day with its ordinal suffix; "Mar-4": a hyphen, as spreadsheets write it
            + r")\.?(?:[ \t]{1,2}(?P<the>the))?(?:[ \t]{0,2}|-)"
            + _DAY
            + r"(?:"
            + _GLUED_RANGE
            + r"(?P<d2>\d{1,2})(?:st|nd|rd|th)?)?"
            + r"\b(?:(?:,?[ \t]{0,2}|[ \t]{1,2},[ \t]{0,2}(?=\d{4}(?!\d)))"
            + _YEAR
            + r")?"
            + _NA,
            0.9,
            _written,
        ),
        Pattern(
            "date.day_month_year",
            D,
            # "4-6 March 2019": a range of days joined by a dash, its first day d0 (_written checks it)
            r"(?:(?P<d0>"
            + _FIRST_DIGIT
            + r"\d?)(?:st|nd|rd|th)?"
            + _GLUED_RANGE
            + r"(?P<d>\d\d?)|(?P<d>"
            + _FIRST_DIGIT
            # "3. March 2021": a day with its full stop, as continental Europe writes it (a year must follow, _written)
            + r"\d?))(?:st|nd|rd|th|\.)?"
            + r"[ \t-]{0,2}(?:of[ \t]{1,2})?(?P<mon>"
            + MONTH
            # the month may run into the year: "04MAR1950", "4Mar19" (DDMMMYYYY, as lab and military systems write)
            + r")(?:\b\.?|(?=\d))(?:[,-]?[ \t]{0,2}"
            + _YEAR
            + r")?"
            + _NA,
            0.9,
            _written,
            hints=ScanHints(
                digit_run=(1, 2),
                run_next=r"(?i:(?:(?:st|nd|rd|th)?(?:-{1,2}|–)\d{1,2})?(?:st|nd|rd|th|\.)?[ \t-]{0,2}(?:of[ \t]{1,2})?"
                r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))",
                run_prev=_FIRST_DIGIT_PREV,
            ),
        ),
        Pattern(
            "date.day_month_year_french",
            D,
            r"(?P<d>"
            + _FIRST_DIGIT
            + r"\d?)(?:er)?[ \t]{1,2}(?P<mon>"
            + FRENCH_MONTH
            + r")[ \t]{1,2}(?P<y>(?:19|20)\d{2})"
            + _NA,
            0.9,
            _written,
            hints=ScanHints(
                digit_run=(1, 2),
                run_next=r"(?i:(?:er)?[ \t]{1,2}(?:janv|f[ée]v|mar|avr|mai|jui|ao|sep|oct|nov|d[ée]c))",
                run_prev=_FIRST_DIGIT_PREV,
            ),
        ),
        Pattern(
            "date.month_year",
            D,
            r"\b(?P<mon>" + MONTH + r")\b\.?,?[ \t]{0,2}(?:of[ \t]{1,2})?(?P<y>'\d{2}|(?:19|20)\d{2})" + _NA,
            0.9,
            _written,
        ),
        Pattern(
            "date.year_in_context",
            D,
            # Searched from the year's digits (rarer than the context words); the validator checks the context.
            r"(?P<y>(?:19|20)(?<![\w./%:+#$=-]\d\d)\d{2})" + _NA,
            0.8,
            _year_in_context,
            hints=ScanHints(digit_run=(4, 4), run_prev=r"[^\w./%:+#$=-]"),
        ),
        Pattern(
            "date.event_year",
            D,
            r"\b"
            + EVENT_WORDS
            + r"(?:[ \t]{0,2}x[ \t]{0,2}\d)?(?:[ \t,]{1,3}(?:in[ \t]{1,2})?|[ \t]{0,2}(?P<paren>\())"
            + r"(?:(?P<y>(?:19|20)\d{2}|\d{2}))"
            + _NA
            + r"(?:[ \t]{0,2}(?:,|and|&)[ \t]{0,2}(?P<y2>(?:19|20)\d{2}|\d{2})"
            + _NA
            + ")?",
            0.6,
            _event_year,
            hints=ScanHints(anchors=EVENT_PHRASES),
        ),
        Pattern(
            "date.apostrophe_year",
            D,
            r"(?<![\w'])'(?P<y>\d{2})(?!\w|[.,:/-]\d|[ \t]{0,2}%)",
            0.85,
            _apostrophe_year,
        ),
        Pattern(
            "date.month_in_context",
            D,
            # Found from the month word (rare); the validator checks the context word before it.
            r"\b(?P<mon>" + MONTH + r")\b\.?(?![ \t]{0,2}\d)",
            0.6,
            _month_in_context,
        ),
        Pattern(
            "date.numeric_mixed_separators",
            D,
            # "11/21.93": month/day then a full stop or dash before the year.
            r"(?P<a>" + _FIRST_DIGIT + r"\d?)/(?P<b>\d{1,2})[.-](?P<y>\d{4}|\d{2})" + _NA,
            0.8,
            _mixed_separators,
            hints=ScanHints(digit_run=(1, 2), run_next=r"/\d{1,2}[.-]\d", run_prev=_FIRST_DIGIT_PREV),
        ),
        Pattern(
            "date.year_before_event",
            D,
            r"(?:(?<=[.;:\n][ \t]{0,3})|(?<=\A[ \t]{0,3}))(?P<y>(?:0\d|[1-3]\d|[5-9]\d))[ \t]{1,2}"
            r"(?:" + _EVENT_AFTER_YEAR + r")\b",
            0.6,
            _year_before_event,
            hints=ScanHints(
                digit_run=(2, 2), run_next=r"[ \t]{1,2}(?i:" + _EVENT_AFTER_YEAR + ")", run_prev=r"[.;:\n \t]"
            ),
        ),
        Pattern(
            "date.season_year",
            D,
            r"\b(?:spring|summer|fall|autumn|winter)[ \t]{1,3}(?:of[ \t]{1,2})?(?P<y>'\d{2}|(?:19|20)\d{2})" + _NA,
            0.85,
            _season_year,
        ),
        Pattern(
            "date.year_apostrophe_after",
            D,
            # "CVA 74'", "resection 62'": a two-digit year with the apostrophe after it.
            r"(?P<y>" + _FIRST_DIGIT + r"\d)'(?![\w'])",
            0.7,
            _event_apostrophe_year,
            hints=ScanHints(digit_run=(2, 2), run_next=r"'(?:[^\w']|\Z)", run_prev=_FIRST_DIGIT_PREV),
        ),
        Pattern(
            "date.decade",
            D,
            r"\b(?:19|20)\d0'?s\b",
            0.8,
            hints=ScanHints(digit_run=(4, 4), run_next=r"['Ss]|\Z", run_prev=r"\W"),
        ),
        Pattern(
            "date.ordinal_day",
            D,
            # "the 11th": searched from the digits (rarer than "the"); the validator checks "the" before it.
            r"(?P<d>" + _FIRST_DIGIT + r"\d?(?:st|nd|rd|th))\b(?![ \t]{1,2}(?:time|dose|attempt|try|day"
            r"|week|hour|bag|unit|liter|set|lumen|one|of[ \t]{1,2}(?:the|these|those)))(?!\.[ \t]{1,2}the\b)",
            0.7,
            _ordinal_day,
            hints=ScanHints(digit_run=(1, 2), run_next=r"(?i:st|nd|rd|th)", run_prev=_FIRST_DIGIT_PREV),
        ),
        Pattern(
            "date.weekday",
            D,
            r"\b" + WEEKDAYS + r"(?:'?s)?\b",
            0.4,
            # Plurals too: an anchor is a whole word, and "mondays" is not "monday" followed by a word end.
        ),
        # with its year where one follows: "Christmas Eve 2019"
        Pattern("date.holiday", D, r"\b" + HOLIDAYS + r"\b(?:,?[ \t]{1,2}(?:19|20)\d{2}(?!\d))?", 0.5),
        Pattern(
            "date.ordinal_words",
            D,
            # "fourth of July, nineteen sixty", "twenty-third of March 2019"
            r"\b(?P<d>" + ORDINAL_DAY_WORD + r")[ \t]{1,2}of[ \t]{1,2}(?P<mon>" + _FULL_MONTH + r")\b"
            r"(?:,?[ \t]{1,2}(?:(?P<y>(?:19|20)\d{2})(?!\d)|(?P<yw>" + YEAR_WORDS + r")\b))?",
            0.8,
            _spelled_date,
        ),
        Pattern(
            "date.month_ordinal_words",
            D,
            # "March the third", "July twenty-first, nineteen sixty", "July nineteen sixty"
            r"\b(?P<mon>" + _FULL_MONTH + r")(?:[ \t]{1,2}(?:the[ \t]{1,2})?(?P<d>" + ORDINAL_DAY_WORD + r"))?\b"
            r"(?:,?[ \t]{1,2}(?P<yw>" + YEAR_WORDS + r")\b)?",
            0.8,
            _spelled_date,
        ),
        Pattern("date.year_words", D, r"\b(?P<yw>" + YEAR_WORDS + r")\b", 0.7, _spelled_year),
    )


def date_detector() -> PatternDetector:
    return PatternDetector("patterns.date", date_patterns())
