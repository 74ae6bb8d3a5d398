"""CRF tagging without feature strings: crfsuite's weights as matrices, emissions summed from per-word
tables, marginals by forward-backward (numba when installed, else the same kernels in numpy:
:mod:`deident.detect.crf.vectorised`; both equal the plain-Python reference kernels here).

crfsuite (first-order, ``crf1d``) scores a label sequence as the sum over tokens of the state weights
of the token's attributes (value 1 each here) for its label, plus the transition weight from the
previous label; there are no start or end weights. Only attributes in the model's dictionary matter,
so every feature that depends only on a token's text is summed into a per-word-type weight vector once
(its own features, plus what it contributes to each neighbour in the +-2 window) the first time the
word is met: :func:`~deident.detect.crf.typerows.type_row_appender` lists the state rows of its attributes
straight from the word (no feature strings) and one kernel call sums a document's new types. The n-gram
features (word bigrams, shape n-grams) are looked up as integer keys built from the model's attributes.
The result equals crfsuite's marginals up to floating-point rounding (tests check 1e-9).

Everything cached here (per-word tables) is a pure function of the word and the model.
"""

from __future__ import annotations

import bisect
import itertools
import math
import struct
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

import numpy as np
import pycrfsuite

from deident.core.document import Document
from deident.core.errors import ModelError
from deident.core.labels import Label
from deident.core.span import Span
from deident.detect.crf.align import OUTSIDE, split_tag
from deident.detect.crf.context import positional_context_features, trigger_categories, word_context_features
from deident.detect.crf.features import (
    OFFSETS,
    CrfToken,
    FeatureExtractor,
    crf_token_columns,
)
from deident.detect.crf.headings import heading_features
from deident.detect.crf.typerows import type_row_appender
from deident.text.note_view import note_view
from deident.text.sections import section_token_ranges

_EASYADAPT_PREFIX = "tgt|"
_CASE_FEATURES = ("cc=U1", "cc=UP", "cc=LO", "cc=TI", "cc=MX", "cc=DG", "cc=AN", "cc=PU")
_CASE_INDEX = {feature[3:]: i for i, feature in enumerate(_CASE_FEATURES)}  # case class -> index
_DOC_CASES = ("NONE", "UP", "LO", "MX")
# Positional features in the order the kernel indexes them.
_POSITIONAL = (
    "bol",
    "eol",
    *(f"lp={i}" for i in range(5)),
    *(f"ds={i}" for i in range(3)),
    *(f"de={i}" for i in range(3)),
)
# (attribute prefix, 0 = word (lower-cased or rare mask) / 1 = shape, token offsets) per n-gram feature.
_NGRAMS: tuple[tuple[str, int, tuple[int, ...]], ...] = (
    ("b-2=", 0, (-2, -1)),
    ("b-1=", 0, (-1, 0)),
    ("b+1=", 0, (0, 1)),
    ("b+2=", 0, (1, 2)),
    ("s-1=", 1, (-1, 0)),
    ("s+1=", 1, (0, 1)),
    ("s3=", 1, (-1, 0, 1)),
    ("s5=", 1, (-2, -1, 0, 1, 2)),
)
# Word types in the per-type table. A type costs 8 * (5 * labels + 3) bytes of arrays plus its index
# entry (about 100 bytes): with the bundled model's 15 label columns, about 0.7 KB, so 100,000 types
# are about 70 MB. When a document's new types would pass the limit, the table is rebuilt keeping the
# first half of its types: in a stream of notes the types met first are mostly the frequent ones
# (a word of frequency p is first met after about 1/p tokens), which every later note needs again;
# the types met late are mostly rare ones, cheap to drop. No usage counters, so no shared state but
# the table itself, whose content never changes a result.
_TYPE_LIMIT = 100_000


class NotCompilable(ModelError):
    """The model cannot be tagged by the compiled path (the reference path still works)."""


@dataclass(frozen=True, eq=False)
class CrfWeights:
    """One crfsuite model's weights: ``state[attribute_row[a], y]`` and ``transitions[y_prev, y]``."""

    labels: tuple[str, ...]
    attribute_row: dict[str, int]
    state: np.ndarray  # (attributes, labels) float64
    transitions: np.ndarray  # (labels, labels) float64

    @classmethod
    def read(cls, path: Path) -> CrfWeights:
        """The weights of a crfsuite model file, exactly: python-crfsuite's ``info()`` rounds them to
        six decimals (it parses the text dump), so they are read from the file's feature chunk, and
        names and ids come from ``info()``, which is also checked against them."""
        tagger = pycrfsuite.Tagger()
        try:
            tagger.open(str(path))
        except Exception:
            raise ModelError(f"{path}: cannot open the CRF model file") from None
        labels = tuple(tagger.labels())
        info = tagger.info()
        tagger.close()
        attribute_ids = {name: int(i) for name, i in info.attributes.items()}
        features = _read_features(path, len(labels), len(attribute_ids))
        rows: dict[str, int] = {}
        row_of_id = np.full(len(attribute_ids), -1, dtype=np.int64)
        for name, i in sorted(attribute_ids.items(), key=lambda item: item[1]):
            row_of_id[i] = rows.setdefault(name, len(rows))
        state = np.zeros((len(rows), len(labels)))
        transitions = np.zeros((len(labels), len(labels)))
        is_state = features["type"] == 0
        np.add.at(state, (row_of_id[features["src"][is_state]], features["dst"][is_state]), features["w"][is_state])
        is_transition = features["type"] == 1
        np.add.at(
            transitions,
            (features["src"][is_transition], features["dst"][is_transition]),
            features["w"][is_transition],
        )
        column = {label: i for i, label in enumerate(labels)}
        for (attribute, label), weight in info.state_features.items():
            if abs(state[rows[attribute], column[label]] - weight) > 1e-5:
                raise NotCompilable(f"{path}: the feature chunk disagrees with the model dump")
        for (before, after), weight in info.transitions.items():
            if abs(transitions[column[before], column[after]] - weight) > 1e-5:
                raise NotCompilable(f"{path}: the feature chunk disagrees with the model dump")
        return cls(labels, rows, state, transitions)


