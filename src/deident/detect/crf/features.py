"""CRF features per token: the union of Benton, Sibanda, Szarvas and Lee.

Everything that depends only on a token's text (case class, shapes, affixes, frequency band, word
cluster, learned-lexicon membership, the strings it contributes to its neighbours' windows) is
computed once per distinct token text and memoised; a document then costs one pass that joins
those tuples with the few features that depend on position (bigrams, shape n-grams, line position,
distance from the note's start and end, section, span-provider hits).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, runtime_checkable

from deident.core.document import Document
from deident.core.span import Span
from deident.detect.crf.context import CONTEXT_SWITCHES, context_features
from deident.detect.crf.headings import heading_detector, heading_features
from deident.detect.crf.learned import TRIGGER_OFFSETS, LearnedData, token_hash
from deident.text.charset import ascii_like
from deident.text.note_view import note_view
from deident.text.sections import SectionDetector
from deident.text.tokenize import token_columns
from deident.text.wordfrequency import frequency_band

FEATURE_SET_VERSION = 1
RARE = "__rare__"
_LINE_POSITION = ("lp=0", "lp=1", "lp=2", "lp=3")
OFFSETS = TRIGGER_OFFSETS  # the context window: -2, -1, +1, +2
_CACHE_LIMIT = 300_000

_SHAPE_TABLE = str.maketrans(
    {
        **{c: "X" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
        **{c: "x" for c in "abcdefghijklmnopqrstuvwxyz"},
        **{c: "d" for c in "0123456789"},
    }
)
_RUN = re.compile(r"(.)\1+")
_LONG_RUN = re.compile(r"(.)\1{3,}")
# ASCII tokens with the whitespace before each: a word is a run of letters and digits (the aggressive
# tokenizer splits it between digits and letters and before an upper-case letter that follows a
# lower-case one, so its pieces are digit runs, upper-case runs with a lower-case tail, lower-case
# runs); any other non-space character is a token of its own.
_ASCII_WORD = re.compile(r"(\s*)([^\W_]+|\S)", re.ASCII)
_ASCII_PIECE = re.compile(r"(\s*)([0-9]+|[A-Z]+[a-z]*|[a-z]+|\S)", re.ASCII)
_ASCII_SPACE = " \t\n\r\f\v"  # what \s matches with re.ASCII


class CrfToken(NamedTuple):
    """A token as the CRF sees it: same offsets as :func:`deident.text.tokenize`, plus whether a
    line break precedes it (cheaper than slicing the text again for line features)."""

    start: int
    end: int
    text: str
    newline_before: bool = False


def crf_tokens(text: str, aggressive: bool = True) -> list[CrfToken]:
    """The tokens of :func:`deident.text.tokenize`, found with the standard ``re`` engine when the
    text is ASCII (several times faster); other texts go through the foundation tokenizer."""
    starts, ends, texts, newlines = crf_token_columns(text, aggressive)
    make = tuple.__new__  # twice as fast as the NamedTuple constructor
    return [make(CrfToken, t) for t in zip(starts, ends, texts, newlines, strict=True)]


def crf_token_columns(text: str, aggressive: bool = True) -> tuple[list[int], list[int], list[str], list[bool]]:
    """The tokens of :func:`crf_tokens` as parallel lists (starts, ends, texts, newline before)."""
    if not ascii_like(text):  # letters, digits or spaces beyond ASCII: the Unicode tokenizer's classes
        return token_columns(text, aggressive)
    # One findall of (whitespace before, token) pairs; offsets are the running sums of their lengths. It stops at the
    # last token's end: in trailing white space each start would try the whole rest again (quadratic: a note ending
    # in 12,000 blanks took 2.8 s).
    end = len(text.rstrip(_ASCII_SPACE))
    found = (_ASCII_PIECE if aggressive else _ASCII_WORD).findall(text, 0, end)
    if not found:
        return [], [], [], []
    offsets = list(itertools.accumulate(map(len, itertools.chain.from_iterable(found))))
    newlines = ["\n" in space for space, _ in found]
    newlines[0] = True
    return offsets[0::2], offsets[1::2], [token for _, token in found], newlines


@runtime_checkable
class SpanProvider(Protocol):
    """Anything that proposes spans: pattern and lexicon detectors. Hits become features."""

    @property
    def name(self) -> str: ...

    def detect(self, document: Document) -> Sequence[Span]: ...


@dataclass(frozen=True)
class FeatureConfig:
    """Options that change the feature set; stored in the model manifest."""

    aggressive: bool = True  # tokenizer splits "57yo" and "rangeImpression" (Lee 2017)
    # Words seen in only one patient's training notes lose their identity (w=__rare__), as unseen
    # words do at tagging time; otherwise the CRF learns the training names instead of their context.
    rare_masking: bool = True
    # The papers' context features (:mod:`deident.detect.crf.context`); off by default, recorded only when on.
    neighbour_dictionary: bool = False
    fuzzy_dictionary: bool = False
    term_lists: bool = False
    trigger_window: bool = False
    learned_headings: bool = False
    split_feature_sets: bool = False

    @property
    def context_switches(self) -> dict[str, bool]:
        """The switched-on context feature groups (:data:`deident.detect.crf.context.CONTEXT_SWITCHES`)."""
        return {name: True for name in CONTEXT_SWITCHES if getattr(self, name)}

    def as_dict(self) -> dict[str, object]:
        return {"aggressive": self.aggressive, "rare_masking": self.rare_masking, **self.context_switches}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> FeatureConfig:
        return cls(
            aggressive=bool(data.get("aggressive", True)),
            rare_masking=bool(data.get("rare_masking", False)),
            **{name: bool(data.get(name, False)) for name in CONTEXT_SWITCHES},
        )


def case_class(word: str) -> str:
    if word.isalpha():
        if word.isupper():
            return "U1" if len(word) == 1 else "UP"
        if word.islower():
            return "LO"
        if word[0].isupper() and word[1:].islower():
            return "TI"
        return "MX"
    if word.isdigit():
        return "DG"
    if word.isalnum():
        return "AN"
    return "PU"


# Shapes of mapped words (few distinct: "Xxxxx", "dddd", ...), memoised: the two regex substitutions
# cost more than the rest of a word type's features. A pure function of the text.
_shapes: dict[str, tuple[str, str]] = {}
_SHAPE_MEMO_LIMIT = 100_000


def word_shape(word: str) -> tuple[str, str]:
    """(short shape with runs collapsed, long shape with runs capped at 3)."""
    mapped = word.translate(_SHAPE_TABLE)
    shapes = _shapes.get(mapped)
    if shapes is None:
        if len(_shapes) >= _SHAPE_MEMO_LIMIT:
            _shapes.clear()
        shapes = _shapes[mapped] = (_RUN.sub(r"\1", mapped), _LONG_RUN.sub(r"\1\1\1", mapped))
    return shapes


@dataclass(frozen=True)
class _TypeInfo:
    own: tuple[str, ...]
    context: tuple[tuple[str, ...], ...]  # per offset in OFFSETS: what this word adds to that neighbour
    lower: str  # lower-cased word, or the rare-word placeholder (for bigrams)
    shape: str
    lexicon_key: str | None = None  # learned-lexicon hash, for alphabetic tokens in the lexicon
    lexicon_category: str | None = None
    case: str = ""  # the case-class feature "cc=..." (for the document-case conjunction)


@dataclass(frozen=True, eq=False)
class FeatureExtractor:
    """Turns a document into token feature lists for python-crfsuite."""

    config: FeatureConfig = field(default_factory=FeatureConfig)
    learned: LearnedData = field(default_factory=LearnedData)
    clusters: Mapping[str, int] = field(default_factory=dict)
    providers: tuple[SpanProvider, ...] = ()
    sections: SectionDetector | None = None
    # Tagging only: return just these feature strings (a model's attributes; the CRF ignores the
    # rest), in the same order, filtered once per word type instead of once per token.
    keep: frozenset[str] | None = None
    # The learned headings' detector when the model uses them (``learned_headings``), built from ``learned``.
    heading_sections: SectionDetector | None = field(init=False, default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A memo of a pure function of the token text (not per-document state).
        object.__setattr__(self, "_types", {})
        boundary = tuple(self._kept((f"w{off}=__B__", f"sh{off}=__B__")) for off in OFFSETS)
        object.__setattr__(self, "_boundary", _TypeInfo((), boundary, "__B__", "__B__"))
        headings = self.learned.headings if self.config.learned_headings else ()
        object.__setattr__(self, "heading_sections", heading_detector(headings))

    @property
    def provider_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.providers)

    def _kept(self, features: Iterable[str]) -> tuple[str, ...]:
        keep = self.keep
        return tuple(features) if keep is None else tuple(f for f in features if f in keep)

    def tokens(self, text: str) -> list[CrfToken]:
        return crf_tokens(text, aggressive=self.config.aggressive)

    def _type(self, word: str) -> _TypeInfo:
        types: dict[str, _TypeInfo] = self._types  # type: ignore[attr-defined]
        info = types.get(word)
        if info is not None:
            return info
        if len(types) > _CACHE_LIMIT:
            types.clear()
        info = types[word] = self.type_info(word)
        return info

    def type_info(self, word: str) -> _TypeInfo:
        """What a word type contributes (not memoised: :meth:`_type` memoises it for :meth:`extract`;
        the compiled tagger keeps its own per-type table instead)."""
        lower = word.lower()
        short, long = word_shape(word)
        cc = case_class(word)
        ident = lower
        alphabetic = word[:1].isalpha()
        hashed = token_hash(lower) if alphabetic and (self.config.rare_masking or self.learned.lexicon) else None
        if self.config.rare_masking and alphabetic and hashed not in self.learned.vocabulary:
            ident = RARE
        own = [f"w={ident}", f"cc={cc}", f"sh={short}", f"lsh={long}", f"len={min(len(word), 12)}"]
        if len(lower) > 2:
            own += [f"p2={lower[:2]}", f"p3={lower[:3]}", f"s2={lower[-2:]}", f"s3={lower[-3:]}"]
        if alphabetic:
            own.append(f"fb={frequency_band(lower)}")
        elif any(c.isdigit() for c in word):
            own.append("hasdig")
            if word.isdigit():
                own.append(f"dg{len(word)}")
                if len(word) <= 2 and word.isdecimal():  # int() refuses digits such as "²"
                    own.append(f"num={min(int(word), 40) // 5}")
        cluster = self.clusters.get(lower)
        own.append(f"cl={cluster if cluster is not None else 'none'}")
        context = []
        for off in OFFSETS:
            items = [f"w{off}={ident}", f"sh{off}={short}"]
            if cluster is not None:
                items.append(f"cl{off}={cluster}")
            trigger = self.learned.triggers.get((lower, off))
            if trigger is not None:
                items.append(f"trg{off}={trigger}")
            context.append(tuple(items))
        key = hashed if alphabetic and self.learned.lexicon else None
        category = self.learned.lexicon.get(key) if key is not None else None
        return _TypeInfo(
            self._kept(own),
            tuple(self._kept(c) for c in context),
            ident,
            short,
            key if category else None,
            category,
            f"cc={cc}",
        )

    def extract(
        self,
        document: Document,
        tokens: Sequence[CrfToken] | None = None,
        exclude_group: str | None = None,
        hits: Iterable[Span] | None = None,
    ) -> list[list[str]]:
        """One feature list per token (tokens default to :meth:`tokens` of the text).

        ``exclude_group`` (training only) hides learned-lexicon entries seen only in that patient's
        notes, so the CRF does not learn to trust a feature that is perfect on its own training data.
        ``hits``: the span providers' spans when a pipeline has already found them (those whose source
        names one of :attr:`providers`; others are ignored); None runs the providers here.
        """
        text = document.text
        if tokens is None:
            tokens = self.tokens(text)
        n = len(tokens)
        if n == 0:
            return []
        infos = [self._type(t.text) for t in tokens]
        boundary: _TypeInfo = self._boundary  # type: ignore[attr-defined]
        padded = [boundary, boundary, *infos, boundary, boundary]
        doc_case = note_view(document).case.ascii_case()
        extras = self._positional(document, tokens, hits)
        keep = self.keep
        out: list[list[str]] = []
        if keep is None:
            self._extract_all(padded, infos, extras, doc_case, out)
        else:
            self._extract_kept(keep, padded, infos, extras, doc_case, out)
        if self.learned.lexicon:
            groups = self.learned.lexicon_groups
            for i, info in enumerate(infos):
                category = info.lexicon_category
                if category is None:
                    continue
                if exclude_group is not None and not (
                    groups.get(info.lexicon_key or "", frozenset()) - {exclude_group}
                ):
                    continue
                feature = f"lex={category}"
                if keep is None or feature in keep:
                    out[i].append(feature)
        return out

    def provider_hits(self, document: Document, hits: Iterable[Span] | None = None) -> list[tuple[str, list[Span]]]:
        """(provider name, its spans in order) per provider: from ``hits`` by source, else by running it."""
        if hits is None:
            return [(p.name, sorted(p.detect(document))) for p in self.providers]
        by_source: dict[str, list[Span]] = {p.name: [] for p in self.providers}
        for span in hits:
            found = by_source.get(span.source)
            if found is not None:
                found.append(span)
        return [(name, sorted(spans)) for name, spans in by_source.items()]

    @staticmethod
    def _extract_all(
        padded: Sequence[_TypeInfo],
        infos: Sequence[_TypeInfo],
        extras: Sequence[list[str]],
        doc_case: str,
        out: list[list[str]],
    ) -> None:
        """The loop of :meth:`extract`: every feature of every token (training and the reference)."""
        append = out.append
        for m2, m1, me, p1, p2, extra in zip(padded, padded[1:], infos, padded[3:], padded[4:], extras, strict=False):
            feats = [
                "bias",
                *me.own,
                *m2.context[0],
                *m1.context[1],
                *p1.context[2],
                *p2.context[3],
                *_window_features(m2, m1, me, p1, p2, doc_case),
            ]
            feats.extend(extra)
            append(feats)

    @staticmethod
    def _extract_kept(
        keep: frozenset[str],
        padded: Sequence[_TypeInfo],
        infos: Sequence[_TypeInfo],
        extras: Sequence[list[str]],
        doc_case: str,
        out: list[list[str]],
    ) -> None:
        """The loop of :meth:`extract` keeping only ``keep`` (own and context already filtered)."""
        append = out.append
        kept = keep.__contains__
        bias = ("bias",) if "bias" in keep else ()
        for m2, m1, me, p1, p2, extra in zip(padded, padded[1:], infos, padded[3:], padded[4:], extras, strict=False):
            built = (*_window_features(m2, m1, me, p1, p2, doc_case), *extra)
            append(
                [
                    *bias,
                    *me.own,
                    *m2.context[0],
                    *m1.context[1],
                    *p1.context[2],
                    *p2.context[3],
                    *filter(kept, built),
                ]
            )

    def _positional(
        self, document: Document, tokens: Sequence[CrfToken], hits: Iterable[Span] | None = None
    ) -> list[list[str]]:
        text = document.text
        n = len(tokens)
        extras: list[list[str]] = [[] for _ in range(n)]
        # Line position: index of the token in its line, and first/last on the line.
        line_index = 0
        for i, tok in enumerate(tokens):
            if tok.newline_before:
                line_index = 0
                extras[i].append("bol")
            if i + 1 == n or tokens[i + 1].newline_before:
                extras[i].append("eol")
            extras[i].append(_LINE_POSITION[line_index] if line_index < 4 else "lp=4")
            line_index += 1
        for i in range(min(n, 30)):
            extras[i].append(f"ds={0 if i < 3 else 1 if i < 10 else 2}")
        for i in range(max(0, n - 30), n):
            back = n - 1 - i
            extras[i].append(f"de={0 if back < 3 else 1 if back < 10 else 2}")
        sections = (self.sections or SectionDetector.default()).find(text)
        if sections:
            s = 0
            for i, tok in enumerate(tokens):
                while s + 1 < len(sections) and sections[s + 1].start <= tok.start:
                    s += 1
                if sections[s].start <= tok.start:
                    extras[i].append(f"sec={sections[s].name}")
        starts: list[int] | None = None
        for provider_name, spans in self.provider_hits(document, hits):
            if not spans:
                continue
            if starts is None:
                starts = [t.start for t in tokens]
            for span in spans:
                i = max(bisect.bisect_right(starts, span.start) - 1, 0)
                feature = f"hit:{span.source or provider_name}:{span.label.value}"
                while i < n and tokens[i].start < span.end:
                    if tokens[i].end > span.start and feature not in extras[i]:
                        extras[i].append(feature)
                    i += 1
        if self.heading_sections is not None:
            found = heading_features(self.heading_sections, text, [t.start for t in tokens])
            for feats, heading in zip(extras, found, strict=True):
                if heading is not None:
                    feats.append(heading)
        switches = self.config.context_switches
        if switches:
            texts = [t.text for t in tokens]
            for feats, added in zip(extras, context_features(switches, texts, self.learned.triggers), strict=True):
                feats.extend(added)
        return extras


def easyadapt(features: list[list[str]], domain: str) -> list[list[str]]:
    """EasyAdapt (Daume 2007): a general copy of every feature plus a domain-specific copy."""
    return [[*feats, *(f"{domain}|{f}" for f in feats)] for feats in features]


def _window_features(
    m2: _TypeInfo, m1: _TypeInfo, me: _TypeInfo, p1: _TypeInfo, p2: _TypeInfo, doc_case: str
) -> tuple[str, ...]:
    """Bigrams and shape n-grams of the +-2 window and the note/token case pair, in feature order."""
    return (
        f"b-2={m2.lower}|{m1.lower}",
        f"b-1={m1.lower}|{me.lower}",
        f"b+1={me.lower}|{p1.lower}",
        f"b+2={p1.lower}|{p2.lower}",
        f"s-1={m1.shape}|{me.shape}",
        f"s+1={me.shape}|{p1.shape}",
        f"s3={m1.shape}|{me.shape}|{p1.shape}",
        f"s5={m2.shape}|{m1.shape}|{me.shape}|{p1.shape}|{p2.shape}",
        f"dc={doc_case}|{me.case}",
    )
