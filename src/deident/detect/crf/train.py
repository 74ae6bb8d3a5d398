"""Training CRF models into model directories, and patient-grouped cross-validation.

One CRF over all labels, or (Lee 2017) two: quantitative PHI (DATE, AGE, CONTACT, ID) and name-like
PHI (NAME, LOCATION, PROFESSION). With a source corpus, EasyAdapt (Daume 2007) augments every
feature with a general and a domain-specific copy. The threshold on the PHI probability is chosen on
development data when it is given: the highest threshold whose recall reaches ``recall_target``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NotRequired, TypedDict

import pycrfsuite

from deident import __version__
from deident.core.document import AnnotatedDocument, Document, patient_groups, patient_or_note
from deident.core.errors import ConfigurationError
from deident.core.labels import Category, Label
from deident.detect.crf.align import AlignmentReport, spans_to_tags
from deident.detect.crf.clusters import learn_clusters, save_clusters
from deident.detect.crf.features import (
    FEATURE_SET_VERSION,
    FeatureConfig,
    FeatureExtractor,
    SpanProvider,
    easyadapt,
)
from deident.detect.crf.featuresets import NAMELIKE, QUANTITATIVE, feature_filter
from deident.detect.crf.headings import learn_headings, save_headings
from deident.detect.crf.learned import doc_group, learn, save_lexicon, save_triggers, save_vocabulary
from deident.detect.crf.scoring import binary_token_scores, evaluate
from deident.detect.crf.tagger import (
    DEFAULT_THRESHOLD,
    SOURCE_DOMAIN,
    TARGET_DOMAIN,
    CrfModel,
    TaggedDocument,
    spans_from_marginals,
)
from deident.model.bundle import BundleKind
from deident.model.manifest import MANIFEST, corpus_fingerprint, write_manifest

GROUPS: dict[str, frozenset[Category]] = {"quantitative": QUANTITATIVE, "namelike": NAMELIKE}
SWEEP = (0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 0.9)

Progress = Callable[[str], None]


class _TrainedCrf(TypedDict):
    """One trained CRF as the manifest's ``models`` list records it."""

    name: str
    file: str  # relative to the model directory
    labels: list[str]
    feature_set: NotRequired[str]  # split_feature_sets: the group whose features it was trained on


@dataclass(frozen=True)
class TrainConfig:
    """Training options; all of them are recorded in the manifest."""

    features: FeatureConfig = field(default_factory=FeatureConfig)
    split_models: bool = False  # Lee 2017: separate quantitative and name-like CRFs
    c1: float = 0.01
    c2: float = 0.01
    max_iterations: int = 100
    clusters: int = 64  # 0: no word clusters
    threshold: float | None = None  # None: choose on dev data (DEFAULT_THRESHOLD without dev)
    recall_target: float = 0.95

    def as_dict(self) -> dict[str, Any]:
        return {
            "split_models": self.split_models,
            "c1": self.c1,
            "c2": self.c2,
            "max_iterations": self.max_iterations,
            "clusters": self.clusters,
            "recall_target": self.recall_target,
        }


def _quiet(_: str) -> None:
    return None


def _group_labels(docs: Sequence[AnnotatedDocument], categories: frozenset[Category] | None) -> dict[Label, str]:
    labels = {s.label for d in docs for s in d.spans}
    return {lab: lab.value for lab in sorted(labels) if categories is None or lab.category in categories}


_LEARNED_FILES = {"triggers.tsv", "lexicon.tsv", "clusters.tsv", "vocabulary.tsv", "headings.tsv"}
_OWN_FILES = {*_LEARNED_FILES, "MODEL_CARD.md", MANIFEST}


def _prepare_dir(out_dir: Path) -> None:
    if out_dir.exists():
        if not out_dir.is_dir():
            raise ConfigurationError(f"{out_dir}: exists and is not a folder")
        contents = [p for p in out_dir.iterdir() if p.name not in {"__init__.py", "__pycache__"}]
        ours = all(
            p.name in _OWN_FILES or (p.name.startswith("crf.") and p.name.endswith(".crfsuite")) for p in contents
        )
        if contents and not (out_dir / MANIFEST).exists() and not ours:
            raise ConfigurationError(f"{out_dir}: not empty and not a model directory; refusing to overwrite")
        for p in contents:
            if p.is_file() and p.name != "MODEL_CARD.md":
                p.unlink()
    out_dir.mkdir(parents=True, exist_ok=True)


