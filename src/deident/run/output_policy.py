"""What a de-identified output carries besides the note text: only what the user keeps.

The text is replaced in place. Document, patient and note ids and threads (often MRNs, or names taken
from file names) are pseudonymised unless kept; every other table column and JSONL metadata key is
dropped unless the user lists it: ``keep`` (copied as it is), ``deidentify`` (free text, de-identified as
a note of the same patient) or ``pseudonymise`` (ids, MRNs). Pseudonyms are HMAC-SHA256 of the secret
key (stable across runs with the same key); without a key they are numbers in order of first
appearance in the input (stable for the same input).

Names in these sets are table column names or metadata keys; ``id`` and ``patient_id`` (or the id and
patient columns' names) keep the document and patient ids, ``note_id`` and ``thread`` those fields.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import ConfigurationError
from deident.io.tables import COLUMN_PREFIX, COLUMNS_KEY, METADATA_COLUMN, ROLE_KEYS, SPANS_COLUMN, TYPES_KEY
from deident.replace import SecretKey

# Replaces texts (column values) given as documents, returning the new texts in order.
TextDeidentifier = Callable[[Sequence[Document]], list[str]]
_ID_FIELDS = ("id", "patient_id", "note_id", "thread")


@dataclass(frozen=True)
class OutputPolicy:
    keep: frozenset[str] = frozenset()
    deidentify: frozenset[str] = frozenset()
    pseudonymise: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for first, second in (
            (self.keep, self.deidentify),
            (self.keep, self.pseudonymise),
            (self.deidentify, self.pseudonymise),
        ):
            both = sorted(first & second)
            if both:
                raise ConfigurationError(
                    f"column {both[0]!r} is given to two of --keep-col, --deid-col and --pseudonymise-col"
                )

    def summary(self) -> str:
        """The report's line: what the output keeps besides the de-identified text (the user's names only)."""
        kept = ", ".join(sorted(self.keep)) or "nothing"
        parts = [f"Output keeps as is: {kept}"]
        pseudonymised = sorted({*self.pseudonymise, *(f for f in _ID_FIELDS if f not in self.keep)})
        parts.append(f"pseudonymised: {', '.join(pseudonymised)}")
        if self.deidentify:
            parts.append(f"de-identified as free text: {', '.join(sorted(self.deidentify))}")
        parts.append("every other column and metadata key is dropped (--keep-col, --deid-col, --pseudonymise-col)")
        return "; ".join(parts) + "."


@dataclass
class Pseudonyms:
    """Pseudonyms per kind of value: HMAC of the key, else numbers in order of first appearance."""

    key: SecretKey | None
    _seen: dict[str, dict[str, str]] = field(default_factory=dict)

    def of(self, kind: str, value: str) -> str:
        table = self._seen.setdefault(kind, {})
        if value not in table:
            if self.key is not None:
                table[value] = self.key.digest(None, f"pseudonym:{kind}", value).hex()[:16]
            else:
                table[value] = str(len(table) + 1)
        return table[value]


def column_document(identifier: str, value: str, patient_id: str | None) -> Document:
    """A free-text column value (--deid-col) as a note of its row's patient: with a key its surrogates and
    date shift are those of the patient's notes (HMAC of key, patient, value). ``deident run`` and
    ``deident spark`` both de-identify such values through the Deidentifier as these documents."""
    return Document(identifier, value, DocumentMetadata(patient_id=patient_id))


def apply_output_policy(
    items: Sequence[AnnotatedDocument],
    policy: OutputPolicy,
    key: SecretKey | None,
    deidentify_texts: TextDeidentifier | None,
    pseudonyms: Pseudonyms | None = None,
) -> list[AnnotatedDocument]:
    """The documents as they may leave: ids pseudonymised, columns and metadata keys filtered. An output
    given in parts passes the same ``pseudonyms`` with each (numbers go on in order of first appearance)."""
    pseudonyms = pseudonyms if pseudonyms is not None else Pseudonyms(key)
    wanted_texts: list[tuple[int, str, Document]] = []
    out: list[AnnotatedDocument] = []
    for position, item in enumerate(items):
        meta = item.document.metadata
        extra = dict(meta.extra)
        roles = {role: extra.get(key_name) for role, key_name in ROLE_KEYS.items()}

        def kept(field_name: str, column: str | None = None) -> bool:
            return field_name in policy.keep or (column is not None and column in policy.keep)

        doc_id = item.id if kept("id", roles["id"]) else pseudonyms.of("document", item.id)
        patient_id = meta.patient_id
        if patient_id is not None and not kept("patient_id", roles["patient"]):
            patient_id = pseudonyms.of("patient", patient_id)
        note_id = meta.note_id if meta.note_id is None or kept("note_id") else pseudonyms.of("note", meta.note_id)
        thread = meta.thread if meta.thread is None or kept("thread") else pseudonyms.of("thread", meta.thread)
        new_extra: dict[str, str] = {}
        for name, value in extra.items():
            if name.startswith("table:"):
                if name not in (COLUMNS_KEY, TYPES_KEY, *ROLE_KEYS.values()):
                    new_extra[name] = value  # the table's layout (delimiter, quote character, BOM): no content
                continue
            plain = name.removeprefix(COLUMN_PREFIX)
            if plain in policy.keep:
                new_extra[name] = value
            elif plain in policy.pseudonymise:
                new_extra[name] = pseudonyms.of(f"column:{plain}", value)
            elif plain in policy.deidentify:
                if deidentify_texts is None:
                    raise ConfigurationError("--deid-col needs a detection pipeline (it cannot use --spans)")
                new_extra[name] = ""  # filled below, once every value is known
                wanted_texts.append((position, name, column_document(f"{position}:{name}", value, meta.patient_id)))
        columns = extra.get(COLUMNS_KEY)
        if columns is not None:
            role_columns = {roles["text"], roles["id"], roles["patient"], SPANS_COLUMN, METADATA_COLUMN}
            listed = policy.keep | policy.pseudonymise | policy.deidentify
            names = json.loads(columns)
            chosen = [i for i, c in enumerate(names) if c in role_columns or c in listed]
            new_extra[COLUMNS_KEY] = json.dumps([names[i] for i in chosen], ensure_ascii=False)
            for role, key_name in ROLE_KEYS.items():
                if roles[role] is not None:
                    new_extra[key_name] = str(roles[role])
            types = extra.get(TYPES_KEY)
            if types is not None:  # the column types stay with their columns
                type_names = json.loads(types)
                new_extra[TYPES_KEY] = json.dumps([type_names[i] for i in chosen])
        new_meta = replace(
            meta, patient_id=patient_id, note_id=note_id, thread=thread, extra=tuple(sorted(new_extra.items()))
        )
        out.append(AnnotatedDocument(Document(doc_id, item.text, new_meta), item.spans))
    if wanted_texts and deidentify_texts is not None:
        texts = deidentify_texts([doc for _, _, doc in wanted_texts])
        for (position, name, _), text in zip(wanted_texts, texts, strict=True):
            item = out[position]
            meta = item.document.metadata
            out[position] = AnnotatedDocument(
                replace(item.document, metadata=meta.with_extra(**{name: text})), item.spans
            )
    return out
