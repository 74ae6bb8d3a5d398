"""Name completion: a kept name grows over the adjacent words that complete it, and over nothing else."""

from __future__ import annotations

import pytest

from deident.core.document import Document
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.crf.learned import token_hash
from deident.stage2.name_completion import NameCompletion, complete_names


def _complete(text: str, name: str, label: Label = Label.PATIENT, clinical: tuple[str, ...] = ()) -> str:
    """The text of the completed span that started as the first occurrence of ``name``."""
    start = text.index(name)
    span = Span(start, start + len(name), label, source="test")
    stage = NameCompletion(frozenset(token_hash(w) for w in clinical))
    # the span grown from the found name (a name listed beside it is a span of its own: see below)
    (out,) = [s for s in stage(Document("n", text), (span,)) if s.start <= start < s.end]
    assert out.label is label
    return out.text_of(text)


@pytest.mark.parametrize(
    ("text", "found", "whole"),
    [
        # a first name before a found surname, a surname after a found first name
        ("Patient: Ignatius Wobblestone\nDOB: 01/02/1950", "Ignatius", "Ignatius Wobblestone"),
        ("Seen with Ignatius Wobblestone today.", "Wobblestone", "Ignatius Wobblestone"),
        ("Spoke with John Smith.", "John", "John Smith"),
        ("Spoke with Maria José Quorvane-Tilbet about the plan.", "Quorvane-Tilbet", "Maria José Quorvane-Tilbet"),
        # a middle initial between two name words
        ("Discussed with John K. Zembrowski this morning.", "John", "John K. Zembrowski"),
        # a closing initial with its full stop (invented names)
        ("Both Heidaeskis and Couviolard T. are his proxies.", "Couviolard", "Couviolard T."),
        ("Seen by Quorvane J.", "Quorvane", "Quorvane J."),
        # in a note of small letters a small initial too
        ("seen by quorvane j. today, dob 04/11/1951", "quorvane", "quorvane j."),
        ("wife at bedside. john k. zembrowski called", "john", "john k. zembrowski"),
        # no-break space and tab separators
        ("Her husband Stestundek\u00a0Thunaindski attended.", "Stestundek", "Stestundek\u00a0Thunaindski"),
        ("Name:\tKypreal\tRepyveard", "Kypreal", "Kypreal\tRepyveard"),
        # one-case notes: a pseudo-word or a known name next to the found one
        ("zeanaintova chiferko is a 67 year old. mrs chiferko will continue.", "chiferko", "zeanaintova chiferko"),
        ("SPOKE WITH WIFE MARY ZEMBROWSKI AT BEDSIDE", "MARY", "MARY ZEMBROWSKI"),
        # the rest of a hyphenated surname; "Last, First" with a first name no list knows
        ("Next of kin:\tCibind\tShaidor-Gouchirk\tson", "Cibind\tShaidor", "Cibind\tShaidor-Gouchirk"),
        ("Corrales, László was reviewed on the ward.", "Corrales", "Corrales, László"),
        # a name in quotes
        ("Contact 'Dubrierko Utraeski' (mother) if unwell.", "Utraeski", "Dubrierko Utraeski"),
        # Last, First
        ("Patient: Quorvane, Maria\nMRN 1234", "Quorvane", "Quorvane, Maria"),
        ("Patient: Garcia, Tobiah\nMRN 1234", "Tobiah", "Garcia, Tobiah"),
        # a first name the veto lists as an abbreviation, written as a name and closing the pair's slot
        ("Discussed with daughter (Quorvane, Max) by phone.", "Quorvane", "Quorvane, Max"),
        ("Next of kin: Tamsett, Eve\nMRN 1234", "Tamsett", "Tamsett, Eve"),
        # surname particles between name words, before a surname, and in "Last, First"
        ("Patient: Lydia Mac an Quorvath\nDOB: 01/02/1950", "Lydia Mac", "Lydia Mac an Quorvath"),
        ("Seen with Anna van der Tilbet today.", "Anna", "Anna van der Tilbet"),
        ("her daughter abbi mac an zembrowski attended", "abbi mac", "abbi mac an zembrowski"),
        ("Patient: de la Quorvane, Maria\nMRN 1234", "Quorvane, Maria", "de la Quorvane, Maria"),
        ("Seen with van Quorvane, Tobiah today.", "van Quorvane", "van Quorvane, Tobiah"),
        # a span never ends in a particle, nor in a hyphen part that is one
        ("Plan discussed with Dr Melissa Ó Quorvath-de Long.\n", "Melissa Ó Quorvath-de", "Melissa Ó Quorvath-de Long"),
        ("Seen with Ana de Long today.", "Ana de", "Ana de Long"),
        # a lone first name and the one word that closes its slot (bracket, quote, end of line), common or not
        ("Next of kin: Nicholas House (son)\nSeen today.", "Nicholas", "Nicholas House"),
        ("Patient: Sandile Pastor\nDOB: 01/02/1950", "Sandile", "Sandile Pastor"),
        ("Contact 'Paloma Day' (father) if unwell.", "Paloma", "Paloma Day"),
        ("Present:\n- Roberto Pastor (husband)\n", "Roberto", "Roberto Pastor"),
        ("PATIENT: MARK ZEMBROWSKI\nDOB: 01/02/1950", "ZEMBROWSKI", "MARK ZEMBROWSKI"),
        # a dotted initial that opens the line, a sentence, a field or a bracket before the name
        ("K. TRAILYRKIS IS A 67 YEAR OLD", "TRAILYRKIS", "K. TRAILYRKIS"),
        ("seen in clinic. k. trailyrkis is a 67 year old", "trailyrkis", "k. trailyrkis"),
        ("Next of kin: J. Zembrowski (son)", "Zembrowski", "J. Zembrowski"),
        ("Seen with daughter (R. Quorvane).", "Quorvane", "R. Quorvane"),
        # a name broken at the line's end by a hyphen, its rest in small letters on the next line
        ("Patient: Tobiah Quor-\nvane, seen today.", "Tobiah Quor", "Tobiah Quor-\nvane"),
        ("Seen by Dr. Bran-\n   tisk today.", "Bran", "Bran-\n   tisk"),
        ("Discussed with Dr. Ander-\nson, who agrees.", "Ander", "Ander-\nson"),
    ],
)
def test_a_name_is_completed(text: str, found: str, whole: str) -> None:
    assert _complete(text, found) == whole


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # common and clinical words next to a name
        ("Dr. Smith aware of labs.", "Smith"),
        ("Seen by Smith Cardiology fellow.", "Smith"),
        ("Mr. Baker is aged 40 with Beck Depression Inventory score 12.", "Beck"),
        ("Spoke with Smith Today about plan.", "Smith"),
        ("Called Smith about the results.", "Smith"),
        ("saw smith reports pain controlled", "smith"),
        # abbreviations and field labels are no names
        ("PATIENT: SMITH, FRANK  MRN 64-607067", "SMITH, FRANK"),
        ("DR SMITH NPO AFTER MIDNIGHT", "SMITH"),
        ("Patient: Ann Smith DOB: 01/02/1950", "Ann Smith"),
        # a lower-case word in a mixed-case note, a month, a kinship word, a drug
        ("Wife Mary brought clothes. Plan per Team.", "Mary"),
        ("Seen by Dr. Smith January 3.", "Smith"),
        ("Smith wife at bedside.", "Smith"),
        ("Dr Smith Lasix given.", "Smith"),
        # "Last, First" needs a known first name; "Smith, who" is not one
        ("Seen by Smith, who agreed.", "Smith"),
        # an abbreviation after the comma that is not written as a name, or does not close the slot
        ("Seen by Smith, Max assist for transfers.", "Smith"),
        ("Seen by Smith, max assist (transfers).", "Smith"),
        ("SEEN BY SMITH, MAX)", "SMITH"),
        # no crossing a line or a sentence
        ("Seen by Dr. Smith\nJohnson catheter placed.", "Smith"),
        ("Seen by Dr. Smith. Kraus reviewed.", "Smith"),
        # an initial that does not lead to a name word, one after a word (it may end a sentence), a lower-case one in
        # a mixed-case note
        ("Dr. Smith A. fib noted.", "Smith"),
        ("Dr. Smith V. tach noted.", "Smith"),
        ("Quorvane E. coli in sputum.", "Quorvane"),
        ("Quorvane L. arm swollen.", "Quorvane"),
        ("Quorvane T is here.", "Quorvane"),
        ("mr quorvane here. quorvane s. aureus in sputum.", "quorvane"),
        ("mr quorvane here. quorvane r. arm swollen.", "quorvane"),
        ("Seen by Quorvane j. today.", "Quorvane"),
        ("Takes vitamin K. Quorvane visited.", "Quorvane"),
        ("Plan a. Quorvane to call.", "Quorvane"),
        ("Seen. a. Quorvane called.", "Quorvane"),
        ("Dx Asperger's. Quorvane called.", "Quorvane"),
        # particles that lead to no name word, or stand alone
        ("Called Smith an hour ago.", "Smith"),
        ("Dr. Smith de novo lesion noted.", "Smith"),
        ("Smith van transport arranged.", "Smith"),
        ("Seen with Ana de Today.", "Ana de"),
        # a lone first name and a word that closes the slot but is no surname: a lower-case, note, day or role
        # word, a drug, a veto term
        ("Wife Mary aware.\nPlan as above.", "Mary"),
        ("Spoke with Mary Today (phone).", "Mary"),
        ("Spoke with Mary Wednesday (phone).", "Mary"),
        ("Spoke with Mary Nurse (phone).", "Mary"),
        ("Called Mary Lasix\n", "Mary"),
        ("Wife Mary Foley (catheter) in place", "Mary"),
        ("Seen by Mary (daughter) today.", "Mary"),
        # the slot must close right after the word
        ("Patient: Mary Alert and oriented\n", "Mary"),
        ("Patient: Smith Alert and oriented", "Smith"),
        # a heading, a note word or a common word after a hyphen that ends the name's line
        ("Mr. Quorvane-\nneuro intact, follows commands", "Quorvane"),
        ("Mr. Quorvane-\nresting comfortably", "Quorvane"),
        ("Mr. Quorvane-\npt denies pain", "Quorvane"),
    ],
)
def test_nothing_else_is_added(text: str, found: str) -> None:
    assert _complete(text, found) == found


