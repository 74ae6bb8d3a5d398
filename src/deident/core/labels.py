"""The PHI label taxonomy: i2b2/UTHealth 2014 and CEGS N-GRID categories and sub-types.

Each sub-type knows its main category and whether HIPAA Safe Harbor requires its removal.
Mappings from the PhysioNet deid and i2b2 2006 annotation schemes are data (dicts) below.
"""

from __future__ import annotations

from enum import StrEnum


class Category(StrEnum):
    """Main PHI categories of the i2b2 2014 / CEGS N-GRID scheme."""

    NAME = "NAME"
    PROFESSION = "PROFESSION"
    LOCATION = "LOCATION"
    AGE = "AGE"
    DATE = "DATE"
    CONTACT = "CONTACT"
    ID = "ID"


class SafeHarbor(StrEnum):
    """Whether HIPAA Safe Harbor (45 CFR 164.514(b)(2)) requires removing a sub-type.

    CONDITIONAL: only some instances are identifiers (ages over 89; date elements other than
    the year; ZIP codes beyond their first three digits in small areas).
    """

    REQUIRED = "required"
    CONDITIONAL = "conditional"
    NOT_REQUIRED = "not_required"


class Label(StrEnum):
    """PHI sub-types. The value is the i2b2 2014 TYPE attribute (LOCATION_OTHER is "OTHER" there)."""

    # NAME
    PATIENT = "PATIENT"
    DOCTOR = "DOCTOR"
    USERNAME = "USERNAME"
    RELATIVE = "RELATIVE"  # family members and proxies (BoB, PhysioNet RelativeProxyName)
    # PROFESSION
    PROFESSION = "PROFESSION"
    # LOCATION
    ROOM = "ROOM"
    DEPARTMENT = "DEPARTMENT"
    HOSPITAL = "HOSPITAL"
    ORGANIZATION = "ORGANIZATION"
    STREET = "STREET"
    CITY = "CITY"
    STATE = "STATE"
    COUNTRY = "COUNTRY"
    ZIP = "ZIP"
    LOCATION_OTHER = "LOCATION_OTHER"
    # AGE
    AGE = "AGE"
    # DATE
    DATE = "DATE"
    # CONTACT
    PHONE = "PHONE"
    FAX = "FAX"
    EMAIL = "EMAIL"
    URL = "URL"
    IPADDR = "IPADDR"
    # ID
    SSN = "SSN"
    MEDICALRECORD = "MEDICALRECORD"
    HEALTHPLAN = "HEALTHPLAN"
    ACCOUNT = "ACCOUNT"
    LICENSE = "LICENSE"
    VEHICLE = "VEHICLE"
    DEVICE = "DEVICE"
    BIOID = "BIOID"
    IDNUM = "IDNUM"

    @property
    def category(self) -> Category:
        return _CATEGORY[self]

    @property
    def safe_harbor(self) -> SafeHarbor:
        return _SAFE_HARBOR[self]

    @property
    def is_hipaa(self) -> bool:
        """True when Safe Harbor requires removal of at least some instances."""
        return _SAFE_HARBOR[self] is not SafeHarbor.NOT_REQUIRED

    @classmethod
    def parse(cls, value: str) -> Label:
        """Parse a label name, accepting i2b2 2014 spellings ("OTHER", "LOCATION-OTHER")."""
        key = value.strip().upper().replace("-", "_")
        if key in _ALIASES:
            return _ALIASES[key]
        try:
            return cls(key)
        except ValueError:
            # The value is not quoted: read from an input file it may be misplaced text (PHI).
            raise ValueError("unknown PHI label") from None


