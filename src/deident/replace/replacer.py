"""Apply a replacement mode to documents and their spans.

Overlapping spans are resolved first (a longer span wins). Surrogate modes work patient by patient:
all notes of a patient share one :class:`PatientSurrogates` table and one date offset, so the same
name gets the same surrogate in every note and date intervals survive.

The Safe Harbor mode follows 45 CFR 164.514(b)(2)(i) (see :class:`deident.replace.Mode`): dates are
cut to their year, never shifted (C); a year that implies an age over 89 (one 90 or more years before
the patient's latest year, or a date of birth of a patient with an age over 89) and ages over 89 are
aggregated into one "90+" category (C); ZIP codes keep their first three digits, "000" in sparsely
populated areas (B); every other identifier gets a surrogate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deident.core.document import Document
from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.core.span import Span, disjoint_spans, sort_spans
from deident.replace import modes
from deident.replace.consistency import PatientSurrogates
from deident.replace.dates import date_offset, shift_date_text
from deident.replace.keys import SecretKey
from deident.replace.modes import Mode
from deident.replace.safe_harbor import AgedYears, bare_zip_spans, safe_harbor_age, safe_harbor_date, safe_harbor_zip
from deident.replace.shape import apply_case, reshape
from deident.text.number_words import written_number

_DATE_FALLBACK_MONTHS = ("January", "March", "May", "July", "September", "November")


@dataclass(frozen=True)
class ReplaceOptions:
    """How to replace PHI. Surrogate modes need ``key``."""

    mode: Mode = Mode.TAG
    key: SecretKey | None = None
    tag_template: str = modes.DEFAULT_TAG_TEMPLATE
    redaction: str = modes.DEFAULT_REDACTION
    mask_char: str = modes.DEFAULT_MASK_CHAR
    preserve_weekday: bool = False

    def __post_init__(self) -> None:
        if self.mode.needs_key and self.key is None:
            raise ConfigurationError(
                f"mode {self.mode.value!r} needs a secret key: pass --key FILE (or --ephemeral-key for a one-off run)"
            )
        if len(self.mask_char) != 1:
            raise ConfigurationError("the mask character must be exactly one character")
        try:
            self.tag_template.format(label="DOCTOR", category="NAME")
        except (KeyError, IndexError, ValueError):
            raise ConfigurationError("the tag template may only use {label} and {category}") from None

    @property
    def shifts_dates(self) -> bool:
        """Whether dates move by the patient's offset (surrogate mode; Safe Harbor cuts them to the year)."""
        return self.mode is Mode.SURROGATE


@dataclass(frozen=True)
class Replaced:
    """A de-identified text and the spans of the replacements in it."""

    text: str
    spans: tuple[Span, ...]
    # The detected spans it replaced, overlaps resolved (:func:`disjoint_spans`), offsets into the original text.
    detected: tuple[Span, ...] = ()

    def __repr__(self) -> str:
        return f"Replaced(chars={len(self.text)}, spans={len(self.spans)})"