def test_a_word_of_the_clinical_vocabulary_is_no_name_in_a_one_case_note() -> None:
    text = "AS PER DR WELSH PLEURAL EFFUSIONS NOTED"
    assert _complete(text, "WELSH", Label.DOCTOR) == "WELSH PLEURAL EFFUSIONS"  # words no dictionary knows
    assert _complete(text, "WELSH", Label.DOCTOR, clinical=("pleural",)) == "WELSH"


def test_one_case_slot_takes_a_clinical_word_only_before_a_role_in_brackets() -> None:
    assert _complete("next of kin: consuelo little (wife)\n", "consuelo", clinical=("little",)) == "consuelo little"
    assert _complete("next of kin: consuelo little.\n", "consuelo", clinical=("little",)) == "consuelo"
    assert _complete("NEXT OF KIN: MARY STABLE\n", "MARY", clinical=("stable",)) == "MARY"


def test_a_mention_takes_the_word_the_name_has_beside_it_elsewhere_in_the_note() -> None:
    text = "next of kin: consuelo little (wife)\nher wife consuelo little attended."
    whole = Span(13, 28, Label.RELATIVE, source="test")
    mention = Span(text.index("consuelo", 30), text.index("consuelo", 30) + 8, Label.RELATIVE, source="test")
    stage = NameCompletion(frozenset({token_hash("little")}))
    out = stage(Document("n", text), (whole, mention))
    assert [s.text_of(text) for s in out] == ["consuelo little", "consuelo little"]
    # without the whole name elsewhere, "little" (a clinical word in a one-case note) is not taken
    (alone,) = stage(Document("n", text), (mention,))
    assert alone.text_of(text) == "consuelo"


