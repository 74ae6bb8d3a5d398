"""False-positive filtering: the veto of clinical words and the learned span filter (BoB's stage 2).

:mod:`deident.filter.veto` drops stage-1 candidates that are drug names, eponyms or clinical
abbreviations; :mod:`deident.filter.span_classifier` judges each candidate span with a model fitted by
:func:`deident.filter.training.fit_filter_out_of_fold` on out-of-fold candidates (features in
:mod:`deident.filter.candidate_features`, thresholds from :mod:`deident.filter.calibration`) and saved as
JSON by :func:`deident.filter.span_classifier.save_filter`.
"""
