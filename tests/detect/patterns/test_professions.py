"""PROFESSION pattern table: occupations after occupation triggers; clinical staff words are not professions."""

from __future__ import annotations

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.detect.patterns import combined_pattern_detector, pattern_detectors
from deident.detect.patterns.professions import normalise_job, occupation_lexicon, profession_detector

from .helpers import Case, check_negative, check_positive, params

P = Label.PROFESSION
POSITIVES: list[Case] = [
    # after the age (and sex) of a note's first line or a post's introduction
    ("The patient is a 87 year old welder from Kent, WA with", "welder", Label.PROFESSION),
    ("ID/CC: 82 years F, janitor, self-referred for", "janitor", Label.PROFESSION),
    ("ID/CC: 17 yo girl, cashier, brought in by", "cashier", Label.PROFESSION),
    # a header's age and sex written together, then the occupation
    ("ID/CC: 72 F, freight forwarder, self-referred for worsening mood", "freight forwarder", Label.PROFESSION),
    ("ID/CC: age 35 M, forklift operator, self-referred", "forklift operator", Label.PROFESSION),
    ("ID/CC: 64 female, pharmacist, referred by GP", "pharmacist", Label.PROFESSION),
    ("22y/o F, fisherman, self-referred", "fisherman", Label.PROFESSION),
    ("i'm 48, a plumber from south portland", "plumber", Label.PROFESSION),
    # An occupation of the lexicon after "retired", "former", "formerly a", "previously a", "career as a", "job as a".
    ("Pt is a retired teacher, lives with wife", "teacher", P),
    ("RETIRED ARTS ADMINISTRATOR, LIVES ALONE", "ARTS ADMINISTRATOR", P),
    ("Retired iron worker. Stopped smoking in 1990", "iron worker", P),
    ("retired school bus driver, lives with daughter", "school bus driver", P),
    ("retired RN, very knowledgeable about her meds", "RN", P),
    ("former marine, quit smoking 1990", "marine", P),
    ("formerly a chef in a hotel kitchen", "chef", P),
    ("previously a nurse's aide at a nursing home", "nurse's aide", P),
    ("had a long career as a musician", "musician", P),
    ("got a job as a mail carrier last spring", "mail carrier", P),
    # After "is a"/"was a": said of a person, or followed by "at"/"for".
    ("wife is a nurse. will visit tomorrow", "nurse", P),
    ("Husband is a truck driver, away this week", "truck driver", P),
    ("son, who is a lawyer at a firm downtown", "lawyer", P),
    ("pt was an accountant for a bank", "accountant", P),
    ("Her partner (the patient's father) is a plumber in town", "plumber", P),
    ("I'm a plumber, he told the team", "plumber", P),
    ("i am a carpenter by trade", "carpenter", P),
    # Strong triggers: the lexicon, a care staff abbreviation, or an open phrase ending in an agent noun.
    ("works as a crane operator at the port", "crane operator", P),
    ("he works as an RN at another hospital", "RN", P),
    ("worked as a machinist for 30 years", "machinist", P),
    ("worked 15 years as a longshoreman. smokes", "longshoreman", P),
    ("works nights as a security guard at the mall", "security guard", P),
    ("Works as a part-time cashier.", "cashier", P),
    ("EMPLOYED AS A WELDER UNTIL 2010", "WELDER", P),
    ("daughter works as a dental hygienist in town", "dental hygienist", P),
    ("works as a paralegal at a law firm", "paralegal", P),
    ("both parents worked as farmers", "farmers", P),
    ("Occupation: retired postal worker", "postal worker", P),
    ("Profession: software engineer", "software engineer", P),
    ("Occupation: boat restorer; lives on the shore", "boat restorer", P),
    ("works as a secretary/administrator at a school", "secretary/administrator", P),
]
NEGATIVES: list[Case] = [
    ("a 90 year old man admitted from home", None, None),
    ("65 yo male smoker, 40 pack years", None, None),
    ("Pt is 72 F, afebrile, comfortable; walked 5 m, nurse assisted", None, None),
    ("smoked for 30 years teacher said", "teacher", Label.PROFESSION),  # "years" with neither "old" nor a sex
    # Clinical staff of the note itself: no occupation trigger.
    ("RN aware of pt status", None, None),
    ("nurse aware, will monitor", None, None),
    ("MD notified of low BP", None, None),
    ("per resident, hold lasix tonight", None, None),
    ("social worker consulted re: placement", None, None),
    ("seen by PT today, ambulated in hall", None, None),
    ("per RN, pt resting comfortably", None, None),
    ("physician at bedside, nurse practitioner aware", None, None),
    # Triggers that name no occupation here.
    ("retired to bed at 2200", None, None),
    ("pt retired for the night", None, None),
    ("former smoker, quit 10 yrs ago", None, None),
    ("his former surgeon called with results", None, None),
    ("there is a nurse at bedside at all times", None, None),
    ("Dr. Smith is a surgeon at the university", None, None),
    ("pt was a driver in MVC, restrained", None, None),
    ("daughter is an interpreter for pt", None, None),
    ("pt is a 65 yo man with CHF", None, None),
    ("this is a nurse-driven protocol", None, None),
    ("works as a team to turn pt q2h", None, None),
    ("lasix works as a diuretic", None, None),
    ("Occupation: unemployed", None, None),
    ("she was a pleasure to care for", None, None),
    ("pt is a full code", None, None),
]
CASE_VARIANTS = [(t.upper(), e.upper(), lab) for t, e, lab in POSITIVES if e is not None] + [
    (t.lower(), e.lower(), lab) for t, e, lab in POSITIVES if e is not None
]
NEGATIVE_VARIANTS = [(t.upper(), e, lab) for t, e, lab in NEGATIVES] + [(t.lower(), e, lab) for t, e, lab in NEGATIVES]
HARD: list[Case] = [
    # Modifiers before an occupation are kept only after the strong triggers ("works as", "occupation:").
    ("she is a high school science teacher", "high school science teacher", P),
]
KNOWN_FAILURES = frozenset({("she is a high school science teacher", "high school science teacher")})


