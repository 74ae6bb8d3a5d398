"""NAME pattern table: honorific, role, family and contact triggers in any case; the trigger is excluded."""

from __future__ import annotations

import random

import pytest

from deident.core.labels import Label
from deident.detect.patterns import name_detector
from deident.detect.patterns.names import CHAIN, TOKEN, _chain_tokens, _written_as_name
from deident.detect.patterns.rules import rx

from .helpers import Case, check_negative, check_positive, found, params, random_texts

DR, PT, REL = Label.DOCTOR, Label.PATIENT, Label.RELATIVE

POSITIVES: list[Case] = [
    # "Will" and "May" after a kinship word, followed by what no modal verb is
    ("SOCIAL: PT'S SON WILL IN TO VISIT THROUGHOUT EVENING", "WILL", REL),
    ("Afebrile. Daughter May called this am.", "May", REL),
    # a note entry signed on its last line with an initial, whatever words the name also is
    ("ALL IS WELL AT THIS TIME. G. WHIPPLE RRT\n", "G. WHIPPLE", DR),
    ("Vent checks done.\n    MAY C. PAGE, RRT\n", "MAY C. PAGE", DR),
    ("MDIs given.   DON R. DOWN, RRT", "DON R. DOWN", DR),
    # a word after "Mrs." or "Mr." whatever else it also is ("blood")
    ("Mr. Blood is a 70 yo man.", "Blood", PT),
    # a title's initials glued together, and initials opening the sentence that gives the age
    ("T.Q. is a 45 y/o F with CHF.", "T.Q.", PT),
    ("Reason for visit: chest pain. T. Q. is a 61 year old man.", "T. Q.", PT),
    ("J.S., a 62-year-old man, presented with chest pain.", "J.S.", PT),
    ("Pt seen with Mrs. Gravel today.", "Gravel", PT),
    # a listed first name that is no English word, opening a sentence before a verb or with a relative
    ("Harold was calm overnight, no c/o pain.", "Harold", PT),
    ("Resting. Mary and husband at bedside this am.", "Mary", PT),
    ("Social: Evelyn remains on bipap, family aware.", "Evelyn", PT),
    ("Afebrile. John slept well and denies pain.", "John", PT),
    # a person's feelings after the name opening a sentence
    ("Pt anxious overnight. Tobiah was tearful at times.", "Tobiah", PT),
    # a listed name after a nurse's verb of care in text without case
    ("REASSURED JOHANNA FREQUENTLY OVERNIGHT.", "JOHANNA", PT),
    ("Afebrile. Quorvane became upset when told of the delay.", "Quorvane", PT),
    ("Present: - Reazhiodisk Liehomski (patient)", "Reazhiodisk Liehomski", PT),
    ("Contact 'Dubrierko Utraeski' (mother) if unwell", "Utraeski", REL),
    ("SPOKE WITH DR. KOWALSKI ABOUT BP", "KOWALSKI", DR),
    ("Dr. Griffin aware of the hct", "Griffin", DR),
    # the names of a list before "aware": each joined by a slash, "&" or "and"
    ("Kiochao/Brantisk aware of the hct", "Kiochao", DR),
    # a clinician's credential between the name and "aware" or "notified"
    ("BP dropped to 80s. Taesheaxa MD aware.", "Taesheaxa", DR),
    ("K 3.1, Quorvane NP notified", "Quorvane", DR),
    ("Family mtg held; interpreter Perpetua present.", "Perpetua", DR),  # the hospital's staff beside clinicians
    ("Sitter Tobiah at bedside overnight.", "Tobiah", DR),
    ("K 3.2. QUORVANE HO AWARE.", "QUORVANE", DR),  # a house officer
    ("RR 30s. TRELAWNY RRT AWARE.", "TRELAWNY", DR),
    ("Kiochao and Brantisk notified of BP", "Kiochao", DR),
    ("dr. o'halloran placed the aline", "o'halloran", DR),
    ("no longer NPO per Dr Tranfaglia.", "Tranfaglia", DR),
    ("Dr. Smith's order for lasix", "Smith", DR),
    ("Drs Ferullo and Saeed in to see pt", "Saeed", DR),
    ("Drs Ferullo and Saeed in to see pt", "Ferullo", DR),
    ("seen by Dr. Sarah O'Driscoll today", "Sarah O'Driscoll", DR),
    ("Dr. Smith, John paged", "Smith", DR),
    ("FEBRILE NP JEN AWARE.", "JEN", DR),
    ("check ptt at 4pm. Patricia Nolan, RN\n", "Patricia Nolan", DR),
    ("resp- Arthur Peppler,MD made no vent changes", "Arthur Peppler", DR),
    ("irene snell, rn\n", "irene snell", DR),
    ("INR 6.0. E. WELSH AWARE. PT GIVEN FFP", "E. WELSH", DR),
    ("Mr. Nicholson is awake and alert", "Nicholson", PT),
    ("MR. EDWIN PRZYBYLO IS AN 83 YO MALE", "EDWIN PRZYBYLO", PT),
    ("mrs. powers arrived from cath lab", "powers", PT),
    ("Ms. Manning slept well", "Manning", PT),
    # a name spelled out letter by letter after a title (a layout that hides it from word-level readers)
    ("Seen by Dr. Q u o r v a n e today", "Q u o r v a n e", DR),
    ("Mrs. B r a n t i s k slept well", "B r a n t i s k", PT),
    # the patient named at a line's start before a record identifier (a label, a worklist row, a search)
    ("QUORVANE, TOBIAH  MRN 3344556", "QUORVANE, TOBIAH", PT),
    ("QUORVANE, TOBIAH  C3651731  DOB: April 1985", "QUORVANE, TOBIAH", PT),
    # a name in a record whose fields a caret or a bar delimits: a header line, an HL7 v2 segment (the patient first,
    # a clinician after)
    ("ADMISSION^35471863^Quorvane T^4/17/2005^Brantisk, Tamsin", "Quorvane T", PT),
    ("ADMISSION^35471863^Quorvane T^4/17/2005^Brantisk, Tamsin", "Brantisk, Tamsin", DR),
    ("EDVISIT^450-27-95^Quorvane, Tobiah^10/17/2006^S.Brantisk-Lindt", "S.Brantisk-Lindt", DR),
    ("PID|1||12345678^^^MRN||QUORVANE^TOBIAH^J||19500304|M", "QUORVANE^TOBIAH^J", PT),
    ("ward list\ntamsin quorvane dob 3/4/1960", "tamsin quorvane", PT),
    # a search for a patient: perhaps the word patient first, a birth date ending the line
    ("pt tobiah quorvane 3/4/60", "tobiah quorvane", PT),
    ("Patient: Tamsin Quorvane 03-04-1960\n", "Tamsin Quorvane", PT),
    ("pt quorvane dob 3/4/60", "quorvane", PT),
    # the name opening a search or a handover row before an age and sex
    ("tamsin quorvane 34f chest pain", "tamsin quorvane", PT),
    ("Quorvane, Tobiah 45 yo M", "Quorvane, Tobiah", PT),
    ("Brantisk T. DOB: 3/4/1950", "Brantisk T.", PT),
    ("John Smith  NHS number 943 476 5919", "John Smith", PT),
    # a history or a letter opening on its subject; people named by what they do together; a side of the family
    ("Klaemiorek was admitted to Ward 7B on Aug 31.", "Klaemiorek", PT),
    ("History of present illness: Grehabroul describes panic attacks.", "Grehabroul", PT),
    ("Quorvane presented to the ED with chest pain.", "Quorvane", PT),
    ("Vavox and Dravodreama both work in the same field.", "Vavox", REL),
    ("Vavox and Dravodreama both work in the same field.", "Dravodreama", REL),
    ("bipolar disorder in Dravodreama's side of the family", "Dravodreama", REL),
    # a person's age set off after the name, as news items, posts and vignettes write it
    ("Tamsin, 34, from Quelbury, works as a nurse.", "Tamsin", PT),
    ("Tobiah Quorvane, aged 52, was taken to hospital.", "Tobiah Quorvane", PT),
    ("Quorvane, 52 years old, who lives alone", "Quorvane", PT),
    ("Geabrev, 29F, from Quelbury", "Geabrev", PT),
    ("As with Marisol Geabrev (34) the rash came first.", "Marisol Geabrev", PT),
    # a consult's patient field, surname first; kin and contacts of a social history
    ("Psychiatry Consult - June 18, 2006 Pt: Kechiexek, Maria M. (96 y.o.)", "Kechiexek, Maria M.", PT),
    ("Pt: Quorvane, Maria", "Quorvane, Maria", PT),
    ("her supervisor Cimem is aware of the diagnosis.", "Cimem", REL),
    ("his carer, Brantisk, visits daily", "Brantisk", REL),
    ("Landlord Quorvane called about the rent.", "Quorvane", REL),
    ("Geabrev B. (the patient's son) is a secretary.", "Geabrev B.", REL),
    ("Tamsin (her daughter) visited.", "Tamsin", REL),
    ("wife anna called twice", "anna", REL),
    # after more contact verbs
    ("Plan reviewed with Fairweather, will hold lasix", "Fairweather", DR),
    ("K 5.9 confirmed with Quorvane, kayexalate given", "Quorvane", DR),
    # a clinician's role in brackets after the name
    ("micu team: Quorvane (fellow), Fairweather (resident)", "Fairweather", DR),
    ("Okonkwo (NP) aware of K 3.1", "Okonkwo", DR),
    # the patient named in one-case text: after "name is", after "Ms" (a word no dictionary knows), after the patient
    # word opening the sentence or set off by commas after it
    ("PT'S NAME IS TOBIAH QUORVANE", "TOBIAH QUORVANE", PT),
    ("MS QUORVANE IS A 70 YO WOMAN", "QUORVANE", PT),
    ("ms. quorvane c/o pain", "quorvane", PT),
    ("patient tobiah was restless", "tobiah", PT),
    ("pt, tobiah, is restless", "tobiah", PT),
    # a note headed by the patient's name alone, surname first
    ("QUORVANE, TOBIAH\nNPN 7P-7A\nNEURO: A+OX3", "QUORVANE, TOBIAH", PT),
    ("Quorvane, John\nNursing progress note", "Quorvane, John", PT),
    # a doctor by title in one-case text, listed with another
    ("ASKING TO SPEAK TO HUSBAND, DR CAST, DR SHUNT.", "CAST", DR),
    # the other patient named in a unit's warning of like names
    ("NAME ALERT- ANOTHER QUORVANE IN BED 4", "QUORVANE", PT),
    ("**Name alert** similar name Quorvane in 7", "Quorvane", PT),
    # the title with its full stop glued to the name; a given name and surname after the patient word
    ("Ms.Quorvane slept well", "Quorvane", PT),
    ("MS.QUORVANE SLEPT WELL", "QUORVANE", PT),
    ("PATIENT TOBIAH QUORVANE ARRIVED FROM EW", "TOBIAH QUORVANE", PT),
    ("pt tobiah quorvane denies pain", "tobiah quorvane", PT),
    # a message's writer after its closing word on the last line
    ("Please call me back.\nThanks, Tamsin", "Tamsin", PT),
    ("See you Tuesday. Best regards, Tobiah Q.", "Tobiah Q", PT),
    ("Please call me back.\nThanks, O'Brien", "O'Brien", PT),
    ("See you Tuesday.\nCheers, Anne-Marie", "Anne-Marie", PT),
    # a clinician's role set off by commas after the name, with an article and a service
    ("Tamsin, social worker, met with family", "Tamsin", DR),
    ("Quorvane, the renal fellow, was paged", "Quorvane", DR),
    ("Spoke with Tamsin Quorvane, case manager.", "Tamsin Quorvane", DR),
    # kin joined by hyphens, and what a relative's name is
    ("My mother-in-law Perpetua lives with us", "Perpetua", REL),
    ("Her daughter's name is Quorvane", "Quorvane", REL),
    # kin words as posts and letters write them
    ("my hubby Dale took me to the ER", "Dale", REL),
    ("My mum Pauline is 82.", "Pauline", REL),
    ("stepdad Rory visited today", "Rory", REL),
    ("NEPHEW, NEIL MEITZ VISITED", "NEIL MEITZ", REL),
    ("The pts wife, Tomasa Sandberg called.", "Tomasa Sandberg", REL),
    ("DENTURES TAKEN HOME BY DAUGHTER LISA ROSSETTI.", "LISA ROSSETTI", REL),
    ("Sons Smokey, Morris and Roger in to visit", "Roger", REL),
    ("Sons Smokey, Morris and Roger in to visit", "Smokey", REL),
    ("his son, bill, called twice", "bill", REL),
    ("Hank Przybylo (son) cell# 450", "Hank Przybylo", REL),
    ("spoke with Maria about the plan", "Maria", REL),
    ("EKG done. Seen by J. Yi, MD. Pain", "J. Yi", DR),
    ("CT SITE. Z. MILLER IN TO STRIP TUBES", "Z. MILLER", DR),
    ("will consult with patty hoeller re skin care", "patty hoeller", REL),
    ("ASKED FOR RABBI- RABBI KLEIN CAME TO SPEAK", "KLEIN", DR),
    ("family is around to decrease anxiety. \n Mary Rueping\n\n", "Mary Rueping", DR),
    ("Will continue to monitor.\nMary Rueping 0700-1900", "Mary Rueping", DR),  # the shift worked after it
    # whom a question, news or a call went to or came from
    ("Asked Quorvane for pain med, none ordered.", "Quorvane", DR),
    ("Awaiting call back from Okonkwo re: K.", "Okonkwo", DR),
    # what the patient is called
    ("Pt answers to Tobiah, not to his given name.", "Tobiah", PT),
    ("Pt known to this service as Zelphine Quorvane.", "Zelphine Quorvane", PT),
    ("Pt calls himself Brantisk.", "Brantisk", PT),
    ('When called "Tobiah" pt opens eyes.', "Tobiah", PT),
    # a nurse's handoff
    ("0700 report to Tamsin, care assumed by Brantisk.", "Tamsin", DR),
    ("0700 report to Tamsin, care assumed by Brantisk.", "Brantisk", DR),
    ("Coverage by Okonkwo this shift.", "Okonkwo", DR),
    ("Tamsin (charge RN) aware of bed request.", "Tamsin", DR),
    ("Quorvane (night RN) aware of bed request.", "Quorvane", DR),
    ("Zelphine (travel RN) covering the pod.", "Zelphine", DR),
    # a clinician's name opening a sentence before the clinician's work
    ("K 3.1. Quorvane examined pt, no new orders.", "Quorvane", DR),
    # the unit or service a clinician calls or comes from
    ("BP stable. Trelawny from CCU called to check on pt.", "Trelawny", DR),
    ("K 6.1. Quorvane from the lab called.", "Quorvane", DR),
    ("Hct 24. Brantisk wrote for 1 u prbc.", "Brantisk", DR),
    ("Labs sent. Okonkwo to call back with results.", "Okonkwo", DR),
    ("Case mgmt to call Monday (Brantisk is on vacation).", "Brantisk", DR),
    ("Hospice intake done. Quorvane will be assessing pt in am.", "Quorvane", DR),
    ("VSS. Brantisk from social work met with family.", "Brantisk", DR),
    # visiting, arriving (invented names)
    ("Social: Okonkwo visited during the evening.", "Okonkwo", PT),
    ("VSS. Zelphine c/o pain overnight.", "Zelphine", PT),
    # a house officer's title; a count of times after the name is no initial (invented names)
    ("Paged H.O. Quorvane x2 re: SBP.", "Quorvane", DR),
    ("Called Dr Brantisk x 3, no answer.", "Brantisk", DR),
    # a dotted initial glued to the surname (invented names)
    ("Seen by Dr J.Quorvane today.", "J.Quorvane", DR),
    ("Plan discussed with wife, T.Brantisk.", "T.Brantisk", REL),
    ("SPOKE WITH DR. J.KOWALSKI RE: PLAN", "J.KOWALSKI", DR),
    ("NPN 11p-7a: Zelphine Quorvane arrived in MICU at 11pm.", "Zelphine Quorvane", PT),
    ("Social: son in all day. Brantisk was here until 9pm.", "Brantisk", PT),
    # two relatives named by what they are together; a pair of names with initials (invented names)
    ("Both Quorvane and Brantisk are his appointed health care proxies.", "Quorvane", REL),
    ("Both Quorvane and Brantisk are his appointed health care proxies.", "Brantisk", REL),
    ("Okonkwo & Zelphine were her guardians.", "Zelphine", REL),
    ("Nsg (Y. Quorvane and S. Brantisk) verified amt of cash.", "S. Brantisk", DR),
    # a full name (or an initial and a surname) opening the sentence (invented names)
    ("Okonkwo Brantisk is a 70 yo female admitted with sepsis.", "Okonkwo Brantisk", PT),
    ("Hct stable. Zelphine Quorvane agrees with plan.", "Zelphine Quorvane", PT),
    # the subject of a clause a conjunction opens, as a sentence's (invented names)
    ("son visited in the evening, and Quelbine called early this am", "Quelbine", PT),
    ("but once Quelbine woke up after midnight, breathing eased", "Quelbine", PT),
    ("Hct stable. Zelphine Quorvane examined pt.", "Zelphine Quorvane", DR),
    # the clinician a role is
    ("Pts PCP is Quorvane, will call in am.", "Quorvane", DR),
    # a credential written before the name as a title (invented names)
    ("Plan: CNA Brantisk helped with the bath", "Brantisk", DR),
    ("LPN Quorvane gave meds at 10", "Quorvane", DR),
    ("CRNA Kiochao at bedside for the line", "Kiochao", DR),
    ("Her cardiologist was Fairweather until 2019.", "Fairweather", DR),
    # a word and an initial signing a letter or a post: no list needed
    ("Hope this helps, it did for me.\nQuorvane S.\n", "Quorvane S", DR),
    ("Thank you for seeing her.\nYours sincerely\nBrantisk J.", "Brantisk J", DR),
    # a nurse signing the note's last line with a name and a bare letter: a listed name or a word no list knows
    ("Family updated at bedside. Will continue to monitor.\n\nKelbur V", "Kelbur V", DR),
    ("Pt resting comfortably overnight.\n\nMaureen Q\n", "Maureen Q", DR),
    # after a signature's dash, on the last line or closing it (invented names)
    ("Pt resting comfortably.\n-- Tobiah Q.", "Tobiah Q", DR),
    ("Pt resting.\n--Kiochao", "Kiochao", DR),
    ("Hope this helps - Thaddeus", "Thaddeus", DR),
    # one name word after a closing, alone on the last line (invented names)
    ("Please let me know.\nKind regards,\nKiochao", "Kiochao", DR),
    ("See you Tuesday.\nSent from my iPhone\nTobiah", "Tobiah", DR),
    # A word after an initial, a hyphenated name before a role, an initial and a name before "ordered".
    ("CXR done. As per E. Welsh: bilat effusions", "E. Welsh", DR),
    ("now RLL. Stord-Painter MD plans to", "Stord-Painter", DR),
    ("elevated paps, J Smith ordered epi drip", "J Smith", DR),
    ("discussed with Dr donahue. CV stable", "donahue", DR),
    # Without case cues a common word after the name ends it; a hyphen glues no note word onto a name.
    ("son Rob-who is the HCP-called", "Rob", REL),
    ("WIFE ANNA ZYXWERTH CALLED", "ANNA ZYXWERTH", REL),
    ("son rob phoned twice", "rob", REL),
    ("spoke with Mr. Shaughnessy re plan", "Shaughnessy", PT),
    ("Dr. Park in to see pt", "Park", DR),
    ("CXR read. W. Smith in to see pt", "W. Smith", DR),
    ("plan discussed with Griffin team", "Griffin", DR),
    # A lawyer or attorney is named like a relative; a name may stand in parentheses after the trigger.
    ("Wife and lawyer (Wil Laberbera) aware of plan", "Wil Laberbera", REL),
    ("his attorney Joan Pardee called", "Joan Pardee", REL),
    ("son (Rob) called twice", "Rob", REL),
    # A diminutive is a known name after a weak trigger ("reach"), not only after "son".
    ("ONly able to reach Rob.. will call again", "Rob", REL),
    ("spoke with Hank re: discharge", "Hank", REL),
    # A name that ends a greeting on a message board.
    ("hang in there Kyle Faulkner! lol same", "Kyle Faulkner", PT),
    ("thx Melanie, that helped", "Melanie", PT),
    # A person's state after a word of degree, after the name opening a sentence.
    ("OOB to chair. Tobiah is very pleasant.", "Tobiah", PT),
    ("Overnight: Quorvane was quite agitated, pulling at lines.", "Quorvane", PT),
    # The patient's own state, care or carers, after the name in the possessive.
    ("Tobiah's mood is better today.", "Tobiah", PT),
    ("Spoke with Quorvane's therapist by phone.", "Quorvane", PT),
    # An initial and a surname of the shipped lists (of any locale) before what a clinician does.
    ("UOP DROPPED. R ADDISON ORDERED EPI DRIP", "R ADDISON", DR),
    # Whom a letter or fax is for.
    ("Fax to Attn: Tobiah Quorvane re referral", "Tobiah Quorvane", DR),
    ("FAO Hermione Quorvane, Ward 7", "Hermione Quorvane", DR),
    ("For the attention of T. Quorvane", "T. Quorvane", DR),
    # A nurse signing an entry: a dash, a name (an everyday word too), a credential ending the line.
    ("neuro intact.\n- rich rn\nresp: clear", "rich", DR),
    ("PLAN: WEAN AS TOL. -CLIFF RN", "CLIFF", DR),
    ("Plan: wean as tolerated.\n - Mark Zeller, RN", "Mark Zeller", DR),
    # A poster signing a post: a dash, a first name (an everyday word too), the handle in brackets ending the line.
    ("any advice appreciated\n-- rich (wrongsometimes)", "rich", PT),
    ("-- Tomasz (tk77)", "Tomasz", PT),
    # Someone's relative, named by the person's name in the possessive (invented names).
    ("Quorvane's daughter in to visit", "Quorvane", PT),
    ("Ellarie Quorvane's husband called", "Ellarie Quorvane", PT),
    # clinical shorthand after a name is no initial of it ("c/o", "s/p")
    ("Mrs. Quorvane-Lindt c/o nausea", "Quorvane-Lindt", PT),
    ("Mr. Okafor s/p CABG x3", "Okafor", PT),
    # a surname before "family" (invented)
    ("Castellano family in to visit.", "Castellano", PT),
    ("Update given to the Okonjo family by MD.", "Okonjo", PT),
    # in one-case text, "dr" after a word that reports to a doctor: the word after it, a clinical word too
    ("pt is followed at quelbury by dr cast. she arrived a&ox3", "cast", DR),
    ("tee delayed until friday per dr salt. amiodarone po d/ced", "salt", DR),
    ("pronounced at 11:51am by dr mass. family agreed to post", "mass", DR),
    ("called dr shunt re: uop", "shunt", DR),
    # the author signing after the note's last sentence, on its line: a name and an initial, or a first name alone
    ("neuro intact.\npt is on heparin 850u/hr, not 1400u/hr. susan f.  ", "susan f.", DR),
    ("neuro intact.\npt is on heparin 850u/hr, not 1400u/hr. kathy", "kathy", DR),
    ("neuro intact.\ncontinue to monitor. t. quorvane", "t. quorvane", DR),
    # a note of one line signs the same way
    ("pt is on heparin 850u/hr, not 1400u/hr. quorvane j.\n\n", "quorvane j.", DR),
    # an initial before a surname on a line of its own (invented names)
    ("neuro intact.\n v quorvane\n\n", "v quorvane", DR),
    ("neuro intact.\nt. brantisk rn\n", "t. brantisk", DR),
    # an initial and a word before a clinician's role or act: a name, a common or clinical word too
    ("lab: inr this am 6.0. g. foley aware. pt received 2 ffp", "g. foley", DR),
    ("12u reg insulin given per r. block np. this pm glucose 150", "r. block", DR),
    ("ct site oozing. s. west in to strip tubes", "s. west", DR),
    # in one-case text, "dr" and a word before what a doctor does: the word, a clinical word too
    ("will follow am hct, dr cast in to talk w/pt this eve", "cast", DR),
    ("husband visited. dr fine took husband's ph #s", "fine", DR),
    ("plts on call in am. dr mass will be in around 0700", "mass", DR),
    ("bp 80s. dr block aware. bolus given", "block", DR),
    # in one-case text, the word between a kin word and what the relative did: a common word as much as any
    ("social: dtr chance called and discussed plan", "chance", REL),
    ("wife summer visited this eve", "summer", REL),
]
NEGATIVES: list[Case] = [
    # the codes, types and results of a delimited record
    ("ORU^R01|LAB|CBC^Blood^L|Hgb^13.2^g/dL\nOBX|1|NM|WBC^White Blood Cell^LN||7.2", None, None),
    ("ADMISSION^35471863^Chest Pain^4/17/2005^Cardiology", None, None),
    # dotted letters glued to a word that name no one: a species, an abbreviation, a role
    ("E.Coli reports pending. S.Aureus reported by micro.", None, None),
    ("RESP- PT WITH 2 L NP- C.O STEADY LEVEL", None, None),
    ("Paged H.O. on call; e.g. Quorvane", "H.O. Quorvane", DR),
    # the modal verbs after a kinship word
    ("son will be in tomorrow. WIFE WILL CALL BACK. wife may call. Wife will, if needed, call.", None, None),
    ("GIVEN COLACE AND MOM, MAY NEED DULCOLAX. SON MAY FEED PT.", None, None),
    # a line ending in a credential that no one signs
    ("TRANSPORTED WITH TRANSPORT AND RN\nWILL CONSULT OT AND SKIN CARE RN.\nculture: S. AUREUS RN\n", None, None),
    ("  Wound Care RN\n  Charge Nurse, RN\nspoke to RN\nPT REFUSED. J. RN\n", None, None),
    ("NEURO INTACT.\nWOUND CARE RN\nNIGHT SHIFT RN\nPLAN: CALL MD\nFOLLOW UP MD\nPAGE HOUSE MD\n", None, None),
    # a title with its name left out, and "MR" graded as mitral regurgitation
    ("Mr. and Mrs. at bedside. Spoke with Mrs. at length.", None, None),
    ("ECHO: MILD MR. PLAN: DIURESE. 1+ MR. EF 40%. MOD MR. TR 2+. MILD TO MOD MR. AS.", None, None),
    ("DR. AWARE. DR. RECOMMENDS CT. MD HAND SURGERY. DR HAND.", None, None),
    # a first name that is also an English word, a date, a drug or no name before the verb
    ("Frank appears comfortable. Grace period ended. Mark on skin noted. Will continue to monitor.", None, None),
    ("Pt was calm. Lasix was given. Family and friends at bedside. Neuro: alert.", None, None),
    # a relative's or a clinician's verb right after the trigger, in text without case cues (names are capitalised
    # where the text has case, so the mixed-case row is kept apart)
    ("HUSBAND VERBALIZED UNDERSTANDING OF PLAN. WIFE DROVE IN.", None, None),
    ("son flew in last night, daughter understands plan, wife texted update", None, None),
    ("WIFE SLEPT AT BEDSIDE. DAUGHTER INSISTED ON STAYING. SON LEFT AT 2000.", None, None),
    ("dr agreed with plan, md requested cxr, wife declined, son expresses concern", None, None),
    ("WIFE ANNA VERBALIZED UNDERSTANDING.", "VERBALIZED", REL),
    # a sign-off by a role, a service, a machine or the patient
    ("seen by ENT. reviewed by MD. Seen by P.T. on rounds, seen by O.T., checked by S.T.", None, None),
    ("BP checked by machine. Pain reported by patient. Verified by pharmacy. Approved by insurance.", None, None),
    ("line placement was verified by xray,dsg changed", None, None),
    # "I'm" before a state, a condition or a faith
    ("I'm Diabetic, so I check. I'm Anaemic and tired. I'm sure. I'm fine, thanks. I'm Catholic.", None, None),
    ("I'm Asthmatic and Epileptic. I'm here. I'm Pregnant! I'm Type 2.", None, None),
    ("I'm English, born here. I'm French. I'm Young and fit. I'm Christian.", None, None),
    ("This is Lasix. It's Tylenol, right? This is important. it's English. It's Diabetic. this is normal.", None, None),
    ("I'm Black, 45, from Quelbury. She is English, 45, from Leeds.", "Black", None),
    # a laboratory value, a dose or a list of numbers after a word, set off as an age would be
    ("Hemoglobin, 12, stable. Serum Creatinine, 2, rising. Troponin (12) pending.", None, None),
    ("Potassium, 4M, replaced. Glucose, 12 y/o, fasting", None, None),
    ("Lasix, 40, given twice. On days 3, 12, 14 she had fevers. Patient, 72, admitted.", None, None),
    ("Her son, 34, lives nearby. Total Bilirubin, 12, and rising.", None, None),
    ("Dr. A B", None, None),  # two letters alone are initials, the title rule's to judge
    # a line's first words before a record identifier that are note, clinical or common words
    ("Labs drawn MRN 1234567", None, None),
    ("Name DOB MRN", None, None),
    # a history's line ending in a date: one word, a procedure, a common word; a date inside a line
    ("Appendectomy 3/4/1960\nLap chole 6/3/95\nSeen today 3/4/19\nCABG x3 3/4/09\nName DOB 3/4/60", None, None),
    ("Hernia repair 6/3/95\nDischarged home 3/4/19\nFollow up 3/4/19 with labs", None, None),
    ("Pt 72M admitted\nPatient 45 yo female\nWalked 2m\nGravida 2 F\nTwins 2 M", None, None),
    ("Baby girl 2 F\nLeft knee 45 m", None, None),
    ("Heparin drip per protocol, DOB 3/4/50", None, None),
    ("Follow up DOB verified", None, None),
    ("Patient identified by name, DOB", None, None),
    ("Patient was admitted from ED. Pt presents with CP. Heparin was discharged.", None, None),
    ("Son and daughter both visited today. Mom and dad both live nearby.", None, None),
    ("Depression on her mother's side of the family.", None, None),
    ("Pt: alert and oriented x3. PT: LETHARGIC, RESPONSIVE TO PAIN. Pt: Intubated, sedated.", None, None),
    ("PT: WEANED, EXTUBATED. PT: AGITATED, CONFUSED. Employer aware. supervisor notified.", None, None),
    ("talking about going home w/pump for dopa, her mother is to visit next week", None, None),
    ("Stable (the patient's baseline) overnight. Lasix (his home dose) given.", None, None),
    ("Mr X has a b c d of options", None, None),  # letters after a title and a word: no spelled-out name
    ("Asked pt to cough. Told family about the plan. Asked RN for help.", None, None),
    ("Back pain relieved by repositioning. Report to oncoming RN. Care assumed by nights.", None, None),
    ("Pt answers to questions. Pt goes by wheelchair. When called pt opens eyes.", None, None),
    # words that open a sentence before such a verb and are no name
    ("Family updated on plan. Wound assessed. Pt examined by team. Dressing evaluated.", None, None),
    # a role and what it is or was, not who
    ("PCP is aware of admission.", None, None),
    # a service, a note word or a number joined to a name before "aware" is none
    ("Neuro/Brantisk aware of BP", "Neuro", None),
    ("Pt and Brantisk aware of BP", "Pt", None),
    ("bp 90/Brantisk aware", "90", None),
    ("Nurse was Unable to reach family.", None, None),
    ("Resident is Concerned about the BP.", None, None),
    # a common word and a letter ending a note are no signature
    ("Discussed options with team.\nPlan A.", None, None),
    # a unit, a service or the patient opening a clause
    ("pt ok and micu called. labs sent and cvicu called back. Tsicu called. once pt woke up", None, None),
    # a service, a unit or a role before a credential
    ("Renal MD aware. Covering MD notified. Cvicu RN called. Nocturnist MD aware. Hospitalist MD in.", None, None),
    # a common or clinical word, or a drug, and a bare letter on the last line sign nothing
    ("Will continue to monitor.\n\nHep B", None, None),
    ("Will continue to monitor.\n\nRoom A", None, None),
    ("Will continue to monitor.\n\nZosyn Q", None, None),
    ("Will continue to monitor.\n\nTele A\n", None, None),
    # a word a dictionary knows, a drug or a misspelling alone on the last line
    ("Pt stable overnight.\nLevophed", None, None),
    ("Pt stable overnight.\nStable", None, None),
    ("Will cont to monitor.\nmonitr", None, None),
    ("Vitals stable overnight.\nThanks J.", None, None),
    ("Will recheck lytes.\nGrade B.", None, None),
    # A role or an instruction between a dash and a credential, or a credential that does not end the line
    ("plan:\n- charge rn\n- float RN", None, None),
    ("if sbp < 90:\n- notify MD\n", None, None),
    ("- night rn aware of plan", None, None),
    # a dash, words and a bracket ending the line that are no signature
    ("-- pt stable (see note)", None, None),
    ("-- call me (555)", None, None),
    ("Pt stable.\n-- Continue plan", None, None),
    ("Pt resting\n- Foley", None, None),
    ("Plan:\n- lasix\n- Quorvane", None, None),
    ("Please let me know.\nThanks,\nMom", None, None),
    ("Best,\nTeam", None, None),
    ("maiden name unknown", None, None),
    ("BP stable - Lasix", None, None),
    ("Neuro - intact", None, None),
    # a possessive before a kinship word that is no name
    ("pt's wife in to visit", None, None),
    ("Patient's son called twice", None, None),
    ("Today's family meeting at 2", None, None),
    ("Mother's sister called", None, None),
    ("the nurse's husband", None, None),
    # A title-like word before a known clinical term or a score: no surname, whatever a strong title allows
    ("MRS score 3 on discharge", None, None),
    ("MR angiography of the neck booked", None, None),
    ("Mr sarcoidosis clinic follow up", None, None),
    ("Pain (pt) reports 3/10", None, None),
    ("Diet (patient) tolerated well", None, None),
    ("Dr. aware of labs", None, None),
    ("MD AWARE. WILL CONTINUE TO MONITOR", None, None),
    # a shift, a unit, a service or a role before the house officer or therapist
    ("NIGHT HO AWARE. COVERING HO AWARE. MICU HO AWARE. SURG HO AWARE. ON CALL HO AWARE.", None, None),
    ("Night HO aware. Team HO aware. PT HO AWARE. ANESTHESIA RT AWARE. DAY RRT AWARE.", None, None),
    ("per protocol and per team", None, None),
    ("wife at bedside, son called", None, None),
    ("unable to reach Will call back later", None, None),
    ("thanks for the tip, hi all!", None, None),
    ("good luck guy!", None, None),
    ("daughter is flying in tomorrow", None, None),
    ("PA line in place, PA sats 65", None, None),
    ("pt cont on mech vent as per Carevue. Lung sounds coarse", None, None),
    ("morphine given; ms contin 30 mg bid", None, None),
    ("monitor MS. Restart lopressor", None, None),
    ("renal (fellow) following", None, None),
    # a closing word before a role, a kin word, a common word or nothing
    ("Please call me back. Thanks again", None, None),
    ("Pt stable. Thank you, Nurse", None, None),
    ("See you then. Best, Everyone", None, None),
    ("Call if worse. Thanks, Mom", None, None),
    ("See you Tuesday. Thanks, Follow-up", None, None),
    # after "name is", "Ms" and the patient word, a drug, a clinical or common word names no one
    ("his name is unknown. pt's name is illegible. ms contin 30 mg given. ms. restart lopressor.", None, None),
    ("pt lasix was given. pt restless was medicated. patient care was provided. ms waxing and waning", None, None),
    ("PT LASIX DRIP STATES. pt nephrology fellow called. MS.RESTART. pt on ms.contin", None, None),
    ("NEURO, STABLE\nCV: SR", None, None),
    ("DR AWARE, DR TEAM AWARE. per dr orders, dr aware", None, None),
    ("1+ MR. A FIB NOTED", None, None),
    ("mother-in-law at bedside. pt's nana visited. her son's name is unknown", None, None),
    ("mod MR. A small pericardial effusion", None, None),
    ("Plan, Continue\nwith current meds", None, None),
    ("CVVH, CRRT\nrunning", None, None),
    ("Name alert on chart. NAME ALERT IN PLACE. similar name alert posted. pts with similar names", None, None),
    ("Pt, awake, is restless. pt, family, agreed with plan. pt npo was started", None, None),
    # a role set off by commas after a word that names no one: a symptom, a drug, a service, a group
    ("Pain, nurse, and MD notified. Insulin drip, pharmacist, and NP reviewed.", None, None),
    ("Spoke to family, social worker, and chaplain. Called Cardiology, the fellow, who will see pt.", None, None),
    ("Seen by ortho, the fellow. Plan, social worker, family meeting.", None, None),
    ("Seen by team, the fellow, and attending.", None, None),
    ("confirmed with family at bedside", None, None),
    ("dose verified with pharmacy", None, None),
    ("c/o pain (md aware)", None, None),
    # "MS"/"ms" are also mental status and morphine: an unlisted word after them is no name
    ("PT WITH ALTERED MS. TOLERATING PO WELL.", None, None),
    ("pt with poor ms. replete with k.", None, None),
    ("DECREASED MS. INTUBATED FOR AIRWAY PROTECTION.", None, None),
    ("Ms changes noted overnight.", None, None),
    ("husband notified of reintubation", None, None),
    ("seen by renal team, MD will call son", None, None),
    ("no n/v. prefers no solid food", None, None),
    ("groins now d/i. pulses intact", None, None),
    ("R. WRIST SL. IV NURSE UNABLE", None, None),
    ("E. coli in urine, C. diff negative", None, None),
    ("\nA. Stable post extubation\nP. Continue plan", None, None),
    ("plan as above.\nContinue to monitor\n", None, None),
    ("OGT placed and Nepro ordered, not started", None, None),
    ("no further N/V. Droperidol ordered but not needed", None, None),
    ("labs ordered for am", None, None),
    ("NP is aware of plan", None, None),
    ("CNA aware, LPN to give meds, seen by CRNA", None, None),
    ("son phoned, family updated", None, None),
    ("REPLETE W/ FIBER, W. RESIDUALS >20CC", None, None),
    ("may need k. cont with skin care", None, None),
    ("Keep careful I & O. Suction prn.", None, None),
    ("S. INTUBATED\n O. SEE CAREVUE", None, None),
    ("per cath-bwn team, sheath out", None, None),
    ("rash treated per dermatitis protocol", "dermatitis", None),
    ("seen by Dr. Thoracotomy team", "Thoracotomy", None),
    ("cath examined by interventional radiology, cath ok", "interventional", None),
    ("pt to be seen by tranplant team in am", "tranplant", None),
    ("Seen by Cardic Transplant surgeon today", "Cardic", None),
    ("NURSING HOME RESIDENT X'S 3 YRS", "X", None),
    ("GRANDDAUGHTER (SPOKESPERSON)CALLED FOR UPDATE", "SPOKESPERSON", None),
    ("daughter(s) in to visit", None, None),
    # issue 16 hard negatives: organisms and abbreviations after an initial, modal verbs after a title (invented)
    ("Sputum grew B. cepacia.", None, None),
    ("Urine: E. coli. Blood: S. aureus.", None, None),
    ("Cx with K. pneumoniae. Started cefepime", None, None),
    ("hx A. fib. On coumadin", None, None),
    ("pan cultured for T. cultured.", None, None),
    ("tylenol given p.o. q. 4h prn.", None, None),
    ("Dr will follow up in am.", None, None),
    ("Dr. Will Stop by later.", None, None),
    ("DR MAY CALL BACK TONIGHT", None, None),
    ("Pt agrees with plan. Family states understanding.", None, None),
    ("Nephro called back. Cardiology agrees. Nursing reports pt slept.", None, None),
    ("Family is upset. Wife was tearful. Team is worried about sepsis. Daughter became upset.", None, None),
    ("Pt was comfortable overnight. Nursing was comfortable with plan. Morphine is comfortable for him.", None, None),
    ("Lasix requested. Haldol requested. Patient denies pain.", None, None),
    ("REPORT GIVEN TO ONCOMING RN. REPORTED TO NIGHTFLOAT.", None, None),
    ("d/w team and pt. Reported to MD. Report given to CCU RN.", None, None),
    ("Pain reported to be 3/10. Reported to be stable.", None, None),
    ("Patient is a 64 yo man. Pt is a 70 y/o. This is a 45 yo woman.", None, None),
    ("Pt is a pleasant 80yo. This is a well-appearing 45 year old. She is a thin frail elderly 90 yo.", None, None),
    # a service, a unit, a shift or a role before a credential and "aware"
    ("BP 80/40. Renal MD aware. Night MD aware. Covering MD notified. Charge RN aware. Ortho PA aware.", None, None),
    ("Ccu RN aware. Heme/onc MD aware. Pcp MD notified. Oncoming RN aware. Team MD aware.", None, None),
    # capitals alone before the age that are a word or a note's abbreviation
    ("PT is a 45 yo man. MD is a 50 year old. MS is a 45 yo. RN is a 30 year old.", None, None),
    ("HE IS A 45 YO MAN. SHE IS A 72 YEAR OLD.", None, None),
    ("PT, a 62-year-old man. Pt, a 62 yo man, was seen. MS, a 45 yo woman. e.g., a 45 year old", None, None),
    # a relative, a drug, a clinical word, an abbreviation or a common word after a verb of care
    ("Educated Wife on meds. Medicated Percocet for pain. Suctioned Trach for secretions.", None, None),
    ("SUCTIONED OROPHARYNX. REASSURED PRN. MEDICATED FENTANYL. SETTLED NICELY. ENCOURAGED FLUIDS.", None, None),
    ("EDUCATED WIFE RE LOVENOX. ASSISTED PT OOB. REORIENTED FREQ. TURNED SIDE TO SIDE. WALKED HALLS.", None, None),
    ("Turned Q2H and prn. Assisted OOB to chair. Encouraged Fluids. Reassured Family.", None, None),
    ("Elderly patient is a 64 yo man. Mr. X was seen. Pt Quorvane resting.", "Elderly", None),
    ("Discharged from PT. Consult from PT pending. Transfer from OT today.", None, None),
    ("Transfer from CCU at 1400. Pt from CCU, stable. Call from CCU re: bed. Report from MICU given.", None, None),
    ("Levophed from CCU weaned. Labs from ED notable. Heparin from pharmacy hung. Nurse from CCU here.", None, None),
    ("Pt resting comfortably.\nNeuro Checks\n", None, None),
    ("Pt resting comfortably.\nVancomycin Trough\n", None, None),
    ("Pt resting comfortably.\nHemodynamically Stable\n", None, None),
    ("Son and daughter are his health care proxies. Wife and sister are her guardians.", None, None),
    ("Both parents and grandparents are his guardians. Bloods and cultures were sent.", None, None),
    ("Urine: E. coli and S. aureus. Sputum: P. aeruginosa and S. marcescens.", None, None),
    ("Meds given p.o. and s.l. Take 1 tab q.d. and s.q. heparin.", None, None),
    ("Lasix visited. Family arrived at 2pm. Pt was here before. Team phoned.", None, None),
    ("Abd c/o tenderness. Pt c/o nausea. Family c/o wait. Legs c/o cramps. Resp c/o SOB.", None, None),
    ("Crohn's flare noted. Dupuytren's contracture. Parkinson's meds given. Today's labs pending.", None, None),
    ("Kaposi's sarcoma. Hodgkin's lymphoma. Pt's wife called. Doctor's orders followed.", None, None),
    ("Pt states her name is illegible. His name is on the list.", None, None),
    ("Patient Care Plan reviewed. Pt Controlled Analgesia. Patient Education done. Pt Tylenol given.", None, None),
    ("Exercises as directed by PT. Titrate lopressor. Family in to see patient. Hemodynamically stable.", None, None),
    ("H.O. aware. H.O. will see pt. Paged H.O. re: BP.", None, None),
    ("Resident is on call. Attending is covering. MD will see pt. Team will follow.", None, None),
    ("Social work will see family. Cardiology will follow. Renal will assess.", None, None),
    ("Wound care will see pt. Hospice will evaluate. Pharmacy will follow.", None, None),
    ("Lungs clear. Dyspnea reported with exertion.", None, None),
    ("Tachycardia noted. Hypoxemia reported overnight.", None, None),
    ("Spoke w/ team re: plan. Discussed w/ cardiology.", None, None),
    ("Films read by radiology. Labs drawn by phlebotomy. Reviewed by MD.", None, None),
    ("Pt (afebrile) resting. Pt (DNR/DNI) comfortable. Pt (intubated) sedated.", None, None),
    ("pt (afebrile) resting. pt (dnr/dni) comfortable. pt (intubated) sedated.", None, None),
    # a service in brackets after the patient is who follows the patient, not the patient's name
    ("Pt (Nephro) following. Pt (Cards) aware.", None, None),
    ("Call me if questions. Pt goes by ambulance to rehab. Known as CHF clinic pt.", None, None),
    ("call me if questions. pt goes by ambulance to rehab. known as chf clinic pt.", None, None),
    # "family" after a word that names no one: a service, a language, a description (invented)
    ("Cardiac surgery family meeting today. ICU family meeting at 2. Spanish family, interpreter used.", None, None),
    ("Large family present. Supportive family at bedside. Loving family, very involved.", None, None),
    ("Immediate family stayed. Per family pt is A&O. Keep family updated. Guatemalan family visiting.", None, None),
    ("Hospice family meeting held. Catholic family requests chaplain. Pt and family aware.", None, None),
    ("Spanish interpreter present. Interpreter used for consent. Sitter at bedside. Volunteer visited.", None, None),
    ("Per interpreter, pt denies pain. Sitter Present. Interpreter Services aware. Interpreter Line used.", None, None),
    ("Will continue to monitor.\nNursing Progress 7a-7p", None, None),
    ("Will continue to monitor.\nHeparin 7p-7a\n", None, None),
    ("Will continue to monitor.\nBP stable 7a-7p", None, None),
    ("Name (print): ______. Oriented to name (only). Pt (confused) pulling at lines.", None, None),
    ("BP OK. Thanks all! Good luck everyone! Hi flow O2 at 2L, thank you doctor!", None, None),
    # away, but no one: the patient, a device, a relative, a drug
    ("Pt is off today. Foley is out today. Wife is away. Heparin is on vac.", None, None),
    # who speaks for the patient, named by kin, pronoun or service
    ("Wife is HCP. Son is the contact person. Social work is contact for placement. She is HCP.", None, None),
    # a team or service with a role, a kind or a time in brackets
    ("Seen by ICU team (MD, RN). Pain service (acute pain). Neuro (Stroke) following. Ortho (f/u 2 wks).", None, None),
    # after a slash, a service is no second name
    ("Paged Quorvane/renal fellow at 0300.", "renal", None),
    # report, coverage and talks that name a place, a service, a symptom or a relative
    ("Report from CT pending. Report from OSH faxed. Report from Radiology: no PTX.", None, None),
    ("Report received from OSH nursing. Handoff from MICU team. Taken over from PACU.", None, None),
    ("Discussion with family held. Message left for dtr. Covering for pain with MSO4.", None, None),
    # a phone word's abbreviation between a relative and a number
    ("dtr ph 301 555 1234. wife hm 555 1234. son wk 555-1234. dtr mob 07700 900123", None, None),
    # seen, but no one: a service, a discipline, a drug, a pointer to another record
    ("Renal saw pt today. Pt saw Cardiology today. Pt sees Nephrology in clinic.", None, None),
    ("been seeing improvement for a week", None, None),
    ("have been seeing spots for days", None, None),
    ("been seeing a therapist for years", None, None),
    ("Pt died at 0400. Foley retired.", None, None),
    ("pt's daugther and son from calif. Spoke with SW and family.", None, None),
    ("Seeing Ativan work well. Saw PT today. FSBS q 6 hrs - see Careview. See Flowsheet for I/O.", None, None),
    # "dr" after a reporting word before a word of grammar or of a note, or a service
    ("per dr orders. called dr re pain. seen by dr today. notified dr of increase. by dr thoracic team", None, None),
    # an abbreviation, a care site or a drug in brackets after a service
    ("renal (crrt) aware. renal (cvvhd) running. team (micu) aware. id (vanco) recs.", None, None),
    # an undotted initial after a title, then what the person does
    ("MR. Q RESTING. DR. K AWARE OF LYTES.", "RESTING", None),
    # a note's last sentence ending in a word of a note, a clinical word, a verb or an electrolyte's letter
    ("neuro intact.\npt stable. recheck k.  ", None, None),
    ("neuro intact.\nplan: will check k. continue q4h. see careview. lasix. dr aware. stable", None, None),
    # a note, clinical or drug word, or a role, before what is said of a person's state
    ("Neuro: Pt is alert. Family is anxious. Propofol remains sedated? Wife was confused. Patient slept", None, None),
    ("Pt was calm. Family was pleasant. Wife appears anxious. He ate. Neuro follows commands.", None, None),
    # a greeting before a common word, a clinical word, or a word of forum slang; "asking" after a role
    ("thanks guys! hi all, dear colleague, hang in there hun! thanks gabapentin!", None, None),
    ("Pt asking for water. Family asking about plan. Wife asking re: dc.", None, None),
    # a patient, a relative, a drug, a system or a finding with a state after a word of degree
    ("Pt is very pleasant. Family is more anxious. Wife was quite upset. Morphine is very effective.", None, None),
    # a note word, a drug or a heading before the comma and the age or a dose
    ("Pt, 78 yo M w/ hx of CAD. Lasix, 40 mg iv given.", None, None),
    ("Assessment, 78 yo M with CHF. Summary, 78M w/ CAD. Neuro, 24 hrs: no change.", None, None),
    ("Patient, 78 yo M, admitted. Resp, 18 breaths/min. Meds, 2 tabs.", None, None),
    ("Mental status is now appropriate. Mood is somewhat depressed. Affect is much brighter. Resp calm", None, None),
    # a patient, a relative, a day or a team in the possessive
    ("Patient's mood is low. Pt's pain 3/10. Wife's plan is to visit. The team's plan. Yesterday's pain", None, None),
    # an office a letter is for, and attention as the faculty
    ("Attn: Case Management; attn: medical records dept; ATTN: PHARMACY; FAO the duty doctor; fao billing", None, None),
    ("Attention: please note the change. Attention deficit disorder, attn span short, needs attention to", None, None),
    # a hyphen inside a word opens no sentence
    ("Pt is well-Quorvane agrees.", None, None),
    # a care service or specialty before what a clinician does names a team
    ("Nephro is aware. Rheum aware of plan. Hepatology is aware. Palliative notified.", None, None),
    # a letter's shorthand, an organism, an article or pronoun, or a letter and a verb alone on the last line
    ("Plan: wean.\nA Fib\n", None, None),
    ("Plan: wean.\nS Epi\n", None, None),
    ("Plan: wean.\nI Agree\n", None, None),
    ("Plan: wean.\nK Repleted\n", None, None),
    ("Plan: wean.\nv tach\n", None, None),
    ("Plan: wean.\nR Arm\n", None, None),
    # an initial's shorthand, an organism, or a side (L, R) before a clinician's act and no role
    ("new onset a. fib aware. v. flutter notified. s. aureus aware. bp 80, l. arm aware", None, None),
    # after "mr" in one-case text, a clinical word in small letters; a graded valve lesion's "mr." before a capital
    ("pmicu nursing progress 11p-7a   mr pain was transferred from ccu to micu overnight", None, None),
    ("echo today: mild mr. Pain is controlled with morphine overnight", None, None),
    # "dr" before what a doctor does, after no name: a verb, a word of a note, a service
    ("dr called in to see pt. dr aware of bp. dr team aware. dr order was followed. on call dr was paged", None, None),
    ("dr orders will be followed. dr note was reviewed. dr service aware. dr consult was called", None, None),
    # an adverb, a pronoun or a word of a note between the kin word and the verb
    ("son also called. wife finally visited. son never called. son himself called. wife first called", None, None),
    ("son twice called. daughter today called. wife who called. son again called. wife often visits", None, None),
]
# issue 16: shapes decided by case, so tested as written only (invented names)
MIXED_CASE_POSITIVES: list[Case] = [
    # a signature with the shift worked after it (unlisted names in one case sign only with a credential)
    ("Will continue to monitor.\nTobiah Quorvane 7p-7a\n", "Tobiah Quorvane", DR),
    # an initial alone after a title, without its full stop, before a word in small letters
    ("Mrs. Q states she wants to go home", "Q", PT),
    # one word that no dictionary knows, capitalised alone on the last line (invented names)
    ("TQ is a 45 year old woman with asthma.", "TQ", PT),
    ("TQ, a 70 yo F with CHF", "TQ", PT),
    # a title's initials glued together (in one-case text too; small letters alone after a title are no name there)
    ("Mrs. T.Q. was seen in clinic today.", "T.Q.", PT),
    ("MRS. T.Q. WAS SEEN IN CLINIC TODAY.", "T.Q.", PT),
    ("Seen by Dr. J.S.B. this morning.", "J.S.B.", DR),
    ("the drive to the hospital is long.\nZhiobril", "Zhiobril", DR),
    ("Pt stable overnight. Will continue to monitor.\nKlioprou\n", "Klioprou", DR),
    # a listed first name and any word signing a line of its own with a credential, in a note of one case
    ("NEURO: INTACT. RESP: CLEAR.\nJIM LONG RN\n", "JIM LONG", DR),
    ("neuro: intact. resp: clear.\n  jim long, rn\n", "jim long", DR),
    ("Neuro intact.\nPt is on heparin, not 1400u/hr.   Breashois V", "Breashois V", DR),
    # a lone word before a credential where the text has case: written as a name and known to no dictionary
    ("Kiochao MD notified of change in BP.", "Kiochao", DR),
    ("Brantisk RN gave meds at 10.", "Brantisk", DR),
    ("Pt is on heparin, not 1400u/hr. Quorvane J.", "Quorvane J.", DR),
    ("Family is around to decrease anxiety.\n V Quorvane\n\n", "V Quorvane", DR),
    ("PLAN: WEAN.\nJ. BIRD RN\n", "J. BIRD", DR),
    ("Neuro intact.\nFamily updated at length.  Zelphine", "Zelphine", DR),
    # a member of a service in brackets, a word no dictionary knows, in a note of one case
    ("renal (quorvane) aware of k 5.9", "quorvane", DR),
    ("RENAL (QUORVANE) AWARE OF K 5.9", "QUORVANE", DR),
    # a title and a dotted initial alone name the person; after an initial, what the person does is no surname
    ("Mr. Q. resting comfortably.", "Q.", PT),
    ("MRS. K. IS STABLE.", "K.", PT),
    # a joined name with no trigger is capitalised in each part, as a name is written
    ("Family at bedside last night. Quorvane-Lindt is family contact.", "Quorvane-Lindt", REL),
    ("Family at bedside last night. D'Quorvane is family contact.", "D'Quorvane", REL),
    ("Neuro: intact. Resp: clear.\nROSE WHITE, RRT\n", "ROSE WHITE", DR),
    # two capitalised words signing a line, the first a listed first name
    ("Family updated.  Ivy Pulse,RN\n", "Ivy Pulse", DR),
    # any capitalised word after "Mr"/"Mr."/"Mrs"/"Dr" but a word of grammar is the name, a clinical word too
    ("Mrs Page ate well, Mr Hand aware.", "Page", PT),
    ("Mrs Page ate well, Mr Hand aware.", "Hand", PT),
    ("Mrs. House ate breakfast.", "House", PT),
    ("Also Dr. Hand involved, d/w Dr Case.", "Hand", DR),
    ("Also Dr. Hand involved, d/w Dr Case.", "Case", DR),
    # who signed off a report or letter (without case, a listed name only)
    ("Authorised by: Geabrev Marisol, Consultant", "Geabrev Marisol", DR),
    ("Reported by Kechiexek B on 3/5", "Kechiexek B", DR),
    ("Transcribed by Quorvane 3/5/2024", "Quorvane", DR),
    # a clinician's dotted initials after a sign-off or "seen by"
    ("Verified by J.Q. on 3/5/2024 1412", "J.Q.", DR),
    ("Seen by T. Q. on rounds", "T. Q.", DR),
    # a writer's self-introduction: an unlisted name needs its capital (in one case only listed names count)
    ("Hi all, I'm Tamsin, 29F, diagnosed in 2015.", "Tamsin", PT),
    ("I am Tobiah Quorvane and I have had this for years.", "Tobiah Quorvane", PT),
    ("HI ALL, I'M MARISOL, DIAGNOSED IN 2015", "MARISOL", PT),
    # as a message or call opens, with what may follow the name
    ("Hello, it's Tobiah again. Question about my meds.", "Tobiah", PT),
    ("Hi, this is Tamsin calling about my mother.", "Tamsin", PT),
    ("Hi all, I'm Tamsin here for advice", "Tamsin", PT),
    # "Ms"/"Mx" written as a title (capital, then lower case) take any surname, listed or not, as "Mrs" does
    ("Ms. Fairweather up to chair.", "Fairweather", PT),
    ("Ms Quorvane is a 54 yo female", "Quorvane", PT),
    ("Mx. Quorvane is stable", "Quorvane", PT),
    ("Mx Okonkwo-Lindqvist seen in clinic", "Okonkwo-Lindqvist", PT),
    # After a strong title, a surname with a clinical ending that no dictionary or clinical lexicon knows; written
    # as a name (in an all-lower-case note the ending decides)
    ("Mrs Vantrelosis will continue metformin.", "Vantrelosis", PT),
    ("MRS VANTRELOSIS WILL CONTINUE METFORMIN.", "VANTRELOSIS", PT),
    ("Discussed with Dr. Kelvostectomy today.", "Kelvostectomy", DR),
    ("Reported to D. Quorvane.", "D. Quorvane", DR),
    # a capital that a writer of small letters gives the word after a title, a clinical word too, the title with or
    # without its full stop
    ("pmicu nursing progress 11p-7a   mr Pain was transferred from ccu to micu overnight", "Pain", PT),
    ("pmicu nursing transfer/progress 7a-7p  mrs Vein is a nice woman admitted to the micu", "Vein", PT),
    ("pmicu nursing progress 11p-7a. cv: mr. Fever continues with small residual effusion", "Fever", PT),
    ("Plan d/w J. Tillerson. Will follow", "J. Tillerson", DR),
    ("Seen by Dr Will Harlow today.", "Will Harlow", DR),
    ("Discussed with Dr. May Ostrander.", "May Ostrander", DR),
    ("Seen by Dr. Hope Mills today.", "Hope Mills", DR),
    ("SEEN BY DR WILL QUORVANE TODAY.", "WILL QUORVANE", DR),
    # "A." and "I." with their full stop after a name are initials, not the article or the pronoun (invented names)
    ("his son, quorvane a., called twice", "quorvane a.", REL),
    ("Dr. I. Quorvane in to see pt", "I. Quorvane", DR),
    # the word after an initial right after a strong title is the surname, a clinical or common word too; a note
    # word, a word of grammar or a verb is not (the initial alone is then the name)
    ("LR CONTINUES PER DR R. MASS...  RESP CONTINUES AC MODE", "R. MASS", DR),
    ("Mrs. J. Mass is a 70 yo woman.", "J. Mass", PT),
    ("per dr j. fine, ok to extubate", "j. fine", DR),
    ("per Dr. R. aware of plan", "R.", DR),
    ("DR. P. WILL CALL BACK", "P.", DR),
    ("Tobiah agrees with plan.", "Tobiah", PT),
    # a name no list knows, opening a sentence before what is said of a person's state (invented names)
    ("Neuro: Tobiah is alert, follows commands.", "Tobiah", PT),
    ("Resp: Quorvane remains intubated on AC.", "Quorvane", PT),
    ("neuro: tobiah slept most of the night.", "tobiah", PT),
    ("Resp: LS clear. Quelbine was calm and cooperative.", "Quelbine", PT),
    ("Resp: LS clear. Quelbine appears comfortable.", "Quelbine", PT),
    ("GI: Kelbur had a good night.", "Kelbur", PT),
    ("Kelbur ate 50% of breakfast.", "Kelbur", PT),
    ("Quelbine ambulated in hall x2 with PT.", "Quelbine", PT),
    ("Neuro: Zharnow follows commands, MAE.", "Zharnow", PT),
    ("Tobiah nodded appropriately to questions.", "Tobiah", PT),
    # a person named with the relative who came along, in a sentence's middle (invented names)
    ("Family meeting with Quorvane A. and wife.", "Quorvane A.", PT),
    ("DISCUSSED WITH QUORVANE AND WIFE.", "QUORVANE", PT),
    # or what befalls a person and no thing (invented names)
    ("anyone know a good neuro in nd? trezhykas voujynt retired.", "trezhykas voujynt", PT),
    ("Tobiah passed away in 2019.", "Tobiah", PT),
    ("T.Quorvane agrees with plan.", "T.Quorvane", PT),
    ("Plan d/w J Tillerson re cath", "J Tillerson", DR),
    ("Tobiah is a 64 yo man with CAD.", "Tobiah", PT),
    # the name a comma sets off before the age, opening a note, a sentence or a line (invented names)
    ("Tobiah, 78 yo M w/ hx of CAD", "Tobiah", PT),
    ("NPN: Tobiah Quorvane, 78 yo man s/p CABG", "Tobiah Quorvane", PT),
    ("Transfer note.\nQuorvane, 82F with hx of CHF", "Quorvane", PT),
    ("QUORVANE, 82 Y/O F ADMITTED WITH CHF", "QUORVANE", PT),
    ("Kiochao, 67-year-old man, transferred from OSH", "Kiochao", PT),
    # with a few words of description before the age
    ("Kiochao is a pleasant 80yo admitted with CHF.", "Kiochao", PT),
    ("Tobiah is a very pleasant 80 year old man.", "Tobiah", PT),
    # the patient named after a nurse's verb of care
    ("Assisted Kiochao to chair.", "Kiochao", PT),
    ("Reoriented Kiochao frequently overnight.", "Kiochao", PT),
    ("Pt anxious. Encouraged Kiochao to use IS.", "Kiochao", PT),
    ("TOBIAH IS A 64 YEAR OLD MAN", "TOBIAH", PT),
    ("Plan d/w Quorvane.", "Quorvane", DR),
    ("Report given to Ostrander at 1900.", "Ostrander", DR),
    # "w/" for "with" and "<verb>ed by" name who did it (clinical shorthand, invented names)
    ("Spoke w/ Pennock re: vent settings.", "Pennock", DR),
    ("Lasix 40 ordered by Gallimore.", "Gallimore", DR),
    ("Line placed and intubated by Vostrikov.", "Vostrikov", DR),
    ("Films read by Okonjo, no ptx.", "Okonjo", DR),
    # the patient named in brackets, or by the name they ask to be called (invented names)
    ("Pt (Tobiah) very anxious overnight.", "Tobiah", PT),
    ("pt (gertrude) very anxious overnight.", "gertrude", PT),
    ("Pt oriented to name (Gertrude) only.", "Gertrude", PT),
    ('pt knows name ("gertrude") but not place.', "gertrude", PT),
    ('Pt states "call me Bunny".', "Bunny", PT),
    ("her maiden name is Quorvane", "Quorvane", PT),
    ("birth name Brantisk, changed 2010", "Brantisk", PT),
    ("Pt prefers to be called Jack.", "Jack", PT),
    ("Goes by 'Kit', oriented x3.", "Kit", PT),
    ("Ellsworth, aka Buddy, is a 70 yo man.", "Buddy", PT),
    ("Lungs clear. Marisela states she is tired.", "Marisela", PT),
    ("Her other dtr died at 22. Zelphine K. reports that pt has debts.", "Zelphine K.", PT),
    # what the patient says the name is (without case only a listed name; invented names)
    ("Pt states her name is Zelphine.", "Zelphine", PT),
    ("pt states her name is gertrude, oriented x1", "gertrude", PT),
    # the word patient before a name, in text with case (invented names)
    ("VSS. Patient Zelphine Quorvane admitted from ED.", "Zelphine Quorvane", PT),
    ("Pt Quorvane resting comfortably.", "Quorvane", PT),
    # in text with case a lower-case word after a capitalised name ends it; a letter glued to digits is no initial
    ("Dr Quorvane ok'd lasix.", "Quorvane", DR),
    ("Dr. Quorvane pgd x1 re: BP.", "Quorvane", DR),
    ("Dr. Brantisk q4h checks ordered.", "Brantisk", DR),
    # a signature of two words written as names, neither a listed name nor an English word (invented)
    ("Family is around to decrease anxiety.\nZelphine Quorvane\n", "Zelphine Quorvane", DR),
    ("Plan: wean as tolerated.\nBrantisk Okonkwo RN\n", "Brantisk Okonkwo", DR),
    ("VSS.\nTOBIAH DENIES PAIN AT THIS TIME", "TOBIAH", PT),
    # a surname before "family", a commoner one after "the" (invented names)
    ("The Baker family has questions re: trach.", "Baker", PT),
    ("Met with the Okonjo family today.", "Okonjo", PT),
    # a greeted lower-case name in mixed-case text (a message board's reply)
    ("Mercy Hospital fixed it. hang in there zachary!", "zachary", PT),
    # a greeted name that no dictionary knows (invented)
    ("is that bad? > hang in there bozousaith sisaemard! i work nights", "bozousaith sisaemard", PT),
    # a rare word opening a sentence before "asking" (invented)
    ("social: sister in this am; maedrai asking for her boyfriend.", "maedrai", PT),
    # a heading's dash opens a sentence as its colon does (invented names)
    ("i/o 600/900. social- rezosk asking for partner quorvane;", "rezosk", PT),
    # whom a patient sees or saw, before a place, a time or the sentence's end (invented names)
    ("been seeing Quorvane for 14 yrs, she moved away", "Quorvane", DR),
    ("my granddaughter saw Brantisk T in Quelbury MN for this", "Brantisk T", DR),
    ("I saw Zelphine Quorvane last week.", "Zelphine Quorvane", DR),
    ("He sees Vantrelos every 3 months.", "Vantrelos", DR),
    # whom a writer without capitals has long been seeing (invented names)
    ("been seeing briolychoum z. for 23 yrs, she moved away", "briolychoum z.", DR),
    ("ive been seeing raelontett since 2010", "raelontett", DR),
    ("BEEN SEEING QUORVANE FOR YEARS", "QUORVANE", DR),
    # from whom report came, for whom one covers, with whom one talked (invented names)
    ("Report received from Quorvane at 1900.", "Quorvane", DR),
    ("Covering for Brantisk tonight, aware of plan.", "Brantisk", DR),
    ("Handoff from Zelphine Quorvane, pt stable.", "Zelphine Quorvane", DR),
    ("Per discussion with Okonkwo-Brantisk, hold lasix.", "Okonkwo-Brantisk", DR),
    ("Message left for Vantrelos re: K 5.9", "Vantrelos", DR),
    # a clinician away, opening a sentence or a bracket (invented names)
    ("Quorvane is on leave this week, covering is Brantisk.", "Quorvane", DR),
    ("CASE MGMT ON MONDAY (ZHYCHORELLE IS ON VACA) AND", "ZHYCHORELLE", DR),
    # who speaks for the patient, opening a sentence (invented names)
    ("Family at bedside. Ahantski is family contact/interpreter.", "Ahantski", Label.RELATIVE),
    ("Quorvane is the pt's health care proxy.", "Quorvane", Label.RELATIVE),
    ("Zelphine Quorvane will be primary contact.", "Zelphine Quorvane", Label.RELATIVE),
    # the clinicians of a team or service, in brackets after it (invented names)
    ("MICU team (Quorvane/Brantisk) aware of K.", "Brantisk", DR),
    ("Pt seen by ortho (Quorvane) today.", "Quorvane", DR),
    # names joined by a slash, each its own span (invented names)
    ("Seen by Quorvane/Brantisk today.", "Brantisk", DR),
    ("Drs. Quorvane/Brantisk aware.", "Quorvane", DR),
]
CASE_VARIANTS = [(t.upper(), e.upper(), lab) for t, e, lab in POSITIVES] + [
    (t.lower(), e.lower(), lab) for t, e, lab in POSITIVES
]
NEGATIVE_VARIANTS = [(t.upper(), e, lab) for t, e, lab in NEGATIVES] + [(t.lower(), e, lab) for t, e, lab in NEGATIVES]

