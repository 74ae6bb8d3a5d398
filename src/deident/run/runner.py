"""``deident run``: de-identify corpora in chunks, resumably, with worker processes.

Flow per input: read it note by note into a spill file on disk (only each note's patient id and
offset stay in memory), cut it into chunks of whole patients (so a patient's notes share one
surrogate table and are detected together: reconciliation works across them), detect or take the
given spans and replace them chunk by chunk (in worker processes when ``jobs > 1``; each worker
loads the pipeline once), commit each chunk atomically under ``OUTPUT.partial/``, then assemble the
output in the input's format and move it into place.

Memory is bounded by the chunk size, not the corpus: chunks are read back from the spill file as they
are processed (a few at a time), and the output is assembled by merging the committed chunks in input
order and written as it goes (JSONL, CSV/TSV, Parquet, plain-text folders and PhysioNet ``.text`` files
are read and written note by note; table writers spill the notes to disk once more to learn the columns; a
PhysioNet ``.phrase`` file's annotations, not its notes, are held while its ``.text`` is read). Limits: the
annotation formats (BRAT, the i2b2 XML formats, CoNLL) have no streaming reader or writer: they are read
whole before they are spilled and written from a list; a spans file (``--spans``) is matched against the
whole input, and ``--deid-col`` columns are de-identified over the whole output at once.

A failing note never costs finished work: with ``on_error`` "stop" the run stops naming the note
(input and position) and the committed chunks stay; with "skip" the note is left out of the output
and listed in the report. Notes the output format cannot hold are found before any work. Each chunk
records a digest of its input notes, so a rerun after the input was fixed redoes only the chunks
whose notes changed.
"""

from __future__ import annotations

import datetime as dt
import enum
import hashlib
import heapq
import itertools
import json
import multiprocessing
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deident import __version__
from deident.api import Deidentifier
from deident.core.document import (
    AnnotatedDocument,
    Document,
    DocumentMetadata,
    KnownIdentifiers,
    chunks_of_groups,
    groups_of_keys,
)
from deident.core.errors import ConfigurationError, DeidentError, InputFormatError
from deident.core.heap import settle_heap
from deident.core.span import Span
from deident.core.spill import Spill
from deident.io import jsonl, physionet
from deident.io.formats import (
    CorpusFormat,
    ReadOptions,
    detect_format,
    get_format,
    iter_corpus,
    read_corpus,
    write_corpus,
)
from deident.replace import ReplaceOptions
from deident.replace.dates import date_offset
from deident.review.audit import AuditTally, audit_part
from deident.run.output_policy import OutputPolicy, Pseudonyms, apply_output_policy
from deident.run.partial import PartialStore
from deident.run.report import RunReport
from deident.site.config import SiteConfig

DEFAULT_CHUNK_SIZE = 200
DeidentifierFactory = Callable[[], Deidentifier]


class OnError(enum.StrEnum):
    """What a run does with a note that fails: stop (finished chunks are kept) or leave it out."""

    STOP = "stop"
    SKIP = "skip"


class NoteFailedError(DeidentError):
    """A note could not be de-identified or written; the message names its input and position."""


@dataclass(frozen=True)
class RunConfig:
    inputs: tuple[Path, ...]
    output: Path
    options: ReplaceOptions
    pipeline: str = "default"
    model: Path | None = None
    recall_target: float | None = None
    scheme: str | None = None
    reconcile: bool | None = None  # stage-2 reconciliation on or off; None: as the model's manifest says
    spans_file: Path | None = None
    jobs: int = 1
    chunk_size: int = DEFAULT_CHUNK_SIZE
    max_note_chars: int | None = None  # the longest note detection accepts (None: no limit)
    input_format: str | None = None
    read_options: ReadOptions = field(default_factory=ReadOptions)
    overwrite: bool = False
    report_path: Path | None = None  # JSON; the HTML page goes beside it
    # Tests and embedders may supply the deidentifier (it must be picklable when jobs > 1).
    factory: DeidentifierFactory | None = None
    # The caller owns the process (the command line): the loaded model is moved out of the collector's walks
    # (deident.core.heap).
    owns_process: bool = False
    on_error: OnError = OnError.STOP
    # What the output carries besides the de-identified text (deident.run.output_policy).
    output_policy: OutputPolicy = field(default_factory=OutputPolicy)
    # Testing hook: stop with an error after this many chunks have been committed.
    fail_after_chunks: int | None = None
    # The site configuration (deident.site) detection uses; its hash goes into the report.
    site_config: SiteConfig | None = None


