"""The site configuration file: the README's example, validation errors, hashes."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.site.config import SiteConfig, load_site_config, site_config_of
from tests.site.conftest import SITE_FIXTURE

README = Path(__file__).parents[2] / "README.md"
# A made-up name: it must never appear in an error message.
SECRET = "Zebedee Quarrington"


def test_readme_example_is_the_fixture() -> None:
    section = README.read_text(encoding="utf-8").split("## Site configuration", 1)[1]
    blocks = re.findall(r"```toml\n(.*?)```", section, flags=re.S)
    assert blocks, "the README's Site configuration section has no TOML example"
    assert blocks[0] == SITE_FIXTURE.read_text(encoding="utf-8")


def test_fixture_reads_as_written(site: SiteConfig) -> None:
    lists = {name: (label, items) for name, label, items in site.lists}
    assert lists["clinicians"] == (Label.DOCTOR, ("Anwen Quillfeather", "Tomasz Okafor"))
    assert lists["wards"][0] is Label.DEPARTMENT and lists["facilities"][0] is Label.HOSPITAL
    assert lists["places"][0] is Label.CITY and lists["organisations"][0] is Label.ORGANIZATION
    assert lists["patients.name"] == (Label.PATIENT, ("Marguerite Vandersloot",))
    assert lists["patients.mrn"] == (Label.MEDICALRECORD, ("QX-55-1234",))
    (pattern,) = site.patterns
    assert (pattern.name, pattern.label, pattern.validator, pattern.score) == (
        "trust_number",
        Label.MEDICALRECORD,
        "luhn",
        0.5,
    )
    assert pattern.context == ("trust no", "trust number")
    assert site.allow == ("Bristol stool",)
    assert site.deny == ((Label.HOSPITAL, ("the Annexe",)),)
    assert (site.scheme, site.mode, site.phone_regions) == ("i2b2-2014", "tag", ("GB", "IE"))


def test_hashes_are_of_the_files(site: SiteConfig) -> None:
    assert site.sha256 == hashlib.sha256(SITE_FIXTURE.read_bytes()).hexdigest()
    patients = SITE_FIXTURE.parent / "patients.tsv"
    assert dict(site.files_sha256) == {"lists.patients": hashlib.sha256(patients.read_bytes()).hexdigest()}
    assert site.provenance() == {"name": "site.toml", "sha256": site.sha256, "files_sha256": dict(site.files_sha256)}


def test_repr_holds_no_entries(site: SiteConfig) -> None:
    assert "Quillfeather" not in repr(site) and "Annexe" not in repr(site) and "RX" not in repr(site)


def test_list_from_a_file(tmp_path: Path) -> None:
    (tmp_path / "staff.txt").write_text(f"# roster\n{SECRET}\n\nAnwen Quillfeather\n", encoding="utf-8")
    config = tmp_path / "site.toml"
    config.write_text('[lists]\nclinicians = "staff.txt"\n', encoding="utf-8")
    site = load_site_config(config)
    assert site.lists == (("clinicians", Label.DOCTOR, (SECRET, "Anwen Quillfeather")),)
    assert "lists.clinicians" in dict(site.files_sha256)


def test_given_path_or_config() -> None:
    site = site_config_of(SITE_FIXTURE)
    assert site is not None and site_config_of(site) is site and site_config_of(None) is None


INVALID = [
    ("[lists\n", "not valid TOML"),
    ("[listz]\n", "listz: unknown key"),
    ("[lists]\ndoctors = []\n", "lists.doctors: unknown key"),
    ("lists = 3\n", "lists: must be a table"),
    ("[lists]\nclinicians = 3\n", "lists.clinicians: must be a list of strings"),
    (f'[lists]\nclinicians = ["{SECRET}", 3]\n', "lists.clinicians: must be a list of strings"),
    ('[lists]\nclinicians = ["--"]\n', "lists.clinicians[0]: must hold at least two letters or digits"),
    ('[allow]\nterms = ["Bristol stool", "A."]\n', "allow.terms[1]: must hold at least two letters or digits"),
    ('[lists]\nwards = "wards.txt"\n', "lists.wards: line 3: must hold at least two letters or digits"),
    ('[lists]\nclinicians = "missing.txt"\n', "lists.clinicians: cannot read"),
    ('[lists]\npatients = "missing.tsv"\n', "lists.patients: cannot read"),
    ('[lists]\npatients = "patients.tsv"\n', "lists.patients: line 2: expected 'kind<TAB>value'"),
    ("[lists]\npatients = []\n", "lists.patients: must be the path"),
    ("[patterns]\nname = 'x'\n", "patterns: must be an array of tables"),
    ("[[patterns]]\nname = 'x'\nlabel = 'IDNUM'\n", "patterns[0].regex: is required"),
    ("[[patterns]]\nname = 'x'\nregex = 'a['\nlabel = 'IDNUM'\n", "patterns[0].regex: does not compile"),
    ("[[patterns]]\nname = 'x'\nregex = 'a*'\nlabel = 'IDNUM'\n", "patterns[0].regex: matches the empty string"),
    ("[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'SECRET'\n", "patterns[0].label: must be a label"),
    ("[[patterns]]\nname = 'x y'\nregex = 'a'\nlabel = 'IDNUM'\n", "patterns[0].name: must be a short name"),
    ("[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'IDNUM'\nscore = 1.5\n", "patterns[0].score: must be a number"),
    ("[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'IDNUM'\nscore = 'high'\n", "patterns[0].score: must be a"),
    ("[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'IDNUM'\nscore = true\n", "patterns[0].score: must be a"),
    ("[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'IDNUM'\nvalidator = 'md5'\n", "patterns[0].validator: must be"),
    ("[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'IDNUM'\ncontext = 'mrn'\n", "patterns[0].context: must be a"),
    ("[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'IDNUM'\nignore_case = 1\n", "patterns[0].ignore_case: must be"),
    ("[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'IDNUM'\nflags = 1\n", "patterns[0].flags: unknown key"),
    (
        "[[patterns]]\nname = 'x'\nregex = 'a'\nlabel = 'IDNUM'\n"
        "[[patterns]]\nname = 'x'\nregex = 'b'\nlabel = 'IDNUM'\n",
        "patterns[1].name: two patterns have this name",
    ),
    ("[allow]\nwords = []\n", "allow.words: unknown key"),
    ("[allow]\nterms = 'x'\n", "allow.terms: must be a list of strings"),
    (f'[[deny]]\nterms = ["{SECRET}"]\n', "deny[0].label: is required"),
    ("[[deny]]\nlabel = 'HOSPITAL'\nterms = []\n", "deny[0].terms: must not be empty"),
    (
        f'[allow]\nterms = ["{SECRET}"]\n[[deny]]\nlabel = "PATIENT"\nterms = ["{SECRET.upper()}"]\n',
        "deny[0].terms[0]: is also in allow.terms",
    ),
    ("[defaults]\nscheme = 'gdpr'\n", "defaults.scheme: must be one of"),
    ("[defaults]\nmode = 'shred'\n", "defaults.mode: must be one of"),
    ("[defaults]\nphone_regions = ['XX']\n", "defaults.phone_regions[0]: must be a region code"),
    ("[defaults]\nphone_regions = []\n", "defaults.phone_regions: must not be empty"),
    ("[defaults]\nlanguage = 'en'\n", "defaults.language: unknown key"),
]


@pytest.mark.parametrize(("content", "message"), INVALID)
def test_invalid_configs_are_clear_one_line_errors(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "patients.tsv").write_text(f"name\t{SECRET}\n{SECRET}\n", encoding="utf-8")
    (tmp_path / "wards.txt").write_text(f"# wards\n{SECRET}\n-\n", encoding="utf-8")
    config = tmp_path / "site.toml"
    config.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigurationError) as error:
        load_site_config(config)
    text = str(error.value)
    assert text.startswith(f"{config}: ") and message in text
    assert "\n" not in text and SECRET not in text and SECRET.split()[1] not in text


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="cannot read the site configuration"):
        load_site_config(tmp_path / "absent.toml")
    binary = tmp_path / "site.toml"
    binary.write_bytes(b"\xff\xfe[lists]")
    with pytest.raises(ConfigurationError, match="not UTF-8"):
        load_site_config(binary)
