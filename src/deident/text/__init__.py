"""Text processing: tokenizer, line/sentence segmentation, section headings."""

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
