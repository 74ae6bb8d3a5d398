import shutil
from pathlib import Path

import pytest

from deident.core import Category, Document
from deident.core.document import AnnotatedDocument
from deident.core.errors import ConfigurationError
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.crf.train import TrainConfig, train_model
from deident.io import read_corpus
from deident.model.bundle import ModelBundle
from deident.model.manifest import default_model_dir, read_manifest, sha256_file, write_manifest
from deident.pipelines import build_pipeline, rules_pipeline
from tests.detect.crf.synthetic import synthetic_corpus

NOTE = (
    "Pt is a 92 yo man admitted 3/14 from Mercy Hospital. Wife Anna called at 617-555-0199.\n"
    "Dr. Kowalski aware. Lasix 40 mg iv given; Foley in place; BP 120/80."
)


def _covered(text: str, spans) -> set[str]:
    return {text[s.start : s.end] for s in spans}


@pytest.mark.parametrize(
    ("phi", "category"),
    [
        ("3/14", Category.DATE),
        ("617-555-0199", Category.CONTACT),
        ("Kowalski", Category.NAME),
        ("Anna", Category.NAME),
        ("92", Category.AGE),
    ],
)
def test_rules_pipeline_finds_phi(phi, category):
    spans = rules_pipeline("physionet")(Document("n", NOTE))
    hits = [s for s in spans if phi in NOTE[s.start : s.end]]
    assert hits, phi
    assert any(s.category is category for s in hits)


@pytest.mark.parametrize("clinical", ["Lasix", "Foley", "120/80", "40 mg"])
def test_rules_pipeline_keeps_clinical_content(clinical):
    spans = rules_pipeline("physionet")(Document("n", NOTE))
    start = NOTE.index(clinical)
    assert not any(s.start < start + len(clinical) and start < s.end for s in spans)


def test_rules_pipeline_on_fixture_recovers_most_gold(fixtures: Path):
    docs = read_corpus(fixtures / "mini.text")
    pipeline = rules_pipeline("physionet")
    gold = found = 0
    for item in docs:
        predicted = pipeline(item.document)
        covered = {i for s in predicted for i in range(s.start, s.end)}
        for span in item.spans:
            gold += 1
            found += all(i in covered for i in range(span.start, span.end) if not item.text[i].isspace())
    assert found / gold >= 0.8


def test_unknown_pipeline():
    with pytest.raises(ConfigurationError):
        build_pipeline("nope")


def test_crf_pipeline_loads_bundled_model():
    spans = build_pipeline("crf")(Document("n", "SPOKE WITH DR. KOWALSKI ABOUT PLAN. WIFE ANNA AT BEDSIDE."))
    assert all(s.source == "crf" for s in spans)


def test_default_pipeline_uses_bundled_filter_and_scheme():
    pipeline = build_pipeline("default")
    names = pipeline.stage_names
    assert "filter" in names and names[-1] == "scheme.hipaa"
    text = "SPOKE WITH DR. KOWALSKI ABOUT PLAN. WIFE ANNA CALLED 617-555-0199. LASIX 40 MG GIVEN."
    spans = pipeline(Document("n", text))
    covered = {text[s.start : s.end] for s in spans}
    assert any("617-555-0199" in c for c in covered)
    assert not any("LASIX" in c for c in covered)


def test_default_pipeline_ablation_switches():
    names = build_pipeline("default", stage2={"filter": False, "reconcile": True}).stage_names
    assert "filter" not in names
    assert any("reconcil" in n for n in names)