@dataclass(frozen=True)
class Replacer:
    options: ReplaceOptions

    def replace(self, document: Document, spans: Sequence[Span]) -> Replaced:
        return self.replace_patient([(document, spans)])[0]

    def replace_patient(self, items: Sequence[tuple[Document, Sequence[Span]]]) -> list[Replaced]:
        """Replace the spans of notes that belong to one patient (one surrogate table for all)."""
        resolved = [(doc, disjoint_spans(spans, doc.text)) for doc, spans in items]
        detected = [spans for _, spans in resolved]
        table: PatientSurrogates | None = None
        offset = 0
        aged = AgedYears()
        if self.options.mode is Mode.SAFE_HARBOR:
            resolved = [(doc, sort_spans((*spans, *bare_zip_spans(doc.text, spans)))) for doc, spans in resolved]
            aged = AgedYears.of_patient(resolved)
        if self.options.mode.needs_key:
            key = self.options.key
            assert key is not None  # checked by ReplaceOptions
            patient = _patient_scope(items[0][0]) if items else None
            originals = [(s.label, s.text_of(doc.text)) for doc, spans in resolved for s in spans]
            table = PatientSurrogates(key, patient, originals)
            offset = date_offset(key, patient, self.options.preserve_weekday)
        return [
            self._apply(doc, spans, table, offset, aged, found)
            for (doc, spans), found in zip(resolved, detected, strict=True)
        ]

    def replace_many(self, items: Sequence[tuple[Document, Sequence[Span]]]) -> list[Replaced]:
        """Replace across patients, keeping input order; notes are grouped by patient internally."""
        groups: dict[str | None, list[int]] = {}
        for index, (doc, _) in enumerate(items):
            groups.setdefault(_patient_scope(doc), []).append(index)
        results: list[Replaced | None] = [None] * len(items)
        for indices in groups.values():
            for index, replaced in zip(indices, self.replace_patient([items[i] for i in indices]), strict=True):
                results[index] = replaced
        return [r for r in results if r is not None]

    def _apply(
        self,
        doc: Document,
        spans: tuple[Span, ...],
        table: PatientSurrogates | None,
        offset: int,
        aged: AgedYears,
        detected: tuple[Span, ...],
    ) -> Replaced:
        text = doc.text
        pieces: list[str] = []
        new_spans: list[Span] = []
        cursor = 0
        length = 0
        for span in spans:
            between = text[cursor : span.start]
            pieces.append(between)
            length += len(between)
            new = self._replacement(span, text, table, offset, aged)
            pieces.append(new)
            if new:
                # Evidence describes the original text (its parts' offsets reveal original lengths),
                # so the spans of the output keep only label, source and score.
                new_spans.append(Span(length, length + len(new), span.label, span.source, span.score))
            length += len(new)
            cursor = span.end
        pieces.append(text[cursor:])
        return Replaced("".join(pieces), tuple(new_spans), detected)

    def _replacement(self, span: Span, text: str, table: PatientSurrogates | None, offset: int, aged: AgedYears) -> str:
        original = span.text_of(text)
        mode = self.options.mode
        if mode is Mode.TAG:
            return modes.tag(span, self.options.tag_template)
        if mode is Mode.REDACT:
            return modes.redact(span, self.options.redaction)
        if mode is Mode.MASK:
            return modes.mask(original, self.options.mask_char)
        assert table is not None and self.options.key is not None
        safe_harbor = mode is Mode.SAFE_HARBOR
        if span.label is Label.DATE:
            if safe_harbor:
                return safe_harbor_date(text, span, aged) or modes.tag(span, self.options.tag_template)
            return self._date(span, original, offset)
        if span.label is Label.AGE:
            return safe_harbor_age(original) if safe_harbor else _age(original, offset)
        if safe_harbor and span.label is Label.ZIP:
            return safe_harbor_zip(original)
        if table.is_person(span.label, original):
            return table.name(original)
        return table.value(span.label, original)

    def _date(self, span: Span, original: str, offset: int) -> str:
        shifted = shift_date_text(original, offset)
        if shifted is not None and shifted.strip():
            return shifted
        # Unrecognised dates ("Christmas", "the 3rd"): new digits in the same layout, or a month name.
        if any(c.isdigit() for c in original):
            return reshape(original, abs(offset))
        return apply_case(original, _DATE_FALLBACK_MONTHS[abs(offset) % len(_DATE_FALLBACK_MONTHS)])


def _age(original: str, offset: int) -> str:
    """Ages move by a small per-patient amount (so a patient's ages stay consistent); over 89 they
    stay over 89."""
    match, value = written_number(original)  # "92", "ninety-two"
    delta = 1 + abs(offset) % 3
    if value is None:
        return str(40 + abs(offset) % 40)
    if value > 89:
        new = str(value + delta)
    else:
        new = str(value + delta if value + delta <= 89 and value < 80 else max(value - delta, 0))
    if match is None:
        return new  # the number words were the whole age
    return original[: match.start()] + new + original[match.end() :]


def _patient_scope(doc: Document) -> str:
    """The patient whose surrogates a note shares; a note without a patient id stands alone."""
    if doc.patient_id is not None:
        return f"patient:{doc.patient_id}"
    return f"document:{doc.id}"
