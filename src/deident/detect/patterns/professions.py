"""PROFESSION patterns: a patient's or relative's occupation, named after an occupation trigger.

i2b2/UTHealth 2014 and CEGS N-GRID annotate occupations ("retired teacher", "works as a welder") as PROFESSION.
Nursing notes are full of clinical staff words ("RN aware", "per resident", "social worker consulted"), so no
occupation word is tagged on its own: only after a trigger ("works as a", "retired", "former", "occupation:", "is
a ... at"), and the trigger itself is never part of the span. After most triggers the words must be an occupation
of the lexicon (faker's job list, normalised, and a curated list of common occupations it lacks); after the strong
ones ("works as", "employed as", "occupation:") a short phrase that ends in an agent noun ("crane operator") is
taken too. Works in any case: ALL CAPS and all-lower-case notes are common.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import regex

from deident.core.labels import Label
from deident.detect.patterns.ages import SEX_WORDS
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.names import CLINICAL_SUFFIXES, FAMILY_WORDS, NON_NAMES, STOP_WORDS
from deident.detect.patterns.rules import Hit, Pattern, ScanHints, anchor_words, rx, search_before, words
from deident.text.case import window_case
from deident.text.wordfrequency import zipf as _zipf

# Common occupations that faker's job list lacks (it is British and white-collar), as data.
CURATED_OCCUPATIONS = (
    "teacher", "school teacher", "schoolteacher", "high school teacher", "elementary school teacher",
    "kindergarten teacher", "substitute teacher", "teacher's aide", "teachers aide", "teacher assistant",
    "farmer", "dairy farmer", "rancher", "farm worker", "farmhand", "carpenter", "plumber", "electrician", "welder",
    "machinist", "mechanic", "auto mechanic", "truck driver", "bus driver", "school bus driver",
    "taxi driver", "cab driver", "delivery driver", "trucker", "police officer", "policeman", "policewoman",
    "detective", "sheriff", "state trooper", "firefighter", "fireman", "lawyer", "attorney", "judge", "paralegal",
    "accountant", "bookkeeper", "nurse's aide", "nurses aide", "nurse aide", "nursing assistant",
    "home health aide", "medical assistant", "dental assistant", "dental hygienist", "physician assistant",
    "physician's assistant", "nurse practitioner", "nurse", "physician", "doctor", "pharmacist", "veterinarian",
    "homemaker", "housewife", "househusband", "cashier", "waitress", "waiter", "bartender", "cook", "chef",
    "baker", "butcher", "construction worker", "laborer", "labourer", "mail carrier", "mailman", "postal worker",
    "letter carrier", "secretary", "receptionist", "clerk", "bank teller", "teller", "engineer", "professor",
    "musician", "editor", "writer", "author", "artist", "painter", "house painter", "janitor", "custodian",
    "housekeeper", "maid", "nanny", "babysitter", "hairdresser", "hair stylist", "barber", "cosmetologist",
    "salesman", "saleswoman", "salesperson", "sales representative", "sales rep", "realtor", "real estate agent",
    "insurance agent", "manager", "store manager", "supervisor", "foreman", "roofer", "mason", "bricklayer",
    "landscaper", "gardener", "fisherman", "logger", "miner", "coal miner", "steelworker", "steel worker",
    "factory worker", "dock worker", "longshoreman", "security guard", "correctional officer",
    "corrections officer", "soldier", "marine", "sailor", "pilot", "flight attendant", "minister", "priest",
    "clergyman", "scientist", "chemist", "programmer", "computer programmer", "software developer", "consultant",
    "contractor", "general contractor", "librarian", "principal", "school principal", "coach", "athlete",
    "actress", "singer", "journalist", "reporter", "businessman", "businesswoman", "business owner", "technician",
    "lab technician", "pharmacy technician", "electrical engineer", "tailor", "seamstress",
    "social worker", "therapist", "physical therapist", "dentist", "paramedic", "emt", "professor emeritus",
    "economist", "banker", "stockbroker", "broker", "investment banker", "analyst", "bus boy", "busboy",
    "dishwasher", "custodial worker", "warehouse worker", "forklift operator", "crane operator",
    "heavy equipment operator", "machine operator", "carpet installer", "plasterer", "pipefitter", "boilermaker",
    "ironworker", "lineman", "railroad worker", "conductor", "mechanical engineer", "civil engineer", "architect",
    "designer", "graphic designer", "photographer", "interpreter", "translator", "cleaner", "house cleaner",
    "caretaker", "groundskeeper", "bouncer", "clergy", "missionary", "nun", "pastor", "rabbi", "deacon",
    "president", "vice president", "executive", "administrator", "optometrist", "pediatrician",
    "surgeon", "psychologist", "counselor", "counsellor", "dietician", "chiropractor", "midwife",
    "iron worker", "metal worker", "sheet metal worker", "road worker", "city worker",
    "highway worker", "shipyard worker", "mill worker", "auto worker", "autoworker", "textile worker",
    "health care worker", "healthcare worker", "hospital worker", "office worker", "utility worker",
    "sanitation worker", "maintenance worker", "cafeteria worker", "day care worker", "daycare worker",
    "child care worker", "line cook", "short order cook", "uber driver", "stay-at-home mother", "stay-at-home mom",
    "stay-at-home father", "stay-at-home dad", "financial analyst", "data analyst", "research assistant",
    "administrative assistant", "office manager", "army officer", "navy officer", "naval officer",
    "military officer", "student", "graduate student", "college student", "nursing student", "medical student",
)  # fmt: skip
# Entries of faker's list that are no occupation as written ("Copy", "Land", "Make", "Sub" are its halves of
# "copy editor" and the like), or that its "Head, qualifier" normalisation garbles.
NOT_OCCUPATIONS = frozenset(
    {"copy", "land", "make", "sub", "press sub", "publishing copy", "best boy", "scotland solicitor"}
)
# Abbreviations of care staff: an occupation only right after the strong triggers, "retired" and "former" ("works as
# an RN", "retired LPN"), never after "is a" (in a nursing note the RN is mostly the writer or a colleague).
STAFF_ABBREVIATIONS = frozenset({"rn", "lpn", "lvn", "cna", "emt"})
# Words of occupations that are also the clinical staff of a note: after "is a ... at" they need a person before
# the verb ("wife is a nurse at", not "there is a nurse at"), and after "former" no possessive ("his former surgeon").
STAFF_WORDS = frozenset(
    """
    nurse nurses nurse's nursing physician physician's physicians doctor doctors surgeon surgeons neurosurgeon
    therapist therapists physiotherapist pharmacist paramedic midwife dietitian dietician nutritionist psychiatrist
    psychologist radiographer social emt medic chaplain resident intern practitioner aide assistant pediatrician
    chiropractor dentist optometrist podiatrist counselor counsellor technician interpreter student students
    """.split()
)
STAFF_ENDINGS = ("ologist", "ologists", "iatrist", "iatrists")
# Function words at which an open occupation phrase ends ("works as a crane operator at", "... for 30 years").
PHRASE_ENDERS = frozenset(
    "at for in with and or but since until till while from on to of as who which that where when because so "
    "then x until during near by per than".split()
)
# Words that name no occupation after "occupation:" or "works as" ("Occupation: retired", "works as a buffer").
NOT_OCCUPATION_WORDS = frozenset(
    """
    unemployed employed disabled disability retired retiree none unknown homeless na nil n/a self self-employed
    buffer barrier reminder filter marker trigger blocker inhibitor agonist antagonist modulator regulator sensor
    monitor indicator number member matter model bridge conduit volunteer works worked working work job
    """.split()
)
# Leading words that an open phrase drops ("works as a part-time cashier" gives "cashier").
LEADING_MODIFIERS = frozenset({"part-time", "full-time", "parttime", "fulltime", "freelance", "retired", "former"})
# Endings of agent nouns: the last word of an open phrase names a person who does something.
AGENT_ENDINGS = ("er", "or", "ist", "ian", "man", "woman", "person", "eer", "ant", "ess", "wright", "smith", "aide")
# Subjects of "is a"/"was a" that name a person (a pronoun, the patient, a relative) rather than "there" or "this".
PERSON_SUBJECTS = frozenset(
    {"he", "she", "i", "who", "pt", "patient", "mom", "dad"} | {w for w in FAMILY_WORDS if " " not in w}
)
# Occupations that are also roles towards the patient ("daughter is an interpreter for pt"): not after "is a".
ROLE_OCCUPATIONS = frozenset({"interpreter", "translator", "caretaker", "caregiver", "companion", "driver"})
NOT_SUBJECTS = frozenset({"there", "here", "this", "that", "it", "which", "what", "below", "above"})
# What follows "at"/"for" after a staff occupation in a note's own staffing ("nurse at bedside", "for the night").
_STAFFING_AFTER = (
    r"[ \t]{1,3}(?:at|for)[ \t]{1,3}(?:the[ \t]{1,3})?(?:bedside|this[ \t]time|present|risk|all[ \t]times|night|now)\b"
)

# One word of an occupation: letters with inner apostrophes, hyphens or slashes ("nurse's", "part-time",
# "secretary/administrator"). A longer word ends the capture before it.
_WORD = r"[A-Za-z][A-Za-z'/\-]{0,24}(?![A-Za-z'/\-])"
CAPTURE = r"(?P<c>" + _WORD + r"(?:[ \t]{1,2}" + _WORD + r"){0,3})"
_ARTICLE = r"(?:(?:a|an)[ \t]{1,3})"

WORKS_AS_WORDS = ("works", "worked", "working", "work", "employed")
WORK_ADVERBS = (
    "part time", "part-time", "full time", "full-time", "now", "currently", "still", "also", "previously", "formerly",
    "mostly", "mainly", "primarily", "nights", "days", "evenings", "weekends", "overnights",
)  # fmt: skip
# "worked 15 years as a", "worked for 30 yrs as a": a duration between the verb and "as".
_DURATION = r"(?:[ \t]{1,3}(?:for[ \t]{1,3})?\d{1,2}\+?[ \t]{1,3}(?:years|year|yrs|yr))"
FIELD_WORDS = ("occupation", "profession")
JOB_AS_WORDS = ("job", "career", "position")
FIRST_PERSON = ("i'm", "im", "i am", "i was")
# A person's age (and sex) before the occupation, as a note's first line gives them: "a 87 year old welder from",
# "60 yr old M, ergonomist,", "22y/o F, fisherman,", "82 years F, janitor,". Searched from the age's digits.
_SEX = words(*SEX_WORDS)
_AGE_BEFORE = (
    r"\d(?<![\w.]\d)\d{0,2}[ \t-]{0,2}(?:"
    r"(?:(?:years?|yrs?|y)[ \t-]{0,2}(?:old|o)\b|y/o|yo\b|y\.o\.?)(?:[ \t]{0,2},?[ \t]{1,3}" + _SEX + r"\b)?"
    r"|(?:years?|yrs?|y)[ \t]{0,2},?[ \t]{1,3}" + _SEX + r"\b"  # "82 years F": without "old", the sex says it
    # "ID/CC: 72 F, freight forwarder,", "age 35 M,": a header's age and sex, at its label ("walked 5 M, nurse" is
    # metres)
    r"|(?<=(?:\A|[\n:(]|\bage)[ \t]{0,3}\d{1,3}[ \t-]{0,2})(?:m|f|male|female)\b(?=[ \t]{0,2},))"
    r"[ \t]{0,2},?[ \t]{1,3}(?:(?:a|an)[ \t]{1,3})?(?:retired[ \t]{1,3})?"
)


def normalise_job(job: str) -> tuple[str, ...]:
    """Faker's spelling of a job as the phrases a note would use: lower case, "Engineer, civil" as "civil engineer",
    parenthesised parts dropped ("Scientist, research (medical)": "research scientist"), and each word written with
    slashes as each of its alternatives ("Secretary/administrator": "secretary", "administrator")."""
    job = regex.sub(r"[ \t]*\([^)]*\)", "", job).strip().lower()
    if ", " in job:
        head, qualifier = job.split(", ", 1)
        job = f"{qualifier} {head}"
    choices = [token.split("/") for token in job.split()]
    spelled = {" ".join(w for w in combo if w) for combo in itertools.product(*choices)}
    return tuple(sorted(spelled | {job}))


@lru_cache(maxsize=1)
def occupation_lexicon() -> frozenset[str]:
    """Lower-cased occupations: faker's en_US job list (normalised) and :data:`CURATED_OCCUPATIONS`."""
    from faker.providers.job.en_US import Provider

    found = {phrase for job in Provider.jobs for phrase in normalise_job(job)}
    found.update(CURATED_OCCUPATIONS)
    return frozenset(p for p in found if p and p not in NOT_OCCUPATIONS)