def require_gold_spans(docs: Sequence[AnnotatedDocument], what: str) -> None:
    """A corpus to learn from must hold gold spans: from notes without any, a model learns that nothing is PHI."""
    if docs and not any(doc.spans for doc in docs):
        raise ConfigurationError(
            f"{what}: no gold spans in its {len(docs)} documents; a model trained on it would learn no PHI "
            "(give an annotated corpus: a .phrase beside the .text, spans in JSONL, an i2b2 or BRAT corpus)"
        )


def train_model(
    train_docs: Sequence[AnnotatedDocument],
    out_dir: str | Path,
    config: TrainConfig = TrainConfig(),
    dev_docs: Sequence[AnnotatedDocument] = (),
    source_docs: Sequence[AnnotatedDocument] = (),
    providers: Sequence[SpanProvider] = (),
    progress: Progress = _quiet,
    learn_docs: Sequence[AnnotatedDocument] | None = None,
    mixture: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Train, write the model directory (manifest last) and return the manifest.

    ``learn_docs`` (default: every training and source document) are the notes the learned data
    (triggers, lexicon, vocabulary, clusters) comes from; a training mixture passes its base corpus, so
    that re-identified copies neither fill the lexicon with surrogates nor make a patient's rare words
    common. ``mixture`` (see :class:`deident.detect.crf.mixture.Mixture`) is recorded in the manifest."""
    if not train_docs:
        raise ConfigurationError("no training documents")
    require_gold_spans(train_docs, "the training corpus")
    if config.features.split_feature_sets and not config.split_models:
        raise ConfigurationError(
            "split_feature_sets gives each CRF of --split-models its own features; add --split-models"
        )
    out_dir = Path(out_dir)
    _prepare_dir(out_dir)
    started = time.perf_counter()
    all_docs = [*train_docs, *source_docs]
    learn_from = list(all_docs) if learn_docs is None else list(learn_docs)
    tokenizer = FeatureExtractor(config.features)
    unique = {id(d): d for d in [*all_docs, *learn_from]}
    tokens = {key: tokenizer.tokens(d.text) for key, d in unique.items()}
    learned = learn((d, tokens[id(d)]) for d in learn_from)
    if config.features.learned_headings:
        learned = replace(learned, headings=learn_headings(learn_from))
    clusters: dict[str, int] = {}
    if config.clusters:
        progress(f"learning {config.clusters} word clusters")
        clusters = learn_clusters(([t.text for t in tokens[id(d)]] for d in learn_from), n_clusters=config.clusters)
    extractor = FeatureExtractor(config.features, learned, clusters, tuple(providers))
    files = {
        "triggers": "triggers.tsv",
        "lexicon": "lexicon.tsv",
        "clusters": "clusters.tsv",
        "vocabulary": "vocabulary.tsv",
    }
    save_triggers(learned.triggers, out_dir / files["triggers"])
    save_lexicon(learned.lexicon, out_dir / files["lexicon"])
    save_clusters(clusters, out_dir / files["clusters"])
    save_vocabulary(learned.vocabulary, out_dir / files["vocabulary"])
    if config.features.learned_headings:
        files["headings"] = "headings.tsv"
        save_headings(learned.headings, out_dir / files["headings"])

    progress(f"extracting features of {len(all_docs)} documents")
    domains = [(d, TARGET_DOMAIN) for d in train_docs] + [(d, SOURCE_DOMAIN) for d in source_docs]
    sequences = [extractor.extract(doc.document, tokens[id(doc)], doc_group(doc)) for doc, _ in domains]
    group_specs = list(GROUPS.items()) if config.split_models else [("all", None)]
    models: list[_TrainedCrf] = []
    report = AlignmentReport()
    for group, categories in group_specs:
        label_of = _group_labels(all_docs, categories)
        trainer = pycrfsuite.Trainer(verbose=False)
        trainer.set_params(
            {
                "c1": config.c1,
                "c2": config.c2,
                "max_iterations": config.max_iterations,
                "feature.possible_transitions": True,
            }
        )
        keeps = feature_filter(categories) if config.features.split_feature_sets and categories else None
        for (doc, domain), feats in zip(domains, sequences, strict=True):
            tags, doc_report = spans_to_tags(tokens[id(doc)], doc.spans, label_of)
            if group == group_specs[0][0]:
                report = report + doc_report
            if keeps is not None:
                feats = [[f for f in token if keeps(f)] for token in feats]
            trainer.append(easyadapt(feats, domain) if source_docs else feats, tags)
        name = f"crf.{group}.crfsuite"
        progress(f"training the {group} CRF ({len(label_of)} labels)")
        trainer.train(str(out_dir / name))
        models.append({"name": group, "file": name, "labels": sorted(label_of.values())})
        if keeps is not None:
            models[-1]["feature_set"] = group
    seconds = time.perf_counter() - started

    model = CrfModel(
        extractor, tuple((m["name"], out_dir / m["file"]) for m in models), DEFAULT_THRESHOLD, bool(source_docs)
    )
    threshold = config.threshold if config.threshold is not None else DEFAULT_THRESHOLD
    metrics: dict[str, Any] = {}
    if dev_docs:
        progress(f"tagging {len(dev_docs)} development documents")
        tagged = [model.tag(d.document) for d in dev_docs]
        sweep = threshold_sweep(dev_docs, tagged)
        if config.threshold is None:
            threshold = choose_threshold(sweep, config.recall_target)
        preds = [spans_from_marginals(d.text, t, threshold) for d, t in zip(dev_docs, tagged, strict=True)]
        metrics = {"dev": evaluate(dev_docs, preds), "dev_sweep": sweep, "dev_documents": len(dev_docs)}
    manifest = {
        "kind": BundleKind.CRF.value,
        "deident_version": __version__,
        "feature_set_version": FEATURE_SET_VERSION,
        "features": config.features.as_dict(),
        "training_config": config.as_dict(),
        "labels": sorted({lab for m in models for lab in m["labels"]}),
        "models": models,
        "threshold": threshold,
        "threshold_chosen_on": "dev" if dev_docs and config.threshold is None else "preset",
        "easyadapt": bool(source_docs),
        "providers": list(extractor.provider_names),
        "data_files": files,
        "training_data": {
            "fingerprint": corpus_fingerprint(train_docs),
            "documents": len(train_docs),
            "tokens": sum(len(tokens[id(d)]) for d in train_docs),
            "spans": sum(len(d.spans) for d in train_docs),
            "source_fingerprint": corpus_fingerprint(source_docs) if source_docs else None,
            "source_documents": len(source_docs),
            "alignment": report.as_dict(),
        },
        "learned": {
            "triggers": len(learned.triggers),
            "lexicon": len(learned.lexicon),
            "clusters": len(clusters),
            **({"headings": len(learned.headings)} if config.features.learned_headings else {}),
        },
        "training_seconds": round(seconds, 1),
        "metrics": metrics,
    }
    if mixture is not None or learn_docs is not None:
        training_data: dict[str, Any] = manifest["training_data"]  # type: ignore[assignment]
        training_data["mixture"] = dict(mixture or {})
        training_data["learned_from"] = {"fingerprint": corpus_fingerprint(learn_from), "documents": len(learn_from)}
    return write_manifest(out_dir, manifest)


def threshold_sweep(
    gold: Sequence[AnnotatedDocument], tagged: Sequence[TaggedDocument], thresholds: Sequence[float] = SWEEP
) -> list[dict[str, float]]:
    """Binary token precision/recall at each threshold (the precision-recall trade-off)."""
    rows = []
    for threshold in thresholds:
        preds = [spans_from_marginals(d.text, t, threshold) for d, t in zip(gold, tagged, strict=True)]
        scores = binary_token_scores(gold, preds)
        rows.append({"threshold": threshold, **{k: round(float(v), 4) for k, v in scores.items()}})
    return rows


def choose_threshold(sweep: Sequence[dict[str, float]], recall_target: float) -> float:
    """The highest threshold whose recall reaches the target; else the one with the best F2."""
    reaching = [row for row in sweep if row["recall"] >= recall_target]
    if reaching:
        return float(max(row["threshold"] for row in reaching))
    return float(max(sweep, key=lambda row: (row["f2"], row["threshold"]))["threshold"])


def _note(document: Document) -> str:
    return document.id


def patient_folds(docs: Sequence[AnnotatedDocument], folds: int, group_by: str = "patient") -> list[list[int]]:
    """Document indices per fold; every group (patient, or document) lies in exactly one fold.
    Groups are ordered by a hash of their id and dealt to the fold with the fewest characters."""
    if folds < 2:
        raise ConfigurationError("cross-validation needs at least 2 folds")
    if group_by == "patient":
        key_of: Callable[[Document], str] = patient_or_note
    elif group_by == "document":
        key_of = _note
    else:
        raise ConfigurationError(f"unknown grouping {group_by!r}; use 'patient' or 'document'")
    documents = [doc.document for doc in docs]
    groups = {key_of(documents[g[0]]): g for g in patient_groups(documents, key_of)}
    if len(groups) < folds:
        raise ConfigurationError(f"{len(groups)} groups cannot fill {folds} folds")
    order = sorted(groups, key=lambda k: hashlib.sha256(k.encode()).hexdigest())
    order.sort(key=lambda k: -sum(len(docs[i].text) for i in groups[k]))  # largest first, stable
    sizes = [0] * folds
    out: list[list[int]] = [[] for _ in range(folds)]
    for key in order:
        target = min(range(folds), key=lambda f: (sizes[f], f))
        out[target].extend(groups[key])
        sizes[target] += sum(len(docs[i].text) for i in groups[key])
    return [sorted(f) for f in out]


@dataclass(frozen=True)
class CvResult:
    folds: list[dict[str, Any]]
    pooled: dict[str, Any]
    sweep: list[dict[str, float]]
    threshold: float


def cross_validate(
    docs: Sequence[AnnotatedDocument],
    work_dir: str | Path,
    folds: int = 5,
    group_by: str = "patient",
    config: TrainConfig = TrainConfig(),
    providers: Sequence[SpanProvider] = (),
    progress: Progress = _quiet,
) -> CvResult:
    """Train on k-1 folds, tag the held-out fold; figures per fold and pooled over all folds, and a
    pooled threshold sweep. The threshold is the preset one (no tuning on the test folds)."""
    threshold = config.threshold if config.threshold is not None else DEFAULT_THRESHOLD
    fixed = replace(config, threshold=threshold)
    work_dir = Path(work_dir)
    fold_results = []
    all_gold: list[AnnotatedDocument] = []
    all_tagged: list[TaggedDocument] = []
    for k, test_idx in enumerate(patient_folds(docs, folds, group_by)):
        held = set(test_idx)
        train = [d for i, d in enumerate(docs) if i not in held]
        test = [docs[i] for i in test_idx]
        progress(f"fold {k + 1}/{folds}: training on {len(train)} documents")
        started = time.perf_counter()
        fold_dir = work_dir / f"fold{k + 1}"
        train_model(train, fold_dir, fixed, providers=providers)
        train_seconds = time.perf_counter() - started
        model = CrfModel.load(fold_dir, providers=providers)
        started = time.perf_counter()
        tagged = [model.tag(d.document) for d in test]
        tag_seconds = time.perf_counter() - started
        preds = [spans_from_marginals(d.text, t, threshold) for d, t in zip(test, tagged, strict=True)]
        figures = evaluate(test, preds)
        fold_results.append(
            {
                **figures,
                "fold": k + 1,
                "notes": len(test),
                "gold_spans": sum(len(d.spans) for d in test),
                "train_seconds": round(train_seconds, 1),
                "tag_seconds": round(tag_seconds, 2),
            }
        )
        all_gold.extend(test)
        all_tagged.extend(tagged)
    pooled_preds = [spans_from_marginals(d.text, t, threshold) for d, t in zip(all_gold, all_tagged, strict=True)]
    pooled = evaluate(all_gold, pooled_preds)
    return CvResult(fold_results, pooled, threshold_sweep(all_gold, all_tagged), threshold)
