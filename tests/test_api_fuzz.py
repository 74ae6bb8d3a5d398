"""Fuzzing the facade (hypothesis): random Unicode, control characters, very long tokens and note templates with
invented PHI (and invisible characters) go through ``Deidentifier`` (detect, then deidentify in tag and surrogate
modes). Whatever the input: no exception, every span inside its text, the same output twice. Kept small for CI
(a few dozen examples per property); ``bench/fuzz_large.py`` runs the same checks on 10^5 inputs."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deident.api import Deidentifier
from deident.core.document import Document, DocumentMetadata
from deident.core.span import Span
from deident.replace import Mode, SecretKey
from deident.synth.fuzz import CONTROL, TEMPLATES
from deident.synth.fuzz import NAMES as FUZZ_NAMES

KEY = SecretKey.from_text("fuzz-test-key-000000000001")
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)

NAMES = st.sampled_from(FUZZ_NAMES)
DATES = st.builds(lambda m, d, y: f"{m}/{d}/{y}", st.integers(1, 12), st.integers(1, 31), st.integers(1900, 2100))
DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=12)
VALUES = {
    "name": NAMES,
    "date": DATES | st.text(alphabet="0123456789/-.", max_size=12),
    "mrn": DIGITS,
    "phone": st.builds(lambda a, b, c: f"{a}-{b}-{c}", DIGITS, DIGITS, DIGITS),
    "email": st.builds(
        lambda u, d: f"{u}@{d}.org", st.text(alphabet="abcxyz._", min_size=1), st.text("abc", min_size=1)
    ),
    "age": st.integers(0, 130).map(str),
    "zip": DIGITS,
}


@st.composite
def injected(draw: st.DrawFn, value: st.SearchStrategy[str]) -> str:
    """A value with invisible or control characters put inside it (sometimes)."""
    text = draw(value)
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(CONTROL)) + text[at:]
    return text


@st.composite
def template_notes(draw: st.DrawFn) -> str:
    template = draw(st.sampled_from(TEMPLATES))
    values = {name: draw(injected(strategy)) for name, strategy in VALUES.items()}
    return template.format(**values)


NOTES = (
    st.text(max_size=300)
    | st.text(alphabet=CONTROL + "ab 1/-.:\n", max_size=200)
    | st.builds(lambda c, n, pad: pad + c * n + pad, st.characters(), st.integers(500, 20_000), st.text(max_size=20))
    | st.builds(lambda w: f"Dr {w} seen", st.text(alphabet="abcdefghij0123456789", min_size=2_000, max_size=8_000))
    | template_notes()
)


@pytest.fixture(scope="module")
def deid() -> Deidentifier:
    return Deidentifier.load()


def _rows(spans: tuple[Span, ...]) -> list[tuple[object, ...]]:
    return [(s.start, s.end, s.label, s.source, s.score, s.evidence, s.parts, s.confirmed) for s in spans]


def _inside(spans: tuple[Span, ...], text: str) -> bool:
    return all(0 <= s.start < s.end <= len(text) for s in spans)


@FUZZ
@given(text=NOTES)
def test_detect_never_fails_and_is_deterministic(deid: Deidentifier, text: str) -> None:
    spans = deid.detect(text)
    assert _inside(spans, text)
    assert _rows(deid.detect(text)) == _rows(spans)


@FUZZ
@given(texts=st.lists(NOTES, min_size=1, max_size=4), mode=st.sampled_from([Mode.TAG, Mode.SURROGATE]))
def test_deidentify_never_fails_and_is_deterministic(deid: Deidentifier, texts: list[str], mode: Mode) -> None:
    notes = [Document(f"n{i}", text, DocumentMetadata(patient_id="p1")) for i, text in enumerate(texts)]
    results = deid.deidentify_many(notes, mode=mode, key=KEY)
    again = deid.deidentify_many(notes, mode=mode, key=KEY)
    for note, result, repeat in zip(notes, results, again, strict=True):
        assert _inside(result.detected, note.text) and _inside(result.spans, result.text)
        assert result.text == repeat.text and _rows(result.spans) == _rows(repeat.spans)