def test_a_kept_span_that_took_in_a_non_name_word_spreads_it_nowhere() -> None:
    text = "her girlfriend jennifer called.\nseen with girlfriend jennifer today."
    junk = Span(4, 23, Label.RELATIVE, source="test")  # "girlfriend jennifer"
    second = text.index("jennifer", 30)
    mention = Span(second, second + 8, Label.RELATIVE, source="test")
    out = NameCompletion()(Document("n", text), (junk, mention))
    assert [s.text_of(text) for s in out] == ["girlfriend jennifer", "jennifer"]
    text = "Seen at Quorvane-Tilbet.\nCall back at Quorvane-Tilbet."
    junk = Span(5, 23, Label.PATIENT, source="test")  # "at Quorvane-Tilbet"
    second = text.index("Quorvane", 25)
    mention = Span(second, second + 15, Label.PATIENT, source="test")
    out = NameCompletion()(Document("n", text), (junk, mention))
    assert [s.text_of(text) for s in out] == ["at Quorvane-Tilbet", "Quorvane-Tilbet"]


def test_a_note_word_the_name_has_beside_it_elsewhere_is_taken() -> None:
    text = "SIGNED: DR ERIKA PAGE\nPLAN DISCUSSED WITH DR ERIKA PAGE.\n"
    whole = Span(11, 21, Label.DOCTOR, source="test")
    second = text.index("ERIKA", 22)
    mention = Span(second, second + 5, Label.DOCTOR, source="test")
    out = NameCompletion(frozenset({token_hash("page")}))(Document("n", text), (whole, mention))
    assert [s.text_of(text) for s in out] == ["ERIKA PAGE", "ERIKA PAGE"]


