import pytest

from deident.core import Document, Label, Span
from deident.core.errors import ConfigurationError
from deident.schemes import SchemeStage, get_scheme

TEXT = "58 yo man, 91 yo mother; seen Monday 3/4; nurse Anna; Christmas"


def _span(word: str, label: Label) -> Span:
    start = TEXT.index(word)
    return Span(start, start + len(word), label)


@pytest.mark.parametrize(
    ("scheme", "word", "label", "kept"),
    [
        ("i2b2-2014", "58 yo", Label.AGE, True),
        ("physionet", "58 yo", Label.AGE, False),
        ("physionet", "91 yo", Label.AGE, True),
        ("hipaa-identifiers", "58 yo", Label.AGE, False),
        ("i2b2-2014", "Monday", Label.DATE, True),
        ("physionet", "Monday", Label.DATE, False),
        ("physionet", "Christmas", Label.DATE, False),
        ("physionet", "3/4", Label.DATE, True),
        ("physionet", "nurse", Label.PROFESSION, False),
        ("i2b2-2014", "nurse", Label.PROFESSION, True),
        ("hipaa-identifiers", "Anna", Label.DOCTOR, False),
        ("hipaa-identifiers", "Anna", Label.RELATIVE, True),
        ("hipaa", "58 yo", Label.AGE, False),
        ("hipaa", "91 yo", Label.AGE, True),
        ("hipaa", "Monday", Label.DATE, True),
        ("hipaa", "nurse", Label.PROFESSION, True),
        ("hipaa", "Anna", Label.DOCTOR, True),
    ],
)
def test_scheme_keeps(scheme, word, label, kept):
    stage = SchemeStage(get_scheme(scheme))
    span = _span(word, label)
    assert (stage(Document("d", TEXT), (span,)) == (span,)) is kept


def test_old_safe_harbor_scheme_name_warns_once(monkeypatch):
    """Safe Harbor is the replacement mode; the scheme of its identifiers has its own name."""
    import warnings

    from deident import schemes

    monkeypatch.setattr(schemes, "_WARNED", set())
    with pytest.warns(FutureWarning, match="hipaa-identifiers"):
        scheme = get_scheme("safe-harbor")
    assert scheme is get_scheme("hipaa-identifiers")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert get_scheme("safe-harbor") is scheme  # a pipeline asks once per stage: one warning is enough


def test_unknown_scheme():
    with pytest.raises(ConfigurationError):
        get_scheme("nope")


FACILITY_TEXT = "From Holy Cross Hospital: to GH EW, then Greater Baltimore Med Ctr. Hospital: none. Ohio, Peru."


@pytest.mark.parametrize(
    ("scheme", "piece", "label", "expected"),
    [
        ("physionet", "Holy Cross Hospital", Label.HOSPITAL, "Holy Cross"),
        ("physionet", "Holy Cross Hospital:", Label.LOCATION_OTHER, "Holy Cross"),
        ("physionet", "GH EW", Label.HOSPITAL, "GH"),
        ("physionet", "Greater Baltimore Med Ctr.", Label.HOSPITAL, "Greater Baltimore"),
        ("physionet", "Hospital:", Label.HOSPITAL, None),
        ("physionet", "Holy Cross", Label.HOSPITAL, "Holy Cross"),
        ("physionet", "Holy Cross Hospital", Label.PATIENT, "Holy Cross Hospital"),  # not a facility label
        ("physionet", "Ohio", Label.STATE, None),
        ("physionet", "Peru", Label.COUNTRY, None),
        ("i2b2-2014", "Holy Cross Hospital", Label.HOSPITAL, "Holy Cross Hospital"),
        ("i2b2-2014", "Hospital:", Label.HOSPITAL, "Hospital:"),
        ("i2b2-2014", "Ohio", Label.STATE, "Ohio"),
        ("hipaa", "Holy Cross Hospital", Label.HOSPITAL, "Holy Cross Hospital"),  # the whole name
        ("hipaa", "Ohio", Label.STATE, "Ohio"),
        ("hipaa", "Peru", Label.COUNTRY, "Peru"),
    ],
)
def test_scheme_facility_names_states_countries(scheme, piece, label, expected):
    start = FACILITY_TEXT.index(piece)
    span = Span(start, start + len(piece), label)
    got = SchemeStage(get_scheme(scheme))(Document("d", FACILITY_TEXT), (span,))
    assert [FACILITY_TEXT[s.start : s.end] for s in got] == ([] if expected is None else [expected])
