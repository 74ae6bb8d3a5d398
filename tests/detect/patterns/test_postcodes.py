"""UK and Canadian postcodes, a bare ZIP+4 and flat or unit addresses: positives and hard negatives (spinal levels,
lab values, doses, ratios, rooms), all invented."""

from __future__ import annotations

import pytest

from deident.core.labels import Label
from deident.detect.patterns import location_detector

from .helpers import Case, check_positive, found, params

Z = Label.ZIP
POSITIVES: list[Case] = [
    # after their label, in any case
    ("Postcode: sw1a 1aa", "sw1a 1aa", Label.ZIP),
    ("post code ls1 4ap, Leeds", "ls1 4ap", Label.ZIP),
    ("Postal code: k1a 0b6", "k1a 0b6", Label.ZIP),
    ("Flat 3, 12 High Street, Leeds LS1 4AP", "Flat 3, 12 High Street", Label.STREET),
    ("Flat 3, 12 High Street, Leeds LS1 4AP", "LS1 4AP", Z),
    ("Flat 3, 12 High Street, Leeds LS1 4AP", "Leeds", Label.CITY),
    ("Apt 4B, 221 Baker St", "Apt 4B, 221 Baker St", Label.STREET),
    ("Unit 7 14 Mill Lane", "Unit 7 14 Mill Lane", Label.STREET),
    ("London SW1A 1AA", "SW1A 1AA", Z),
    ("Manchester M60 1NW.", "M60 1NW", Z),
    ("EC1A 1BB (work)", "EC1A 1BB", Z),
    ("Birmingham B33 8TH", "B33 8TH", Z),
    ("postcode CR2 6XH", "CR2 6XH", Z),
    ("Ottawa, ON K1A 0B1", "K1A 0B1", Z),
    ("T2N 1N4 Calgary", "T2N 1N4", Z),
    ("lives at H2X1Y4", "H2X1Y4", Z),
    ("Montreal QC H2X-1Y4", "H2X-1Y4", Z),
    ("Baltimore 21201-3456", "21201-3456", Z),
    # a multi-line address ending in its post town and postcode
    ("Address:\n18 Clarence Road\nHeadingley\nLeeds\nLS6 3AB\n", "Leeds", Label.CITY),
    ("Address:\n18 Clarence Road\nHeadingley\nLeeds\nLS6 3AB\n", "LS6 3AB", Z),
    ("Flat 2\n7 Mill Lane\nNewcastle upon Tyne\nNE1 4XF", "NE1 4XF", Z),
    # a town before its province and postal code, accented, hyphenated, with small joining words (issue 17)
    ("71 Lopez Street, Saint-Léonard, QC H1R 2X9", "Saint-Léonard", Label.CITY),
    ("259 Main Road, L'Ancienne-Lorette, QC G2E 1A1", "L'Ancienne-Lorette", Label.CITY),
    ("Home: 9775 Little Avenue, North Cowichan BC  V9L 6B4", "North Cowichan", Label.CITY),
    ("144 Hawkins Terrace, Newcastle under Lyme ST5 1AA", "Newcastle under Lyme", Label.CITY),
    ("111 Burton Lane\nAshton in Makerfield\nWN4 9AA", "Ashton in Makerfield", Label.CITY),
    # a postcode shape of any capitals ending an address block (mistyped, or made up by a generator)
    ("Renal Medicine\n5426 Vaimal St\nKelbury\nZU9 4HI\nTel: 01234 567890", "ZU9 4HI", Z),
    ("cc: N. Zharnow, 5426 Vaimal St, Kelbury ZU9 4HI\n", "ZU9 4HI", Z),
    ("Home: 865 Quelbine Road, Kelbury ON  Q8K 2C6\n\nSeen today.", "Q8K 2C6", Z),
    ("6081 Brantisk Ave, Kelbury, BC W3C1H3\nTel: 287 896 5781", "W3C1H3", Z),
    # a five-digit code alone at the end of an address block, with no state before it
    ("Kelbury Nursing Home\n8488 Quelbine Road\nGoubaelleville\n55130\n\nDear Dr Zharnow,", "55130", Z),
    ("5089 Brantisk Ave, Kelbury, 24308\nI reviewed Mr Zharnow", "24308", Z),
    ("5089 Brantisk Ave, Kelbury, 24308\nI reviewed Mr Zharnow", "Kelbury", Label.CITY),
    # an Australian town, state or territory and postcode, each in that state's ranges
    ("12 Banksia Rd, Parramatta NSW 2150.", "2150", Z),
    ("12 Banksia Rd, Parramatta NSW 2150.", "NSW", Label.STATE),
    ("12 Banksia Rd, Parramatta NSW 2150.", "Parramatta", Label.CITY),
    ("Unit 4/18 Collins St, Melbourne VIC 3000", "Melbourne", Label.CITY),
    ("Kambah ACT 2902", "2902", Z),
    ("PO Box 77, Alice Springs NT 0870", "0870", Z),
    ("Quelbury, Qld 4350", "4350", Z),
    ("Hobart TAS 7000 Australia", "TAS", Label.STATE),
    # a continental postcode before its town: a listed city, or any town after a street address
    ("Ola Nordmann, Storgata 1, 0155 Oslo.", "0155", Z),
    ("Ola Nordmann, Storgata 1, 0155 Oslo.", "Oslo", Label.CITY),
    ("Hans Meier\nBahnhofstrasse 10\n8001 Zürich\nSchweiz", "8001", Z),
    ("Lives at 12 Rue de Rivoli, 75001 Paris, France.", "75001", Z),
    ("Damrak 1, 1012 LG Amsterdam", "1012 LG", Z),
    ("12 Brantisk Road, 4471 Kelbury\n", "4471", Z),
    ("12 Brantisk Road, 4471 Kelbury\n", "Kelbury", Label.CITY),
]
# (text, a piece that must not be tagged with the label)
NEGATIVES: list[tuple[str, str, Label]] = [
    ("postcode unknown, will ask", "unknown", Label.ZIP),
    ("postcode: qq1 1aa", "qq1 1aa", Label.ZIP),  # no UK area starts with Q
    ("L4 5 disc bulge, C5 6 fusion", "L4 5", Z),
    ("4/5 strength, 3/6 murmur", "4/5", Z),
    ("G2 P1 at 38 weeks", "G2 P1", Z),
    ("T1 2DM poorly controlled", "T1 2DM", Z),
    ("UO 10000-2000 ml", "10000-2000", Z),
    ("plt 15000-2500 range", "15000-2500", Z),
    ("ratio 1:2, 0.9 NS", "1:2", Z),
    ("room 12B bed 3", "12B", Z),
    ("unit 2, 12 mg given", "unit 2", Label.STREET),
    ("suite 4, 3 doses", "suite 4", Label.STREET),
    ("flat 2 days, 3 L NC", "flat 2", Label.STREET),
    ("B12 1000 mcg", "B12 1000", Z),
    ("A1C 7.2 and H2O 5L", "A1C 7", Z),
    ("ph 7.35 CO2 40 at 0800", "0800", Z),
    ("sw1a 1aa in lower case is no postcode", "sw1a 1aa", Z),
    ("Plan:\nContinue\nT1 2DM review", "Continue", Label.CITY),
    ("and then\nLS6 3AB", "and then", Label.CITY),
    ("seen with the QC K1A 0B1", "the", Label.CITY),
    ("Plan: QC review, ON K1A 0B1", "Plan", Label.CITY),
    # a code of that shape with no street address just before, or a sentence between ("clinic. CD4 3TC")
    ("HIV on Truvada, CD4 3TC\n", "CD4 3TC", Z),
    ("Seen at 12 High Street clinic. CD4 3TC\n", "CD4 3TC", Z),
    ("12 Main St\nplan to check ZU9 4HI\n", "ZU9 4HI", Z),
    ("Kelbury ON Q8K 2C6\n", "Q8K 2C6", Z),
    ("Lives at 12 Main St. UO 15000\n", "15000", Z),
    ("12 Main St, Kelbury\nWBC 12000\n", "12000", Z),
    # a state abbreviation before four digits outside that state's postcodes, or a clinical abbreviation's number
    ("abd soft NT 2150 cc out", "2150", Z),
    ("SA 1200 bpm", "1200", Z),
    ("WA 3000 left", "3000", Z),
    ("fluids NSW 20000 ml", "NSW", Label.STATE),
    ("Plan: ACT 2601 review", "Plan", Label.CITY),
    # four or five digits and a capitalised word that are no postcode and town: a year, a count, an unlisted word
    ("Moved to the UK, 2019 London trip cancelled.", "2019", Z),
    ("Na 140, 2000 Boston cream pie", "2000", Z),
    ("Labs: WBC 12, 1500 Heparin units\n", "1500", Z),
    ("Intake, 2400 Total.", "2400", Z),
]


@pytest.mark.parametrize(("text", "expected", "label"), params(POSITIVES))
def test_finds_postcodes_and_unit_addresses(text: str, expected: str, label: Label) -> None:
    check_positive(location_detector(), text, expected, label)


@pytest.mark.parametrize(("text", "piece", "label"), NEGATIVES, ids=[n[0][:40] for n in NEGATIVES])
def test_ignores_clinical_codes_that_look_like_postcodes(text: str, piece: str, label: Label) -> None:
    spans = found(location_detector(), text)
    assert not any(label is got and (piece in covered or covered in piece) for covered, got in spans), spans
