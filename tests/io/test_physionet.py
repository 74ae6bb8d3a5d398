from pathlib import Path

import pytest

from deident.core import AnnotatedDocument, ConfigurationError, Document, InputFormatError, Label
from deident.core.document import DocumentMetadata
from deident.io import physionet, read_corpus, write_corpus
from deident.io.formats import iter_corpus


def test_read_fixture(fixtures: Path):
    docs = read_corpus(fixtures / "mini.text")
    assert [d.id for d in docs] == ["1_1", "1_2", "2_1"]
    first = docs[0]
    assert first.document.metadata.patient_id == "1"
    assert [s.text_of(first.text) for s in first.spans][:3] == ["67", "3/14", "Mercy"]
    assert first.spans[0].label is Label.AGE


def test_round_trip_exact(fixtures: Path, tmp_path: Path):
    docs = read_corpus(fixtures / "mini.text")
    write_corpus(docs, tmp_path / "out.text")
    assert (tmp_path / "out.text").read_text() == (fixtures / "mini.text").read_text()
    again = read_corpus(tmp_path / "out.text")
    assert [(d.id, d.text, d.spans) for d in again] == [(d.id, d.text, d.spans) for d in docs]


def test_misaligned_phrase_is_reported(fixtures: Path, tmp_path: Path):
    (tmp_path / "bad.text").write_text((fixtures / "mini.text").read_text())
    (tmp_path / "bad.phrase").write_text("1 1 9 11 Age 67\n")
    with pytest.raises(InputFormatError) as err:
        read_corpus(tmp_path / "bad.text")
    assert "bad.phrase, line 1" in str(err.value)
    assert "67" not in str(err.value).split("line 1")[1]


def test_broken_record_names_line(tmp_path: Path):
    (tmp_path / "x.text").write_text("START_OF_RECORD=1||||1||||\nno end marker\n")
    with pytest.raises(InputFormatError, match=r"x.text, line 1"):
        read_corpus(tmp_path / "x.text")


def test_shared_corpus_round_trip(shared_corpus: Path, tmp_path: Path):
    docs = read_corpus(shared_corpus)
    assert len(docs) == 1414
    write_corpus(docs, tmp_path / "rt.jsonl")
    back = read_corpus(tmp_path / "rt.jsonl")
    write_corpus(back, tmp_path / "rt.text")
    assert (tmp_path / "rt.text").read_text() == shared_corpus.read_text()
    assert [d.spans for d in read_corpus(tmp_path / "rt.text")] == [d.spans for d in docs]


def test_carriage_returns_are_kept(fixtures: Path, tmp_path: Path):
    """Phrase offsets count \\r\\n as two characters; the reader must not translate line ends."""
    (tmp_path / "crlf.text").write_bytes((fixtures / "mini.text").read_bytes().replace(b"\n", b"\r\n"))
    docs = read_corpus(tmp_path / "crlf.text")
    assert [d.id for d in docs] == ["1_1", "1_2", "2_1"]
    assert "\r\n" in docs[0].text
    write_corpus(docs, tmp_path / "again.text")
    assert [d.text for d in read_corpus(tmp_path / "again.text")] == [d.text for d in docs]


def test_a_byte_order_mark_is_accepted(tmp_path: Path):
    (tmp_path / "c.text").write_bytes(b"\xef\xbb\xbfSTART_OF_RECORD=1||||2||||\nSeen 3/4.\n||||END_OF_RECORD\n")
    (tmp_path / "c.phrase").write_bytes(b"\xef\xbb\xbf1 2 5 8 Date 3/4\n")
    docs = read_corpus(tmp_path / "c.text")
    assert [(d.id, d.text, [(s.start, s.end) for s in d.spans]) for d in docs] == [("1_2", "Seen 3/4.\n", [(5, 8)])]


@pytest.mark.parametrize("marker", ["||||END_OF_RECORD\nSTART_OF_RECORD=9||||9||||\n", "||||END_OF_RECORD"])
def test_a_record_marker_inside_a_note_is_refused_not_cut(tmp_path: Path, marker: str):
    """Such a note used to be written as is and read back as two notes."""
    docs = [AnnotatedDocument(Document("1_1", "fine")), AnnotatedDocument(Document("1_2", f"pasted {marker}tail"))]
    with pytest.raises(ConfigurationError, match=r"^note 2: its text holds the record end marker .* at offset 7"):
        write_corpus(docs, tmp_path / "c.text")
    assert not (tmp_path / "c.text").exists()


