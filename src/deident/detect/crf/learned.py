"""Data the CRF learns from its training corpus besides weights: trigger words and a name lexicon.

Triggers (Szarvas 2007): words that often stand at a given offset (-2, -1, +1, +2) from a PHI token,
such as "dr" before a clinician or "wife" before a relative. The learned lexicon (as BoB did for
clinics) holds the tokens annotated as names and places; it is stored as truncated BLAKE2b hashes of
the lower-cased token, so a model directory never carries a readable list of the training PHI.
Both are plain TSV files in the model directory.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, patient_or_note
from deident.core.errors import ModelError
from deident.core.labels import Category
from deident.detect.crf.align import TokenLike

TRIGGER_OFFSETS = (-2, -1, 1, 2)
LEXICON_CATEGORIES = (Category.NAME, Category.LOCATION, Category.PROFESSION)


def token_hash(lower: str) -> str:
    """The learned lexicon's key for a lower-cased token."""
    return hashlib.blake2b(lower.encode("utf-8"), digest_size=8, person=b"deident-lex").hexdigest()


@dataclass(frozen=True)
class LearnedData:
    """Triggers ``(word, offset) -> category`` and lexicon ``hash -> category``."""

    triggers: Mapping[tuple[str, int], str] = field(default_factory=dict)
    lexicon: Mapping[str, str] = field(default_factory=dict)
    # Training only (not saved): which patients' notes each lexicon entry came from.
    lexicon_groups: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # Hashes of the words seen in the notes of at least two patients (the rest are "rare").
    vocabulary: frozenset[str] = frozenset()
    # Section headings learned from the training notes (:mod:`deident.detect.crf.headings`), most frequent first.
    headings: tuple[str, ...] = ()


def _phi_categories(doc: AnnotatedDocument, tokens: Sequence[TokenLike]) -> list[str | None]:
    """Category of the gold span covering each token (None outside PHI)."""
    out: list[str | None] = [None] * len(tokens)
    spans = doc.spans
    j = 0
    for i, tok in enumerate(tokens):
        while j < len(spans) and spans[j].end <= tok.start:
            j += 1
        k = j
        while k < len(spans) and spans[k].start < tok.end:
            if spans[k].end > tok.start:
                out[i] = spans[k].category.value
                break
            k += 1
    return out


def learn(
    docs: Iterable[tuple[AnnotatedDocument, Sequence[TokenLike]]],
    min_count: int = 3,
    min_ratio: float = 0.3,
    max_triggers: int = 400,
    min_vocabulary_groups: int = 2,
) -> LearnedData:
    """Learn triggers and the lexicon from tokenised gold documents."""
    seen: Counter[tuple[str, int]] = Counter()
    near: Counter[tuple[str, int, str]] = Counter()
    lexicon_votes: dict[str, Counter[str]] = {}
    lexicon_groups: dict[str, set[str]] = {}
    word_groups: dict[str, set[str]] = {}
    for doc, tokens in docs:
        group = doc_group(doc)
        for tok in tokens:
            if tok.text[:1].isalpha():
                word_groups.setdefault(tok.text.lower(), set()).add(group)
        cats = _phi_categories(doc, tokens)
        lowers = [t.text.lower() for t in tokens]
        n = len(tokens)
        for i in range(n):
            cat = cats[i]
            if cat is not None:
                if cat in LEXICON_CATEGORIES and tokens[i].text[:1].isalpha() and len(lowers[i]) > 1:
                    key = token_hash(lowers[i])
                    lexicon_votes.setdefault(key, Counter())[cat] += 1
                    lexicon_groups.setdefault(key, set()).add(group)
                continue
            word = lowers[i]
            if not word[:1].isalnum() and word not in {":", "-", "(", "/", "@", "#"}:
                continue
            for off in TRIGGER_OFFSETS:
                j = i - off  # the token at offset ``off`` from j is i
                if 0 <= j < n:
                    seen[(word, off)] += 1
                    near_cat = cats[j]
                    if near_cat is not None:
                        near[(word, off, near_cat)] += 1
    scored: list[tuple[float, str, int, str]] = []
    for (word, off, cat), count in near.items():
        ratio = count / seen[(word, off)]
        if count >= min_count and ratio >= min_ratio:
            scored.append((-ratio * count, word, off, cat))
    scored.sort()
    triggers: dict[tuple[str, int], str] = {}
    for _, word, off, cat in scored:
        if (word, off) not in triggers and len(triggers) < max_triggers:
            triggers[(word, off)] = cat
    lexicon = {h: votes.most_common(1)[0][0] for h, votes in lexicon_votes.items()}
    vocabulary = frozenset(token_hash(w) for w, groups in word_groups.items() if len(groups) >= min_vocabulary_groups)
    return LearnedData(triggers, lexicon, {k: frozenset(v) for k, v in lexicon_groups.items()}, vocabulary)


def doc_group(doc: AnnotatedDocument) -> str:
    """The patient a training note belongs to (the note itself when no patient id is known)."""
    return patient_or_note(doc.document)


def save_triggers(triggers: Mapping[tuple[str, int], str], path: Path) -> None:
    with atomic_write(path) as fh:
        fh.write("# word\toffset\tcategory\n")
        for (word, off), cat in sorted(triggers.items()):
            fh.write(f"{word}\t{off}\t{cat}\n")


def save_lexicon(lexicon: Mapping[str, str], path: Path) -> None:
    with atomic_write(path) as fh:
        fh.write("# blake2b-64 of the lower-cased token\tcategory\n")
        for key, cat in sorted(lexicon.items()):
            fh.write(f"{key}\t{cat}\n")


def read_rows(path: Path, width: int) -> list[list[str]]:
    """The rows of a model's tab-separated data file (blank and '#' lines skipped), each ``width`` fields."""
    rows: list[list[str]] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise ModelError(f"{path}: cannot read ({err.strerror})") from None
    for number, line in enumerate(lines, 1):
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != width:
            raise ModelError(f"{path}, line {number}: expected {width} tab-separated fields")
        rows.append(parts)
    return rows


def load_triggers(path: Path) -> dict[tuple[str, int], str]:
    out: dict[tuple[str, int], str] = {}
    for word, off, cat in read_rows(path, 3):
        try:
            out[(word, int(off))] = cat
        except ValueError:
            raise ModelError(f"{path}: bad trigger offset") from None
    return out


def save_vocabulary(vocabulary: frozenset[str], path: Path) -> None:
    with atomic_write(path) as fh:
        fh.write("# blake2b-64 of each lower-cased word seen in several patients' notes\n")
        for key in sorted(vocabulary):
            fh.write(f"{key}\n")


def load_vocabulary(path: Path) -> frozenset[str]:
    return frozenset(row[0] for row in read_rows(path, 1))


def load_lexicon(path: Path) -> dict[str, str]:
    return {key: cat for key, cat in read_rows(path, 2)}
