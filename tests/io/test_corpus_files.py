from pathlib import Path

import pytest

from deident.core import ConfigurationError
from deident.io.corpus_files import file_for_id, folder_files, metadata_from_id, natural_key, not_valid


def test_natural_order():
    ids = ["10_1", "2_1", "1_10", "1_2", "b/1", "a", "01_1", "1_1"]
    assert sorted(ids, key=natural_key) == ["01_1", "1_1", "1_2", "1_10", "2_1", "10_1", "a", "b/1"]


def test_folder_files_ids_are_relative_paths(tmp_path: Path):
    (tmp_path / "s").mkdir()
    for name in ("s/2.txt", "s/10.txt", "1.txt", ".hidden.txt", "x.ann"):
        (tmp_path / name).write_text("")
    assert [doc_id for doc_id, _ in folder_files(tmp_path, ".txt")] == ["1", "s/2", "s/10"]


@pytest.mark.parametrize("doc_id", ["", "../x", "/abs", "a/../../b", "a\\b", "."])
def test_unsafe_ids_are_refused(tmp_path: Path, doc_id: str):
    with pytest.raises(ConfigurationError):
        file_for_id(tmp_path, doc_id, ".txt")


def test_file_for_id_keeps_dots_and_folders(tmp_path: Path):
    assert file_for_id(tmp_path, "a/b.c", ".xml") == tmp_path / "a" / "b.c.xml"


@pytest.mark.parametrize(
    ("doc_id", "patient", "note"),
    [("12_3", "12", "3"), ("a_b_7", "a_b", "7"), ("plain", None, None), ("_3", None, None), ("d/1_2", None, None)],
)
def test_metadata_from_id(doc_id: str, patient: str | None, note: str | None):
    meta = metadata_from_id(doc_id)
    assert (meta.patient_id, meta.note_id) == (patient, note)


@pytest.mark.parametrize(
    ("encoding", "head", "announced"),
    [
        ("utf-8", "Dr".encode("utf-16"), "utf-16"),  # the platform's order, with its mark
        ("utf-8", b"\xfe\xff" + "Dr".encode("utf-16-be"), "utf-16"),
        ("utf-8", "Dr".encode("utf-32"), "utf-32"),  # its little-endian mark begins with UTF-16's
        ("latin-1", b"\xff\xfeD\x00", "utf-16"),
    ],
)
def test_a_decoding_problem_names_the_encoding_a_byte_order_mark_announces(encoding: str, head: bytes, announced: str):
    problem = f"not valid {encoding}: it begins with a {announced} byte order mark"
    assert not_valid(encoding, head[:4]) == f"{problem}; give --encoding {announced}"
    assert not_valid(encoding, head[:4], encoding_option=False) == f"{problem}; convert it to UTF-8"


@pytest.mark.parametrize(
    ("encoding", "head"), [("utf-8", b"\xff not"), ("utf-8", b"\xef\xbb\xbfDr"), ("utf-16", b"\xff\xfeD\x00")]
)
def test_no_byte_order_mark_of_another_encoding_no_hint(encoding: str, head: bytes):
    assert not_valid(encoding, head) == f"not valid {encoding}"
