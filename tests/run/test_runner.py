"""``deident.run.runner``: every input format round-trips through a run, outputs keep order,
a killed or failing run resumes without loss or duplication, bad input fails clearly."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest
import regex

from deident.api import Deidentifier
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata, KnownIdentifiers
from deident.core.errors import ConfigurationError, InputFormatError
from deident.core.labels import Label
from deident.core.pipeline import Pipeline
from deident.core.span import Span
from deident.io.formats import ReadOptions, read_corpus, write_corpus
from deident.replace import Mode, ReplaceOptions, SecretKey
from deident.run import runner as runner_module
from deident.run.output_policy import OutputPolicy
from deident.run.partial import partial_dir_for
from deident.run.runner import NoteFailedError, OnError, RunConfig, run

KEY = SecretKey.from_text("runner-test-key-000001")
SURNAMES = ["Kowalski", "Brandt", "Okafor", "Lindqvist", "Moreau", "Tanaka"]


def make_corpus(patients: int = 3, notes: int = 4) -> list[AnnotatedDocument]:
    """Synthetic notes: patients' notes interleaved, each with a doctor, a date and a phone."""
    docs = []
    for n in range(1, notes + 1):
        for p in range(1, patients + 1):
            name = SURNAMES[(p + n) % len(SURNAMES)]
            date = f"3/{n + 10}/2010"
            phone = f"617-555-01{p}{n}"
            text = f"Seen by Dr. {name} on {date}.\nCall {phone} with questions."
            start_name = text.index(name)
            start_date = text.index(date)
            start_phone = text.index(phone)
            spans = (
                Span(start_name, start_name + len(name), Label.DOCTOR),
                Span(start_date, start_date + len(date), Label.DATE),
                Span(start_phone, start_phone + len(phone), Label.PHONE),
            )
            meta = DocumentMetadata(patient_id=str(p), note_id=str(n))
            docs.append(AnnotatedDocument(Document(f"{p}_{n}", text, meta), spans))
    return docs


class ToyDetector:
    """Finds "Dr. Name" and m/d/yyyy dates: enough to drive a pipeline in tests."""

    name = "toy"
    _doctor = regex.compile(r"(?<=Dr\. )[A-Z][a-z]+")
    _date = regex.compile(r"\d{1,2}/\d{1,2}/\d{4}")

    def detect(self, document: Document) -> list[Span]:
        found = [Span(m.start(), m.end(), Label.DOCTOR, source="toy") for m in self._doctor.finditer(document.text)]
        found += [Span(m.start(), m.end(), Label.DATE, source="toy") for m in self._date.finditer(document.text)]
        return found


def toy_deidentifier(options: ReplaceOptions) -> Deidentifier:
    return Deidentifier(Pipeline.of([ToyDetector()], name="toy"), options, "toy:test")


class ToyFactory:
    def __init__(self, options: ReplaceOptions) -> None:
        self.options = options

    def __call__(self) -> Deidentifier:
        return toy_deidentifier(self.options)


KEEP_IDS = OutputPolicy(keep=frozenset({"id", "patient_id", "note_id"}))


def assert_no_phi(source: list[AnnotatedDocument], output: list[AnnotatedDocument]) -> None:
    assert [d.id for d in output] == [d.id for d in source]
    for item, out in zip(source, output, strict=True):
        for span in item.spans:
            original = span.text_of(item.text)
            assert not regex.search(r"(?<!\w)" + regex.escape(original) + r"(?!\w)", out.text), span.label


FORMAT_CASES = [
    ("physionet", "corpus.text"),
    ("jsonl", "corpus.jsonl"),
    ("i2b2-2014", "corpus_i2b2"),
    ("i2b2-2006", "corpus.xml"),
    ("brat", "corpus_brat"),
    ("conll", "corpus.conll"),
    ("text", "corpus_text"),
    ("csv", "corpus.csv"),
    ("parquet", "corpus.parquet"),
]


@pytest.mark.parametrize(("fmt", "name"), FORMAT_CASES)
@pytest.mark.parametrize("mode", [Mode.TAG, Mode.SURROGATE])
def test_every_format_keeps_format_and_order(tmp_path: Path, fmt: str, name: str, mode: Mode) -> None:
    source = tmp_path / "in" / name
    write_corpus(make_corpus(), source, fmt)
    given = read_corpus(source, fmt)
    output = tmp_path / "out" / name
    options = ReplaceOptions(mode, KEY if mode.needs_key else None)
    config = RunConfig((source,), output, options, spans_file=source, chunk_size=2, output_policy=KEEP_IDS)
    report = run(config)
    assert report.documents == len(given) and report.spans_total == sum(len(d.spans) for d in given)
    out = read_corpus(output, fmt)
    assert_no_phi(given, out)
    assert sum(len(d.spans) for d in out) == report.spans_total
    if mode is Mode.TAG and fmt != "conll":
        assert "[**DOCTOR**]" in out[0].text
    assert not partial_dir_for(output).exists()


