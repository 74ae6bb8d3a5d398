"""PHI detectors: patterns, lexicons and the CRF tagger."""
