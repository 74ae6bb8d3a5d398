import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deident.core import ConfigurationError
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import InputFormatError
from deident.core.labels import PHYSIONET_TO_LABEL, Label
from deident.core.span import Span
from deident.io import FORMATS, detect_format, read_corpus, write_corpus
from deident.io.formats import iter_corpus
from deident.io.physionet import physionet_type

# Where each format is written in the round-trip tests (a file or a folder).
TARGETS = {
    "physionet": "c.text",
    "jsonl": "c.jsonl",
    "i2b2-2014": "c14",
    "i2b2-2006": "c06.xml",
    "brat": "cbrat",
    "conll": "c.conll",
    "text": "ctxt",
    "csv": "c.csv",
    "parquet": "c.parquet",
}


def test_every_format_has_a_target():
    assert set(TARGETS) == set(FORMATS)


def _expected(docs: Sequence[AnnotatedDocument], formats: Sequence[str]) -> list[tuple[str, str, list]]:
    """What survives a chain of formats: PhysioNet has fewer types, CoNLL turns whitespace into spaces."""
    out = []
    for d in docs:
        text = d.text
        spans = [(s.start, s.end, s.label.value) for s in d.spans]
        if "physionet" in formats:
            spans = [(s.start, s.end, PHYSIONET_TO_LABEL[physionet_type(s, d.text)].value) for s in d.spans]
        if "conll" in formats:
            text = "".join(" " if c.isspace() else c for c in text)
        out.append((d.id, text, spans))
    return out


@pytest.mark.parametrize("target", sorted(FORMATS))
@pytest.mark.parametrize("source", sorted(FORMATS))
def test_convert_every_pair(tricky, key, tmp_path: Path, source: str, target: str):
    write_corpus(tricky, tmp_path / TARGETS[source], source)
    middle = read_corpus(tmp_path / TARGETS[source])  # format detected from the path
    out = tmp_path / "out" / TARGETS[target]
    write_corpus(middle, out, target)
    assert key(read_corpus(out, target)) == _expected(tricky, [source, target])


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("i2b2_2014", "i2b2-2014"),
        ("i2b2_2014/110-01.xml", "i2b2-2014"),
        ("i2b2_2006.xml", "i2b2-2006"),
        ("brat", "brat"),
        ("brat/note_1.txt", "brat"),
        ("brat/note_1.ann", "brat"),
        ("brat/sub/note_2.txt", "text"),
        ("bio.conll", "conll"),
        ("table.csv", "csv"),
        ("mini.text", "physionet"),
        ("tricky.jsonl", "jsonl"),
    ],
)
def test_detect_format(fixtures: Path, name: str, expected: str):
    assert detect_format(fixtures / name).name == expected


def test_detect_text_folder(tmp_path: Path):
    (tmp_path / "a.txt").write_text("x")
    assert detect_format(tmp_path).name == "text"


@pytest.mark.parametrize("content", ["", "<other/>"])
def test_unknown_xml_and_empty_folder(tmp_path: Path, content: str):
    (tmp_path / "x.xml").write_text(content)
    with pytest.raises(ConfigurationError, match=r"x\.xml"):
        detect_format(tmp_path / "x.xml")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigurationError, match="empty"):
        detect_format(tmp_path / "empty")


def test_folder_output_needs_a_format(tricky, tmp_path: Path):
    with pytest.raises(ConfigurationError, match="--to"):
        write_corpus(tricky, tmp_path / "plainfolder")


def _physionet_via_i2b2_and_jsonl(source: Path, tmp_path: Path) -> Path:
    docs = read_corpus(source)
    write_corpus(docs, tmp_path / "xml", "i2b2-2014")
    write_corpus(read_corpus(tmp_path / "xml"), tmp_path / "corpus.jsonl")
    write_corpus(read_corpus(tmp_path / "corpus.jsonl"), tmp_path / "back.text")
    return tmp_path / "back.text"


def test_acceptance_chain_on_fixture(fixtures: Path, tmp_path: Path):
    back = _physionet_via_i2b2_and_jsonl(fixtures / "mini.text", tmp_path)
    assert back.read_bytes() == (fixtures / "mini.text").read_bytes()
    assert back.with_suffix(".phrase").read_bytes() == (fixtures / "mini.phrase").read_bytes()


