"""Text processing: tokenizer, line/sentence segmentation, section headings, the note's letter case
(:mod:`deident.text.case`), normalisation (:mod:`deident.text.normalise`), word frequencies, and the per-note view
the stages of a pipeline block share (:mod:`deident.text.note_view`)."""

from deident.text.sections import Section, SectionDetector, section_at
from deident.text.segment import Segment, lines, sentences
from deident.text.tokenize import Token, tokenize, whitespace_tokens

__all__ = [
    "Section",
    "SectionDetector",
    "Segment",
    "Token",
    "lines",
    "section_at",
    "sentences",
    "tokenize",
    "whitespace_tokens",
]
