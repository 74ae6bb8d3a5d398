"""``deident review``: a local page to check and correct detected PHI spans, and the corrections log behind it."""
