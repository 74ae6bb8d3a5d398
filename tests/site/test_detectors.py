"""A site configuration changes detection exactly as configured (the rules pipeline, and the default one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deident.api import Deidentifier
from deident.core.document import Document
from deident.core.labels import Label
from deident.core.pipeline import Pipeline
from deident.core.provenance import Confirmation
from deident.core.span import Span
from deident.pipelines import rules_pipeline
from deident.site.config import CustomPattern, SiteConfig, load_site_config
from deident.site.detectors import CONTEXT_BOOST, SiteListDetector, custom_pattern_detector
from tests.site.conftest import SITE_FIXTURE


@pytest.fixture(scope="module")
def with_site(site: SiteConfig) -> Pipeline:
    return rules_pipeline("i2b2-2014", site)


@pytest.fixture(scope="module")
def without_site() -> Pipeline:
    return rules_pipeline("i2b2-2014")


def found(pipeline: Pipeline, text: str) -> set[tuple[str, Label]]:
    return {(text[s.start : s.end], s.label) for s in pipeline(Document("n", text))}


# (note, the span's text, its label): found with the fixture's configuration, not without it.
POSITIVES = [
    ("Anwen Quillfeather reviewed the chart.", "Anwen Quillfeather", Label.DOCTOR),  # clinicians, whole
    ("Okafor agreed to the plan.", "Okafor", Label.DOCTOR),  # clinicians, part of a listed name
    ("Quilfeather reviewed the chart.", "Quilfeather", Label.DOCTOR),  # clinicians, one edit away
    ("Moved to Kestrel Unit overnight.", "Kestrel Unit", Label.DEPARTMENT),  # wards
    ("Seen on larkspur ward.", "larkspur ward", Label.DEPARTMENT),  # wards, another case
    ("Admitted from fenwick infirmary today.", "fenwick infirmary", Label.HOSPITAL),  # facilities
    ("Lives in Little Wittering.", "Little Wittering", Label.CITY),  # places
    ("Letter from Harbourside Care Trust.", "Harbourside Care Trust", Label.ORGANIZATION),  # organisations
    ("marguerite vandersloot came in.", "marguerite vandersloot", Label.PATIENT),  # the patients' file
    ("Record QX-55-1234 updated.", "QX-55-1234", Label.MEDICALRECORD),  # the patients' file, an mrn
    ("Trust no: RX12345674.", "RX12345674", Label.MEDICALRECORD),  # custom pattern, Luhn-valid, context
    ("Ref RX76543214 on file.", "RX76543214", Label.MEDICALRECORD),  # custom pattern, Luhn-valid
    ("Transfer to the Annexe tomorrow.", "the Annexe", Label.HOSPITAL),  # deny list
]


@pytest.mark.parametrize(("text", "phi", "label"), POSITIVES)
def test_configured_phi_is_found(
    with_site: Pipeline, without_site: Pipeline, text: str, phi: str, label: Label
) -> None:
    assert (phi, label) not in found(without_site, text)
    assert (phi, label) in found(with_site, text)


# (note, text that is PHI without the configuration and must not be with it): the allow list.
ALLOWED = [
    ("Bristol stool chart type 4.", "Bristol"),
    ("BRISTOL STOOL CHART: 4", "BRISTOL"),
]


@pytest.mark.parametrize(("text", "word"), ALLOWED)
def test_allowed_phrases_are_not_phi(with_site: Pipeline, without_site: Pipeline, text: str, word: str) -> None:
    assert any(surface == word for surface, _ in found(without_site, text))
    assert all(word not in surface for surface, _ in found(with_site, text))


# Hard negatives: what the configuration must leave as it is.
@pytest.mark.parametrize(
    ("text", "phi", "label"),
    [
        ("Moved to Bristol in May.", "Bristol", Label.CITY),  # "Bristol" outside the allowed phrase stays PHI
        ("Ref RX12345675 on file.", "RX12345675", Label.IDNUM),  # fails the Luhn check: not the trust's number
    ],
)
def test_configuration_leaves_other_phi(with_site: Pipeline, text: str, phi: str, label: Label) -> None:
    assert (phi, label) in found(with_site, text)
    assert (phi, Label.MEDICALRECORD) not in found(with_site, text)


@pytest.mark.parametrize(
    "text",
    [
        "Kestrel seen in the garden.",  # a word of a listed ward alone is no ward
        "Annexe B is closed.",  # "the Annexe" is denied, "Annexe" alone is not
        "Trust no: RX1234567.",  # seven digits: not the pattern's shape
        "Seen in the Infirmery.",  # near misses count for names only, not for a facility's generic word
    ],
)
def test_configuration_adds_nothing_here(with_site: Pipeline, without_site: Pipeline, text: str) -> None:
    assert found(with_site, text) <= found(without_site, text)


def test_whole_entries_are_confirmed_parts_and_near_misses_are_not(site: SiteConfig) -> None:
    detector = SiteListDetector(site.lists)
    text = "Anwen Quillfeather and Okafor; Quilfeather."
    spans = {text[s.start : s.end]: s for s in detector.detect(Document("n", text))}
    assert spans["Anwen Quillfeather"].confirmed is Confirmation.SITE_LIST
    assert spans["Okafor"].confirmed is None and "site:part" in spans["Okafor"].evidence
    assert spans["Quilfeather"].confirmed is None and "fuzzy:1" in spans["Quilfeather"].evidence
    assert all(s.source == "site.lists" for s in spans.values())


def test_fuzzy_matching_can_be_switched_off(site: SiteConfig) -> None:
    detector = SiteListDetector(site.lists, fuzzy=False)
    assert detector.detect(Document("n", "Quilfeather reviewed the chart.")) == []


def pattern(**changes: object) -> CustomPattern:
    fields: dict[str, object] = {"name": "trust", "source": r"\bRX\d{8}\b", "label": Label.MEDICALRECORD}
    return CustomPattern(**(fields | changes))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rule", "text", "score", "confirmed"),
    [
        (pattern(), "Ref RX12345675.", 0.6, None),  # no validator: any match
        (pattern(validator="luhn"), "Ref RX12345674.", 0.6, Confirmation.CHECKSUM),
        (pattern(validator="luhn"), "Ref RX12345675.", None, None),  # fails the check: dropped
        (pattern(context=("trust no",)), "Trust no RX12345675.", 0.6 + CONTEXT_BOOST, None),
        (pattern(context=("trust no",)), "TRUST NO. RX12345675.", 0.6 + CONTEXT_BOOST, None),
        (pattern(context=("trust no",)), "Trust no longer holds RX12345675.", 0.6 + CONTEXT_BOOST, None),
        (pattern(context=("trust no",)), "Trust number RX12345675.", 0.6, None),  # a whole context phrase only
        (pattern(source=r"\b\d{4} \d{3} \d{4}\b", validator="phone"), "Call 0161 496 0000.", 0.6, Confirmation.PHONE),
        (pattern(source=r"\b\d{4} \d{3} \d{4}\b", validator="phone"), "Call 0000 000 0000.", None, None),
        (pattern(source=r"\brx\d{8}\b"), "Ref RX12345675.", None, None),  # case-sensitive by default
        (pattern(source=r"\brx\d{8}\b", ignore_case=True), "Ref RX12345675.", 0.6, None),
    ],
)
def test_custom_patterns(rule: CustomPattern, text: str, score: float | None, confirmed: Confirmation | None) -> None:
    spans = custom_pattern_detector((rule,), ("GB",)).detect(Document("n", text))
    if score is None:
        assert spans == []
        return
    (span,) = spans
    assert (span.label, span.source, span.confirmed) == (Label.MEDICALRECORD, "site.patterns", confirmed)
    assert span.score == pytest.approx(score)


def test_phone_regions_come_from_the_configuration(tmp_path: Path) -> None:
    config = tmp_path / "site.toml"
    config.write_text('[defaults]\nphone_regions = ["FR"]\n', encoding="utf-8")
    text = "Tel 0612 345 678."  # a valid French number, of possible length only in the default regions

    def phones(pipeline: Pipeline) -> list[tuple[str, Confirmation | None]]:
        return [(text[s.start : s.end], s.confirmed) for s in pipeline(Document("n", text)) if s.label is Label.PHONE]

    assert phones(rules_pipeline("i2b2-2014", load_site_config(config))) == [("0612 345 678", Confirmation.PHONE)]
    assert phones(rules_pipeline("i2b2-2014")) == [("0612 345 678", None)]


@pytest.fixture(scope="module")
def default_with_site() -> Deidentifier:
    return Deidentifier.load(config=SITE_FIXTURE)


@pytest.mark.parametrize(
    ("text", "phi", "label"),
    [
        ("Anwen Quillfeather reviewed the chart.", "Anwen Quillfeather", Label.DOCTOR),
        ("Moved to Kestrel Unit overnight.", "Kestrel Unit", Label.DEPARTMENT),
        ("Letter from Harbourside Care Trust.", "Harbourside Care Trust", Label.ORGANIZATION),
        ("Trust no: RX12345674.", "RX12345674", Label.MEDICALRECORD),
        ("Transfer to the Annexe tomorrow.", "the Annexe", Label.HOSPITAL),
    ],
)
def test_default_pipeline_keeps_the_sites_phi(
    default_with_site: Deidentifier, text: str, phi: str, label: Label
) -> None:
    spans = default_with_site.detect(text)
    assert (phi, label) in {(text[s.start : s.end], s.label) for s in spans}


def test_default_pipeline_drops_allowed_phrases(default_with_site: Deidentifier) -> None:
    text = "Bristol stool chart type 4. Moved to Bristol in May."
    spans: tuple[Span, ...] = default_with_site.detect(text)
    assert [text[s.start : s.end] for s in spans if "Bristol" in text[s.start : s.end]] == ["Bristol"]
    assert all(s.start > 10 for s in spans if "Bristol" in text[s.start : s.end])
    assert default_with_site.site is not None and default_with_site.site.sha256