@dataclass(frozen=True)
class _Chunk:
    index: int
    positions: tuple[int, ...]
    documents: tuple[Document, ...]
    spans: tuple[tuple[Span, ...], ...] | None
    digest: str  # of the chunk's input notes: a committed chunk is reused only for the same notes
    source: str = ""  # the input's file name, for messages
    on_error: OnError = OnError.STOP
    # Positions the output format cannot hold (found before any work), with the reason.
    unwritable: tuple[tuple[int, str], ...] = ()


class _InjectedFailure(RuntimeError):
    pass


def run(config: RunConfig, on_progress: Callable[[int, int], None] | None = None) -> RunReport:
    """Run de-identification over every input; returns the report (also written to disk).

    ``on_progress(done, total)`` is called with document counts only.
    """
    if config.jobs < 1:
        raise ConfigurationError("--jobs must be at least 1")
    if config.chunk_size < 1:
        raise ConfigurationError("the chunk size must be at least 1")
    started = time.perf_counter()
    started_at = _now()
    targets = _targets(config)
    factory = config.factory or _default_factory(config)

    with ExitStack() as cleanup:
        loaded: list[_Input] = []
        for source, target in targets:
            fmt_name = config.input_format or detect_format(source).name
            fmt = get_format(fmt_name)
            if fmt.write is None:
                raise ConfigurationError(f"{source}: format {fmt.name!r} can be read but not written")
            # The spilled notes are the input's own text: a file without a name, which the system removes
            # when the run ends, is killed or crashes, so no copy of the notes outlives the run.
            spill: _NoteSpill = cleanup.enter_context(Spill.anonymous())
            loaded.append(_scan(source, target, fmt, config, spill))
            if not loaded[-1].spill:
                raise InputFormatError(source, None, "empty input (no notes)")
            _check_target(target, config.overwrite)
            _check_writable(source, fmt, loaded[-1].unwritable, config.on_error)
        # Built here once even when workers build their own, after the inputs are checked: a bad pipeline or
        # model fails before anything is written, and the report names the model.
        deidentifier = factory()
        if config.owns_process:
            settle_heap()
        report = _run_chunks(config, loaded, deidentifier, factory, on_progress, started, started_at)
    return report


_NoteSpill = Spill[tuple[AnnotatedDocument, tuple[Span, ...] | None]]  # each note with its given spans


@dataclass
class _Input:
    """One input after its scan: the notes spilled in input order, each note's patient, those the output
    format cannot hold."""

    source: Path
    target: Path
    fmt_name: str
    spill: _NoteSpill
    patients: list[str | None]
    unwritable: dict[int, str]


def _scan(source: Path, target: Path, fmt: CorpusFormat, config: RunConfig, spill: _NoteSpill) -> _Input:
    """Read the input note by note into the spill file."""
    pairs: Iterable[tuple[AnnotatedDocument, tuple[Span, ...] | None]]
    if config.spans_file is not None:
        docs = read_corpus(source, fmt.name, config.read_options)  # matched with the spans file as a whole
        pairs = zip(docs, _given_spans(config.spans_file, docs), strict=True)
    else:
        pairs = ((item, None) for item in iter_corpus(source, fmt.name, config.read_options))
    patients: list[str | None] = []
    # One string per patient, not per note: a patient's notes share it (memory grows by a pointer per note).
    shared: dict[str, str] = {}
    unwritable: dict[int, str] = {}
    for position, (item, given) in enumerate(pairs):
        problem = fmt.unwritable(item)
        if problem is not None:
            unwritable[position] = problem
        patient = item.document.patient_id
        patients.append(None if patient is None else shared.setdefault(patient, patient))
        spill.add((item, given))
    return _Input(source, target, fmt.name, spill, patients, unwritable)