def test_a_record_start_marker_inside_a_note_is_text(tmp_path: Path):
    docs = [AnnotatedDocument(Document("1_1", "pasted START_OF_RECORD=2||||3||||\nstill the same note"))]
    write_corpus(docs, tmp_path / "c.text")
    assert [d.text for d in read_corpus(tmp_path / "c.text")] == [docs[0].text]


def test_a_patient_id_without_a_note_id_is_kept(tmp_path: Path):
    """Every such note used to be filed under patient 0 (one surrogate table for all patients)."""
    docs = [
        AnnotatedDocument(Document("a", "one", DocumentMetadata(patient_id="17"))),
        AnnotatedDocument(Document("b", "two", DocumentMetadata(patient_id="18"))),
    ]
    write_corpus(docs, tmp_path / "c.text")
    back = read_corpus(tmp_path / "c.text")
    assert [d.document.metadata.patient_id for d in back] == ["17", "18"]


# An invented file: three patients, notes grouped or interleaved, \r\n and non-ASCII text, blank lines between
# records, an empty note, a phrase file whose lines are in no particular order.
_NOTES = [
    ("7", "1", "Seen by Dr. Quandt on 3/4.\r\nCall 555-0101.\n"),
    ("7", "2", "Follow-up: Zoë well.\n"),
    ("12", "1", ""),
    ("12", "2", "Mr. Ostrander, 71, from Eastwick.\n"),
    ("3", "9", "Discharged 4/5 to Brookhaven.\r\n"),
]


def _invented(path: Path, interleaved: bool) -> list[tuple[str, str, str]]:
    notes = [_NOTES[i] for i in ((0, 2, 1, 3, 4) if interleaved else range(5))]
    path.write_text(
        "\n\n".join(f"START_OF_RECORD={p}||||{n}||||\n{text}||||END_OF_RECORD" for p, n, text in notes) + "\n",
        encoding="utf-8",
        newline="",
    )
    path.with_suffix(".phrase").write_text(
        "12 2 4 13 PTName Ostrander\n3 9 11 14 Date 4/5\n7 1 12 18 HCPName Quandt\n7 2 11 14 PTName Zoë\n",
        encoding="utf-8",
    )
    return notes


@pytest.mark.parametrize("interleaved", [False, True])
@pytest.mark.parametrize("block_bytes", [1, 5, 64, 1 << 18])
def test_the_file_read_in_blocks_gives_what_a_whole_read_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interleaved: bool, block_bytes: int
):
    path = tmp_path / "c.text"
    notes = _invented(path, interleaved)
    monkeypatch.setattr(physionet, "_BLOCK_BYTES", block_bytes)  # records and markers cut at every place
    streamed = list(physionet.iter_physionet(path))
    whole = physionet.parse_text(path.read_bytes().decode("utf-8"), path)
    assert [item.document for item in streamed] == whole
    assert [(d.document.patient_id, d.document.metadata.note_id, d.text) for d in streamed] == notes
    spans = {d.id: [(s.start, s.end, s.label) for s in d.spans] for d in streamed}
    assert spans["12_2"] == [(4, 13, Label.PATIENT)] and spans["7_1"] == [(12, 18, Label.DOCTOR)]