# Expected failures, kept as data: each is a phenomenon the trigger patterns cannot decide alone.
KNOWN_FAILURES = frozenset(
    {
        # After "and" only clearly name-like words continue a list; "Saeed" is borderline common.
        ("DRS FERULLO AND SAEED IN TO SEE PT", "SAEED"),
        ("drs ferullo and saeed in to see pt", "saeed"),
    }
)


@pytest.mark.parametrize(("text", "expected", "label"), params(POSITIVES + CASE_VARIANTS, KNOWN_FAILURES))
def test_finds_names(text: str, expected: str, label: Label) -> None:
    check_positive(name_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "expected", "label"), params(MIXED_CASE_POSITIVES))
def test_finds_names_shaped_by_case(text: str, expected: str, label: Label) -> None:
    check_positive(name_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "forbidden", "label"), params(NEGATIVES + NEGATIVE_VARIANTS))
def test_ignores_non_names(text: str, forbidden: str | None, label: Label | None) -> None:
    check_negative(name_detector(), text, forbidden, label)


def test_a_firm_named_for_a_family_names_no_patient() -> None:
    """A relation written with a capital among small letters after "and" is a firm's name (mixed case only: in
    capitals "QUORVANE AND SONS" may be a person with the sons)."""
    check_negative(name_detector(), "Social history: attends Quorvane and Sons weekly.", None, Label.PATIENT)


