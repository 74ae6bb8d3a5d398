"""The site configuration file: one TOML file (read with :mod:`tomllib`) holding what a hospital knows of its PHI.

Layout (every table and key optional; unknown keys and wrong types are errors)::

    [defaults]
    scheme = "i2b2-2014"            # PHI convention when none is given
    mode = "tag"                    # replacement mode when none is given
    phone_regions = ["GB", "IE"]    # regions a number without a country code is read in

    [lists]                         # each a list of strings or the path of a text file, one entry a line
    clinicians = [...]              # DOCTOR
    wards = [...]                   # DEPARTMENT
    facilities = [...]              # HOSPITAL
    places = [...]                  # CITY (local towns and districts)
    organisations = [...]           # ORGANIZATION
    patients = "patients.tsv"       # patients' known identifiers: "name|relative|mrn|address<TAB>value" lines

    [[patterns]]                    # custom patterns (Presidio-style), any number
    name = "trust_number"
    regex = '\\bRX\\d{8}\\b'
    label = "MEDICALRECORD"
    score = 0.5                     # default 0.6
    validator = "luhn"              # optional: one of VALIDATOR_NAMES
    context = ["trust no"]          # optional: words before the match that raise the score
    ignore_case = false             # optional

    [allow]                         # never PHI: a span inside one of these phrases is dropped
    terms = [...]

    [[deny]]                        # always PHI, with a label
    label = "HOSPITAL"
    terms = [...]

Paths are relative to the configuration file. Errors name the file and the key, never a value from the lists
(they may be PHI). :attr:`SiteConfig.sha256` is the SHA-256 of the file's bytes, which a run report records.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex

from deident.core.errors import ConfigurationError
from deident.core.labels import Label

# Site list -> the label its entries get, in priority order (an entry listed twice takes the first list's label).
LIST_LABELS: dict[str, Label] = {
    "clinicians": Label.DOCTOR,
    "wards": Label.DEPARTMENT,
    "facilities": Label.HOSPITAL,
    "places": Label.CITY,
    "organisations": Label.ORGANIZATION,
}
# Kinds of the patients' known-identifiers file -> their label.
PATIENT_KINDS: dict[str, Label] = {
    "name": Label.PATIENT,
    "relative": Label.RELATIVE,
    "mrn": Label.MEDICALRECORD,
    "address": Label.STREET,
}
# Names a custom pattern's ``validator`` may take (see deident.detect.patterns.checked_ids.NAMED_CHECKS; "phone" is
# a number phonenumbers finds valid in one of the phone regions).
VALIDATOR_NAMES = ("dea", "iban", "luhn", "nhs_number", "npi", "phone", "sin", "verhoeff")
DEFAULT_PATTERN_SCORE = 0.6

_TABLES = ("defaults", "lists", "patterns", "allow", "deny")
_DEFAULT_KEYS = ("scheme", "mode", "phone_regions")
_PATTERN_KEYS = ("name", "regex", "label", "score", "validator", "context", "ignore_case")
_NAME = regex.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")


@dataclass(frozen=True)
class CustomPattern:
    """A site's own rule: a regex with a label; an optional validator confirms a match (a match that fails it is
    dropped), and a context word shortly before a match raises its score."""

    name: str
    source: str
    label: Label
    score: float = DEFAULT_PATTERN_SCORE
    validator: str | None = None
    context: tuple[str, ...] = ()
    ignore_case: bool = False


@dataclass(frozen=True)
class SiteConfig:
    """A site configuration, validated. Entries of lists may be PHI: they are kept out of the repr."""

    name: str  # the file's name, for messages
    sha256: str  # of the file's bytes
    # (list name, label, entries) for the site lists, the patients' file as lists "patients.<kind>" last.
    lists: tuple[tuple[str, Label, tuple[str, ...]], ...] = field(default=(), repr=False)
    patterns: tuple[CustomPattern, ...] = field(default=(), repr=False)
    allow: tuple[str, ...] = field(default=(), repr=False)
    deny: tuple[tuple[Label, tuple[str, ...]], ...] = field(default=(), repr=False)
    phone_regions: tuple[str, ...] | None = None
    scheme: str | None = None
    mode: str | None = None
    # SHA-256 of each file the configuration names (list files, the patients' file), by key.
    files_sha256: tuple[tuple[str, str], ...] = ()

    def provenance(self) -> dict[str, Any]:
        """What a run report records of the configuration: its name and hashes (no entries)."""
        return {"name": self.name, "sha256": self.sha256, "files_sha256": dict(self.files_sha256)}


def load_site_config(path: str | Path) -> SiteConfig:
    """Read and validate the site configuration at ``path`` (ConfigurationError, one line, naming file and key)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ConfigurationError(
            f"{path}: cannot read the site configuration ({error.strerror or 'unreadable'})"
        ) from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigurationError(f"{path}: the site configuration is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigurationError(f"{path}: not valid TOML: {error}") from None
    return _Reader(path).config(data, hashlib.sha256(raw).hexdigest())


class _Reader:
    """Validates the parsed TOML of one file; every error names the file and the key."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.files: dict[str, str] = {}

    def fail(self, key: str, problem: str) -> ConfigurationError:
        return ConfigurationError(f"{self.path}: {key}: {problem}")

    def config(self, data: dict[str, Any], sha256: str) -> SiteConfig:
        self.keys("", data, _TABLES)
        defaults = self.table("defaults", data.get("defaults", {}))
        self.keys("defaults.", defaults, _DEFAULT_KEYS)
        lists = self.table("lists", data.get("lists", {}))
        self.keys("lists.", lists, (*LIST_LABELS, "patients"))
        site_lists = [(name, label, self.entries(f"lists.{name}", lists[name])) for name, label in LIST_LABELS.items()
                      if name in lists]  # fmt: skip
        if "patients" in lists:
            site_lists += self.patients("lists.patients", lists["patients"])
        patterns = tuple(self.pattern(f"patterns[{i}]", p) for i, p in enumerate(self.array("patterns", data)))
        names = [p.name for p in patterns]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise self.fail(f"patterns[{i}].name", "two patterns have this name")
        allow_table = self.table("allow", data.get("allow", {}))
        self.keys("allow.", allow_table, ("terms",))
        allow = self.strings("allow.terms", allow_table.get("terms", []))
        deny = tuple(self.deny(f"deny[{i}]", d) for i, d in enumerate(self.array("deny", data)))
        self.no_conflict(allow, deny)
        return SiteConfig(
            name=self.path.name,
            sha256=sha256,
            lists=tuple(site_lists),
            patterns=patterns,
            allow=allow,
            deny=deny,
            phone_regions=self.regions("defaults.phone_regions", defaults.get("phone_regions")),
            scheme=self.choice("defaults.scheme", defaults.get("scheme"), _scheme_names()),
            mode=self.choice("defaults.mode", defaults.get("mode"), _mode_names()),
            files_sha256=tuple(sorted(self.files.items())),
        )

    def keys(self, prefix: str, table: Mapping[str, Any], known: tuple[str, ...]) -> None:
        for key in table:
            if key not in known:
                raise self.fail(f"{prefix}{key}", f"unknown key (known: {', '.join(known)})")

    def table(self, key: str, value: object) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, "must be a table")
        return value

    def array(self, key: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.fail(key, f"must be an array of tables ([[{key}]])")
        return value

    def strings(self, key: str, value: object, *, allow_empty: bool = True) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(key, "must be a list of strings")
        out = tuple(item.strip() for item in value)
        for i, item in enumerate(out):
            if not _long_enough(item):
                raise self.fail(f"{key}[{i}]", _TOO_SHORT)
        if not out and not allow_empty:
            raise self.fail(key, "must not be empty")
        return out

    def entries(self, key: str, value: object) -> tuple[str, ...]:
        """A list written in place, or the path of a text file with one entry a line ('#' starts a comment line)."""
        if isinstance(value, str):
            out: list[str] = []
            for number, line in enumerate(self.read_file(key, value).splitlines(), start=1):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                if not _long_enough(line):
                    raise self.fail(key, f"line {number}: {_TOO_SHORT}")
                out.append(line.strip())
            return tuple(out)
        return self.strings(key, value)

    def read_file(self, key: str, value: str) -> str:
        file = self.path.parent / value
        try:
            raw = file.read_bytes()
        except OSError as error:
            raise self.fail(key, f"cannot read {file} ({error.strerror or 'unreadable'})") from None
        self.files[key] = hashlib.sha256(raw).hexdigest()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail(key, f"{file} is not UTF-8 text") from None

    def patients(self, key: str, value: object) -> list[tuple[str, Label, tuple[str, ...]]]:
        if not isinstance(value, str):
            raise self.fail(key, "must be the path of a file of 'kind<TAB>value' lines")
        by_kind: dict[str, list[str]] = {kind: [] for kind in PATIENT_KINDS}
        for number, line in enumerate(self.read_file(key, value).splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            kind, tab, entry = line.partition("\t")
            if not tab or kind.strip() not in by_kind or not _long_enough(entry):
                raise self.fail(
                    key, f"line {number}: expected 'kind<TAB>value' with kind one of {', '.join(PATIENT_KINDS)}"
                )
            by_kind[kind.strip()].append(entry.strip())
        return [(f"patients.{kind}", PATIENT_KINDS[kind], tuple(items)) for kind, items in by_kind.items() if items]

    def pattern(self, key: str, table: dict[str, Any]) -> CustomPattern:
        self.keys(f"{key}.", table, _PATTERN_KEYS)
        for required in ("name", "regex", "label"):
            if required not in table:
                raise self.fail(f"{key}.{required}", "is required")
        name = table["name"]
        if not isinstance(name, str) or _NAME.fullmatch(name) is None:
            raise self.fail(f"{key}.name", "must be a short name of letters, digits, '_', '.' or '-'")
        source = table["regex"]
        if not isinstance(source, str) or not source:
            raise self.fail(f"{key}.regex", "must be a non-empty string")
        ignore_case = table.get("ignore_case", False)
        if not isinstance(ignore_case, bool):
            raise self.fail(f"{key}.ignore_case", "must be true or false")
        try:
            compiled = regex.compile(source, regex.IGNORECASE if ignore_case else 0)
        except regex.error as error:
            raise self.fail(f"{key}.regex", f"does not compile ({error})") from None
        if compiled.search("") is not None:
            raise self.fail(f"{key}.regex", "matches the empty string")
        score = table.get("score", DEFAULT_PATTERN_SCORE)
        if isinstance(score, bool) or not isinstance(score, int | float) or not 0.0 < score <= 1.0:
            raise self.fail(f"{key}.score", "must be a number in (0, 1]")
        validator = table.get("validator")
        if validator is not None and validator not in VALIDATOR_NAMES:
            raise self.fail(f"{key}.validator", f"must be one of {', '.join(VALIDATOR_NAMES)}")
        context = self.strings(f"{key}.context", table.get("context", []))
        return CustomPattern(
            name, source, self.label(f"{key}.label", table["label"]), float(score), validator, context, ignore_case
        )

    def deny(self, key: str, table: dict[str, Any]) -> tuple[Label, tuple[str, ...]]:
        self.keys(f"{key}.", table, ("label", "terms"))
        for required in ("label", "terms"):
            if required not in table:
                raise self.fail(f"{key}.{required}", "is required")
        return self.label(f"{key}.label", table["label"]), self.strings(
            f"{key}.terms", table["terms"], allow_empty=False
        )

    def label(self, key: str, value: object) -> Label:
        if not isinstance(value, str) or value.upper() not in Label.__members__:
            raise self.fail(key, f"must be a label, one of {', '.join(Label.__members__)}")
        return Label[value.upper()]

    def choice(self, key: str, value: object, known: tuple[str, ...]) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or value not in known:
            raise self.fail(key, f"must be one of {', '.join(known)}")
        return value

    def regions(self, key: str, value: object) -> tuple[str, ...] | None:
        if value is None:
            return None
        import phonenumbers

        regions = self.strings(key, value, allow_empty=False)
        for i, region in enumerate(regions):
            if region not in phonenumbers.SUPPORTED_REGIONS:
                raise self.fail(f"{key}[{i}]", "must be a region code phonenumbers knows (ISO 3166, e.g. 'GB')")
        return regions

    def no_conflict(self, allow: tuple[str, ...], deny: tuple[tuple[Label, tuple[str, ...]], ...]) -> None:
        from deident.text.normalise import normalise

        def key(term: str) -> str:
            return " ".join(normalise(term).split())

        allowed = {key(term) for term in allow}
        for i, (_, terms) in enumerate(deny):
            for j, term in enumerate(terms):
                if key(term) in allowed:
                    raise self.fail(f"deny[{i}].terms[{j}]", "is also in allow.terms")


# An entry is matched over whole words, ignoring case and punctuation: it needs two letters or digits at least.
_TOO_SHORT = "must hold at least two letters or digits"


def _long_enough(entry: str) -> bool:
    return sum(c.isalnum() for c in entry) >= 2


def _scheme_names() -> tuple[str, ...]:
    from deident.schemes import SCHEMES

    return tuple(SCHEMES)


def _mode_names() -> tuple[str, ...]:
    from deident.replace.modes import Mode

    return tuple(mode.value for mode in Mode)


def site_config_of(config: str | Path | SiteConfig | None) -> SiteConfig | None:
    """A configuration given as a path (read here) or already read; None stays None."""
    if config is None or isinstance(config, SiteConfig):
        return config
    return load_site_config(config)
