"""Stage 2: candidate union, learned false-positive filter, trusted phrases, reconciliation.

Entry points: :func:`deident.stage2.assemble.stage2_pipeline` (build),
:func:`deident.stage2.training.fit_filter_out_of_fold` (train),
:func:`deident.stage2.span_classifier.save_filter` / :func:`load_filter` (persist).
"""
