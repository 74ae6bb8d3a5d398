"""Stage 2 around the learned filter: candidate union, trusted phrases, reconciliation, explanations.

Entry point: :func:`deident.stage2.assemble.stage2_pipeline` (union, veto, the span filter of
:mod:`deident.filter`, trusted phrases, reconciliation). The filter itself is trained by
:func:`deident.filter.training.fit_filter_out_of_fold` and persisted by
:func:`deident.filter.span_classifier.save_filter` / :func:`load_filter`.
"""
