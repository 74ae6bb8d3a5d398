"""NAME patterns: names after honorific, role, family and contact triggers, and before role suffixes.

Works in any case: ALL CAPS and all-lower-case notes are common, so the trigger decides that a name
may follow and a word test (stop words, clinical words, word frequency, local capitalisation) decides
how many of the following tokens are a name. The trigger itself is never part of the span.
Labels follow the trigger: clinician triggers give DOCTOR, family triggers RELATIVE, Mr./Mrs./Ms. PATIENT.
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Callable
from functools import lru_cache

import regex
from nicknames import NickNamer

from deident.core.labels import Label
from deident.detect.patterns.detector import PatternDetector
from deident.detect.patterns.rules import Hit, Pattern, ScanHints, Validator, rx, search_before, word_after, words
from deident.text.case import window_case
from deident.text.segment import at_line_start
from deident.text.wordfrequency import zipf as _zipf

# One name word: letters with inner apostrophes or hyphens (O'Brien, Smith-Jones), or an initial.
# A name word: letters of any script ("José", "Łukasz", "Ní"), inner apostrophes and hyphens ("O'Brien-Walsh").
# Not a letter before a slash: "c/o", "s/p", "h/o" after a name are clinical shorthand ("Mr. Smith c/o pain").
TOKEN = r"(?![^\W\d_]/)[^\W\d_](?:(?:[^\W\d_]|['’\-]){0,24}[^\W\d_])?\.?"
# A dotted initial may be glued to the next word ("J.Quorvane", "J.O'Brien"): a TOKEN follows it directly. Not a
# letter alone: dotted letters spell roles and abbreviations ("H.O. Quorvane", "e.g.", "M.D.", "C.O").
_GLUED_AFTER_INITIAL = r"(?<=(?<![^\W\d_]|['’\-])[^\W\d_]\.)(?=[^\W\d_](?:[^\W\d_]|['’][^\W\d_]))"
CHAIN = TOKEN + r"(?:(?:[ \t]{1,2}|" + _GLUED_AFTER_INITIAL + r")" + TOKEN + r"){0,2}"
# Up to five chains joined by commas, "and" or a slash: "Sons Smokey, Morris and Roger", "seen by Quorvane/Brantisk".
NAME_LIST = (
    CHAIN
    + r"(?:(?:[ \t]{0,2},[ \t]{0,2}(?:and[ \t]{1,2})?|[ \t]{1,2}(?:and|&)[ \t]{1,2}|[ \t]{0,1}/[ \t]{0,1})"
    + CHAIN
    + r"){0,4}"
)

DOCTOR_TITLES_WORDS = (
    "dr", "drs", "doctor", "dr's", "rabbi", "reverend", "rev", "revd", "pastor", "chaplain", "prof", "professor",
    "h.o",  # a house officer, written "H.O." ("Paged H.O. Quorvane")
)  # fmt: skip
# Titles written capitalised before a clinician's or a cleric's name, which as lower-case words mean other things
# ("Sister Okafor" on a UK ward, "sister Ann" a relative; "Fr. Byrne", "14 fr catheter"): matched in their own case.
CASED_TITLES_WORDS = ("Sister", "Sr.", "Fr.", "Matron", "Charge Nurse", "Staff Nurse")
DOCTOR_ROLES_WORDS = (
    "np", "rn", "md", "rrt", "cns", "crnp", "attending", "resident", "fellow", "intern", "pcp",
    "cardiologist", "surgeon", "nurse", "nurse practitioner", "social worker", "sw", "case manager", "case mgr",
    "cm", "chaplain", "physician", "ho", "house officer", "house staff", "pharmacist", "therapist",
    "nutritionist", "dietitian", "caseworker", "np's", "rn's", "md's",
    # specialists, and the grades and professions of other countries' notes
    "specialist", "nurse specialist", "educator", "nurse educator", "consultant", "registrar", "hospitalist",
    "nocturnist", "intensivist", "psychiatrist", "psychologist", "neurologist", "oncologist", "nephrologist",
    "anesthesiologist", "radiologist", "physiotherapist", "midwife", "paramedic", "general practitioner",
    "specialty registrar", "specialist registrar", "senior house officer", "foundation doctor", "junior doctor",
    # credentials written before the name as a title ("PA-C Quorvane to see", "CNA Tobiah helped")
    "pa-c", "lpn", "cna", "crna", "msw", "lcsw", "licsw", "aprn", "fnp", "dnp", "cnm",
    # the hospital's staff beside the clinicians ("interpreter Perpetua present", "sitter Tobiah at bedside")
    "interpreter", "translator", "sitter", "patient advocate", "volunteer",
)  # fmt: skip
# The endings of specialists' and professions' names, each a role wherever the list above lacks it
# ("Rheumatologist", "Geriatrician", "Paediatrician"): no name ends so ("Felician" ends in "lician").
ROLE_WORD_ENDINGS = ("ologist", "ologists", "iatrist", "iatrists", "iatrician", "iatricians", "sician", "sicians",
                     "nician", "nicians", "tician", "ticians")  # fmt: skip
ROLE_SUFFIXES_WORDS = (
    "rn", "r.n.", "r.n", "md", "m.d.", "m.d", "np", "pa-c", "rrt", "crnp", "cnp", "lpn", "msw", "licsw", "lcsw", "phd",
    "ph.d.", "pharmd", "cns", "sw", "rpt", "slp", "d.o.",
    # and the degrees and post-nominals of other countries' clinicians
    "mbbs", "mbchb", "frcp", "mrcp", "mrcgp", "frcs", "frcpc", "frcsc", "facp", "facs", "dnp", "crna", "cnm", "fnp",
    "fnp-c", "aprn", "agacnp", "pa-s", "rgn", "rmn", "rscn",
)  # fmt: skip
PATIENT_TITLES_WORDS = ("mr", "mrs", "miss", "mister", "mssr")
FAMILY_WORDS = (
    "wife", "husband", "spouse", "daughter", "daughters", "son", "sons", "dtr", "dau", "mother", "mom", "father",
    "dad", "sister", "sisters", "sis", "brother", "brothers", "bro", "aunt", "uncle", "niece", "nephew", "cousin",
    "grandson", "granddaughter", "grandaughter", "grandmother", "grandfather", "grandma", "grandpa", "girlfriend",
    "boyfriend", "fiance", "fiancee", "partner", "friend", "neighbor", "neighbour", "stepdaughter", "stepson",
    "step daughter", "step son", "son-in-law", "daughter-in-law", "sister-in-law", "brother-in-law", "hcp", "proxy",
    "health care proxy", "poa", "guardian", "companion", "significant other", "s.o.", "children", "child",
    "lawyer", "attorney", "caregiver", "roommate", "spokesperson",
    # as posts and letters write them
    "hubby", "hubbie", "wifey", "mum", "mummy", "mommy", "daddy", "granny", "grandad", "granddad", "stepmom",
    "stepmother", "stepdad", "stepfather",
    # kin and contacts that social histories and letters name too
    "stepsister", "stepbrother", "ex-wife", "ex-husband", "godmother", "godfather", "carer", "supervisor", "boss",
    "coworker", "co-worker", "colleague", "landlord", "landlady", "employer", "housemate", "flatmate",
    "mother-in-law", "father-in-law", "half-brother", "half-sister", "godson", "goddaughter", "grandchild",
    "great-grandson", "great-granddaughter", "grandniece", "grandnephew", "auntie", "aunty", "nana", "nanna",
)  # fmt: skip
CONTACT_VERBS_FAMILY_WORDS = (
    "spoke with", "spoke to", "talked with", "talked to", "called", "phoned", "reach", "reached", "met with",
    "visited by", "accompanied by", "update given to", "updated", "call from", "phone call from", "called by",
    "named", "consult with", "work with", "meet", "meet with", "contacts", "contact", "ask for",
)  # fmt: skip
# Greetings and wishes that address someone by name on message boards: "hang in there kyle!", "thanks Rob,".
VOCATIVE_WORDS = (
    "hang in there", "good luck", "thanks", "thank you", "thx", "hi", "hey", "hello", "dear", "congrats",
    "congratulations", "welcome", "hugs", "prayers for",
)  # fmt: skip
# What a patient has that a note names by the patient's name in the possessive: a state, a symptom, care, carers.
PERSON_ATTRIBUTE_WORDS = (
    "mood", "affect", "sleep", "appetite", "pain", "speech", "behavior", "behaviour", "thoughts", "memory",
    "cognition", "mental status", "symptoms", "medications", "meds", "vitals", "weight", "condition", "anxiety",
    "insight", "judgment", "judgement", "hygiene", "gait", "plan", "goals", "parents", "baseline", "home", "house",
    "apartment", "birthday", "prognosis", "therapist", "psychiatrist", "pcp", "oncologist", "cardiologist",
    "case manager", "caregiver", "carer", "care team", "insurance", "room", "belongings", "school", "teacher", "job",
)  # fmt: skip
# Words before the name a patient asks to be called by, or another name the person has had.
PREFERRED_NAME_WORDS = (
    "call me", "prefers to be called", "likes to be called", "wants to be called", "nicknamed", "aka", "a.k.a.",
    "maiden name", "maiden name is", "maiden name was", "birth name", "birth name is", "birth name was",
)  # fmt: skip
# Words after a clinician's name in nursing notes: "E. Welsh aware", "Dr. X notified".
AWARE_WORDS = ("aware", "notified", "paged", "informed", "made aware", "in to see", "into see", "at bedside")
CONTACT_VERBS_CLINICIAN_WORDS = (
    "per", "paged", "notified", "informed", "seen by", "discussed with", "evaluated by", "examined by", "d/w",
    "reported to", "report given to", "signed out to", "signed over to",
    "covering", "placed by", "consulted",
    # "w/" is the clinical shorthand of "with"; "<verb>ed by" names who did it.
    "spoke w/", "talked w/", "discussed w/", "conferred with", "consult w/", "ordered by", "assessed by",
    "reviewed by", "intubated by", "extubated by", "covered by", "done by", "read by", "drawn by", "cleared by",
    "attended by", "reviewed with", "reviewed w/", "confirmed with", "verified with",
    # whom a question, news or a call went to or came from
    "asked", "told", "call back from", "callback from",
    # a nurse's handoff: who took over the patient's care
    "report to", "care assumed by", "assumed by", "turned over to", "handoff to", "handoff given to", "hand off to",
    "handed off to", "coverage by",  # not "relieved by": pain is relieved by repositioning
    # whom one covers for; who signed out (from whom report came: HANDOFF_FROM_WORDS)
    "covering for", "cross-covering for", "cross covering for", "covered for", "signed out by",
    # talks and messages
    "discussion with", "conversation with", "message left for", "left message for", "msg left for",
)  # fmt: skip

# Who signed off a report, a letter or a result, in its footer or header ("Authorised by: Geabrev Marisol", "Verified
# by J.Q.").
SIGN_OFF_WORDS = (
    "verified by", "authorised by", "authorized by", "approved by", "signed by", "countersigned by", "dictated by",
    "transcribed by", "typed by", "reported by", "checked by",
)  # fmt: skip
# The clinician's initials alone after a sign-off or "seen by", dotted ("Verified by J.Q."; "seen by ENT" is a
# service, so undotted capitals are not read).
_INITIALS_SIGNED_WORDS = (*SIGN_OFF_WORDS, "seen by", "reviewed by", "read by")
_INITIALS_SIGNED = (
    r"(?i:\b" + words(*_INITIALS_SIGNED_WORDS) + r")[ \t]{0,2}:?[ \t]{1,2}"
    r"(?P<n>[A-Z]\.[ ]?[A-Z]\.(?:[ ]?[A-Z]\.)?)(?![\w])"
)


def _initials_no_service(text: str, m: regex.Match[str]) -> list[Hit]:
    """Dotted initials that spell no role or service ("Seen by P.T.", "reviewed by M.D.", "seen by E.N.T.")."""
    letters = "".join(c for c in m["n"] if c.isalpha()).lower()
    if letters in NON_NAMES or letters in _SERVICE_WORDS or letters in ("rt", "st", "sw"):
        return []
    return [Hit(m.start("n"), m.end("n"))]


# From whom a nurse took report: a clinician, but also a place ("report received from OSH"), so a name after them
# needs case to tell it, or a listed name.
HANDOFF_FROM_WORDS = (
    "report received from", "received report from", "report from", "sign out from", "signout from",
    "handoff from", "hand off from", "taken over from",
)  # fmt: skip

DOCTOR_TITLES = words(*DOCTOR_TITLES_WORDS)
DOCTOR_ROLES = words(*DOCTOR_ROLES_WORDS)
ROLE_SUFFIXES = words(*ROLE_SUFFIXES_WORDS) + r"(?!['\w])"
PATIENT_TITLES = words(*PATIENT_TITLES_WORDS)
FAMILY = words(*FAMILY_WORDS)
CONTACT_VERBS_FAMILY = words(*CONTACT_VERBS_FAMILY_WORDS)
CONTACT_VERBS_CLINICIAN = words(*CONTACT_VERBS_CLINICIAN_WORDS)

# Words that end a name (function words, pronouns, clinical and note vocabulary, other triggers).
STOP_WORDS = frozenset(
    """
    a an the and or but nor of in on at to for from by with without w into onto via per as is was were are be been
    being am pm has had have having do does did done will would shall should can could may might must not no yes
    this that these those there here he she it they them him her his hers its their we us our you your i me my
    who whom whose which what when where why how all any some each both either neither other another such same
    aware notified informed called calling call paged page updated update made said says stated states reports
    reported feels felt ordered order orders wants wanted agrees agreed aware. re regarding about concerning also
    just still now then today tonight tomorrow yesterday morning evening night noon afternoon shift overnight
    visit visited visiting visits present came come comes in out up down over off back away again later soon
    team service services resident residents fellow attending intern interns staff md mds rn rns np nps pa dr drs
    doctor doctors nurse nurses pt pts patient patients family families fam wife husband son sons daughter
    daughters dtr mother father sister brother friend friends mr mrs ms miss proxy hcp poa
    unit icu ccu micu sicu csru ctic nicu er ed or pacu floor rehab hospital home vna nsg nursing
    note notes notified. protocol protocols policy record records chart report plan plans consult consults
    aware, with, bedside phone telephone tel cell pager beeper number office work
    surgery surgical medicine medical cardiology cardiac renal neuro neurology pulm pulmonary gi id ortho
    psych psychiatry heme onc oncology ep cath ir radiology anesthesia ent urology vascular thoracic derm
    consult consulted consulting covering primary on-call oncall sats sat sxn vt prn riss ssi ngt ogt carevue careview
    flowsheet flow sheet meds med labs lab order orders request requests ho hos fx pej ptt cxr cvp wnl sx team
    protocal rectal trach tube bag line inlaw in-law grandchildren kids resp tol eval hct htn crackles surg csurg
    coli diff aureus fib flutter wrist arm leg hand foot side eye ear
    ct derm skin flushes discussed visited present presnt newly graduated ofm tachycardia aphasia sedate thurs
    reintubation madeno con't phoned oncoming incoming nightfloat
    re: ok okay yes pt's family's
    """.split()
)
# Surname particles, written in lower or title case ("de la Cruz", "Van Der Berg", "Mac an Ultaigh", "Ó Briain").
PARTICLES = frozenset(
    "de la le del della dei der den van von da di du dos das mac mc an ó ní nic ui bin ibn ap ter ten zu".split()
)
NAME_LOCALES = ("en_US", "en_GB", "en_IE", "en_IN", "de_DE", "es_ES", "fr_FR", "it_IT", "pl_PL", "pt_BR", "nl_NL")
# Abbreviations of the phone, pager and fax words that stand between a relative and a number ("dtr ph 301 555
# 1234", "wife hm 555 1234"): no one's name. The words in full ("Page", "Cell") may be names.
CONTACT_ABBREVIATIONS = frozenset("ph tel hm wk wrk hse mob cel pgr bpr fx ext".split())
NON_NAMES = (
    STOP_WORDS | {w.split()[0] for w in FAMILY_WORDS + DOCTOR_ROLES_WORDS + DOCTOR_TITLES_WORDS} | CONTACT_ABBREVIATIONS
)
TITLE_WORDS = frozenset("dr drs doctor mr mrs ms miss".split())


# A diminutive counts as a known name only when rarer than this (Zipf): "Rob", "Hank", "Peg" but not "Will",
# "Art" or "Pat", which the nickname list also holds and which notes use as words far more often.
NICKNAME_MAX_ZIPF = 4.6


@lru_cache(maxsize=1)
def known_names() -> frozenset[str]:
    """Lower-cased first and last names from faker's person providers (several Latin-script locales) and from the
    shipped name lists (every locale, see scripts/build_lexicons.py), and the English diminutives of those first
    names from the ``nicknames`` dataset (family members are called by them)."""
    from deident.detect.lexicon.data import load_lexicon

    names: set[str] = set()
    for locale in NAME_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for attribute in ("first_names", "first_names_male", "first_names_female", "last_names"):
            names.update(n.lower() for n in getattr(provider, attribute, ()))
    names.update(load_lexicon("first_names") | load_lexicon("last_names"))
    for nickname, canonicals in NickNamer().canonical_lookup.items():
        if (
            len(nickname) > 1
            and nickname not in NON_NAMES
            and canonicals & names
            and _zipf(nickname) < NICKNAME_MAX_ZIPF
        ):
            names.add(nickname)
    return frozenset(names)


# Endings of disease, procedure and sign words ("dermatitis", "thoracotomy", "hematuria"): such a word is a name only
# where it is a known one.
CLINICAL_SUFFIXES = (
    "itis", "osis", "ectomy", "otomy", "ostomy", "emia", "algia", "pathy", "plasty", "scopy", "graphy", "uria",
    "megaly", "penia", "plegia", "ectasis",
)  # fmt: skip


def _unknown_capitalised(word: str, zipf: float, mode: str, strong: bool) -> bool:
    """Whether a word with a clinical ending may still be a surname: after a strong trigger ("Mrs", "Dr", "wife"),
    written as a name (capitalised, or in an ALL CAPS note), and known to no dictionary and no clinical lexicon
    ("Mrs Tridriosis"). Disease and procedure words are known ("Mr Angiography", "MRS SARCOIDOSIS" stay words);
    in an all-lower-case note nothing tells a rare term from a surname, so the ending decides."""
    if not strong or zipf > 0 or word.lower() in clinical_terms():
        return False
    return mode == "upper" or (mode == "mixed" and word[0].isupper())


# A relative or a clinician is the subject of the note's next verb ("WIFE VERBALIZED UNDERSTANDING", "son flew in",
# "daughter understands plan"): such a verb form right after the trigger is no name. The verbs a person does in a
# note's account of a visit, a call or a talk, with English's regular endings; the irregular past tenses listed.
SUBJECT_VERBS = """
    accompany acknowledge admit agree answer appear argue arrive ask assist attend believe bathe call chat complain
    confirm consent cry decide decline demand demonstrate deny depart describe discuss dispute endorse evaluate
    examine explain express help hope hug hurry inform insist intend kiss live mention notify object observe order
    phone plan pray prefer prescribe question recall recommend refuse relay remain remember report request rest
    return review rush scream seem share shout sign state stay suggest talk text threaten tolerate update verbalize
    verbalise visit voice wait walk want watch wish witness wonder worry yell
    """.split()
# Irregular verbs of the same kind and their past tenses.
IRREGULAR_PASTS = {
    "awake": "awoke", "become": "became", "begin": "began", "bring": "brought", "buy": "bought", "choose": "chose",
    "come": "came", "drive": "drove", "eat": "ate", "feed": "fed", "feel": "felt", "fly": "flew", "forget": "forgot",
    "get": "got", "give": "gave", "go": "went", "hold": "held", "keep": "kept", "know": "knew", "leave": "left",
    "lose": "lost", "meet": "met", "pay": "paid", "ring": "rang", "run": "ran", "say": "said", "send": "sent",
    "sit": "sat", "sleep": "slept", "speak": "spoke", "spend": "spent", "stand": "stood", "take": "took",
    "tell": "told", "think": "thought", "understand": "understood", "wake": "woke", "weep": "wept", "write": "wrote",
}  # fmt: skip
PAST_TENSES = frozenset(IRREGULAR_PASTS.values())
# One short stressed vowel before one final consonant doubles it: "hugged", "admitted", "preferred".
_DOUBLED_FINAL = frozenset("admit chat hug plan prefer".split())


def _third_person(verb: str) -> str:
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "es" if verb.endswith(("s", "sh", "ch", "x", "go")) else verb + "s"


def _regular_past(verb: str) -> str:
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + verb[-1] + "ed" if verb in _DOUBLED_FINAL else verb + "ed"


VERB_FORMS = frozenset(
    {_regular_past(v) for v in SUBJECT_VERBS}
    | {_third_person(v) for v in (*SUBJECT_VERBS, *IRREGULAR_PASTS)}
    | PAST_TENSES
)


def is_verb_form(lower: str) -> bool:
    """Whether a lower-cased word is one of :data:`VERB_FORMS` (a past tense or a third person): no name."""
    return lower in VERB_FORMS


@lru_cache(maxsize=65536)  # pure: the same words come back in every note
def is_name_word(token: str, mode: str, strong: bool) -> bool:
    """Whether ``token`` can be (part of) a person's name here.

    ``strong`` is true after a trigger that almost always precedes a name (Dr., Mr., wife); after a weak
    one (per, RN, called) the word must be a known name or a rare word. In mixed-case text a capital
    letter is evidence too; in ALL CAPS and all-lower-case text only the word itself is.
    """
    word = token.rstrip(".")
    possessive = word.lower().endswith("'s")
    if possessive:
        word = word[:-2]
    lower = word.lower()
    if len(lower) == 1 and token.endswith(".") and not possessive:
        return True  # an initial with its full stop, "A." and "I." too (the article and the pronoun take none)
    if not lower or lower in NON_NAMES:
        return False
    if len(lower) == 1:
        return not possessive  # an initial, but "X'S" is "times" ("resident x's 3 yrs")
    if "-" in lower and lower.split("-", 1)[0] in NON_NAMES:
        return False  # "cath-bwn", "wife-aware": a clinical or note word glued to another
    known = lower in known_names()
    if not known and is_verb_form(lower) and (mode != "mixed" or word[0].islower()):
        return False  # in text with case a capital still makes a name: "Dr. Ran", "Mr Sat"
    zipf = _zipf(lower)
    if not known and lower.endswith(CLINICAL_SUFFIXES) and not _unknown_capitalised(word, zipf, mode, strong):
        return False
    if mode == "mixed" and word[0].isupper():
        if word.isupper() and len(word) <= 4 and not known:
            return False  # an abbreviation in mixed-case text (ICU, CXR, BP)
        return (known or zipf < 5.6) if strong else ((known and zipf < 5.6) or zipf < 3.5)
    if mode == "mixed":  # a lower-case word among capitalised ones is rarely a name
        return strong and ((known and zipf < 4.5) or zipf < 3.0)
    if strong:
        return (known and zipf < 5.6) or zipf < 4.5
    return (known and zipf < 5.0) or zipf < 3.0


@lru_cache(maxsize=65536)
def is_surname_word(token: str) -> bool:
    """Whether ``token`` may continue a name in text without case cues (ALL CAPS, all lower case): an initial, a
    known name or a rare word. "son rob phoned", "WIFE ANNA CALLED": the first word after the trigger is judged by
    :func:`is_name_word`; a common word after it ends the name."""
    lower = token.rstrip(".").lower()
    if lower.endswith("'s"):
        lower = lower[:-2]
    if len(lower) == 1 or lower in known_names():
        return True
    return _zipf(lower) < 3.0 and not is_verb_form(lower)


def _hyphen_head(piece: str) -> str | None:
    """For "Rob-who" or "ANNA-AWARE" (a name glued to a note word by a hyphen), the name part; else None."""
    if "-" not in piece:
        return None
    head, *rest = piece.split("-")
    if head and any(part.lower().rstrip(".") in NON_NAMES for part in rest if part):
        return head
    return None


def _ends_sentence(piece: str) -> bool:
    return piece.endswith(".") and len(piece.rstrip(".")) > 1


_TOKEN_RE = TOKEN + r"|,|&|/|\band\b"


def _names(label: Label | None, strong: bool, group: str = "n") -> Callable[[str, regex.Match[str]], list[Hit]]:
    """Validator: split the captured name list into name spans, stopping at the first non-name word."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        start = m.start(group)
        mode = window_case(text, start)
        hits: list[Hit] = []
        current: list[tuple[int, int]] = []
        pending_initial = False
        for tok in rx(_TOKEN_RE).finditer(m[group]):
            piece = tok[0]
            s, e = start + tok.start(), start + tok.end()
            if piece in {",", "&", "/"} or piece.lower() == "and":
                if current:
                    hits.append(_close(text, current, label))
                current = []
                continue
            # After "and" or a comma only a clearly name-like word continues the list.
            # A word right after an initial ("per E. Welsh") is judged as after a strong trigger: the shape is evidence.
            after_initial = pending_initial and bool(current)
            shaped = after_initial or (strong and not (hits or (current == [] and tok.start() > 0)))
            if (
                strong
                and not current
                and not hits
                and tok.start() == 0
                and not is_name_word(piece, mode, True)
                and _common_first_name(piece, m[group][tok.end() :], mode)
            ):
                current.append((s, e))  # "Dr Will Harlow": the capitalised word after it makes this one a name
                continue
            head = _hyphen_head(piece)
            if head is not None:
                if is_name_word(head, mode, shaped) and (not current or mode == "mixed" or is_surname_word(head)):
                    current.append((s, s + len(head)))
                break
            # "Title I. Word": the word after an initial right after a strong title is the surname, whatever word it
            # also is ("PER DR R. MASS", "Mrs. J. Mass"); a word of grammar or a note, or a verb, is none.
            titled_initial = strong and after_initial and not hits and len(current) == 1 and current[0][0] == start
            if not (titled_initial and _surname_after_titled_initial(piece, mode)) and not is_name_word(
                piece, mode, shaped
            ):
                break
            if current and _not_a_name_part(piece, text, e, mode, text[current[-1][0]].isupper()):
                break
            if current and mode != "mixed" and not after_initial and not is_surname_word(piece):
                break  # without case cues a common word after a name ends it ("son rob phoned")
            if after_initial and mode != "mixed" and _verb_after_initial(piece):
                break  # "MR. Q RESTING": what the person does, not a surname
            current.append((s, e))
            pending_initial = len(piece.rstrip(".")) == 1
            if _ends_sentence(piece):
                break  # "per Carevue. Lung sounds": a full stop ends the name
        # A lone initial is no name by itself, but a dotted capital right after a strong trigger is ("Mr. Q. resting").
        lone_initial = pending_initial and len(current) == 1 and not hits
        if current and (not lone_initial or (strong and _lone_initial_first(text, current[0], start))):
            hits.append(_close(text, current, label))
        if not strong:
            hits = [h for h in hits if not _names_a_department(text, h)]
        return hits

    return check


