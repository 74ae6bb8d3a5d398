"""LOCATION pattern table: ZIP, street addresses, states in context, city before a state, rooms; negatives."""

from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.detect.patterns import location_detector

from .helpers import Case, check_negative, check_positive, params

POSITIVES: list[Case] = [
    # where someone is from or went
    ("Pt is a resident of Quorvane, lives alone.", "Quorvane", Label.CITY),
    ("She is originally from Brantisk Falls.", "Brantisk Falls", Label.CITY),
    ("returned from a trip to Tobiahstad last week", "Tobiahstad", Label.CITY),
    # the city before a state and ZIP code, with or without a comma (invented places)
    ("Aunt lives at 2206 Quorvane Ln, Kicifield MO 97720.", "Kicifield", Label.CITY),
    ("Zelphine Quorvane, 14 Oak St., Glen Brantisk IL 60137", "Glen Brantisk", Label.CITY),
    # where a relative comes from (invented places)
    ("SOCIAL- FAMILY FROM FOSTYARD STAYING AT A HOTEL.", "FOSTYARD", Label.CITY),
    # where the patient comes from (invented places)
    ("Social: Pt is from Quelbury, lives with wife.", "Quelbury", Label.CITY),
    ("Pt from SJH ED with sepsis", "SJH", Label.CITY),
    ("he was originally from quelbury", "quelbury", Label.CITY),
    ("She is originally from Brantisk Falls and retired.", "Brantisk Falls", Label.CITY),
    ("Daughter from Quelbury called for update.", "Quelbury", Label.CITY),
    ("Friends visiting from Brantisk Falls today.", "Brantisk Falls", Label.CITY),
    # a relative's journey, where someone lives and with whom (invented places)
    ("Daughter flying in tomorrow from Quelbury.", "Quelbury", Label.CITY),
    ("Son drove up from Brantisk Falls last night.", "Brantisk Falls", Label.CITY),
    ("Wife will fly back to Quelbury on Sunday.", "Quelbury", Label.CITY),
    ("Pt lives with son and family in Quelbury.", "Quelbury", Label.CITY),
    # a town's public service, a care agency of a town (invented places)
    ("Quelbury EMS brought pt in.", "Quelbury", Label.CITY),
    ("BRANTISK FIRE DEPT ON SCENE", "BRANTISK", Label.CITY),
    ("Kicifield Police at bedside", "Kicifield", Label.CITY),
    # "City, ST" where the code is also an abbreviation ("MD", "MS", "IN"): after "in/from/to" and before the
    # clause goes on; a function word before the city is not part of it (invented places)
    ("Moved from Pecaenburg, AL to live with husband.", "Pecaenburg", Label.CITY),
    ("Moved from Pecaenburg, AL to live with husband.", "AL", Label.STATE),
    ("Grew up in Zeapriosova, WI; graduated from high school.", "WI", Label.STATE),
    ("a son lives in Cheveovaton, MN and is supportive.", "Cheveovaton", Label.CITY),
    ("From Quelbury, TX originally", "Quelbury", Label.CITY),
    ("grew up in New Quelbury, MD.", "New Quelbury", Label.CITY),
    # short heads of towns' names are part of them ("El", "La", "St")
    ("moved from El Paso, TX last year", "El Paso", Label.CITY),
    ("retired to La Quelbury, CA in 2010", "La Quelbury", Label.CITY),
    # a school named before its kind (invented names)
    ("Her son is at Brantisk Primary School.", "Brantisk Primary School", Label.ORGANIZATION),
    ("QUELBURY HIGH SCHOOL", "QUELBURY HIGH SCHOOL", Label.ORGANIZATION),
    ("at Quelbury Community High School since 2019", "Quelbury Community High School", Label.ORGANIZATION),
    # the same heads before a state and ZIP code
    ("Lives at 12 Oak St, St Louis, MO 63101", "St Louis", Label.CITY),
    ("moved to El Paso TX 79901", "El Paso", Label.CITY),
    ("VNA of Quelbury to follow at home.", "Quelbury", Label.CITY),
    # where the writer of a message or post is from (invented places)
    ("i'm 72, a pharmacist from quelbury, and ive had this since '99", "quelbury", Label.CITY),
    ("I'm from Quelbury originally.", "Quelbury", Label.CITY),
    ("We're from Brantisk Falls, so the drive is long", "Brantisk Falls", Label.CITY),
    ("I am a retired teacher from Quelbury.", "Quelbury", Label.CITY),
    ("lives with her husband in Brantisk Falls", "Brantisk Falls", Label.CITY),
    ("lives at 19 Clover St. in town", "19 Clover St.", Label.STREET),
    ("home 1200 North Charles Street, Apt 4B", "1200 North Charles Street, Apt 4B", Label.STREET),
    ("mail to P.O. Box 4431 please", "P.O. Box 4431", Label.STREET),
    ("Baltimore, MD 21201 is home", "21201", Label.ZIP),
    # A state name or code in any case before a ZIP code.
    ("LIVES IN SMYRNA GEORGIA, 01626. A/P", "01626", Label.ZIP),
    ("lives at 7 elm st, lansing, il  52696. a/p", "52696", Label.ZIP),
    ("Baltimore, MD 21201 is home", "MD", Label.STATE),
    ("moved from Trenton, NJ last year", "Trenton", Label.CITY),
    ("moved from Trenton, NJ last year", "NJ", Label.STATE),
    ("zip code 02114 on the form", "02114", Label.ZIP),
    ("recieved from university of maryland hospital", "university of maryland", Label.HOSPITAL),
    ("vacationing in Florida when he fell", "Florida", Label.STATE),
    ("transferred to room 12 overnight", "12", Label.ROOM),
    ("pt in bed 3B", "3B", Label.ROOM),
    ("he lives in rockport and will be", "rockport", Label.CITY),
    ("he lives nearby in rockport and will be", "rockport", Label.CITY),
    ("Pt lives alone in Towson, dtr visits", "Towson", Label.CITY),
    ("was vacationing in Daytona Beach when he fell", "Daytona Beach", Label.CITY),
    # the town after a street address and a comma, before a ZIP code, a state or the line's end
    ("Home: 6066 Tygrask St, Makiard, 59369", "Makiard", Label.CITY),
    ("lives at 12 Oak St, Apt 4, Quelbury\nPCP: none", "Quelbury", Label.CITY),
    ("PCP: 823 Price Point Suite 884, Gloversville New York 02992", "Gloversville", Label.CITY),
    ("HOME: 6066 TYGRASK ST APT 2, MAKIARD, 59369", "MAKIARD", Label.CITY),
    # a listed city that is also a common word, standing alone after the phrase
    ("Daughter lives in Orange.", "Orange", Label.CITY),
    ("PT LIVES IN READING WITH WIFE", "READING", Label.CITY),
    ("Son from Reading called today.", "Reading", Label.CITY),
    # Care sites after motion and admission words; acronyms that are no English word.
    ("Admitted in transfer from Brambleton Hospital", "Brambleton", Label.HOSPITAL),
    ("seen at Brambleton Hospital last year", "Brambleton", Label.HOSPITAL),
    ("pt transferred to Quillfield for rehab", "Quillfield", Label.LOCATION_OTHER),
    ("referred to RMH. for follow up", "RMH", Label.LOCATION_OTHER),
    ("followed at rmh by cardiology", "rmh", Label.LOCATION_OTHER),
    ("med-flighted to KVMC from the scene", "KVMC", Label.LOCATION_OTHER),
    ("sent to ED at RMH for eval", "RMH", Label.LOCATION_OTHER),
    ("Surgeon from Harbor in this eve", "Harbor", Label.LOCATION_OTHER),
    ("taken to Dunmore Regional by ambulance", "Dunmore Regional", Label.HOSPITAL),
    ("transfered from Memorial Hospital with pain", "Memorial", Label.HOSPITAL),
    # Type words between the name and the suffix belong to the name (invented sites).
    ("TRANSFERRED FROM WEXFORD COUNTY HOSPITAL FOR CATH", "WEXFORD COUNTY", Label.HOSPITAL),
    ("faxed to Arbelle Children's Hospital today", "Arbelle Children's", Label.HOSPITAL),
    ("seen at Quenby Community Hospital in 2019", "Quenby Community", Label.HOSPITAL),
    ("pt presented to U of MD ER", "U of MD", Label.HOSPITAL),
    ("admitted to U Maryland ER", "U Maryland", Label.HOSPITAL),
    ("had a bed @ St Agnes but", "St Agnes", Label.HOSPITAL),
    ("plan: transfer to Quillfield 3 today", "Quillfield", Label.LOCATION_OTHER),
    ("found unresponsive on Quillfield 6 at 0400", "Quillfield", Label.LOCATION_OTHER),
    # A campus is named like a hospital; an employer after "works for", "employed by".
    ("transferred from er mazur campus. this is", "mazur", Label.HOSPITAL),
    ("he works for vista health. a: stable", "vista health", Label.ORGANIZATION),
    ("retired from Acme Systems in 2010", "Acme Systems", Label.ORGANIZATION),
    ("Husband employed by Verizon as a tech", "Verizon", Label.ORGANIZATION),
    # USPS suffixes that are also words: capitalised in mixed-case text; a unit or a ZIP code in one-case text.
    ("Contact: 8642 Quillan Flats, Dakota Ridge, CO 81792", "8642 Quillan Flats", Label.STREET),
    ("Lives at 473 Borrowe Ford Suite 007, Lake Tull", "473 Borrowe Ford Suite 007", Label.STREET),
    ("435 JERRY JUNCTION APT. 150\nLIVE OAK TEXAS  76134", "435 JERRY JUNCTION APT. 150", Label.STREET),
    # A site named once in context is tagged where the note repeats it.
    ("admitted to Quillfield. Quillfield staff aware", "Quillfield", Label.LOCATION_OTHER),
    # issue 16 (invented): a ward named by a place word glued to its floor number; a bare employer.
    ("ADMITTED TO RIVERSIDE7 FROM HOME", "RIVERSIDE7", Label.LOCATION_OTHER),
    # a blank between the ward's name and its floor: the name alone
    ("pt transferred to lancaster 4 this am", "lancaster", Label.LOCATION_OTHER),
    ("WILL TRANSFER TO ASHTON 2 WHEN BED AVAILABLE", "ASHTON", Label.LOCATION_OTHER),
    ("Transferred to Lakeview4 this am.", "Lakeview4", Label.LOCATION_OTHER),
    # a time word between the motion and its place
    ("PLAN: TRANSFER TODAY TO FRIENDSHIP 2 WHEN BED AVAILABLE", "FRIENDSHIP", Label.LOCATION_OTHER),
    ("pt to transfer tomorrow to Quellmoor for rehab", "Quellmoor", Label.LOCATION_OTHER),
    # in a note of one case, the one word between a preposition of place and "hospital", a common word too
    ("58 YO F ADMITTED IN TRANSFER FROM HOPE HOSPITAL FOR MENTAL STATUS CHANGES", "HOPE", Label.HOSPITAL),
    # a facility that screens or accepts the patient for discharge, and the means of a move before its place
    ("Pt screened by Quellmoor for rehab today.", "Quellmoor", Label.LOCATION_OTHER),
    ("Pt accepted at Quellmoor, bed available tomorrow.", "Quellmoor", Label.LOCATION_OTHER),
    ("Pt was transferred via ambulance from Quellmoor this am.", "Quellmoor", Label.LOCATION_OTHER),
    ("He works for Zentrix as a clerk.", "Zentrix", Label.ORGANIZATION),
    ("wife works for Brellcore Logistics part time", "Brellcore Logistics", Label.ORGANIZATION),
    # a firm's name with an ampersand (invented names)
    ("works for Brantisk & Sons as a joiner", "Brantisk & Sons", Label.ORGANIZATION),
    ("works at Quorvane & Co. as a clerk", "Quorvane & Co", Label.ORGANIZATION),
    ("Works as a driver for Zentrix.", "Zentrix", Label.ORGANIZATION),
    ("worked as a bus driver for Zentrix until 2010", "Zentrix", Label.ORGANIZATION),
    # a ward named by a plain word before its floor number, after a motion word; a full stop may end the sentence
    ("ADMITTED TO GOOD 3. RO W NEG CK'S", "GOOD", Label.LOCATION_OTHER),
    ("pt transferred to Case 4 to be reintubated", "Case", Label.LOCATION_OTHER),
    # in one-case text, a word of middling frequency standing alone after a motion word names the site
    ("PT ADMITTED TO MERCY ON 3/4 FOR CP", "MERCY", Label.LOCATION_OTHER),
    # a town no dictionary knows and a state's code in small letters
    ("my aunt saw dr x in leakymford nj for this, very good", "leakymford", Label.CITY),
    # an ambiguous code in small letters after the town's comma
    ("pt is from quelbury, ma. lives alone", "quelbury", Label.CITY),
    ("wife is from brantisk, me and son in brantiskville, ri", "brantisk", Label.CITY),
    # the town a resident or native is of, named before the word
    ("Pt is a Quelbury native, retired", "Quelbury", Label.LOCATION_OTHER),
    ("pt is a longtime quelbury resident", "quelbury", Label.LOCATION_OTHER),
    # the site of care a patient had, after the care and "at" or "@"
    ("CATH @ QUELBURY SHOWED 3VD", "QUELBURY", Label.LOCATION_OTHER),
    ("HD @ QUELBURY M/W/F", "QUELBURY", Label.LOCATION_OTHER),
    ("pt gets dialysis at quelbury on mwf", "quelbury", Label.LOCATION_OTHER),
    ("PT TRANSFERRED FROM GENESIS FOR CATH", "GENESIS", Label.LOCATION_OTHER),
    ("pt to go to suburban tomorrow", "suburban", Label.LOCATION_OTHER),
    ("PT ADMITTED TO SINAI.", "SINAI", Label.LOCATION_OTHER),
    # a move or a journey: the place after "moved to/from" or "in from", up to the sentence's end
    ("She moved to Quelbury last year.", "Quelbury", Label.CITY),
    ("she moved to quelbury so now i drive 240 miles", "quelbury", Label.CITY),
    ("sister tamsin in from quelbury this am", "quelbury", Label.CITY),
    ("BROTHER IN FROM BRANTISKVILLE OVER THE WEEKEND", "BRANTISKVILLE", Label.CITY),
    ("worse after son Tobiah moved to Quelbury. Started sertraline", "Quelbury", Label.CITY),
    ("Daughter lives in Quelbury. Visits weekly.", "Quelbury", Label.CITY),
    # a care site named before the abbreviation of its kind (a nursing home's "NH", or the state's: a place either way)
    ("Pt from Brantisk NH", "Brantisk", Label.LOCATION_OTHER),
    ("PT FROM BRANTISK NH", "BRANTISK", Label.LOCATION_OTHER),
    ("from the Brantisk VA", "Brantisk", Label.LOCATION_OTHER),
    ("screened by Kitork SNF today", "Kitork", Label.LOCATION_OTHER),
    ("FROM QUELBURY VAMC", "QUELBURY", Label.LOCATION_OTHER),
    ("Quelbury VNA to follow at home", "Quelbury", Label.LOCATION_OTHER),
    # a care site's own name in brackets after its kind
    ("OSH (Quelbury) CT neg", "Quelbury", Label.LOCATION_OTHER),
    ("admitted from rehab (Quelbury Manor) with fever", "Quelbury Manor", Label.LOCATION_OTHER),
    ("PT FROM NH (QUELBURY HOUSE), BASELINE A&O X1", "QUELBURY HOUSE", Label.LOCATION_OTHER),
    ("followed at the VA (Quelbury) for PTSD", "Quelbury", Label.LOCATION_OTHER),
    # a state's code alone after a place preposition, in text with case
    ("anyone know a good neuro in NY? thanks", "NY", Label.STATE),
    ("we moved here from NJ. it was hard", "NJ", Label.STATE),
    # a one-word town, a comma and its state's name after a place preposition, in any case
    ("my uncle saw him in klistilton, mississippi for this", "klistilton", Label.CITY),
    ("She saw him in Klistilton, Mississippi for this", "Klistilton", Label.CITY),
    # in capitals, a listed town's whole name after its place preposition, then a state's code
    ("RETIRED RADIOGRAPHER FROM SAN ANTONIO TX WITH DVT", "TX", Label.STATE),
    ("A BOYFRIEND LIVES IN RIPON CA AND IS SUPPORTIVE", "CA", Label.STATE),
    ("MOVED FROM DENVER CO FOR WORK", "CO", Label.STATE),
    ("OLD RECORDS FROM ANNAPOLIS, MD). CONTINUE", "MD", Label.STATE),
    # a state's code in small letters that is also a word, set off by an address's commas before its ZIP code
    ("lives at 458 green overpass apt. 240\nfairland, md, 94449.", "94449", Label.ZIP),
    ("lives at 1100 quelbury road\nbrantisford, va, 20689.", "va", Label.STATE),
]
NEGATIVES: list[Case] = [
    # the patient from a care site, home or a country (Safe Harbor leaves countries)
    ("Pt is from home, lives alone. pt is from rehab. PT IS FROM OSH. Pt was from the ED.", None, None),
    ("He is from out of town. pt is from a group home. She is from Guatemala, speaks Spanish.", None, None),
    ("pt from nsg home. PT FROM CCU. pt from PACU at 1400. Pt from CVICU. pt from floor. Pt from EW.", None, None),
    ("PT FROM MICU EAST. Pt from Emergency Dept. pt from outside hosp. pt from TSICU. Pt from IR suite.", None, None),
    # an ambiguous code after a service, a clinical word or with no place preposition
    ("seen in Cardiology OR today; changes in Pain MD aware; Kitorkisville CO 4.5", None, None),
    # the abbreviation alone, or after a function word or a verb, names no site
    ("pt went to the VA", None, None),
    ("PT REFUSED NH PLACEMENT", None, None),
    ("PT REFUSED VNA. Needs VNA for dressing changes. home with VNA. Home VNA referral sent.", None, None),
    ("Pt Refused SNF", None, None),
    ("DISCUSSED LTC", None, None),
    ("family wants NH placement", None, None),
    ("NH3 elevated", None, None),
    # a common or clinical word before the comma, or an ambiguous code with no comma, in small letters
    ("relief from tylenol, ok. called from work, me too. back from home, ma is here", None, None),
    ("labs from leakymford ma pending; from quelbury, or from home", None, None),
    # a finding, a word of the note, a pronoun or the kind's own words in brackets after a site's kind
    ("OSH (CT neg) per report; NH (Baseline) unknown; OSH (Lasix given); to NH (his own) on dc", None, None),
    ("discussed hospice (Home) with family; OSH (Outside) records; VNA (Visiting Nurses) to follow", None, None),
    ("from rehab (PT/OT) today; REHAB (HOME) DECLINED", None, None),
    # a clinical abbreviation or a laboratory's symbol after "in", or a code in text without case
    ("increase in CA. will replete", None, None),
    ("ST changes in MI. troponin up", None, None),
    ("INCREASE IN NY. WILL REPLETE", None, None),
    # a common or clinical word before a state's name, or one written small in text with case
    ("in pain, texas is hot", "pain", None),
    ("a lot of rehab, georgia", "rehab", None),
    ("Seen in klistilton, Mississippi we", "klistilton", None),
    # after a motion word, a number that is a dose, a count, a time or a duration makes no ward
    ("sent to Lasix 2 mg, went to OR 2x, admitted to ICU 2 days ago, transfer to rehab 2 weeks", None, None),
    ("plan to diurese 2 liters; moved to pod 2; plan to wean 2 more", None, None),
    ("PLAN TO WEAN 2 MORE", None, None),
    ("transferred to floor 3, came back to baseline 2 days later, sent to Medicine 2 am", None, None),
    # a street too common to name one, a clinical or care word before a street type
    ("he lives on the main road; at the High Street; went to Main Street; placed on Heparin Drip", None, None),
    ("sent to Cardiology Way; up to Dr Smith", "Cardiology Way", None),
    # a school's kind without its name
    ("he finished high school; the local primary school; Medical School; Senior High School", None, None),
    ("resident of the MICU team aware; originally from home; trip to bathroom", None, None),
    ("K 3.4567, Na 140.1234 mmol/L", "3.4567", Label.LOCATION_OTHER),  # a word between the numbers: no pair
    ("INR 1.2, 3.4 today", "1.2, 3.4", Label.LOCATION_OTHER),  # coordinates have four decimals or more
    ("values 95.1234, 20.1234 noted", "95.1234", Label.LOCATION_OTHER),  # past 90 degrees of latitude
    # an ordinal before a clinical "st" not written as a street ("ST segment", "st" for a dose)
    ("gave 2 3rd st dose at noon", "3rd st", Label.STREET),
    ("HR 2 3RD ST DEPRESSION NOTED", "3RD ST", Label.STREET),
    # Type words alone before the suffix name no facility.
    ("sent to the county hospital for films", None, None),
    ("she prefers a community hospital near home", None, None),
    ("pt given 6u reg insulin SQ. at noon", None, None),
    ("HAD 3 EPISODES ST ELEVATION", None, None),
    ("ABD SOFT, NT, ND WITH + BS", None, None),
    ("CABG, MVR, MI in 81", None, None),
    ("2 daughters visiting in eve", None, None),
    ("given 2 units by Dr Smith", None, None),
    ("Jones, MD aware of the plan", None, None),
    ("PA line in place, OR in am", None, None),
    ("lives in a nursing home", None, None),
    ("LIVES IN MOBILE HOME WITH WIFE; lives in reading glasses; lives in hope of recovery", None, None),
    ("Lives at 12 Oak St, Tel 555-1234; 14 Elm St, Room 4", "Tel", None),
    ("Lives at 14 Elm St, Room 4", "Room", None),
    ("12 Oak St, The Pt is fine", "The", None),
    ("lives nearby in a nursing home", None, None),
    ("lives with son in an apartment; lives with wife at home; lives with daughter in law", None, None),
    ("BP 120/80 HR 90 CA 12345", "HR", None),
    ("son from work; daughter from rehab; wife from home; family from the floor; husband from the OR", None, None),
    ("Family from out of town. Daughter from ICU team called. Friend from church visited.", None, None),
    ("Daughter here from England-extensive background in health care. Son from Calif. visiting.", None, None),
    ("Hct 30 given Lasix IV MA 02115", "Lasix", None),
    ("flew into a rage. Driving to work; flying to the unit; drove to the ED; fly from here", None, None),
    ("5 mg po q4h st", None, None),
    ("transferred to the floor in stable condition", None, None),
    ("pt taken to OR then PACU", None, None),
    ("admitted to micu overnight", None, None),
    ("admit wbcs count 19", None, None),
    ("pt quickly went into v-tach", None, None),
    ("blood sent to BB for type and cross", None, None),
    ("skin intact general body edema", None, None),
    ("regional anesthesia was used", None, None),
    ("given 2 u of prbc", None, None),
    ("will f/u in 2 days", None, None),
    ("remains on levophed 5 mcg", None, None),
    ("order to transfuse 2 units", None, None),
    ("started on heparin 1 pm", None, None),
    ("sent to the hospital by the vna", None, None),
    ("wife works at home most days", None, None),
    ("he works for the city", None, None),
    ("seen on main campus", None, None),
    ("increase to 10000 or 20000 units", None, None),
    ("started in 12345 then", None, None),
    ("s/p 2 mechanical falls, no loc", None, None),
    ("S/P 2 MECHANICAL FALLS\nNEURO: INTACT", None, None),
    ("walked 3 more laps, 2 flights of stairs", None, None),
    ("TRANSFERRED TO CCU7. ADMITTED TO MICU2 FROM ED", None, None),
    ("transferred to Floor7 and then to Stepdown2", "Floor7", None),
    ("changed to Zosyn4.5 g q8h", None, None),
    ("he works for himself", None, None),
    ("works as a nurse at home", None, None),
    ("works as a teacher for the city", None, None),
    ("give 2 avenue of approach", None, None),
    ("3 rue x over 4/5 strength", None, None),
    ("12 place holders were used", None, None),
    # a public service or care agency after no town
    ("Called EMS. Via Ambulance to ED. Per EMS pt was down 10 min. Local Police aware. Neuro EMS.", None, None),
    ("Home care of pt reviewed. VNA of the area to follow.", None, None),
    # a common word before a state code that is also an abbreviation, or no place preposition before the town
    ("Abd Soft, ND. Decreased in Pain, MD aware. transferred to Floor, PA to see. s/p CABG, MI in 2004", None, None),
    ("Called Quelbury, MD to confirm. Went to New, MA.", None, None),
    # the writer "from" something that is no place: a treatment, a care site, a state or country, a common word
    ("i'm tired from the chemo. i'm a survivor from way back. I'm from the UK", None, None),
    ("I'm away from home. i'm a nurse from rehab. I am from around here. i'm recovering from surgery", None, None),
    # a move to a care site, a unit, a piece of furniture or a response; in from a care site
    ("pt moved to chair with assist x2. Moved to the ICU overnight. moved from Tele to 7 North", None, None),
    ("NEURO: MOVING ALL EXTREMITIES, MOVED TO PAINFUL STIMULI. PT MOVED TO BED.", None, None),
    ("neuro: moved to painful stimuli, pt came in from home", None, None),
    ("in from OSH for cath. pt in from rehab, family in from out of town", None, None),
    # a number that counts or ranks after a motion word, or a dose
    (
        "sent to level 2 care. transferred to Step 2 of protocol. went to sleep 2 hrs. came to visit 2 days ago",
        None,
        None,
    ),
    ("sent to Lasix 2.5 mg. Advanced to Stage 3. brought to chair 2x", None, None),
    # a time word between the motion and a care site
    ("will transfer today to floor. transfer now to OR. transfer tomorrow to rehab", None, None),
    # a verb after "to", or a word that says what kind of hospital
    ("HE WANTED TO LEAVE HOSPITAL. CAME FROM OUTSIDE HOSPITAL. SENT TO ANOTHER HOSPITAL.", None, None),
    ("transferred from community hospital. went to rehab hospital. was in hospital for 2 wks.", None, None),
    # screened or accepted by a discipline, a service or the team
    ("screened by pt/ot today. screened by case management. screened by rehab. accepted by the team.", None, None),
    ("pt accepted to rehab. screened by nutrition. transferred via ambulance to the ED", None, None),
    # in one-case text, a word after a motion word that goes on into a noun, a verb's form, a service or a clinical word
    ("CULTURE TAKEN FROM TRIPLE LUMEN. PT CAME TO AGITATED. ADMITTED TO SMOKING DAILY.", None, None),
    ("SEEN AT MIDNIGHT BY MD. DONE AT BEDTIME. ECHO AT BEDSIDE DONE. HD AT NOON TODAY. CT at 1400 neg.", None, None),
    ("surgery at this time not indicated; treated at OSH with abx; echo at rest showed EF 40%", None, None),
    ("seen by a MICU resident; a psych resident and a new resident; a Spanish native speaker", None, None),
    ("discussed with a night float resident; pt is a nursing home resident", None, None),
    ("increase in wbc ca and mg; sats in vanco ks", None, None),
    ("he admitted to severe pain. pt referred to nutrition for consult. taken to chest ct", None, None),
    ("PT TRANSFERRED TO MEDICINE. ADMITTED TO CARDIOLOGY ON 3/4. PT WENT TO SLEEP AT 2AM", None, None),
    # a code in small letters that is also a word, after a drug or a clinical word, before a number
    ("take tylenol, or, 20000 units daily. pain, in, 12345", None, None),
    # in capitals, a state's code after a word that is no listed town's whole name: a clinical abbreviation
    ("INCREASE IN CA AND MG. DECREASE IN BP MD AWARE. FROM CHEST PA AND LATERAL. IN BED PA AWARE", None, None),
    # a place ends at its sentence's full stop
    ("Daughter lives in Quelbury. Started sertraline", "Started", None),
    ("SISTER IN FROM BRANTISKVILLE TID; DAUGHTER LIVES IN QUELBURY HD #4", "TID", None),
    ("SISTER IN FROM BRANTISKVILLE TID; DAUGHTER LIVES IN QUELBURY HD #4", "HD", None),
]
CASE_VARIANTS = [
    (t.upper(), e.upper(), lab) for t, e, lab in POSITIVES if lab not in {Label.ZIP, Label.STATE, Label.CITY}
] + [
    (t.lower(), e.lower(), lab)
    for t, e, lab in POSITIVES
    if lab in {Label.STREET, Label.ROOM, Label.HOSPITAL, Label.LOCATION_OTHER}
]
KNOWN_FAILURES = frozenset(
    {
        # Hospitals and campus names ("transferred to Sacred Heart") come from the lexicon detectors.
        ("transferred to sacred heart hospital", "sacred heart"),
        # "St", "Ct", "Dr", "Sq" are also clinical words (ST segment, chest tube, subcutaneous): without
        # title case they are not taken as street suffixes ("2 HR ST", "6u reg insulin SQ").
        ("LIVES AT 19 CLOVER ST. IN TOWN", "19 CLOVER ST."),
        ("lives at 19 clover st. in town", "19 clover st."),
    }
)
# Natural places named in title case; only mixed-case text tells such a name from "the shore" or "a lake".
NATURAL_PLACES: list[Case] = [
    ("Was on vacation on the Eastern Shore,while out to lunch", "Eastern Shore", Label.LOCATION_OTHER),
    ("went to Cape Cod for a week", "Cape Cod", Label.LOCATION_OTHER),
    ("fell while skiing at Lake Tahoe, flown in", "Lake Tahoe", Label.LOCATION_OTHER),
    ("Went fishing at Deep Creek yesterday", "Deep Creek", Label.LOCATION_OTHER),
    ("Chesapeake Bay trip last week", "Chesapeake Bay", Label.LOCATION_OTHER),
]
# Streets named without a house number: in title case only, as natural places (invented names).
NAMED_STREETS: list[Case] = [
    ("Found collapsed off Brantisk Road yesterday.", "Brantisk Road", Label.STREET),
    ("She lives on Elm Street. She is well.", "Elm Street", Label.STREET),
]
NATURAL_PLACE_NEGATIVES: list[Case] = [
    # a route and a device or a dose, a common word before a number: no European street
    ("Via Foley 16 Fr catheter placed.", None, Label.STREET),
    ("Via PEG 30 ml water flush.", None, Label.STREET),
    ("Given via NGT 2 tabs.", None, Label.STREET),
    ("Blockade 2 done under US.", None, Label.STREET),
    ("Agata 3 visits this week.", None, Label.STREET),
    ("Rue 3 times daily", None, Label.STREET),
    # a clinical abbreviation after a capitalised word, or no place preposition before the town
    ("Abd Soft ND today.", None, Label.STATE),
    ("seen in Cardiology MI clinic.", None, Label.STATE),
    ("Quorvane NJ for this", None, Label.STATE),
    *((t.upper(), e.upper(), lab) for t, e, lab in NATURAL_PLACES + NAMED_STREETS),
    *((t.lower(), e.lower(), lab) for t, e, lab in NATURAL_PLACES + NAMED_STREETS),
    ("lives near the river and the bay", None, None),
    ("Tolerating ice chips. Lake of fluid in the abd", None, None),
    ("Clear Lake water given", None, None),
    ("plan: OR in am. Fort to follow", None, None),
]
HARD: list[Case] = [
    # a ward named after a donor whose surname is an uncommon word, capitalised in text with case
    ("Pt to call out to Stoneman 5 when bed available", "Stoneman", Label.LOCATION_OTHER),
    # geographic coordinates, decimal or in degrees, minutes and seconds
    ("found at 42.3601, -71.0589 by EMS", "42.3601, -71.0589", Label.LOCATION_OTHER),
    ("lat/long 51.5072, -0.1276.", "51.5072, -0.1276", Label.LOCATION_OTHER),
    ("GPS: 42°21′36″N 71°03′34″W", "42°21′36″N 71°03′34″W", Label.LOCATION_OTHER),
    # a two-letter direction and an ordinal street name, as US grids number their streets
    ("Moved to 4417 NW 23rd Ave, Gainesville FL", "4417 NW 23rd Ave", Label.STREET),
    ("lives in apt 12 at 55 W 46th St", "55 W 46th St", Label.STREET),
    ("Address: 12 SE 1st St, Miami", "12 SE 1st St", Label.STREET),
    # Quebec's street order: number, type, name (issue 17); the name's capitals tell it from "2 avenue of approach"
    ("Address: 1176, chemin Thibault, Granby", "1176, chemin Thibault", Label.STREET),
    ("Home: 7678, avenue Smith, Saint-Georges", "7678, avenue Smith", Label.STREET),
    ("vit au 45 rue de la Gauchetière", "45 rue de la Gauchetière", Label.STREET),
    ("8 boul. René-Lévesque Est", "8 boul. René-Lévesque Est", Label.STREET),
    ("transferred to sacred heart hospital", "sacred heart", Label.HOSPITAL),
    ("RECORDS FROM ANNAPOLIS, MD). CONTINUE", "ANNAPOLIS", Label.CITY),
    # a town and a state code without a comma after a place preposition; an ambiguous code before "near"
    ("my niece saw him in Kitorkisville KS for this.", "Kitorkisville", Label.CITY),
    ("my niece saw him in Kitorkisville KS for this.", "KS", Label.STATE),
    ("anyone know a good neuro in Quelbury NJ? she retired", "NJ", Label.STATE),
    ("we live in Jiekoun, NH near the medical center.", "NH", Label.STATE),
    # an ambiguous code with no comma, after a town that a place preposition opens (invented towns)
    ("a brother lives in Kitorkisville CO and is supportive", "CO", Label.STATE),
    ("a brother lives in Kitorkisville CO and is supportive", "Kitorkisville", Label.CITY),
    ("immigrated to Quelbury MO in 2017.", "MO", Label.STATE),
    ("physician from Brantiskton GA with bipolar disorder", "GA", Label.STATE),
    # continental Europe's order: the street's name, then the house number (invented addresses)
    ("Adresse: Rue de la Quorvane 12, Bruxelles", "Rue de la Quorvane 12", Label.STREET),
    ("Via Brantisk 10, Roma", "Via Brantisk 10", Label.STREET),
    ("lives at Calle Tobiah 15, Madrid", "Calle Tobiah 15", Label.STREET),
    ("Piazza della Kiochao 5, Firenze", "Piazza della Kiochao 5", Label.STREET),
    ("Rua Quorvane 274, Lisboa", "Rua Quorvane 274", Label.STREET),
    ("ul. Marszałkowska 10, Warszawa", "ul. Marszałkowska 10", Label.STREET),
    ("Carrer d'Aragó 401, Barcelona", "Carrer d'Aragó 401", Label.STREET),
    # or a type joined to the name's end (German, Dutch, Scandinavian), or after an adjective
    ("wohnt in der Quorvanestraße 5, Berlin", "Quorvanestraße 5", Label.STREET),
    ("Brantiskstraat 12, Utrecht", "Brantiskstraat 12", Label.STREET),
    ("Kiochaogatan 3B, Uppsala", "Kiochaogatan 3B", Label.STREET),
    ("Berliner Straße 12, Hamburg", "Berliner Straße 12", Label.STREET),
]


@pytest.mark.parametrize(
    ("text", "expected", "label"),
    params(POSITIVES + CASE_VARIANTS + HARD + NATURAL_PLACES + NAMED_STREETS, KNOWN_FAILURES),
)
def test_finds_locations(text: str, expected: str, label: Label) -> None:
    check_positive(location_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "forbidden", "label"), params(NEGATIVES + NATURAL_PLACE_NEGATIVES))
def test_ignores_non_locations(text: str, forbidden: str | None, label: Label | None) -> None:
    check_negative(location_detector(), text, forbidden, label)
