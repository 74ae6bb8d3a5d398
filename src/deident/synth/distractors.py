"""Non-PHI values that look like PHI: doses and ratios that resemble dates, blood pressures, blood
gases, scores, lab values, times, eponyms and drug names that resemble person names, relative dates.

Each generator returns plain text; the template engine inserts it without a label.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from deident.synth.vocab import words

ROUTES = ("PO", "IV", "SQ", "IM", "PR", "NGT", "po", "iv", "sc")
FREQUENCIES = ("daily", "BID", "TID", "QID", "q4h", "q6h", "q8h", "QHS", "prn", "q12h", "qAM", "x1", "once")
LABS = (
    ("K", 2.9, 5.6, 1), ("Na", 128, 148, 0), ("Cr", 0.5, 4.2, 1), ("BUN", 8, 90, 0), ("Hct", 21.0, 45.0, 1),
    ("Hgb", 7.0, 15.0, 1), ("WBC", 2.1, 24.0, 1), ("plt", 40, 450, 0), ("INR", 0.9, 4.5, 1), ("PTT", 24.0, 110.0, 1),
    ("glucose", 60, 380, 0), ("BS", 70, 320, 0), ("lactate", 0.6, 8.0, 1), ("Mg", 1.3, 2.8, 1), ("Ca", 7.2, 10.6, 1),
    ("trop", 0.01, 2.5, 2), ("CK", 40, 1800, 0), ("albumin", 1.9, 4.5, 1), ("TSH", 0.2, 9.5, 2), ("A1c", 5.1, 12.4, 1),
)  # fmt: skip


def _lab(rng: random.Random) -> str:
    name, low, high, places = rng.choice(LABS)
    value = rng.uniform(low, high)
    return f"{name} {value:.{places}f}" if places else f"{name} {round(value)}"


def _med(rng: random.Random) -> str:
    dose = rng.choice(("0.5", "1", "2", "5", "10", "12.5", "20", "25", "40", "50", "100", "250", "500", "1000"))
    unit = rng.choice(("mg", "mg", "mcg", "units", "g", "mEq", "mg/kg"))
    return f"{rng.choice(words()['drugs'])} {dose} {unit} {rng.choice(ROUTES)} {rng.choice(FREQUENCIES)}"


def _ratio_dose(rng: random.Random) -> str:
    return rng.choice(
        (
            f"percocet {rng.choice(('5/325', '7.5/325', '10/325'))}",
            f"vicodin {rng.choice(('5/500', '5/325', '7.5/750'))}",
            f"{rng.choice(('5/10', '10/20', '2.5/5', '1/2'))} mg",
            f"{rng.choice(('lisinopril-HCTZ', 'Sinemet'))} {rng.choice(('10/12.5', '25/100', '20/25'))}",
            f"{rng.randint(1, 4)}/{rng.randint(5, 12)} tabs",
        )
    )


def _bp(rng: random.Random) -> str:
    return f"{rng.randint(78, 198)}/{rng.randint(38, 112)}"


def _abg(rng: random.Random) -> str:
    return f"{rng.uniform(7.12, 7.52):.2f}/{rng.randint(25, 78)}/{rng.randint(55, 420)}"


def _score(rng: random.Random) -> str:
    return rng.choice(
        (
            f"GCS {rng.randint(3, 15)}",
            f"RASS {rng.randint(-4, 2)}",
            f"pain {rng.randint(0, 10)}/10",
            f"CIWA {rng.randint(0, 25)}",
            f"A&Ox{rng.randint(1, 3)}",
            f"AOx{rng.randint(1, 3)}",
            f"MAE x{rng.randint(2, 4)}",
            f"{rng.randint(1, 4)}+ edema",
            f"strength {rng.randint(3, 5)}/5",
            f"MMSE {rng.randint(12, 30)}/30",
            f"PHQ-9 {rng.randint(0, 27)}",
            f"x{rng.randint(2, 4)}",
            f"Braden {rng.randint(9, 23)}",
        )
    )


def _vital(rng: random.Random) -> str:
    return rng.choice(
        (
            f"HR {rng.randint(48, 140)}",
            f"RR {rng.randint(10, 34)}",
            f"SpO2 {rng.randint(86, 100)}% on {rng.randint(1, 6)}L NC",
            f"sats {rng.randint(88, 100)}% RA",
            f"T {rng.uniform(96.0, 103.2):.1f}",
            f"Tmax {rng.uniform(98.0, 103.0):.1f}",
            f"BP {_bp(rng)}",
            f"MAP {rng.randint(55, 110)}",
            f"CVP {rng.randint(2, 18)}",
            f"I/O {rng.randint(300, 3500)}/{rng.randint(200, 3000)}",
            f"UO {rng.randint(10, 250)} cc/hr",
            f"wt {rng.uniform(45.0, 140.0):.1f} kg",
        )
    )


def _time(rng: random.Random) -> str:
    hour, minute = rng.randint(0, 23), rng.choice((0, 0, 15, 30, 45, rng.randint(0, 59)))
    meridian = rng.choice(("am", "pm"))
    return rng.choice((f"{hour:02d}{minute:02d}", f"{hour}:{minute:02d}", f"{hour % 12 or 12}{meridian}"))


def _vent(rng: random.Random) -> str:
    return rng.choice(
        (
            f"AC {rng.choice((400, 500))}x{rng.randint(10, 24)}/{rng.randint(5, 15)}/{rng.choice(('.4', '.5', '1.0'))}",
            f"PSV {rng.randint(5, 15)}/{rng.randint(5, 10)}",
            f"CPAP+PS {rng.randint(5, 15)}/{rng.randint(5, 10)}",
            f"FiO2 {rng.choice((30, 40, 50, 60, 100))}%",
            f"PEEP {rng.randint(5, 15)}",
            f"ETT {rng.choice(('7.0', '7.5', '8.0'))} @ {rng.randint(20, 25)} cm",
        )
    )


def _device_words(rng: random.Random) -> str:
    return rng.choice(
        (
            f"{rng.choice((16, 18, 20, 22))}G PIV",
            f"NGT @ {rng.randint(50, 70)} cm",
            f"{rng.choice(('R', 'L'))} IJ TLC",
            f"{rng.randint(1, 4)} units PRBC",
            f"{rng.randint(250, 1000)} cc NS bolus",
            f"size {rng.choice((14, 16, 18))} Fr",
            f"#{rng.randint(1, 6)}",
            f"bed {rng.choice(('flat', 'low', 'alarm on'))}",
            f"{rng.randint(1, 3)} of {rng.randint(3, 5)}",
        )
    )


GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "drug": lambda rng: rng.choice(words()["drugs"]),
    "med": _med,
    "ratio_dose": _ratio_dose,
    "bp": _bp,
    "abg": _abg,
    "eponym": lambda rng: rng.choice(words()["eponyms"]),
    "eponym_device": lambda rng: rng.choice(words()["eponym_devices"]),
    "reldate": lambda rng: rng.choice(words()["reldates"]),
    "score": _score,
    "lab": _lab,
    "vital": _vital,
    "time": _time,
    "vent": _vent,
    "device_words": _device_words,
    "temp": lambda rng: f"{rng.uniform(99.5, 104.0):.1f}",
    "num": lambda rng: str(rng.randint(2, 30)),
    "d": lambda rng: str(rng.randint(1, 9)),
}
"""Slot name (lower case in templates) -> generator of non-PHI text."""
