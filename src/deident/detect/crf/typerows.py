"""A word type's CRF attributes as the model's state rows, straight from the word: the same attributes,
in the same order, as :meth:`FeatureExtractor.type_info` lists as strings (then the word's own context
features, :func:`~deident.detect.crf.context.word_context_features`), looked up per feature family
(``w=``, ``p2=``, ``sh=``, ...) in dictionaries keyed by the value, so tagging a word the tagger has not
met costs a few dictionary look-ups instead of building and hashing two dozen strings.

``FeatureExtractor.type_info`` stays the definition (training uses it); tests check that both give the
same rows for every kind of word. Only attributes in the model matter: others map to -1 (skipped).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from deident.detect.crf.context import WORD_LEVEL_SWITCHES, word_context_features
from deident.detect.crf.features import OFFSETS, RARE, FeatureExtractor, case_class, word_shape
from deident.detect.crf.learned import token_hash
from deident.text.wordfrequency import frequency_band

MISSING = -1


def _family(rows: Mapping[str, int], prefix: str) -> dict[str, int]:
    """Value -> row of the attributes ``prefix + value`` (so ``family.get(v)`` is ``rows.get(prefix + v)``)."""
    size = len(prefix)
    return {attribute[size:]: row for attribute, row in rows.items() if attribute.startswith(prefix)}


TypeRowAppender = Callable[[str, list[int], list[int]], tuple[str, str, str]]


def type_row_appender(extractor: FeatureExtractor, rows: Mapping[str, int]) -> TypeRowAppender:
    """A function ``append(word, found, ends)`` for the model whose attribute rows are ``rows``: it
    appends ``word``'s state rows to ``found`` (-1 for attributes the model lacks), its own attributes
    (bias and lexicon category included) then what it adds to the neighbour at each offset in
    :data:`OFFSETS`, and the end of each of those five segments to ``ends``; it returns (the word as the
    n-gram features see it, its short shape, its case class).

    A closure over the model's per-family dictionaries (closure variables are the fastest look-ups
    Python has; it runs once per new word type)."""
    if extractor.keep is not None:
        raise ValueError("type rows mirror the extractor's full feature lists (keep=None)")
    learned = extractor.learned
    rare_masking = extractor.config.rare_masking
    vocabulary = learned.vocabulary
    lexicon = learned.lexicon
    clusters = extractor.clusters
    triggers = learned.triggers
    trigger_words = frozenset(word for word, _ in triggers)
    get = rows.get
    bias = get("bias", MISSING)
    has_digit = get("hasdig", MISSING)
    words = _family(rows, "w=")
    cases = _family(rows, "cc=")
    shapes = _family(rows, "sh=")
    long_shapes = _family(rows, "lsh=")
    lengths = [get(f"len={n}", MISSING) for n in range(13)]
    prefix2 = _family(rows, "p2=")
    prefix3 = _family(rows, "p3=")
    suffix2 = _family(rows, "s2=")
    suffix3 = _family(rows, "s3=")
    bands = {band: get(f"fb={band}", MISSING) for band in range(10)}
    cluster_rows = {
        cluster: (get(f"cl={cluster}", MISSING), tuple(get(f"cl{off}={cluster}", MISSING) for off in OFFSETS))
        for cluster in set(clusters.values())
    }
    no_cluster = get("cl=none", MISSING)
    w_m2, w_m1, w_p1, w_p2 = (_family(rows, f"w{off}=") for off in OFFSETS)
    sh_m2, sh_m1, sh_p1, sh_p2 = (_family(rows, f"sh{off}=") for off in OFFSETS)
    if tuple(OFFSETS) != (-2, -1, 1, 2):
        raise ValueError("type rows assume the window offsets -2, -1, +1, +2")
    # A word's (or shape's) own row and the rows it gives the neighbours at -2, -1, +1, +2, in one look-up.
    word_families = (words, w_m2, w_m1, w_p1, w_p2)
    word_rows = {v: tuple(f.get(v, MISSING) for f in word_families) for v in set().union(*word_families)}
    shape_families = (shapes, sh_m2, sh_m1, sh_p1, sh_p2)
    shape_rows = {v: tuple(f.get(v, MISSING) for f in shape_families) for v in set().union(*shape_families)}
    none = (MISSING,) * 5
    switches = extractor.config.context_switches
    word_level = switches if any(switches.get(name) for name in WORD_LEVEL_SWITCHES) else None

    def append(word: str, found: list[int], ends: list[int]) -> tuple[str, str, str]:
        extend = found.extend
        lower = word.lower()
        short, long = word_shape(word)
        cc = case_class(word)
        alphabetic = word[:1].isalpha()
        hashed = token_hash(lower) if alphabetic and (rare_masking or lexicon) else None
        ident = RARE if rare_masking and alphabetic and hashed not in vocabulary else lower
        rw, rw_m2, rw_m1, rw_p1, rw_p2 = word_rows.get(ident, none)  # own, then for the neighbours at -2, -1, +1, +2
        rs, rs_m2, rs_m1, rs_p1, rs_p2 = shape_rows.get(short, none)
        extend((bias, rw, cases.get(cc, MISSING), rs, long_shapes.get(long, MISSING), lengths[min(len(word), 12)]))
        if len(lower) > 2:
            extend(
                (
                    prefix2.get(lower[:2], MISSING),
                    prefix3.get(lower[:3], MISSING),
                    suffix2.get(lower[-2:], MISSING),
                    suffix3.get(lower[-3:], MISSING),
                )
            )
        if alphabetic:
            band = frequency_band(lower)
            found.append(bands[band] if band in bands else get(f"fb={band}", MISSING))
        elif any(c.isdigit() for c in word):
            found.append(has_digit)
            if word.isdigit():
                found.append(get(f"dg{len(word)}", MISSING))
                if len(word) <= 2 and word.isdecimal():  # int() refuses digits such as "²"
                    found.append(get(f"num={min(int(word), 40) // 5}", MISSING))
        cluster = clusters.get(lower)
        if cluster is None:
            found.append(no_cluster)
        else:
            own_cluster, context_clusters = cluster_rows[cluster]
            found.append(own_cluster)
        if hashed is not None and lexicon:
            category = lexicon.get(hashed)
            if category is not None:
                found.append(get(f"lex={category}", MISSING))
        if word_level is not None:  # the word's own context features, which the tagger takes per type
            extend(get(f, MISSING) for f in word_context_features(word_level, lower))
        size = len(found)
        ends.append(size)
        if cluster is None and lower not in trigger_words:  # the common case: word and shape only
            extend((rw_m2, rs_m2, rw_m1, rs_m1, rw_p1, rs_p1, rw_p2, rs_p2))
            ends.extend((size + 2, size + 4, size + 6, size + 8))
            return ident, short, cc
        for k, (off, word_row, shape_row) in enumerate(
            zip(OFFSETS, (rw_m2, rw_m1, rw_p1, rw_p2), (rs_m2, rs_m1, rs_p1, rs_p2), strict=True)
        ):
            extend((word_row, shape_row))
            if cluster is not None:
                found.append(context_clusters[k])
            trigger = triggers.get((lower, off))
            if trigger is not None:
                found.append(get(f"trg{off}={trigger}", MISSING))
            ends.append(len(found))
        return ident, short, cc

    return append


__all__ = ["MISSING", "TypeRowAppender", "type_row_appender"]
