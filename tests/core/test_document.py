import datetime as dt

import pytest

from deident.core import AnnotatedDocument, Document, DocumentMetadata, KnownIdentifiers, Label, Span


def test_repr_hides_text_and_known_identifiers():
    meta = DocumentMetadata(patient_id="7", known=KnownIdentifiers(names=("Jane Roe",), mrns=("1234567",)))
    doc = Document("d1", "Jane Roe was admitted", meta)
    assert "Jane" not in repr(doc)
    assert "1234567" not in repr(meta)


def test_metadata_round_trip():
    meta = DocumentMetadata(
        patient_id="p",
        note_id="n",
        author="u",
        thread="t",
        note_date=dt.date(2020, 1, 2),
        known=KnownIdentifiers(names=("A B",)),
        extra=(("k", "v"),),
    )
    assert DocumentMetadata.from_dict(meta.as_dict()) == meta


def test_annotated_document_checks_bounds_and_sorts():
    doc = Document("d", "abcdef")
    with pytest.raises(ValueError):
        AnnotatedDocument(doc, (Span(2, 9, Label.DATE),))
    item = AnnotatedDocument(doc, (Span(3, 4, Label.DATE), Span(0, 1, Label.AGE)))
    assert [s.start for s in item.spans] == [0, 3]


@pytest.mark.parametrize(
    ("patients", "expected"),
    [
        ([], []),
        (["1", "2", "1", None, "2", None], [(0, 2), (1, 4), (3,), (5,)]),
        ([None, None], [(0,), (1,)]),
        ([None, "0", "0"], [(0,), (1, 2)]),  # patient "0" is not the note at position 0
        (["b", "a", "a", "b"], [(0, 3), (1, 2)]),
    ],
)
def test_patient_groups_in_order_of_first_appearance(patients, expected):
    from deident.core.document import patient_groups

    docs = [Document(f"d{i}", "", DocumentMetadata(patient_id=p)) for i, p in enumerate(patients)]
    assert patient_groups(docs) == expected


def test_patient_groups_by_a_training_key() -> None:
    from deident.core.document import patient_groups, patient_or_note

    patients = ["1", "", None, "1", None]
    docs = [Document(f"d{i}", "", DocumentMetadata(patient_id=p)) for i, p in enumerate(patients)]
    assert [patient_or_note(d) for d in docs] == ["1", "d1", "d2", "1", "d4"]  # an empty id is no patient
    assert patient_groups(docs, patient_or_note) == [(0, 3), (1,), (2,), (4,)]
    assert patient_groups(docs, lambda d: "all") == [(0, 1, 2, 3, 4)]
    assert patient_groups(docs) == [(0, 3), (1,), (2,), (4,)]  # "" is a patient id of its own here


@pytest.mark.parametrize(
    ("patients", "size", "expected"),
    [
        ([], 3, []),
        (["1", "2", "1", None, "2", None], 2, [(0, 2), (1, 4), (3, 5)]),
        (["1", "2", "1", None, "2", None], 4, [(0, 2, 1, 4), (3, 5)]),
        (["1", "2", "1", None, "2", None], 100, [(0, 2, 1, 4, 3, 5)]),
        (["a", "a", "a", "b"], 2, [(0, 1, 2), (3,)]),  # a patient is never split, even past the size
        ([None, None, None], 1, [(0,), (1,), (2,)]),
    ],
)
def test_patient_chunks_keep_each_patient_whole(patients, size, expected):
    from deident.core.document import patient_chunks

    docs = [Document(f"d{i}", "", DocumentMetadata(patient_id=p)) for i, p in enumerate(patients)]
    assert patient_chunks(docs, size) == expected


def test_patient_chunks_need_a_positive_size():
    from deident.core.document import patient_chunks

    with pytest.raises(ValueError, match="at least 1"):
        patient_chunks([], 0)
