"""The numpy CRF kernels (the default install's, without numba) equal the plain-Python reference kernels
bit for bit on random inputs: ties, repeated features and block layouts included."""

from __future__ import annotations

import math

import numpy as np
import pytest

from deident.detect.crf import compiled, vectorised

SEEDS = range(40)


def _blocks(rng: np.random.Generator) -> np.ndarray:
    sizes = rng.integers(1, 10, size=int(rng.integers(1, 4)))
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


@pytest.mark.parametrize("seed", SEEDS)
def test_forward_backward_equals_the_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    bounds = _blocks(rng)
    width = int(bounds[-1])
    # Long sequences now and then: the numpy kernel builds its backward products in chunks of steps.
    n = int(rng.integers(1, 1300)) if seed % 10 == 0 else int(rng.integers(1, 80))
    scores = rng.normal(0, [1.0, 5.0, 60.0][seed % 3], size=(n, width))
    if seed % 4 == 1:
        scores = np.round(scores)  # ties: equal scores and a repeated peak
    transitions = rng.normal(0, 2, size=(width, width))
    expected = compiled._forward_backward_py(scores, transitions, bounds)
    assert np.array_equal(vectorised.forward_backward(scores, transitions, bounds), expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_forward_backward_of_many_sequences_equals_the_reference_one_by_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    bounds = _blocks(rng)
    width = int(bounds[-1])
    transitions = rng.normal(0, 2, size=(width, width))
    # Lengths with ties and empty sequences, in no order: the kernel sorts them and steps them together.
    lengths = rng.integers(0, 40, size=int(rng.integers(1, 12)))
    sequences = [rng.normal(0, 5, size=(int(n), width)) for n in lengths]
    got = vectorised.forward_backward_many(sequences, transitions, bounds)
    assert len(got) == len(sequences)
    for scores, marginals in zip(sequences, got, strict=True):
        expected = compiled._forward_backward_py(scores, transitions, bounds) if len(scores) else np.zeros_like(scores)
        assert np.array_equal(marginals, expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_row_sums_equal_the_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    width = int(rng.integers(1, 20))
    state = rng.normal(size=(int(rng.integers(1, 30)), width))
    types = int(rng.integers(0, 6))
    ends = np.cumsum(rng.integers(0, 9, size=types * 5)).astype(np.int64)
    rows = rng.integers(-1, state.shape[0], size=int(ends[-1]) if types else 0).astype(np.int64)
    first = int(rng.integers(0, 3))
    expected_own, expected_context = np.zeros((first + types + 2, width)), np.zeros((first + types + 2, 4, width))
    own, context = expected_own.copy(), expected_context.copy()
    compiled._row_sums_py(expected_own, expected_context, first, ends, rows, state)
    vectorised.row_sums(own, context, first, ends, rows, state)
    assert np.array_equal(own, expected_own) and np.array_equal(context, expected_context)


def _hash_tables(
    rng: np.random.Generator, arity: np.ndarray, radix: np.ndarray, rows: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Open-addressing tables as ``CompiledCrf._hash_ngrams`` builds them, small so that keys collide."""
    slot_keys: list[np.ndarray] = []
    slot_rows: list[np.ndarray] = []
    base, masks, bounds = [0], [], [0]
    for s in range(len(arity)):
        count = int(rng.integers(0, 12))
        keys = set()
        for _ in range(count):
            codes = rng.integers(1, radix[s], size=int(arity[s]))
            keys.add(compiled._key([int(c) for c in codes], int(radix[s])))
        size = 8
        while size < 2 * len(keys):  # half full at most: probing goes past collisions
            size *= 2
        table_keys = np.full(size, -1, dtype=np.int64)
        table_rows = np.full(size, -1, dtype=np.int64)
        for key in sorted(keys):
            slot = compiled._slot(key, size - 1)
            while table_keys[slot] >= 0:
                slot = (slot + 1) & (size - 1)
            table_keys[slot] = key
            table_rows[slot] = int(rng.integers(0, rows))
        slot_keys.append(table_keys)
        slot_rows.append(table_rows)
        base.append(base[-1] + size)
        masks.append(size - 1)
        bounds.append(bounds[-1] + len(keys))
    return (
        np.concatenate(slot_keys),
        np.concatenate(slot_rows),
        np.array(base, dtype=np.int64),
        np.array(masks, dtype=np.int64),
        np.array(bounds, dtype=np.int64),
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_emissions_equal_the_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 70))
    width = int(rng.integers(1, 18))
    state_rows = 40
    state = rng.normal(size=(state_rows, width))
    types = int(rng.integers(2, 12))
    # Few codes per kind, so that n-grams of the text hit the tables' keys.
    word_code = rng.integers(0, 4, size=types).astype(np.int64)
    shape_code = rng.integers(0, 3, size=types).astype(np.int64)
    arity = np.array([2, 2, 2, 2, 2, 2, 3, 5], dtype=np.int64)
    kind = np.array([0, 0, 0, 0, 1, 1, 1, 1], dtype=np.int64)
    radix = np.where(kind == 0, 5, 4).astype(np.int64)
    offsets = np.zeros((8, 5), dtype=np.int64)
    for s, parts in enumerate([(-2, -1), (-1, 0), (0, 1), (1, 2), (-1, 0), (0, 1), (-1, 0, 1), (-2, -1, 0, 1, 2)]):
        offsets[s, : len(parts)] = parts
    slot_keys, slot_rows, slot_base, slot_mask, bounds = _hash_tables(rng, arity, radix, state_rows)
    extra = int(rng.integers(0, 12))
    pairs = sorted(
        {(int(rng.integers(0, n)), int(rng.integers(0, state_rows))) for _ in range(extra)}
    )  # a token may have several extra rows
    arguments = (
        rng.integers(1, types, size=n).astype(np.int64),  # ids (row 0: the sentence boundary)
        rng.random(n) < 0.2,  # newlines
        rng.integers(-1, state_rows, size=n).astype(np.int64),  # section rows
        np.array([t for t, _ in pairs], dtype=np.int64),
        np.array([r for _, r in pairs], dtype=np.int64),
        rng.normal(size=(types, width)),  # own
        rng.normal(size=(types, 4, width)),  # context
        word_code,
        shape_code,
        rng.integers(0, 8, size=types).astype(np.int64),  # case codes
        rng.integers(-1, state_rows, size=8).astype(np.int64),  # document-case rows
        rng.integers(-1, state_rows, size=13).astype(np.int64),  # positional rows
        slot_keys,
        slot_rows,
        slot_base,
        slot_mask,
        bounds,
        radix,
        kind,
        arity,
        offsets,
        state,
    )
    assert np.array_equal(vectorised.emissions(*arguments), compiled._emissions_py(*arguments))


def test_exact_exp_is_the_c_librarys() -> None:
    values = np.random.default_rng(0).normal(0, 30, size=(50, 7))
    assert vectorised.exact_exp(values).tolist() == [[math.exp(v) for v in row] for row in values.tolist()]