@lru_cache(maxsize=1)
def occupation_heads() -> frozenset[str]:
    """The last words of the lexicon's occupations ("officer", "worker", "operator"): heads of open phrases."""
    return frozenset(p.split()[-1] for p in occupation_lexicon())


def _tokens(m: regex.Match[str]) -> list[tuple[int, int, str]]:
    start = m.start("c")
    return [(start + t.start(), start + t.end(), t[0]) for t in rx(_WORD).finditer(m["c"])]


def _in_lexicon(phrase: str) -> bool:
    lexicon = occupation_lexicon()
    if phrase in lexicon:
        return True
    # A trailing plural: "former teachers", "worked as waitresses".
    return (phrase.endswith("s") and phrase[:-1] in lexicon) or (phrase.endswith("es") and phrase[:-2] in lexicon)


def _lexicon_match(tokens: list[tuple[int, int, str]]) -> tuple[int, int, str] | None:
    """The longest lexicon occupation that the tokens begin with: (start, end, phrase), or None. A last word with a
    slash may match up to it ("teacher/coach": "teacher") when the slashed whole is no occupation."""
    for count in range(len(tokens), 0, -1):
        phrase = " ".join(t[2] for t in tokens[:count]).lower()
        if _in_lexicon(phrase):
            return tokens[0][0], tokens[count - 1][1], phrase
        last = tokens[count - 1]
        cut = last[2].find("/")
        if cut > 0:
            phrase = " ".join([*(t[2] for t in tokens[: count - 1]), last[2][:cut]]).lower()
            if _in_lexicon(phrase):
                return tokens[0][0], last[0] + cut, phrase
    return None