def _run_chunks(
    config: RunConfig,
    loaded: Sequence[_Input],
    deidentifier: Deidentifier,
    factory: DeidentifierFactory,
    on_progress: Callable[[int, int], None] | None,
    started: float,
    started_at: str,
) -> RunReport:
    total = sum(len(item.spill) for item in loaded)
    done_docs = 0
    stats = _Stats()
    session = _Stats()  # what this invocation processed (throughput excludes resumed chunks)
    resumed = 0
    chunk_count = 0
    for item in loaded:
        source, target, fmt_name = item.source, item.target, item.fmt_name
        store = PartialStore(target)
        if config.overwrite and store.exists():
            store.remove()
        plan = chunks_of_groups(groups_of_keys(item.patients), config.chunk_size)
        chunk_count += len(plan)
        store.open(_manifest(config, fmt_name))
        finished = set()
        for index in sorted(store.done() & set(range(len(plan)))):
            header = store.read_header(index)
            if header.get("digest") != _chunk(item, index, plan[index], config).digest:
                continue  # its notes changed since (a fixed input): redone
            finished.add(index)
            stats.add(header, source.name)
            done_docs += _notes_of(header)
        resumed += len(finished)
        if on_progress:
            on_progress(done_docs, total)
        pending = (_chunk(item, index, plan[index], config) for index in range(len(plan)) if index not in finished)
        processed = _process(pending, deidentifier, factory, config)
        for committed, (header, records) in enumerate(processed, start=1):
            store.write_chunk(int(header["chunk"]), header, records)
            stats.add(header, source.name)
            session.add(header, source.name)
            done_docs += _notes_of(header)
            if on_progress:
                on_progress(done_docs, total)
            if config.fail_after_chunks is not None and committed >= config.fail_after_chunks:
                raise _InjectedFailure(f"injected failure after {committed} chunks")
        _assemble(store, target, fmt_name, len(plan), len(item.spill), _finisher(config, deidentifier))

    finished_at = _now()
    key = config.options.key
    report = RunReport(
        deident_version=__version__,
        mode=config.options.mode.value,
        pipeline="none" if config.spans_file is not None else config.pipeline,
        model_id=deidentifier.model_id,
        span_source="spans file" if config.spans_file is not None else "pipeline",
        recall_target=config.recall_target,
        expected=None if deidentifier.operating_point is None else deidentifier.operating_point.as_dict(),
        key_id=None if key is None or not config.options.mode.needs_key else key.key_id,
        ephemeral_key=bool(key is not None and key.ephemeral and config.options.mode.needs_key),
        input_formats=tuple(sorted({item.fmt_name for item in loaded})),
        documents=stats.documents,
        characters=stats.characters,
        processed_documents=session.documents,
        processed_characters=session.characters,
        spans_by_label=dict(sorted(stats.labels.items())),
        jobs=config.jobs,
        chunks=chunk_count,
        chunks_resumed=resumed,
        started_at=started_at,
        finished_at=finished_at,
        duration_s=time.perf_counter() - started,
        notes=_notes(config),
        skipped=tuple(_reported_skips(stats.skipped, config)),
        residual_risk=stats.audit.as_dict(),
        site_config=None if deidentifier.site is None else deidentifier.site.provenance(),
    )
    json_path, html_path = report_paths(config)
    report.write(json_path, html_path)
    # Chunks go only once every output and the report are in place: a rerun after a crash between
    # two inputs finds the finished ones complete and assembles them again instead of refusing them.
    for item in loaded:
        PartialStore(item.target).remove()
    return report


def report_paths(config: RunConfig) -> tuple[Path, Path]:
    if config.report_path is not None:
        json_path = config.report_path
    elif len(config.inputs) > 1:
        json_path = config.output / "deident-report.json"
    else:
        json_path = config.output.with_name(config.output.name + ".report.json")
    return json_path, json_path.with_suffix(".html")


def _notes(config: RunConfig) -> tuple[str, ...]:
    notes = []
    if config.options.mode.needs_key:
        notes.append("Surrogates and date shifts derive from HMAC(key, patient, value); no table of originals is kept.")
    notes.append(config.output_policy.summary())
    notes.append("Authors and known identifiers are dropped from the metadata.")
    return tuple(notes)


