"""Assembling stage 2 behind a stage-1 pipeline: union -> filter -> trusted phrases -> name completion ->
reconciliation.

Each part can be switched off for ablations. The filter and reconciliation are group stages
(:class:`deident.core.pipeline.GroupStage`): called on one note they see that note alone; through
:meth:`Pipeline.run_many <deident.core.pipeline.Pipeline.run_many>` they see the notes processed
together, so reconciliation (and a filter trained with same-patient features) works across each
patient's notes.
"""

from __future__ import annotations

from deident.core.pipeline import Pipeline, Stage
from deident.stage2.filter.span_classifier import SpanFilter, SpanFilterStage
from deident.stage2.name_completion import NameCompletion
from deident.stage2.reconcile import ReconcileOptions, ReconcileStage
from deident.stage2.trusted_phrases import TrustedPhraseStage
from deident.stage2.union import UnionStage


def stage2_stages(
    span_filter: SpanFilter | None,
    *,
    use_filter: bool = True,
    trusted: bool = True,
    reconcile: bool = True,
    reconcile_options: ReconcileOptions | None = None,
    completion: NameCompletion | None = None,
) -> tuple[Stage, ...]:
    """The stage-2 stages to append to stage 1 (``span_filter`` None or ``use_filter`` False: no filter;
    ``completion`` None: names are not completed).

    Name completion and reconciliation feed each other: a name completed to "Ann Smith" is spread to its other
    mentions, and a mention spread from "Mrs Smith" may be completed by the word before it ("Ann"), whose other
    mentions a second reconciliation then tags. Two rounds, so a repeated name is never left half done."""
    stages: list[Stage] = [UnionStage()]
    if use_filter and span_filter is not None:
        stages.append(SpanFilterStage(span_filter))
    if trusted:
        stages.append(TrustedPhraseStage())
    options = reconcile_options or ReconcileOptions()
    if completion is not None:
        stages.append(completion)
    if reconcile:
        stages.append(ReconcileStage(options))
    if completion is not None and reconcile:
        stages += [completion, ReconcileStage(options, after_completion=True)]
    return tuple(stages)


def stage2_pipeline(
    stage1: Pipeline,
    span_filter: SpanFilter | None,
    *,
    use_filter: bool = True,
    trusted: bool = True,
    reconcile: bool = True,
    reconcile_options: ReconcileOptions | None = None,
    completion: NameCompletion | None = None,
    name: str = "default",
) -> Pipeline:
    """``stage1``'s stages followed by :func:`stage2_stages`; use ``run_many`` on notes processed together."""
    extra = stage2_stages(
        span_filter,
        use_filter=use_filter,
        trusted=trusted,
        reconcile=reconcile,
        reconcile_options=reconcile_options,
        completion=completion,
    )
    return Pipeline((*stage1.stages, *extra), name)