def test_acceptance_chain_on_shared_corpus(shared_corpus: Path, tmp_path: Path):
    original = read_corpus(shared_corpus)
    back = _physionet_via_i2b2_and_jsonl(shared_corpus, tmp_path)
    again = read_corpus(back)
    assert [(d.id, d.text) for d in again] == [(d.id, d.text) for d in original]
    assert [[(s.start, s.end, s.label) for s in d.spans] for d in again] == [
        [(s.start, s.end, s.label) for s in d.spans] for d in original
    ]
    assert back.read_bytes() == shared_corpus.read_bytes()


# Any character Python can hold, the line separators str.splitlines() breaks at, a BOM, line breaks and
# XML's CDATA end: what copy-paste out of word processors and EHR exports brings.
_CHARACTERS = st.characters(codec=None, exclude_categories=()) | st.sampled_from(
    ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\r", "\n", "\r\n", "\ufeff", "]]>", "||||", "\t", " "]
)
_NOTE_TEXT = st.lists(_CHARACTERS, max_size=40).map("".join)


@st.composite
def _notes(draw: st.DrawFn) -> list[AnnotatedDocument]:
    texts = draw(st.lists(_NOTE_TEXT, min_size=1, max_size=3))
    docs = []
    for number, text in enumerate(texts, start=1):
        spans: tuple[Span, ...] = ()
        if text.strip():
            start = draw(st.integers(0, len(text) - 1))
            end = draw(st.integers(start + 1, len(text)))
            if text[start:end].strip():
                spans = (Span(start, end, Label.DATE),)
        docs.append(AnnotatedDocument(Document(f"7_{number}", text, DocumentMetadata("7", str(number))), spans))
    return docs