def _is_staff(phrase: str) -> bool:
    return any(w in STAFF_WORDS or w.endswith(STAFF_ENDINGS) for w in phrase.split())


def _word_before(text: str, start: int) -> str | None:
    # The word before a blank, or before a closing bracket: "(the patient's father) is a".
    before = search_before(r"(?r)(?<![\w'])(?P<w>[A-Za-z][A-Za-z']{0,24})\)?[ \t]{1,3}\Z", text, start, 40)
    if before is None:
        return None
    word = before["w"].lower()
    return word[:-2] if word.endswith("'s") else word


def _lexicon_hits(text: str, m: regex.Match[str]) -> list[Hit]:
    found = _lexicon_match(_tokens(m))
    return [] if found is None else [Hit(found[0], found[1], evidence=("occupation-lexicon",))]


def _lexicon_or_staff_hits(text: str, m: regex.Match[str]) -> list[Hit]:
    """An occupation of the lexicon, or a care staff abbreviation alone ("retired RN", "former LPN")."""
    tokens = _tokens(m)
    found = _lexicon_match(tokens)
    if found is None and tokens and tokens[0][2].lower() in STAFF_ABBREVIATIONS:
        found = tokens[0]
    return [] if found is None else [Hit(found[0], found[1], evidence=("occupation-lexicon",))]


