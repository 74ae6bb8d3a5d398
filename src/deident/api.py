"""The Python API: one :class:`Deidentifier` facade that the CLI, the REST service and Spark call.

deid = Deidentifier.load()                       # bundled default pipeline
spans = deid.detect("Seen by Dr. Kowalski on 3/14.")
spans_per_note = deid.detect_many(documents)     # a patient's notes reconciled together
result = deid.deidentify(text, patient_id="17", mode="surrogate", key=SecretKey.from_file("key"))
result.text, result.spans                        # new text, spans of the replacements in it
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from deident.core.document import Document, DocumentMetadata
from deident.core.errors import ConfigurationError, NoteTooLargeError
from deident.core.heap import collection_paused, collection_paused_while_loading
from deident.core.pipeline import Pipeline
from deident.core.span import Span
from deident.model.operating_point import OperatingPoint, operating_point
from deident.pipelines import MODEL_PIPELINES, build_pipeline, read_bundle
from deident.replace import Mode, ReplaceOptions, Replacer, SecretKey
from deident.schemes import output_scheme
from deident.site.config import SiteConfig, site_config_of
from deident.text.visible import VisibleText, visible_view


@dataclass(frozen=True)
class Deidentified:
    """The de-identified text, the spans of the replacements in it, and the spans that were
    replaced (offsets into the original text; overlaps already resolved)."""

    text: str = field(repr=False)
    spans: tuple[Span, ...]
    detected: tuple[Span, ...]

    def __repr__(self) -> str:
        return f"Deidentified(chars={len(self.text)}, spans={len(self.spans)})"


@dataclass(frozen=True)
class Deidentifier:
    """Detects PHI with a pipeline and replaces it according to ``options``.

    ``pipeline`` may be None for a deidentifier that only replaces spans it is given.
    """

    pipeline: Pipeline | None
    options: ReplaceOptions = field(default_factory=ReplaceOptions)
    model_id: str = "none"
    recall_target: float | None = None
    # The span filter's thresholds and the recall and precision expected there (default pipeline only).
    operating_point: OperatingPoint | None = None
    # The longest note detection accepts (NoteTooLargeError beyond it); None: no limit.
    max_note_chars: int | None = None
    # The site configuration the pipeline was built with (deident.site), if any.
    site: SiteConfig | None = None
    # The PHI convention of the output (deident.schemes); None: no detection pipeline.
    scheme: str | None = None

    @classmethod
    def load(
        cls,
        model: str | Path | None = None,
        pipeline: str = "default",
        *,
        recall_target: float | None = None,
        scheme: str | None = None,
        options: ReplaceOptions | None = None,
        stage2: dict[str, bool] | None = None,
        preload: bool = True,
        max_note_chars: int | None = None,
        config: str | Path | SiteConfig | None = None,
    ) -> Deidentifier:
        """The bundled default model, or the model directory ``model``; ``scheme`` names the PHI
        convention of the output (default: the site configuration's, else ``hipaa``, see
        :func:`deident.schemes.output_scheme`; a model's training scheme never decides it); ``config`` is a site
        configuration file (or one already read, see :mod:`deident.site`): its lists, patterns, allow and deny lists
        and phone regions join the pipeline, and its mode is the default mode when ``options`` is not given.

        ``preload`` builds what is otherwise built on first use (lexicon automata, the fuzzy name index, word
        frequencies, drug names, the CRF's compiled tables and kernels, the pattern plans and tables; about
        0.6 s) now, by loading the tables and running the pipeline once on a short synthetic note, so that
        the first notes, or a service's first request, do not pay for them (the start-up is the same)."""
        model_dir = Path(model) if model is not None else None
        site = site_config_of(config)
        if options is None and site is not None and site.mode is not None:
            options = ReplaceOptions(mode=Mode.parse(site.mode))
        with collection_paused_while_loading():
            # The model directory is read and verified once, here; every component gets its part of it.
            bundle = None if pipeline not in MODEL_PIPELINES else read_bundle(model_dir)
            chosen_scheme = output_scheme(scheme, None if site is None else site.scheme)
            built = build_pipeline(
                pipeline,
                bundle or model_dir,
                scheme=chosen_scheme,
                recall_target=recall_target,
                stage2=stage2,
                site=site,
            )
            if preload:
                if pipeline != "crf":
                    from deident.detect.lexicon import preload as preload_lexicons
                    from deident.detect.patterns import preload as preload_pattern_tables

                    preload_lexicons()
                    preload_pattern_tables()
                built(Document("warm-up", _WARM_UP))
        model_id = f"{pipeline}:{model_dir.name if model_dir is not None else 'bundled'}"
        point = None
        if bundle is not None and pipeline == "default" and (stage2 or {}).get("filter", True):
            point = operating_point(bundle, recall_target, chosen_scheme)
        return cls(
            built, options or ReplaceOptions(), model_id, recall_target, point, max_note_chars, site, chosen_scheme
        )

    def with_options(self, options: ReplaceOptions) -> Deidentifier:
        return replace(self, options=options)

    def detect(self, text: str | Document, patient_id: str | None = None) -> tuple[Span, ...]:
        """PHI spans of a text or document (detected in its visible text, see :meth:`detect_many`)."""
        if self.pipeline is None:
            raise ConfigurationError("this deidentifier has no detection pipeline; give it spans to replace")
        document = _as_document(text, patient_id)
        self._check_sizes((document,))
        view = visible_view(document.text)
        if view is None:
            return self.pipeline(document)
        return _original_spans(self.pipeline(replace(document, text=view.text)), view)

    def detect_many(self, documents: Sequence[Document], board_handles: Iterable[str] = ()) -> list[tuple[Span, ...]]:
        """PHI spans of documents processed together, in order.

        Group stages see them all: reconciliation works across the notes of each patient
        (``patient_id``) among them; notes without a patient id are reconciled alone.

        The handle of every note's author (``metadata.author``), and the further ``board_handles``, are sought in
        each of the notes with their variants (Benton's "all users" list: a board's posters answer each other).

        Detection runs on each note's visible text (:mod:`deident.text.visible`: invisible characters skipped, Unicode
        digits read as digits), and the spans are mapped back to the original offsets, covering the invisible
        characters inside a value; a note without such characters is detected as it is.
        """
        if self.pipeline is None:
            raise ConfigurationError("this deidentifier has no detection pipeline; give it spans to replace")
        self._check_sizes(documents)
        documents = with_board_handles(documents, board_handles)
        views = [visible_view(document.text) for document in documents]
        if all(view is None for view in views):
            return self.pipeline.run_many(documents)
        visible = [d if v is None else replace(d, text=v.text) for d, v in zip(documents, views, strict=True)]
        found = self.pipeline.run_many(visible)
        return [s if v is None else _original_spans(s, v) for s, v in zip(found, views, strict=True)]

    def deidentify(
        self,
        text: str | Document,
        patient_id: str | None = None,
        *,
        mode: Mode | str | None = None,
        key: SecretKey | str | Path | None = None,
        spans: Sequence[Span] | None = None,
    ) -> Deidentified:
        """Detect (unless ``spans`` are given) and replace PHI in one text or document.

        ``mode`` and ``key`` override the deidentifier's options; ``key`` may be a key file path.
        """
        document = _as_document(text, patient_id)
        return self.deidentify_many([document], None if spans is None else [spans], mode=mode, key=key)[0]

    def deidentify_many(
        self,
        documents: Sequence[Document],
        spans: Sequence[Sequence[Span]] | None = None,
        *,
        mode: Mode | str | None = None,
        key: SecretKey | str | Path | None = None,
        board_handles: Iterable[str] = (),
    ) -> list[Deidentified]:
        """De-identify several documents; notes of one patient are detected together (:meth:`detect_many`, which
        also seeks every note's author and the ``board_handles`` in all of them) and share surrogates and a date
        shift."""
        if spans is not None and len(spans) != len(documents):
            raise ValueError("give one span sequence per document")
        found = [tuple(s) for s in spans] if spans is not None else self.detect_many(documents, board_handles)
        replacer = Replacer(self._options(mode, key))
        with collection_paused(max((len(d.text) for d in documents), default=0)):  # a large note (core.heap)
            results = replacer.replace_many(list(zip(documents, found, strict=True)))
            return [Deidentified(r.text, r.spans, r.detected) for r in results]

    def _check_sizes(self, documents: Sequence[Document]) -> None:
        """Refuse a note over :attr:`max_note_chars` before any work starts (detection is near-linear, but a note of
        gigabytes is a mistake: a whole export in one cell)."""
        limit = self.max_note_chars
        if limit is not None:
            for document in documents:
                if len(document.text) > limit:
                    raise NoteTooLargeError(document.id, len(document.text), limit)

    def _options(self, mode: Mode | str | None, key: SecretKey | str | Path | None) -> ReplaceOptions:
        if mode is None and key is None:
            return self.options
        new_mode = self.options.mode if mode is None else Mode.parse(mode)
        new_key = self.options.key
        if key is not None:
            new_key = key if isinstance(key, SecretKey) else SecretKey.from_file(key)
        return replace(self.options, mode=new_mode, key=new_key)


# The per-note limit of `deident run` and `detect` (--max-note-chars): a megabyte note takes seconds.
DEFAULT_MAX_NOTE_CHARS = 2_000_000

# A synthetic note (no real person) that wakes every stage: a title and name, a date, a place.
_WARM_UP = "Seen by Dr. Kowalski on 3/14/2019 at Mercy Hospital; call 617-555-0143. Pt is 67 yo."


def _original_spans(spans: tuple[Span, ...], view: VisibleText) -> tuple[Span, ...]:
    """Spans found in ``view``'s text at their original offsets, their parts' too (the map keeps their order)."""
    out = []
    for span in spans:
        start, end = view.original(span.start, span.end)
        parts = tuple(replace(p, start=a, end=b) for p in span.parts for a, b in (view.original(p.start, p.end),))
        out.append(replace(span, start=start, end=end, parts=parts))
    return tuple(out)


def with_board_handles(documents: Sequence[Document], extra: Iterable[str] = ()) -> Sequence[Document]:
    """The documents, each carrying the handles of all their authors and ``extra`` (``metadata.board_handles``), so
    that the username detector seeks every poster of the batch in every note; unchanged when there are none."""
    handles = tuple(sorted({h for h in extra if h} | {d.metadata.author for d in documents if d.metadata.author}))
    if not handles:
        return documents
    return [replace(d, metadata=replace(d.metadata, board_handles=handles)) for d in documents]


def _as_document(text: str | Document, patient_id: str | None) -> Document:
    if isinstance(text, Document):
        return text
    return Document("text", text, DocumentMetadata(patient_id=patient_id))