@pytest.mark.parametrize("text", ["SPOKE WITH DR. KOWALSKI", "wife anna called", "Mr. Nicholson is awake"])
def test_trigger_is_not_in_the_span(text: str) -> None:
    spans = name_detector().detect(__import__("deident.core.document", fromlist=["Document"]).Document("t", text))
    assert spans
    for span in spans:
        covered = text[span.start : span.end].lower()
        assert not any(t in covered.split() for t in ("dr.", "dr", "wife", "mr.", "spoke", "with"))


@pytest.mark.parametrize(
    "word", ["the", "smith", "quillfield", "xq", "a", "aware", "robert", "zzzzzz", "Smith", "o'neil", "co-op", "x1"]
)
def test_word_frequency_shortcut_equals_wordfreq(word: str) -> None:
    from wordfreq import zipf_frequency

    from deident.detect.patterns.names import _zipf

    assert _zipf(word) == zipf_frequency(word, "en")


_CHAIN_PIECES = (
    "Smith", "O'Brien", "J.", "e.", "Stord-Painter", "a", " ", "  ", "\t", " \t", "x" * 30, "Mary-", "'", "-",
    "ab.", ".", "Ann", "de", "\u017f", "K", "\u212a", "Zo\u00eb", "Rn.", "q'",
    "J.Quorvane", "K.", "j.k.rowe", "-e.", "'s.",
)  # fmt: skip


