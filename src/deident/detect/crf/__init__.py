"""The CRF tagger (Benton, Sibanda, Szarvas, Lee): features, alignment, tagging; training in ``train``.

Nothing is re-exported here: loading a model imports this package, and must not import training
(:mod:`deident.detect.crf.train`, scikit-learn for the word clusters) or any corpus format.
"""
