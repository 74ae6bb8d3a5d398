"""The CRF kernels of :mod:`deident.detect.crf.compiled` in numpy, for an install without numba.

Each function returns exactly (bit for bit) what its plain-Python reference in ``compiled`` returns
(``_emissions_py``, ``_forward_backward_py``, ``_row_sums_py``; tests compare them on random inputs),
so output does not depend on which kernels ran. What keeps them equal:

- every sum adds the same terms in the same order as the reference: sums over tokens or segments are
  whole-array additions made term by term in the reference's order, and sums inside a vector are
  ``np.add.accumulate`` (sequential by definition; ``sum``/``reduce`` may add pairwise);
- terms the reference skips are either left out or are exact zeros (``x + 0.0 == x``);
- ``exp`` is ``math.exp`` (the C library's, which numba also calls): numpy's own vectorised ``exp``
  differs from it in the last bit for a few per cent of inputs.

Emissions and the per-type row sums are vectorised over tokens; forward-backward, a recurrence over
tokens, over labels only (one step is a few array operations for all the model's CRFs at once), so it
costs a few microseconds a token where numba's loop costs well under one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from deident.detect.crf.features import OFFSETS

_SEGMENTS = 1 + len(OFFSETS)  # per word type: its own weights, then one row per neighbour offset


def exact_exp(values: np.ndarray) -> np.ndarray:
    """``math.exp`` of every element (the C library's exp, as the reference kernels and numba use)."""
    flat = np.fromiter(map(math.exp, values.ravel().tolist()), dtype=np.float64, count=values.size)
    return flat.reshape(values.shape)


def _add_rows(scores: np.ndarray, rows: np.ndarray, state: np.ndarray) -> None:
    """``scores[t] += state[rows[t]]`` for every token whose row is not -1."""
    chosen = np.flatnonzero(rows >= 0)
    if chosen.size:
        scores[chosen] += state[rows[chosen]]


def emissions(
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
    """``compiled._emissions_py``, vectorised over tokens."""
    n = ids.shape[0]
    scores: np.ndarray = own[ids].astype(np.float64, copy=True)
    padded = np.zeros(n + 4, dtype=np.int64)  # two boundary rows (row 0) on each side
    padded[2 : n + 2] = ids
    for k, offset in enumerate((-2, -1, 1, 2)):
        scores += context[padded[2 + offset : 2 + offset + n], k]
    for s in range(ngram_kind.shape[0]):
        if ngram_bounds[s] == ngram_bounds[s + 1]:
            continue
        codes = word_code if ngram_kind[s] == 0 else shape_code
        key = np.zeros(n, dtype=np.int64)
        whole = np.ones(n, dtype=np.bool_)
        for p in range(ngram_arity[s]):
            offset = int(ngram_offsets[s, p])
            code = codes[padded[2 + offset : 2 + offset + n]]
            whole &= code != 0  # a part in no attribute of this kind: no key matches
            key = key * ngram_radix[s] + code  # below radix**arity < 2**62 (checked when compiled)
        tokens = np.flatnonzero(whole)
        key = key[tokens]
        mask = ngram_slot_mask[s]
        base = ngram_slot_base[s]
        slot = (key ^ (key >> 11) ^ (key >> 23)) & mask
        found_tokens: list[np.ndarray] = []
        found_rows: list[np.ndarray] = []
        while tokens.size:  # linear probing, all tokens' keys at once
            stored = ngram_slot_keys[base + slot]
            hit = stored == key
            found_tokens.append(tokens[hit])
            found_rows.append(ngram_slot_rows[base + slot[hit]])
            going = (stored >= 0) & ~hit
            tokens, key, slot = tokens[going], key[going], (slot[going] + 1) & mask
        if found_tokens:
            hit_tokens = np.concatenate(found_tokens)  # each token at most once per n-gram feature
            scores[hit_tokens] += state[np.concatenate(found_rows)]
    t = np.arange(n)
    back = n - 1 - t
    # Line index: tokens since the last token that starts a line (or since the first token).
    line_index = t - np.maximum.accumulate(np.where(newlines, t, 0))
    ends_line = np.ones(n, dtype=np.bool_)
    ends_line[:-1] = newlines[1:]
    none = np.int64(-1)
    for rows in (
        doc_case_rows[case_code[ids]],
        np.where(newlines, positional[0], none),
        np.where(ends_line, positional[1], none),
        positional[2 + np.minimum(line_index, 4)],
        np.where(t < 30, positional[7 + (t >= 3) + (t >= 10)], none),
        np.where(back < 30, positional[10 + (back >= 3) + (back >= 10)], none),
        section_rows,
    ):
        _add_rows(scores, rows, state)
    if extra_tokens.shape[0]:
        np.add.at(scores, extra_tokens, state[extra_rows])  # in order, repeated tokens included
    return scores


def forward_backward(scores: np.ndarray, transitions: np.ndarray, column_bounds: np.ndarray) -> np.ndarray:
    """``compiled._forward_backward_py``."""
    return forward_backward_many([scores], transitions, column_bounds)[0]


def forward_backward_many(
    sequences: Sequence[np.ndarray], transitions: np.ndarray, column_bounds: np.ndarray
) -> list[np.ndarray]:
    """``compiled._forward_backward_py`` of each score matrix, the sequences in step: step ``t`` advances every
    sequence longer than ``t`` at once (the per-step work is a few array operations whatever their number), and
    all CRFs too, as blocks padded to the widest CRF's labels (padding: zero weights, which add exact zeros and
    stay inside their block). Each element goes through the reference's operations in its order.

    Layout: the sequences sorted longest first, so those longer than ``t`` are a prefix of them; rows of step
    ``t`` are ``offset[t] + j`` for the ``active[t]`` longest sequences ``j``."""
    outs = [np.zeros_like(scores) for scores in sequences]
    order = sorted((i for i, scores in enumerate(sequences) if scores.shape[0]), key=lambda i: -sequences[i].shape[0])
    if not order:
        return outs
    lengths = np.array([sequences[i].shape[0] for i in order], dtype=np.int64)
    longest = int(lengths[0])
    active = len(order) - np.searchsorted(lengths[::-1], np.arange(longest), side="right")
    offset = np.zeros(longest + 1, dtype=np.int64)
    np.cumsum(active, out=offset[1:])
    rows_of = [offset[:length] + j for j, length in enumerate(lengths.tolist())]
    packed = np.empty((int(offset[-1]), sequences[order[0]].shape[1]))
    for j, i in enumerate(order):
        packed[rows_of[j]] = sequences[i]
    starts = column_bounds[:-1].tolist()
    sizes = np.diff(column_bounds).tolist()
    blocks, most = len(sizes), max(sizes)
    trans = np.zeros((blocks, most, most))  # [block, x, y]
    local = np.zeros((packed.shape[0], blocks, most))
    for m, (a, size) in enumerate(zip(starts, sizes, strict=True)):
        trans[m, :size, :size] = exact_exp(transitions[a : a + size, a : a + size])
        block = packed[:, a : a + size]
        local[:, m, :size] = exact_exp(block - block.max(axis=1)[:, None])
    by_target = np.swapaxes(trans, 1, 2)  # [m, y, x]
    alpha = np.empty_like(local)
    scale = np.empty((packed.shape[0], blocks, 1))
    step = np.empty((len(order), blocks, most, most))
    sums = np.empty_like(step)
    totals = np.empty((len(order), blocks, most))
    multiply, divide, accumulate = np.multiply, np.divide, np.add.accumulate
    for t in range(longest):
        k, row = int(active[t]), int(offset[t])
        now = alpha[row : row + k]
        if t:
            before = int(offset[t - 1])
            # [j, m, x, y]: alpha[t-1, x] * trans[x, y], summed over x in x order (the last row of the accumulation)
            multiply(alpha[before : before + k, :, :, None], trans, out=step[:k])
            accumulate(step[:k], axis=2, out=sums[:k])
            multiply(sums[:k, :, -1], local[row : row + k], out=now)
        else:
            now[...] = local[row : row + k]
        accumulate(now, axis=2, out=totals[:k])
        scale[row : row + k, :, 0] = totals[:k, :, -1]
        divide(now, scale[row : row + k], out=now)
    beta = np.empty_like(local)
    for t in range(longest - 1, -1, -1):
        k, row = int(active[t]), int(offset[t])
        going = int(active[t + 1]) if t + 1 < longest else 0  # the sequences that have a step t + 1
        beta[row + going : row + k] = 1.0  # the others end at t
        if going:
            after = int(offset[t + 1])
            # [j, m, y, x]: trans[x, y] * local[t+1, y] * beta[t+1, y], summed over y in y order
            multiply(by_target, local[after : after + going, :, :, None], out=step[:going])
            multiply(step[:going], beta[after : after + going, :, :, None], out=step[:going])
            accumulate(step[:going], axis=2, out=sums[:going])
            divide(sums[:going, :, -1], scale[after : after + going], out=beta[row : row + going])
    both = alpha * beta
    marginals = np.empty_like(packed)
    for m, (a, size) in enumerate(zip(starts, sizes, strict=True)):
        total = np.add.accumulate(both[:, m, :size], axis=1)[:, -1]
        marginals[:, a : a + size] = both[:, m, :size] / total[:, None]
    for j, i in enumerate(order):
        outs[i] = marginals[rows_of[j]]
    return outs


def row_sums(
    own: np.ndarray, context: np.ndarray, first: int, ends: np.ndarray, rows: np.ndarray, state: np.ndarray
) -> None:
    """``compiled._row_sums_py``: every segment's sum built term by term, all segments at once."""
    count = ends.shape[0]
    if count == 0:
        return
    starts = np.zeros(count, dtype=np.int64)
    starts[1:] = ends[:-1]
    lengths = ends - starts
    totals = np.zeros((count, state.shape[1]))
    for r in range(int(lengths.max())):
        segments = np.flatnonzero(lengths > r)
        found = rows[starts[segments] + r]
        kept = found >= 0
        totals[segments[kept]] += state[found[kept]]
    types = count // _SEGMENTS
    by_type = totals.reshape(types, _SEGMENTS, state.shape[1])
    own[first : first + types] = by_type[:, 0]
    context[first : first + types] = by_type[:, 1:]
