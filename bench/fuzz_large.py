"""Fuzzing at scale: the checks of tests/test_api_fuzz.py on many more inputs (default 100,000).

Inputs (seeded, invented): random Unicode, control and invisible characters, very long tokens, and note templates with
invented PHI and invisible characters injected into the values. Each block of notes goes through ``Deidentifier``:
``detect_many``, then ``deidentify_many`` with those spans in tag and in surrogate mode (a fixed key). Checked: no
exception, every span inside its text; and on every tenth block, the same spans and texts a second time. Prints the
number of inputs, failures (the input's kind, index and exception type: never its text) and the time.

    python bench/fuzz_large.py [--count 100000] [--seed 0] [--block 50]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable

from deident.api import Deidentifier
from deident.core.document import Document, DocumentMetadata
from deident.core.heap import settle_heap
from deident.core.span import Span
from deident.replace import Mode, SecretKey
from deident.synth.fuzz import CONTROL, NAMES, TEMPLATES

KEY = SecretKey.from_text("fuzz-bench-key-00000000001")


def _codepoint(rng: random.Random) -> str:
    while True:
        code = rng.choice((rng.randrange(0x80), rng.randrange(0x800), rng.randrange(0x10000), rng.randrange(0x110000)))
        if not 0xD800 <= code <= 0xDFFF:  # no lone surrogates: they are not text
            return chr(code)


def _digits(rng: random.Random, low: int = 1, high: int = 10) -> str:
    return "".join(rng.choice("0123456789") for _ in range(rng.randint(low, high)))


def _inject(rng: random.Random, value: str) -> str:
    for _ in range(rng.choice((0, 0, 1, 2))):
        at = rng.randint(0, len(value))
        value = value[:at] + rng.choice(CONTROL) + value[at:]
    return value


def random_unicode(rng: random.Random) -> str:
    return "".join(_codepoint(rng) for _ in range(rng.randint(0, 300)))


def control_heavy(rng: random.Random) -> str:
    return "".join(rng.choice(CONTROL + "ab 1/-.:\n") for _ in range(rng.randint(0, 200)))


def long_token(rng: random.Random) -> str:
    char = rng.choice(("a", "1", "-", " ", "\n", _codepoint(rng)))
    return f"Seen {char * rng.randint(500, 20_000)} by Dr {rng.choice(NAMES)}"


def template(rng: random.Random) -> str:
    values = {
        "name": rng.choice(NAMES),
        "date": f"{rng.randint(1, 12)}/{rng.randint(1, 31)}/{rng.randint(1900, 2100)}",
        "mrn": _digits(rng, 4, 10),
        "phone": f"{_digits(rng, 3, 3)}-{_digits(rng, 3, 3)}-{_digits(rng, 4, 4)}",
        "email": f"{rng.choice(('jo', 'x.y', 'a_b'))}{_digits(rng, 1, 3)}@example.org",
        "age": str(rng.randint(0, 130)),
        "zip": _digits(rng, 5, 5),
    }
    return rng.choice(TEMPLATES).format(**{k: _inject(rng, v) for k, v in values.items()})


KINDS: dict[str, Callable[[random.Random], str]] = {
    "random-unicode": random_unicode,
    "control": control_heavy,
    "long-token": long_token,
    "template": template,
}
WEIGHTS = {"random-unicode": 3, "control": 2, "long-token": 1, "template": 4}


def _rows(spans: tuple[Span, ...]) -> list[tuple[object, ...]]:
    return [(s.start, s.end, s.label, s.source, s.score, s.evidence, s.parts) for s in spans]


def _inside(spans: tuple[Span, ...], text: str) -> bool:
    return all(0 <= s.start < s.end <= len(text) for s in spans)


def check_block(deid: Deidentifier, notes: list[Document], repeat: bool) -> list[str]:
    """Problems found in one block (empty: none), as PHI-free strings."""
    problems: list[str] = []
    found = deid.detect_many(notes)
    problems += [f"{n.id}: span outside the text" for n, s in zip(notes, found, strict=True) if not _inside(s, n.text)]
    for mode in (Mode.TAG, Mode.SURROGATE):
        results = deid.deidentify_many(notes, found, mode=mode, key=KEY)
        problems += [f"{n.id}: {mode.value} span outside the output" for n, r in zip(notes, results, strict=True)
                     if not _inside(r.spans, r.text)]  # fmt: skip
        if repeat:
            again = deid.deidentify_many(notes, found, mode=mode, key=KEY)
            problems += [f"{n.id}: {mode.value} output differs" for n, a, b in zip(notes, results, again, strict=True)
                         if a.text != b.text]  # fmt: skip
    if repeat:
        problems += [f"{n.id}: spans differ" for n, a, b in zip(notes, found, deid.detect_many(notes), strict=True)
                     if _rows(a) != _rows(b)]  # fmt: skip
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--block", type=int, default=50, help="notes per detect_many call (patients of 1-3 notes)")
    args = parser.parse_args()
    deid = Deidentifier.load()
    settle_heap()
    rng = random.Random(args.seed)
    kinds, weights = list(KINDS), [WEIGHTS[k] for k in KINDS]
    made: Counter[str] = Counter()
    failures: list[str] = []
    chars = 0
    started = time.process_time()
    for first in range(0, args.count, args.block):
        notes = []
        for index in range(first, min(first + args.block, args.count)):
            kind = rng.choices(kinds, weights)[0]
            made[kind] += 1
            text = KINDS[kind](rng)
            chars += len(text)
            notes.append(Document(f"{kind}#{index}", text, DocumentMetadata(patient_id=str(index // 3))))
        try:
            failures += check_block(deid, notes, repeat=(first // args.block) % 10 == 0)
        except Exception as err:  # a fuzzer reports every failure, then goes on
            failures.append(f"block {first}: {type(err).__name__}")
        done = min(first + args.block, args.count)
        if done % 10_000 < args.block:
            print(f"{done:,} inputs, {len(failures)} failures, {time.process_time() - started:.0f} s", flush=True)
    seconds = time.process_time() - started
    print(f"{args.count:,} inputs ({', '.join(f'{k} {v:,}' for k, v in sorted(made.items()))}; {chars / 1e6:.1f} MB)")
    print(f"failures: {len(failures)}; {seconds:.0f} s CPU ({args.count / seconds:.0f} inputs/s)")
    for failure in failures[:20]:
        print("  " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
