"""CoNLL-style BIO token files, for exchanging training data.

Each document starts with comment lines ``# doc_id = X``, ``# chars = N`` (the text length) and,
when it has any, ``# metadata = {json}``; then one token per line ``token<TAB>start<TAB>end<TAB>TAG``
with TAG ``O``, ``B-LABEL`` or ``I-LABEL``, and a blank line after each sentence. Tokens come from
``deident.text.tokenize`` (and ``deident.text.segment.sentences`` for sentence breaks), cut further
at span boundaries so that every span offset survives a round trip exactly.

Lossy: the reader rebuilds the text by placing tokens at their offsets; every character between
tokens becomes a space (line breaks and tabs are lost, the text length is kept). Overlapping spans
cannot be written. Lines ``token<TAB>TAG`` without offsets are also read (tokens then joined by one
space). Span evidence is not kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.core.errors import InputFormatError
from deident.core.labels import Label
from deident.core.span import Span
from deident.io.corpus_files import check_unique, metadata_from_id, read_exact, require_disjoint
from deident.text.segment import sentences
from deident.text.tokenize import tokenize


def _pieces(item: AnnotatedDocument) -> list[tuple[int, int]]:
    """Token offsets, cut where a span starts or ends inside a token."""
    cuts = sorted({s.start for s in item.spans} | {s.end for s in item.spans})
    out: list[tuple[int, int]] = []
    for token in tokenize(item.text):
        start = token.start
        for cut in cuts:
            if start < cut < token.end:
                out.append((start, cut))
                start = cut
        out.append((start, token.end))
    return out


def format_document(item: AnnotatedDocument) -> str:
    lines = [f"# doc_id = {item.id}", f"# chars = {len(item.text)}"]
    metadata = item.document.metadata.as_dict()
    if metadata:
        lines.append(f"# metadata = {json.dumps(metadata, ensure_ascii=False, sort_keys=True)}")
    sentence_starts = [s.start for s in sentences(item.text)][1:]
    next_sentence = 0
    spans = list(item.spans)
    span_index = 0
    previous_span: Span | None = None
    for start, end in _pieces(item):
        if next_sentence < len(sentence_starts) and start >= sentence_starts[next_sentence]:
            while next_sentence < len(sentence_starts) and start >= sentence_starts[next_sentence]:
                next_sentence += 1
            lines.append("")
        while span_index < len(spans) and spans[span_index].end <= start:
            span_index += 1
        span = spans[span_index] if span_index < len(spans) and spans[span_index].start <= start else None
        if span is None:
            tag = "O"
        else:
            tag = f"{'I' if span is previous_span else 'B'}-{span.label.value}"
        previous_span = span
        lines.append(f"{item.text[start:end]}\t{start}\t{end}\t{tag}")
    return "\n".join(lines) + "\n\n"


def write_conll(documents: Iterable[AnnotatedDocument], path: str | Path) -> Path:
    items = list(documents)
    require_disjoint(items, "BIO tokens")
    path = Path(path)
    with atomic_write(path) as handle:
        for item in items:
            handle.write(format_document(item))
    return path


class _DocumentBuilder:
    """Collects one document's tokens and tags while the file is read."""

    def __init__(self, doc_id: str) -> None:
        self.doc_id = doc_id
        self.chars: int | None = None
        self.metadata: DocumentMetadata | None = None
        self.tokens: list[tuple[int, int, str]] = []
        self.spans: list[Span] = []
        self.open: tuple[int, Label] | None = None  # start and label of the span being built
        self.last_end = 0

    def add(self, word: str, start: int, end: int, tag: str, path: Path, where: str) -> None:
        if end - start != len(word) or start < self.last_end:
            raise InputFormatError(path, where, "token offsets disagree with its length or overlap the previous token")
        if tag == "O":
            self._close()
        else:
            prefix, sep, label_name = tag.partition("-")
            if not sep or prefix not in ("B", "I"):
                raise InputFormatError(path, where, "tag must be O, B-LABEL or I-LABEL")
            try:
                label = Label.parse(label_name)
            except ValueError:
                raise InputFormatError(path, where, "unknown PHI label") from None
            if prefix == "B" or self.open is None or self.open[1] is not label:
                self._close()
                self.open = (start, label)
        self.tokens.append((start, end, word))
        self.last_end = end

    def _close(self) -> None:
        if self.open is not None:
            self.spans.append(Span(self.open[0], self.last_end, self.open[1], source="gold"))
            self.open = None

    def build(self) -> AnnotatedDocument:
        self._close()
        length = max(self.chars or 0, self.last_end)
        chars = [" "] * length
        for start, end, word in self.tokens:
            chars[start:end] = word
        metadata = self.metadata if self.metadata is not None else metadata_from_id(self.doc_id)
        return AnnotatedDocument(Document(self.doc_id, "".join(chars), metadata), tuple(self.spans))


def read_conll(path: str | Path, encoding: str = "utf-8") -> list[AnnotatedDocument]:
    path = Path(path)
    content = read_exact(path, encoding)
    docs: list[AnnotatedDocument] = []
    current: _DocumentBuilder | None = None
    for number, raw in enumerate(content.split("\n"), start=1):
        line = raw.removesuffix("\r")
        where = f"line {number}"
        fields = line.split("\t")
        if line.startswith("#") and len(fields) == 1:
            key, sep, value = line[1:].partition("=")
            key, value = key.strip(), value.strip()
            if not sep:
                continue
            if key == "doc_id":
                if current is not None:
                    docs.append(current.build())
                current = _DocumentBuilder(value)
            elif current is not None and key == "chars":
                if not value.isdigit():
                    raise InputFormatError(path, where, "'# chars' must be a number")
                current.chars = int(value)
            elif current is not None and key == "metadata":
                try:
                    current.metadata = DocumentMetadata.from_dict(json.loads(value))
                except (ValueError, TypeError, AttributeError):
                    raise InputFormatError(path, where, "'# metadata' must be a JSON object") from None
            continue
        if not line.strip():
            continue
        if current is None:  # a file without doc_id comments is one document
            current = _DocumentBuilder(path.stem)
        if len(fields) == 4:
            word, start_s, end_s, tag = fields
            if not (start_s.isdigit() and end_s.isdigit()):
                raise InputFormatError(path, where, "start and end must be integers")
            start, end = int(start_s), int(end_s)
        elif len(fields) == 2:
            word, tag = fields
            start = current.last_end + (1 if current.tokens else 0)
            end = start + len(word)
        else:
            raise InputFormatError(path, where, "expected 'token<TAB>start<TAB>end<TAB>tag' or 'token<TAB>tag'")
        current.add(word, start, end, tag.strip(), path, where)
    if current is not None:
        docs.append(current.build())
    check_unique([d.id for d in docs], path)
    return docs