@pytest.mark.parametrize(
    "text",
    [
        "pt resting comfortably, no events overnight. plan: continue current management.",  # no rule spans
        "SPOKE WITH DR. KOWALSKI ABOUT PLAN. WIFE ANNA AT BEDSIDE.",
    ],
)
def test_stage1_crf_reuses_rule_spans_even_when_there_are_none(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pipeline = build_pipeline("stage1")
    crf_stage = next(s for s in pipeline.stages if s.name == "crf")
    document = Document("n", text)
    spans: tuple = ()
    for stage in pipeline.stages[: pipeline.stages.index(crf_stage)]:
        spans = stage(document, spans)
    expected = sorted(crf_stage.model.spans(document, crf_stage.threshold))

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the CRF stage ran the span providers again")

    monkeypatch.setattr(type(crf_stage.model.extractor), "provider_hits", _hits_only(must_not_run))
    found = sorted(s for s in crf_stage(document, spans) if s.source == "crf")
    assert found == expected


def _hits_only(fail):  # provider_hits(document, hits): fine with given hits, fails when it would detect
    from deident.detect.crf.features import FeatureExtractor

    original = FeatureExtractor.provider_hits

    def provider_hits(self, document, hits=None):
        if hits is None:
            fail()
        return original(self, document, hits)

    return provider_hits


class _RecordingModel:
    """Stands in for a CrfModel: records the arguments of spans() and spans_many()."""

    threshold = 0.03

    def __init__(self) -> None:
        self.calls: list[dict[str, object]] = []

    def spans(self, document, threshold=None, hits=None, split_at=None):
        self.calls.append({"threshold": threshold, "split_at": split_at})
        return []

    def spans_many(self, documents, threshold=None, hits=None, split_at=None):
        return [self.spans(document, threshold, None, split_at) for document in documents]


@pytest.mark.parametrize(
    ("threshold", "split_at"),
    [(0.005, 0.03), (None, None), (0.03, None), (0.1, None)],
)
def test_crf_stage_splits_below_the_models_own_threshold(threshold, split_at):
    from deident.detect.crf.tagger import CrfStage

    model = _RecordingModel()
    CrfStage(model, threshold)(Document("d", "x"), ())  # type: ignore[arg-type]
    assert model.calls == [{"threshold": threshold, "split_at": split_at}]


@pytest.mark.parametrize("name", ["rules", "crf", "stage1", "default"])
@pytest.mark.parametrize(("scheme", "expected"), [(None, "scheme.hipaa"), ("physionet", "scheme.physionet")])
def test_every_pipeline_outputs_hipaa_unless_asked_for_another_scheme(
    name: str, scheme: str | None, expected: str
) -> None:
    # The bundled model was trained under physionet: that is its training scheme, not the output's default.
    assert build_pipeline(name, scheme=scheme).stage_names[-1] == expected


MEMBER_WORD = "bilaterally"  # not a clinical veto term, so stage 1 keeps what the member CRF proposes


def _member_tagging_a_word(directory: Path) -> Path:
    """A CRF trained to call MEMBER_WORD a place (what no other detector does), as an ensemble member."""
    docs = []
    for doc in synthetic_corpus(40):
        text = doc.document.text
        size = len(MEMBER_WORD)
        extra = [
            Span(i, i + size, Label.LOCATION_OTHER, "gold") for i in range(len(text)) if text.startswith(MEMBER_WORD, i)
        ]
        docs.append(AnnotatedDocument(doc.document, tuple(sorted((*doc.spans, *extra)))))
    train_model(docs, directory, TrainConfig(max_iterations=40, clusters=0, threshold=0.5))
    return directory


def test_stage1_adds_the_ensemble_members_spans(tmp_path: Path) -> None:
    model = tmp_path / "model"
    shutil.copytree(default_model_dir(), model, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    member = _member_tagging_a_word(model / "second")
    manifest = read_manifest(model)
    manifest.pop("files")
    manifest["ensemble"] = [{"directory": "second", "manifest_sha256": sha256_file(member / "manifest.json")}]
    write_manifest(model, manifest)
    bundle = ModelBundle.read(model)
    doc = Document("d", "Neuro: alert and oriented x3.\nLungs clear bilaterally, sats 97% on 2L.\n")
    word = doc.text.index(MEMBER_WORD)

    def covered(spans: tuple[Span, ...]) -> bool:
        return any(s.start <= word < s.end for s in spans)

    assert not covered(build_pipeline("stage1", default_model_dir())(doc))
    assert covered(build_pipeline("stage1", bundle)(doc))
    assert not covered(build_pipeline("crf", bundle)(doc))  # the CRF pipeline is the main CRF alone
