"""Corpus readers and writers; lossless round trips between formats."""

from deident.io.formats import FORMATS, CorpusFormat, ReadOptions, detect_format, get_format, read_corpus, write_corpus

__all__ = ["FORMATS", "CorpusFormat", "ReadOptions", "detect_format", "get_format", "read_corpus", "write_corpus"]