def test_phrase_spans_file_and_jobs(tmp_path: Path, fixtures: Path) -> None:
    output = tmp_path / "out.text"
    options = ReplaceOptions(Mode.MASK)
    source = fixtures / "mini.text"
    config = RunConfig(
        (source,), output, options, spans_file=fixtures / "mini.phrase", jobs=2, chunk_size=1, output_policy=KEEP_IDS
    )
    report = run(config)
    original = read_corpus(source)
    out = read_corpus(output)
    assert [len(d.text) for d in out] == [len(d.text) for d in original]
    assert_no_phi(original, out)
    assert report.jobs == 2 and report.chunks == 2  # two patients, chunks hold whole patients
    assert report.spans_by_label["DOCTOR"] == 3


def test_pipeline_detection_without_spans(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    docs = make_corpus()
    write_corpus(docs, source)
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    output = tmp_path / "out.jsonl"
    report = run(RunConfig((source,), output, options, factory=ToyFactory(options), chunk_size=3))
    assert report.model_id == "toy:test" and report.span_source == "pipeline"
    assert report.spans_by_label == {"DATE": 12, "DOCTOR": 12}
    out = read_corpus(output)
    assert all("617-555-01" in d.text for d in out)  # the toy finds no phones: they stay
    assert all(s.source == "toy" for d in out for s in d.spans)


@pytest.mark.parametrize(("owns_process", "settled"), [(False, 0), (True, 1)])
def test_the_heap_is_settled_only_in_a_process_the_caller_owns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, owns_process: bool, settled: int
) -> None:
    calls: list[None] = []
    monkeypatch.setattr(runner_module, "settle_heap", lambda: calls.append(None))
    source = tmp_path / "in.jsonl"
    write_corpus(make_corpus(), source)
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    config = RunConfig(
        (source,), tmp_path / "out.jsonl", options, factory=ToyFactory(options), owns_process=owns_process
    )
    run(config)
    assert len(calls) == settled