_CATEGORY: dict[Label, Category] = {
    **{lab: Category.NAME for lab in (Label.PATIENT, Label.DOCTOR, Label.USERNAME, Label.RELATIVE)},
    Label.PROFESSION: Category.PROFESSION,
    **{
        lab: Category.LOCATION
        for lab in (
            Label.ROOM,
            Label.DEPARTMENT,
            Label.HOSPITAL,
            Label.ORGANIZATION,
            Label.STREET,
            Label.CITY,
            Label.STATE,
            Label.COUNTRY,
            Label.ZIP,
            Label.LOCATION_OTHER,
        )
    },
    Label.AGE: Category.AGE,
    Label.DATE: Category.DATE,
    **{lab: Category.CONTACT for lab in (Label.PHONE, Label.FAX, Label.EMAIL, Label.URL, Label.IPADDR)},
    **{
        lab: Category.ID
        for lab in (
            Label.SSN,
            Label.MEDICALRECORD,
            Label.HEALTHPLAN,
            Label.ACCOUNT,
            Label.LICENSE,
            Label.VEHICLE,
            Label.DEVICE,
            Label.BIOID,
            Label.IDNUM,
        )
    },
}

# Safe Harbor view, read from 45 CFR 164.514(b)(2). Clinicians, professions, care institutions,
# states and countries are not identifiers of the individual; employers (ORGANIZATION) are.
# It differs from the "HIPAA-PHI" column of the i2b2 2014 guidelines in three places, each on the
# side of removal: LOCATION_OTHER (a geographic subdivision smaller than a state), URL and IPADDR
# (both named in the rule) are REQUIRED here. deident removes every label by default anyway: the
# view only informs reports, the HIPAA evaluation view and the hipaa-identifiers scheme.
_NOT_REQUIRED = {
    Label.DOCTOR,
    Label.PROFESSION,
    Label.DEPARTMENT,
    Label.HOSPITAL,
    Label.STATE,
    Label.COUNTRY,
    Label.ROOM,
}
_CONDITIONAL = {Label.AGE, Label.DATE, Label.ZIP}
_SAFE_HARBOR: dict[Label, SafeHarbor] = {
    lab: (
        SafeHarbor.NOT_REQUIRED
        if lab in _NOT_REQUIRED
        else SafeHarbor.CONDITIONAL
        if lab in _CONDITIONAL
        else SafeHarbor.REQUIRED
    )
    for lab in Label
}

_ALIASES: dict[str, Label] = {
    "OTHER": Label.LOCATION_OTHER,
    "LOCATION_OTHER": Label.LOCATION_OTHER,
    "MEDICAL_RECORD": Label.MEDICALRECORD,
    "HEALTH_PLAN": Label.HEALTHPLAN,
    "ID_NUM": Label.IDNUM,
    "IP_ADDRESS": Label.IPADDR,
    "IPADDRESS": Label.IPADDR,
    "BIO_ID": Label.BIOID,
}

# Which sub-type a category stands for when a source names only the category.
CATEGORY_DEFAULT: dict[Category, Label] = {
    Category.NAME: Label.PATIENT,
    Category.PROFESSION: Label.PROFESSION,
    Category.LOCATION: Label.LOCATION_OTHER,
    Category.AGE: Label.AGE,
    Category.DATE: Label.DATE,
    Category.CONTACT: Label.PHONE,
    Category.ID: Label.IDNUM,
}

# PhysioNet deid (Neamatullah 2008) types. "Other" holds miscellaneous identifying numbers.
# The reverse direction is in deident.io.physionet, which also looks at the covered text to tell
# PTNameInitial from PTName and DateYear from Date.
PHYSIONET_TO_LABEL: dict[str, Label] = {
    "HCPName": Label.DOCTOR,
    "PTName": Label.PATIENT,
    "PTNameInitial": Label.PATIENT,
    "RelativeProxyName": Label.RELATIVE,
    "Date": Label.DATE,
    "DateYear": Label.DATE,
    "Location": Label.LOCATION_OTHER,
    "Phone": Label.PHONE,
    "Age": Label.AGE,
    "Other": Label.IDNUM,
}

# i2b2 2006 de-identification challenge types (Uzuner, Luo, Szolovits 2007).
I2B2_2006_TO_LABEL: dict[str, Label] = {
    "PATIENT": Label.PATIENT,
    "DOCTOR": Label.DOCTOR,
    "LOCATION": Label.LOCATION_OTHER,
    "HOSPITAL": Label.HOSPITAL,
    "DATE": Label.DATE,
    "ID": Label.IDNUM,
    "PHONE": Label.PHONE,
    "AGE": Label.AGE,
}
