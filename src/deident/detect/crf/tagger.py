"""Tagging with trained CRF models: token marginals, thresholded spans, the ``crf`` stage.

A span is proposed over each run of tokens whose PHI probability ``1 - P(O)`` exceeds the model's
threshold (Benton 2010 used 0.05); its label is the label with the largest summed marginal over
the run, its score the largest PHI probability in it, and its evidence ``crf:p=0.93``.

Tagging computes the marginals from the CRFs' weights (:mod:`deident.detect.crf.compiled`, no feature
strings); :func:`tag_reference` hands every feature string to crfsuite and is kept to check it against.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import pycrfsuite

from deident.core.document import Document
from deident.core.errors import ModelError
from deident.core.labels import Label
from deident.core.span import Span, sort_spans
from deident.detect.crf.align import OUTSIDE, gap_joins, split_tag
from deident.detect.crf.clusters import load_clusters
from deident.detect.crf.compiled import (
    CompiledCrf,
    DocumentMarginals,
    NotCompilable,
    TokenColumns,
    compile_model,
    group_label_matrix,
)
from deident.detect.crf.features import (
    FEATURE_SET_VERSION,
    CrfToken,
    FeatureConfig,
    FeatureExtractor,
    SpanProvider,
    easyadapt,
)
from deident.detect.crf.headings import load_headings
from deident.detect.crf.learned import LearnedData, load_lexicon, load_triggers, load_vocabulary
from deident.model.bundle import CrfSpec, ModelBundle

TARGET_DOMAIN = "tgt"
SOURCE_DOMAIN = "src"
DEFAULT_THRESHOLD = 0.05
# Tokens below this PHI probability never matter for any threshold we sweep; skip their marginals.
_FLOOR = 0.001


@dataclass(frozen=True)
class GroupMarginals:
    """One CRF's output for one document: PHI probability per token, and for tokens above the
    floor the probability of each label (B and I summed)."""

    phi: tuple[float, ...]
    labels: Mapping[int, Mapping[str, float]]


@dataclass(frozen=True)
class TaggedDocument:
    tokens: tuple[CrfToken, ...]
    groups: tuple[GroupMarginals, ...]


def spans_from_marginals(
    text: str, tagged: TaggedDocument, threshold: float, source: str = "crf", split_at: float | None = None
) -> list[Span]:
    """Thresholded spans from precomputed marginals (so a threshold sweep needs one tagging)."""
    spans: list[Span] = []
    for group in tagged.groups:
        selected = [i for i, p in enumerate(group.phi) if p > threshold]
        spans.extend(_group_spans(text, tagged.tokens, group.phi, group.labels, selected, source, split_at))
    return list(sort_spans(spans))


def _group_spans(
    text: str,
    tokens: Sequence[CrfToken],
    phi: Sequence[float] | np.ndarray,
    labels: Mapping[int, Mapping[str, float]],
    selected: Sequence[int],
    source: str,
    split_at: float | None = None,
) -> list[Span]:
    """One CRF's spans: a run of selected tokens (ascending indices) separated only by spaces or tabs
    is one span. With ``split_at``, a run is also cut where the tokens' PHI probability crosses it, so
    that a confident core and its tentative fringe ("Dr. SMITH aware") are separate candidates."""
    # Offsets as plain lists: the compiled path's tokens are columns, and building a token per look-up costs more
    # than the rest of the loop.
    if isinstance(tokens, TokenColumns):
        starts, ends = tokens.starts, tokens.ends
    else:
        starts, ends = [t.start for t in tokens], [t.end for t in tokens]
    found: list[tuple[int, int]] = []
    first = previous = -2
    for i in selected:
        if (
            i == previous + 1
            and (split_at is None or (phi[i] > split_at) == (phi[previous] > split_at))
            and gap_joins(text, ends[previous], starts[i])
        ):
            previous = i
            continue
        if first >= 0:
            found.append((first, previous))
        first = previous = i
    if first >= 0:
        found.append((first, previous))
    spans: list[Span] = []
    for first, last in found:
        totals: dict[str, float] = {}
        for i in range(first, last + 1):
            for label, prob in labels.get(i, {}).items():
                totals[label] = totals.get(label, 0.0) + prob
        if not totals:
            continue
        label = max(sorted(totals), key=totals.__getitem__)
        probs = list(phi[first : last + 1])
        peak = max(probs)
        mean = sum(probs) / len(probs)
        spans.append(
            Span(
                starts[first],
                ends[last],
                Label(label),
                source,
                round(peak, 4),
                (f"crf:p={peak:.2f}", f"crf:mean={mean:.2f}"),
            )
        )
    return spans


@dataclass(frozen=True, eq=False)
class CrfModel:
    """Trained CRF(s) with their feature extractor and threshold."""

    extractor: FeatureExtractor
    model_files: tuple[tuple[str, Path], ...]  # (group name, .crfsuite file)
    threshold: float = DEFAULT_THRESHOLD
    easyadapt: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "_local", threading.local())

    @classmethod
    def load(
        cls,
        model_dir: str | Path,
        providers: Sequence[SpanProvider] | None = None,
        resolve_provider: Callable[[str], SpanProvider] | None = None,
    ) -> CrfModel:
        """Load and verify a model directory (see :meth:`from_spec`)."""
        return cls.from_spec(ModelBundle.read(model_dir).crf, providers, resolve_provider)

    @classmethod
    def from_spec(
        cls,
        spec: CrfSpec,
        providers: Sequence[SpanProvider] | None = None,
        resolve_provider: Callable[[str], SpanProvider] | None = None,
    ) -> CrfModel:
        """The CRF part of a verified model bundle. Span providers it names must be given (``providers``)
        or found (``resolve_provider``, default: the pattern and lexicon detectors)."""
        if spec.feature_set_version != FEATURE_SET_VERSION:
            raise ModelError(
                f"{spec.directory}: feature set version {spec.feature_set_version!r}; "
                f"this deident computes version {FEATURE_SET_VERSION}; retrain the model"
            )
        if spec.features.get("tfidf"):
            # Benton's tf-idf rank was removed: it did not help on physionet-val or forum-style notes (issue 18).
            raise ModelError(f"{spec.directory}: trained with the removed tf-idf feature; retrain the model")
        files = spec.data_files
        vocabulary = load_vocabulary(files["vocabulary"]) if "vocabulary" in files else frozenset()
        features = FeatureConfig.from_dict(spec.features)
        if features.learned_headings and "headings" not in files:
            raise ModelError(f"{spec.directory}: trained with learned headings but the manifest names no headings file")
        headings = load_headings(files["headings"]) if features.learned_headings else ()
        learned = LearnedData(
            load_triggers(files["triggers"]), load_lexicon(files["lexicon"]), vocabulary=vocabulary, headings=headings
        )
        clusters = load_clusters(files["clusters"])
        given = {p.name: p for p in providers or ()}
        finder = resolve_provider or find_provider
        chosen = tuple(given[name] if name in given else finder(name) for name in spec.providers)
        extractor = FeatureExtractor(features, learned, clusters, chosen)
        threshold = DEFAULT_THRESHOLD if spec.threshold is None else spec.threshold
        return cls(extractor, tuple((m.name, m.path) for m in spec.models), threshold, spec.easyadapt)

    def _taggers(self) -> list[tuple[pycrfsuite.Tagger, list[tuple[str, str]], bool]]:
        # One set of taggers per thread: a crfsuite tagger holds the sequence it is tagging.
        local = self._local  # type: ignore[attr-defined]
        taggers = getattr(local, "taggers", None)
        if taggers is None:
            taggers = []
            for _, path in self.model_files:
                tagger = pycrfsuite.Tagger()
                try:
                    tagger.open(str(path))
                except Exception:
                    raise ModelError(f"{path}: cannot open the CRF model file") from None
                names = tagger.labels()
                tags = [(tag, split_tag(tag)[1] or "") for tag in names if tag != OUTSIDE]
                taggers.append((tagger, tags, OUTSIDE in names))
            local.taggers = taggers
        return taggers

    def known_attributes(self) -> frozenset[str]:
        """Every attribute (feature string) that has a weight in at least one of the model's CRFs."""
        cached: frozenset[str] | None = getattr(self._local, "known", None)  # type: ignore[attr-defined]
        if cached is None:
            cached = frozenset().union(*(model_attributes(path) for _, path in self.model_files))
            self._local.known = cached  # type: ignore[attr-defined]
        return cached

    def _tagging_extractor(self) -> FeatureExtractor:
        """The extractor with ``keep`` set to the model's attributes (built once, memo per word type)."""
        extractor: FeatureExtractor | None = getattr(self, "_kept_extractor", None)
        if extractor is None:
            extractor = replace(self.extractor, keep=self.known_attributes())
            object.__setattr__(self, "_kept_extractor", extractor)
        return extractor

    def _compiled(self) -> CompiledTagging | None:
        """The compiled form of the CRFs (built once; None where the model cannot be compiled)."""
        compiled: CompiledTagging | bool | None = getattr(self, "_compiled_form", False)
        if compiled is False:
            with _COMPILE_LOCK:
                compiled = getattr(self, "_compiled_form", False)
                if compiled is False:
                    compiled = CompiledTagging.build(self)
                    object.__setattr__(self, "_compiled_form", compiled)
        return compiled  # type: ignore[return-value]

    def tag(
        self,
        document: Document,
        floor: float = _FLOOR,
        hits: Iterable[Span] | None = None,
    ) -> TaggedDocument:
        """Marginals for a document; per-label probabilities only for tokens above ``floor``.

        ``hits``: the span providers' spans if already found (see :meth:`FeatureExtractor.extract`).
        Computed from the CRFs' weights (:mod:`deident.detect.crf.compiled`); equal to crfsuite's
        marginals (:func:`tag_reference`) up to floating-point rounding.
        """
        compiled = self._compiled()
        if compiled is None:
            return self._tag_crfsuite(document, floor, hits)
        result = compiled.crf.marginals(document, hits)
        groups = tuple(GroupMarginals(tuple(phi.tolist()), labels) for phi, _, labels in compiled.above(result, floor))
        return TaggedDocument(tuple(result.tokens.tokens()), groups)

    def _tag_crfsuite(
        self,
        document: Document,
        floor: float = _FLOOR,
        hits: Iterable[Span] | None = None,
    ) -> TaggedDocument:
        """:meth:`tag` through crfsuite (for models the compiled path cannot take)."""
        tokens = self.extractor.tokens(document.text)
        if not tokens:
            return TaggedDocument((), tuple(GroupMarginals((), {}) for _ in self.model_files))
        taggers = self._taggers()
        # crfsuite drops attributes that are not in its dictionary and keeps the others in order, so
        # leaving them out here gives the same scores; converting once for all CRFs saves the rest.
        known = self.known_attributes()
        if self.easyadapt:
            features = easyadapt(self.extractor.extract(document, tokens, hits=hits), TARGET_DOMAIN)
            features = [[f for f in feats if f in known] for feats in features]
        else:
            features = self._tagging_extractor().extract(document, tokens, hits=hits)
        sequence = pycrfsuite.ItemSequence(features)
        groups: list[GroupMarginals] = []
        for tagger, tags, has_outside in taggers:
            tagger.set(sequence)
            marginal = tagger.marginal
            phi = tuple(1.0 - marginal(OUTSIDE, t) if has_outside else 0.0 for t in range(len(tokens)))
            per_label: dict[int, dict[str, float]] = {}
            for t, p in enumerate(phi):
                if p > floor:
                    probs: dict[str, float] = {}
                    for tag, label in tags:
                        probs[label] = probs.get(label, 0.0) + marginal(tag, t)
                    per_label[t] = probs
            groups.append(GroupMarginals(phi, per_label))
        return TaggedDocument(tuple(tokens), tuple(groups))

    def spans(
        self,
        document: Document,
        threshold: float | None = None,
        hits: Iterable[Span] | None = None,
        split_at: float | None = None,
    ) -> list[Span]:
        """Spans of tokens whose PHI probability exceeds ``threshold`` (default: the model's), cut
        where the probability crosses ``split_at`` when given."""
        return self.spans_many([document], threshold, [hits], split_at)[0]

    def spans_many(
        self,
        documents: Sequence[Document],
        threshold: float | None = None,
        hits: Sequence[Iterable[Span] | None] | None = None,
        split_at: float | None = None,
    ) -> list[list[Span]]:
        """:meth:`spans` of each document (``hits``: one per document, default none), tagged
        together where the kernels gain by it (the numpy kernels, used without numba)."""
        limit = self.threshold if threshold is None else threshold
        hits = [None] * len(documents) if hits is None else hits
        compiled = self._compiled()
        if compiled is None:
            tagged = [self._tag_crfsuite(d, limit, h) for d, h in zip(documents, hits, strict=True)]
            pairs = zip(documents, tagged, strict=True)
            return [spans_from_marginals(d.text, t, limit, split_at=split_at) for d, t in pairs]
        out: list[list[Span]] = []
        for document, result in zip(documents, compiled.crf.marginals_many(documents, hits), strict=True):
            # As spans_from_marginals(text, tag(...)), without building what the spans do not need.
            spans: list[Span] = []
            for phi, selected, labels in compiled.above(result, limit):
                if selected:
                    spans.extend(_group_spans(document.text, result.tokens, phi, labels, selected, "crf", split_at))
            out.append(list(sort_spans(spans)))
        return out


