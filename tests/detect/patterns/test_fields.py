"""FIELD pattern table: header and form lines "Field: value" labelled from the field name; hard negatives (clinical
fields, statuses, drugs, doses, empty values). All invented."""

from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.detect.patterns import field_detector
from deident.detect.patterns.fields import field_labels

from .helpers import Case, check_negative, check_positive, params

P, R, D = Label.PATIENT, Label.RELATIVE, Label.DOCTOR
POSITIVES: list[Case] = [
    ("Patient: Maria Lopez | DOB: 03/04/1956", "Maria Lopez", P),
    ("Patient Name: Rosa K.  MRN 1234567", "Rosa K.", P),
    ("Name: Smith, John", "Smith, John", P),
    ("Patient: Tremblay, Jean-Luc   DOB: 1958-03-09", "Tremblay, Jean-Luc", P),
    ("Re: LOPEZ, Maria M.\nDear Dr Shah,", "LOPEZ, Maria M.", P),
    ("PATIENT: MARIA LOPEZ\nDOB: 1/2/1950", "MARIA LOPEZ", P),
    ("Name: José García Pérez DOB: 1/2/80", "José García Pérez", P),
    ("Patient: K. Rosa", "K. Rosa", P),
    ("Surname: O'Connell; Forename: Siobhan", "O'Connell", P),
    # a form's name fields with a plural or "(s)"
    ("Surname: QUORVANE    Forename(s): TOBIAH JAMES", "TOBIAH JAMES", P),
    ("Family name: Kechiexek\nGiven names: Basheam", "Kechiexek", P),
    ("Family name: Kechiexek\nGiven names: Basheam", "Basheam", P),
    ("Middle name: Quelby", "Quelby", P),
    ("Next of kin: Jose Lopez (son)", "Jose Lopez", R),
    # a printed form's dot leaders between field and value
    ("PATIENT NAME............QUORVANE, TOBIAH", "QUORVANE, TOBIAH", P),
    ("Patient name . . . . . Tobiah Quorvane", "Tobiah Quorvane", P),
    ("Referring physician.........Hal Brantisk", "Hal Brantisk", D),
    # the clinicians of a note's fields: covering, on call, a nurse, a case manager
    ("covering: Nakamura/Oyelaran", "Nakamura/Oyelaran", D),
    ("On call: Tamsin Quorvane", "Tamsin Quorvane", D),
    ("RN: Haruki Tanaka | NP: Quorvane", "Haruki Tanaka", D),
    ("Social worker: Quorvane, Tobiah", "Quorvane, Tobiah", D),
    # initials after a field that says so
    ("Patient initials: T.Q.   Age: 45", "T.Q.", P),
    ("Initials: TQ", "TQ", P),
    ("Subject initials: T-Q", "T-Q", P),
    # a name spelled out letter by letter after a field that says it is a name
    ("Name: T-O-B-I-A-H Q-U-O-R-V-A-N-E", "T-O-B-I-A-H Q-U-O-R-V-A-N-E", P),
    ("Patient name: Q-U-O-R-V-A-N-E, Tobiah", "Q-U-O-R-V-A-N-E, Tobiah", P),
    ("Parent/Guardian: Aoife O'Brien-Walsh", "Aoife O'Brien-Walsh", R),
    ("Emergency contact: Tomasz Nowak, 07700 900 123", "Tomasz Nowak", R),
    ("Signed: Dr A. Patel, Consultant", "A. Patel", D),
    ("cc: Prof. Helen Zhou", "Helen Zhou", D),
    # the addressee of a fax or letter (invented names)
    ("FAO: Tobiah Kelbur, Ward Manager", "Tobiah Kelbur", D),
    ("For the attention of: Quelbine Zharnow", "Quelbine Zharnow", D),
    ("Fax 617-555-0199 | Attn: Kelbur", "Kelbur", D),
    ("GP: Dr Fiona MacLeod | Practice: Riverside", "Fiona MacLeod", D),
    ("Dictated by: Sister Mary Jones, RN", "Mary Jones", D),
    ("Employer: Acme Freight Ltd.", "Acme Freight Ltd", Label.ORGANIZATION),
    # a town after its field, with its country too (invented names)
    ("City: Kitorkisville", "Kitorkisville", Label.CITY),
    ("Name: T. Quorvane | Hometown: Brantisk | DOB: 3/4/50", "Brantisk", Label.CITY),
    ("Place of birth: Brantisk, UK", "Brantisk, UK", Label.CITY),
    ("Insurer: Bupa", "Bupa", Label.ORGANIZATION),
    # a field whose name says it holds a name takes one typed in small letters (invented names)
    ("Patient Name: kelbur, tobiah", "kelbur, tobiah", P),
    ("Patient name: quelbine", "quelbine", P),
    ("Pt. name: Quorvane", "Quorvane", P),
    ("PT. NAME: QUORVANE", "QUORVANE", P),
    ("Name: kelbur, tobiah\nDOB: 3/4/1950", "kelbur, tobiah", P),
    # a facility after its field, a ward's name too (invented names)
    ("Ward: Kelbury | Consultant: Dr Smith", "Kelbury", Label.HOSPITAL),
    ("Hospital: Quelbine General", "Quelbine General", Label.HOSPITAL),
    ("Referring facility: Kelbury House Care Home", "Kelbury House Care Home", Label.HOSPITAL),
    ("GP Practice: Zharnow Medical Centre", "Zharnow Medical Centre", Label.HOSPITAL),
    ("Care home: Brantisk Lodge", "Brantisk Lodge", Label.HOSPITAL),
    ("Address: Flat 3, 12 High Street, Leeds LS1 4AP", "Flat 3, 12 High Street, Leeds LS1 4AP", Label.STREET),
    ("Name: Ana  |  Age: 34", "Ana", P),
    # "Last, First" with a first name no list knows, written as a name
    ("Referring clinician: Camourett, Sykiotaint", "Camourett, Sykiotaint", D),
    ("Patient: Smith, Stable overnight", "Smith", P),  # a status after the surname is no first name
    # "Surname, Given" whose surname has particles or an elided particle, judged by the surname's own word
    ("Patient: de la Varquette, Ilsabet", "de la Varquette, Ilsabet", P),
    ("Name: van der Mossink, Joram  DOB: 2/3/61", "van der Mossink, Joram", P),
    ("PATIENT: DE LA VARQUETTE, ILSABET", "DE LA VARQUETTE, ILSABET", P),
    ("Patient: O’Young, Tamsin", "O’Young, Tamsin", P),
    ("Patient: O'Young, Tamsin", "O'Young, Tamsin", P),
    ("Next of kin: D'Souza-Marr, Priyal (sister)", "D'Souza-Marr, Priyal", R),
    # a form whose name runs on into the next cell, one tab on: an initial and a surname, a surname and an initial
    ("Name:\tC.\tQuorvane\nNext of kin:", "C.\tQuorvane", P),
    ("GP:\tTamsinelle\tM\nNo change to medication.", "Tamsinelle\tM", D),
    ("Next of kin:\tBrantisk\tT Quorvane\tson", "Brantisk\tT Quorvane", R),
    ("Name:\tQuorvane\tTobiah\n", "Quorvane\tTobiah", P),
    # the age and sex after a name are none of it
    ("Patient: Quorvane 72 F", "Quorvane", P),
    # the patient word's abbreviation as a consult header's field
    ("Psychiatry Consult - December 18, 2010\nPt: Quorvane T. (77 y.o.)", "Quorvane T.", P),
    ("Pt: Tobiah Quorvane  DOB: 1/2/1950", "Tobiah Quorvane", P),
]
NEGATIVES: list[Case] = [
    ("City: n/a", None, None),
    ("Town: unknown", None, None),
    ("Birthplace: 12 weeks", None, None),
    ("Patient: Stable overnight, 4/5 strength", None, None),
    ("Patient: Alert and oriented x3", None, None),
    ("Name: Tylenol 500 mg", None, None),
    ("Drug name: Aspirin 75 mg", None, None),
    ("Nurse: Will monitor", None, None),
    ("Patient: 65 yo male, 3/6 murmur", None, None),
    ("Name: n/a", None, None),
    ("Employer: retired", None, None),
    ("Name: afebrile overnight", None, None),
    ("Patient name: stable", None, None),
    ("Patient Name: pending", None, None),
    # a nursing note's patient heading, with the patient's state after it
    ("Pt: alert and oriented, MAE, follows commands\nPT: RESTLESS OVERNIGHT, MEDICATED WITH ATIVAN", None, None),
    ("Pt: Will need PT eval\nPt: Pleasant 67 yo man\nPt: Lasix 40 iv given\npt: afebrile", None, None),
    # a service, a number or nothing after a facility's field names no facility
    ("Ward: Acute Medical", None, None),
    ("Ward: 7", None, None),
    ("Facility: ICU", None, None),
    ("Ward: Cardiology", None, None),
    ("Ward: Surgical Unit 3", None, None),
    ("Facility: Skilled Nursing", None, None),
    ("Ward: Stroke", None, None),
    ("Hospital: n/a", None, None),
    ("Nursing home: none", None, None),
    ("Employer: unemployed since 2019", None, None),
    ("Address: see above", None, None),
    ("Address: unknown", None, None),
    ("the patient: ratio 1:2 at 0800", None, None),
    ("Re: your referral of 12/3", None, None),
    ("cc: 2 units PRBC", None, None),
    # the mental state examination's headings
    ("Attention: Fair. Concentration: Poor. Memory: Intact", None, None),
    ("Signed: 0800, room 12", None, None),
    # a reply's subject line on a message board names a user, not the patient
    ("Re: DealWorker\nhave u tried it?", None, None),
    ("re: Marigold\nsame here", None, None),
    # "Word, word" that is a finding, not "Surname, Given"; particles or an elided particle before no name
    ("Patient: Alert, oriented", None, None),
    ("Diagnosis: Sarcoidosis, stable", None, None),
    ("Patient: de novo mutation, stable", None, None),
    ("Patient: van transport arranged", None, None),
    ("Name: de la", None, None),
    # a clinician's field followed by a plan, a status or a note word
    ("Covering: Pain meds q4h prn", None, None),
    ("RN: will monitor. NP: aware. On call: team aware.", None, None),
    ("Pharmacist: Recommends vanco trough", None, None),
    ("Chaplain: Visited, family grateful", None, None),
    ("Dietitian: TF at goal. Intern: Will follow up. Therapist: none assigned", None, None),
    # an ellipsis of three or four dots after a field's word is no leader; initials' fields with no capitals
    ("Patient....lethargic, will cont to monitor", None, None),
    ("PATIENT...RESTING COMFORTABLY", None, None),
    ("Initials: n/a", None, None),
    ("Patient initials: unknown", None, None),
    ("Patient: O'Clock, seen", None, None),
    # a name's cell ends before the next cell's status, field or age, and before a second tab
    ("Patient:\tQuorvane\tStable\tBP 120/80", "Stable", None),
    ("Name:\tTobiah Quorvane\tSmith\tWard 7", "Smith", None),
    ("Name:\tQuorvane\t\tWard 7", "Ward", None),
    ("Patient: Quorvane 72 F\n", "72", None),
    ("Name: Quorvane (72) F", "72", None),
]


@pytest.mark.parametrize(("text", "expected", "label"), params(POSITIVES))
def test_finds_values_of_fields(text: str, expected: str, label: Label) -> None:
    check_positive(field_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "forbidden", "label"), params(NEGATIVES))
def test_ignores_fields_whose_value_is_no_phi(text: str, forbidden: str | None, label: Label | None) -> None:
    check_negative(field_detector(), text, forbidden, label)


def test_the_field_vocabulary_is_data_with_labels() -> None:
    table = field_labels()
    assert table["patient"] is P and table["next of kin"] is R and table["signed"] is D
    assert table["employer"] is Label.ORGANIZATION