def test_same_key_identical_output_and_other_key_differs(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus(make_corpus(), source)

    def texts(key: SecretKey, out: str, jobs: int, chunk_size: int) -> list[str]:
        options = ReplaceOptions(Mode.SURROGATE, key)
        run(RunConfig((source,), tmp_path / out, options, spans_file=source, jobs=jobs, chunk_size=chunk_size))
        return [d.text for d in read_corpus(tmp_path / out)]

    one = texts(KEY, "a.jsonl", 1, 100)
    assert one == texts(KEY, "b.jsonl", 2, 4)
    assert one != texts(SecretKey.from_text("another-runner-key-01"), "c.jsonl", 1, 100)


def _complete_run(tmp_path: Path, source: Path) -> list[AnnotatedDocument]:
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    reference = tmp_path / "reference.jsonl"
    run(RunConfig((source,), reference, options, factory=ToyFactory(options), chunk_size=2))
    return read_corpus(reference)


def test_injected_failure_then_resume(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus(make_corpus(patients=5), source)
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    output = tmp_path / "out.jsonl"
    config = RunConfig((source,), output, options, factory=ToyFactory(options), chunk_size=4, fail_after_chunks=2)
    with pytest.raises(RuntimeError, match="injected failure"):
        run(config)
    assert not output.exists()
    assert len(list(partial_dir_for(output).glob("chunk-*.jsonl"))) == 2
    report = run(RunConfig((source,), output, options, factory=ToyFactory(options), chunk_size=4))
    assert report.chunks_resumed == 2 and report.documents == 20 and report.processed_documents == 12
    resumed = read_corpus(output)
    reference = _complete_run(tmp_path, source)
    assert [(d.id, d.text, d.spans) for d in resumed] == [(d.id, d.text, d.spans) for d in reference]


_KILL_SCRIPT = """
import sys, time
from pathlib import Path
from deident.api import Deidentifier
from deident.core.pipeline import Pipeline
from deident.replace import Mode, ReplaceOptions, SecretKey
from deident.run.runner import NoteFailedError, OnError, RunConfig, run
sys.path.insert(0, {test_dir!r})
from test_runner import ToyDetector, KEY

class SlowDetector(ToyDetector):
    def detect(self, document):
        time.sleep(0.05)
        return super().detect(document)

options = ReplaceOptions(Mode.SURROGATE, KEY)
def factory():
    return Deidentifier(Pipeline.of([SlowDetector()], name="toy"), options, "toy:test")
run(RunConfig((Path({source!r}),), Path({output!r}), options, factory=factory, chunk_size=2))
"""


def test_killed_run_resumes_without_loss_or_duplication(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus(make_corpus(patients=5, notes=8), source)  # 40 notes, 20 chunks, ~2 s
    output = tmp_path / "out.jsonl"
    script = tmp_path / "slow_run.py"
    script.write_text(
        textwrap.dedent(
            _KILL_SCRIPT.format(test_dir=str(Path(__file__).parent), source=str(source), output=str(output))
        )
    )
    scratch = tmp_path / "tmp"  # the killed run's temporary folder
    scratch.mkdir()
    environment = {**os.environ, "TMPDIR": str(scratch)}
    process = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE, env=environment)
    partial = partial_dir_for(output)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(partial.glob("chunk-*.jsonl"))) < 3:
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not output.exists()
    assert list(scratch.rglob("*")) == []  # no copy of the input's notes outlives the killed run
    done_before = len(list(partial.glob("chunk-*.jsonl")))
    assert 3 <= done_before < 20
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    report = run(RunConfig((source,), output, options, factory=ToyFactory(options), chunk_size=2))
    assert report.chunks_resumed >= 3 and report.documents == 40
    resumed = read_corpus(output)
    reference = _complete_run(tmp_path, source)
    assert [(d.id, d.text, d.spans) for d in resumed] == [(d.id, d.text, d.spans) for d in reference]


def test_resume_with_other_settings_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus(make_corpus(), source)
    output = tmp_path / "out.jsonl"
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    with pytest.raises(RuntimeError):
        run(RunConfig((source,), output, options, spans_file=source, chunk_size=2, fail_after_chunks=1))
    other = ReplaceOptions(Mode.SURROGATE, SecretKey.generate())
    with pytest.raises(ConfigurationError, match="--overwrite"):
        run(RunConfig((source,), output, other, spans_file=source, chunk_size=2))
    run(RunConfig((source,), output, other, spans_file=source, chunk_size=2, overwrite=True))
    assert len(read_corpus(output)) == 12


def test_existing_output_needs_overwrite(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus(make_corpus(), source)
    output = tmp_path / "out.jsonl"
    run(RunConfig((source,), output, ReplaceOptions(), spans_file=source))
    with pytest.raises(ConfigurationError, match="already exists"):
        run(RunConfig((source,), output, ReplaceOptions(), spans_file=source))


def test_several_inputs_go_to_a_folder(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.csv"
    write_corpus(make_corpus(patients=1), first)
    write_corpus(make_corpus(patients=2), second)
    out = tmp_path / "out"
    report = run(
        RunConfig(
            (first, second),
            out,
            ReplaceOptions(Mode.REDACT),
            spans_file=None,
            factory=ToyFactory(ReplaceOptions(Mode.REDACT)),
        )
    )
    assert report.documents == 12 and report.input_formats == ("csv", "jsonl")
    assert len(read_corpus(out / "a.jsonl")) == 4 and len(read_corpus(out / "b.csv")) == 8
    assert (out / "deident-report.json").exists() and (out / "deident-report.html").exists()


def test_bad_input_names_file_and_line(tmp_path: Path) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text('{"id": "1", "text": "fine"}\n{not json\n')
    with pytest.raises(InputFormatError, match=r"bad\.jsonl, line 2"):
        run(RunConfig((source,), tmp_path / "out.jsonl", ReplaceOptions(), spans_file=source))
    assert not (tmp_path / "out.jsonl").exists()


def test_spans_file_must_match_input(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus(make_corpus(), source)
    spans = tmp_path / "spans.jsonl"
    write_corpus(make_corpus()[:3], spans)
    with pytest.raises(InputFormatError, match="no entry"):
        run(RunConfig((source,), tmp_path / "out.jsonl", ReplaceOptions(), spans_file=spans))


def test_output_metadata_drops_identifiers(tmp_path: Path) -> None:
    from deident.core.document import KnownIdentifiers

    doc = Document(
        "1",
        "nothing here",
        DocumentMetadata(patient_id="1", author="Dr X", known=KnownIdentifiers(names=("Jane Roe",))),
    )
    source = tmp_path / "in.jsonl"
    write_corpus([AnnotatedDocument(doc)], source)
    run(RunConfig((source,), tmp_path / "out.jsonl", ReplaceOptions(), spans_file=source))
    record = json.loads((tmp_path / "out.jsonl").read_text())
    assert record["metadata"] == {"patient_id": "1"}


def test_read_options_reach_the_reader(tmp_path: Path) -> None:
    source = tmp_path / "table.csv"
    source.write_text("note_key,body,who\nn1,Seen by Dr. Brandt on 3/11/2010.,7\n")
    options = ReplaceOptions(Mode.TAG)
    read = ReadOptions(text_col="body", id_col="note_key", patient_col="who")
    run(RunConfig((source,), tmp_path / "out.csv", options, read_options=read, factory=ToyFactory(options)))
    out = (tmp_path / "out.csv").read_text()
    assert "Brandt" not in out and "[**DOCTOR**]" in out


@pytest.mark.shared
@pytest.mark.parametrize("mode", [Mode.MASK, Mode.SURROGATE])
def test_physionet_dev_run_with_gold_spans(tmp_path: Path, shared_corpus: Path, mode: Mode) -> None:
    output = tmp_path / "out.text"
    options = ReplaceOptions(mode, KEY if mode.needs_key else None)
    config = RunConfig(
        (shared_corpus,), output, options, spans_file=shared_corpus, jobs=2, chunk_size=100, output_policy=KEEP_IDS
    )
    report = run(config)
    source = read_corpus(shared_corpus)
    out = read_corpus(output)
    assert report.documents == len(source) == len(out)
    assert report.spans_total == sum(len(d.spans) for d in source)
    assert [d.id for d in out] == [d.id for d in source]
    if mode is Mode.MASK:
        assert [len(d.text) for d in out] == [len(d.text) for d in source]
    for item, new in zip(source, out, strict=True):
        for span, replaced in zip(item.spans, new.spans, strict=True):
            original = span.text_of(item.text).strip()
            region = replaced.text_of(new.text)
            assert not regex.search(r"(?<![^\W_])" + regex.escape(original) + r"(?![^\W_])", region, regex.I)


def test_several_inputs_resume_after_a_failure_in_the_second(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_corpus(make_corpus(patients=1), first)  # one chunk
    write_corpus(make_corpus(patients=4), second)  # four chunks of one patient each
    out = tmp_path / "out"
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    failing = RunConfig((first, second), out, options, spans_file=None, factory=ToyFactory(options), chunk_size=4)
    with pytest.raises(RuntimeError, match="injected"):
        run(replace(failing, fail_after_chunks=2))
    assert (out / "a.jsonl").exists() and not (out / "b.jsonl").exists()
    report = run(failing)
    assert report.documents == 20 and report.chunks_resumed == 3
    assert len(read_corpus(out / "b.jsonl")) == 16
    assert not list(out.glob("*.partial"))


class ConfidentAttending:
    """A confident DOCTOR span for the name after "Attending:" only: what reconciliation propagates."""

    name = "toy.attending"
    _pattern = regex.compile(r"(?<=Attending: )[A-Z][a-z]+")

    def detect(self, document: Document) -> list[Span]:
        return [Span(m.start(), m.end(), Label.DOCTOR, self.name, 0.95) for m in self._pattern.finditer(document.text)]


class ReconcilingFactory:
    def __init__(self, options: ReplaceOptions) -> None:
        self.options = options

    def __call__(self) -> Deidentifier:
        from deident.stage2.reconcile import ReconcileStage

        pipeline = Pipeline.of([ConfidentAttending(), ReconcileStage()], name="toy+reconcile")
        return Deidentifier(pipeline, self.options, "toy:reconcile")


# (after a comma: opening a sentence, a rare word before "UPDATED" is a name by a rule of its own)
MENTION = "NEURO: ALERT, QUILLFEATHER UPDATED BY PHONE. PLAN UNCHANGED."
# (patient, text): patient 1's notes interleaved with others; only its first note names the attending.
RECONCILE_NOTES = [
    ("1", "Attending: Quillfeather\nPt resting comfortably."),
    ("2", MENTION),
    ("3", "no names in this note."),
    ("1", MENTION),
    (None, MENTION),
]


def _reconcile_corpus(path: Path) -> None:
    docs = [
        AnnotatedDocument(Document(f"n{i}", text, DocumentMetadata(patient_id=patient)))
        for i, (patient, text) in enumerate(RECONCILE_NOTES)
    ]
    write_corpus(docs, path)


@pytest.mark.parametrize(("chunk_size", "jobs"), [(1, 1), (2, 1), (100, 1), (1, 2)])
def test_a_patients_notes_are_reconciled_together_within_a_chunk(tmp_path: Path, chunk_size: int, jobs: int) -> None:
    source = tmp_path / "in.jsonl"
    _reconcile_corpus(source)
    options = ReplaceOptions(Mode.TAG)
    output = tmp_path / "out.jsonl"
    factory = ReconcilingFactory(options)
    config = RunConfig((source,), output, options, factory=factory, chunk_size=chunk_size, jobs=jobs)
    report = run(config)
    out = read_corpus(output)
    assert [d.id for d in out] == [str(i + 1) for i in range(len(RECONCILE_NOTES))]  # pseudonyms, in input order
    assert ["QUILLFEATHER" in d.text.upper() for d in out] == [False, True, False, False, True]
    assert [s.source for s in out[3].spans] == ["reconcile"]
    assert report.spans_by_label == {"DOCTOR": 2}


@pytest.mark.parametrize(("reconcile", "tagged"), [(True, [True, False, True]), (False, [True, False, False])])
def test_reconcile_switch_reaches_the_bundled_pipeline(tmp_path: Path, reconcile: bool, tagged: list[bool]) -> None:
    source = tmp_path / "in.jsonl"
    docs = [
        AnnotatedDocument(Document("a", "Attending: Dr. Quillfeather\nPt resting comfortably.", DocumentMetadata("1"))),
        AnnotatedDocument(Document("b", MENTION, DocumentMetadata("2"))),
        AnnotatedDocument(Document("c", MENTION, DocumentMetadata("1"))),
    ]
    write_corpus(docs, source)
    output = tmp_path / "out.jsonl"
    report = run(RunConfig((source,), output, ReplaceOptions(Mode.TAG), reconcile=reconcile))
    assert ["QUILLFEATHER" not in d.text.upper() for d in read_corpus(output)] == tagged
    assert report.pipeline == "default"


@pytest.mark.parametrize("character", ["\u2028", "\u2029", "\x85", "\ud83d"])
def test_a_line_separator_or_lone_surrogate_in_the_last_note_loses_nothing(tmp_path: Path, character: str) -> None:
    """One such character in the last note used to crash the assembly after every chunk was done."""
    docs = make_corpus(patients=3, notes=2)
    last = docs[-1]
    docs[-1] = AnnotatedDocument(replace(last.document, text=last.text + character + "end"), last.spans)
    source = tmp_path / "in.jsonl"
    write_corpus(docs, source)
    options = ReplaceOptions(Mode.TAG)
    output = tmp_path / "out.jsonl"
    report = run(RunConfig((source,), output, options, factory=ToyFactory(options), chunk_size=2))
    out = read_corpus(output)
    assert report.documents == len(docs) == len(out)
    assert out[-1].text.endswith(character + "end") and out[-1].text.count(character) == 1


class FailsOnBoom(ToyDetector):
    """The toy detector, failing on any note that holds "BOOM" (a stand-in for a detector bug)."""

    def detect(self, document: Document) -> list[Span]:
        if "BOOM" in document.text:
            raise ValueError("detector bug")
        return super().detect(document)


class FailingFactory(ToyFactory):
    def __call__(self) -> Deidentifier:
        return Deidentifier(Pipeline.of([FailsOnBoom()], name="toy"), self.options, "toy:test")


def _with_boom(docs: list[AnnotatedDocument], index: int) -> list[AnnotatedDocument]:
    item = docs[index]
    docs = list(docs)
    docs[index] = AnnotatedDocument(replace(item.document, text=item.text + " BOOM"), item.spans)
    return docs


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_note_stops_the_run_by_position_and_keeps_finished_chunks(tmp_path: Path, jobs: int) -> None:
    docs = make_corpus(patients=6, notes=2)  # 12 notes, chunks of 2 patients (4 notes) each
    source = tmp_path / "in.jsonl"
    write_corpus(_with_boom(docs, 11), source)  # the last note: in the last chunk
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    output = tmp_path / "out.jsonl"
    config = RunConfig((source,), output, options, factory=FailingFactory(options), chunk_size=4, jobs=jobs)
    with pytest.raises(NoteFailedError, match=r"in\.jsonl, note 12: de-identification failed \(ValueError\)") as err:
        run(config)
    assert "BOOM" not in str(err.value) and "Kowalski" not in str(err.value)
    assert not output.exists()
    assert len(list(partial_dir_for(output).glob("chunk-*.jsonl"))) == 2  # the other chunks are kept
    # The note is fixed: only its chunk is done again.
    write_corpus(docs, source)
    report = run(config)
    assert report.chunks_resumed == 2 and report.processed_documents == 4 and report.documents == 12
    assert [(d.id, d.text) for d in read_corpus(output)] == [(d.id, d.text) for d in _complete_run(tmp_path, source)]


def test_on_error_skip_leaves_the_note_out_and_lists_it_in_the_report(tmp_path: Path) -> None:
    docs = _with_boom(make_corpus(patients=3, notes=2), 4)
    source = tmp_path / "in.jsonl"
    write_corpus(docs, source)
    options = ReplaceOptions(Mode.TAG)
    output = tmp_path / "out.jsonl"
    config = RunConfig(
        (source,),
        output,
        options,
        factory=FailingFactory(options),
        chunk_size=2,
        on_error=OnError.SKIP,
        output_policy=KEEP_IDS,
    )
    report = run(config)
    out = read_corpus(output)
    assert [d.id for d in out] == [d.id for i, d in enumerate(docs) if i != 4]
    assert report.documents == 5
    assert report.skipped == ({"input": "in.jsonl", "position": 5, "id": docs[4].id, "reason": "ValueError"},)
    saved = json.loads(output.with_name("out.jsonl.report.json").read_text())
    assert saved["skipped"] == [{"input": "in.jsonl", "position": 5, "id": docs[4].id, "reason": "ValueError"}]
    # Without --keep-col id the report names the skipped note by position only (no key: no pseudonym to give).
    hidden = run(replace(config, output_policy=OutputPolicy(), overwrite=True))
    assert hidden.skipped == ({"input": "in.jsonl", "position": 5, "reason": "ValueError"},)
    # The other notes of the failing note's chunk (its patient) are still reconciled and replaced.
    assert all("Kowalski" not in d.text and "Brandt" not in d.text for d in out)


@pytest.mark.parametrize("on_error", [OnError.STOP, OnError.SKIP])
def test_a_note_the_output_cannot_hold_is_found_before_any_work(tmp_path: Path, on_error: OnError) -> None:
    """A lone surrogate read from a CSV's metadata column cannot be written back as UTF-8 CSV: it used to
    crash the assembly after every chunk was done."""
    source = tmp_path / "in.csv"
    source.write_text(
        'id,text,deident_metadata\n1,Seen by Dr. Brandt.,\n2,Seen by Dr. Moreau.,"{""x"": ""\\ud83d""}"\n',
        encoding="utf-8",
    )
    options = ReplaceOptions(Mode.TAG)
    output = tmp_path / "out.csv"
    config = RunConfig((source,), output, options, factory=ToyFactory(options), on_error=on_error)
    if on_error is OnError.STOP:
        with pytest.raises(NoteFailedError, match=r"in\.csv, note 2: its metadata\.extra\.x holds a lone surrogate"):
            run(config)
        assert not partial_dir_for(output).exists() or not list(partial_dir_for(output).glob("chunk-*"))
        return
    report = run(config)
    assert [d.id for d in read_corpus(output)] == ["1"]
    assert report.skipped[0]["position"] == 2 and report.skipped[0]["reason"].startswith("its metadata.extra.x")


def test_a_failure_in_assembly_keeps_every_chunk_for_the_rerun(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus(make_corpus(), source)
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    output = tmp_path / "out.jsonl"
    config = RunConfig((source,), output, options, factory=ToyFactory(options), chunk_size=4)

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError("no space left on device")

    monkeypatch.setattr(runner_module, "write_corpus", disk_full)
    with pytest.raises(OSError, match="no space"):
        run(config)
    assert not output.exists() and len(list(partial_dir_for(output).glob("chunk-*.jsonl"))) == 3
    monkeypatch.undo()
    report = run(config)
    assert report.chunks_resumed == 3 and report.processed_documents == 0 and len(read_corpus(output)) == 12


def test_report_carries_the_residual_risk_audit_and_no_text(tmp_path: Path) -> None:
    # The toy detector finds "Dr. Name" and dates only: the wife's name (a known identifier) and the MRN survive.
    known = KnownIdentifiers(names=("Zorbleckia Quffington",))
    texts = ["Seen by Dr. Kowalski on 3/14/2010.", "Dr. Kowalski spoke to Zorbleckia Quffington, MRN 48213377."]
    docs = [
        AnnotatedDocument(Document(f"Quffington_{n}", text, DocumentMetadata(patient_id="Quffington", known=known)))
        for n, text in enumerate(texts)
    ]
    source = tmp_path / "notes.jsonl"
    write_corpus(docs, source, "jsonl")
    options = ReplaceOptions()
    output = tmp_path / "out.jsonl"
    report = run(RunConfig((source,), output, options, factory=ToyFactory(options)))
    risk = report.residual_risk
    assert risk is not None and risk["documents_audited"] == 2 and risk["documents_with_risk"] == 1
    assert risk["by_class"]["known_identifier"] == 2 and risk["by_class"]["identifier_digits"] == 1
    assert risk["by_class"]["dropped_candidate"] == 0 and "dropped_candidate" in risk["scope"]
    assert risk["riskiest_documents"] == [{"input": "notes.jsonl", "position": 2, "risky_tokens": risk["risky_tokens"]}]
    saved = json.loads(output.with_name("out.jsonl.report.json").read_text())
    assert saved["residual_risk"] == risk
    page = output.with_name("out.jsonl.report.html").read_text()
    assert "Residual risk" in page and "known_identifier" in page
    for shown in (json.dumps(saved), page):
        for canary in ("Zorbleckia", "Quffington", "48213377", "Kowalski"):
            assert canary.lower() not in shown.lower()


@pytest.mark.parametrize("interleaved", [False, True])
def test_a_run_holds_about_one_chunk_of_documents_not_the_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interleaved: bool
) -> None:
    # 15 patients of 4 notes in chunks of 4 notes (one patient each): 15 chunks of 60 notes.
    source = tmp_path / "in.jsonl"
    corpus = make_corpus(patients=15, notes=4)
    if not interleaved:
        corpus.sort(key=lambda item: int(item.document.patient_id or 0))
    write_corpus(corpus, source)
    del corpus
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    output = tmp_path / "out.jsonl"

    def documents() -> int:
        gc.collect()
        return sum(1 for found in gc.get_objects() if type(found) is Document)

    before = documents()  # held elsewhere in the process (other tests' caches)
    live: list[int] = []
    process_chunk = runner_module._process_chunk

    def counting(deidentifier: Deidentifier, chunk: object) -> object:
        live.append(documents() - before)
        return process_chunk(deidentifier, chunk)  # type: ignore[arg-type]

    monkeypatch.setattr(runner_module, "_process_chunk", counting)
    config = RunConfig((source,), output, options, factory=ToyFactory(options), chunk_size=4, output_policy=KEEP_IDS)
    report = run(config)
    assert report.chunks == 15 and len(live) == 15
    assert max(live) <= 2 * 4, live
    assert [d.id for d in read_corpus(output)] == [d.id for d in read_corpus(source)]


def _table_corpus(path: Path, fmt: str, interleaved: bool, patients: int = 6, notes: int = 4) -> None:
    """Invented table: typed note and patient ids (Parquet keeps them as ints), a ward column; patients' notes
    interleaved or grouped."""
    corpus = make_corpus(patients=patients, notes=notes)
    if not interleaved:
        corpus.sort(key=lambda item: int(item.document.patient_id or 0))
    if fmt in ("text", "physionet"):  # a folder of .txt files in this order (the sidecar's), or records and phrases
        write_corpus(corpus, path, fmt)
        return
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table(
            {
                "note_id": pa.array([100 * int(d.document.patient_id or 0) + n for n, d in enumerate(corpus)]),
                "patient": pa.array([9000 + int(d.document.patient_id or 0) for d in corpus]),
                "text": [d.text for d in corpus],
                "ward": [f"W{d.document.patient_id}" for d in corpus],
            }
        )
        pq.write_table(table, path)
        return
    separator = "\t" if path.suffix == ".tsv" else ","
    lines = [separator.join(["note_id", "patient", "text", "ward"])]
    for n, d in enumerate(corpus):
        text = '"' + d.text.replace('"', '""') + '"'
        lines.append(separator.join([f"{d.document.patient_id}-{n}", f"P{d.document.patient_id}", text, "W"]))
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")


TABLE_CASES = [
    ("csv", "in.csv"),
    ("csv", "in.tsv"),
    ("parquet", "in.parquet"),
    ("text", "in_text"),
    ("physionet", "in.text"),
]


def _contents(path: Path) -> dict[str, bytes]:
    """A file's bytes with its side files' (PhysioNet's .phrase and metadata), or every file's in a folder."""
    if path.is_file():
        sides = [path.with_suffix(".phrase"), path.with_name(path.name + ".metadata.jsonl")]
        return {"": path.read_bytes()} | {side.name: side.read_bytes() for side in sides if side.exists()}
    return {str(file.relative_to(path)): file.read_bytes() for file in sorted(path.rglob("*")) if file.is_file()}


TABLE_READ = ReadOptions(id_col="note_id", patient_col="patient")
TABLE_POLICIES = [OutputPolicy(), OutputPolicy(keep=frozenset({"id", "patient_id", "ward"}))]


def _whole(monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """Make ``fmt`` read and written whole (no streaming reader or writer), as before issue 22 item 4."""
    from deident.io import formats

    monkeypatch.setitem(formats.FORMATS, fmt, replace(formats.FORMATS[fmt], stream_read=None, stream_write=None))


@pytest.mark.parametrize(("fmt", "name"), TABLE_CASES)
@pytest.mark.parametrize("interleaved", [False, True])
@pytest.mark.parametrize("policy", TABLE_POLICIES)
def test_a_streamed_table_run_writes_the_same_bytes_as_a_whole_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, name: str, interleaved: bool, policy: OutputPolicy
) -> None:
    source = tmp_path / name
    _table_corpus(source, fmt, interleaved)
    options = ReplaceOptions(Mode.SURROGATE, KEY)

    def output_of(folder: str) -> dict[str, bytes]:
        output = tmp_path / folder / name
        factory = ToyFactory(options)
        run(
            RunConfig(
                (source,), output, options, factory=factory, chunk_size=3, read_options=TABLE_READ, output_policy=policy
            )
        )
        return _contents(output)

    streamed = output_of("streamed")
    with monkeypatch.context() as patch:
        _whole(patch, fmt)
        whole = output_of("whole")
    assert streamed == whole
    out = read_corpus(tmp_path / "streamed" / name, fmt, TABLE_READ)
    assert len(out) == 24 and len(streamed) == {"text": 25, "physionet": 3}.get(fmt, 1)  # .phrase, metadata
    assert all("Kowalski" not in d.text for d in out)


@pytest.mark.parametrize(("fmt", "name"), TABLE_CASES)
@pytest.mark.parametrize("interleaved", [False, True])
def test_a_table_run_holds_about_one_chunk_of_documents_when_reading_and_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, name: str, interleaved: bool
) -> None:
    # 15 patients of 4 notes in chunks of 4 notes: the scan and the assembly must not hold the 60 notes.
    source = tmp_path / name
    _table_corpus(source, fmt, interleaved, patients=15)
    options = ReplaceOptions(Mode.SURROGATE, KEY)

    # Live notes are counted as they are made and freed (a scan of the whole heap per note took minutes in CI).
    live: set[int] = set()

    init, set_state = Document.__init__, Document.__setstate__  # made, or unpickled from a spill file

    def made(self: Document, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        live.add(id(self))

    def unpickled(self: Document, state: object) -> None:
        set_state(self, state)
        live.add(id(self))

    def freed(self: Document) -> None:
        live.discard(id(self))

    monkeypatch.setattr(Document, "__init__", made)
    monkeypatch.setattr(Document, "__setstate__", unpickled)
    monkeypatch.setattr(Document, "__del__", freed, raising=False)

    def documents() -> int:
        gc.collect(0)  # the young generation, where a freshly dropped cycle would be
        return len(live)

    before = documents()
    scanned: list[int] = []
    written: list[int] = []
    spill_add = runner_module.Spill.add
    in_input_order = runner_module._in_input_order

    def counting_add(self: object, item: object) -> None:
        if isinstance(item, tuple):  # the runner's spill (the writers' spills hold documents alone)
            scanned.append(documents() - before)
        spill_add(self, item)  # type: ignore[arg-type]

    def counting_order(*args: object) -> object:
        for item in in_input_order(*args):  # type: ignore[arg-type]
            written.append(documents() - before)
            yield item

    monkeypatch.setattr(runner_module.Spill, "add", counting_add)
    monkeypatch.setattr(runner_module, "_in_input_order", counting_order)
    config = RunConfig(
        (source,), tmp_path / "out" / name, options, factory=ToyFactory(options), chunk_size=4, read_options=TABLE_READ
    )
    report = run(config)
    assert report.documents == 60 and len(scanned) == 60 and len(written) == 60
    assert max(scanned) <= 2 * 4, str(scanned)
    assert max(written) <= 3 * 4, str(written)  # a chunk in the merge, one in the output policy


@pytest.mark.parametrize(("fmt", "name"), TABLE_CASES)
def test_an_interrupted_table_run_resumes_to_the_same_bytes(tmp_path: Path, fmt: str, name: str) -> None:
    source = tmp_path / name
    _table_corpus(source, fmt, interleaved=True)
    options = ReplaceOptions(Mode.SURROGATE, KEY)
    output = tmp_path / "out" / name
    config = RunConfig((source,), output, options, factory=ToyFactory(options), chunk_size=4, read_options=TABLE_READ)
    with pytest.raises(RuntimeError, match="injected failure"):
        run(replace(config, fail_after_chunks=2))
    assert not output.exists() and not list(output.parent.glob(".*"))  # nor a half-written temporary file
    report = run(config)
    assert report.chunks_resumed == 2 and report.documents == 24
    reference = tmp_path / "reference" / name
    run(replace(config, output=reference))
    assert _contents(output) == _contents(reference)


@pytest.mark.parametrize(
    ("name", "content", "position", "problem"),
    [
        ("in.csv", 'id,text\r\n1,"fine"\r\n2,"open\r\n', "row starting on line 3", "unbalanced quote"),
        ("in.csv", "id,text\r\n1,fine\r\n2,a,b\r\n", "line 3", "3 fields where the header has 2"),
        ("in.csv", "id,text\r\n1,fine\r\n2,ok\r\n1,again\r\n", "line 4", "duplicate document id (documents 1 and 3)"),
        (
            "in.text",
            "START_OF_RECORD=1||||1||||\nfine\n||||END_OF_RECORD\n\nSTART_OF_RECORD=2||||1||||\nno end\n",
            "line 5",
            "record has no '||||END_OF_RECORD'",
        ),
        (
            "in.text",
            "START_OF_RECORD=1||||1||||\nfine\n||||END_OF_RECORD\n\r\nSTART_OF_RECORD 2\n",
            "line 5",
            "expected",
        ),
    ],
)
def test_a_malformed_table_row_stops_the_run_naming_file_and_position(
    tmp_path: Path, name: str, content: str, position: str, problem: str
) -> None:
    source = tmp_path / name
    source.write_text(content, encoding="utf-8")
    options = ReplaceOptions(Mode.TAG)
    output = tmp_path / "out" / name
    with pytest.raises(InputFormatError) as error:
        run(RunConfig((source,), output, options, factory=ToyFactory(options)))
    assert (error.value.position, Path(str(error.value.path)).name) == (position, name)
    assert problem in error.value.problem and "\n" not in str(error.value)
    assert not output.parent.exists() or not any(output.parent.iterdir())