_COMPILE_LOCK = threading.Lock()


@dataclass(frozen=True)
class CompiledTagging:
    """A model's compiled CRFs and, per CRF, (column of O, label names, tag-to-label sum matrix)."""

    crf: CompiledCrf
    groups: tuple[tuple[int | None, tuple[str, ...], np.ndarray], ...]

    @classmethod
    def build(cls, model: CrfModel) -> CompiledTagging | None:
        try:
            crf = compile_model(model.extractor, [path for _, path in model.model_files], model.easyadapt)
        except NotCompilable:
            return None
        return cls(crf, tuple(group_label_matrix(w.labels) for w in crf.weights))

    def above(
        self, result: DocumentMarginals, floor: float
    ) -> list[tuple[np.ndarray, list[int], dict[int, dict[str, float]]]]:
        """Per CRF: the PHI probability of each token (1 - P(O)), the tokens above ``floor``, and for those
        the probability of each label (its B and I tags summed)."""
        out: list[tuple[np.ndarray, list[int], dict[int, dict[str, float]]]] = []
        for matrix, (outside, names, sum_tags) in zip(result.marginals, self.groups, strict=True):
            phi = 1.0 - matrix[:, outside] if outside is not None else np.zeros(len(matrix))
            selected = np.flatnonzero(phi > floor).tolist()
            if not selected:  # most notes, for some CRF: nothing to sum
                out.append((phi, selected, {}))
                continue
            sums = (matrix[selected] @ sum_tags).tolist()
            out.append(
                (phi, selected, {t: dict(zip(names, row, strict=True)) for t, row in zip(selected, sums, strict=True)})
            )
        return out