def _capitalised_or_capitals(word: str) -> bool:
    """A word as mixed-case text writes a name: a capital, then small letters ("Mass"), or all capitals ("MASS")."""
    return word[:1].isupper() and (word[1:].islower() or word.isupper())


def _surname_after_titled_initial(piece: str, mode: str) -> bool:
    """Whether the word after "Title I." is the surname: letters, written as a name where the text has case, and no
    note word, word of grammar or verb form (a listed name always is)."""
    word = piece.rstrip(".")
    lower = word.lower()
    if len(lower) < 2 or lower in NON_NAMES or lower in GRAMMAR_WORDS or not word.isalpha():
        return False
    if mode == "mixed" and not _capitalised_or_capitals(word):
        return False
    return lower in known_names() or not _verb_after_initial(word)


def _verb_after_initial(piece: str, past_too: bool = False) -> bool:
    """A verb form, or a word ending in "-ing" (``past_too``: or "-ed"), that is no listed name: what the person does
    ("MR. Q RESTING"), not a surname."""
    lower = piece.rstrip(".").lower()
    endings = ("ing", "ed") if past_too else ("ing",)
    return lower not in known_names() and (is_verb_form(lower) or lower.endswith(endings))


def _lone_initial_first(text: str, token: tuple[int, int], start: int) -> bool:
    """Whether the lone initial of a name is the first word after a strong trigger, a capital with its full stop
    ("Mr. Q. resting" names the patient by the initial alone), or without it in text with case, where a word in small
    letters follows ("Mrs. Q states she wants to go home")."""
    piece = text[token[0] : token[1]]
    if token[0] != start or not piece[:1].isupper():
        return False
    if len(piece) == 2 and piece[1] == ".":
        return True
    # "X" is the usual stand-in for a name left out ("Mr X has a choice of options").
    lone = len(piece) == 1 and piece != "X" and window_case(text, start) == "mixed"
    return lone and _LOWER_WORD_NEXT.match(text, token[1]) is not None


_LOWER_WORD_NEXT = regex.compile(r"[ \t]{1,2}[a-z]{2,}")


# The words of grammar, which may follow a title whose name the writer left out ("Mr. and Mrs. Quorvane", "spoke with
# Mrs. at bedside"); any other word right after an unambiguous title is the person's name.
GRAMMAR_WORDS = frozenset(
    """
    a an the and or but nor of in on at to for from by with without into onto via per as is was were are be been being
    am has had have having do does did will would shall should can could may might must not no yes this that these those
    there here he she it they them him her his hers its their we us our you your i me my who whom whose which what when
    where why how all any some each both either neither other another such same also re
    """.split()
)


# A valve lesion's grade before "MR" (mitral regurgitation), as echo reports write it.
_VALVE_GRADE_BEFORE = (
    r"(?ri)(?:\b(?:trace|trivial|mild|mod|moderate|severe)|[1-4]\+)[ \t-]{0,3}(?:to[ \t]{1,2}\w+[ \t]{1,2})?\Z"
)