def test_another_kept_name_is_not_swallowed_and_other_spans_pass_through() -> None:
    text = "Present: Ann Quorvane Bob Tilbet on 3/4"
    ann = Span(9, 12, Label.RELATIVE, source="test")
    bob = Span(22, 25, Label.RELATIVE, source="test")
    date = Span(36, 39, Label.DATE, source="test")
    out = complete_names(Document("n", text), (ann, bob, date))
    assert [s.text_of(text) for s in out] == ["Ann Quorvane", "Bob Tilbet", "3/4"]
    assert out[2] is date


def test_the_default_pipeline_completes_names_and_spreads_the_completed_parts() -> None:
    from deident.api import Deidentifier

    text = "zeanaintova chiferko is 67. zeanaintova reports no pain. mrs chiferko will continue metformin."
    found = {text[s.start : s.end] for s in Deidentifier.load(scheme="i2b2-2014").detect(text)}
    assert {"zeanaintova", "chiferko"} <= {w for f in found for w in f.split()}
    assert not ({"zeanaintova", "chiferko"} - {w for f in found for w in f.split()})


def _listed(text: str, name: str, label: Label = Label.DOCTOR, clinical: tuple[str, ...] = ()) -> list[str]:
    """The texts of the name spans, in order, after completing the first occurrence of ``name``."""
    start = text.index(name)
    span = Span(start, start + len(name), label, source="test")
    out = NameCompletion(frozenset(token_hash(w) for w in clinical))(Document("n", text), (span,))
    assert all(s.label is label for s in out)
    return [s.text_of(text) for s in sorted(out, key=lambda s: s.start)]


