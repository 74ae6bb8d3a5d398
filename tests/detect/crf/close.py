"""Comparing tagged documents up to floating-point rounding (the compiled path sums crfsuite's weights
in a different order, so marginals agree to about 1e-14, not bit for bit)."""

from __future__ import annotations

from deident.detect.crf.tagger import TaggedDocument

TOLERANCE = 1e-9


def assert_tagged_close(got: TaggedDocument, want: TaggedDocument, floor: float, tol: float = TOLERANCE) -> None:
    """Same tokens, PHI probabilities within ``tol``, and per-label probabilities within ``tol`` for
    every token above ``floor`` (a token within ``tol`` of the floor may be listed by one side only)."""
    assert got.tokens == want.tokens
    assert len(got.groups) == len(want.groups)
    for mine, theirs in zip(got.groups, want.groups, strict=True):
        assert len(mine.phi) == len(theirs.phi)
        for a, b in zip(mine.phi, theirs.phi, strict=True):
            assert abs(a - b) <= tol, (a, b)
        for t in mine.labels.keys() | theirs.labels.keys():
            if t not in mine.labels or t not in theirs.labels:
                assert abs(theirs.phi[t] - floor) <= tol, t
                continue
            assert mine.labels[t].keys() == theirs.labels[t].keys()
            for label, prob in theirs.labels[t].items():
                assert abs(mine.labels[t][label] - prob) <= tol, (t, label)