def test_records_are_read_one_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The first note comes after the blocks that hold it, not after the whole file (nor the broken end)."""
    path = tmp_path / "c.text"
    path.write_text("START_OF_RECORD=1||||1||||\nfine\n||||END_OF_RECORD\n\n" + "x" * 1000, encoding="utf-8")
    monkeypatch.setattr(physionet, "_BLOCK_BYTES", 16)
    blocks = physionet._blocks
    taken: list[str] = []

    def counted(file: Path):
        for block in blocks(file):
            taken.append(block)
            yield block

    monkeypatch.setattr(physionet, "_blocks", counted)
    notes = physionet.iter_physionet(path)
    assert next(notes).text == "fine\n"
    assert len(taken) <= 4  # 49 characters to the end marker: 4 blocks of 16 bytes
    with pytest.raises(InputFormatError, match=r"c.text, line 5: expected 'START_OF_RECORD"):
        next(notes)


@pytest.mark.parametrize(
    ("content", "position", "problem"),
    [
        ("START_OF_RECORD=1||||1||||\na\n||||END_OF_RECORD\n\n\r\nSTART_OF_RECORD=1||||2||||\nb\n", "line 6", "no '"),
        ("START_OF_RECORD=1||||1||||\na\n||||END_OF_RECORD\nstray\n", "line 4", "expected 'START_OF_RECORD"),
        (
            "START_OF_RECORD=1||||1||||\na\n||||END_OF_RECORD\nSTART_OF_RECORD=1||||1||||\nb||||END_OF_RECORD",
            "line 4",
            "duplicate record",
        ),
        ("\n\nSTART_OF_RECORD=1|||1||||\na||||END_OF_RECORD\n", "line 3", "expected 'START_OF_RECORD"),
    ],
)
@pytest.mark.parametrize("block_bytes", [3, 1 << 18])
def test_a_malformed_record_names_the_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, position: str, problem: str, block_bytes: int
):
    path = tmp_path / "bad.text"
    path.write_text(content, encoding="utf-8", newline="")
    monkeypatch.setattr(physionet, "_BLOCK_BYTES", block_bytes)
    with pytest.raises(InputFormatError) as error:
        read_corpus(path)
    assert (error.value.position, Path(str(error.value.path)).name) == (position, "bad.text")
    assert problem in error.value.problem and "\n" not in str(error.value)


def test_an_invalid_byte_is_named_by_its_offset_in_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "bad.text"
    path.write_bytes(b"START_OF_RECORD=1||||1||||\nab\xff\n||||END_OF_RECORD\n")
    monkeypatch.setattr(physionet, "_BLOCK_BYTES", 4)
    with pytest.raises(InputFormatError, match=r"bad.text, byte 29: not valid UTF-8"):
        read_corpus(path)


def test_a_utf16_corpus_is_refused_with_a_hint_to_convert_it(tmp_path: Path):
    path = tmp_path / "wide.text"
    path.write_bytes("START_OF_RECORD=1||||1||||\nnote\n||||END_OF_RECORD\n".encode("utf-16"))
    with pytest.raises(InputFormatError, match=r"wide\.text, byte 0: .*utf-16 byte order mark; convert it to UTF-8"):
        read_corpus(path)


@pytest.mark.parametrize("interleaved", [False, True])
def test_the_streamed_writer_writes_what_the_whole_formatters_make(tmp_path: Path, interleaved: bool):
    _invented(tmp_path / "in.text", interleaved)
    items = read_corpus(tmp_path / "in.text")
    physionet.write_physionet(iter(items), tmp_path / "out.text")
    assert (tmp_path / "out.text").read_bytes().decode("utf-8") == physionet.format_text(items)
    assert (tmp_path / "out.phrase").read_bytes().decode("utf-8") == physionet.format_phrase(items)
    assert (tmp_path / "out.text").read_bytes() == (tmp_path / "in.text").read_bytes()


def test_a_write_that_fails_half_way_leaves_no_file(tmp_path: Path):
    items = [AnnotatedDocument(Document("1_1", "one")), AnnotatedDocument(Document("1_2", "two"))]
    (tmp_path / "out.text.metadata.jsonl").write_text("{}\n")  # an earlier side file stays as it was

    def failing():
        yield items[0]
        raise RuntimeError("disk gone")

    with pytest.raises(RuntimeError, match="disk gone"):
        write_corpus(failing(), tmp_path / "out.text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.text.metadata.jsonl"]
    assert (tmp_path / "out.text.metadata.jsonl").read_text() == "{}\n"


def test_the_side_file_round_trips_ids_and_metadata_when_streamed(tmp_path: Path):
    docs = [
        AnnotatedDocument(Document("note-a", "one", DocumentMetadata(patient_id="4", note_id="1", thread="ward"))),
        AnnotatedDocument(Document("4_2", "two", DocumentMetadata(patient_id="4", note_id="2"))),
    ]
    write_corpus(iter(docs), tmp_path / "c.text")
    assert (tmp_path / "c.text.metadata.jsonl").exists()
    back = list(iter_corpus(tmp_path / "c.text"))
    assert [(d.id, d.document.metadata) for d in back] == [(d.id, d.document.metadata) for d in docs]
    write_corpus(iter(back[1:]), tmp_path / "c.text")  # nothing lost now: the stale side file goes
    assert not (tmp_path / "c.text.metadata.jsonl").exists()


def test_a_side_file_in_another_order_than_the_notes_is_still_applied(tmp_path: Path):
    docs = [
        AnnotatedDocument(Document(f"n{i}", str(i), DocumentMetadata(patient_id="1", note_id=str(i)))) for i in (1, 2)
    ]
    write_corpus(docs, tmp_path / "c.text")
    sidecar = tmp_path / "c.text.metadata.jsonl"
    sidecar.write_text("".join(reversed(sidecar.read_text().splitlines(keepends=True))))
    assert [d.id for d in iter_corpus(tmp_path / "c.text")] == ["n2", "n1"]  # the side file's order, as before