@pytest.mark.parametrize("fmt", sorted(TARGETS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(docs=_notes())
def test_any_unicode_note_round_trips_or_is_refused_by_position(tmp_path: Path, fmt: str, docs) -> None:
    """Each format gives back exactly the text and spans it wrote, or refuses the note it cannot hold
    (by position, before writing anything): never a crash, never a changed or split note."""
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    target = folder / TARGETS[fmt]
    refused = [position for position, item in enumerate(docs, start=1) if FORMATS[fmt].unwritable(item)]
    if refused:
        with pytest.raises(ConfigurationError, match=rf"^note {refused[0]}: its \w+ holds .* at offset \d+"):
            write_corpus(docs, target, fmt)
        assert not target.exists()
        return
    write_corpus(docs, target, fmt)
    back = read_corpus(target, fmt)
    assert _key(back, fmt) == _key(docs, fmt)


def _key(docs: Sequence[AnnotatedDocument], fmt: str) -> list[tuple[str, str, list[tuple[int, int, str]]]]:
    out = []
    for d in docs:
        # CoNLL keeps tokens, not spacing (documented); other formats keep the text exactly.
        text = " ".join(d.text.split()) if fmt == "conll" else d.text
        spans = [] if fmt == "conll" else [(s.start, s.end, s.label.value) for s in d.spans]
        out.append((d.id, text, spans))
    return out


@pytest.mark.parametrize("fmt", sorted(TARGETS))
def test_a_lone_surrogate_is_kept_by_jsonl_and_refused_by_position_elsewhere(tmp_path: Path, fmt: str) -> None:
    docs = [
        AnnotatedDocument(Document("1", "plain note")),
        AnnotatedDocument(Document("2", "emoji half \ud83d here")),
    ]
    target = tmp_path / TARGETS[fmt]
    if fmt == "jsonl":
        write_corpus(docs, target, fmt)
        assert "\\ud83d" in target.read_text(encoding="utf-8")
        assert [d.text for d in read_corpus(target, fmt)] == [d.text for d in docs]
        return
    with pytest.raises(ConfigurationError, match=r"^note 2: its text holds a lone surrogate .* at offset 11,"):
        write_corpus(docs, target, fmt)


def test_a_folder_of_several_formats_is_an_error_listing_them(tmp_path: Path):
    """.txt and .jsonl files together used to be read as a text corpus, the .jsonl skipped silently."""
    (tmp_path / "a.txt").write_text("first note")
    (tmp_path / "b.txt").write_text("second note")
    write_corpus([AnnotatedDocument(Document("9", "third note"))], tmp_path / "c.jsonl")
    (tmp_path / "README").write_text("not a corpus file")
    with pytest.raises(ConfigurationError, match=r"several formats: jsonl \(1 files\), text \(2 files\); .*--format"):
        read_corpus(tmp_path)
    assert [d.text for d in read_corpus(tmp_path, "text")] == ["first note", "second note"]  # --format picks one


@pytest.mark.parametrize("fmt", ["text", "brat", "i2b2-2014"])
def test_a_folder_written_by_deident_is_one_format(tricky, tmp_path: Path, fmt: str):
    write_corpus(tricky, tmp_path / "c", fmt)  # with its sidecars (spans.jsonl for text)
    assert detect_format(tmp_path / "c").name == fmt


def _with_metadata() -> list[AnnotatedDocument]:
    """Notes of two patients, ids that are not "<patient>_<note>", note dates and extra fields, out of id order."""
    import datetime as dt

    docs = []
    for number, (doc_id, patient) in enumerate([("note-b", "P2"), ("note-a", "P1"), ("7_3", None), ("x", "P1")]):
        text = f"Seen by Dr. Brandt on 3/{number + 1}/2010.\r\nEnd."
        meta = DocumentMetadata(
            patient_id=patient, note_date=dt.date(2010, 3, number + 1), extra=(("site", "north"), ("ward", "4"))
        )
        if doc_id == "7_3":
            meta = DocumentMetadata("7", "3", note_date=dt.date(2011, 1, 1))
        docs.append(AnnotatedDocument(Document(doc_id, text, meta), (Span(12, 18, Label.DOCTOR),)))
    return docs


@pytest.mark.parametrize("fmt", sorted(set(TARGETS) - {"conll"}))
def test_ids_metadata_and_order_round_trip_through_every_format(tmp_path: Path, fmt: str):
    """JSONL -> BRAT, i2b2 and PhysioNet used to drop the metadata (patients, note dates, extra fields) and,
    for PhysioNet, file every note without a note id under patient 0."""
    docs = _with_metadata()
    target = tmp_path / TARGETS[fmt]
    write_corpus(docs, target, fmt)
    back = read_corpus(target, fmt)
    assert [(d.id, d.text, _without_table_layout(d)) for d in back] == [
        (d.id, d.text, d.document.metadata) for d in docs
    ]
    assert [[(s.start, s.end, s.label.category) for s in d.spans] for d in back] == [
        [(s.start, s.end, s.label.category) for s in d.spans] for d in docs
    ]


def _without_table_layout(item: AnnotatedDocument) -> DocumentMetadata:
    """Tables add their layout (columns, roles, types) to the metadata, by design."""
    meta = item.document.metadata
    return replace(meta, extra=tuple((k, v) for k, v in meta.extra if not k.startswith("table:")))


@pytest.mark.parametrize("fmt", ["physionet", "brat", "i2b2-2014", "i2b2-2006"])
def test_no_side_file_when_nothing_is_lost(fixtures: Path, tmp_path: Path, fmt: str):
    docs = read_corpus(fixtures / "mini.text")
    target = tmp_path / TARGETS[fmt]
    write_corpus(docs, target, fmt)
    assert not [p.name for p in tmp_path.rglob("*metadata.jsonl")]


def test_evaluate_matches_jsonl_gold_with_physionet_predictions_by_original_ids(tmp_path: Path):
    """PhysioNet rewrote ids to <patient>_<note>, so no prediction matched a JSONL gold note."""
    from deident.evaluate import evaluate_corpus

    gold = _with_metadata()
    write_corpus(gold, tmp_path / "pred.text")
    report = evaluate_corpus(gold, read_corpus(tmp_path / "pred.text"))
    assert report.documents.gold == report.documents.predicted == len(gold)


def test_iter_corpus_streams_jsonl_note_by_note(tmp_path: Path) -> None:
    # The first note comes back before the broken second line is read: the file is not read whole first.
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": "a", "text": "first"}\n{not json\n', encoding="utf-8")
    notes = iter_corpus(path)
    assert next(notes).id == "a"
    with pytest.raises(InputFormatError, match="line 2"):
        next(notes)


def test_write_corpus_writes_jsonl_from_a_generator(tmp_path: Path) -> None:
    docs = [AnnotatedDocument(Document(f"d{i}", f"note {i}")) for i in range(3)]
    write_corpus(docs, tmp_path / "list.jsonl")
    write_corpus((item for item in docs), tmp_path / "stream.jsonl")
    assert (tmp_path / "stream.jsonl").read_bytes() == (tmp_path / "list.jsonl").read_bytes()
