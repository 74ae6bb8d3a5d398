from pathlib import Path

import pytest

from deident.core import ConfigurationError, InputFormatError
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.io import read_corpus, write_corpus
from deident.io.plaintext import iter_text_corpus, read_text_corpus, write_text_corpus


def test_folder_round_trip_with_sidecar(tricky, key, tmp_path: Path):
    write_text_corpus(tricky, tmp_path / "out")
    assert (tmp_path / "out" / "spans.jsonl").exists()
    assert (tmp_path / "out" / "7_1.txt").read_bytes() == tricky[0].text.encode()
    back = read_corpus(tmp_path / "out")
    assert key(back) == key(tricky)
    assert [d.document.metadata for d in back] == [d.document.metadata for d in tricky]


def test_folder_without_sidecar_is_text_only(tmp_path: Path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.txt").write_bytes(b"two\r\n")
    (tmp_path / "b" / "10.txt").write_text("ten")
    (tmp_path / "a.txt").write_text("Zoë")
    docs = read_corpus(tmp_path)
    assert [(d.id, d.text, d.spans) for d in docs] == [("a", "Zoë", ()), ("b/2", "two\r\n", ()), ("b/10", "ten", ())]


def test_single_file(tricky, key, tmp_path: Path):
    write_corpus(tricky[:1], tmp_path / "one.txt")
    assert (tmp_path / "one.spans.jsonl").exists()
    assert key(read_corpus(tmp_path / "one.txt")) == key(tricky[:1])
    (tmp_path / "bare.txt").write_text("just text\n")
    (doc,) = read_corpus(tmp_path / "bare.txt")
    assert doc.id == "bare" and doc.text == "just text\n"


def test_single_file_needs_one_document(tricky, tmp_path: Path):
    with pytest.raises(ConfigurationError, match="one document"):
        write_text_corpus(tricky, tmp_path / "many.txt")


def test_unsafe_id_is_refused(tmp_path: Path, tricky):
    from dataclasses import replace

    from deident.core.document import AnnotatedDocument

    bad = AnnotatedDocument(replace(tricky[0].document, id="../escape"), ())
    with pytest.raises(ConfigurationError, match="file name"):
        write_text_corpus([bad], tmp_path / "out")


def test_sidecar_naming_unknown_document(tmp_path: Path):
    (tmp_path / "a.txt").write_text("Kim")
    (tmp_path / "spans.jsonl").write_text('{"id": "a", "spans": []}\n{"id": "zz", "spans": []}\n')
    with pytest.raises(InputFormatError, match=r"spans.jsonl, line 2"):
        read_text_corpus(tmp_path)


def test_bad_encoding_names_byte(tmp_path: Path):
    (tmp_path / "x.txt").write_bytes(b"ok \xff")
    with pytest.raises(InputFormatError, match=r"x.txt, byte 3"):
        read_corpus(tmp_path / "x.txt")


def test_a_byte_order_mark_is_not_text_and_is_written_again(tmp_path: Path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_bytes(b"\xef\xbb\xbfwith mark")
    (folder / "b.txt").write_bytes(b"without")
    docs = read_corpus(folder)
    assert [d.text for d in docs] == ["with mark", "without"]
    write_corpus(docs, tmp_path / "out", "text")
    assert (tmp_path / "out" / "a.txt").read_bytes() == b"\xef\xbb\xbfwith mark"
    assert (tmp_path / "out" / "b.txt").read_bytes() == b"without"


def test_a_folder_is_read_one_file_at_a_time_in_the_sidecars_order(tmp_path: Path):
    docs = [AnnotatedDocument(Document(name, f"note {name}", DocumentMetadata(patient_id="7"))) for name in "cab"]
    write_text_corpus(iter(docs), tmp_path / "notes")
    (tmp_path / "notes" / "b.txt").write_bytes(b"\xff not utf-8")
    found = iter_text_corpus(tmp_path / "notes")
    assert [next(found).id, next(found).id] == ["c", "a"]  # before the bad file is opened
    with pytest.raises(InputFormatError, match=r"b\.txt, byte 0: not valid utf-8"):
        next(found)


def test_a_utf16_file_read_as_utf8_is_refused_with_the_encoding_to_give(tmp_path: Path):
    (tmp_path / "note.txt").write_bytes("Dr. Quorvane saw pt".encode("utf-16"))
    with pytest.raises(InputFormatError, match=r"note\.txt, byte 0: .*utf-16 byte order mark; give --encoding utf-16"):
        read_text_corpus(tmp_path / "note.txt")
    (doc,) = read_text_corpus(tmp_path / "note.txt", encoding="utf-16")
    assert doc.text == "Dr. Quorvane saw pt"


@pytest.mark.parametrize("refused_at", [1, 2])
def test_a_refused_note_leaves_nothing_in_the_folder(tmp_path: Path, refused_at: int):
    """A streamed write that stops at a note the format cannot hold (a lone surrogate) leaves no folder and no
    staging folder behind, whichever note it stops at (the notes before it were already written)."""
    texts = ["Seen on 3/4.", "Seen on 3/5."]
    texts.insert(refused_at - 1, "\ud800")
    docs = [
        AnnotatedDocument(Document(f"7_{n}", text, DocumentMetadata("7", str(n))), ())
        for n, text in enumerate(texts, start=1)
    ]
    target = tmp_path / "out"
    with pytest.raises(ConfigurationError, match=rf"^note {refused_at}: "):
        write_corpus(docs, target, "text")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []
