"""A small synthetic annotated corpus with planted PHI (no real data), for CRF tests."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.labels import Label
from deident.core.span import Span

TRAIN_DOCTORS = ("Smith", "Jones", "Baker", "Miller", "Wilson", "Moore", "Taylor", "Clark", "Lewis", "Walker")
TRAIN_RELATIVES = ("Mary", "John", "Susan", "Robert", "Linda", "James", "Karen", "David")
TEST_DOCTORS = ("Quimby", "Hargrove", "Pemberton", "Oakley", "Fairbanks")
TEST_RELATIVES = ("Agatha", "Bertram", "Cornelius", "Delphine")
PLACES = ("Riverside", "Lakeview", "Fairmont", "Brookfield")

_TEMPLATES = (
    ("Pt seen by Dr. ", "DOC", " this am, plan discussed."),
    ("Wife ", "REL", " at bedside, updated on plan."),
    ("Called Dr ", "DOC", " re: low urine output."),
    ("Transferred from ", "LOC", " hospital overnight."),
    ("Son ", "REL", " called for update."),
    ("Plan per ", "DOC", " team: continue lasix."),
    ("Admitted on ", "DATE", " with chest pain."),
)
_FILLER = (
    "BP stable, HR 80s sinus rhythm.",
    "Lungs clear bilaterally, sats 97% on 2L.",
    "Neuro: alert and oriented x3, follows commands.",
    "GI: abd soft, tolerating clears.",
    "Skin intact, turned q2h.",
    "Pain controlled with morphine prn.",
)
_KIND_LABEL = {"DOC": Label.DOCTOR, "REL": Label.RELATIVE, "LOC": Label.LOCATION_OTHER, "DATE": Label.DATE}


def synthetic_corpus(
    n: int,
    seed: int = 7,
    doctors: tuple[str, ...] = TRAIN_DOCTORS,
    relatives: tuple[str, ...] = TRAIN_RELATIVES,
    patients: int = 10,
    caps: bool = False,
) -> list[AnnotatedDocument]:
    """``n`` notes of 3-6 lines each; half the lines carry one planted PHI instance."""
    rng = random.Random(seed)
    docs: list[AnnotatedDocument] = []
    for number in range(n):
        parts: list[str] = []
        spans: list[Span] = []
        length = 0
        for _ in range(rng.randint(3, 6)):
            if rng.random() < 0.5:
                line = rng.choice(_FILLER)
            else:
                before, kind, after = rng.choice(_TEMPLATES)
                value = {
                    "DOC": lambda: rng.choice(doctors),
                    "REL": lambda: rng.choice(relatives),
                    "LOC": lambda: rng.choice(PLACES),
                    "DATE": lambda: f"{rng.randint(1, 12)}/{rng.randint(1, 28)}",
                }[kind]()
                start = length + len(before)
                spans.append(Span(start, start + len(value), _KIND_LABEL[kind], "gold"))
                line = before + value + after
            parts.append(line)
            length += len(line) + 1
        text = "\n".join(parts) + "\n"
        if caps:
            text = text.upper()
        patient = str(number % patients)
        meta = DocumentMetadata(patient_id=patient, note_id=str(number))
        docs.append(AnnotatedDocument(Document(f"{patient}_{number}", text, meta), tuple(spans)))
    return docs


@dataclass(frozen=True)
class RegexProvider:
    """A stand-in for a pattern detector: every match of ``pattern`` (group 1) gets ``label``."""

    name: str
    pattern: str
    label: Label

    def detect(self, document: Document) -> list[Span]:
        return [Span(m.start(1), m.end(1), self.label, self.name) for m in re.finditer(self.pattern, document.text)]


PROVIDERS = (
    RegexProvider("test.title", r"\b(?:Dr\.?|Wife|Son) ([A-Z][a-z]+)", Label.DOCTOR),
    RegexProvider("test.date", r"\b(\d{1,2}/\d{1,2})\b", Label.DATE),
)
