"""The CRF tagger (Benton, Sibanda, Szarvas, Lee): features, alignment, training, detection."""

from deident.detect.crf.align import AlignmentReport, spans_to_tags, tags_to_spans
from deident.detect.crf.features import FEATURE_SET_VERSION, FeatureConfig, FeatureExtractor, SpanProvider
from deident.detect.crf.tagger import CrfDetector, CrfModel, CrfStage, available_providers
from deident.detect.crf.train import TrainConfig, cross_validate, train_model

__all__ = [
    "FEATURE_SET_VERSION",
    "AlignmentReport",
    "CrfDetector",
    "CrfModel",
    "CrfStage",
    "FeatureConfig",
    "FeatureExtractor",
    "SpanProvider",
    "TrainConfig",
    "available_providers",
    "cross_validate",
    "spans_to_tags",
    "tags_to_spans",
    "train_model",
]
