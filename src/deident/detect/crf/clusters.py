"""Word clusters learned from unlabelled text: PPMI co-occurrence, truncated SVD, k-means.

Learning needs scikit-learn (the ``ml`` extra) and happens only at training time; the result is a
plain TSV ``word -> cluster`` in the model directory, so tagging needs nothing but this file.
Only words seen at least ``min_count`` times in at least ``min_docs`` documents get a cluster, which
keeps rare strings (most PHI among them) out of the file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from deident.core.atomic import atomic_write
from deident.core.errors import ConfigurationError, ModelError
from deident.detect.crf.learned import read_rows


def learn_clusters(
    token_lists: Iterable[Sequence[str]],
    n_clusters: int = 64,
    dimensions: int = 50,
    window: int = 2,
    min_count: int = 5,
    min_docs: int = 3,
    seed: int = 13,
) -> dict[str, int]:
    """Cluster lower-cased words by their PPMI context vectors; deterministic for a fixed seed."""
    try:
        import numpy as np
        from scipy import sparse
        from sklearn.cluster import KMeans
        from sklearn.decomposition import TruncatedSVD
        from sklearn.preprocessing import normalize
    except ImportError:  # pragma: no cover - depends on the environment
        raise ConfigurationError('learning word clusters needs scikit-learn: pip install "deident[train]"') from None

    docs = [[w.lower() for w in tokens] for tokens in token_lists]
    counts: Counter[str] = Counter()
    doc_counts: Counter[str] = Counter()
    for words in docs:
        counts.update(words)
        doc_counts.update(set(words))
    vocab = sorted(w for w, c in counts.items() if c >= min_count and doc_counts[w] >= min_docs)
    if len(vocab) < n_clusters * 2:
        return {}
    index = {w: i for i, w in enumerate(vocab)}
    pairs: Counter[tuple[int, int]] = Counter()
    for words in docs:
        ids = [index.get(w, -1) for w in words]
        for i, a in enumerate(ids):
            if a < 0:
                continue
            for j in range(max(0, i - window), min(len(ids), i + window + 1)):
                b = ids[j]
                if j != i and b >= 0:
                    pairs[(a, b)] += 1
    rows = np.fromiter((p[0] for p in pairs), dtype=np.int64, count=len(pairs))
    cols = np.fromiter((p[1] for p in pairs), dtype=np.int64, count=len(pairs))
    vals = np.fromiter(pairs.values(), dtype=np.float64, count=len(pairs))
    total = vals.sum()
    row_sum = np.bincount(rows, weights=vals, minlength=len(vocab))
    col_sum = np.bincount(cols, weights=vals, minlength=len(vocab)) ** 0.75  # context smoothing
    col_sum = col_sum / col_sum.sum() * total
    pmi = np.log(vals * total / (row_sum[rows] * col_sum[cols]))
    keep = pmi > 0
    matrix = sparse.csr_matrix((pmi[keep], (rows[keep], cols[keep])), shape=(len(vocab), len(vocab)))
    dims = min(dimensions, len(vocab) - 1)
    vectors = TruncatedSVD(n_components=dims, random_state=seed, algorithm="arpack").fit_transform(matrix)
    vectors = normalize(vectors)
    labels = KMeans(n_clusters=n_clusters, random_state=seed, n_init=4).fit_predict(vectors)
    return {w: int(c) for w, c in zip(vocab, labels, strict=True)}


def save_clusters(clusters: Mapping[str, int], path: Path) -> None:
    with atomic_write(path) as fh:
        fh.write("# word\tcluster\n")
        for word, cluster in sorted(clusters.items()):
            fh.write(f"{word}\t{cluster}\n")


def load_clusters(path: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    for word, cluster in read_rows(path, 2):
        if not cluster.isdigit():
            raise ModelError(f"{path}: cluster of a word is not a number")
        out[word] = int(cluster)
    return out
