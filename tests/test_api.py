from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import regex

from deident.api import Deidentifier
from deident.core.document import Document, DocumentMetadata
from deident.core.errors import ConfigurationError, NoteTooLargeError
from deident.core.labels import Label
from deident.core.pipeline import Pipeline
from deident.core.provenance import Confirmation
from deident.core.span import Span
from deident.replace import Mode, ReplaceOptions, SecretKey
from deident.stage2.reconcile import ReconcileStage
from deident.synth.generate import generate_corpus

KEY = SecretKey.from_text("api-test-key-0000001")


class NameDetector:
    name = "toy.names"
    _pattern = regex.compile(r"(?<=Dr\.? )[A-Z][A-Za-z]+|\d{1,2}/\d{1,2}")

    def detect(self, document: Document) -> list[Span]:
        return [
            Span(m.start(), m.end(), Label.DATE if "/" in m.group() else Label.DOCTOR, source=self.name)
            for m in self._pattern.finditer(document.text)
        ]


@pytest.fixture
def deid() -> Deidentifier:
    return Deidentifier(Pipeline.of([NameDetector()]), ReplaceOptions(), "toy")


def test_detect(deid: Deidentifier) -> None:
    spans = deid.detect("Seen by Dr. Kowalski on 3/14.")
    assert [(s.start, s.end, s.label) for s in spans] == [(12, 20, Label.DOCTOR), (24, 28, Label.DATE)]


def test_deidentify_default_tag(deid: Deidentifier) -> None:
    result = deid.deidentify("Seen by Dr. Kowalski on 3/14.")
    assert result.text == "Seen by Dr. [**DOCTOR**] on [**DATE**]."
    assert [s.text_of(result.text) for s in result.spans] == ["[**DOCTOR**]", "[**DATE**]"]
    assert len(result.detected) == 2 and "Kowalski" not in repr(result)


def test_deidentify_surrogate_consistent_per_patient(deid: Deidentifier) -> None:
    one = deid.deidentify("Dr Kowalski saw him 3/14.", patient_id="7", mode="surrogate", key=KEY)
    two = deid.deidentify("Dr Kowalski saw him 3/14.", patient_id="7", mode=Mode.SURROGATE, key=KEY)
    other = deid.deidentify("Dr Kowalski saw him 3/14.", patient_id="8", mode=Mode.SURROGATE, key=KEY)
    assert one.text == two.text and "Kowalski" not in one.text and "3/14" not in one.text
    assert other.text != one.text


def test_deidentify_needs_key_for_surrogates(deid: Deidentifier, tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="key"):
        deid.deidentify("Dr Kowalski", mode="surrogate")
    key_file = tmp_path / "key"
    key_file.write_text(SecretKey.new_key_text())
    key_file.chmod(0o600)
    assert "Kowalski" not in deid.deidentify("Dr Kowalski", mode="surrogate", key=key_file).text


def test_deidentify_documents_and_given_spans(deid: Deidentifier) -> None:
    doc = Document("n1", "Call Anna at home", DocumentMetadata(patient_id="3"))
    result = deid.deidentify(doc, spans=[Span(5, 9, Label.RELATIVE)], mode="mask")
    assert result.text == "Call **** at home"


def test_deidentify_many_groups_patients(deid: Deidentifier) -> None:
    docs = [
        Document("a", "Dr. Brandt", DocumentMetadata(patient_id="1")),
        Document("b", "Dr. Okafor", DocumentMetadata(patient_id="2")),
        Document("c", "DR. BRANDT", DocumentMetadata(patient_id="1")),
    ]
    deid_upper = Deidentifier(Pipeline.of([NameDetector()]), ReplaceOptions(Mode.SURROGATE, KEY))
    docs[2] = Document("c", "Dr. BRANDT", DocumentMetadata(patient_id="1"))
    first, _, third = deid_upper.deidentify_many(docs)
    assert first.text.upper() == third.text.upper()


class ConfidentAfterTitle:
    """A confident DOCTOR span for a capitalised word after "Attending:" only (the seed of reconciliation)."""

    name = "toy.attending"
    _pattern = regex.compile(r"(?<=Attending: )[A-Z][a-z]+")

    def detect(self, document: Document) -> list[Span]:
        return [Span(m.start(), m.end(), Label.DOCTOR, self.name, 0.95) for m in self._pattern.finditer(document.text)]