def tag_reference(model: CrfModel, document: Document, floor: float = _FLOOR) -> TaggedDocument:
    """:meth:`CrfModel.tag` the plain way (providers run here, every feature string handed to each
    CRF, every label's marginal asked for): slow, kept to check the fast path against."""
    tokens = model.extractor.tokens(document.text)
    if not tokens:
        return TaggedDocument((), tuple(GroupMarginals((), {}) for _ in model.model_files))
    features = model.extractor.extract(document, tokens)
    if model.easyadapt:
        features = easyadapt(features, TARGET_DOMAIN)
    groups: list[GroupMarginals] = []
    for _, path in model.model_files:
        tagger = pycrfsuite.Tagger()
        tagger.open(str(path))
        tagger.set(features)
        names = tagger.labels()
        phi: list[float] = []
        per_label: dict[int, dict[str, float]] = {}
        for t in range(len(tokens)):
            marginals = {tag: tagger.marginal(tag, t) for tag in names}
            p = 1.0 - marginals[OUTSIDE] if OUTSIDE in marginals else 0.0
            phi.append(p)
            if p > floor:
                probs: dict[str, float] = {}
                for tag in names:
                    if tag != OUTSIDE:
                        label = split_tag(tag)[1] or ""
                        probs[label] = probs.get(label, 0.0) + marginals[tag]
                per_label[t] = probs
        tagger.close()
        groups.append(GroupMarginals(tuple(phi), per_label))
    return TaggedDocument(tuple(tokens), tuple(groups))


