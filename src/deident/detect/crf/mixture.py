"""Training mixtures: an annotated corpus plus its re-identified variants and synthetic notes (issue 16).

Sibanda & Uzuner (2006) trained on re-identified copies of their corpus (every gold PHI span replaced by a
fresh surrogate of the same label), on copies whose PHI are ambiguous words and on copies whose PHI are in
no dictionary. A :class:`Mixture` names which of those go with the base corpus, and how many synthetic
notes (``deident synth``) are added; :func:`build_mixture` writes nothing and is deterministic for a given
base corpus and mixture.

Synthetic notes follow the i2b2-2014 convention and carry labels the base corpus may not have; with
``base_scheme`` they are first cut to the base corpus's convention (for PhysioNet: no ages of 89 or less,
no weekdays, professions, states or countries, facility names without their head noun) and every label
the base corpus lacks is mapped onto the base corpus's most frequent label of the same category
(HOSPITAL -> LOCATION_OTHER, MEDICALRECORD -> IDNUM, FAX -> PHONE), so the CRFs keep the base label set.
A span whose category the base corpus never annotates is dropped.

The learned data of a model (triggers, lexicon, vocabulary, clusters) is learned from the base corpus only
(see :func:`deident.detect.crf.train.train_model`'s ``learn_docs``): the variants' surrogate names would
otherwise fill the lexicon, and the copies of a patient's notes under new pseudonymous patients would
count that patient's rare words as common.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from deident.core.document import AnnotatedDocument
from deident.core.errors import ConfigurationError
from deident.core.labels import Category, Label
from deident.core.span import Span
from deident.schemes import get_scheme
from deident.synth.generate import STYLES, check_styles, generate_corpus
from deident.synth.reidentify import Kind, reidentify_corpus


def parse_augment(text: str) -> tuple[tuple[Kind, int], ...]:
    """``"reidentified:2,ambiguous:1,unseen:1"`` -> ((Kind.REIDENTIFIED, 2), ...); a bare kind means 1 variant."""
    out: dict[Kind, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, _, count = part.partition(":")
        try:
            kind = Kind(name.strip())
        except ValueError:
            choices = ", ".join(k.value for k in Kind)
            raise ConfigurationError(f"unknown variant kind {name.strip()!r}; choose from {choices}") from None
        try:
            variants = int(count) if count else 1
        except ValueError:
            raise ConfigurationError(f"{part!r}: the number of variants must be an integer") from None
        if variants < 0:
            raise ConfigurationError(f"{part!r}: the number of variants cannot be negative")
        if kind in out:
            raise ConfigurationError(f"variant kind {kind.value!r} given twice")
        if variants:
            out[kind] = variants
    return tuple(out.items())


@dataclass(frozen=True)
class Mixture:
    """What goes with the base corpus into CRF training; recorded in the model's manifest."""

    augment: tuple[tuple[Kind, int], ...] = ()
    synth: int = 0  # synthetic notes
    synth_styles: tuple[str, ...] = STYLES
    seed: int = 0  # seed of the variants and of the synthetic corpus
    base_scheme: str | None = "physionet"  # convention the synthetic notes are cut to (None: kept as written)

    def __post_init__(self) -> None:
        if self.synth < 0:
            raise ConfigurationError("the number of synthetic notes cannot be negative")
        check_styles(self.synth_styles)
        if self.base_scheme is not None:
            get_scheme(self.base_scheme)

    @property
    def empty(self) -> bool:
        return not self.augment and not self.synth

    def as_dict(self) -> dict[str, Any]:
        return {
            "variants": {kind.value: k for kind, k in self.augment},
            "synth_notes": self.synth,
            "synth_styles": list(self.synth_styles) if self.synth else [],
            "seed": self.seed,
            "synth_scheme": self.base_scheme if self.synth else None,
        }

    def describe(self) -> str:
        parts = [f"{kind.value} x{k}" for kind, k in self.augment]
        if self.synth:
            parts.append(f"{self.synth} synthetic notes ({', '.join(self.synth_styles)})")
        return "base corpus" + "".join(f" + {p}" for p in parts) + f" (seed {self.seed})"


def conform_labels(
    docs: Sequence[AnnotatedDocument], base: Sequence[AnnotatedDocument], scheme: str | None
) -> list[AnnotatedDocument]:
    """``docs`` cut to ``scheme`` and relabelled onto the base corpus's labels (see the module doc)."""
    counts: Counter[Label] = Counter(s.label for d in base for s in d.spans)
    by_category: dict[Category, Label] = {}
    for label, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].value)):
        by_category.setdefault(label.category, label)
    chosen = get_scheme(scheme) if scheme is not None else None
    out: list[AnnotatedDocument] = []
    for doc in docs:
        spans: list[Span] = []
        for span in doc.spans:
            kept = chosen.apply(span, doc.text) if chosen is not None else span
            if kept is None:
                continue
            if kept.label not in counts:
                target = by_category.get(kept.label.category)
                if target is None:
                    continue
                kept = kept.with_label(target)
            spans.append(kept)
        out.append(AnnotatedDocument(doc.document, tuple(spans)))
    return out


def build_mixture(base: Sequence[AnnotatedDocument], mixture: Mixture) -> list[AnnotatedDocument]:
    """The base corpus, then each kind's variants in the mixture's order, then the synthetic notes."""
    out = list(base)
    for kind, variants in mixture.augment:
        out.extend(reidentify_corpus(base, variants, mixture.seed, kind))
    if mixture.synth:
        synth = generate_corpus(mixture.synth, mixture.seed, mixture.synth_styles)
        out.extend(conform_labels(synth, base, mixture.base_scheme))
    return out
