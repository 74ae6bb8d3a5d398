"""Generate synthetic annotated notes: one seed per note derived from the corpus seed and the note's
index, so a note does not depend on the notes before it and the output is identical for a seed."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import ConfigurationError
from deident.synth.builder import NoteBuilder
from deident.synth.phi import make_cast
from deident.synth.templates import Renderer, load_style
from deident.synth.vocab import faker_for

STYLES: tuple[str, ...] = ("discharge", "nursing", "psych", "forum")
# Styles generated on request only (not in the default mix): short notes that put person names in the layouts
# where names were half replaced (deident.synth.name_layouts).
# UK letters and Canadian notes (deident.synth.international): identifiers, names and layouts beyond US notes.
EXTRA_STYLES: tuple[str, ...] = ("name_layouts", "uk_letter", "ca_note")
GENERATOR = "deident.synth"


def note_seed(seed: int, index: int) -> int:
    """A 64-bit seed for note ``index`` of a corpus generated with ``seed`` (stable across runs)."""
    digest = hashlib.blake2b(f"deident.synth/{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def check_styles(styles: Sequence[str]) -> tuple[str, ...]:
    unknown = [style for style in styles if style not in STYLES + EXTRA_STYLES]
    if unknown or not styles:
        raise ConfigurationError(f"unknown or no note styles {unknown}; known: {', '.join(STYLES + EXTRA_STYLES)}")
    return tuple(styles)


def generate_note(seed: int, index: int, style: str) -> AnnotatedDocument:
    """Note ``index`` of the corpus for ``seed``, in ``style``, with exact gold spans."""
    check_styles([style])
    derived = note_seed(seed, index)
    rng = random.Random(derived)
    if style == "name_layouts":
        return _name_layout_note(seed, index, rng)
    if style in ("uk_letter", "ca_note"):
        from deident.synth.international import generate

        extra = (("generator", GENERATOR), ("style", style))
        return generate(style, rng, f"synth-{seed}-{index:06d}", f"synth-{seed}-p{index:06d}", extra)
    fake = faker_for("en_US")
    fake.seed_instance(derived)
    template = load_style(style)
    case = "mixed"
    draw = rng.random()
    for variant, weight in template.case_weights:
        if draw < weight:
            case = variant
            break
        draw -= weight
    builder = NoteBuilder(case=case)
    renderer = Renderer(make_cast(fake, rng), fake, rng, builder)
    first = True
    for block in template.blocks:
        if rng.random() >= block.p:
            continue
        count = min(rng.randint(*block.n), len(block.options))
        if not first:
            builder.add(template.block_join)
        first = False
        for number, option in enumerate(rng.sample(block.options, count)):
            if number:
                builder.add(block.join)
            renderer.render(option)
    text, spans = builder.build()
    note_id = f"synth-{seed}-{index:06d}"
    metadata = DocumentMetadata(
        patient_id=f"synth-{seed}-p{index:06d}",
        note_id=note_id,
        note_date=renderer.cast.note_date,
        extra=(("case", case), ("generator", GENERATOR), ("style", style)),
    )
    return AnnotatedDocument(Document(note_id, text, metadata), spans)


def _name_layout_note(seed: int, index: int, rng: random.Random) -> AnnotatedDocument:
    from deident.synth.name_layouts import LAYOUTS, layout_note

    note_id = f"synth-{seed}-{index:06d}"
    layout = LAYOUTS[rng.randrange(len(LAYOUTS))]
    note = layout_note(layout, rng, unseen=rng.random() < 0.5, note_id=note_id)
    metadata = DocumentMetadata(
        patient_id=f"synth-{seed}-p{index:06d}",
        note_id=note_id,
        extra=(("generator", GENERATOR), ("layout", layout), ("style", "name_layouts")),
    )
    return AnnotatedDocument(Document(note_id, note.text, metadata), note.spans)


def iter_notes(count: int, seed: int, styles: Sequence[str] = STYLES) -> Iterator[AnnotatedDocument]:
    """``count`` notes, styles taken in turn (note i has style ``styles[i % len(styles)]``)."""
    chosen = check_styles(styles)
    for index in range(count):
        yield generate_note(seed, index, chosen[index % len(chosen)])


def generate_corpus(count: int, seed: int, styles: Sequence[str] = STYLES) -> list[AnnotatedDocument]:
    return list(iter_notes(count, seed, styles))