_FEATURE = np.dtype([("type", "<u4"), ("src", "<u4"), ("dst", "<u4"), ("w", "<f8")])


def _read_features(path: Path, n_labels: int, n_attributes: int) -> np.ndarray:
    """The (type, source, destination, weight) records of a crfsuite ``crf1d`` model file (little
    endian: header "lCRF" size "FOMC" version, counts and chunk offsets; chunk "FEAT" size count)."""
    data = path.read_bytes()
    if len(data) < 48 or data[:4] != b"lCRF" or data[8:12] != b"FOMC":
        raise NotCompilable(f"{path}: not a crfsuite CRF1d model file")
    labels, attributes, offset = struct.unpack_from("<3I", data, 20)
    if (labels, attributes) != (n_labels, n_attributes) or data[offset : offset + 4] != b"FEAT":
        raise NotCompilable(f"{path}: unexpected crfsuite model layout")
    count = struct.unpack_from("<I", data, offset + 8)[0]
    if offset + 12 + count * _FEATURE.itemsize > len(data):
        raise NotCompilable(f"{path}: truncated feature chunk")
    features = np.frombuffer(data, dtype=_FEATURE, count=count, offset=offset + 12)
    state = features["type"] == 0
    transition = features["type"] == 1
    if (
        not np.all(state | transition)
        or np.any(features["src"][state] >= n_attributes)
        or np.any(features["dst"] >= n_labels)
        or np.any(features["src"][transition] >= n_labels)
    ):
        raise NotCompilable(f"{path}: feature records out of range")
    return features


@dataclass(frozen=True)
class TokenColumns(Sequence[CrfToken]):
    """A document's tokens as parallel lists; items are built as :class:`CrfToken` on demand."""

    starts: list[int]
    ends: list[int]
    texts: list[str]
    newlines: list[bool]

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> CrfToken: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[CrfToken]: ...

    def __getitem__(self, index: int | slice) -> CrfToken | Sequence[CrfToken]:
        if isinstance(index, slice):
            return self.tokens()[index]
        return CrfToken(self.starts[index], self.ends[index], self.texts[index], self.newlines[index])

    def __iter__(self) -> Iterator[CrfToken]:
        return iter(self.tokens())

    def tokens(self) -> list[CrfToken]:
        make = tuple.__new__  # the NamedTuple constructor is twice as slow
        return [make(CrfToken, t) for t in zip(self.starts, self.ends, self.texts, self.newlines, strict=True)]


@dataclass(frozen=True)
class DocumentMarginals:
    """The compiled path's output: tokens, and per CRF its (tokens, labels) marginals in label-id order."""

    tokens: TokenColumns
    marginals: tuple[np.ndarray, ...]


class _TypeTable:
    """Per word type: its own summed weights (bias and lexicon feature included), what it adds to each
    neighbour in the window, its word, shape and case codes, and its learned-trigger code (0: none; see
    :attr:`CompiledCrf.trigger_groups`). Row 0 is the sentence boundary.

    Rows are only appended (a row is filled before its word enters :attr:`index`), so a reader that
    found its words in the index may use the arrays without the lock."""

    _ARRAYS = ("own", "context", "word_code", "shape_code", "case_code", "trigger_code")

    def __init__(self, width: int, capacity: int = 4096) -> None:
        self.index: dict[str, int] = {}
        self.size = 0
        self.own = np.zeros((capacity, width))
        self.context = np.zeros((capacity, len(OFFSETS), width))
        self.word_code = np.zeros(capacity, dtype=np.int64)
        self.shape_code = np.zeros(capacity, dtype=np.int64)
        self.case_code = np.zeros(capacity, dtype=np.int64)
        self.trigger_code = np.zeros(capacity, dtype=np.int64)

    def reserve(self, needed: int, limit: int) -> None:
        """Room for ``needed`` rows: capacity doubles, but not past ``limit`` unless ``needed`` is."""
        capacity = len(self.word_code)
        if needed <= capacity:
            return
        capacity = max(needed, min(capacity * 2, limit))
        for name in self._ARRAYS:
            old = getattr(self, name)
            new = np.zeros((capacity, *old.shape[1:]), dtype=old.dtype)
            new[: self.size] = old[: self.size]
            setattr(self, name, new)

    def first(self, keep: int) -> _TypeTable:
        """A new table with this table's first ``keep`` rows (the boundary and the earliest types)."""
        keep = max(1, min(keep, self.size))  # the boundary row always stays
        table = _TypeTable(self.own.shape[1], keep)
        for name in self._ARRAYS:
            getattr(table, name)[:keep] = getattr(self, name)[:keep]
        table.index = dict(itertools.islice(self.index.items(), keep - 1))  # the boundary has no word
        table.size = keep
        return table


