"""Invented notes that put person names in the layouts where half-replaced names were seen.

A de-identifier that finds one token of a name and misses the next leaves a surname beside a tag or
a surrogate ("Patient: [NAME] Wobblestone"), which vouches for the real surname. Names survive most
often in notes written in one case, as "Last, First", after a field name such as "Patient:", in
list items, with tab or no-break-space separators and in quotes. Each layout below is a short note
template with slots for a patient, a relative and a clinician; names are drawn from faker's locales
(names a lexicon may know) or are pronounceable pseudo-words (names no lexicon knows), and every
name token is a gold span. ``bench/bench_name_survival.py`` measures how many survive detection.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.labels import Label
from deident.synth.builder import NoteBuilder

# Slots: P = patient, R = relative, D = clinician; F = first name, L = surname; REL = the relation word.
_SLOT = re.compile(r"\{(PF|PL|RF|RL|DF|DL|REL)\}")
_LABELS = {"P": Label.PATIENT, "R": Label.RELATIVE, "D": Label.DOCTOR}
RELATIONS = ("wife", "husband", "daughter", "son", "sister", "brother", "mother", "father", "partner", "niece")

_PROSE = (
    "{PF} {PL} is a 67 year old seen in clinic today for review of hypertension and type 2 diabetes. "
    "{PF} reports good adherence to medication and no chest pain. Her {REL} {RF} {RL} attended and "
    "confirms the history. Mrs {PL} will continue metformin. Plan discussed with Dr {DF} {DL}.\n"
)
_FIELDS = (
    "Patient: {PF} {PL}\nDOB: 04/11/1951\nMRN: 4471902\nNext of kin: {RF} {RL} ({REL})\n\n"
    "Seen today for follow-up of COPD. Sats 94% on air, chest clear. Inhaler technique reviewed.\n"
    "Signed: Dr {DF} {DL}\n"
)
_TEMPLATES: dict[str, str] = {
    "prose": _PROSE,
    "patient_field": _FIELDS,
    "last_first": (
        "Patient: {PL}, {PF}\nReferring clinician: {DL}, {DF}\n\n"
        "{PL}, {PF} was reviewed on the ward this morning. Afebrile, eating and drinking. "
        "Discussed with {REL} ({RL}, {RF}) by phone.\n"
    ),
    "list_item": (
        "Family meeting held today.\nPresent:\n- {PF} {PL} (patient)\n- {RF} {RL} ({REL})\n"
        "- Dr {DF} {DL}, consultant\n\nGoals of care discussed; for ward-based care.\n"
    ),
    "lower_case": _PROSE + _FIELDS,
    "upper_case": _FIELDS + _PROSE,
    "tab_separated": (
        "Name:\t{PF}\t{PL}\nNext of kin:\t{RF}\t{RL}\t{REL}\nGP:\t{DF}\t{DL}\n\nNo change to medication.\n"
    ),
    "no_break_space": _PROSE.replace("} {", "}\u00a0{"),
    "quoted": (
        "Pt states \"{PF} {PL}\" is her legal name. Contact '{RF} {RL}' ({REL}) if deteriorates. "
        '"{DF} {DL}" reviewed the chart overnight.\n'
    ),
}
LAYOUTS: tuple[str, ...] = tuple(_TEMPLATES)
_CASE = {"lower_case": "lower", "upper_case": "upper"}


def _first(rng: random.Random, unseen: bool) -> str:
    from deident.synth.reidentify import Kind, _first_name

    return _first_name(Kind.UNSEEN if unseen else Kind.REIDENTIFIED, rng)


def _last(rng: random.Random, unseen: bool) -> str:
    from deident.synth.reidentify import Kind, _surname

    return _surname(Kind.UNSEEN if unseen else Kind.REIDENTIFIED, rng)


def layout_note(layout: str, rng: random.Random, *, unseen: bool, note_id: str) -> AnnotatedDocument:
    """One note of ``layout`` with fresh names (``unseen``: pseudo-words no lexicon knows)."""
    values = {
        "REL": rng.choice(RELATIONS),
        **{f"{who}F": _first(rng, unseen) for who in "PRD"},
        **{f"{who}L": _last(rng, unseen) for who in "PRD"},
    }
    builder = NoteBuilder(case=_CASE.get(layout, "mixed"))
    template = _TEMPLATES[layout]
    position = 0
    for match in _SLOT.finditer(template):
        builder.add(template[position : match.start()])
        slot = match.group(1)
        builder.add(values[slot], None if slot == "REL" else _LABELS[slot[0]])
        position = match.end()
    builder.add(template[position:])
    text, spans = builder.build()
    return AnnotatedDocument(Document(note_id, text, DocumentMetadata(patient_id=note_id)), spans)


def layout_corpus(notes_per_layout: int, seed: int, layouts: tuple[str, ...] = LAYOUTS) -> Iterator[AnnotatedDocument]:
    """``notes_per_layout`` notes of each layout, half with pseudo-word names; deterministic for ``seed``."""
    for layout in layouts:
        rng = random.Random(f"{seed}:{layout}")
        for index in range(notes_per_layout):
            yield layout_note(layout, rng, unseen=index % 2 == 1, note_id=f"{layout}-{index}")
