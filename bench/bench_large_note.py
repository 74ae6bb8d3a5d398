"""Time on one huge note: detection and de-identification of invented notes dense with PHI, 125 KB to 1 MB.

Flowsheet dumps and concatenated records make notes of a megabyte with tens of thousands of PHI values; every step
must stay near-linear in the note's length and its number of spans. Each note is built from invented lines (names,
dates, phones, record numbers, e-mail addresses, ages, zip codes, one value every 15 characters or so); the script
prints, per size, the spans detected, the CPU seconds of ``detect`` and of ``deidentify`` (tag mode; detection
included) and the ratio of each to the size before it (x2 per doubling is linear), the model loaded and its heap
settled as the commands do. Target (issue 22): 1 MB with about 50,000 spans de-identified in under 60 s, under x2.3
per doubling. Needs no ../shared.

    python bench/bench_large_note.py [--sizes 125,250,500,1000] [--pipeline default] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import time

from deident.api import Deidentifier
from deident.core.document import Document
from deident.core.heap import settle_heap

FIRST = ("Ignatius", "Marisol", "Tobiah", "Wenonah", "Quincey", "Lavinia", "Osric", "Perpetua", "Ansel", "Delphine")
LAST = ("Wobblestone", "Quillfeather", "Brambleton", "Okonkwo", "Thistlewood", "Marchetti", "Vasquez", "Lindqvist")
LINES = (
    "{date} Dr. {last} called {phone}; MRN {mrn}.\n",
    "Pt {first} {last}, {age} yo, seen {date}. Zip {zip}. Email {email}\n",
    "{date} {time}: wife {first} at {phone}, SSN {ssn}\n",
    "Seen by Dr. {first} {last} on {date}; f/u {date2} with Dr. {last2}.\n",
    "Acct {mrn} | DOB {date} | Tel {phone} | {email}\n",
)


def _values(rng: random.Random) -> dict[str, str]:
    month, day, year = rng.randint(1, 12), rng.randint(1, 28), rng.randint(1950, 2030)
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return {
        "date": f"{month}/{day}/{year}",
        "date2": f"{rng.randint(1, 12)}/{rng.randint(1, 28)}",
        "time": f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
        "first": first,
        "last": last,
        "last2": rng.choice(LAST),
        "phone": f"617-555-{rng.randint(0, 9999):04d}",
        "mrn": str(rng.randint(10_000_000, 99_999_999)),
        "age": str(rng.randint(90, 104)),
        "zip": f"{rng.randint(1000, 99999):05d}",
        "email": f"{first[0].lower()}{last.lower()}{rng.randint(1, 99)}@example.org",
        "ssn": f"{rng.randint(100, 665)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}",
    }


def dense_note(chars: int, seed: int = 0) -> str:
    """An invented note of about ``chars`` characters, dense with PHI."""
    rng = random.Random(seed)
    lines: list[str] = []
    size = 0
    while size < chars:
        line = rng.choice(LINES).format(**_values(rng))
        lines.append(line)
        size += len(line)
    return "".join(lines)[:chars]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="125,250,500,1000", help="note sizes in KB (1,000 characters)")
    parser.add_argument("--pipeline", default="default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-deidentify", action="store_true", help="time detection only")
    args = parser.parse_args()
    deid = Deidentifier.load(pipeline=args.pipeline)
    settle_heap()  # as `run`, `detect` and `serve` do after loading: the model leaves the collector's walks
    print(f"{args.pipeline} pipeline, one invented dense-PHI note per size, CPU seconds (x: ratio to the size before)")
    print(f"{'KB':>6} {'spans':>7} {'detect s':>9} {'x':>5} {'deidentify s':>13} {'x':>5}")
    previous: tuple[float, float] | None = None
    for kb in (int(k) for k in args.sizes.split(",")):
        document = Document("large", dense_note(kb * 1000, args.seed))
        start = time.process_time()
        spans = deid.detect(document)
        detect_s = time.process_time() - start
        deidentify_s = float("nan")
        if not args.no_deidentify:
            start = time.process_time()
            deid.deidentify(document)
            deidentify_s = time.process_time() - start
        ratios = (
            ("", "") if previous is None else (f"{detect_s / previous[0]:.2f}", f"{deidentify_s / previous[1]:.2f}")
        )
        print(
            f"{kb:>6} {len(spans):>7} {detect_s:>9.2f} {ratios[0]:>5} {deidentify_s:>13.2f} {ratios[1]:>5}", flush=True
        )
        previous = (detect_s, deidentify_s)


if __name__ == "__main__":
    main()