@pytest.mark.parametrize(
    ("text", "found", "names"),
    [
        # a name word beside "and" or "&", in any case, on either side of the kept name
        ("Drs Kelbur and Zharnow in to see pt.", "Kelbur", ["Kelbur", "Zharnow"]),
        ("Drs Kelbur and Zharnow in to see pt.", "Zharnow", ["Kelbur", "Zharnow"]),
        ("health care proxies are tobiahs and quelbine", "tobiahs", ["tobiahs", "quelbine"]),
        ("health care proxies are tobiahs and quelbine", "quelbine", ["tobiahs", "quelbine"]),
        ("DRS KELBUR AND ZHARNOW AT BEDSIDE", "KELBUR", ["KELBUR", "ZHARNOW"]),
        ("Tobiah & Quelbine visited today.", "Tobiah", ["Tobiah", "Quelbine"]),
        # with their initials, and with two words
        ("nsg (s. kelbur and p. marnow) verified amt of cash", "marnow", ["s. kelbur", "marnow"]),
        ("nsg (s. kelbur and p. marnow) verified amt of cash", "kelbur", ["s. kelbur", "p. marnow"]),
        ("witnessed by kelbur and tamsin quelbine. cash sent home", "kelbur", ["kelbur", "tamsin quelbine"]),
        # the commas of a list that an "and" closes (completion reads "Kelbur, Zharnow" as "Last, First" first)
        ("Drs Kelbur, Zharnow and Quorvane aware.", "Quorvane", ["Kelbur", "Zharnow", "Quorvane"]),
        ("Drs Kelbur, Zharnow, and Quorvane aware.", "Kelbur", ["Kelbur, Zharnow", "Quorvane"]),
        ("Drs Kelbur, Zharnow and Quorvane aware.", "Zharnow", ["Kelbur, Zharnow", "Quorvane"]),
        ("Seen by Dr. Ames, Hollis, Quorvane and Tobiah.", "Ames", ["Ames, Hollis", "Quorvane", "Tobiah"]),
        # after a plural title every name of the list is judged as after a title: a common word written as a name
        ("NSICU team called and Drs Wood and Chance in to see pt.", "Wood", ["Wood", "Chance"]),
        # in a note of one case, a short word only where a name list knows it
        ("SAH, KELBUR AND ZHARNOW AWARE", "ZHARNOW", ["KELBUR", "ZHARNOW"]),
        ("per ann and quelbine", "quelbine", ["ann", "quelbine"]),
    ],
)
def test_the_names_listed_with_a_kept_name_are_names(text: str, found: str, names: list[str]) -> None:
    assert _listed(text, found) == names


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a team, a service, a role, a kinship word, a drug, a common word
        ("Dr. Kelbur and team aware.", "Kelbur"),
        ("Dr. Kelbur and PT aware.", "Kelbur"),
        ("Dr. Kelbur and Neuro aware.", "Kelbur"),
        ("Dr. Kelbur and Social Work met with family.", "Kelbur"),
        ("Dr. Kelbur and Attending aware.", "Kelbur"),
        ("Dr. Wood and Chance of rain noted.", "Wood"),  # one title: a common word is judged as a word
        ("Drs Kelbur and Team in to see pt.", "Kelbur"),
        ("Wife Tamsin and son at bedside.", "Tamsin"),
        ("Dr. Kelbur and Lasix.", "Kelbur"),
        ("Dr. Kelbur and I discussed the plan.", "Kelbur"),
        ("DR KELBUR AND RENAL AWARE", "KELBUR"),
        ("dr kelbur and ortho aware", "kelbur"),
        # a comma with no "and" to close a list, a line break, a title that opens the next name
        ("Seen by Dr. Kelbur, Cardiology.", "Kelbur"),
        ("Seen by Dr. Kelbur and\nZharnow catheter placed.", "Kelbur"),
        ("Dr. Kelbur and Dr. Smith aware.", "Kelbur"),
        # an eponym's two names before a grade or sign, as the veto reads them
        ("seen by Dr. Hunt and Hess grade 3", "Hunt"),
        ("SAH, HUNT AND HESS GRADE 2", "HUNT"),
        # or a pair of names known together as one
        ("hx Hunt and Hess.", "Hess"),
        ("HX HUNT AND HESS", "HUNT"),
        ("pos Kernig and Brudzinski", "Kernig"),
    ],
)
def test_nothing_is_listed_with_a_kept_name(text: str, found: str) -> None:
    assert _listed(text, found) == [found]