RECONCILING = Pipeline.of([ConfidentAfterTitle(), ReconcileStage()], name="toy+reconcile")
# Patient 1's first note names the doctor confidently; its second note and patient 2's note only mention the name.
NOTES = [
    Document("1_1", "Attending: Quillfeather\nPt stable.", DocumentMetadata(patient_id="1")),
    Document("2_1", "QUILLFEATHER UPDATED BY PHONE.", DocumentMetadata(patient_id="2")),
    Document("1_2", "QUILLFEATHER UPDATED BY PHONE.", DocumentMetadata(patient_id="1")),
    Document("x_1", "QUILLFEATHER UPDATED BY PHONE.", DocumentMetadata()),
]


def _found(documents: list[Document], spans: list[tuple[Span, ...]]) -> list[list[str]]:
    return [[d.text[s.start : s.end] for s in found] for d, found in zip(documents, spans, strict=True)]


def test_detect_many_reconciles_a_patients_notes_together() -> None:
    deid = Deidentifier(RECONCILING, ReplaceOptions(), "toy")
    many = deid.detect_many(NOTES)
    assert _found(NOTES, many) == [["Quillfeather"], [], ["QUILLFEATHER"], []]
    assert many[2][0].source == "reconcile"
    # Note by note, nothing links the second note to the first.
    assert _found(NOTES, [deid.detect(doc) for doc in NOTES]) == [["Quillfeather"], [], [], []]


def test_detect_many_without_reconciliation_is_per_note() -> None:
    deid = Deidentifier(Pipeline.of([ConfidentAfterTitle()]), ReplaceOptions(), "toy")
    assert deid.detect_many(NOTES) == [deid.detect(doc) for doc in NOTES]


@pytest.mark.parametrize("mode", [Mode.TAG, Mode.SURROGATE])
def test_deidentify_many_detects_a_patients_notes_together(mode: Mode) -> None:
    deid = Deidentifier(RECONCILING, ReplaceOptions(mode, KEY if mode.needs_key else None), "toy")
    results = deid.deidentify_many(NOTES)
    assert ["QUILLFEATHER" in r.text.upper() for r in results] == [False, True, False, True]
    assert [len(r.detected) for r in results] == [1, 0, 1, 0]
    # One note at a time (the single-note API) it stays: the grouping is what finds it.
    assert "QUILLFEATHER" in deid.deidentify(NOTES[2]).text


# A message board: two posts by different posters, each answering the other (different patients/threads).
BOARD = [
    Document("a", "anyone tried the new inhaler? sunny daze", DocumentMetadata(patient_id="t1", author="sunny_daze")),
    Document("b", "thanks Sunny, and brambleFoot77 said the same", DocumentMetadata(patient_id="t2", author="x9kline")),
    Document("c", "ask x9kline about it", DocumentMetadata(patient_id="t3")),
]


def test_detect_many_seeks_every_posters_handle_in_every_note() -> None:
    from deident.detect.patterns.usernames import username_detector

    deid = Deidentifier(Pipeline.of([username_detector()]), ReplaceOptions(), "users")
    assert _found(BOARD, deid.detect_many(BOARD)) == [["sunny daze"], ["Sunny"], ["x9kline"]]
    # Note by note, a poster's handle is sought only in that poster's own note.
    assert _found(BOARD, [deid.detect(doc) for doc in BOARD]) == [["sunny daze"], [], []]
    # Handles given beside the notes (a board's user list) are sought too.
    more = deid.detect_many(BOARD, board_handles=["brambleFoot77"])
    assert _found(BOARD, more) == [["sunny daze"], ["Sunny", "brambleFoot77"], ["x9kline"]]
    assert all(span.label is Label.USERNAME for spans in more for span in spans)


def test_spans_only_deidentifier_cannot_detect() -> None:
    with pytest.raises(ConfigurationError, match="no detection pipeline"):
        Deidentifier(None).detect("text")
    with pytest.raises(ConfigurationError, match="no detection pipeline"):
        Deidentifier(None).detect_many(NOTES)


