"""BRAT standoff: ``X.txt`` with annotations in ``X.ann`` beside it; a folder of such pairs is a corpus.

Text-bound lines ``T1<TAB>LABEL start end<TAB>text`` become spans; a discontinuous annotation
``LABEL s1 e1;s2 e2`` becomes one span per fragment. Other lines (A, R, E, #, N, ...) are skipped.
LABEL is a deident label or an i2b2 2014 category name (NAME -> PATIENT, ...). The recorded text is
checked against the .txt (fragments joined by one space; line breaks and tabs may appear as spaces,
which is how the writer stores them since an .ann line cannot hold them). The id is the path relative
to the folder without ``.txt``; ids "<patient>_<note>" give patient and note metadata. A .txt without
an .ann is a document without spans. Span evidence and other metadata are not kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import regex

from deident.core.atomic import atomic_write
from deident.core.document import AnnotatedDocument, Document
from deident.core.errors import InputFormatError, SpanAlignmentError
from deident.core.labels import CATEGORY_DEFAULT, Category, Label
from deident.core.span import Span
from deident.io.corpus_files import exact_content, file_for_id, folder_files, metadata_from_id, read_exact

_TEXT_BOUND = regex.compile(r"(T\S*)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)(?:\t(.*))?")
# Characters that would break an .ann line (Python's str.splitlines breaks at all of these).
_LINE_SPACE = regex.compile(r"\r\n|[\r\n\t\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _label(name: str, path: Path, where: str) -> Label:
    try:
        return Label.parse(name)
    except ValueError:
        pass
    try:
        return CATEGORY_DEFAULT[Category(name.upper())]
    except ValueError:
        raise InputFormatError(path, where, "unknown PHI label") from None


def parse_ann(content: str, text: str, path: Path) -> list[Span]:
    """Spans of an .ann file, checked against the text of its .txt file."""
    spans: list[Span] = []
    for number, raw in enumerate(content.split("\n"), start=1):
        raw = raw.removesuffix("\r")
        if not raw.startswith("T"):
            continue
        where = f"line {number}"
        match = _TEXT_BOUND.fullmatch(raw)
        if match is None:
            raise InputFormatError(path, where, "expected 'T<n><TAB><label> <start> <end><TAB><text>'")
        tag_id, label_name, ranges, recorded = match.groups()
        label = _label(label_name, path, f"{where} ({tag_id})")
        fragments = []
        for part in ranges.split(";"):
            start_s, end_s = part.split()
            start, end = int(start_s), int(end_s)
            if not 0 <= start < end <= len(text):
                raise InputFormatError(
                    path, f"{where} ({tag_id})", f"offsets [{start}, {end}) outside a text of {len(text)} characters"
                )
            fragments.append((start, end))
        if recorded is not None:
            covered = " ".join(text[s:e] for s, e in fragments)
            if recorded != covered and recorded != _LINE_SPACE.sub(" ", covered):
                raise SpanAlignmentError(
                    path, f"{where} ({tag_id})", f"offsets {ranges} do not cover the recorded text"
                )
        spans += [Span(s, e, label, source="gold") for s, e in fragments]
    return spans


def read_pair(txt_path: Path, doc_id: str, encoding: str = "utf-8") -> AnnotatedDocument:
    text = read_exact(txt_path, encoding)
    ann_path = txt_path.with_suffix(".ann")
    spans = parse_ann(read_exact(ann_path, encoding), text, ann_path) if ann_path.exists() else []
    return AnnotatedDocument(Document(doc_id, text, metadata_from_id(doc_id)), tuple(spans))


def read_brat(path: str | Path, encoding: str = "utf-8") -> list[AnnotatedDocument]:
    """Read a folder of .txt/.ann pairs, or one pair given by its .txt or .ann file."""
    path = Path(path)
    if path.is_dir():
        orphans = {i for i, _ in folder_files(path, ".ann")} - {i for i, _ in folder_files(path, ".txt")}
        if orphans:
            raise InputFormatError(path / (min(orphans) + ".ann"), None, "annotation file without its .txt")
        return [read_pair(file, doc_id, encoding) for doc_id, file in folder_files(path, ".txt")]
    txt_path = path.with_suffix(".txt")
    if not txt_path.exists():
        raise InputFormatError(path, None, "annotation file without its .txt")
    return [read_pair(txt_path, path.stem, encoding)]


def format_ann(item: AnnotatedDocument) -> str:
    lines = []
    for index, span in enumerate(item.spans, start=1):
        covered = _LINE_SPACE.sub(" ", span.text_of(item.text))
        lines.append(f"T{index}\t{span.label.value} {span.start} {span.end}\t{covered}\n")
    return "".join(lines)


def write_brat(documents: Iterable[AnnotatedDocument], folder: str | Path) -> Path:
    """Write ``<id>.txt`` and ``<id>.ann`` per document into ``folder``, each file atomically."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for item in documents:
        txt_path = file_for_id(folder, item.id, ".txt")
        with atomic_write(txt_path) as handle:
            handle.write(exact_content(item.text))
        with atomic_write(txt_path.with_suffix(".ann")) as handle:
            handle.write(format_ann(item))
    return folder