@lru_cache(maxsize=16)
def _attributes_of(path: str, size: int, mtime_ns: int) -> frozenset[str]:
    tagger = pycrfsuite.Tagger()
    tagger.open(path)
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "model.txt"
        tagger.dump(str(dump))
        tagger.close()
        attributes: set[str] = set()
        in_section = False
        with dump.open(encoding="utf-8", errors="surrogateescape") as lines:
            for line in lines:
                if not in_section:
                    in_section = line.startswith("ATTRIBUTES = {")
                    continue
                if line.startswith("}"):
                    break
                attributes.add(line.rstrip("\n").split(": ", 1)[1])  # "      12: w=pt"
    if not attributes:
        raise ModelError(f"{path}: the CRF model dump lists no attributes")
    return frozenset(attributes)


def model_attributes(path: Path) -> frozenset[str]:
    """The attribute dictionary of a crfsuite model file (from its text dump): the only feature
    strings the tagger does not drop."""
    stat = path.stat()
    return _attributes_of(str(path), stat.st_size, stat.st_mtime_ns)


def find_provider(name: str) -> SpanProvider:
    """A span provider by name among the pattern and lexicon detectors (when those packages exist)."""
    for provider in available_providers():
        if provider.name == name:
            return provider
    raise ModelError(f"the model uses span provider {name!r}, which this installation does not have")