def _targets(config: RunConfig) -> list[tuple[Path, Path]]:
    if not config.inputs:
        raise ConfigurationError("give at least one input")
    if len(config.inputs) == 1:
        return [(config.inputs[0], config.output)]
    names = [p.name for p in config.inputs]
    if len(set(names)) != len(names):
        raise ConfigurationError("inputs must have distinct names when several are written to one output folder")
    if config.output.exists() and not config.output.is_dir():
        raise ConfigurationError(f"{config.output}: with several inputs the output must be a folder")
    return [(source, config.output / source.name) for source in config.inputs]


def _check_target(target: Path, overwrite: bool) -> None:
    if target.exists() and not PartialStore(target).exists() and not overwrite:
        raise ConfigurationError(f"{target}: already exists; pass --overwrite to replace it")


def _default_factory(config: RunConfig) -> DeidentifierFactory:
    if config.spans_file is not None:
        return _SpansOnly(config.options)
    return _Loader(
        config.model,
        config.pipeline,
        config.recall_target,
        config.scheme,
        config.options,
        config.reconcile,
        config.max_note_chars,
        config.site_config,
    )


@dataclass(frozen=True)
class _SpansOnly:
    options: ReplaceOptions

    def __call__(self) -> Deidentifier:
        return Deidentifier(None, self.options, "spans-file")


@dataclass(frozen=True)
class _Loader:
    model: Path | None
    pipeline: str
    recall_target: float | None
    scheme: str | None
    options: ReplaceOptions
    reconcile: bool | None = None
    max_note_chars: int | None = None
    site_config: SiteConfig | None = None

    def __call__(self) -> Deidentifier:
        return Deidentifier.load(
            self.model,
            self.pipeline,
            recall_target=self.recall_target,
            scheme=self.scheme,
            options=self.options,
            stage2=None if self.reconcile is None else {"reconcile": self.reconcile},
            max_note_chars=self.max_note_chars,
            config=self.site_config,
        )


def _check_writable(source: Path, fmt: CorpusFormat, unwritable: Mapping[int, str], on_error: OnError) -> None:
    """Before any work: stop on a note the output cannot hold (``unwritable``: positions found by the scan, with
    the reason), unless such notes are to be skipped."""
    if on_error is OnError.SKIP:
        return
    for position, problem in sorted(unwritable.items()):
        raise NoteFailedError(
            f"{source}, note {position + 1}: {problem}, which {fmt.name} output cannot hold; nothing was "
            "processed: fix the note, convert to JSONL first, or pass --on-error skip to leave it out"
        )


def _given_spans(path: Path, docs: Sequence[AnnotatedDocument]) -> list[tuple[Span, ...]]:
    """Spans for each document from a spans file: a PhysioNet .phrase, or any corpus with spans."""
    by_id = {item.id: item.document for item in docs}
    if path.suffix.lower() == ".phrase":
        if not path.exists():
            raise InputFormatError(path, None, "no such file")
        parsed = physionet.parse_phrase(path.read_text(encoding="utf-8"), by_id, path)
        return [tuple(parsed.get(item.id, ())) for item in docs]
    annotated = {item.id: item for item in read_corpus(path)}
    out = []
    for position, item in enumerate(docs):
        found = annotated.get(item.id)
        if found is None:
            raise InputFormatError(path, f"document {position + 1}", "the spans file has no entry for this document")
        if found.text != item.text:
            raise InputFormatError(path, f"document {position + 1}", "the spans file's text differs from the input's")
        out.append(found.spans)
    return out


def _chunk(item: _Input, index: int, positions: tuple[int, ...], config: RunConfig) -> _Chunk:
    """Chunk ``index`` (of whole patients: its ``positions``) read back from the spill file."""
    notes = [item.spill.get(p) for p in positions]
    docs = [doc for doc, _ in notes]
    spans = None if config.spans_file is None else tuple(given or () for _, given in notes)
    return _Chunk(
        index,
        positions,
        tuple(doc.document for doc in docs),
        spans,
        _digest(docs, spans, positions),
        item.source.name,
        config.on_error,
        tuple((p, item.unwritable[p]) for p in positions if p in item.unwritable),
    )


