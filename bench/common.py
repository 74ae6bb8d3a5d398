"""Helpers shared by the benchmark scripts: locate and load the corpus, measure its size."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from deident.core.document import AnnotatedDocument, Document, patient_chunks, patient_or_note
from deident.io import read_corpus

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "physionet-dev" / "physionet-dev.text"


def load_corpus(path: Path = CORPUS) -> list[AnnotatedDocument]:
    if not path.exists():
        sys.exit(f"corpus not found: {path} (benchmarks need ../shared/corpora/physionet-dev)")
    return read_corpus(path)


def megabytes(docs: Sequence[AnnotatedDocument]) -> float:
    return sum(len(d.text.encode("utf-8")) for d in docs) / 1e6


def one_by_one(run: Callable[[Document], object]) -> Callable[[Sequence[Document]], object]:
    """``run`` applied note by note, as a function of a list of notes."""
    return lambda notes: [run(note) for note in notes]


def held_out_half(
    docs: Sequence[AnnotatedDocument], run_notes: Callable[[Sequence[Document]], object], chunk_size: int = 200
) -> dict[str, float]:
    """MB/s of ``run_notes`` over the notes of every other patient (by sorted id), after an untimed pass over the
    other patients' notes: unseen notes met deep into a long run, when per-word memo tables hold other notes' words.
    Notes are given in chunks of whole patients of about ``chunk_size`` notes (see :func:`one_by_one`)."""
    patients = sorted({patient_or_note(d.document) for d in docs})
    timed_patients = set(patients[1::2])
    timed = [d.document for d in docs if patient_or_note(d.document) in timed_patients]
    untimed = [d.document for d in docs if patient_or_note(d.document) not in timed_patients]
    for notes in chunked(untimed, chunk_size):
        run_notes(notes)
    chunks = chunked(timed, chunk_size)
    w0, c0 = time.perf_counter(), time.process_time()
    for notes in chunks:
        run_notes(notes)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    mb = sum(len(d.text.encode("utf-8")) for d in timed) / 1e6
    return {"megabytes": round(mb, 3), "mb_per_s_cpu": round(mb / cpu, 3), "mb_per_s_wall": round(mb / wall, 3)}


def chunked(notes: Sequence[Document], chunk_size: int) -> list[list[Document]]:
    """The notes in chunks of whole patients, as ``deident run`` and ``detect`` give them to ``detect_many``."""
    return [[notes[i] for i in positions] for positions in patient_chunks(notes, chunk_size)]


def machine_reference_s(runs: int = 5) -> float:
    """Seconds of CPU time for a fixed pure-Python loop (dictionary, string and integer work, as the pipeline
    does), best of ``runs``: the speed of this machine at this moment. The shared machines we measure on
    differ and drift by up to 40% over a day, so MB/s figures are comparable only beside this reference
    (lower is faster; MB/s times the reference is roughly machine-independent)."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        counts: dict[int, int] = {}
        digits = 0
        for i in range(1_000_000):
            key = i & 1023
            counts[key] = counts.get(key, 0) + i
            digits += len(str(key))
        best = min(best, time.process_time() - start)
    return round(best, 4)


def in_fresh_process(script: str, *args: str) -> dict[str, Any]:
    """The JSON object that ``script`` prints last when run with ``args`` by this interpreter."""
    out = subprocess.run([sys.executable, script, *args], check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def detect_by_patient(deid: Any, gold: Sequence[AnnotatedDocument]) -> list[AnnotatedDocument]:
    """``gold`` with the spans ``deid`` (a :class:`deident.api.Deidentifier`) finds, each patient's notes detected
    together, as ``deident run`` and ``detect`` process them."""
    from deident.core.document import patient_groups

    pred = list(gold)
    for members in patient_groups([doc.document for doc in gold]):
        spans = deid.detect_many([gold[i].document for i in members])
        for i, found in zip(members, spans, strict=True):
            pred[i] = gold[i].with_spans(found)
    return pred
