"""The per-note view: each reading equals its plain function, is computed once, and is shared by identity only."""

from __future__ import annotations

from deident.core.document import Document
from deident.text.case import CaseMode, CaseProfile, case_mode, upper_fraction
from deident.text.normalise import normalise
from deident.text.note_view import NoteView, note_view, note_views
from deident.text.sections import default_sections

TEXT = "HISTORY: Seen by Dr Zyxwerth.\nPLAN: CALL ÉMILE AT HOME; naïve ΣΑΣ."


def test_readings_equal_their_functions() -> None:
    view = NoteView(TEXT)
    assert view.normalised == normalise(TEXT)
    assert view.sections == default_sections(TEXT)
    assert view.case == CaseProfile.of(TEXT)
    assert view.case.case_mode() is case_mode(TEXT)
    assert view.case.upper_fraction() == upper_fraction(TEXT)
    assert repr(view) == f"NoteView(chars={len(TEXT)})"  # never the text


def test_readings_are_computed_once() -> None:
    view = NoteView(TEXT)
    assert view.normalised is view.normalised
    assert view.sections is view.sections
    assert view.case is view.case
    calls: list[int] = []

    def build(v: NoteView) -> int:
        calls.append(1)
        return len(v.text)

    assert view.derived(build) == view.derived(build) == len(TEXT)
    assert calls == [1]


def test_views_are_shared_inside_a_block_and_by_document_identity() -> None:
    doc = Document("a", TEXT)
    twin = Document("a", TEXT)  # equal, but another object
    assert note_view(doc) is not note_view(doc)  # outside a block: fresh views
    with note_views([doc]):
        view = note_view(doc)
        assert note_view(doc) is view
        assert note_view(twin) is not view
        with note_views([doc, twin]):  # nested: the enclosing block's view is kept
            assert note_view(doc) is view
            assert note_view(twin) is note_view(twin)
        assert note_view(doc) is view
    assert note_view(doc) is not view


def test_case_modes() -> None:
    assert case_mode("ALL CAPS NOTE") is CaseMode.UPPER
    assert case_mode("all lower case note") is CaseMode.LOWER
    assert case_mode("A Mixed note") is CaseMode.MIXED
    assert case_mode("1234") is CaseMode.MIXED


def _crf_doc_case_reference(text: str) -> str:
    """The CRF's document case as first written: ASCII letters counted on the UTF-8 bytes."""
    data = text.encode("utf-8", "surrogatepass")
    upper = len(data) - len(data.translate(None, bytes(range(65, 91))))
    lower = len(data) - len(data.translate(None, bytes(range(97, 123))))
    if upper + lower == 0:
        return "NONE"
    return "UP" if upper / (upper + lower) > 0.8 else "LO" if lower / (upper + lower) > 0.97 else "MX"


def test_ascii_case_equals_the_crf_reference() -> None:
    texts = [TEXT, TEXT.upper(), TEXT.lower(), "", "123 ÉÉÉ", "a\ud800B", "Émile ÉMILE émile", "ABCDe" * 9]
    for text in texts:
        assert CaseProfile.of(text).ascii_case() == _crf_doc_case_reference(text), repr(text)


def _window_case_reference(text: str, start: int) -> str:
    """The name patterns' window case as first written (ASCII letters of the window, counted on its bytes)."""
    raw = text[max(0, start - 160) : start + 160].encode("ascii", "ignore")
    upper = len(raw) - len(raw.translate(None, bytes(range(65, 91))))
    lower = len(raw) - len(raw.translate(None, bytes(range(97, 123))))
    if upper + lower == 0:
        return "mixed"
    return "upper" if upper > 3 * lower else "lower" if upper * 40 < lower else "mixed"


def test_window_case_equals_the_reference() -> None:
    from deident.text.case import window_case

    text = "a" * 200 + "B" * 300 + "Émile ÉMILE" + "c" * 50 + "123" * 90 + "Dd" * 40
    for start in range(0, len(text) + 1, 7):
        assert window_case(text, start) == _window_case_reference(text, start), start