def _digest(
    items: Sequence[AnnotatedDocument], given: tuple[tuple[Span, ...], ...] | None, positions: Sequence[int]
) -> str:
    """What a chunk's output depends on in the input: its notes (ids, text, metadata, spans), their
    positions and the given spans."""
    digest = hashlib.sha256()
    for position, item in zip(positions, items, strict=True):
        record = jsonl.document_to_record(item)
        record["position"] = position
        digest.update(json.dumps(record, sort_keys=True).encode() + b"\n")
    for spans in given or ():
        digest.update(json.dumps([(s.start, s.end, s.label.value, s.source, s.score) for s in spans]).encode())
    return digest.hexdigest()


def _manifest(config: RunConfig, fmt: str) -> dict[str, Any]:
    """The run's settings; what it reads is checked per chunk (``_Chunk.digest``)."""
    key = config.options.key
    options = config.options
    return {
        "deident_version": __version__,
        "format": fmt,
        "chunk_size": config.chunk_size,
        "mode": options.mode.value,
        "tag_template": options.tag_template,
        "redaction": options.redaction,
        "mask_char": options.mask_char,
        "preserve_weekday": options.preserve_weekday,
        "shift_dates": options.shifts_dates,
        "key_id": key.key_id if key is not None and options.mode.needs_key else None,
        "pipeline": config.pipeline,
        "model": None if config.model is None else str(config.model),
        "recall_target": config.recall_target,
        "scheme": config.scheme,
        "reconcile": config.reconcile,
        "site_config_sha256": None if config.site_config is None else config.site_config.sha256,
    }


_WORKER: Deidentifier | None = None


def _init_worker(factory: DeidentifierFactory) -> None:
    global _WORKER
    _WORKER = factory()
    settle_heap()  # a worker process runs deident only


def _work(chunk: _Chunk) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    assert _WORKER is not None
    return _process_chunk(_WORKER, chunk)


def _process_chunk(deidentifier: Deidentifier, chunk: _Chunk) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    # One call for the whole chunk: its patients' notes are detected (reconciled) and replaced together.
    # A note that fails (or cannot be written) is found and, with on_error "skip", the chunk is done
    # again without it; with "stop" the run stops naming it (the chunks already committed stay).
    skipped = dict(chunk.unwritable)
    keep = [i for i, p in enumerate(chunk.positions) if p not in skipped]
    try:
        results = _deidentify(deidentifier, chunk, keep)
    except Exception as err:  # any failure of one note must not cost the others
        failed = _failing_notes(deidentifier, chunk, keep) or {i: type(err).__name__ for i in keep}
        if chunk.on_error is OnError.STOP:
            index, reason = next(iter(failed.items()))
            raise NoteFailedError(
                f"{chunk.source}, note {chunk.positions[index] + 1}: de-identification failed ({reason}); the "
                "chunks finished so far are kept: rerun to resume once it is fixed, or pass --on-error skip "
                "to leave it out"
            ) from None
        skipped.update({chunk.positions[i]: reason for i, reason in failed.items()})
        keep = [i for i in keep if i not in failed]
        try:
            results = _deidentify(deidentifier, chunk, keep)
        except Exception as again:  # they fail only together: all are left out
            skipped.update({chunk.positions[i]: type(again).__name__ for i in keep})
            keep, results = [], []
    options = deidentifier.options
    labels: dict[str, int] = {}
    records = []
    audited = []  # the output as the residual-risk audit sees it: with the input's known identifiers
    kept = [(chunk.positions[i], chunk.documents[i]) for i in keep]
    for (position, doc), result in zip(kept, results, strict=True):
        audited.append(AnnotatedDocument(Document(doc.id, result.text, doc.metadata), result.spans))
        for span in result.spans:
            labels[span.label.value] = labels.get(span.label.value, 0) + 1
        output = AnnotatedDocument(Document(doc.id, result.text, _output_metadata(doc, options)), result.spans)
        record = jsonl.document_to_record(output)
        record["position"] = position
        records.append(record)
    records.sort(key=lambda record: int(record["position"]))  # the assembly merges chunks in input order
    header = {
        "chunk": chunk.index,
        "digest": chunk.digest,
        "documents": len(kept),
        "characters": sum(len(doc.text) for _, doc in kept),
        "labels": labels,
        "skipped": [
            {"position": position + 1, "id": chunk.documents[chunk.positions.index(position)].id, "reason": reason}
            for position, reason in sorted(skipped.items())
        ],
        "audit": audit_part(audited, [position for position, _ in kept]),
    }
    return header, records