class CompiledCrf:
    """A model's CRFs side by side (label columns concatenated) with the tables that turn a document's
    tokens into emission scores. Thread-safe: the per-type table grows under a lock."""

    def __init__(self, extractor: FeatureExtractor, weights: Sequence[CrfWeights], easyadapt: bool) -> None:
        if extractor.keep is not None:
            raise ValueError("the compiled CRF needs the extractor's full feature lists (keep=None)")
        self.extractor = extractor
        self.weights = tuple(weights)
        self.easyadapt = easyadapt
        bounds = [0, *itertools.accumulate(len(w.labels) for w in self.weights)]
        self.column_bounds = np.array(bounds, dtype=np.int64)
        width = bounds[-1]
        # EasyAdapt taggers see every feature twice (plain and "tgt|"): fold the copies into one row.
        rows: dict[str, int] = {}
        for w in self.weights:
            for attribute in w.attribute_row:
                rows.setdefault(self._base(attribute), len(rows))
        state = np.zeros((len(rows), width))
        for w, first in zip(self.weights, bounds, strict=False):
            for attribute, row in w.attribute_row.items():
                state[rows[self._base(attribute)], first : first + len(w.labels)] += w.state[row]
        self.rows = rows
        self.state = state
        self.transitions = np.zeros((width, width))
        for w, first in zip(self.weights, bounds, strict=False):
            size = len(w.labels)
            self.transitions[first : first + size, first : first + size] = w.transitions
        self.positional = np.array([rows.get(f, -1) for f in _POSITIONAL], dtype=np.int64)
        self.doc_case = {
            case: np.array([rows.get(f"dc={case}|{cc}", -1) for cc in _CASE_FEATURES], dtype=np.int64)
            for case in _DOC_CASES
        }
        self.section_row = {a[4:]: r for a, r in rows.items() if a.startswith("sec=")}
        # (provider name, label) -> row of the attribute "hit:provider:label", for the model's providers.
        self._hit_row: dict[tuple[str, Label], int] = {
            (provider, label): hit_row
            for provider in extractor.provider_names
            for label in Label
            if (hit_row := rows.get(f"hit:{provider}:{label.value}")) is not None
        }
        self._compile_ngrams()
        # The trigger window's triggers, found per word type (a code in the type table) rather than by lower-casing
        # every token of every note: code i > 0 stands for trigger_groups[i], the categories of a trigger word.
        self.trigger_groups: list[tuple[str, ...]] = [()]
        self._trigger_code: dict[str, int] = {}
        if extractor.config.context_switches.get("trigger_window", False):
            groups: dict[tuple[str, ...], int] = {}
            for word, categories in trigger_categories(extractor.learned.triggers).items():
                self._trigger_code[word] = groups.setdefault(categories, len(groups) + 1)
            self.trigger_groups += list(groups)
        self.append_type_rows = type_row_appender(extractor, rows)
        self._lock = threading.Lock()
        self._table = self._new_table()

    def _base(self, attribute: str) -> str:
        if self.easyadapt and attribute.startswith(_EASYADAPT_PREFIX):
            return attribute[len(_EASYADAPT_PREFIX) :]
        return attribute

    def _compile_ngrams(self) -> None:
        """Integer keys of every n-gram attribute: codes of its parts in radix (vocabulary size + 1).

        A part may itself contain "|" (the token "|"), so every split of the attribute into the
        right number of parts is registered; a window's parts match an attribute exactly when their
        joined string equals it, which is exactly when one of its splits equals them."""
        vocabularies: tuple[dict[str, int], dict[str, int]] = ({}, {})
        found: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in _NGRAMS]
        for attribute, row in self.rows.items():
            for k, (prefix, kind, offsets) in enumerate(_NGRAMS):
                if not attribute.startswith(prefix):
                    continue
                rest = attribute[len(prefix) :]
                bars = [i for i, c in enumerate(rest) if c == "|"]
                for cut in itertools.combinations(bars, len(offsets) - 1):
                    edges = [-1, *cut, len(rest)]
                    parts = [rest[a + 1 : b] for a, b in itertools.pairwise(edges)]
                    vocabulary = vocabularies[kind]
                    codes = tuple(vocabulary.setdefault(p, len(vocabulary) + 1) for p in parts)
                    found[k].append((codes, row))
        self.word_codes, self.shape_codes = vocabularies
        keys: list[np.ndarray] = []
        key_rows: list[np.ndarray] = []
        bounds = [0]
        radix = []
        for (_, kind, offsets), entries in zip(_NGRAMS, found, strict=True):
            base = len(vocabularies[kind]) + 1
            if base ** len(offsets) >= 2**62:
                raise NotCompilable("the model's n-gram vocabulary is too large for integer keys")
            radix.append(base)
            spec_keys = np.array([_key(codes, base) for codes, _ in entries], dtype=np.int64)
            spec_rows = np.array([row for _, row in entries], dtype=np.int64)
            order = np.argsort(spec_keys, kind="stable")
            keys.append(spec_keys[order])
            key_rows.append(spec_rows[order])
            bounds.append(bounds[-1] + len(entries))
        self.ngram_keys = np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64)
        self.ngram_rows = np.concatenate(key_rows) if key_rows else np.zeros(0, dtype=np.int64)
        self.ngram_bounds = np.array(bounds, dtype=np.int64)
        self.ngram_radix = np.array(radix, dtype=np.int64)
        self.ngram_kind = np.array([kind for _, kind, _ in _NGRAMS], dtype=np.int64)
        self.ngram_arity = np.array([len(offsets) for _, _, offsets in _NGRAMS], dtype=np.int64)
        self.ngram_offsets = np.zeros((len(_NGRAMS), 5), dtype=np.int64)
        for k, (_, _, offsets) in enumerate(_NGRAMS):
            self.ngram_offsets[k, : len(offsets)] = offsets
        self._hash_ngrams()

    def _hash_ngrams(self) -> None:
        """Open-addressing tables of the n-gram keys (one per n-gram feature, at most a quarter full,
        linear probing from :func:`_slot`; -1 marks a free slot): the kernel finds a key's row in a probe
        or two instead of a binary search. A feature's keys are distinct (a split's parts joined with "|"
        give back the attribute), so a key has one row either way."""
        slot_keys: list[np.ndarray] = []
        slot_rows: list[np.ndarray] = []
        base = [0]
        masks = []
        for k in range(len(_NGRAMS)):
            lo, hi = int(self.ngram_bounds[k]), int(self.ngram_bounds[k + 1])
            size = 8
            while size < 4 * (hi - lo):
                size *= 2
            keys = np.full(size, -1, dtype=np.int64)
            rows = np.full(size, -1, dtype=np.int64)
            for key, row in zip(self.ngram_keys[lo:hi].tolist(), self.ngram_rows[lo:hi].tolist(), strict=True):
                slot = _slot(key, size - 1)
                while keys[slot] >= 0:
                    slot = (slot + 1) & (size - 1)
                keys[slot] = key
                rows[slot] = row
            slot_keys.append(keys)
            slot_rows.append(rows)
            base.append(base[-1] + size)
            masks.append(size - 1)
        self.ngram_slot_keys = np.concatenate(slot_keys)
        self.ngram_slot_rows = np.concatenate(slot_rows)
        self.ngram_slot_base = np.array(base, dtype=np.int64)
        self.ngram_slot_mask = np.array(masks, dtype=np.int64)

    def _new_table(self) -> _TypeTable:
        table = _TypeTable(self.state.shape[1])
        self._add_types(table, [None])
        return table

    def _add_types(self, table: _TypeTable, words: Sequence[str | None], from_strings: bool = False) -> None:
        """Append rows for ``words`` (new to ``table``; None is the sentence boundary): each type's state
        rows are listed per segment (own, then each neighbour offset) by :func:`type_row_appender`, or with
        ``from_strings`` from :meth:`FeatureExtractor.type_info`'s feature strings (the definition;
        tests compare the two), then summed in that order by one kernel call."""
        word_codes = self.word_codes.get
        shape_codes = self.shape_codes.get
        first = table.size
        table.reserve(first + len(words), _TYPE_LIMIT)
        found: list[int] = []  # state rows (-1: not an attribute of the model), segment after segment
        ends: list[int] = []  # where each segment's rows end in ``found``
        codes: list[tuple[int, int, int]] = []
        append_rows = self.rows_from_strings if from_strings else self.append_type_rows
        case_index = _CASE_INDEX
        for word in words:
            ident, short, cc = (
                self.rows_from_strings(None, found, ends) if word is None else append_rows(word, found, ends)
            )
            codes.append((word_codes(ident, 0), shape_codes(short, 0), case_index.get(cc, 0)))
        end = first + len(words)
        row_sums_kernel()(
            table.own, table.context, first, np.array(ends, dtype=np.int64), np.array(found, dtype=np.int64), self.state
        )
        code_columns = np.array(codes, dtype=np.int64).reshape(len(words), 3)
        table.word_code[first:end] = code_columns[:, 0]
        table.shape_code[first:end] = code_columns[:, 1]
        table.case_code[first:end] = code_columns[:, 2]
        if self._trigger_code:
            trigger_code = self._trigger_code.get
            table.trigger_code[first:end] = [0 if word is None else trigger_code(word.lower(), 0) for word in words]
        table.size = end
        if None in words:  # the sentence boundary (a new table's first row) has no index entry
            table.index.update((word, i) for i, word in enumerate(words, first) if word is not None)
        else:
            table.index.update(zip(words, range(first, end), strict=True))  # type: ignore[arg-type]

    def rows_from_strings(self, word: str | None, found: list[int], ends: list[int]) -> tuple[str, str, str]:
        """What :func:`type_row_appender`'s function does, from the feature strings of
        :meth:`FeatureExtractor.type_info` (the definition; None is the sentence boundary, which has no
        own features and no case)."""
        get = self.rows.get
        extractor = self.extractor
        info = extractor._boundary if word is None else extractor.type_info(word)  # type: ignore[attr-defined]
        if word is not None:
            found.append(get("bias", -1))
            found.extend(get(f, -1) for f in info.own)
            if info.lexicon_category is not None:
                found.append(get(f"lex={info.lexicon_category}", -1))
            found.extend(get(f, -1) for f in word_context_features(extractor.config.context_switches, word.lower()))
        ends.append(len(found))
        for items in info.context:
            found.extend(get(f, -1) for f in items)
            ends.append(len(found))
        return info.lower, info.shape, info.case[3:]

    def _add_new_types(self, texts: Iterable[str]) -> None:
        """Rows for the word types of ``texts`` that the table lacks, added at once (several notes' new types in one
        call: their look-ups share the processor's caches). Where they would pass the table's limit, nothing is added
        here: :meth:`_type_ids` renews the table note by note."""
        index = self._table.index
        missing = [w for w in dict.fromkeys(texts) if w not in index]
        if not missing:
            return
        with self._lock:
            table = self._table
            missing = [w for w in missing if w not in table.index]
            if missing and table.size + len(missing) <= _TYPE_LIMIT:
                self._add_types(table, missing)

    def _type_ids(self, texts: list[str]) -> tuple[np.ndarray, _TypeTable]:
        """Each token's row in the per-type table (rows added for types met for the first time, in
        first-seen order), and the table they index."""
        table = self._table
        n = len(texts)
        ids = np.fromiter(map(table.index.get, texts, itertools.repeat(-1, n)), dtype=np.int64, count=n)
        if n and ids.min() < 0:
            with self._lock:
                if table is not self._table:  # rebuilt by another thread meanwhile: look all up again
                    table = self._table
                    ids = np.fromiter(map(table.index.get, texts, itertools.repeat(-1, n)), dtype=np.int64, count=n)
                absent = np.flatnonzero(ids < 0).tolist()
                if absent:
                    index = table.index
                    missing = [w for w in dict.fromkeys([texts[i] for i in absent]) if w not in index]
                    if missing:
                        if table.size + len(missing) > _TYPE_LIMIT and table.size > 1:
                            table = self._table = table.first(_TYPE_LIMIT // 2)
                            index = table.index
                            missing = [w for w in dict.fromkeys(texts) if w not in index]
                            self._add_types(table, missing)
                            return np.fromiter(map(index.__getitem__, texts), dtype=np.int64, count=n), table
                        self._add_types(table, missing)
                    ids[absent] = [index[texts[i]] for i in absent]
        return ids, table

    def _hit_rows(self, document: Document, hits: Iterable[Span] | None) -> list[tuple[Span, int]]:
        """(span, state row of its ``hit:`` attribute) for the span-provider hits the model has an attribute
        for, in no particular order (their features are a set). As :meth:`FeatureExtractor.provider_hits`:
        from ``hits`` by source when given, else by running the providers."""
        if hits is None:
            rows = self.rows
            found: list[tuple[Span, int]] = []
            for provider_name, spans in self.extractor.provider_hits(document, None):
                for span in spans:
                    row = rows.get(f"hit:{span.source or provider_name}:{span.label.value}")
                    if row is not None:
                        found.append((span, row))
            return found
        hit_row = self._hit_row
        return [(span, row) for span in hits if (row := hit_row.get((span.source, span.label), -1)) >= 0]

    def _extra_features(
        self,
        document: Document,
        tokens: TokenColumns,
        hits: Iterable[Span] | None,
        trigger_codes: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per-token section rows, and (token, row) pairs for span-provider hits and context features.
        ``trigger_codes``: each token's type's learned-trigger code (the fast path); None: the context features
        look the triggers up in the token texts (the reference)."""
        n = len(tokens)
        starts = tokens.starts
        extractor = self.extractor
        section_rows = np.full(n, -1, dtype=np.int64)
        if self.section_row:
            sections = (
                note_view(document).sections if extractor.sections is None else extractor.sections.find(document.text)
            )
            get = self.section_row.get
            for section, first, last in section_token_ranges(sections, starts):
                row = get(section.name, -1)
                if row >= 0 and first < last:
                    section_rows[first:last] = row
        pairs: set[tuple[int, int]] = set()
        ends = tokens.ends
        for span, row in self._hit_rows(document, hits):
            i = max(bisect.bisect_right(starts, span.start) - 1, 0)
            while i < n and starts[i] < span.end:
                if ends[i] > span.start:
                    pairs.add((i, row))
                i += 1
        rows = self.rows
        if extractor.heading_sections is not None:  # the same strings as FeatureExtractor.extract's
            found = heading_features(extractor.heading_sections, document.text, starts)
            pairs.update((i, row) for i, f in enumerate(found) if f is not None and (row := rows.get(f, -1)) >= 0)
        switches = extractor.config.context_switches
        if switches:  # the same strings as FeatureExtractor.extract's, to the model's rows (the word's own: per type)
            groups = self.trigger_groups
            found_triggers = None
            if self._trigger_code and trigger_codes is not None:
                found_triggers = [(j, groups[code]) for j, code in _nonzero(trigger_codes)]
            positional = positional_context_features(switches, tokens.texts, extractor.learned.triggers, found_triggers)
            pairs.update((i, row) for i, f in positional if (row := rows.get(f, -1)) >= 0)
        ordered = sorted(pairs)
        return (
            section_rows,
            np.array([i for i, _ in ordered], dtype=np.int64),
            np.array([r for _, r in ordered], dtype=np.int64),
        )

    def marginals(
        self,
        document: Document,
        hits: Iterable[Span] | None = None,
        implementation: str = "auto",
    ) -> DocumentMarginals:
        """Token marginals of every CRF for ``document`` (hits: as for :meth:`FeatureExtractor.extract`)."""
        return self.marginals_many([document], [hits], implementation)[0]

    def marginals_many(
        self,
        documents: Sequence[Document],
        hits: Sequence[Iterable[Span] | None],
        implementation: str = "auto",
    ) -> list[DocumentMarginals]:
        """:meth:`marginals` of each document (the numpy kernels run forward-backward on them together)."""
        emissions, _ = kernels(implementation)
        aggressive = self.extractor.config.aggressive
        columns = [TokenColumns(*crf_token_columns(d.text, aggressive)) for d in documents]
        if len(columns) > 1:
            self._add_new_types(itertools.chain.from_iterable(c.texts for c in columns))
        scored = [self._scores(d, h, emissions, c) for d, h, c in zip(documents, hits, columns, strict=True)]
        tagged = [scores for _, scores in scored if scores is not None]
        marginals = iter(forward_backward_many(implementation)(tagged, self.transitions, self.column_bounds))
        bounds = self.column_bounds
        out: list[DocumentMarginals] = []
        for tokens, scores in scored:
            if scores is None:
                out.append(DocumentMarginals(tokens, tuple(np.zeros((0, len(w.labels))) for w in self.weights)))
                continue
            found = next(marginals)
            out.append(
                DocumentMarginals(tokens, tuple(found[:, bounds[m] : bounds[m + 1]] for m in range(len(self.weights))))
            )
        return out

    def _scores(
        self,
        document: Document,
        hits: Iterable[Span] | None,
        emissions: Callable[..., np.ndarray],
        tokens: TokenColumns,
    ) -> tuple[TokenColumns, np.ndarray | None]:
        """The document's ``tokens`` and their emission scores (None: no token)."""
        if not tokens:
            return tokens, None
        ids, table = self._type_ids(tokens.texts)
        trigger_codes = table.trigger_code[ids] if self._trigger_code else None  # none to find without the window
        section_rows, extra_tokens, extra_rows = self._extra_features(document, tokens, hits, trigger_codes)
        newlines = np.array(tokens.newlines, dtype=np.bool_)
        scores = emissions(
            ids,
            newlines,
            section_rows,
            extra_tokens,
            extra_rows,
            table.own,
            table.context,
            table.word_code,
            table.shape_code,
            table.case_code,
            self.doc_case[note_view(document).case.ascii_case()],
            self.positional,
            self.ngram_slot_keys,
            self.ngram_slot_rows,
            self.ngram_slot_base,
            self.ngram_slot_mask,
            self.ngram_bounds,
            self.ngram_radix,
            self.ngram_kind,
            self.ngram_arity,
            self.ngram_offsets,
            self.state,
        )
        return tokens, scores


def _nonzero(codes: np.ndarray) -> list[tuple[int, int]]:
    """(position, code) of each nonzero code, in order."""
    at = np.flatnonzero(codes)
    return list(zip(at.tolist(), codes[at].tolist(), strict=True))


def _slot(key: int, mask: int) -> int:
    """Where the n-gram hash tables start probing for ``key`` (a non-negative key; the kernel computes
    the same)."""
    return (key ^ (key >> 11) ^ (key >> 23)) & mask


def _key(codes: Sequence[int], base: int) -> int:
    key = 0
    for code in codes:
        key = key * base + code
    return key


def group_label_matrix(labels: Sequence[str]) -> tuple[int | None, tuple[str, ...], np.ndarray]:
    """(column of O or None, the non-O label names in first-seen order, (tags, names) 0/1 matrix that
    sums B and I columns per label)."""
    outside = labels.index(OUTSIDE) if OUTSIDE in labels else None
    names: list[str] = []
    for tag in labels:
        if tag != OUTSIDE:
            name = split_tag(tag)[1] or ""
            if name not in names:
                names.append(name)
    matrix = np.zeros((len(labels), len(names)))
    for i, tag in enumerate(labels):
        if tag != OUTSIDE:
            matrix[i, names.index(split_tag(tag)[1] or "")] = 1.0
    return outside, tuple(names), matrix


def _emissions_py(
    ids: np.ndarray,
    newlines: np.ndarray,
    section_rows: np.ndarray,
    extra_tokens: np.ndarray,
    extra_rows: np.ndarray,
    own: np.ndarray,
    context: np.ndarray,
    word_code: np.ndarray,
    shape_code: np.ndarray,
    case_code: np.ndarray,
    doc_case_rows: np.ndarray,
    positional: np.ndarray,
    ngram_slot_keys: np.ndarray,
    ngram_slot_rows: np.ndarray,
    ngram_slot_base: np.ndarray,
    ngram_slot_mask: np.ndarray,
    ngram_bounds: np.ndarray,
    ngram_radix: np.ndarray,
    ngram_kind: np.ndarray,
    ngram_arity: np.ndarray,
    ngram_offsets: np.ndarray,
    state: np.ndarray,
) -> np.ndarray:
    """Emission scores (tokens, labels): the summed state weights of each token's attributes."""
    n = ids.shape[0]
    width = state.shape[1]
    scores = np.zeros((n, width))
    line_index = 0
    for t in range(n):
        me = ids[t]
        for c in range(width):
            scores[t, c] = own[me, c]
        for k in range(4):
            j = t + (k - 2 if k < 2 else k - 1)  # offsets -2, -1, +1, +2
            other = ids[j] if 0 <= j < n else 0
            for c in range(width):
                scores[t, c] += context[other, k, c]
        for s in range(ngram_kind.shape[0]):
            lo = ngram_bounds[s]
            hi = ngram_bounds[s + 1]
            if lo == hi:
                continue
            key = 0
            for p in range(ngram_arity[s]):
                j = t + ngram_offsets[s, p]
                other = ids[j] if 0 <= j < n else 0
                code = word_code[other] if ngram_kind[s] == 0 else shape_code[other]
                if code == 0:  # a part in no attribute of this kind (codes start at 1): no key matches
                    key = -1
                    break
                key = key * ngram_radix[s] + code
            if key < 0:
                continue
            mask = ngram_slot_mask[s]
            base = ngram_slot_base[s]
            slot = (key ^ (key >> 11) ^ (key >> 23)) & mask  # _slot(key, mask)
            while ngram_slot_keys[base + slot] >= 0:
                if ngram_slot_keys[base + slot] == key:
                    row = ngram_slot_rows[base + slot]
                    for c in range(width):
                        scores[t, c] += state[row, c]
                    break
                slot = (slot + 1) & mask
        bol = -1
        if newlines[t]:
            line_index = 0
            bol = positional[0]
        eol = positional[1] if t + 1 == n or newlines[t + 1] else -1
        line = positional[2 + min(line_index, 4)]
        line_index += 1
        start = positional[7 + (0 if t < 3 else 1 if t < 10 else 2)] if t < 30 else -1
        back = n - 1 - t
        end = positional[10 + (0 if back < 3 else 1 if back < 10 else 2)] if back < 30 else -1
        for row in (doc_case_rows[case_code[me]], bol, eol, line, start, end, section_rows[t]):
            if row >= 0:
                for c in range(width):
                    scores[t, c] += state[row, c]
    for k in range(extra_tokens.shape[0]):
        t = extra_tokens[k]
        row = extra_rows[k]
        for c in range(width):
            scores[t, c] += state[row, c]
    return scores


def _forward_backward_py(scores: np.ndarray, transitions: np.ndarray, column_bounds: np.ndarray) -> np.ndarray:
    """Marginals (tokens, labels) of each CRF (its block of columns), forward-backward scaled per step."""
    n = scores.shape[0]
    out = np.zeros_like(scores)
    for m in range(column_bounds.shape[0] - 1):
        a = column_bounds[m]
        size = column_bounds[m + 1] - a
        # math.exp, the C library's (numba calls it too), rather than numpy's exp, which differs in the
        # last bit for a few per cent of inputs: so the kernels agree bit for bit.
        trans = np.zeros((size, size))
        for x in range(size):
            for y in range(size):
                trans[x, y] = math.exp(transitions[a + x, a + y])
        local = np.zeros((n, size))
        for t in range(n):
            peak = scores[t, a]
            for y in range(1, size):
                peak = max(peak, scores[t, a + y])
            for y in range(size):
                local[t, y] = math.exp(scores[t, a + y] - peak)
        alpha = np.zeros((n, size))
        scale = np.zeros(n)
        total = 0.0
        for y in range(size):
            alpha[0, y] = local[0, y]
            total += alpha[0, y]
        scale[0] = total
        for y in range(size):
            alpha[0, y] /= total
        for t in range(1, n):
            total = 0.0
            for y in range(size):
                acc = 0.0
                for x in range(size):
                    acc += alpha[t - 1, x] * trans[x, y]
                alpha[t, y] = acc * local[t, y]
                total += alpha[t, y]
            scale[t] = total
            for y in range(size):
                alpha[t, y] /= total
        beta = np.zeros((n, size))
        for y in range(size):
            beta[n - 1, y] = 1.0
        for t in range(n - 2, -1, -1):
            for x in range(size):
                acc = 0.0
                for y in range(size):
                    acc += trans[x, y] * local[t + 1, y] * beta[t + 1, y]
                beta[t, x] = acc / scale[t + 1]
        for t in range(n):
            total = 0.0
            for y in range(size):
                total += alpha[t, y] * beta[t, y]
            for y in range(size):
                out[t, a + y] = alpha[t, y] * beta[t, y] / total
    return out


def _row_sums_py(
    own: np.ndarray, context: np.ndarray, first: int, ends: np.ndarray, rows: np.ndarray, state: np.ndarray
) -> None:
    """Fill type rows from ``first`` on: segment ``s`` (type ``first + s // 5``; its own weights, then
    what it adds to each neighbour) is the sum of the state rows ``rows[ends[s - 1]:ends[s]]`` (-1:
    none), added in order from zero as :class:`CompiledCrf` always has."""
    width = state.shape[1]
    start = 0
    for s in range(ends.shape[0]):
        t = first + s // 5
        k = s % 5
        for c in range(width):
            total = 0.0
            for e in range(start, ends[s]):
                r = rows[e]
                if r >= 0:
                    total += state[r, c]
            if k == 0:
                own[t, c] = total
            else:
                context[t, k - 1, c] = total
        start = ends[s]


Kernels = tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]
# "auto": numba's when it is installed (the ``fast`` extra), else numpy's; "python": the references.
IMPLEMENTATIONS = ("auto", "numba", "numpy", "python")


def _numba() -> Any | None:
    try:
        import numba
    except ImportError:
        return None
    return numba


def _chosen(implementation: str) -> str:
    if implementation not in IMPLEMENTATIONS:
        raise ValueError(f"unknown kernel implementation {implementation!r}")
    if implementation in ("auto", "numba"):
        if _numba() is not None:
            return "numba"
        if implementation == "numba":
            warnings.warn('numba is not installed (pip install "deident[fast]"): using the numpy kernels', stacklevel=3)
        return "numpy"
    return implementation


def _jit(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` compiled by numba (compiled once, then loaded from numba's on-disk cache)."""
    numba = _numba()
    assert numba is not None
    try:
        return numba.njit(cache=True, nogil=True)(function)  # type: ignore[no-any-return]
    except RuntimeError:  # no writable cache directory
        return numba.njit(nogil=True)(function)  # type: ignore[no-any-return]


@lru_cache(maxsize=4)
def kernels(implementation: str = "auto") -> Kernels:
    """(emissions, forward_backward) of ``implementation`` (see :data:`IMPLEMENTATIONS`)."""
    chosen = _chosen(implementation)
    if chosen == "numba":
        return _jit(_emissions_py), _jit(_forward_backward_py)
    if chosen == "numpy":
        from deident.detect.crf import vectorised

        return vectorised.emissions, vectorised.forward_backward
    return _emissions_py, _forward_backward_py


@lru_cache(maxsize=4)
def forward_backward_many(implementation: str = "auto") -> Callable[..., list[np.ndarray]]:
    """Forward-backward of several score matrices (``(sequences, transitions, column_bounds)``): the numpy
    kernel takes them together (one array operation per step serves them all), the others one by one."""
    if _chosen(implementation) == "numpy":
        from deident.detect.crf import vectorised

        return vectorised.forward_backward_many
    _, forward_backward = kernels(implementation)

    def one_by_one(sequences: Sequence[np.ndarray], transitions: np.ndarray, bounds: np.ndarray) -> list[np.ndarray]:
        return [forward_backward(scores, transitions, bounds) for scores in sequences]

    return one_by_one


@lru_cache(maxsize=4)
def row_sums_kernel(implementation: str = "auto") -> Callable[..., None]:
    """The kernel that fills per-type rows (:func:`_row_sums_py`) of ``implementation``."""
    chosen = _chosen(implementation)
    if chosen == "numba":
        return _jit(_row_sums_py)
    if chosen == "numpy":
        from deident.detect.crf import vectorised

        return vectorised.row_sums
    return _row_sums_py


def compile_model(extractor: FeatureExtractor, model_files: Sequence[Path], easyadapt: bool) -> CompiledCrf:
    """The compiled form of a model's CRFs (raises :class:`NotCompilable` where it cannot be built)."""
    return CompiledCrf(extractor, [CrfWeights.read(path) for path in model_files], easyadapt)


def token_columns(text: str, aggressive: bool = True) -> TokenColumns:
    return TokenColumns(*crf_token_columns(text, aggressive))


__all__ = [
    "CompiledCrf",
    "CrfWeights",
    "DocumentMarginals",
    "NotCompilable",
    "TokenColumns",
    "compile_model",
    "group_label_matrix",
    "kernels",
    "token_columns",
]
