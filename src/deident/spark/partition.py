"""What each Spark task does, as plain Python: de-identify an iterator of row dictionaries.

A :class:`SparkJob` is the whole configuration a task needs (it travels to the executors inside the
task closure, the secret key included, so enable Spark's RPC encryption on shared clusters). Each
executor process loads the model once (:func:`load_deidentifier`, a cache keyed by the job's model
settings) and reuses it for every partition. Rows arrive grouped by patient (the DataFrame side
repartitions and sorts by the patient column), so a patient's notes are detected together
(reconciliation works across them) and replaced together, sharing surrogates and a date shift; with
the same key they agree across partitions and runs anyway, because every surrogate is an HMAC of
(key, patient, value).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from deident.api import Deidentifier
from deident.core.document import Document, DocumentMetadata
from deident.core.errors import InputFormatError
from deident.core.heap import settle_heap
from deident.replace import ReplaceOptions
from deident.run.output_policy import column_document
from deident.site.config import SiteConfig

SPAN_FIELDS = ("start", "end", "label", "source", "score")


@dataclass(frozen=True)
class SparkJob:
    """Model, replacement and column settings of a Spark de-identification job."""

    options: ReplaceOptions = field(default_factory=ReplaceOptions)
    model: str | None = None  # a model directory visible to every executor; None: the bundled model
    pipeline: str = "default"
    scheme: str | None = None
    recall_target: float | None = None
    text_col: str = "text"
    id_col: str | None = None
    patient_col: str | None = None
    author_col: str | None = None  # the poster of each note: its handle is sought in the text
    output_col: str = "text_deid"
    spans_col: str | None = "phi_spans"
    # Free-text columns de-identified in place as notes of the row's patient (--deid-col).
    deid_cols: tuple[str, ...] = ()
    source: str = "dataframe"  # named in error messages instead of a file
    # The site configuration (deident.site), read on the driver and shipped with the job.
    site_config: SiteConfig | None = None

    def model_settings(
        self,
    ) -> tuple[str | None, str, str | None, float | None, ReplaceOptions, SiteConfig | None]:
        return (self.model, self.pipeline, self.scheme, self.recall_target, self.options, self.site_config)


@lru_cache(maxsize=4)
def load_deidentifier(
    model: str | None,
    pipeline: str,
    scheme: str | None,
    recall_target: float | None,
    options: ReplaceOptions,
    site_config: SiteConfig | None = None,
) -> Deidentifier:
    """The executor's de-identifier for these settings (loaded on first use, then reused; the executor's Python
    worker runs deident's code only, so the loaded model is moved out of the collector's walks)."""
    deidentifier = Deidentifier.load(
        model, pipeline, scheme=scheme, recall_target=recall_target, options=options, config=site_config
    )
    settle_heap()
    return deidentifier


def _document(job: SparkJob, row: dict[str, Any], number: int) -> Document:
    text = row.get(job.text_col)
    identifier = row.get(job.id_col) if job.id_col else None
    where = f"row {number} of a partition"  # not the id: an id column may itself be an identifier
    if text is None:
        text = ""  # a null note has nothing to replace; kept so the output keeps every row
    elif not isinstance(text, str):
        raise InputFormatError(job.source, where, f"column {job.text_col!r} holds {type(text).__name__}, not text")
    patient = row.get(job.patient_col) if job.patient_col else None
    author = row.get(job.author_col) if job.author_col else None
    return Document(
        str(identifier) if identifier is not None else str(number),
        text,
        DocumentMetadata(
            patient_id=None if patient is None else str(patient), author=None if author in (None, "") else str(author)
        ),
    )


def deidentify_rows(job: SparkJob, rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Each row with ``output_col`` (the de-identified text) and, if set, ``spans_col`` (the replaced
    spans: offsets into the original text, label, detector, score) added, and its ``deid_cols`` replaced by
    their de-identified text; rows keep their order.

    Consecutive rows of one patient are detected and de-identified together (the notes first, then the
    free-text columns as further notes of the patient, as ``deident run`` does)."""
    deidentifier = load_deidentifier(*job.model_settings())
    numbered = enumerate(rows)

    def patient_of(item: tuple[int, dict[str, Any]]) -> object:
        return item[1].get(job.patient_col) if job.patient_col else item[0]

    for _, group in itertools.groupby(numbered, key=patient_of):
        batch = list(group)
        documents = [_document(job, row, number) for number, row in batch]
        results = deidentifier.deidentify_many(documents)
        cells = [
            (position, column, column_document(f"{number}:{column}", value, documents[position].metadata.patient_id))
            for position, (number, row) in enumerate(batch)
            for column in job.deid_cols
            if (value := row.get(column)) is not None
        ]
        # The free-text columns are sought for the group's posters too (their authors are the notes').
        posters = [document.metadata.author for document in documents if document.metadata.author]
        replaced = deidentifier.deidentify_many([d for *_, d in cells], board_handles=posters) if cells else []
        columns: dict[int, dict[str, str]] = {}
        for (position, column, _), result in zip(cells, replaced, strict=True):
            columns.setdefault(position, {})[column] = result.text
        for position, ((_, row), result) in enumerate(zip(batch, results, strict=True)):
            out = dict(row)
            out.update(columns.get(position, {}))
            out[job.output_col] = result.text if row.get(job.text_col) is not None else None
            if job.spans_col:
                out[job.spans_col] = [
                    {"start": s.start, "end": s.end, "label": s.label.value, "source": s.source, "score": s.score}
                    for s in result.detected
                ]
            yield out