def available_providers() -> tuple[SpanProvider, ...]:
    """The pattern and lexicon detectors, if their packages are installed and import cleanly."""
    found: list[SpanProvider] = []
    try:
        from deident.detect.patterns import pattern_detectors

        found.extend(pattern_detectors())
    except ImportError:
        pass
    try:
        from deident.detect.lexicon import lexicon_detectors

        found.extend(lexicon_detectors())
    except ImportError:
        pass
    return tuple(found)


@dataclass(frozen=True, eq=False)
class CrfStage:
    """The CRF as a pipeline stage: the spans so far plus the CRF's spans at ``threshold`` (``None``: the
    model's own).

    With ``after_rules`` the pattern and lexicon spans found by the earlier stages serve as the CRF's
    provider-hit features (matched by source; none found is an answer too), so the rules do not run
    twice; otherwise the model runs its providers itself. The two agree when the stages before ran the
    model's providers, with the same settings, and removed none of their spans. Below the model's own
    threshold, spans are cut where the probability crosses it: a tentative word beside a confident name
    is a candidate of its own, so that the span filter judges it alone instead of letting it ride along.
    """

    model: CrfModel
    threshold: float | None = None
    after_rules: bool = False
    name: str = "crf"

    def __call__(self, document: Document, spans: tuple[Span, ...]) -> tuple[Span, ...]:
        return self.run_block([document], [spans])[0]

    def run_block(self, documents: Sequence[Document], spans: Sequence[tuple[Span, ...]]) -> list[tuple[Span, ...]]:
        """:meth:`__call__` of each document, tagged together (see :meth:`CrfModel.spans_many`)."""
        own = self.model.threshold
        split_at = own if self.threshold is not None and self.threshold < own else None
        hits = list(spans) if self.after_rules else None
        found = self.model.spans_many(documents, threshold=self.threshold, hits=hits, split_at=split_at)
        return [sort_spans((*before, *new)) for before, new in zip(spans, found, strict=True)]
