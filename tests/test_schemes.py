import pytest

from deident.core import Document, Label, Span
from deident.core.errors import ConfigurationError
from deident.schemes import DEFAULT_SCHEME, SchemeStage, get_scheme, output_scheme

TEXT = "58 yo man, 91 yo mother; seen Monday 3/4; nurse Anna; Christmas; a fifty-eight, a ninety-one year old"


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
        ("hipaa", "fifty-eight", Label.AGE, False),  # ages written in words are compared with the limit too
        ("hipaa", "ninety-one", Label.AGE, True),
        ("physionet", "fifty-eight", Label.AGE, False),
        ("i2b2-2014", "fifty-eight", Label.AGE, True),
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


FACILITY_TEXT = (
    "From Holy Cross Hospital: to GH EW, then Greater Baltimore Med Ctr. Hospital: none. Ohio, Peru. "
    "Seen in the cardiology clinic, then Sleep Medicine Unit, then Todd Hematology Center and Bigelow 12. "
    "Ask for Infectious Disease Associates or PAIN MANAGEMENT DEPT at Okafor Pain Management Center."
)


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
        # a department named by its specialty alone names no facility; one with a name keeps the name
        ("physionet", "the cardiology clinic", Label.DEPARTMENT, None),
        ("physionet", "cardiology clinic", Label.LOCATION_OTHER, None),
        ("physionet", "Sleep Medicine Unit", Label.DEPARTMENT, None),
        ("physionet", "Infectious Disease Associates", Label.DEPARTMENT, None),
        ("physionet", "PAIN MANAGEMENT DEPT", Label.HOSPITAL, None),
        ("physionet", "Todd Hematology Center", Label.DEPARTMENT, "Todd Hematology"),
        ("physionet", "Okafor Pain Management Center", Label.HOSPITAL, "Okafor Pain Management"),
        ("physionet", "Bigelow 12", Label.DEPARTMENT, "Bigelow 12"),
        ("physionet", "Sleep Medicine Unit", Label.PATIENT, "Sleep Medicine Unit"),  # not a facility label
        ("hipaa", "the cardiology clinic", Label.DEPARTMENT, "the cardiology clinic"),
        ("i2b2-2014", "Todd Hematology Center", Label.DEPARTMENT, "Todd Hematology Center"),
        ("physionet", "Ohio", Label.STATE, None),
        ("physionet", "Peru", Label.COUNTRY, None),
        ("i2b2-2014", "Holy Cross Hospital", Label.HOSPITAL, "Holy Cross Hospital"),
        ("i2b2-2014", "Hospital:", Label.HOSPITAL, "Hospital:"),
        ("i2b2-2014", "Ohio", Label.STATE, "Ohio"),
        ("hipaa", "Holy Cross Hospital", Label.HOSPITAL, "Holy Cross Hospital"),  # the whole name
        ("hipaa", "Ohio", Label.STATE, "Ohio"),
        ("hipaa", "Peru", Label.COUNTRY, "Peru"),
        ("hipaa", "Holy Cross Hospital:", Label.LOCATION_OTHER, "Holy Cross Hospital:"),
        ("hipaa", "GH EW", Label.HOSPITAL, "GH EW"),
        ("hipaa", "Greater Baltimore Med Ctr.", Label.HOSPITAL, "Greater Baltimore Med Ctr."),
        ("hipaa", "Greater Baltimore Med Ctr.", Label.ORGANIZATION, "Greater Baltimore Med Ctr."),
    ],
)
def test_scheme_facility_names_states_countries(scheme, piece, label, expected):
    start = FACILITY_TEXT.index(piece)
    span = Span(start, start + len(piece), label)
    got = SchemeStage(get_scheme(scheme))(Document("d", FACILITY_TEXT), (span,))
    assert [FACILITY_TEXT[s.start : s.end] for s in got] == ([] if expected is None else [expected])


HEAD_TEXT = (
    "adm from fall river hospital; to st. david's rehabilitation hospital; call el segundo king regional medical "
    "center; bypass at corona rehab center; TO REDONDO BEACH HOSPITAL; from boston by car; to kelbury ward."
)