def _after_retired(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "retired teacher", "RETIRED ARTS ADMINISTRATOR", "retired RN": an occupation of the lexicon or a staff
    abbreviation (not "retired to bed")."""
    return _lexicon_or_staff_hits(text, m)


def _after_former(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "former marine", "pt is a former teacher"; not "his former surgeon" or "the former" (a relation, not an
    occupation), and "former smoker" is no occupation at all."""
    if _word_before(text, m.start()) in {"his", "her", "their", "my", "your", "our", "pt", "patient", "the", "whose"}:
        return []
    return _lexicon_or_staff_hits(text, m)


def _after_copula(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "wife is a teacher.", "son, who is a lawyer at": after "is a"/"was a" an occupation of the lexicon, said of a
    person (a pronoun, the patient, a relative), or followed by "at"/"for" ("was a machinist for 30 years"); never
    after "there is a" or "this is a", and a staff occupation only of a person ("there is a nurse at bedside")."""
    found = _lexicon_match(_tokens(m))
    if found is None or found[2] in ROLE_OCCUPATIONS:
        return []
    subject = _word_before(text, m.start())
    if subject in NOT_SUBJECTS:
        return []
    said_of_person = subject in PERSON_SUBJECTS
    if not said_of_person and (_is_staff(found[2]) or rx(r"[ \t]{1,3}(?:at|for)\b").match(text, found[1]) is None):
        return []
    if rx(_STAFFING_AFTER).match(text, found[1]) is not None:
        return []
    return [Hit(found[0], found[1], evidence=("occupation-lexicon",))]


def _open_word_ok(token: str, mode: str) -> bool:
    lower = token.lower()
    if lower in NOT_OCCUPATION_WORDS or lower.endswith(CLINICAL_SUFFIXES):
        return False
    if mode == "mixed" and not (token.islower() or (token[0].isupper() and token[1:].islower())):
        return False  # an abbreviation or a shouted word among mixed-case text
    return _zipf(lower) < 6.0  # the commonest words ("good", "first") start no occupation


def _open_phrase(text: str, m: regex.Match[str]) -> Hit | None:
    """After a strong trigger: up to three words that end before punctuation or a function word ("at", "for",
    "in", "with", "and"), none a clinical or stop word, the last a lexicon occupation's head word ("boat
    restorer", "shipping clerk") or an agent noun ("crane operator")."""
    tokens = _tokens(m)
    mode = window_case(text, m.start("c"))
    while tokens and tokens[0][2].lower() in LEADING_MODIFIERS:
        tokens = tokens[1:]
    kept: list[tuple[int, int, str]] = []
    for token in tokens:
        lower = token[2].lower()
        if lower in PHRASE_ENDERS:
            break
        if lower in STOP_WORDS or lower in NON_NAMES:
            if not kept:
                return None
            break
        if not _open_word_ok(token[2], mode):
            return None
        kept.append(token)
        if len(kept) > 3:
            return None
    if not kept:
        return None
    head = kept[-1][2].lower()
    singular = head[:-1] if head.endswith("s") else head
    if not (head in occupation_heads() or singular in occupation_heads() or head.endswith(AGENT_ENDINGS)):
        return None
    return Hit(kept[0][0], kept[-1][1], score=0.5, evidence=("occupation-phrase",))


def _after_strong(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "works as a welder", "employed as an RN", "Occupation: crane operator": an occupation of the lexicon, a
    care staff abbreviation, or an open occupation phrase (the longer of the lexicon match and the phrase)."""
    tokens = _tokens(m)
    first = tokens[0][2].lower() if tokens else ""
    if first in LEADING_MODIFIERS and len(tokens) > 1:
        tokens = tokens[1:]
        first = tokens[0][2].lower()
    found = _lexicon_match(tokens)
    if found is None and first in STAFF_ABBREVIATIONS:
        found = (tokens[0][0], tokens[0][1], first)
    phrase = _open_phrase(text, m)
    if phrase is not None and (found is None or phrase.end > found[1]):
        return [phrase]
    return [] if found is None else [Hit(found[0], found[1], evidence=("occupation-lexicon",))]


@lru_cache(maxsize=1)
def profession_patterns() -> tuple[Pattern, ...]:
    return (
        Pattern(
            "profession.works_as",
            Label.PROFESSION,
            r"\b"
            + words(*WORKS_AS_WORDS)
            + r"(?:[ \t]{1,3}"
            + words(*WORK_ADVERBS)
            + r")?"
            + _DURATION
            + r"?[ \t]{1,3}as[ \t]{1,3}(?:(?:a|an|the)[ \t]{1,3})?"
            + CAPTURE,
            0.6,
            _after_strong,
        ),
        Pattern(
            "profession.field",
            Label.PROFESSION,
            r"\b" + words(*FIELD_WORDS) + r"(?:[ \t]{0,2}:|[ \t]{1,3}(?:is|was))[ \t]{0,3}" + _ARTICLE + "?" + CAPTURE,
            0.6,
            _after_strong,
        ),
        Pattern(
            "profession.job_as",
            Label.PROFESSION,
            r"\b" + words(*JOB_AS_WORDS) + r"[ \t]{1,3}as[ \t]{1,3}" + _ARTICLE + "?" + CAPTURE,
            0.6,
            _lexicon_hits,
        ),
        Pattern(
            "profession.retired",
            Label.PROFESSION,
            r"\bretired[ \t]{1,3}(?:as[ \t]{1,3}" + _ARTICLE + "?)?" + CAPTURE,
            0.6,
            _after_retired,
        ),
        Pattern(
            "profession.former",
            Label.PROFESSION,
            r"\bformer[ \t]{1,3}" + CAPTURE,
            0.6,
            _after_former,
        ),
        Pattern(
            "profession.formerly",
            Label.PROFESSION,
            r"\b(?:formerly|previously)[ \t]{1,3}" + _ARTICLE + CAPTURE,
            0.6,
            _lexicon_hits,
        ),
        Pattern(
            "profession.copula",
            Label.PROFESSION,
            r"\b(?:is|was)[ \t]{1,3}" + _ARTICLE + CAPTURE,
            0.6,
            _after_copula,
        ),
        Pattern(
            "profession.after_age",
            Label.PROFESSION,
            _AGE_BEFORE + CAPTURE,
            0.6,
            _lexicon_hits,
            hints=ScanHints(digit_run=(1, 3), run_next=r"[ \t-]{0,2}[yYmMfF]", run_prev=r"[^\w.]"),
        ),
        Pattern(
            "profession.first_person",
            Label.PROFESSION,
            # "i'm a welder", "i'm 48, a plumber from"
            r"\b" + words(*FIRST_PERSON) + r"[ \t]{1,3}(?:\d{1,3}[ \t]{0,2},?[ \t]{1,3})?" + _ARTICLE + CAPTURE,
            0.6,
            _lexicon_hits,
            hints=ScanHints(anchors=anchor_words(*FIRST_PERSON)),
        ),
    )


def profession_detector() -> PatternDetector:
    return PatternDetector("patterns.profession", profession_patterns())
