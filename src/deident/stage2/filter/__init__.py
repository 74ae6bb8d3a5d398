"""The learned false-positive filter (BoB's stage 2).

:mod:`deident.stage2.filter.span_classifier` judges each candidate span with a model fitted by
:func:`deident.stage2.filter.training.fit_span_filter` on out-of-fold candidates (features in
:mod:`deident.stage2.filter.candidate_features`, thresholds from :mod:`deident.stage2.filter.calibration`)
and saved as JSON by :func:`deident.stage2.filter.span_classifier.save_filter`.
"""
