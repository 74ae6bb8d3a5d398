from __future__ import annotations

import random

import pytest

from deident.synth.builder import NoteBuilder
from deident.synth.distractors import GENERATORS
from deident.synth.generate import STYLES
from deident.synth.phi import make_cast
from deident.synth.templates import SEX_WORDS, SLOT, Renderer, load_pools, load_style
from deident.synth.vocab import faker_for

PHI_SLOTS = {
    "PATIENT", "DOCTOR", "RELATIVE", "RELATION", "USERNAME", "PROFESSION", "HOSPITAL", "DEPARTMENT", "ORGANIZATION",
    "LOCATION_OTHER", "STREET", "CITY", "STATE", "COUNTRY", "ZIP", "ADDRESS", "CITYSTATE", "FOREIGN", "AGE", "DATE",
    "PHONE", "FAX", "EMAIL", "URL", "IPADDR", "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE",
    "DEVICE", "BIOID", "IDNUM", "ROOM",
}  # fmt: skip


def _all_templates() -> list[str]:
    templates = [option for style in STYLES for block in load_style(style).blocks for option in block.options]
    return templates + [t for pool in load_pools().values() for t in pool]


@pytest.mark.parametrize("template", _all_templates())
def test_every_slot_resolves(template: str) -> None:
    assert "{" not in SLOT.sub("", template), "nested or unbalanced braces"
    for match in SLOT.finditer(template):
        slot = match.group(1)
        if slot.startswith("@"):
            assert slot[1:] in load_pools()
        elif slot.startswith("~"):
            continue
        elif slot in SEX_WORDS or slot[:1].islower():
            assert slot in SEX_WORDS or slot in GENERATORS
        else:
            assert slot.partition(":")[0].partition(".")[0] in PHI_SLOTS


def _renderer(seed: int) -> Renderer:
    fake = faker_for("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    return Renderer(make_cast(fake, rng), fake, rng, NoteBuilder())


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_distractor_slots_are_never_annotated(name: str) -> None:
    for seed in range(25):
        renderer = _renderer(seed)
        renderer.render(f"x {{{name}}} {{@nonphi}} {{he}} y")
        text, spans = renderer.builder.build()
        assert spans == ()
        assert text.startswith("x ") and text.endswith(" y")


def test_phi_slot_renders_one_span_per_value() -> None:
    renderer = _renderer(7)
    renderer.render("Seen by {DOCTOR.0:dr} at {HOSPITAL}; lives at {ADDRESS}.")
    text, spans = renderer.builder.build()
    labels = [s.label.value for s in spans]
    assert labels == ["DOCTOR", "HOSPITAL", "STREET", "CITY", "STATE", "ZIP"]
    assert text.startswith("Seen by ") and text.endswith(".")


def test_unknown_slot_is_an_error() -> None:
    with pytest.raises((KeyError, ValueError)):
        _renderer(1).render("{NOT_A_LABEL}")