@pytest.mark.parametrize(
    ("scheme", "piece", "label", "expected", "expected_label"),
    [
        # a convention that keeps heads takes the head after a facility's name (detectors trained on PhysioNet's,
        # which leaves heads out, stop before it); a place named with a hospital's head is the hospital
        ("hipaa", "fall river", Label.LOCATION_OTHER, "fall river hospital", Label.HOSPITAL),
        ("i2b2-2014", "st. david's rehabilitation", Label.HOSPITAL, "st. david's rehabilitation hospital", None),
        ("hipaa", "el segundo king regional", Label.ORGANIZATION, "el segundo king regional medical center", None),
        ("hipaa", "corona rehab", Label.HOSPITAL, "corona rehab center", None),
        ("hipaa", "REDONDO BEACH", Label.LOCATION_OTHER, "REDONDO BEACH HOSPITAL", Label.HOSPITAL),
        ("hipaa", "boston", Label.LOCATION_OTHER, "boston", Label.LOCATION_OTHER),  # no head follows
        ("hipaa", "kelbury", Label.LOCATION_OTHER, "kelbury", Label.LOCATION_OTHER),
        ("hipaa", "fall river", Label.PATIENT, "fall river", Label.PATIENT),  # not a facility label
        ("physionet", "fall river", Label.LOCATION_OTHER, "fall river", Label.LOCATION_OTHER),  # heads left out
    ],
)
def test_scheme_that_keeps_heads_takes_the_head_after_a_facility(
    scheme: str, piece: str, label: Label, expected: str, expected_label: Label | None
) -> None:
    start = HEAD_TEXT.index(piece)
    got = SchemeStage(get_scheme(scheme))(Document("d", HEAD_TEXT), (Span(start, start + len(piece), label),))
    assert [(HEAD_TEXT[s.start : s.end], s.label) for s in got] == [(expected, expected_label or label)]


AGE_TEXT = "aged 89; age 90; a 45-year-old; 103 yo; 89.5 years; ninety-two; 0 months; 120 yo"


@pytest.mark.parametrize(
    ("piece", "kept"),
    [
        ("aged 89", False),  # 89 and under: HIPAA lets them stay
        ("45-year-old", False),
        ("89.5 years", False),
        ("0 months", False),
        ("age 90", True),  # 90 and over are identifiers
        ("103 yo", True),
        ("120 yo", True),
        ("ninety-two", True),  # written in words: read as the number it spells
    ],
)
def test_hipaa_scheme_keeps_ages_of_90_and_over_only(piece: str, kept: bool) -> None:
    start = AGE_TEXT.index(piece)
    span = Span(start, start + len(piece), Label.AGE)
    assert (SchemeStage(get_scheme("hipaa"))(Document("d", AGE_TEXT), (span,)) == (span,)) is kept


@pytest.mark.parametrize("label", list(Label))
def test_hipaa_scheme_counts_every_label_i2b2_2014_marks(label: Label) -> None:
    text = "Greenhollow 3/4/2019"
    span = Span(0, len("Greenhollow"), label)
    assert SchemeStage(get_scheme("hipaa"))(Document("d", text), (span,)) == (span,)


@pytest.mark.parametrize(
    ("requested", "site_default", "expected"),
    [
        (None, None, "hipaa"),  # the users' default, whatever the model was trained under
        (None, "physionet", "physionet"),  # a site configuration's default
        ("physionet", None, "physionet"),  # asked for: scoring the PhysioNet corpus
        ("i2b2-2014", "physionet", "i2b2-2014"),  # the caller's choice wins over the site's
    ],
)
def test_output_scheme(requested: str | None, site_default: str | None, expected: str) -> None:
    assert output_scheme(requested, site_default) == expected


def test_default_scheme_is_hipaa() -> None:
    assert DEFAULT_SCHEME == "hipaa" and get_scheme(DEFAULT_SCHEME).max_unreported_age == 89