def _deidentify(deidentifier: Deidentifier, chunk: _Chunk, keep: Sequence[int]) -> list[Any]:
    if not keep:
        return []
    spans = None if chunk.spans is None else [chunk.spans[i] for i in keep]
    return list(deidentifier.deidentify_many([chunk.documents[i] for i in keep], spans))


def _failing_notes(deidentifier: Deidentifier, chunk: _Chunk, keep: Sequence[int]) -> dict[int, str]:
    """The notes of a failed chunk that fail alone, with the error's type (never its message, which
    a foreign library may fill with text)."""
    failed = {}
    for i in keep:
        try:
            _deidentify(deidentifier, chunk, [i])
        except Exception as err:
            failed[i] = type(err).__name__
    return failed


def _notes_of(header: Mapping[str, Any]) -> int:
    """Input notes a committed chunk accounts for: those written and those skipped."""
    return int(header["documents"]) + len(header.get("skipped", ()))


def _output_metadata(doc: Document, options: ReplaceOptions) -> DocumentMetadata:
    """Metadata without the fields that are PHI: known identifiers and the author are dropped, the
    note date is shifted with the patient's dates (surrogate modes) or dropped."""
    meta = doc.metadata
    note_date = None
    if meta.note_date is not None and options.shifts_dates and options.key is not None:
        scope = f"patient:{doc.patient_id}" if doc.patient_id is not None else f"document:{doc.id}"
        note_date = meta.note_date + dt.timedelta(days=date_offset(options.key, scope, options.preserve_weekday))
    return replace(meta, author=None, known=KnownIdentifiers(), note_date=note_date)