def test_chain_tokens_are_what_a_token_scan_finds() -> None:
    """The tokens of a CHAIN match, found with str methods, equal a TOKEN regex scan of it."""
    rng = random.Random(3)
    chains = 0
    for text in random_texts(rng, _CHAIN_PIECES, 4000, 1, 7):
        for forward in (True, False):
            source = "(?<![\\w'])(?P<n>" + CHAIN + ")" if forward else "(?r)(?<![\\w'])(?P<n>" + CHAIN + ")"
            for match in rx(source).finditer(text):
                chain, offset = match["n"], match.start("n")
                expected = [(offset + t.start(), offset + t.end(), t[0]) for t in rx(TOKEN).finditer(chain)]
                assert _chain_tokens(chain, offset) == expected, chain
                chains += 1
    assert chains > 1000


# Name forms and titles beyond "Dr."/"Mr.": cased titles, other countries' credentials, a first name with a surname
# initial, names in other scripts' letters. Mixed case only (the cased rules need their capitals).
NAME_FORMS: list[Case] = [
    ("Seen by Prof. Helen Zhou today", "Helen Zhou", Label.DOCTOR),
    ("discussed with Professor Okafor", "Okafor", Label.DOCTOR),
    ("I spoke with Sister Okafor on the ward.", "Okafor", Label.DOCTOR),
    ("Fr. Byrne visited this evening", "Byrne", Label.DOCTOR),
    ("Matron Dlamini agreed", "Dlamini", Label.DOCTOR),
    ("Rev. Adaeze Nwosu prayed with the family", "Adaeze Nwosu", Label.DOCTOR),
    ("Rosa K. wrote back on the portal", "Rosa K.", Label.PATIENT),
    ("thanks, Maribel T. for the tip", "Maribel T.", Label.PATIENT),
    ("Jane Smith, DO", "Jane Smith", Label.DOCTOR),
    ("letter from Ravi Menon, MBBS", "Ravi Menon", Label.DOCTOR),
    ("Emily Chen, PA-C", "Emily Chen", Label.DOCTOR),
    ("Tom Reyes, NP", "Tom Reyes", Label.DOCTOR),
    ("Dr. José García saw her", "José García", Label.DOCTOR),
    ("Mr. Łukasz Wójcik is stable", "Łukasz Wójcik", Label.PATIENT),
    ("Dr. Aoife O'Brien-Walsh reviewed", "Aoife O'Brien-Walsh", Label.DOCTOR),
    ("Mrs. Zoë Müller-Schmidt walked", "Zoë Müller-Schmidt", Label.PATIENT),
]
NAME_FORM_NEGATIVES: list[Case] = [
    # A title-like word before a known clinical term or a score: no surname, whatever a strong title allows
    ("MRS score 3 on discharge", None, None),
    ("MR angiography of the neck booked", None, None),
    ("Mr sarcoidosis clinic follow up", None, None),
    ("Sister Anna called about the visit.", "Anna", Label.DOCTOR),  # a relative opening the sentence
    ("14 fr catheter placed, 4/5 strength", None, None),
    ("Vitamin K. given, 3/6 murmur", None, None),
    ("Hepatitis B. vaccine series", None, None),
    ("Plan A. discussed; ratio 1:2", None, None),
    ("Will B. follow up at 0800", None, None),
    ("what do they do, DO you know", None, None),
    ("Group B. strep negative, room 12", None, None),
    ("Heme/onc (Karen R. Canales) recommends", "Karen R.", Label.PATIENT),  # a middle initial
]