def test_load_names_the_pipeline() -> None:
    with pytest.raises(ConfigurationError, match="unknown pipeline"):
        Deidentifier.load(pipeline="nope")


def test_load_passes_recall_target_and_scheme_to_the_builder(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    def builder(
        name: str,
        model_dir: Path | None = None,
        *,
        scheme: str | None = None,
        recall_target: float | None = None,
        stage2: dict[str, bool] | None = None,
        site: object = None,
    ) -> Pipeline:
        seen.update(name=name, recall_target=recall_target, scheme=scheme, stage2=stage2)
        assert site is None
        return Pipeline.of([NameDetector()])

    monkeypatch.setattr("deident.api.build_pipeline", builder)
    deid = Deidentifier.load(pipeline="crf", recall_target=0.97, scheme="physionet", stage2={"filter": False})
    assert seen == {"name": "crf", "recall_target": 0.97, "scheme": "physionet", "stage2": {"filter": False}}
    assert deid.recall_target == 0.97 and deid.model_id == "crf:bundled"


@pytest.mark.parametrize(
    ("pipeline", "preload", "called"), [("rules", True, True), ("rules", False, False), ("crf", True, False)]
)
def test_load_preloads_the_lexicon_and_pattern_tables(
    monkeypatch: pytest.MonkeyPatch, pipeline: str, preload: bool, called: bool
) -> None:
    calls: list[str] = []
    monkeypatch.setattr("deident.detect.lexicon.preload", lambda: calls.append("lexicon"))
    monkeypatch.setattr("deident.detect.patterns.preload", lambda: calls.append("patterns"))
    monkeypatch.setattr("deident.api.build_pipeline", lambda *a, **k: Pipeline.of([NameDetector()]))
    Deidentifier.load(pipeline=pipeline, preload=preload)
    assert calls == (["lexicon", "patterns"] if called else [])


def test_the_pattern_tables_preload_builds_what_the_rules_read() -> None:
    from deident.detect.lexicon.data import load_lexicon
    from deident.detect.patterns import contact, names, preload

    load_lexicon.cache_clear()
    contact._address_domains.cache_clear()
    preload()
    assert load_lexicon.cache_info().currsize == 2 and contact._address_domains.cache_info().currsize == 1
    assert {"spanish", "haitian", "english"} <= names._language_names() and "smith" not in names._language_names()
    assert {"ly", "me", "gb"} <= contact._address_domains()


class CountingStage:
    """A per-note stage that counts the notes it sees."""

    name = "toy.count"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        self.seen.append(document.id)
        return spans


@pytest.mark.parametrize(("preload", "warm_up_notes"), [(True, ["warm-up"]), (False, [])])
def test_load_runs_the_pipeline_once_on_a_synthetic_note(
    monkeypatch: pytest.MonkeyPatch, preload: bool, warm_up_notes: list[str]
) -> None:
    stage = CountingStage()
    monkeypatch.setattr("deident.detect.lexicon.preload", lambda: None)
    monkeypatch.setattr("deident.detect.patterns.preload", lambda: None)
    monkeypatch.setattr("deident.api.build_pipeline", lambda *a, **k: Pipeline((stage,)))
    deid = Deidentifier.load(pipeline="rules", preload=preload)
    assert stage.seen == warm_up_notes
    deid.detect("Pt resting.")
    assert stage.seen == [*warm_up_notes, "text"]


def test_load_builds_and_warms_up_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    seen: list[bool] = []

    def building(*args: object, **kwargs: object) -> Pipeline:
        seen.append(gc.isenabled())
        return Pipeline((stage,))

    class RecordingStage(CountingStage):
        def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
            seen.append(gc.isenabled())
            return spans

    stage = RecordingStage()
    monkeypatch.setattr("deident.detect.lexicon.preload", lambda: seen.append(gc.isenabled()))
    monkeypatch.setattr("deident.detect.patterns.preload", lambda: None)
    monkeypatch.setattr("deident.api.build_pipeline", building)
    deid = Deidentifier.load(pipeline="rules")
    assert seen == [False, False, False]  # build, lexicon preload, warm-up note
    assert gc.isenabled()
    deid.detect("Pt resting.")
    assert seen[-1] is True


# Packages the default pipeline must not import to detect PHI: each costs start-up time (the drug
# list ships as package data; training, plotting and serving libraries are extras).
NOT_IMPORTED_BY_DETECTION = ("drug_named_entity_recognition", "sklearn", "matplotlib", "fastapi", "pyspark")


def test_default_detection_does_not_import_build_or_training_packages():
    code = (
        "import sys; from deident.api import Deidentifier; "
        "Deidentifier.load().detect('Seen by Dr. Kowalski on 3/14 at Mercy Hospital.'); "
        f"print(' '.join(m for m in {NOT_IMPORTED_BY_DETECTION!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == ""


# Modules that loading a model must not import: training (the CRF's, the span filter's, evaluation) and the
# corpus formats (deident.io loads every one, pyarrow too). Loading only reads the model directory.
NOT_IMPORTED_BY_LOADING = (
    "deident.io",
    "deident.detect.crf.train",
    "deident.detect.crf.scoring",
    "deident.stage2.filter.training",
    "deident.evaluate",
    "deident.synth",
    "deident.cli",
    "sklearn",
    "pyarrow",
)


def test_loading_a_model_imports_no_training_or_corpus_format_module():
    code = (
        "import sys; from deident.api import Deidentifier\n"
        "for name in ('default', 'stage1', 'crf'): Deidentifier.load(pipeline=name, recall_target=0.95)\n"
        f"banned = {NOT_IMPORTED_BY_LOADING!r}\n"
        "print(' '.join(m for m in sorted(sys.modules) if any(m == b or m.startswith(b + '.') for b in banned)))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == ""


# Invisible characters inside a value (deident.text.visible): detection runs on the visible text, so the whole
# original value, the invisible characters inside it included, is found and replaced. One invented value per detector
# family, in a note where the default pipeline finds it whole.
INVISIBLE_NOTES = [
    ("date", "Admitted on ", "03/14/2019", " for chest pain."),
    ("phone", "Call her at ", "617-555-0199", " tomorrow."),
    ("mrn", "MRN: ", "55501234", " on file."),
    ("email", "Email ", "jo.kowalski@example.org", " with results."),
    ("ssn", "SSN ", "212-67-4431", " on file."),
    ("name after trigger", "Seen by Dr. ", "Wobblestone", " today."),
    ("age", "Patient is a ", "103", " year old man."),
    ("zip", "Zip code: ", "02134", " on file."),
    ("ip address", "Logged in from ", "10.0.12.7", " overnight."),
]
INVISIBLE_CHARACTERS = [
    "\u200b",  # zero-width space
    "\u200c",  # zero-width non-joiner
    "\u200d",  # zero-width joiner
    "\u00ad",  # soft hyphen
    "\ufeff",  # byte order mark
    "\u2060",  # word joiner
    "\u200e",  # left-to-right mark
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\x00",  # NUL
    "\x07",  # bell
    "\x1b",  # escape
    "\x7f",  # delete
]


@pytest.fixture(scope="module")
def default_deid() -> Deidentifier:
    return Deidentifier.load()


def _injected(before: str, value: str, after: str, char: str, marks_on_digits: bool = False) -> list[str]:
    """The note with ``char`` put at each inner position of the value (after a digit only, for combining marks)."""
    positions = [i for i in range(1, len(value)) if not marks_on_digits or value[i - 1].isdigit()]
    return [before + value[:i] + char + value[i:] + after for i in positions]


@pytest.mark.parametrize("char", INVISIBLE_CHARACTERS, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize(("family", "before", "value", "after"), INVISIBLE_NOTES, ids=[n[0] for n in INVISIBLE_NOTES])
def test_invisible_character_inside_a_value_is_covered_and_replaced(
    default_deid: Deidentifier, family: str, before: str, value: str, after: str, char: str
) -> None:
    clean = default_deid.deidentify(before + value + after).text
    assert value not in clean and clean.startswith(before) and clean.endswith(after), family
    notes = _injected(before, value, after, char)
    results = default_deid.deidentify_many([Document(f"n{i}", note) for i, note in enumerate(notes)])
    for note, result in zip(notes, results, strict=True):
        # The replaced text equals the clean note's: the span covered the value, invisible character included.
        assert result.text == clean, family
        assert any(s.start <= len(before) and len(note) - len(after) <= s.end for s in result.detected), family


@pytest.mark.parametrize(("family", "before", "value", "after"), INVISIBLE_NOTES, ids=[n[0] for n in INVISIBLE_NOTES])
def test_unicode_digits_and_marks_on_digits_are_read_as_digits(
    default_deid: Deidentifier, family: str, before: str, value: str, after: str
) -> None:
    clean = default_deid.deidentify(before + value + after).text
    notes = _injected(before, value, after, "\u0301", marks_on_digits=True)
    full_width = before + "".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in value) + after
    notes += [full_width] if full_width != before + value + after else []
    notes += [n.replace("\u0301", "\u0302\u20dd") for n in notes[:2]]  # several marks
    for note in notes:
        assert default_deid.deidentify(note).text == clean, family


@pytest.mark.parametrize("mode", [Mode.TAG, Mode.SURROGATE])
def test_invisible_characters_outside_values_are_kept(default_deid: Deidentifier, mode: Mode) -> None:
    note = "\ufeffCall her at 617-555-01\u200b99\u200b tomorrow,\x00 MRN 5550\u00ad1234.\u200e"
    result = default_deid.deidentify(note, mode=mode, key=KEY)
    assert result.text.startswith("\ufeffCall her at ") and result.text.endswith(".\u200e")
    assert "\u200b tomorrow,\x00 MRN " in result.text
    assert "0199" not in result.text and "1234" not in result.text
    assert all(0 <= s.start < s.end <= len(result.text) for s in result.spans)
    # Detection alone gives the same offsets, into the original note.
    assert [(s.start, s.end) for s in default_deid.detect(note)] == [(s.start, s.end) for s in result.detected]
    assert [note[s.start : s.end] for s in result.detected] == ["617-555-01\u200b99", "5550\u00ad1234"]


@pytest.mark.parametrize("mode", list(Mode))
def test_a_span_sticking_out_of_another_is_replaced_too(deid: Deidentifier, mode: Mode) -> None:
    # A name that runs into a date (a CRF's extension) beside the date itself: both are replaced, the date whole.
    note = "RE: Mrs Wilkinson - D.O.B. 18-Dec-1977 - NHS"
    name = Span(8, 33, Label.PATIENT, "crf")
    date = Span(27, 38, Label.DATE, "patterns.date", confirmed=Confirmation.FULL_DATE)
    result = deid.deidentify(note, spans=[name, date], mode=mode, key=KEY)
    assert "Wilkinson" not in result.text and "18-Dec" not in result.text
    if mode in (Mode.TAG, Mode.REDACT, Mode.MASK):  # a shifted date may keep its year, Safe Harbor keeps it
        assert "1977" not in result.text
    assert [(s.start, s.end, s.label) for s in result.detected] == [(8, 25, Label.PATIENT), (27, 38, Label.DATE)]


def test_no_letter_or_digit_of_a_detected_span_is_left(default_deid: Deidentifier) -> None:
    # UK letters, where a name field runs into a date of birth ("Mrs X - D.O.B. 18-Dec-1977") or a signature into the
    # date after it: about half of these notes had a name and a date overlapping in part.
    notes = [item.document for item in generate_corpus(40, 5, ["uk_letter"])]
    found = default_deid.detect_many(notes)
    results = default_deid.deidentify_many(notes, found)
    for note, spans, result in zip(notes, found, results, strict=True):
        replaced = bytearray(len(note.text))
        for span in result.detected:
            replaced[span.start : span.end] = b"\x01" * span.length
        left = [i for s in spans for i in range(s.start, s.end) if note.text[i].isalnum() and not replaced[i]]
        assert left == [], note.id


def test_notes_over_the_size_limit_are_refused_by_id(deid: Deidentifier) -> None:
    limited = replace(deid, max_note_chars=20)
    note = Document("n-7", "Seen by Dr. Kowalski on 3/14.")
    with pytest.raises(NoteTooLargeError, match=r"note 'n-7': 29 characters, over the limit of 20") as raised:
        limited.detect(note)
    assert "Kowalski" not in str(raised.value)
    with pytest.raises(NoteTooLargeError):
        limited.deidentify_many([Document("a", "short"), note])
    assert replace(deid, max_note_chars=29).detect(note) == deid.detect(note)  # at the limit: accepted
    assert limited.deidentify(note, spans=[Span(12, 20, Label.DOCTOR)]).text.startswith("Seen by Dr. [**")


def test_load_with_a_site_configuration(tmp_path: Path) -> None:
    from deident.replace import Mode, ReplaceOptions

    config = tmp_path / "site.toml"
    config.write_text(
        '[defaults]\nmode = "redact"\nscheme = "physionet"\n[[deny]]\nlabel = "HOSPITAL"\nterms = ["the Annexe"]\n'
    )
    deid = Deidentifier.load(pipeline="rules", preload=False, config=config)
    assert deid.options.mode is Mode.REDACT and deid.site is not None and deid.site.name == "site.toml"
    assert deid.deidentify("Sent to the Annexe.").text == "Sent to [REDACTED]."
    given = Deidentifier.load(pipeline="rules", preload=False, config=config, options=ReplaceOptions())
    assert given.options.mode is Mode.TAG  # options given win over the configuration's mode
    assert Deidentifier.load(pipeline="rules", preload=False).site is None


# The default output scheme (hipaa, issue 17 item 5): what i2b2-2014 marks, whole facility names included, except
# ages of 89 and under. Invented notes: (note, what must be removed whole, or None for a hard negative; its text).
HIPAA_DEFAULT = [
    ("Transferred from Mercy Hospital overnight for further care.", "Mercy Hospital"),
    ("Seen at St. Catherine's Medical Center by Dr. Alvarez last week.", "St. Catherine's Medical Center"),
    ("Follow-up booked at Riverside Clinic in two weeks.", "Riverside Clinic"),
    ("Referred to Lakeshore General Hospital for imaging.", "Lakeshore General Hospital"),
    ("Daughter lives in Ohio and visits often.", "Ohio"),
    ("The family moved here from Portugal in 2001.", "Portugal"),
    ("He works as a carpenter and lives alone.", "carpenter"),
    ("Patient is a 92 year old woman with CHF.", "92"),
    ("Plan to recheck labs on Monday.", "Monday"),
    ("Patient is a 45 year old woman with CHF.", None),
    ("Mother died at 89 of a stroke.", None),
    ("Strength 4/5 in the left arm, 3/6 systolic murmur.", None),
    ("Lasix 40 mg given with good effect.", None),
]


@pytest.mark.parametrize(("note", "phi"), HIPAA_DEFAULT, ids=[n[:28] for n, _ in HIPAA_DEFAULT])
def test_default_output_is_the_hipaa_scheme(default_deid: Deidentifier, note: str, phi: str | None) -> None:
    found = [note[s.start : s.end] for s in default_deid.detect(note)]
    assert default_deid.scheme == "hipaa"
    assert (phi in found) if phi is not None else found == []


def test_physionet_scheme_keeps_its_own_convention() -> None:
    deid = Deidentifier.load(scheme="physionet", preload=False)
    note = "Transferred from Mercy Hospital to Ohio; works as a carpenter."
    assert deid.scheme == "physionet"
    assert [note[s.start : s.end] for s in deid.detect(note)] == ["Mercy"]


def test_a_site_configurations_scheme_is_the_default_and_an_asked_scheme_wins(tmp_path: Path) -> None:
    config = tmp_path / "site.toml"
    config.write_text('[defaults]\nscheme = "physionet"\n', encoding="utf-8")
    assert Deidentifier.load(pipeline="rules", config=config, preload=False).scheme == "physionet"
    assert Deidentifier.load(pipeline="rules", config=config, scheme="i2b2-2014", preload=False).scheme == "i2b2-2014"
    assert Deidentifier.load(pipeline="rules", preload=False).scheme == "hipaa"


def test_the_operating_point_says_which_scheme_it_was_measured_under(default_deid: Deidentifier) -> None:
    assert default_deid.operating_point is not None
    said = default_deid.operating_point.describe()
    assert "measured under the physionet convention, not this run's output scheme hipaa" in said
    physionet = Deidentifier.load(scheme="physionet", preload=False).operating_point
    assert physionet is not None and "measured under" not in physionet.describe()