@pytest.mark.parametrize(("text", "expected", "label"), params(POSITIVES + CASE_VARIANTS + HARD, KNOWN_FAILURES))
def test_finds_professions(text: str, expected: str, label: Label) -> None:
    check_positive(profession_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "forbidden", "label"), params(NEGATIVES + NEGATIVE_VARIANTS))
def test_ignores_non_professions(text: str, forbidden: str | None, label: Label | None) -> None:
    check_negative(profession_detector(), text, forbidden, label)


def test_spans_are_sourced_professions_that_do_not_hold_their_text() -> None:
    text = "Pt is a retired teacher; wife works as a crane operator at the port. Occupation: welder."
    spans = profession_detector().detect(Document("t", text))
    assert [text[s.start : s.end] for s in spans] == ["teacher", "crane operator", "welder"]
    for span in spans:
        assert span.label is Label.PROFESSION
        assert span.source == "patterns.profession"
        assert span.evidence[0].startswith("pattern:profession.")
        assert span.score is not None and 0.0 < span.score <= 1.0
        assert text[span.start : span.end] not in repr(span)


def test_lexicon_scores_above_open_phrases() -> None:
    text = "works as a welder. occupation: boat restorer"
    scores = {text[s.start : s.end]: s.score for s in profession_detector().detect(Document("t", text))}
    assert scores == {"welder": 0.6, "boat restorer": 0.5}


def test_registered_last_among_the_pattern_detectors() -> None:
    assert pattern_detectors()[-1].name == "patterns.profession"
    text = "Retired teacher, RN aware."
    spans = combined_pattern_detector().detect(Document("t", text))
    assert [(text[s.start : s.end], s.source) for s in spans if s.label is Label.PROFESSION] == [
        ("teacher", "patterns.profession")
    ]


@pytest.mark.parametrize(
    ("job", "phrases"),
    [
        ("Engineer, civil (consulting)", ("civil engineer",)),
        ("Scientist, research (medical)", ("research scientist",)),
        ("Accountant, chartered certified", ("chartered certified accountant",)),
        ("Secretary/administrator", ("administrator", "secretary", "secretary/administrator")),
        ("Teacher", ("teacher",)),
    ],
)
def test_faker_jobs_are_normalised(job: str, phrases: tuple[str, ...]) -> None:
    assert normalise_job(job) == phrases


def test_lexicon_holds_faker_and_curated_occupations_only() -> None:
    lexicon = occupation_lexicon()
    assert {"civil engineer", "research scientist", "arts administrator", "teacher", "homemaker", "truck driver"} <= (
        lexicon
    )
    assert not {"copy", "land", "make", "sub", "smoker", "veteran", "driver"} & lexicon
    assert all(p == p.lower() and "," not in p and "(" not in p for p in lexicon)
