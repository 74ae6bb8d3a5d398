"""Stage 2 (precision): candidate union, the learned span filter, trusted phrases, reconciliation, explanations.

Entry point: :func:`deident.stage2.assemble.stage2_pipeline` (union, the span filter of
:mod:`deident.stage2.filter`, trusted phrases, reconciliation). The filter is trained by
:func:`deident.stage2.filter.training.fit_span_filter` and persisted by
:func:`deident.stage2.filter.span_classifier.save_filter` / :func:`load_filter`.
"""