def _process(
    chunks: Iterable[_Chunk], deidentifier: Deidentifier, factory: DeidentifierFactory, config: RunConfig
) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Chunk results, in completion order; the chunks are taken (read from disk) only as they are started."""
    queue = iter(chunks)
    first = next(queue, None)
    if first is None:
        return
    queue = itertools.chain([first], queue)
    del first
    if config.jobs == 1:
        for chunk in queue:
            yield _process_chunk(deidentifier, chunk)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(config.jobs, mp_context=context, initializer=_init_worker, initargs=(factory,)) as pool:
        running: set[Future[tuple[dict[str, Any], list[dict[str, Any]]]]] = set()
        failure: BaseException | None = None
        more = True
        try:
            while more or running:
                # bounded: memory stays flat on big corpora; after a failure nothing new starts, but the
                # chunks already running are still committed (a run never loses finished work)
                while more and failure is None and len(running) < 2 * config.jobs:
                    next_chunk = next(queue, None)
                    if next_chunk is None:
                        more = False
                        break
                    running.add(pool.submit(_work, next_chunk))
                    del next_chunk
                if not running:
                    break
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        raise DeidentError("a worker process died (out of memory?); rerun to resume") from None
                    except DeidentError as err:
                        failure = failure or err
                        continue
                    yield result
        finally:
            for future in running:
                future.cancel()
        if failure is not None:
            raise failure


Finisher = Callable[[Iterable[AnnotatedDocument]], Iterator[AnnotatedDocument]]


def _finisher(config: RunConfig, deidentifier: Deidentifier) -> Finisher:
    """Applies the output policy to the assembled documents (ids, columns, metadata keys), a chunk's worth at a
    time with one table of pseudonyms (numbered in order of first appearance over the whole output). Columns
    de-identified as free text (--deid-col) are done in one call over the whole output, as before."""

    def deidentify_texts(documents: Sequence[Document]) -> list[str]:
        return [result.text for result in deidentifier.deidentify_many(list(documents))]

    texts = None if config.spans_file is not None or deidentifier.pipeline is None else deidentify_texts
    policy = config.output_policy
    batch = config.chunk_size if not policy.deidentify else None

    def finish(items: Iterable[AnnotatedDocument]) -> Iterator[AnnotatedDocument]:
        pseudonyms = Pseudonyms(config.options.key)
        iterator = iter(items)
        while part := list(itertools.islice(iterator, batch)):
            yield from apply_output_policy(part, policy, config.options.key, texts, pseudonyms)

    return finish


def _assemble(store: PartialStore, target: Path, fmt: str, chunks: int, documents: int, finish: Finisher) -> None:
    """Build the final output from the committed chunks and move it into place atomically."""
    present = store.done()
    missing = set(range(chunks)) - present
    if missing:
        raise ConfigurationError(f"{store.path}: {len(missing)} chunks are missing; rerun to finish")
    skipped: set[int] = set()
    for index in range(chunks):
        skipped.update(int(item["position"]) - 1 for item in store.read_header(index).get("skipped", ()))
    stage = store.staging()
    staged = stage / target.name
    write_corpus(finish(_in_input_order(store, chunks, documents, skipped)), staged, fmt)
    _move_into_place(stage, target)


def _in_input_order(store: PartialStore, chunks: int, documents: int, skipped: set[int]) -> Iterator[AnnotatedDocument]:
    """The committed chunks' documents merged in input order (each chunk's records are in input order), checked
    to hold each document exactly once (a failure here leaves only the staged output behind)."""
    # Every chunk is read a few lines at a time: memory and open files stay bounded however the patients interleave.
    lines_per_read = max(1, 1024 // max(1, chunks))

    def keyed(index: int) -> Iterator[tuple[int, int, dict[str, Any]]]:
        for row in store.iter_records(index, lines_per_read):
            yield int(row.pop("position")), index, row

    expected = (p for p in range(documents) if p not in skipped)
    for position, index, row in heapq.merge(*(keyed(index) for index in range(chunks)), key=lambda t: t[0]):
        if position != next(expected, None):
            raise ConfigurationError(
                f"{store.path}: the chunks do not hold each document exactly once; pass --overwrite"
            )
        yield jsonl.record_to_document(row, store.chunk_path(index), f"chunk {index}")
    if next(expected, None) is not None:
        raise ConfigurationError(f"{store.path}: the chunks do not hold each document exactly once; pass --overwrite")


def _reported_skips(skipped: Sequence[dict[str, Any]], config: RunConfig) -> list[dict[str, Any]]:
    """Skipped notes as the report may name them: by input and position, and by id only as the output would
    write it (kept with --keep-col id, else its keyed pseudonym; without a key, by position alone)."""
    if "id" in config.output_policy.keep:
        return list(skipped)
    pseudonyms = Pseudonyms(config.options.key) if config.options.key is not None else None
    out = []
    for item in skipped:
        shown = {k: v for k, v in item.items() if k != "id"}
        if pseudonyms is not None:
            shown["id"] = pseudonyms.of("document", str(item["id"]))
        out.append(shown)
    return out


def _move_into_place(stage: Path, target: Path) -> None:
    """Move what the writer made (the output and any sidecars) beside ``target``, the output last,
    so a file under the output's name is always complete."""
    target.parent.mkdir(parents=True, exist_ok=True)
    entries = sorted(stage.iterdir(), key=lambda p: p.name == target.name)
    for entry in entries:
        destination = target.parent / entry.name
        if destination.is_dir() and not destination.is_symlink():
            shutil.rmtree(destination)
        os.replace(entry, destination)


@dataclass
class _Stats:
    documents: int = 0
    characters: int = 0
    labels: dict[str, int] = field(default_factory=dict)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    audit: AuditTally = field(default_factory=AuditTally)

    def add(self, header: Mapping[str, Any], source: str = "") -> None:
        self.skipped.extend({"input": source, **item} for item in header.get("skipped", ()))
        self.audit.add(header.get("audit"), source)
        self.documents += int(header["documents"])
        self.characters += int(header["characters"])
        for label, count in dict(header["labels"]).items():
            self.labels[label] = self.labels.get(label, 0) + int(count)


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