def _surname_after_title(
    names: Callable[[str, regex.Match[str]], list[Hit]],
    label: Label,
    cased_titles: frozenset[str],
    one_case_titles: frozenset[str] = frozenset(),
) -> Callable[[str, regex.Match[str]], list[Hit]]:
    """``names``, and where it finds nothing, the first word after an unambiguous title as the name whatever word it
    also is ("Mrs. House ate breakfast", "Dr. Hand aware", "MR. BLOOD IS A 70 YO"). A title is
    unambiguous as written in ``cased_titles`` in text with case (capital, then small letters: "MR" is also mitral
    regurgitation, "mRS" the modified Rankin scale, "DR" a drive), and as written in ``one_case_titles`` (lower case,
    with its full stop) in text without case. Only a word of grammar is no name (a modal too: "Dr. Will Stop by" is
    a miscapitalised "will"); in text with case the word must be capitalised; without case a note or clinical word is
    none either ("1+ MR. EF 40%": "MR." may end a finding)."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        title = text[m.start() : m.start("n")].strip()
        if title.rstrip(".").lower() == "mr" and search_before(_VALVE_GRADE_BEFORE, text, m.start(), 16):
            return []  # mitral regurgitation graded: "1+ MR. EF 40%", "MOD MR. TR 2+"
        found = names(text, m)
        if found:
            return [_with_glued_initials(text, hit) for hit in found]
        mode = window_case(text, m.start("n"))
        if label is Label.DOCTOR and mode != "mixed" and title.lower() in ("dr", "dr."):
            return _doctor_after_report_word(text, m)
        after_title = _word_after_title(text, m)
        if after_title is None:
            return []
        start, word = after_title
        lower = word.lower()
        capitalised = word[0].isupper() and word[1:].islower()
        # A capital that a writer of small letters gives the word after a title marks a name, a clinical word as much
        # as any, and the title with or without its full stop ("pmicu progress. mr Pain was transferred").
        marked = mode == "lower" and capitalised and len(lower) > 2
        if mode == "mixed":
            named = title in cased_titles and capitalised and lower not in GRAMMAR_WORDS
        else:
            titled = title.lower() in one_case_titles or (marked and f"{title.lower()}." in one_case_titles)
            named = titled and len(lower) > 2 and lower not in NON_NAMES and (marked or lower not in clinical_terms())
        return [Hit(start, start + len(word), label)] if named else []

    return check


# Capitals with full stops glued to a name's last initial: "Mrs. T.Q.", "Dr. J.S.B." (a title's initials, which the name
# chain stops at, as dotted letters elsewhere spell roles and abbreviations: "H.O. Quorvane", "M.D.").
_GLUED_INITIALS = regex.compile(r"(?:[A-Z]\.){1,2}(?![\w'])")
_GLUED_SMALL_INITIALS = regex.compile(r"(?:[a-z]\.){1,2}(?![\w'])")


def _with_glued_initials(text: str, hit: Hit) -> Hit:
    """``hit`` extended over the letters with full stops glued to its end where it is a dotted initial alone (small
    letters only in text without case: "mrs. t.q.")."""
    end = hit.end
    if end - hit.start != 2 or not text[hit.start].isalpha() or text[end - 1] != ".":
        return hit
    if text[hit.start].isupper():
        glued = _GLUED_INITIALS.match(text, end)
    elif window_case(text, hit.start) != "mixed":
        glued = _GLUED_SMALL_INITIALS.match(text, end)
    else:
        return hit
    return hit if glued is None else hit._replace(end=glued.end())


# Words that hand a note over to a doctor: "per dr", "by dr", "called dr", "d/w dr".
_REPORT_BEFORE_DOCTOR = (
    r"(?r)\b(?:per|by|with|w/|to|from|and|called|paged|notified|informed|d/w|spoke[ \t]{1,2}with"
    r"|discussed[ \t]{1,2}with)[ \t]{1,2}\Z"
)


def _doctor_after_report_word(text: str, m: regex.Match[str]) -> list[Hit]:
    """In one-case text, the word after "dr" where a word that reports to a doctor stands before it ("PER DR MASS.",
    "followed by dr cast", "called dr salt"), whatever word it also is: a clinical word as much as any ("DR" written
    alone is also a drive, and "mass" a finding, but not after "per"), or where what a doctor does follows it ("dr cast
    in to talk", "dr fine will be in"), or another doctor by title ("DR CAST, DR SHUNT"). A word of grammar or of a
    note ("per dr orders", "called dr aware", "dr team aware") is none, nor is a service ("by dr thoracic team"), nor
    a verb before the act ("dr called in to see")."""
    after_title = _word_after_title(text, m)
    if after_title is None or len(after_title[1]) < 3 or after_title[1].lower() in NON_NAMES:
        return []
    start, word = after_title
    # Reported to, or listed with another doctor by title ("DR CAST, DR SHUNT", "dr cast and dr shunt aware").
    reported = (
        search_before(_REPORT_BEFORE_DOCTOR, text, m.start(), 24) is not None
        or _ANOTHER_DOCTOR_AFTER.match(text, start + len(word)) is not None
    )
    if not reported and _DOCTOR_ACTION_AFTER.match(text, start + len(word)) is None:
        return []
    if not reported and is_verb_form(word.lower()):
        return []  # "dr called in to see pt": the doctor's act, not a name
    return [Hit(start, start + len(word), Label.DOCTOR)]


# Another doctor by title after the word, in a list: "DR CAST, DR SHUNT", "dr cast and dr shunt".
_ANOTHER_DOCTOR_AFTER = regex.compile(r"(?i)[ \t]{0,2}(?:,|&|/|and)[ \t]{0,2}dr\.?[ \t]{1,2}[a-z]")
# What a doctor named after "dr" does next, in one-case text: "dr cast in to talk w/pt", "DR SHUNT AWARE", "dr fine
# will be in at 0700".
_DOCTOR_ACTION_AFTER = regex.compile(
    r"(?i)[ \t]{1,2}(?:aware|in[ \t]{1,2}to|here|at[ \t]{1,2}bedside|will|took|spoke|has|had|was|is|notified|paged"
    r"|called|ordered|wants|saw|examined|said|says|states|stated|came|agrees|agreed|discussed|informed|updated|placed"
    r"|removed|reviewed)(?![\w'])"
)


def _word_after_title(text: str, m: regex.Match[str]) -> tuple[int, str] | None:
    """(start, word) of the first word after a title, without a full stop, where it may be a name at all: two letters
    or more and nothing else, no clinical ending, and no service named after it ("seen by Dr. Thoracotomy team")."""
    first = rx(TOKEN).match(m["n"])
    if first is None:
        return None
    word = first[0].rstrip(".")
    if len(word) < 2 or not word.isalpha() or word.lower().endswith(CLINICAL_SUFFIXES):
        return None
    start = m.start("n")
    if word_after(text, start + len(word)) in DEPARTMENT_WORDS:
        return None
    return start, word


_TIMES_COUNT = regex.compile(r"[ \t]?\d")
# What a relative does in a note, right after the name: "dtr chance called", "son will visited".
_KIN_SUBJECT_VERBS = (
    "called", "calls", "phoned", "visited", "visits", "visiting", "states", "stated", "says", "said", "reports",
    "reported", "asked", "asks", "spoke", "updated",
)  # fmt: skip


_KIN_SUBJECT_ZIPF = 5.3
_HOW_OFTEN = frozenset({"once", "twice", "thrice", "again", "often", "seldom", "ever", "never", "always"})


def _kin_subject(text: str, m: regex.Match[str]) -> list[Hit]:
    """The word between a kin word and a verb of what the relative did, in one-case text: a name, a common word as much
    as any ("dtr chance called"), but a word of grammar or of a note, an adverb ("son also called", "wife finally
    visited"), a verb form or a clinical word. In mixed-case text a capital decides, and name.family reads it."""
    if window_case(text, m.start("n")) == "mixed":
        return []
    lower = m["n"].lower()
    if lower in NON_NAMES or lower in _HOW_OFTEN or lower.endswith(("ly", "self", "selves")) or is_verb_form(lower):
        return []
    if lower in clinical_terms():
        return []
    if _zipf(lower) >= _KIN_SUBJECT_ZIPF and lower not in known_names():
        return []  # the commonest words are adverbs and pronouns there ("son never called", "wife first called")
    return [Hit(m.start("n"), m.end("n"), Label.RELATIVE)]


def _not_a_name_part(piece: str, text: str, end: int, mode: str, after_capital: bool) -> bool:
    """Whether a word after a name's first word cannot continue it: a letter glued to digits ("q4h") or a count of
    times ("x2", "x 3"), no initial; in text with case, a lower-case word right after a capitalised name word
    (``after_capital``) that is no surname particle ("Dr Quorvane ok'd lasix", "Dr. Quorvane pgd"; "Dr. Quorvane van
    der Berg" goes on)."""
    if len(piece.rstrip(".")) == 1 and (
        text[end : end + 1].isdigit() or (piece in {"x", "X"} and _TIMES_COUNT.match(text, end))
    ):
        return True
    return mode == "mixed" and after_capital and piece[:1].islower() and piece.lower() not in PARTICLES


# First names that are also modal verbs (and so stop words): only the capitalised surname after them tells.
_MODAL_FIRST_NAMES = frozenset({"will", "may"})
_NEXT_WORD = regex.compile(r"[ \t]{1,2}(" + TOKEN + r")")


def _common_first_name(piece: str, rest: str, mode: str) -> bool:
    """Whether a common word right after a title ("Dr Will Harlow", "DR. HOPE MILLS") is a first name: it is
    capitalised, no note word, and the word after it is a surname (capitalised too where the text has case)."""
    word = piece.rstrip(".")
    if piece.endswith(".") or len(word) < 2 or not word.isalpha():
        return False
    if word.lower() in NON_NAMES and word.lower() not in _MODAL_FIRST_NAMES:
        return False
    following = _NEXT_WORD.match(rest)
    if following is None:
        return False
    nxt = following[1]
    if word.lower() in _MODAL_FIRST_NAMES and _named_modal(word, rest, nxt, mode):
        return True
    bare = nxt.rstrip(".").removesuffix("'s").removesuffix("'S")
    if len(bare) < 2 or bare.lower() in NON_NAMES or not is_name_word(nxt, mode, True):
        return False
    if mode == "mixed":
        capitalised = word[0].isupper() and not word.isupper() and bare[0].isupper() and not bare.isupper()
        return capitalised and (bare.lower() in known_names() or _zipf(bare.lower()) < 4.0)
    return is_surname_word(nxt) and _zipf(bare.lower()) < 4.0


# What follows a name but never a modal verb: "SON WILL IN TO VISIT", "daughter May and son at bedside".
_AFTER_A_NAME_NOT_A_MODAL = regex.compile(r"(?i)[ \t]{1,2}(?:(?:and|at|is|was|has|here)\b|in[ \t]{1,2}to\b)")


def _named_modal(word: str, rest: str, nxt: str, mode: str) -> bool:
    """Whether "Will" or "May" right after a strong trigger is a first name: capitalised where the text has case,
    and followed by what no modal verb is (a past tense, "and", "is", "in to")."""
    if mode == "mixed" and not (word[0].isupper() and word[1:].islower()):
        return False
    past = nxt.lower().rstrip(".,")
    # a past tense: listed, or regular ("-ed", not the "-eed" of "need", "feed" and "bleed")
    regular = past.endswith("ed") and not past.endswith("eed")
    return _AFTER_A_NAME_NOT_A_MODAL.match(rest) is not None or regular or past in PAST_TENSES


# Words after which a word names a service, not a person: "seen by interventional radiology", "per tranplant team".
DEPARTMENT_WORDS = frozenset(
    "team teams service services radiology surgeon surgeons surgery consult consults department dept clinic "
    "transplant".split()
)


def _names_a_department(text: str, hit: Hit) -> bool:
    """Whether a name found after a weak trigger is followed by a service word and holds no known name."""
    if word_after(text, hit.end) not in DEPARTMENT_WORDS:
        return False
    return not any(w.lower() in known_names() for w in regex.findall(r"[A-Za-z']+", text[hit.start : hit.end]))


# Single letters that notes use as abbreviations: "w." with, "c." with, "s." without (and SOAP's subjective),
# "o." objective ("I & O."), "p." plan or after, "x." times, "k." potassium. After one of them only a known name
# makes a name ("W. Smith"), not a rare clinical word ("W. RESIDUALS", "k. cont", "S. INTUBATED").
_ABBREVIATION_INITIALS = frozenset("wcsopxk")


# Species names of organisms that clinical notes write after the genus initial ("E. coli", "C. diff", "B. cepacia",
# "S. epi").
SPECIES_EPITHETS = frozenset(
    """
    aureus epidermidis epi saprophyticus lugdunensis pneumoniae pyogenes agalactiae viridans bovis mitis mutans faecalis
    faecium coli cloacae aerogenes marcescens mirabilis vulgaris aeruginosa cepacia maltophilia baumannii influenzae
    parainfluenzae catarrhalis meningitidis gonorrhoeae albicans glabrata krusei parapsilosis tropicalis auris
    difficile diff dif perfringens fragilis oxytoca freundii morganii stuartii rettgeri jirovecii carinii fumigatus
    neoformans monocytogenes pertussis pallidum trachomatis pneumophila typhi enteritidis jejuni pylori burgdorferi
    tuberculosis avium kansasii marinum abscessus israelii nocardia asteroides canis felis gondii vaginalis
    histolytica lamblia stercoralis dermatitidis capsulatum immitis hominis urealyticum genitalium acnes
    pasteurella multocida henselae quintana rickettsii ducreyi vaginalis anginosus intermedius constellatus
    """.split()
)


def _initial_surname(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "J. Yi", "Z. MILLER": an initial then a name word. L. and R. are left and right."""
    initial = text[m.start() - 1].lower()
    surname = m["s"].lower()
    if surname in SPECIES_EPITHETS:
        return []  # an organism: "B. cepacia", "E. COLI", "S. aureus"
    after = _CLINICIAN_AFTER_INITIAL_NAME.match(text, m.end("s"))
    if after and (after["role"] or initial not in {"l", "r"}) and _clinician_word_after_initial(surname):
        # A clinician's role or what one does next tells a name, a common or clinical word too: "G. FOLEY AWARE",
        # "R. BLOCK NP", "s. west in to strip tubes"; the evidence keeps the veto of clinical words off it.
        return [_close(text, [(m.start() - 1, m.end("s"))], Label.DOCTOR)._replace(evidence=(CLINICIAN_AFTER,))]
    if initial in {"l", "r"}:
        return []
    if surname.endswith(("ed", "ing")) and surname not in known_names():
        return []  # a verb after an abbreviation: "T. CULTURED", "p. ambulating"
    # No trigger here, so the word itself must be name-like whatever the case: a known name or a rare word.
    if surname in NON_NAMES or not (surname in known_names() or _zipf(surname) < 3.5):
        return []
    abbreviation = initial in _ABBREVIATION_INITIALS and surname not in known_names()
    if abbreviation and not _after_a_named_initial(text, m.start()):
        return []
    if window_case(text, m.start()) == "mixed" and not m["s"][0].isupper():
        return []
    return [_close(text, [(m.start() - 1, m.end("s"))], Label.DOCTOR)]


# A clinician's post-nominal or what a clinician does, right after "initial. word".
_CLINICIAN_AFTER_INITIAL_NAME = regex.compile(
    r"(?i),?[ \t]{1,2}(?:(?P<role>" + ROLE_SUFFIXES + r")|(?:aware|notified|paged|ordered|in[ \t]{1,2}to[ \t]{1,2}"
    r"(?:see|evaluate|assess|examine|strip|place|talk|speak))(?![\w']))"
)
# The evidence note of a name that a clinician's role or act right after it found.
CLINICIAN_AFTER = "followed_by:clinician"
# Words that follow an initial in clinical shorthand, and stay themselves before "aware" or a role: "A. fib", "a. line",
# "v. tach" (the organisms' epithets are SPECIES_EPITHETS).
_AFTER_INITIAL_SHORTHAND = frozenset({"fib", "flutter", "tach", "line", "lines", "paced", "pacing", "wave", "waves"})


def completes_a_letter(lower: str) -> bool:
    """Whether a word makes clinical shorthand or an organism with the letter before it ("A. fib", "E. coli"), so
    that letter is no initial of a name."""
    return lower in _AFTER_INITIAL_SHORTHAND or lower in SPECIES_EPITHETS


def _clinician_word_after_initial(surname: str) -> bool:
    return (
        len(surname) > 2
        and surname not in _AFTER_INITIAL_SHORTHAND
        and surname not in GRAMMAR_WORDS
        and not is_verb_form(surname)
        and not surname.endswith(("ed", "ing"))
    )


_NAMED_INITIAL_AND = (
    r"(?r)(?<![\w.'/&+^-])(?P<i>[A-Za-z])\.[ \t]{0,2}(?P<s>[A-Za-z][A-Za-z'\-]{1,24})[ \t]{1,2}(?:and|&)[ \t]{1,2}\Z"
)


def _after_a_named_initial(text: str, dot: int) -> bool:
    """Whether the initial whose full stop is at ``dot`` follows "J. Quorvane and ": a pair of names in the same shape
    ("nsg (Y. Quorvane and S. Brantisk)"), where the first one is a name by the usual test (an initial that is no
    abbreviation, or a known surname)."""
    found = search_before(_NAMED_INITIAL_AND, text, dot - 1, 40)
    if found is None:
        return False
    first = found["s"].lower()
    if first in NON_NAMES or first in SPECIES_EPITHETS or not (first in known_names() or _zipf(first) < 3.5):
        return False
    return found["i"].lower() not in _ABBREVIATION_INITIALS or first in known_names()


def _first_name_initial(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "Rosa K.", "Mary Ann B.": a known first name, capitalised, then a capital initial; not a common word before
    a letter ("Vitamin K.", "Hepatitis B.", "Plan A.", "Will B.")."""
    first = m["f"].split()[0].lower()
    if first in NON_NAMES or first not in known_names() or _zipf(first) >= 4.5 or first in clinical_terms():
        return []
    return [Hit(m.start("f"), m.end("i"), Label.PATIENT)]


def _cased_title(text: str, m: regex.Match[str]) -> list[Hit]:
    """A name after "Sister", "Matron", "Fr."; a capitalised "Sister" that opens a sentence may be a relative."""
    if m["t"] == "Sister" and _SENTENCE_START.search(text, max(0, m.start() - 8), m.start()):
        return []
    return _names(Label.DOCTOR, strong=True)(text, m)


# Verbs of agreeing, stating and reporting that follow a person who opens a sentence: "Tobiah agrees with plan."
SUBJECT_VERB_WORDS = (
    "agrees", "agreed", "states", "stated", "reports", "reported", "denies", "denied", "called", "was seen",
    "is aware", "was aware", "wishes", "wants", "requests", "requested", "asks", "asked", "understands",
    "verbalizes", "verbalized", "complains", "refuses", "refused", "declines", "declined", "consents", "consented",
    "visited", "was in to visit", "was here", "phoned", "arrived", "c/o", "complained", "complaining", "asking",
    "is asking", "was asking", "woke", "awoke",
    # how a letter or a history opens on its subject: "Klaemiorek was admitted to Ward 7B", "Tamsin T. describes"
    "was admitted", "was transferred", "was discharged", "was brought", "presented", "presents", "describes",
    "described", "endorses", "endorsed",
    # what is said of a person's state, and of no drug, device or finding ("Tobiah is alert", "Quorvane slept")
    "is alert", "was alert", "is awake", "was awake", "is oriented", "was oriented", "is confused", "was confused",
    "is agitated", "was agitated", "is lethargic", "was lethargic", "is sleeping", "was sleeping", "slept",
    "is anxious", "was anxious", "remains intubated", "remains sedated", "remains confused", "remains lethargic",
    "is calm", "was calm", "remains calm", "is cooperative", "was cooperative", "is pleasant", "was pleasant",
    "is restless", "was restless", "is resting", "was resting", "remains alert", "remains comfortable",
    "appears comfortable", "appeared comfortable", "appears anxious", "appeared anxious", "appears restless",
    "had a good night", "had a restful night", "had a comfortable night", "had an uneventful night",
    "had a quiet night", "had a good day", "ate", "ambulated", "nodded", "mouthed", "mouthing words",
    "follows commands", "followed commands", "is following commands", "smiled", "cried", "is crying", "was crying",
    # a person's feelings ("Tobiah was tearful at times", "Quorvane became upset")
    "is tearful", "was tearful", "is teary", "was teary", "is weepy", "was weepy", "is upset", "was upset",
    "is frustrated", "was frustrated", "is scared", "was scared", "is afraid", "was afraid", "is worried",
    "was worried", "is happy", "was happy", "is sad", "was sad", "is angry", "was angry", "is comfortable",
    "was comfortable", "became upset", "became tearful", "became agitated", "became angry", "became anxious",
    # what befalls a person and no thing ("Quorvane retired", "Tobiah passed away last year")
    "retired", "passed away", "moved away", "died",
)  # fmt: skip
# A person's state after a linking verb and a word of degree, after the name opening a sentence ("Tobiah is very
# pleasant", "QUORVANE WAS QUITE AGITATED"): the states of SUBJECT_VERB_WORDS, which say it without the degree.
STATE_LINK_WORDS = ("is", "was", "remains", "remained", "seems", "seemed", "appears", "appeared", "became", "looks")
DEGREE_WORDS = (
    "very", "more", "less", "quite", "somewhat", "extremely", "slightly", "increasingly", "much", "still", "now",
    "also", "a bit", "a little", "a lot more", "mildly", "intermittently", "occasionally",
)  # fmt: skip
STATE_WORDS = (
    "alert", "awake", "oriented", "confused", "agitated", "lethargic", "anxious", "calm", "cooperative", "pleasant",
    "restless", "comfortable", "tearful", "teary", "weepy", "upset", "frustrated", "scared", "afraid", "worried",
    "happy", "sad", "angry", "sleepy", "drowsy", "combative", "appropriate", "interactive", "withdrawn", "talkative",
    "depressed", "irritable", "impulsive", "paranoid", "hopeful", "grateful", "motivated",
)  # fmt: skip
# A clinician's work, after the clinician's name opening a sentence ("Quorvane examined pt"); not "placed" or
# "inserted", whose subjects are mostly devices ("Dobhoff placed").
CLINICIAN_VERB_WORDS = (
    "examined", "evaluated", "assessed", "wrote", "updated", "saw", "to call back", "will call back", "called back",
    "will see", "will assess", "will be assessing", "will evaluate", "will follow", "is on vacation", "is covering",
    "is on call", "is on vaca", "is on vac", "is away", "is on leave", "is off today", "is out today",
    # the service the clinician comes from: "Tamsin from PT in to see pt"
    *(f"from {service}" for service in (
        "pt", "ot", "physical therapy", "occupational therapy", "speech", "speech therapy", "slp", "nutrition",
        "social work", "case management", "pastoral care", "chaplaincy", "respiratory", "rt", "iv team", "pharmacy",
        "wound care", "hospice", "palliative care", "ep", "renal", "cardiology", "neurology", "surgery",
        # the units and services a clinician calls from ("Trelawny from CCU called")
        "ccu", "micu", "sicu", "csru", "cvicu", "icu", "ew", "er", "ed", "admitting", "blood bank", "the lab", "lab",
        "radiology", "echo", "cath lab", "ir", "dialysis", "ct surgery", "cardiac surgery", "thoracic surgery", "ortho",
        "gi", "id", "infectious disease", "psych", "psychiatry", "oncology", "pulmonary", "nephrology", "transplant",
        "anesthesia", "nursing", "pain service", "vascular",
    )),
)  # fmt: skip
# Care services and note words, often clipped, that open a sentence before such a verb ("Nephro agrees").
_SERVICE_WORDS = frozenset(
    """
    nephro endo cards derm ophtho optho rheum uro hepatology nephrology endocrine palliative pharm pharmacy micro
    microbiology rads ems security admitting telemetry tele anesthesia anesth pulmonary hematology ot slp pt's
    nutrition dietary rehab ortho psych neurosurg nsurg ctsurg csurg vasc gyn obgyn
    """.split()
)
# A sentence opens after its stop, a bracket ("(Quorvane is on vacation)") or a heading's colon or dash ("SOCIAL- X").
_SENTENCE_START = regex.compile(r"(?:\A|[.!?;:(\n]|(?<=[A-Za-z])-(?=[ \t]))[ \t]{0,3}\Z")


@lru_cache(maxsize=1)
def clinical_terms() -> frozenset[str]:
    """Clinical terms, eponyms and drug names (lower case) from the lexicon data: words that name no person or place."""
    from deident.detect.lexicon.data import load_drug_names, load_veto_terms

    return frozenset(load_veto_terms()) | frozenset(load_drug_names())


def is_service_word(lower: str) -> bool:
    """A care service or specialty, often clipped ("nephro", "rheum", "hepatology"): it names a team, not a person."""
    from deident.detect.lexicon.data import load_specialty_words

    return lower in _SERVICE_WORDS or lower in load_specialty_words()


def _bare_name_word(word: str, text: str, at: int) -> bool:
    """Whether a word with no title before it may be a name: three letters or more, no note, service or clinical
    word (nor a clinical ending), and written as a name (only its first letter a capital) where the text around
    ``at`` has case. How rare it must be is each rule's own test."""
    lower = word.lower()
    if len(lower) < 3 or lower in NON_NAMES or lower in _SERVICE_WORDS or lower.endswith(CLINICAL_SUFFIXES):
        return False
    if lower in clinical_terms():
        return False
    return window_case(text, at) != "mixed" or _written_as_name(word)


def _written_as_name(word: str) -> bool:
    """Capitalised as a name is: "Quorvane", "Quorvane's", and each part of a joined one ("Quorvane-Lindt",
    "O'Brien", "Abu-salem")."""
    first, *rest = regex.split(r"[-']", word.removesuffix("'s"))
    if not first[:1].isupper() or not (first[1:].islower() or (len(first) == 1 and rest)):
        return False
    return all(part[1:].islower() or part.islower() or not part for part in rest)


# The subject, then perhaps the initial of a surname ("Tamsin K. reports").
# A name word before the verb, with a dotted initial glued before it ("T.Quorvane agrees") or one after it.
_SUBJECT_WORD = (
    r"(?r)(?<![\w'./-])(?P<g>[A-Za-z]\.)?(?P<n>[A-Za-z][A-Za-z'\-]{1,24})(?:[ \t](?P<i>[A-Z]\.))?[ \t]{1,2}\Z"
)
# The subject set off by commas after the patient word: "pt, Tobiah, is restless", "Patient, Quorvane, agrees".
_APPOSED_SUBJECT = (
    r"(?r)(?<![\w'])(?P<p>patient|pt\.?),[ \t]{1,2}(?P<g>[A-Za-z]\.)?(?P<n>[A-Za-z][A-Za-z'\-]{1,24})"
    r"(?:[ \t](?P<i>[A-Z]\.))?,[ \t]{1,2}\Z"
)
# The patient word before the subject, opening the sentence: "patient tobiah was restless", "Pt Quorvane agrees".
_PATIENT_WORD_BEFORE = r"(?r)(?<![\w'])(?:the[ \t]{1,2})?(?:patient|pt\.?)[ \t]{1,2}\Z"


def _after_patient_word(text: str, at: int) -> bool:
    found = search_before(_PATIENT_WORD_BEFORE, text, at, 16)
    return found is not None and _opens_sentence(text, found.start())


# The given name or initial before a surname that opens a sentence: "Tobiah Quorvane agrees", "T. Quorvane agrees".
_GIVEN_BEFORE = r"(?r)(?<![\w'./-])(?P<n>[A-Za-z][A-Za-z'\-]{1,24}|[A-Za-z]\.)[ \t]{1,2}\Z"


def _opens_sentence(text: str, at: int) -> bool:
    return _SENTENCE_START.search(text, max(0, at - 4), at) is not None


# A conjunction that opens a clause, whose subject comes next as a sentence's does: "and Quelbine called early",
# "once quelbine woke up", "until Tobiah arrived".
_CLAUSE_START = regex.compile(
    r"(?<![\w'])(?i:and|but|once|when|while|until|after|before|since|then|so|because)[ \t]{1,2}\Z"
)


def _opens_clause(text: str, at: int) -> bool:
    return _CLAUSE_START.search(text, max(0, at - 10), at) is not None


# An intensive care unit's abbreviation ("cvicu", "tsicu", "ccu"), no name (but "Popescu" is one).
_ICU_NAME = regex.compile(r"(?:icu|ccu)$")


def _rare_subject_word(word: str, text: str, at: int) -> bool:
    if not _bare_name_word(word, text, at):
        return False
    lower = word.lower()
    if _ICU_NAME.search(lower):
        return False  # a unit: "Cvicu called", "tsicu called back"
    return (lower in known_names() and _zipf(lower) < 3.5) or _zipf(lower) < 2.0


def _subject_name(text: str, m: regex.Match[str], label: Label = Label.PATIENT) -> list[Hit]:
    """A name with no trigger, opening a sentence before a verb of agreeing or stating: "Tobiah agrees with plan.",
    "Tobiah Quorvane agrees", "T. Quorvane agrees". Only words that are no English word (wordfreq), no note or clinical
    term, and capitalised where the text has case: "Pt agrees", "Family states", "Nephro called" and "Lasix given" are
    not names."""
    return _subject_name_before(text, m.start(), label)


def _subject_name_before(text: str, at: int, label: Label = Label.PATIENT, subject: str = _SUBJECT_WORD) -> list[Hit]:
    """:func:`_subject_name` of the name that ends before ``at`` as ``subject`` (a reverse regex) finds it."""
    found = search_before(subject, text, at, 30) or search_before(_APPOSED_SUBJECT, text, at, 40)
    if found is None or not _rare_subject_word(found["n"], text, found.start("n")):
        return []
    if found["i"] and window_case(text, found.start("n")) != "mixed":
        return []  # without case, "X." may be a sentence's end ("Lasix D. reports" is no name)
    start = found.start("g") if found["g"] else found.start("n")  # the glued initial's, where there is one
    if found.groupdict().get("p") is not None:  # "pt, Tobiah, is restless": the patient word opens the sentence
        return (
            [Hit(start, found.end("i") if found["i"] else found.end("n"), label)]
            if _opens_sentence(text, found.start("p"))
            else []
        )
    if not _opens_sentence(text, start) and not _opens_clause(text, start) and not _after_patient_word(text, start):
        given = search_before(_GIVEN_BEFORE, text, start, 30)
        # The given name opens the sentence, or follows the patient word that does ("PATIENT TOBIAH QUORVANE ARRIVED").
        if given is None or not (
            _opens_sentence(text, given.start("n")) or _after_patient_word(text, given.start("n"))
        ):
            return []
        word = given["n"]
        initial = len(word) == 2 and word.endswith(".")
        if not (initial and (word[0].isupper() or window_case(text, given.start()) != "mixed")) and not (
            _rare_subject_word(word, text, given.start())
        ):
            return []
        start = given.start("n")
    return [Hit(start, found.end("i") if found["i"] else found.end("n"), label)]


# Initials that stand for the patient before the age, as case reports and clinic letters write them: "T.Q. is a 45 y/o
# F", "T. Q. is a 45 year old woman", "TQ is a 45 yo man", "J.S., a 62-year-old man, presented".
_INITIALS = r"(?P<n>(?:[a-z]\.[ \t]?){1,2}[a-z]\.|(?-i:[A-Z]{2,3}))"
_INITIALS_SUBJECT = r"(?r)(?<![\w'./-])" + _INITIALS + r"[ \t]{1,2}\Z"
_INITIALS_APPOSED = r"(?r)(?<![\w'./-])" + _INITIALS + r",[ \t]{1,2}an?[ \t]{1,2}\Z"
_LATIN_ABBREVIATIONS = frozenset({"e.g.", "i.e.", "a.m.", "p.m.", "n.b.", "q.d.", "b.i.d.", "t.i.d.", "q.i.d.", "p.o."})


def _patient_initials(text: str, found: regex.Match[str] | None) -> list[Hit]:
    """The initials ``found`` (group n) where they open a sentence and are initials: dotted letters that are capitals
    where the text has case, and no Latin abbreviation ("e.g."); capitals without full stops only in text with case and
    where they are no word or note abbreviation ("PT is a 45 yo man", "HE IS A 45 YO MAN")."""
    if found is None or not _opens_sentence(text, found.start("n")):
        return []
    initials = found["n"]
    lower = initials.lower()
    mixed = window_case(text, found.start("n")) == "mixed"
    if "." in initials:
        initialled = (initials.isupper() or not mixed) and lower.replace(" ", "") not in _LATIN_ABBREVIATIONS
    else:
        initialled = mixed and lower not in NON_NAMES and _zipf(lower) < 3.0
    return [Hit(found.start("n"), found.end("n"), Label.PATIENT)] if initialled else []


def _subject_age_name(text: str, m: regex.Match[str]) -> list[Hit]:
    """The patient's initials (:func:`_patient_initials`) or name (:func:`_subject_name`) opening the sentence that
    gives the age."""
    return _patient_initials(text, search_before(_INITIALS_SUBJECT, text, m.start(), 12)) or _subject_name(text, m)


# The name that a comma sets off before the age, as a note or a list of patients opens: "Tobiah Quorvane, 78 yo M",
# "QUORVANE, 82F WITH CHF" (the age: see _APPOSED_AGE).
_APPOSED_AGE_SUBJECT = (
    r"(?r)(?<![\w'./-])(?P<g>[A-Za-z]\.)?(?P<n>[A-Za-z][A-Za-z'\-]{1,24})(?:[ \t](?P<i>[A-Z]\.))?,[ \t]{1,2}\Z"
)


def _apposed_age_name(text: str, m: regex.Match[str]) -> list[Hit]:
    """The name set off by a comma before the age, opening a sentence or a line: "Tobiah, 78 yo M w/ hx of CAD",
    "Quorvane, 82F". Its words are :func:`_subject_name`'s; "Pt, 78 yo M", "Lasix, 40 mg", "Assessment, 78 yo M"
    name no one."""
    return _subject_name_before(text, m.start(), subject=_APPOSED_AGE_SUBJECT)


def _initials_before_age(text: str, m: regex.Match[str]) -> list[Hit]:
    """The patient's initials set off before the age: "J.S., a 62-year-old man, presented"."""
    return _patient_initials(text, search_before(_INITIALS_APPOSED, text, m.start(), 20))


# What a person who opens a sentence by a first name alone does next, beyond SUBJECT_VERB_WORDS: a copula, "has",
# or one of the verb forms of VERB_FORMS ("Harold was calm overnight", "John slept well", "Marisol remains on
# bipap"); and the relative who came with the person ("Tamsin and husband at bedside").
_FIRST_NAME_SUBJECT_WORDS = ("is", "was", "has", "had", *sorted(VERB_FORMS))
_WITH_RELATIVE = r"\band[ \t]{1,2}(?:(?:her|his|their)[ \t]{1,2})?" + FAMILY + r"(?![\w'])"


def _first_name_subject(text: str, m: regex.Match[str]) -> list[Hit]:
    """A listed first name that is no English word (``common_words``: "Frank", "Grace", "Will" and "Mark" are) opening
    a sentence before a verb: "Harold was calm overnight", "JOHN DENIES PAIN", "Tamsin and husband at bedside". The
    rarer names are :func:`_subject_name`'s; this takes the common ones ("John", "Mary") that a name list knows as
    names first. "Pt was", "Lasix was given" and "Jan 3 was" name no one (no first name, or no verb after it)."""
    # The lookbehind's word is the one found below, or nothing is kept (a stop or an initial glued before it): most
    # sentences open with no first name ("Pt was", "He is"), and a set lookup settles those before the search.
    if not _uncommon_first_name(m["w"].lower()):
        return []
    found = search_before(_SUBJECT_WORD, text, m.start(), 30)
    if found is None or found["i"] or found["g"] or not _opens_sentence(text, found.start("n")):
        return []
    word = found["n"]
    lower = word.lower()
    if not _uncommon_first_name(lower) or is_verb_form(lower):
        return []
    if not _bare_name_word(word, text, found.start("n")):
        return []
    return [Hit(found.start("n"), found.end("n"), Label.PATIENT)]


# What a nurse does to or for the patient, written before the patient's name: "Assisted Kiochao to chair",
# "Reoriented Kiochao frequently", "Encouraged Tobiah to use IS".
CARE_VERB_WORDS = (
    "encouraged", "assisted", "helped", "turned", "repositioned", "reoriented", "re-oriented", "reminded",
    "instructed", "educated", "taught", "medicated", "reassured", "redirected", "calmed", "bathed", "fed", "ambulated",
    "walked", "washed", "suctioned", "dangled", "comforted", "positioned", "roused", "awakened", "settled",
)  # fmt: skip


def _care_object(text: str, m: regex.Match[str]) -> list[Hit]:
    """The patient named after a nurse's verb of care: a word that may be a subject's name (:func:`_rare_subject_word`:
    a listed name that is no common word, or a rare word), capitalised in text with case; without case a listed name
    written in the text's one case ("REASSURED JOHANNA FREQUENTLY"); never a relative's word ("Educated Wife"), a drug
    ("Medicated Percocet") or a clinical word ("Suctioned Trach")."""
    word, at = m["n"], m.start("n")
    mode = window_case(text, at)
    cased = word[0].isupper() and word[1].islower()
    if cased != (mode == "mixed") or (mode == "upper") != word.isupper():
        return []
    if word.lower() in _KIN_WORDS or is_verb_form(word.lower()):
        return []
    if not _rare_subject_word(word, text, at):
        return []
    if mode != "mixed" and word.lower() not in known_names():
        return []  # without case a rare word is as often a clinical one ("SUCTIONED OROPHARYNX"): a listed name only
    return [Hit(at, m.end("n"), Label.PATIENT)]


_NAME_PAIR = (
    r"(?r)(?<![\w'-])(?P<a>[A-Za-z][A-Za-z'\-]{1,24})[ \t]{1,2}(?:and|&)[ \t]{1,2}(?P<b>[A-Za-z][A-Za-z'\-]{1,24})"
    r"[ \t]{1,2}\Z"
)


def _inverted_patient_field(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "Pt: Kechiexek, Basheam M.": a consult's or letter's patient field with the name written surname first. "Pt:"
    also opens nursing findings ("PT: LETHARGIC, RESPONSIVE", "Pt: Intubated, sedated"), so only this shape counts:
    no note, clinical or function word, both capitalised where the text has case, and without case cues (or in capitals)
    a listed first name after the comma."""
    surname, given = m["s"], m["g"]
    for word in (surname, given):
        lower = word.lower()
        if lower in NON_NAMES or lower in STOP_WORDS or lower in clinical_terms():
            return []
    mode = window_case(text, m.start("s"))
    if mode == "mixed" and not (surname.isupper() or given.isupper()):
        named = surname[0].isupper() and given[0].isupper() and is_name_word(given, mode, True)
    else:  # no case cues, or capitals among small letters (a heading's shouting: "PT: LETHARGIC, RESPONSIVE")
        named = given.lower() in known_names()
    if not (named and is_name_word(surname, mode, True)):
        return []
    return [Hit(m.start("s"), m.end(), Label.PATIENT)]


def _inverted_heading(text: str, m: regex.Match[str]) -> list[Hit]:
    """The first line of a note that is a name alone, surname first, as a label or a chart's header gives it: a listed
    first name after the comma, or two words no dictionary knows, both capitalised where the text has case
    ("QUORVANE, JOHN", "QUORVANE, TOBIAH", "Quorvane, Tobiah M."; not "NEURO, STABLE" or "Plan, Continue")."""
    surname, given = m["s"], m["g"]
    if any(w.lower() in NON_NAMES or w.lower() in clinical_terms() for w in (surname, given)):
        return []
    mode = window_case(text, m.start("s"))
    if mode == "mixed" and not (surname[0].isupper() and given.istitle()):
        return []
    unknown = all(_one_case_name_word(w, True) for w in (surname, given))
    if not (unknown or (given.lower() in known_names() and is_name_word(surname, mode, True))):
        return []
    return [Hit(m.start("s"), m.end(), Label.PATIENT)]


# The words that open a line before a record identifier: "QUORVANE, TOBIAH  MRN 3344556", "tamsin quorvane dob
# 3/4/1960", "QUORVANE, TOBIAH  C3651731  DOB: 4/1985" (a label header, a worklist row, a search). Two to four words
# or initials, perhaps after a comma; a search may start with the word patient ("pt tobiah quorvane dob").
_NAME_OPENING_LINE = (
    r"(?r)(?:\A|(?<=\n))[ \t]{0,8}(?:(?:pt|patient)[ \t]{0,2}:?[ \t]{1,3})?"
    r"(?P<n>[A-Za-z][A-Za-z'\-]{0,24}\.?(?:,?[ \t]{1,2}[A-Za-z][A-Za-z'\-]{0,24}\.?){1,3})"
    # a record number between the name and what follows it ("QUORVANE, TOBIAH  C3651731  DOB: ...")
    r"(?:[ \t]{1,4}[A-Za-z]{0,3}\d[\w\-]{3,15})?"
    r"[ \t]{0,4}[,:;(\-]?[ \t]{0,4}\Z"
)
_PATIENT_WORDS = frozenset({"pt", "patient"})
# Record identifiers whose holder is named before them (their numbers are the id rules' to find).
RECORD_ID_WORDS = ("mrn", "mr#", "mr no", "dob", "d.o.b", "date of birth", "ssn", "nhs no", "nhs number", "hosp no")
# An age and sex after the name that opens a line, as a search, a handover list or a forum's title writes them
# ("tamsin quorvane 34f", "Quorvane 72M CHF", "QUORVANE, T 45 yo M").
_AGE_SEX = r"\d(?<![\w/.-]\d)\d{0,2}[ \t]?(?:y/?o|yrs?|y\.o\.)?[ \t]?(?:[MFmf]|male|female|man|woman)(?![\w])"
# A numeric date that ends its line, as a birth date ends a search or a worklist row ("tobiah quorvane 3/4/1960").
_DATE_ENDING_LINE = r"\d(?<![\w/.-]\d)\d?([/.-])\d{1,2}\1(?:\d{4}|\d{2})[ \t]{0,4}(?=\n|\Z)"


def _record_name_word(word: str, mode: str) -> bool:
    """Whether a word of two letters or more in a record's name slot may be a name: no note, service, clinical or record
    word, capitalised where the text has case, and a listed name (as after a title) or a rare word."""
    lower = word.lower()
    if lower in NON_NAMES or lower in _SERVICE_WORDS or lower in clinical_terms() or lower in RECORD_ID_WORDS:
        return False
    if mode == "mixed" and not word[0].isupper():
        return False
    zipf = _zipf(lower)
    return (lower in known_names() and zipf < 5.6) or zipf < 3.0


# A name in a record whose fields a caret or a bar delimits: a header line ("ADMISSION^35471863^Quorvane T^4/17/2005"),
# an HL7 v2 segment, whose name field's components a caret joins ("PID|1||123^^^MRN||QUORVANE^TOBIAH^J||19500304|M").
_DELIMITED_NAME = (
    r"(?m)[\^|](?P<n>(?:[A-Za-z]\.[ \t]?)?[A-Za-z][A-Za-z'\-]{1,30}"
    r"(?:(?:,[ \t]{0,2}|[ \t]{1,2}|\^)(?:[A-Za-z][A-Za-z'\-]{1,30}\.?|[A-Za-z]\.?)){0,3})(?=[\^|]|[ \t]{0,8}$)"
)
_NAME_PIECE = regex.compile(r"[A-Za-z][A-Za-z'\-]*")


def _delimited_name(text: str, m: regex.Match[str]) -> list[Hit]:
    """The value of a caret- or bar-delimited field, on a line of three delimiters or more, when it is a name and an
    initial, or two to four name words ("Quorvane T", "Quorvane, Tobiah", "S.Quorvane-Lindt", "QUORVANE^TOBIAH^J"):
    each full word passes :func:`_record_name_word`. A record's type, a code or a single word is none ("ADMISSION",
    "^^^MRN", "CBC^Blood"). The first name of a line is the patient, a later one a clinician."""
    start = m.start("n")
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", m.end())
    line = text[line_start : len(text) if line_end < 0 else line_end]
    if "^" not in line or line.count("^") + line.count("|") < 3 or not _names_a_person(text, m):
        return []
    end = m.end()
    if m["n"].endswith(".") and len(m["n"].rstrip(".").split()[-1]) > 1:
        end -= 1  # a full stop, not an initial's
    # A record names its patient first and a clinician after ("...^Quorvane T^4/17/2005^Brantisk, Tamsin").
    earlier = rx(_DELIMITED_NAME).finditer(text, line_start, start)
    named_before = any(e.end() <= start and _names_a_person(text, e) for e in earlier)
    return [Hit(start, end, Label.DOCTOR if named_before else Label.PATIENT)]


def _names_a_person(text: str, m: regex.Match[str]) -> bool:
    pieces = _NAME_PIECE.findall(m["n"])
    full = [p for p in pieces if len(p) > 1]
    if len(pieces) < 2 or not full:
        return False
    mode = window_case(text, m.start("n"))
    return all(_record_name_word(word, mode) for word in full)


def _name_opening_line(full_words: int) -> Validator:
    """The patient named at the start of a line, before a record identifier or a birth date: each word an initial, or
    no note, service or clinical word and a listed name (as after a title) or a rare word (capitalised where the text
    has case), and ``full_words`` words at least not an initial. "Labs MRN", "Name DOB MRN" and "Pt mrn" name no
    one."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        found = search_before(_NAME_OPENING_LINE, text, m.start(), 90)
        if found is None:
            return []
        mode = window_case(text, found.start("n"))
        pieces = [
            (found.start("n") + w.start(), found.start("n") + w.end(), w[0])
            for w in rx(r"[A-Za-z][A-Za-z'\-]*\.?").finditer(found["n"])
        ]
        while pieces and pieces[0][2].lower() in _PATIENT_WORDS:
            pieces.pop(0)  # "pt pt tobiah": the lead the opening's own group could not hold apart
        if mode == "mixed":
            # In text with case an initial is a capital: "TQ, a 70 yo F" ends the name before the article.
            while pieces and len(pieces[-1][2].rstrip(".")) == 1 and pieces[-1][2].islower():
                pieces.pop()
            if any(len(piece.rstrip(".")) == 1 and piece.islower() for _, _, piece in pieces):
                return []
        named = 0
        for _, _, piece in pieces:
            word = piece.rstrip(".")
            if len(word) == 1:
                continue
            if not _record_name_word(word, mode):
                return []
            named += 1
        if named < full_words:
            return []
        start, end, last = pieces[0][0], pieces[-1][1], pieces[-1][2]
        if last.endswith(".") and len(last) > 2:
            end -= 1  # a full stop, not an initial's
        return [Hit(start, end, Label.PATIENT)]

    return check


def _name_pair(text: str, m: regex.Match[str]) -> list[Hit]:
    """Both words of "Quorvane and Brantisk are his proxies", when each may be a name (no English word, no note or
    clinical term, capitalised where the text has case): "Son and daughter are his proxies" names no one."""
    found = search_before(_NAME_PAIR, text, m.start(), 60)
    if found is None:
        return []
    hits = []
    for group in ("a", "b"):
        word, at = found[group], found.start(group)
        lower = word.lower()
        if not _bare_name_word(word, text, at):
            return []
        if not ((lower in known_names() and _zipf(lower) < 4.0) or _zipf(lower) < 2.5):
            return []
        hits.append(Hit(at, found.end(group), Label.RELATIVE))
    return hits


# The words that go on after a person's age set off by commas ("Tamsin, 34, from Quelbury"; "Quorvane, 52, was"): a
# laboratory value's list goes on otherwise ("Hemoglobin, 12, stable").
_AFTER_APPOSED_AGE = frozenset(
    {"from", "of", "who", "whose", "was", "is", "has", "had", "lives", "lived", "works", "worked", "said", "says",
     "told", "died", "became", "grew"}
)  # fmt: skip


_COPULA_BEFORE = r"(?i)\b(?:i['’]m|am|is|are|was|were|be)[ \t]{1,2}\Z"


def _named_before_age(found: Validator) -> Validator:
    """``found``'s names before an age that hold no clinical term and a listed name, or that a person's clause
    follows: one rare word or two before a number are as often a laboratory's analyte ("Hemoglobin, 12, stable";
    "Serum Creatinine (2)")."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        terms, listed = clinical_terms(), known_names()
        after = word_after(text, m.end())
        kept = []
        for hit in found(text, m):
            pieces = [w.lower().rstrip(".,") for w in text[hit.start : hit.end].split()]
            if any(p in terms for p in pieces) or search_before(_COPULA_BEFORE, text, hit.start, 12):
                continue  # "I'm Black, 45, from": after a copula, what the writer is, not a name
            if any(p in listed for p in pieces) or after in _AFTER_APPOSED_AGE:
                kept.append(hit)
        return kept

    return check


def _first_names() -> frozenset[str]:
    """The listed first names, lower case (the lexicon loader caches them)."""
    from deident.detect.lexicon.data import load_lexicon

    return load_lexicon("first_names")


def _uncommon_first_name(lower: str) -> bool:
    """A listed first name that is no English word (``common_words``: "Frank", "Grace", "Will" are)."""
    from deident.detect.lexicon.data import load_lexicon

    return lower in _first_names() and lower not in load_lexicon("common_words")


# What may follow a name the writer introduces themself by: "I'm Tamsin and", "it's Tobiah again", "this is Tamsin
# calling".
_INTRODUCTION_ENDS = r"(?:and|from|here|again|calling|speaking)(?![\w])"


def _self_introduced(text: str, m: regex.Match[str]) -> list[Hit]:
    """The writer's own name after "I'm" ("Hi all, I'm Tamsin, 29F"): written as a name where the text has case, each
    word a listed first name no commoner than "Grace", or a rare word in text with case. "I'm English", "I'm Young",
    "I'm Diabetic", "I'm Anaemic" and "i'm sure" are no names: a surname is also a common word, a first name may be one
    too ("I'm Christian"), and a rare word may be a condition."""
    mixed = window_case(text, m.start("n")) == "mixed"
    for word in m["n"].split():
        lower = word.lower()
        if not _bare_name_word(word, text, m.start("n")):
            return []
        zipf = _zipf(lower)
        if not ((lower in _first_names() and zipf < 4.8) or (mixed and zipf < 2.5 and not lower.endswith("ic"))):
            return []
    return [Hit(m.start("n"), m.end("n"), Label.PATIENT)]


# A person's age set off after the name, as news items, posts and case vignettes write it: "Tamsin, 34, from",
# "Tobiah Quorvane, aged 52, was", "Quorvane, 52 years old, who", "Tamsin, 29F, from", "Marisol Geabrev (34)".
# Matched from the age's first digit (a digit-run scan); the validator finds the name before the comma or bracket.
_AGE_NUMBER = r"(?:[1-9]\d?|1[01]\d)(?!\d)"
# The age after initials and ", a": "62-year-old", "62 year old", "62 yo", "62 y/o".
# What follows an age's number: "-year-old", " yrs old", " yo", " y/o".
_YEARS_OLD = r"[ \t-]{1,2}(?:years?|yrs?)[ \t-]{1,2}old|[ \t-]?y/?o"
_AGE_AFTER_INITIALS = r"(?<=,[ \t]{1,2}an?[ \t]{1,2})" + _AGE_NUMBER + r"(?:" + _YEARS_OLD + r")(?![\w])"
# The age after a name and its comma: "78 yo M", "82F", "82 y/o", "82-year-old" (the name: _apposed_age_name).
_APPOSED_AGE = (
    r"(?<=[A-Za-z.],[ \t]{1,2})" + _AGE_NUMBER
    + r"(?:" + _YEARS_OLD + r"|[ \t-]?y\.o\.?|[ \t]?(?-i:[MF]))(?![\w])"
)  # fmt: skip
_AGED = r"(?:aged[ \t]{1,2})?"
_AGE_COMMA_GLUE = r",[ \t]{1,2}" + _AGED
_AGE_BRACKET_GLUE = r"[ \t]{1,2}\([ \t]{0,2}" + _AGED
_AGE_BETWEEN_COMMAS = (
    f"(?<={_AGE_COMMA_GLUE}){_AGE_NUMBER}"
    r"(?:[ \t]?[MFmf]|[ \t]{1,2}(?:(?:years?|yrs?)[ \t]{1,2}old|y/?o))?[ \t]{0,2},"
)
_AGE_IN_BRACKETS = r"(?<=" + _AGE_BRACKET_GLUE + r")" + _AGE_NUMBER + r"[ \t]{0,2}(?:[MFmf]|y/?o|yrs?)?[ \t]{0,2}\)"


def _cased_or_listed(found: Validator, unknown: bool = False) -> Validator:
    """``found``'s names where the text has case, else only those whose every word is a listed name: after a trigger
    that may name a thing too, an unlisted word in one-case text has no capital to tell ("name is illegible", "report
    from osh"). With ``unknown``, also a word that no dictionary knows, with a vowel, as a name is written (a
    service's member in brackets: "renal (quorvane) aware"; "renal (crrt)" is an abbreviation)."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        hits = found(text, m)
        if window_case(text, m.start("n")) == "mixed":
            return hits
        return [h for h in hits if all(_one_case_name_word(w, unknown) for w in text[h.start : h.end].split())]

    return check


def _one_case_name_word(word: str, unknown: bool) -> bool:
    """A listed name, or with ``unknown`` a word no dictionary knows, four letters or more with a vowel."""
    lower = word.lower().rstrip(".,")
    if lower in known_names():
        return True
    return unknown and len(lower) > 3 and _zipf(lower) < 1.5 and regex.search("[aeiouy]", lower) is not None


# The name after "her name is" (as after a weak trigger); a clinician after words that may name a place or a service
# instead ("report from OSH", "team (MD, RN)").
_stated_name = _cased_or_listed(_names(Label.PATIENT, strong=False), unknown=True)
_clinician_cased_or_listed = _cased_or_listed(_names(Label.DOCTOR, strong=False))
_service_member = _cased_or_listed(_names(Label.DOCTOR, strong=False), unknown=True)
# How a unit's warning of patients with like names goes on: "NAME ALERT** similar name", "same last name".
_LIKE_NAMES = r"(?:similar|same)[ \t]{1,2}(?:last[ \t]{1,2})?names?"


def _rare_words_in_case(label: Label, in_case: bool = True) -> Validator:
    """Group "n" as a name of ``label``, each full word (initials aside) no English word or clinical term. With
    ``in_case``, in text with case only, each word capitalised: after the word patient ("Patient Zelphine Quorvane
    admitted"; "Patient Care", "Pt Controlled Analgesia" are no names), after "saw" or "seeing" ("saw Brantisk T. in";
    "saw Cardiology today", "seeing Ativan work" are no names). Without it, in text written in one case only, where the
    rule's phrase must carry the name ("been seeing raelontett for 26 yrs"; "been seeing improvement for a week",
    "seeing spots for days" name no one)."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        start = m.start("n")
        if (window_case(text, start) == "mixed") != in_case:
            return []
        for word in regex.finditer(r"\S+", m["n"]):
            if len(word[0].rstrip(".")) > 1 and not _rare_subject_word(word[0], text, start + word.start()):
                return []
        return [Hit(start, m.end("n"), label)]

    return check


_patient_word_title = _rare_words_in_case(Label.PATIENT)
_seen_clinician = _rare_words_in_case(Label.DOCTOR)
_long_seen_clinician = _rare_words_in_case(Label.DOCTOR, in_case=False)


def _subject_of(label: Label) -> Validator:
    """:func:`_subject_name` for a subject of ``label``: a clinician before a verb of a clinician's work ("Quorvane
    examined pt"), a relative before the role of one who speaks for the patient ("Ahantski is family contact")."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        return _subject_name(text, m, label)

    return check


_clinician_subject = _subject_of(Label.DOCTOR)
_family_role_subject = _subject_of(Label.RELATIVE)


def _patient_in_parentheses(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "pt (Tobiah)", "patient (tobiah)", "oriented to name ("Tobiah")": the patient named in brackets after the word,
    when the bracketed word is no English word and no clinical term, and capitalised where the text has case
    ("pt (afebrile)", "pt (DNR)" are not names)."""
    word, at = m["n"], m.start("n")
    if not _bare_name_word(word, text, at):
        return []
    lower = word.lower()
    known = lower in known_names()
    if window_case(text, at) == "mixed":
        rare = (known and _zipf(lower) < 4.0) or _zipf(lower) < 2.5
    else:  # without case cues only a known given name or surname: "pt (intubated)" is a state
        rare = known and _zipf(lower) < 4.0
    return [Hit(at, m.end("n"), Label.PATIENT)] if rare else []


def _language_names() -> frozenset[str]:
    """The major languages' English names, lower case ("spanish", "haitian"): "Spanish family" names no one."""
    from deident.detect.lexicon.data import load_lexicon

    return load_lexicon("languages")


_FAMILY_SURNAME = r"(?r)(?:(?P<the>\b(?i:the))[ \t]{1,2})?(?<![\w'.-])(?P<n>[A-Za-z][A-Za-z'\-]{1,24})[ \t]{1,2}\Z"


def _family_surname(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "the Okonjo family", "Castellano family in to visit": a surname before "family". Only a word written as a
    name where the text has case, no clinical, note or language word, and a known name or a rare word ("ICU family
    meeting", "Supportive family", "Spanish family" are not names); after "the" a commoner known name will do
    ("the Young family")."""
    found = search_before(_FAMILY_SURNAME, text, m.start(), 36)
    if found is None:
        return []
    word = found["n"]
    lower = word.lower()
    if not _bare_name_word(word, text, found.start("n")) or lower in _language_names():
        return []
    known, zipf = lower in known_names(), _zipf(lower)
    if found["the"]:
        if not ((known and zipf < 5.0) or zipf < 3.0):
            return []
    elif not ((known and zipf < 4.0) or zipf < 2.5):
        return []
    return [Hit(found.start("n"), found.end("n"), Label.PATIENT)]


def _signature(text: str, m: regex.Match[str]) -> list[Hit]:
    """A name alone on the last line of a note ("Mary Rueping", "SUSAN"): its author, a clinician. A capitalised
    word and an initial ("Quorvane S.") sign a letter or a post too; that shape needs no listed name."""
    if text[m.end() :].strip():
        return []
    words = m["n"].split()
    mode = window_case(text, m.start("n"))
    if m["d"] is not None and (_dash_listed(text, m.start()) or any(w.lower() in clinical_terms() for w in words)):
        return []  # a list's last item ("- foley"), not a signature after its dash
    if m["g"] is not None:
        return _initial_signature(m, words, mode)
    if m["i"] is not None:
        word = words[0]
        # as the note writes names: capitalised in mixed case, else in the note's one case
        cased = mode != "mixed" or (word.istitle() and m["i"][0].isupper())
        if len(words) == 1 and cased and is_name_word(word, mode, False) and (m["i"].endswith(".") or _rare_name(word)):
            return [_close(text, [(m.start("n"), m.end("i"))], Label.DOCTOR)]
        return []
    if not all(is_name_word(w, mode, False) for w in words[1:]):
        return []
    # After a signature's dash, one name word that is no English word signs too ("--Kiochao"); after a closing
    # ("Thanks,", "Kind regards", "Sent from my iPhone"), any name word but a relative's ("Best,\nTobiah"; not "Mom").
    dashed_name = m["d"] is not None and len(words) == 1 and _zipf(words[0].lower()) < 2.0
    closed_name = len(words) == 1 and words[0].lower() not in _KIN_WORDS and _after_closing(text, m.start())
    named = words[0].lower().rstrip(".") in known_names() or _unlisted_full_name(words, mode)
    # One word that no dictionary knows at all, alone on the last line of a note with case and capitalised, signs a
    # post or a note ("...is long.\nZhiobril"): four letters or more, no drug ("Levophed") or clinical word. Without
    # case a misspelling looks the same ("will cont to monitor.\nmonitr").
    lone = words[0].lower()
    unknown_word = (
        mode == "mixed" and len(words) == 1 and len(lone) >= 4 and _zipf(lone) == 0 and lone not in clinical_terms()
    )
    if not (named or dashed_name or closed_name or unknown_word):
        return []
    if len(words) == 1 and not is_name_word(words[0], mode, False):
        return []
    return [_close(text, [(m.start("n"), m.end("n"))], Label.DOCTOR)]


# A letter's or a message's closing, alone on its line before the writer's name.
_CLOSING_LINE = regex.compile(
    r"(?i)[ \t]*(?:(?:many[ \t]|with[ \t]|again[ \t])?(?:thanks|thank[ \t]you|thx)(?:[ \t](?:again|so[ \t]much))?"
    r"|(?:best|kind|warm|warmest|with[ \t]best)?[ \t]?regards|best(?:[ \t]wishes)?|all[ \t]the[ \t]best|cheers"
    r"|(?:yours[ \t])?(?:sincerely|truly|faithfully)|(?:lots[ \t]of[ \t])?love|take[ \t]care|respectfully"
    r"|cordially|hugs|xoxo|god[ \t]bless|blessings|sent[ \t]from[ \t]my[ \t][\w ]{2,20})[ \t]*[,.!]?[ \t]*"
)


def _previous_line(text: str, line_start: int) -> str:
    """The last non-blank line before the one at ``line_start`` (its newline, or the text's start), stripped."""
    before = text[: max(line_start, 0)].rstrip()
    return before[before.rfind("\n") + 1 :].strip()


def _after_closing(text: str, line_start: int) -> bool:
    """Whether the line before the one at ``line_start`` is a closing ("Thanks,", "Kind regards")."""
    return _CLOSING_LINE.fullmatch(_previous_line(text, line_start)) is not None


def _dash_listed(text: str, line_start: int) -> bool:
    """Whether the line before the one at ``line_start`` opens with a dash or a bullet too (a list's items)."""
    return _previous_line(text, line_start)[:1] in ("-", "–", "—", "~", "*", "•")


def _initial_signature(m: regex.Match[str], words: list[str], mode: str) -> list[Hit]:
    """An initial and a surname alone on the last line ("V Sakla", "T. Quorvane RN"): the surname a name word after
    a weak trigger, capitalised like the initial where the text has case; "A" and "I" need their full stop (an
    article, a pronoun)."""
    initial, word = m["g"], words[0]
    if len(words) != 1 or m["i"] is not None or (initial.lower() in ("a", "i") and not initial.endswith(".")):
        return []
    lower = word.lower()
    if lower in clinical_terms() or lower in GRAMMAR_WORDS or completes_a_letter(lower):
        return []
    if not is_name_word(word, mode, False):
        return []
    if _verb_after_initial(word, past_too=True):
        return []  # a letter's shorthand and a verb: "K Repleted", "K given"
    if mode == "mixed" and not (initial[0].isupper() and word.istitle()):
        return []
    return [Hit(m.start("g"), m.end("n"), Label.DOCTOR)]


# A dotted abbreviation ending right before a word: "e.g. ", "i.e. ", "etc. ", "vs. " (it ends no sentence).
_DOTTED_ABBREVIATION_BEFORE = regex.compile(r"(?i)(?:(?<![\w.])(?:[a-z]\.){2,}|\b(?:etc|vs|viz|cf)\.)[ \t]{1,4}\Z")


def _closing_signature(text: str, m: regex.Match[str]) -> list[Hit]:
    """A note's author signing after its last sentence, on the same line: "...NOT 1400U/HR. SUSAN F.", "decrease
    anxiety.   Tamsin Q." A name and an initial (either order), or a listed first name alone; the name a known name
    or no English word, capitalised where the text has case, never a note, clinical or grammar word or a verb form
    ("RECHECK K.", "Will f/u." and "See Careview." sign nothing); an abbreviation's stop ends no sentence ("e.g.")."""
    if text[m.end() :].strip():
        return []
    word, at = m["n"], m.start("n")
    # Searched on the match's line only: no abbreviation spans a newline, and a search from the text's start cost
    # the whole note (0.4 ms for 4,000 characters).
    if _DOTTED_ABBREVIATION_BEFORE.search(text, m.start(), m.start("g") if m["g"] else at):
        return []
    lower = word.lower()
    if len(lower) < 3 or _signs_no_one(lower) or lower.endswith(CLINICAL_SUFFIXES):
        return []
    mixed = window_case(text, at) == "mixed"
    if mixed and not _capitalised_or_capitals(word):
        return []
    initial = m["g"] or m["i"]
    if initial:
        named = _rare_name(word)  # (its clinical-term test is settled above)
    else:
        named = _uncommon_first_name(lower) or (mixed and word[1:].islower() and _zipf(lower) < 2.0)
    if not named:
        return []
    return [Hit(m.start("g") if m["g"] else at, m.end("i") if m["i"] else m.end("n"), Label.DOCTOR)]


def _signs_no_one(lower: str) -> bool:
    """A word of a note, of grammar or of the clinic, or a verb form: no name that signs a note or a message."""
    return lower in NON_NAMES or lower in GRAMMAR_WORDS or is_verb_form(lower) or lower in clinical_terms()


# The words that close a message before its writer's name.
VALEDICTION_WORDS = (
    "thanks", "thank you", "thanks again", "thx", "regards", "best regards", "kind regards", "best", "best wishes",
    "cheers", "sincerely", "yours", "love", "warmly", "take care", "many thanks",
)  # fmt: skip


def _valediction(text: str, m: regex.Match[str]) -> list[Hit]:
    """The writer's name after a message's closing word on its last line ("Thanks, Tamsin", "Best, Tobiah Q."): each
    word capitalised where the text has case, an initial or no word of grammar, note, clinical term or common word
    ("Thanks, Doctor", "Thanks again", "Best, Everyone" sign nothing)."""
    if text[m.end() :].strip():
        return []
    mode = window_case(text, m.start("n"))
    for word in m["n"].split():
        bare = word.rstrip(".")
        lower = bare.lower()
        if len(bare) == 1:
            continue  # an initial
        if mode == "mixed" and not _written_as_name(bare):
            return []  # "Thanks, O'Brien" and "Best, Anne-Marie" are written as names; "Thanks, EVERYONE" is not
        if _signs_no_one(lower):
            return []
        if not ((lower in known_names() and _zipf(lower) < 4.5) or _zipf(lower) < 3.5):
            return []
    if all(len(w.rstrip(".")) == 1 for w in m["n"].split()):
        return []
    return [Hit(m.start("n"), m.end("n") - m["n"].endswith("."), Label.PATIENT)]


def _rare_name(word: str) -> bool:
    """A listed name that is no common word, or a word no dictionary knows, never a clinical term or a drug: what may
    sign with an initial after the note's last sentence ("... 1400U/HR. SUSAN F.") or with a bare letter on the last
    line ("Kelbur V"; not "Hep B", "Room A", "Zosyn Q")."""
    lower = word.lower()
    if lower in clinical_terms():
        return False
    return (lower in known_names() and _zipf(lower) < 4.5) or _zipf(lower) < 2.0


def _unlisted_full_name(words: list[str], mode: str) -> bool:
    """Two or three words written as names in text with case, none an English word or a clinical term ("Zelphine
    Quorvane"): a signature needs no listed given name then ("Neuro Checks", "Plan Continue" stay words)."""
    return (
        len(words) >= 2
        and mode == "mixed"
        and all(w.istitle() and _zipf(w.lower()) < 2.5 and w.lower() not in clinical_terms() for w in words)
    )


# Words that stand between a dash and a credential as the clinician's role or an instruction, not a name
# ("- charge RN", "- float RN", "- notify MD").
# Words that qualify a clinician's role by shift, post or standing ("charge RN", "night RN", "covering MD").
ROLE_QUALIFIER_WORDS = tuple(
    """
    charge primary float floating travel traveler agency resource triage bedside covering cover consulting
    referring treating admitting oncoming outgoing day night evening staff student new
    """.split()
)
SIGNATURE_NON_NAMES = frozenset(ROLE_QUALIFIER_WORDS) | frozenset(
    "unit icu ccu notify call page inform tell ask alert contact update consult see".split()
)


def _dash_signature(label: Label) -> Callable[[str, regex.Match[str]], list[Hit]]:
    """ "- rich rn" ending a line (a nurse signing a note entry), "-- frank (laurenw)" ending a post (a poster
    signing with a first name and a handle). The shape is strong enough for a name that is also an everyday word,
    so the words are judged as after a strong title."""

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        mode = window_case(text, m.start("n"))
        name_words = m["n"].split()
        if any(w.lower() in SIGNATURE_NON_NAMES or not is_name_word(w, mode, True) for w in name_words):
            return []
        return [Hit(m.start("n"), m.end("n"), label)]

    return check


# A clinician signing a note entry with the line's last words: a name with a dotted initial, or two capitalised words
# where the text has case, then a credential ("ALL IS WELL AT THIS TIME. G. WHIPPLE RRT", "MAY C. PAGE, RRT",
# "Ivy Pulse, RN"). The name stands at the line's start, after a sentence's end or after a run of blanks; the
# shortest such name is taken (lazily), so a sentence before it stays out ("updated.  Ivy Pulse,RN").
SIGNATURE_CREDENTIALS = ("rn", "r.n.", "rrt", "crt", "lpn", "np", "crnp", "cns", "msw", "licsw", "lcsw", "bsn", "ccrn")
_SIGNED_NAME = (
    r"(?r)(?:\A|(?<=\n)|(?<=[.!?;][ \t])|(?<=[ \t]{2}))[ \t]*"
    r"(?P<n>[A-Za-z][A-Za-z'\-]{0,24}\.?(?:[ \t]{1,2}[A-Za-z][A-Za-z'\-]{0,24}\.?){1,2}?)[ \t]{0,2},?[ \t]{0,2}\Z"
)


# Words that sign no one's name before a credential: titles, roles, their qualifiers and services.
_SIGNATURE_ROLE_WORDS = frozenset(
    {*DOCTOR_TITLES_WORDS, *DOCTOR_ROLES_WORDS, *ROLE_QUALIFIER_WORDS, *_SERVICE_WORDS, "unit", "icu", "ccu"}
)
# And the words of grammar but the modals, which may be first names here ("MAY C. PAGE, RRT").
_SIGNATURE_GRAMMAR_WORDS = GRAMMAR_WORDS - _MODAL_FIRST_NAMES


def _signature_line(text: str, m: regex.Match[str]) -> list[Hit]:
    """The name of :data:`_SIGNED_NAME` before a credential that ends its line. The shape carries it, so the words may
    be everyday or clinical words ("PAGE", "WHIPPLE", "Pulse") and a first name a modal ("MAY C. PAGE"); a word of
    grammar, a title, a role, a service word or an organism ("S. AUREUS") is none."""
    found = search_before(_SIGNED_NAME, text, m.start(), 70)
    if found is None:
        return []
    tokens = found["n"].split()
    words = [t.rstrip(".") for t in tokens if len(t.rstrip(".")) > 1]
    if not words or words[-1].lower() in SPECIES_EPITHETS or any(_ends_sentence(t) for t in tokens):
        return []  # an organism, or a sentence's end among the words ("PT REFUSED. J. RN")
    lowered = [w.lower() for w in words]
    if any(w in _SIGNATURE_ROLE_WORDS or is_verb_form(w) or w in _SIGNATURE_GRAMMAR_WORDS for w in lowered):
        return []
    if not any(len(t) == 2 and t.endswith(".") for t in tokens):
        # No initial: two words, the first a listed first name ("Ivy Pulse, RN"; not "Wound Care RN"), the second no
        # note word; capitalised where the text has case, or in one case on a line of their own ("JIM LONG RN" signing
        # a note in capitals).
        if len(words) != 2 or lowered[0] not in _first_names() or lowered[1] in NON_NAMES:
            return []
        capitalised = all(w[0].isupper() and w[1:].islower() for w in words)
        one_case = all(w.isupper() for w in words) or all(w.islower() for w in words)
        cased = capitalised and window_case(text, found.start("n")) == "mixed"
        if not cased and not ((one_case or capitalised) and at_line_start(text, found.start("n"))):
            return []
    end = found.end("n") - (1 if tokens[-1].endswith(".") and len(tokens[-1]) > 2 else 0)
    return [Hit(found.start("n"), end, Label.DOCTOR)]


def _vocative(text: str, m: regex.Match[str]) -> list[Hit]:
    """A greeted name: every word a known name (first or last) that is no common word on its own, or a word no
    dictionary knows and no clinical term ("hang in there zivaithis thousheasek!"). The greeting is a strong trigger:
    on message boards a lower-case name follows it in mixed-case text ("Mercy fixed it. hang in there zachary!")."""
    hits = _names(Label.PATIENT, strong=True)(text, m)
    return [hit for hit in hits if all(map(_greeted_name_word, text[hit.start : hit.end].split()))]


def _greeted_name_word(word: str) -> bool:
    lower = word.lower().strip(".")
    if lower in known_names():
        return _zipf(lower) < 5.0
    return _zipf(lower) < 1.5 and lower not in clinical_terms() and lower not in NON_NAMES


def _addressee(text: str, m: regex.Match[str]) -> list[Hit]:
    """The person a letter or fax is for, as after a title; not an office or service ("Attn: Medical Records Dept",
    "ATTN: PHARMACY"), whose words no list of names holds. "Attn" or "attention" without its colon is also the
    faculty ("ATTN SPAN SHORT"): there only a name written with case counts."""
    lead = text[m.start() : m.start("n")]
    if lead[:1] in "aA" and ":" not in lead and window_case(text, m.start("n")) != "mixed":
        return []
    hits = _STRONG_DOCTOR(text, m)[:1]  # one person: "FAO Hermione Quorvane, Ward 7" goes on with the place
    return [hit for hit in hits if not _names_an_office(text, hit)]


def _names_an_office(text: str, hit: Hit) -> bool:
    words_of = [w.lower() for w in regex.findall(r"[A-Za-z']+", text[hit.start : hit.end])]
    if word_after(text, hit.end) in DEPARTMENT_WORDS or any(w in DEPARTMENT_WORDS for w in words_of):
        return True
    return not any(w in known_names() or _zipf(w) < 2.5 for w in words_of)


# The validators of the "Ms" rule, built once rather than per match.
_STRONG_PATIENT = _names(Label.PATIENT, strong=True)
_WEAK_PATIENT = _names(Label.PATIENT, strong=False)
_STRONG_DOCTOR = _names(Label.DOCTOR, strong=True)


def _ms_title(text: str, m: regex.Match[str]) -> list[Hit]:
    """ "Ms"/"Mx" written as a title (capital, then lower case: "Ms. Fairweather", "Mx Quorvane") is one, as "Mrs" is;
    "MS" or "ms" is also mental status, multiple sclerosis or morphine ("MS. TOLERATING", "ms. replete" ending a
    sentence), so there only a listed name or a word no dictionary knows counts ("MS QUORVANE IS A 70 YO", "ms.
    quorvane c/o pain"; not a drug's or clinical word: "ms contin"), and "MS" among mixed-case words not at all."""
    title = m[0][:2]
    if title in ("Ms", "Mx"):
        return _STRONG_PATIENT(text, m)
    if title == "MS" and window_case(text, m.start()) == "mixed":
        return []
    return [
        h
        for h in _WEAK_PATIENT(text, m)
        if all(
            _one_case_name_word(w, True) and w.lower() not in clinical_terms() for w in text[h.start : h.end].split()
        )
    ]


def _names_before(
    label: Label | None,
    strong: bool,
    glue: str,
    min_words_without_comma: int = 1,
    initial_first: bool = False,
    partners: bool = False,
) -> Callable[[str, regex.Match[str]], list[Hit]]:
    """Validator for names that precede their trigger ("Jean Hudson, RN", "Hank Smith (son)").

    The match is the trigger; the name is found by a reverse regex search that ends where the trigger
    starts (``glue`` is what may stand between them), then name words are kept from the right. With ``partners``
    the names joined to it by a slash, "&" or "and" are taken too ("Kiochao/Brantisk aware"), each judged alone.
    """

    def check(text: str, m: regex.Match[str]) -> list[Hit]:
        found = search_before(r"(?r)(?<![\w'])(?P<n>" + CHAIN + ")" + glue + r"\Z", text, m.start(), 90)
        if found is None:
            return []
        start = found.start("n")
        mode = window_case(text, start)
        toks = _chain_tokens(found["n"], start)
        if toks and _ends_sentence(toks[-1][2]):
            return []  # "... secretions. MD aware": the trigger starts a new sentence
        kept: list[tuple[int, int]] = []
        for i in range(len(toks) - 1, -1, -1):
            s, e, piece = toks[i]
            # A word right before an accepted name word ("Hank Przybylo") or right after an initial
            # ("E. Welsh") is judged as after a strong trigger: the shape itself is evidence.
            initial_before = i > 0 and len(toks[i - 1][2].rstrip(".")) == 1 and toks[i - 1][2].endswith(".")
            shaped = strong or bool(kept) or initial_before
            if not _name_before_trigger(piece, mode, shaped):
                break
            if kept and _ends_sentence(piece):
                break
            kept.insert(0, (s, e))
        if not kept or all(len(text[s:e].rstrip(".")) == 1 for s, e in kept):
            return []
        if initial_first and (
            len(kept) < 2
            or len(text[kept[0][0] : kept[0][1]].rstrip(".")) != 1
            or text[kept[0][0] - 1 : kept[0][0]] in ("/", "&")
        ):
            return []  # "J SMITH ORDERED" but not "NEPRO ORDERED": only an initial and a name are shaped enough
        # A hyphenated surname ("Stord-Painter") counts as two name words.
        n_words = sum(1 + text[s:e].count("-") for s, e in kept)
        # "FEBRILE NP JEN": a lone word before "NP" is rarely a name unless set off by a comma, or written as a name in
        # text with case and known to no dictionary ("Kiochao MD notified"; "Renal MD", "Cvicu RN" are none)
        if (
            n_words < min_words_without_comma
            and "," not in text[kept[-1][1] : m.start()]
            and not (n_words == 1 and mode == "mixed" and _unlisted_capitalised(text[kept[0][0] : kept[0][1]]))
        ):
            return []
        named = [_close(text, kept, label)]
        return _list_partners(text, kept[0][0], mode, label) + named if partners else named

    return check


# The role closes its apposition: a comma, a semicolon, a bracket, a sentence's stop or the line's end.
_APPOSITION_END = r"(?=[ \t]{0,2}(?:[,;)]|\.(?!\w)|\r?\n|\Z))"
# Between the name and its role: the comma, an article, and a service ("Quorvane, the renal fellow,").
_APPOSITION_GLUE = r"[ \t]{0,2},[ \t]{0,2}(?:(?:the|our|a|an)[ \t]{1,2})?(?P<service>[A-Za-z]{2,16}[ \t]{1,2})?"
_names_before_apposition = _names_before(Label.DOCTOR, False, _APPOSITION_GLUE)


# A name in the possessive before whose relative, state or care follows ("Quorvane's daughter", "Tobiah's mood").
_POSSESSIVE_NAMES = _names_before(Label.PATIENT, False, r"['’][sS][ \t]{1,2}")


def _possessive_owner(text: str, m: regex.Match[str]) -> list[Hit]:
    """The name whose state or care follows it in the possessive, no eponym's ("Parkinson's meds")."""
    hits = _POSSESSIVE_NAMES(text, m)
    return [h for h in hits if not any(w.lower() in clinical_terms() for w in text[h.start : h.end].split())]


def _role_apposition(text: str, m: regex.Match[str]) -> list[Hit]:
    """A name, a comma and a clinician's role closed by punctuation ("Tamsin, social worker, met with family"). A word
    between the article and the role must be a service ("the renal fellow"): "pain, the nurse," names no one."""
    glue = search_before(r"(?r)" + _APPOSITION_GLUE + r"\Z", text, m.start(), 40)
    if glue is None:
        return []
    service = glue["service"]
    if service is not None and not is_service_word(service.strip().lower()):
        return []
    return _names_before_apposition(text, m)


def _unlisted_capitalised(word: str) -> bool:
    """A capitalised word of small letters after its capital that no dictionary or clinical list knows."""
    lower = word.lower()
    return (
        len(word) >= 4
        and word[0].isupper()
        and word[1:].islower()
        and _zipf(lower) < 1.0
        and lower not in clinical_terms()
        and not is_service_word(lower)
        and not lower.endswith(CLINICAL_SUFFIXES)
        and not _ICU_NAME.search(lower)  # a unit: "Cvicu RN", "Tsicu MD"
    )


def _name_before_trigger(piece: str, mode: str, shaped: bool) -> bool:
    """Whether a word before a trigger may be a name word: no title, no service before its act ("Nephro is aware",
    "Rheum aware"), and a name word (:func:`is_name_word`; ``shaped``: judged as after a strong trigger)."""
    lower = piece.lower().rstrip(".")
    return lower not in TITLE_WORDS and not is_service_word(lower) and is_name_word(piece, mode, shaped)


# A name joined to the next one of a list by a slash, "&" or "and" ("Kiochao/Brantisk", "Kiochao and Brantisk").
_PARTNER_BEFORE = (
    r"(?r)(?<![\w'])(?P<n>" + TOKEN + r")(?:[ \t]?/[ \t]?|[ \t]{0,2}&[ \t]{0,2}|[ \t]{1,2}and[ \t]{1,2})\Z"
)


def _list_partners(text: str, start: int, mode: str, label: Label | None) -> list[Hit]:
    """Up to three names before ``start`` that a slash, "&" or "and" join to it, each a name word by itself (no
    title, service, note or common word: "Neuro/Brantisk", "Pt and Brantisk" give none)."""
    out: list[Hit] = []
    for _ in range(3):
        found = search_before(_PARTNER_BEFORE, text, start, 40)
        if found is None:
            break
        piece = found["n"]
        if not _name_before_trigger(piece, mode, False):
            break
        if len(piece.rstrip(".")) == 1 or _ends_sentence(piece):
            break
        out.insert(0, Hit(found.start("n"), found.end("n"), label))
        start = found.start("n")
    return out


_named_with_relative = _names_before(
    Label.PATIENT, False, r"[ \t]{1,2}(?:and|&)[ \t]{1,2}(?:(?:his|her|their)[ \t]{1,2})?"
)
_KIN_WORDS = frozenset(w for w in FAMILY_WORDS if " " not in w)
# A possessive before the word: a relation's noun fills that slot, not a name ("pt's daugther and son").
_POSSESSIVE_BEFORE = r"(?r)(?:['’]s|s['’]|\b(?:his|her|their|my|your|our))[ \t]{1,2}\Z"


def _with_relative(text: str, m: regex.Match[str]) -> list[Hit]:
    """The name before "and wife" (name.with_relative); not after a possessive, and not before a relation written
    with a capital among small letters, as a firm's name is ("King and Sons")."""
    if window_case(text, m.start()) == "mixed" and m.group()[0].isupper():
        return []
    return [
        h
        for h in _named_with_relative(text, m)
        if search_before(_POSSESSIVE_BEFORE, text, h.start, 12) is None and not _relation_or_drug(text[h.start : h.end])
    ]


def _relation_or_drug(name: str) -> bool:
    """A relation ("Daughter and son", "Daughtér" with an accent too), a drug or a clinical term ("COLACE AND MOM")
    among the words."""
    words = [part.lower().rstrip(".") for part in name.split()]
    return any(w in clinical_terms() or _without_accents(w) in _KIN_WORDS for w in words)


def _without_accents(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _chain_tokens(chain: str, offset: int) -> list[tuple[int, int, str]]:
    """(start, end, token) of the TOKENs of a CHAIN match that starts at ``offset``: what ``rx(TOKEN).finditer``
    gives, found with str methods. A CHAIN is TOKENs (no blanks in them) joined by blanks and tabs, or glued after a
    dotted initial ("J.Quorvane": a TOKEN ends at its first full stop), and a TOKEN scan from a token's first letter
    takes the whole token (the blank after it can continue no TOKEN)."""
    tokens: list[tuple[int, int, str]] = []
    position = 0
    for piece in chain.split():
        position = chain.index(piece, position)
        while len(piece) > 2 and piece[1] == "." and piece[0].isalpha():  # a glued initial, then the rest
            tokens.append((offset + position, offset + position + 2, piece[:2]))
            piece = piece[2:]
            position += 2
        tokens.append((offset + position, offset + position + len(piece), piece))
        position += len(piece)
    return tokens


def _close(text: str, tokens: list[tuple[int, int]], label: Label | None) -> Hit:
    start, end = tokens[0][0], tokens[-1][1]
    piece = text[start:end]
    if piece.lower().endswith("'s"):
        end -= 2  # possessive: "Dr. Smith's order"
    elif piece.endswith(".") and len(text[tokens[-1][0] : tokens[-1][1]]) > 2:
        end -= 1  # a sentence full stop, not an initial's
    return Hit(start, end, label)


_GAP = r"[ \t]{0,2}[,:(\-]?[ \t]{0,2}"
# Letters each standing alone, one blank apart, as a name spelled out letter by letter.
_SPACED_LETTERS = r"(?P<n>[A-Za-z](?:[ \t][A-Za-z]){2,40})(?![\w'])"


@lru_cache(maxsize=1)
def name_patterns() -> tuple[Pattern, ...]:
    after = r"(?P<n>" + NAME_LIST + ")"
    return (
        Pattern(
            "name.doctor_title",
            Label.DOCTOR,
            r"\b" + DOCTOR_TITLES + r"(?:\.[ \t]{0,2}|[ \t]{1,2})" + after,
            0.9,
            _surname_after_title(
                _names(Label.DOCTOR, strong=True), Label.DOCTOR, frozenset({"Dr", "Dr.", "Drs", "Drs.", "Doctor"})
            ),
        ),
        Pattern(
            "name.clinician_role",
            Label.DOCTOR,
            r"\b" + DOCTOR_ROLES + r"\b" + _GAP + after,
            0.7,
            _names(Label.DOCTOR, strong=False),
        ),
        Pattern(
            # The clinician a role is: "PCP is Quorvane", "Her cardiologist was Fairweather".
            "name.role_is",
            Label.DOCTOR,
            r"\b" + DOCTOR_ROLES + r"[ \t]{1,2}(?:is|was)[ \t]{1,2}" + after,
            0.7,
            _names(Label.DOCTOR, strong=False),
        ),
        Pattern(
            # A clinician's role in brackets after the name: "quorvane (fellow)", "Fairweather (NP)".
            "name.role_in_parentheses",
            Label.DOCTOR,
            # the role may carry its shift's word: "Tamsin (charge RN)", "Tamsin (night RN)"
            r"\b(?:" + words(*ROLE_QUALIFIER_WORDS) + r"[ \t]{1,2})?" + DOCTOR_ROLES + r"[ \t]{0,2}\)",
            0.7,
            _names_before(Label.DOCTOR, False, r"[ \t]{0,2}\([ \t]{0,2}"),
            # by hand: a match starts at a qualifier or at a role (the derivation lists every pair, four times as
            # many anchors)
            hints=ScanHints(anchors=tuple(sorted({*ROLE_QUALIFIER_WORDS, *DOCTOR_ROLES_WORDS}))),
        ),
        Pattern(
            # A clinician's role set off by commas after the name: "Tamsin, social worker, met with family",
            # "Quorvane, the renal fellow, was paged", "TAMSIN, CHARGE RN; AWARE".
            "name.role_apposition",
            Label.DOCTOR,
            r"\b(?:" + words(*ROLE_QUALIFIER_WORDS) + r"[ \t]{1,2})?" + DOCTOR_ROLES + _APPOSITION_END,
            0.7,
            _role_apposition,
            hints=ScanHints(anchors=tuple(sorted({*ROLE_QUALIFIER_WORDS, *DOCTOR_ROLES_WORDS}))),
        ),
        Pattern(
            "name.role_suffix",
            Label.DOCTOR,
            r"\b" + ROLE_SUFFIXES + r"(?![\w])",
            0.7,
            _names_before(Label.DOCTOR, False, r"[ \t]{0,2},?[ \t]{0,2}", min_words_without_comma=2),
        ),
        Pattern(
            "name.cased_title",
            Label.DOCTOR,
            r"(?<![\w.])(?P<t>" + "|".join(regex.escape(t) for t in CASED_TITLES_WORDS) + r")[ \t]{1,2}" + after,
            0.8,
            _cased_title,
            ignore_case=False,
            # By hand: the derivation does not read case-sensitive alternations; every match starts at one of them.
            hints=ScanHints(anchors=tuple(t.lower() for t in CASED_TITLES_WORDS)),
        ),
        Pattern(
            # "Jane Smith, DO": as a credential "DO" needs its capitals and a comma ("do" is a verb).
            "name.role_suffix_do",
            Label.DOCTOR,
            r"(?<=,[ \t]{0,2})DO(?![\w.])",
            0.7,
            _names_before(Label.DOCTOR, False, r"[ \t]{0,2},[ \t]{0,2}"),
            ignore_case=False,
        ),
        Pattern(
            "name.first_name_initial",
            Label.PATIENT,
            # Searched from the initial's full stop (a literal scan); the name before it is checked by lookbehind.
            r"\.(?<=(?<![\w.'’-])(?P<f>[A-Z][a-z]{1,24}(?:[ \t][A-Z][a-z]{1,24})?)[ \t](?P<i>[A-Z]\.))"
            # (not a middle initial: "Karen R. Canales" is another rule's)
            r"(?![\w]|[ \t]?[A-Z]\.|[ \t]{1,2}[A-Z][a-z])",
            0.5,
            _first_name_initial,
            ignore_case=False,
        ),
        Pattern(
            "name.initial_surname",
            Label.DOCTOR,
            # Searched from the full stop (a literal scan); the initial before it is checked by lookbehind.
            r"\.(?<=(?<![\w.'/&+^-])(?<!\n[ \t]{0,8})[A-Za-z]\.)[ \t]{1,2}"
            r"(?P<s>[A-Za-z](?:[A-Za-z'\-]{0,24}[A-Za-z]))(?![\w']|\.[\w.])",
            0.5,
            _initial_surname,
            # The same shape without the line-start test and the surname's end, on the lower-cased text.
            hints=ScanHints(lower_gate=r"\.(?<=(?<![\w.'/&+^-])[a-z]\.)[ \t]{1,2}[a-z]"),
        ),
        Pattern(
            "name.signature",
            Label.DOCTOR,
            # A dash may open it, as a signature's delimiter does ("-- Tobiah Q.", "--Tobiah", "— T. Quorvane RN").
            r"(?:\n|^)[ \t]{0,8}(?P<d>[-–—~]{1,3}[ \t]{0,2})?(?:(?P<g>[A-Za-z]\.?)[ \t]{1,2})?"
            r"(?P<n>[A-Za-z][A-Za-z'\-]{1,24}(?:[ \t]{1,2}[A-Za-z][A-Za-z'\-]{1,24}){0,2})"
            r"(?:[ \t]{1,2}(?P<i>[A-Za-z]\.?))?[ \t,]{0,4}"
            r"(?:(?:RN|R\.N\.|NP|MD|RRT|SN)[ \t]{0,4})?"
            # the shift worked after the name ("Tobiah Quorvane 7p-7a", "T. Quorvane RN 0700-1900")
            r"(?:(?:\d{1,2}(?:a|p|am|pm)?|\d{4})[ \t]?-[ \t]?(?:\d{1,2}(?:a|p|am|pm)?|\d{4})[ \t]{0,4})?(?=\n|$)",
            0.5,
            _signature,
            hints=ScanHints(last_line=True),
        ),
        Pattern(
            "name.closing_signature",
            Label.DOCTOR,
            # After the last sentence of the note's last line, a wide gap or a dash: the author's name and initial.
            r"(?:\n|^)[^\n]{0,4000}?(?:[.!?][ \t]{1,4}|[ \t]{2,8}|[ \t]{1,4}[-–—~]{1,3}[ \t]{0,2})"
            r"(?:(?P<g>[A-Za-z]\.)[ \t]?)?"
            r"(?P<n>[A-Za-z][A-Za-z'\-]{1,24})(?:[ \t]{1,2}(?P<i>[A-Za-z]\.?))?[ \t]{0,40}(?=\n|$)",
            0.5,
            _closing_signature,
            hints=ScanHints(last_line=True),
        ),
        Pattern(
            # A message's writer after its closing word on the last line: "Thanks, Tamsin", "Best regards, Tobiah Q.".
            "name.valediction",
            Label.PATIENT,
            r"(?:\n|^)[^\n]{0,4000}?\b" + words(*VALEDICTION_WORDS) + r"[ \t]{0,2}[,!.]?[ \t]{1,3}"
            r"(?P<n>[A-Za-z][A-Za-z'\-]{1,24}(?:[ \t]{1,2}[A-Za-z][A-Za-z'\-]{0,24}\.?)?)[ \t.!]{0,3}(?=\n|$)",
            0.5,
            _valediction,
            hints=ScanHints(last_line=True),
        ),
        Pattern(
            "name.signature_line",
            Label.DOCTOR,
            r"\b" + words(*SIGNATURE_CREDENTIALS) + r"(?![\w.])\.?[ \t]{0,4}(?=\n|$)",
            0.7,
            _signature_line,
        ),
        Pattern(
            "name.dash_signature",
            Label.DOCTOR,
            # From the dash (a literal scan): at a line's start or after a sentence's end, one or two words, then a
            # credential that ends the line.
            r"(?<=(?:^|[\n.;!])[ \t]{0,8})-{1,2}[ \t]{0,2}"
            r"(?P<n>[A-Za-z][A-Za-z'\-]{1,24}(?:[ \t]{1,2}[A-Za-z][A-Za-z'\-]{1,24})?)[ \t]{0,2},?[ \t]{0,2}"
            + ROLE_SUFFIXES
            + r"[ \t.]{0,4}(?=\n|$)",
            0.6,
            _dash_signature(Label.DOCTOR),
        ),
        Pattern(
            "name.board_signature",
            Label.PATIENT,
            # From the dash (a literal scan) at a line's start: a poster's first name (one or two words), then the
            # poster's handle in brackets ending the line ("-- frank (laurenw)"; the handle is a username's).
            r"(?<=(?:^|\n)[ \t]{0,8})(?:-{1,2}|\u2014|~)[ \t]{0,2}"
            r"(?P<n>[^\W\d_][\w'\-]{1,24}(?:[ \t]{1,2}[^\W\d_][\w'\-]{1,24})?)[ \t]{1,2}"
            r"\([^\W\d_][\w.\-]{1,31}\)[ \t]{0,8}(?=\n|$)",
            0.6,
            _dash_signature(Label.PATIENT),
        ),
        Pattern(
            "name.aware_after",
            Label.DOCTOR,
            r"\b" + words(*AWARE_WORDS) + r"\b",
            0.5,
            # a clinician's credential or role may stand between ("QUORVANE MD AWARE", "Tamsin NP notified", "QUORVANE
            # HO AWARE": a house officer)
            _names_before(
                Label.DOCTOR,
                False,
                r"[ \t]{1,2}(?:(?:md|np|pa|rn|ho|rrt|rt)[ \t]{1,2})?(?:(?:is|was|made|also)[ \t]{1,2})?",
                partners=True,
            ),
            # whole phrases: "in" and "at" alone are far too common
        ),
        Pattern(
            "name.initial_name_ordered",
            Label.DOCTOR,
            r"\b(?:ordered|wrote|d/c'd|dc'd)\b",
            0.5,
            _names_before(Label.DOCTOR, False, r"[ \t]{1,2}", initial_first=True),
        ),
        Pattern(
            "name.role_then_aware",
            Label.DOCTOR,
            # "FEBRILE NP JEN AWARE": a word between a clinician role and "aware" is named by both.
            r"\b"
            + DOCTOR_ROLES
            + r"\.?[ \t]{1,2}(?P<n>"
            + TOKEN
            + r")[ \t]{1,2}(?:is[ \t]{1,2})?"
            + words(*AWARE_WORDS)
            + r"\b",
            0.6,
            _names(Label.DOCTOR, strong=True),
        ),
        Pattern(
            "name.patient_title",
            Label.PATIENT,
            r"\b" + PATIENT_TITLES + r"(?:\.[ \t]{0,2}|[ \t]{1,2})(?P<n>" + CHAIN + ")",
            0.9,
            _surname_after_title(
                _names(Label.PATIENT, strong=True),
                Label.PATIENT,
                frozenset({"Mr", "Mr.", "Mrs", "Mrs.", "Mister"}),
                frozenset({"mr.", "mrs.", "mister"}),
            ),
        ),
        # A name spelled out letter by letter after a title ("Dr. Q u o r v a n e"): a layout that hides it from every
        # word-level reader. Three letters at least, each alone, so "Dr. J A Quorvane" is the title rules' above.
        *(
            Pattern(
                f"name.{kind}_title_spaced", label, r"\b" + titles + r"\.?[ \t]{1,2}" + _SPACED_LETTERS, 0.9, group="n"
            )
            for kind, titles, label in (
                ("doctor", DOCTOR_TITLES, Label.DOCTOR),
                ("patient", PATIENT_TITLES, Label.PATIENT),
            )
        ),
        Pattern(
            # "MS" is also mental status, multiple sclerosis or morphine sulfate; "Mx" is the title without a gender.
            "name.patient_title_ms",
            Label.PATIENT,
            r"\b" + words("ms", "mx") + r"(?:\.[ \t]{0,2}|[ \t]{1,2})(?P<n>" + CHAIN + ")",  # "Ms.Quorvane" glued too
            0.7,
            _ms_title,
            hints=ScanHints(anchors=("ms", "mx")),  # by hand: the parser reads "ms|mx" as "m[sx]", which it cannot
        ),
        Pattern(
            "name.family",
            Label.RELATIVE,
            r"\b" + FAMILY + r"\b" + _GAP + r"(?:(?:is|named|name)[ \t]{1,2})?" + after,
            0.75,
            _names(Label.RELATIVE, strong=True),
            # By hand: "s.o." then ``\b`` lets a letter follow the anchor, which the derivation cannot prove away.
            hints=ScanHints(anchors=FAMILY_WORDS),
        ),
        Pattern(
            # In one-case text, a relative's name between the kin word and what the relative did ("dtr chance called",
            # "WIFE HOPE VISITED"): there the word is the subject, whatever word it also is (_kin_subject).
            "name.kin_subject",
            Label.RELATIVE,
            r"\b" + FAMILY + r"[ \t]{1,2}(?P<n>[A-Za-z][A-Za-z']{2,24})[ \t]{1,2}" + words(*_KIN_SUBJECT_VERBS) + r"\b",
            0.7,
            _kin_subject,
        ),
        Pattern(
            # Two relatives named by what they are together: "Quorvane and Brantisk are his health care proxies".
            "name.family_pair",
            Label.RELATIVE,
            r"\b(?:are|were)[ \t]{1,2}(?:(?:his|her|their|the|pt'?s)[ \t]{1,2})?"
            r"(?:(?:appointed|official|legal)[ \t]{1,2})?(?:health[ \t]{1,2}care[ \t]{1,2}prox(?:ies|ys|y)|hcps|proxies"
            r"|guardians|poas|daughters|sons|children|parents|sisters|brothers)\b",
            0.6,
            _name_pair,
        ),
        Pattern(
            # Two people named by what they do together: "Vavox and Dravodreama both work in the same field".
            "name.pair_both",
            Label.RELATIVE,
            r"\bboth[ \t]{1,2}(?:work|works|worked|live|lived|visit|visited|came|called|are|were)\b",
            0.5,
            _name_pair,
        ),
        *(
            Pattern(
                name,
                Label.PATIENT,
                source,
                0.5,
                _named_before_age(_names_before(Label.PATIENT, False, glue)),
                hints=ScanHints(digit_run=(1, 3), run_prev=before_age, run_next=after_age),
            )
            # After the age: its sex or "y/o", "yrs", "years old", then the comma or bracket that closes it.
            for name, source, glue, before_age, after_age in (
                ("name.age_apposition", _AGE_BETWEEN_COMMAS, _AGE_COMMA_GLUE, r"[ \t]", r"[ \t]{0,2}[,MFmfYy]"),
                ("name.age_in_brackets", _AGE_IN_BRACKETS, _AGE_BRACKET_GLUE, r"[ \t(]", r"[ \t]{0,2}[)MFmfYy]"),
            )
        ),
        Pattern(
            # A family history's side of the family: "bipolar disorder in Dravodreama's side of the family".
            "name.family_side",
            Label.RELATIVE,
            r"\bside[ \t]{1,2}of[ \t]{1,2}(?:(?:the|his|her|their)[ \t]{1,2})?family\b",
            0.5,
            _names_before(Label.RELATIVE, False, r"['’][sS][ \t]{1,2}"),
        ),
        Pattern(
            "name.patient_field_inverted",
            Label.PATIENT,
            r"\bpt[ \t]{0,2}:[ \t]{1,3}(?P<s>[A-Za-z][A-Za-z'\-]{1,24}),[ \t]{0,2}(?P<g>[A-Za-z][A-Za-z'\-]{1,24})"
            r"(?:[ \t]{1,2}[A-Za-z](?:\.|(?![\w'])))?(?![\w'])",
            0.8,
            _inverted_patient_field,
        ),
        Pattern(
            # A note headed by the patient's name alone, surname first: "QUORVANE, TOBIAH\nNPN 7P-7A".
            "name.inverted_heading",
            Label.PATIENT,
            r"\A[ \t\r\n]{0,8}(?P<s>[A-Za-z][A-Za-z'\-]{1,24}),[ \t]{0,2}(?P<g>[A-Za-z][A-Za-z'\-]{1,24})"
            r"(?:[ \t]{1,2}[A-Za-z]\.?)?(?=[ \t]{0,4}\r?\n)",
            0.6,
            _inverted_heading,
        ),
        Pattern(
            "name.delimited_record",
            Label.PATIENT,
            _DELIMITED_NAME,
            0.6,
            _delimited_name,
            group="n",
            # by hand: tried at each caret or bar, which the match opens with
            hints=ScanHints(char_starts="^|"),
        ),
        Pattern(
            "name.before_record_id",
            Label.PATIENT,
            r"\b" + words(*RECORD_ID_WORDS) + r"(?![\w])",
            0.6,
            _name_opening_line(1),
        ),
        Pattern(
            "name.before_age_sex",
            Label.PATIENT,
            _AGE_SEX,
            0.5,
            _name_opening_line(1),
            # after the age, "y/o", "yrs" or the sex: M, F, male, female, man, woman
            hints=ScanHints(digit_run=(1, 3), run_prev=r"[^\w/.-]", run_next=r"[ \t]?[MFmfYyWw]"),
        ),
        Pattern(
            # Two words at least: one word before a date is a history's line as often ("Appendectomy 3/4/1960").
            "name.before_birth_date",
            Label.PATIENT,
            _DATE_ENDING_LINE,
            0.5,
            _name_opening_line(2),
            hints=ScanHints(digit_run=(1, 2), run_next=r"[/.-]", run_prev=r"[^\w/.-]"),
        ),
        Pattern(
            # A person named with the relative who came along: "Family meeting with Quorvane A. and wife", "spoke to
            # Tobiah and her husband" (in a sentence's middle too; name.first_name_subject takes it opening one).
            "name.with_relative",
            Label.PATIENT,
            r"(?<=[ \t](?:and|&)[ \t]{1,2}(?:(?:his|her|their)[ \t]{1,2})?)" + FAMILY + r"\b",
            0.5,
            _with_relative,
            hints=ScanHints(anchors=FAMILY_WORDS),  # by hand, as for name.family
        ),
        Pattern(
            "name.family_after",
            Label.RELATIVE,
            r"\b" + FAMILY + r"\b",
            0.6,
            # A closing quote may stand between the name and its role: "'Ann Smith' (mother)".
            # In brackets, whose relative it is: "Geabrev (the patient's son)", "Tamsin (her daughter)"; not after a
            # comma ("pump for dopa, her mother is to visit").
            _names_before(
                Label.RELATIVE,
                False,
                r"['\"’”]?[ \t]{0,2}(?:[(\-,][ \t]{0,2}(?:pt'?s[ \t]{1,2})?"
                r"|\([ \t]{0,2}(?:the[ \t]{1,2})?(?:pt'?s|patient'?s|his|her|their)[ \t]{1,2})",
            ),
            hints=ScanHints(anchors=FAMILY_WORDS),  # by hand, as for name.family
        ),
        Pattern(
            # Someone's relative, named by the person's name in the possessive: "Quorvane's daughter in to visit",
            # "MR SMITH'S WIFE CALLED" (not "pt's wife" or "Patient's son": no name).
            "name.possessive_family",
            Label.PATIENT,
            r"\b" + FAMILY + r"\b",
            0.5,
            _POSSESSIVE_NAMES,
            hints=ScanHints(anchors=FAMILY_WORDS),  # by hand, as for name.family
        ),
        Pattern(
            # The patient's own state, care or carers, named by the name in the possessive: "Tobiah's mood is better",
            # "QUORVANE'S PAIN CONTROLLED", "Tobiah's therapist called" (not "Parkinson's meds": an eponym's
            # disease is no person's, see the veto).
            "name.possessive_attribute",
            Label.PATIENT,
            r"\b" + words(*PERSON_ATTRIBUTE_WORDS) + r"\b",
            0.5,
            _possessive_owner,
        ),
        Pattern(
            # A list of people with their roles: "- Ann Smith (patient)", "Ann Smith (pt)".
            "name.patient_after",
            Label.PATIENT,
            r"(?<=\()(?:patient|pt)(?=\))",
            0.6,
            _names_before(Label.PATIENT, False, r"['\"’”]?[ \t]{0,2}\("),
            hints=ScanHints(anchors=("patient", "pt")),  # by hand: the role word, as for name.family_after
        ),
        Pattern(
            # The name a patient asks to be called by, or had: "call me Bunny", "aka Jimmy", "maiden name Quorvane".
            "name.preferred",
            Label.PATIENT,
            r"\b" + words(*PREFERRED_NAME_WORDS) + r"[ \t]{1,2}['\"‘“]?" + after,
            0.6,
            _names(Label.PATIENT, strong=True),
        ),
        Pattern(
            # "goes by 'Kit'": only before a quoted name ("goes by ambulance", "known as CHF" are not).
            "name.preferred_quoted",
            Label.PATIENT,
            r"\b" + words("goes by", "known as") + r"[ \t]{1,2}['\"‘“]" + after,
            0.6,
            _names(Label.PATIENT, strong=True),
        ),
        Pattern(
            "name.patient_parenthesised",
            Label.PATIENT,
            r"\b(?:pt|patient|name)[ \t]{0,2}\([\"'“‘]?(?P<n>[A-Za-z][A-Za-z'\-]{1,24})[\"'”’]?\)",
            0.5,
            _patient_in_parentheses,
        ),
        Pattern(
            # "the Okonjo family": found from the word "family", the surname looked for before it.
            "name.family_surname",
            Label.PATIENT,
            r"\b(?i:famil(?:y|ies))\b",
            0.5,
            _family_surname,
        ),
        Pattern(
            "name.contact_family",
            Label.RELATIVE,
            r"\b" + CONTACT_VERBS_FAMILY + r"[ \t]{1,2}" + after,
            0.5,
            _names(Label.RELATIVE, strong=False),
        ),
        Pattern(
            # The name must end the greeting ("hang in there kyle faulkner!", "hi Rob,"): "thanks for the tip" and
            # "hi flow O2" do not.
            "name.vocative",
            Label.PATIENT,
            r"\b" + words(*VOCATIVE_WORDS) + r"[ \t]{1,2}" + after + r"(?=[ \t]{0,2}(?:[!,?]|\.(?!\w)|:\)|$))",
            0.5,
            _vocative,
        ),
        Pattern(
            # Whom a letter or fax is for, after the correspondence's own words: "Attn: Hermione Quorvane", "FAO Tobiah
            # Fairweather, Ward 7", "For the attention of T. Quorvane"; an office is none ("Attn: Case Management").
            "name.addressee",
            Label.DOCTOR,
            r"\b(?:attn|attention|fao|f\.a\.o\.?|for[ \t]{1,2}the[ \t]{1,2}attention[ \t]{1,2}of)"
            r"(?:[ \t]{0,2}:[ \t]{0,2}|[ \t]{1,2})" + after,
            0.7,
            _addressee,
        ),
        Pattern(
            # What the patient is called: "answers to Tobiah", "calls himself Toby", 'when called "Tobiah"'.
            "name.called_as",
            Label.PATIENT,
            r"\b(?:answers[ \t]{1,2}to|calls[ \t]{1,2}(?:himself|herself|themself|themselves)|known[ \t]{1,2}as"
            r"|nicknamed|nickname[ \t]{1,2}is|goes[ \t]{1,2}by|to[ \t]{1,2}be[ \t]{1,2}called|when[ \t]{1,2}called"
            r"|known[ \t]{1,2}to[ \t]{1,2}(?:this|our|the)[ \t]{1,2}(?:service|team|clinic|unit|ward|practice)"
            r"[ \t]{1,2}as)"
            r"[ \t]{1,2}[\"'“‘]?" + after,
            0.5,
            _names(Label.PATIENT, strong=False),
        ),
        Pattern(
            # A writer's self-introduction in a message or post: "Hi all, I'm Tamsin, 29F", "I am Tobiah Quorvane and".
            "name.self_introduced",
            Label.PATIENT,
            # and as a message or a call opens: "Hello, it's Tobiah again", "this is Tamsin calling"
            r"\b(?:i['’]m|i[ \t]{1,2}am|it['’]s|this[ \t]{1,2}is)[ \t]{1,2}"
            r"(?P<n>[A-Za-z][A-Za-z'\-]{2,24}(?:[ \t](?!" + _INTRODUCTION_ENDS + r")[A-Za-z][A-Za-z'\-]{2,24})?)"
            r"(?=[ \t]{0,2}(?:[,.!;(]|" + _INTRODUCTION_ENDS + r")|[ \t]{0,2}$)",
            0.5,
            _self_introduced,
        ),
        Pattern(
            # What the patient says the name is: "states her name is Zelphine" ("name is illegible" is no name).
            "name.name_is",
            Label.PATIENT,
            r"\b(?:her|his|my|their|pt'?s|patient'?s)[ \t]{1,2}(?:(?:first|full|last|given)[ \t]{1,2})?name"
            r"[ \t]{1,2}is[ \t]{1,2}[\"'“‘]?" + after,
            0.5,
            _stated_name,
        ),
        Pattern(
            # What a relative's name is: "my hubby's name is tobiah", "Her daughter's name is Tamsin".
            "name.kin_name_is",
            Label.RELATIVE,
            r"\b" + FAMILY + r"['’]s[ \t]{1,2}(?:(?:first|full|last|given)[ \t]{1,2})?name"
            r"[ \t]{1,2}is[ \t]{1,2}[\"'“‘]?" + after,
            0.5,
            _cased_or_listed(_names(Label.RELATIVE, strong=False), unknown=True),
            hints=ScanHints(anchors=FAMILY_WORDS),  # by hand, as name.family's
        ),
        Pattern(
            # A unit's warning of patients with like names, and the other patient's name after it: "NAME ALERT-
            # ANOTHER QUORVANE IN BED 4", "Name alert: Quorvane in 7", "similar name Quorvane in rm 7".
            "name.name_alert",
            Label.PATIENT,
            r"\b(?:name[ \t]{1,2}alert(?:\W{1,4}" + _LIKE_NAMES + ")?|" + _LIKE_NAMES + r")\W{0,4}[ \t]{0,2}"
            r"(?:(?:another|other|pt|patient|with|for|re:?|of)[ \t]{1,2}){0,2}" + after,
            0.5,
            _stated_name,
            hints=ScanHints(anchors=("name", "similar", "same")),  # by hand: the derivation stops at the alternation
        ),
        Pattern(
            # Whom a patient sees or saw: "been seeing Quorvane for 14 yrs", "my son saw Zelphine K. in Quelbury".
            # Not "see": "see Careview." is a note's pointer to another record.
            "name.seen_clinician",
            Label.DOCTOR,
            r"\b(?:saw|seeing|sees)[ \t]{1,2}"
            r"(?P<n>[A-Z][a-z][A-Za-z'\-]{1,24}(?:[ \t][A-Z][a-z][A-Za-z'\-]{1,24})?(?:[ \t][A-Z]\.?)?)"
            r"(?=[ \t]{1,2}(?:in|for|at|about|last|today|yesterday|on|since|every|again|who)\b|[ \t]{0,2}[.,;!?)])",
            0.5,
            _seen_clinician,
            ignore_case=False,
        ),
        Pattern(
            # The same in text without case, where only time spent with the person tells a name from a thing.
            "name.long_seen_clinician",
            Label.DOCTOR,
            r"\bbeen[ \t]{1,2}seeing[ \t]{1,2}"
            r"(?P<n>[a-z][a-z'\-]{1,24}(?:[ \t][a-z][a-z'\-]{1,24})?(?:[ \t][a-z]\.?)?)"
            r"(?=[ \t]{1,2}(?:for|since)\b)",
            0.5,
            _long_seen_clinician,
        ),
        Pattern(
            "name.patient_word_title",
            Label.PATIENT,
            # No full stop after the word: "by PT. Titrate lopressor" is two sentences.
            r"\b(?:[Pp]atient|PATIENT|[Pp]t|PT)[ \t]{1,2}"
            r"(?P<n>[A-Z][a-z][A-Za-z'\-]{1,24}(?:[ \t][A-Z][a-z][A-Za-z'\-]{1,24})?)(?![\w'])",
            0.5,
            _patient_word_title,
            ignore_case=False,
            hints=ScanHints(anchors=("patient", "pt")),  # by hand: the derivation reads no anchor from a cased regex
        ),
        Pattern(
            "name.subject_verb",
            Label.PATIENT,
            r"\b" + words(*SUBJECT_VERB_WORDS) + r"\b",
            0.4,
            _subject_name,
        ),
        Pattern(
            "name.subject_state",
            Label.PATIENT,
            r"\b"
            + words(*STATE_LINK_WORDS)
            + r"[ \t]{1,2}"
            + words(*DEGREE_WORDS)
            + r"[ \t]{1,2}"
            + words(*STATE_WORDS)
            + r"\b",
            0.4,
            _subject_name,
        ),
        Pattern(
            "name.first_name_subject",
            Label.PATIENT,
            # The lookbehind (one word opening a sentence) rejects the common verbs' other places before the validator.
            r"(?<=(?:\A|[.!?;:(\n])[ \t]{0,3}(?P<w>[A-Za-z][A-Za-z'\-]{1,24})[ \t]{1,2})"
            r"(?:" + words(*_FIRST_NAME_SUBJECT_WORDS) + "|" + _WITH_RELATIVE[2:] + r")(?![\w'])",
            0.4,
            _first_name_subject,
            # by hand: a match starts at the verb or at "and" (the lookbehind hides them from the derivation); "and"
            # alone, as every "and <kin>" spelled out made the plan 0.3 s slower to build for no faster a scan
            hints=ScanHints(anchors=(*_FIRST_NAME_SUBJECT_WORDS, "and")),
        ),
        Pattern(
            "name.care_object",
            Label.PATIENT,
            r"\b(?i:" + words(*CARE_VERB_WORDS) + r")[ \t]{1,2}"
            r"(?P<n>[A-Z][a-z][A-Za-z'\-]{1,24}|[A-Z][A-Z'\-]{2,25}|[a-z][a-z'\-]{2,25})(?![\w'])",
            0.5,
            _care_object,
            ignore_case=False,
        ),
        Pattern(
            "name.subject_clinician_verb",
            Label.DOCTOR,
            r"\b" + words(*CLINICIAN_VERB_WORDS) + r"\b",
            0.4,
            _clinician_subject,
        ),
        Pattern(
            # "Tobiah is a 64 yo man", "Tobiah is a pleasant 80yo", "Kiochao is a very pleasant 80 year old": a name
            # opening the note's first sentence before the age, perhaps with up to three words of description.
            "name.subject_age",
            Label.PATIENT,
            r"\bis[ \t]{1,2}an?[ \t]{1,2}(?:[A-Za-z][A-Za-z\-]{1,20}[ \t]{1,2}){0,3}\d{1,3}[ \t-]{0,2}"
            r"(?:yo\b|y/o|y\.o|year|yr)",
            0.4,
            _subject_age_name,
        ),
        Pattern(
            "name.apposed_age",
            Label.PATIENT,
            _APPOSED_AGE,
            0.4,
            _apposed_age_name,
            hints=ScanHints(digit_run=(1, 3), run_prev=r"[ \t]", run_next=r"[ \t-]{0,2}[YyMF]"),
        ),
        Pattern(
            "name.initials_before_age",
            Label.PATIENT,
            _AGE_AFTER_INITIALS,
            0.5,
            _initials_before_age,
            hints=ScanHints(digit_run=(1, 3), run_prev=r"[ \t]", run_next=r"[ \t-]{0,2}[Yy]"),
        ),
        Pattern(
            # "Ahantski is family contact", "Quorvane is the pt's health care proxy": who speaks for the patient.
            "name.subject_family_role",
            Label.RELATIVE,
            r"\b(?:is|will[ \t]{1,2}be|to[ \t]{1,2}be)[ \t]{1,2}(?:the[ \t]{1,2})?"
            r"(?:(?:family|pt'?s|patient'?s|his|her|their|primary|main)[ \t]{1,2})?"
            r"(?:contact|spokesperson|spokesman|spokeswoman|hcp|health[ \t]{1,2}care[ \t]{1,2}proxy|proxy|interpreter"
            r"|poa|guardian|next[ \t]{1,2}of[ \t]{1,2}kin|nok|decision[ \t]{1,2}maker)\b",
            0.4,
            _family_role_subject,
        ),
        Pattern(
            # The clinicians of a team or service in brackets after it: "MICU team (Quorvane/Brantisk) aware",
            # "seen by ortho (Quorvane)"; "renal (fellow) following" names no one.
            "name.service_members",
            Label.DOCTOR,
            r"\b(?:team|service|renal|ortho|cards|cardiology|neuro|neurology|gi|id|surgery|micu|sicu|ccu|icu|medicine"
            r"|nephro|nephrology|pulm|pulmonary|onc|oncology|heme|psych|psychiatry|pain|palliative|ent|urology|derm"
            r"|plastics|vascular|anesthesia)[ \t]{0,2}\([ \t]{0,2}" + after + r"[ \t]{0,2}\)",
            0.5,
            _service_member,
        ),
        Pattern(
            "name.handoff_from",
            Label.DOCTOR,
            r"\b" + words(*HANDOFF_FROM_WORDS) + r"[ \t]{1,2}" + after,
            0.5,
            _clinician_cased_or_listed,
        ),
        Pattern(
            "name.contact_clinician",
            Label.DOCTOR,
            r"\b" + CONTACT_VERBS_CLINICIAN + r"[ \t]{1,2}" + after,
            0.5,
            _names(Label.DOCTOR, strong=False),
        ),
        Pattern(
            "name.signed_off_by",
            Label.DOCTOR,
            r"\b" + words(*SIGN_OFF_WORDS) + r"[ \t]{0,2}:?[ \t]{1,2}" + after,
            0.5,
            # what was verified by x-ray or checked by a machine is no one: without case, a listed name only
            _clinician_cased_or_listed,
        ),
        Pattern(
            "name.initials_signed_off",
            Label.DOCTOR,
            _INITIALS_SIGNED,
            0.6,
            _initials_no_service,
            ignore_case=False,
            group="n",
            # by hand: the derivation reads no anchor from a cased regex (its words are case-blind)
            hints=ScanHints(anchors=_INITIALS_SIGNED_WORDS),
        ),
    )


def name_detector() -> PatternDetector:
    return PatternDetector("patterns.name", name_patterns())