@pytest.mark.parametrize(("text", "expected", "label"), params(NAME_FORMS))
def test_finds_name_forms_and_titles(text: str, expected: str, label: Label) -> None:
    check_positive(name_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "forbidden", "label"), params(NAME_FORM_NEGATIVES))
def test_ignores_letters_and_words_shaped_like_name_forms(
    text: str, forbidden: str | None, label: Label | None
) -> None:
    if label is None:
        check_negative(name_detector(), text, forbidden, label)
    else:
        assert (forbidden, label) not in found(name_detector(), text)


@pytest.mark.parametrize(
    ("word", "as_name"),
    [
        ("Quorvane", True), ("Quorvane's", True), ("Quorvane-Lindt", True), ("O'Brien", True), ("Abu-salem", True),
        ("X-ray", True), ("QUORVANE", False), ("quorvane", False), ("McDonald", False), ("A-B", False), ("O", False),
    ],
)  # fmt: skip
def test_a_name_is_capitalised_in_each_joined_part(word: str, as_name: bool) -> None:
    assert _written_as_name(word) is as_name


def test_joined_capitals_widen_the_plain_capitalised_test() -> None:
    """Every word capitalised as a plain word ("Quorvane", "Post-op") still reads as written as a name."""
    rng = random.Random(3)
    for _ in range(20000):
        word = "".join(rng.choice("aAbB-'") for _ in range(rng.randint(1, 7)))
        if word[0].isupper() and word[1:].islower():
            assert _written_as_name(word), word
