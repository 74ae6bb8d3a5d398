"""Corpus formats by name, and detection from paths.

Each format is a reader (path -> documents) and optionally a writer (documents, path -> None).
The table is explicit: adding a format means adding a row here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deident.core.document import AnnotatedDocument
from deident.core.errors import ConfigurationError, InputFormatError
from deident.core.labels import PHYSIONET_TO_LABEL
from deident.io import brat, conll, csv_table, i2b2_2006, i2b2_2014, jsonl, parquet_table, physionet, plaintext
from deident.io.corpus_files import LONE_SURROGATE, find_unwritable, refuse_unwritable
from deident.io.metadata_sidecar import (
    FOLDER_SIDECAR,
    apply_sidecar,
    iter_applied_sidecar,
    sidecar_writer,
    write_sidecar,
)


@dataclass(frozen=True)
class ReadOptions:
    """Options for table and plain-text inputs (ignored by formats that carry their own ids)."""

    text_col: str = "text"
    id_col: str | None = None
    patient_col: str | None = None
    author_col: str | None = None  # the poster or writer of each note (message boards): metadata.author
    encoding: str = "utf-8"
    delimiter: str | None = None  # CSV/TSV field delimiter (default: "," or, for .tsv/.tab, a tab)
    quotechar: str = '"'  # CSV/TSV quote character
    annotations: Path | None = None  # an explicit annotation file (e.g. a .phrase) for the input
    # Restore span labels a format folded (PhysioNet's 10 types) from its metadata side file (`convert` does).
    restore_labels: bool = False


@dataclass(frozen=True)
class CorpusFormat:
    name: str
    extensions: tuple[str, ...]
    read: Callable[[Path, ReadOptions], list[AnnotatedDocument]]
    write: Callable[[Sequence[AnnotatedDocument], Path], None] | None = None
    description: str = ""
    directory: bool = False  # True when the format is a folder of files
    aliases: tuple[str, ...] = field(default=())
    # Why the writer cannot hold a note (field and offset, never its content), or None: see check_writable.
    unwritable: Callable[[AnnotatedDocument], str | None] = field(default=lambda item: None)
    # Readers and writers that take one note at a time (memory bounded by a note, not the corpus); a format
    # without them is read or written whole by iter_corpus and write_corpus.
    stream_read: Callable[[Path, ReadOptions], Iterator[AnnotatedDocument]] | None = None
    stream_write: Callable[[Iterable[AnnotatedDocument], Path], None] | None = None


def _not_utf8(item: AnnotatedDocument) -> str | None:
    """UTF-8 files cannot hold a lone surrogate (JSONL keeps it as an escape)."""
    return find_unwritable(item, LONE_SURROGATE, "a lone surrogate (U+D800 to U+DFFF)")


def _not_physionet(item: AnnotatedDocument) -> str | None:
    return _not_utf8(item) or physionet.unwritable(item)


def _not_xml(item: AnnotatedDocument) -> str | None:
    return i2b2_2014.unwritable(item)


def _read_physionet(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return list(_iter_physionet(path, options))


def _iter_physionet(path: Path, options: ReadOptions) -> Iterator[AnnotatedDocument]:
    return iter_applied_sidecar(
        lambda: physionet.iter_physionet(path, options.annotations), path, False, options.restore_labels
    )


def _write_physionet(docs: Iterable[AnnotatedDocument], path: Path) -> None:
    """The ``.text`` and ``.phrase`` files and the metadata side file, one note at a time (each file atomic)."""
    with sidecar_writer(path, False) as sidecar:
        physionet.write_physionet(docs, path, lambda item, back: sidecar.add(item, back.id, back))


def _same_id(item: AnnotatedDocument) -> str:
    return item.id


def _write_i2b2_2014(docs: Sequence[AnnotatedDocument], path: Path) -> None:
    i2b2_2014.write_i2b2_2014(docs, path)
    write_sidecar(docs, path, True, i2b2_2014.read_i2b2_2014, _same_id)


def _write_i2b2_2006(docs: Sequence[AnnotatedDocument], path: Path) -> None:
    i2b2_2006.write_i2b2_2006(docs, path)
    write_sidecar(docs, path, False, i2b2_2006.read_i2b2_2006, _same_id)


def _write_brat(docs: Sequence[AnnotatedDocument], path: Path) -> None:
    brat.write_brat(docs, path)
    write_sidecar(docs, path, True, brat.read_brat, _same_id)


def _read_jsonl(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return jsonl.read_jsonl(path)


def _iter_jsonl(path: Path, options: ReadOptions) -> Iterator[AnnotatedDocument]:
    return jsonl.iter_jsonl(path)


def _write_jsonl(docs: Iterable[AnnotatedDocument], path: Path) -> None:
    jsonl.write_jsonl(docs, path)


def _read_i2b2_2014(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return apply_sidecar(i2b2_2014.read_i2b2_2014(path, options.encoding), path, path.is_dir(), options.restore_labels)


def _read_i2b2_2006(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return apply_sidecar(i2b2_2006.read_i2b2_2006(path), path, False, options.restore_labels)


def _read_brat(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return apply_sidecar(brat.read_brat(path, options.encoding), path, path.is_dir(), options.restore_labels)


def _read_conll(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return conll.read_conll(path, options.encoding)


def _read_text(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return plaintext.read_text_corpus(path, options.encoding)


def _iter_text(path: Path, options: ReadOptions) -> Iterator[AnnotatedDocument]:
    return plaintext.iter_text_corpus(path, options.encoding)


def _read_csv(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return list(_iter_csv(path, options))


def _iter_csv(path: Path, options: ReadOptions) -> Iterator[AnnotatedDocument]:
    return csv_table.iter_csv(
        path,
        options.text_col,
        options.id_col,
        options.patient_col,
        options.encoding,
        options.author_col,
        options.delimiter,
        options.quotechar,
    )


def _read_parquet(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return list(_iter_parquet(path, options))


def _iter_parquet(path: Path, options: ReadOptions) -> Iterator[AnnotatedDocument]:
    return parquet_table.iter_parquet(path, options.text_col, options.id_col, options.patient_col, options.author_col)


def _writer(
    function: Callable[[Sequence[AnnotatedDocument], Path], object],
) -> Callable[[Sequence[AnnotatedDocument], Path], None]:
    def write(docs: Sequence[AnnotatedDocument], path: Path) -> None:
        function(docs, path)

    return write


def _stream_writer(
    function: Callable[[Iterable[AnnotatedDocument], Path], object],
) -> Callable[[Iterable[AnnotatedDocument], Path], None]:
    def write(docs: Iterable[AnnotatedDocument], path: Path) -> None:
        function(docs, path)

    return write


FORMATS: dict[str, CorpusFormat] = {
    "physionet": CorpusFormat(
        "physionet",
        (".text",),
        _read_physionet,
        _write_physionet,
        "PhysioNet deid .text with .phrase annotations",
        unwritable=_not_physionet,
        stream_read=_iter_physionet,
        stream_write=_write_physionet,
    ),
    "jsonl": CorpusFormat(
        "jsonl",
        (".jsonl", ".ndjson"),
        _read_jsonl,
        _write_jsonl,
        "one JSON document per line",
        stream_read=_iter_jsonl,
        stream_write=_write_jsonl,
    ),
    "i2b2-2014": CorpusFormat(
        "i2b2-2014",
        (".xml",),
        _read_i2b2_2014,
        _write_i2b2_2014,
        "i2b2 2014 / CEGS N-GRID XML, one <deIdi2b2> document per .xml file in a folder",
        directory=True,
        aliases=("i2b2_2014", "i2b2", "ngrid", "cegs-ngrid"),
        unwritable=_not_xml,
    ),
    "i2b2-2006": CorpusFormat(
        "i2b2-2006",
        (".xml",),
        _read_i2b2_2006,
        _write_i2b2_2006,
        "i2b2 2006 XML, one file of <RECORD>s with inline <PHI TYPE> tags",
        aliases=("i2b2_2006",),
        unwritable=_not_xml,
    ),
    "brat": CorpusFormat(
        "brat",
        (".ann",),
        _read_brat,
        _write_brat,
        "BRAT standoff, a folder of .txt + .ann pairs",
        directory=True,
        aliases=("standoff",),
        unwritable=_not_utf8,
    ),
    "conll": CorpusFormat(
        "conll",
        (".conll", ".bio", ".iob"),
        _read_conll,
        _writer(conll.write_conll),
        "BIO token lines 'token start end tag' (text spacing is not kept)",
        aliases=("bio",),
        unwritable=_not_utf8,
    ),
    "text": CorpusFormat(
        "text",
        (".txt",),
        _read_text,
        _writer(plaintext.write_text_corpus),
        "plain text: a .txt file or a folder of them, spans in a spans.jsonl sidecar",
        directory=True,
        aliases=("txt", "plain"),
        unwritable=_not_utf8,
        stream_read=_iter_text,
        stream_write=_stream_writer(plaintext.write_text_corpus),
    ),
    "csv": CorpusFormat(
        "csv",
        (".csv", ".tsv", ".tab"),
        _read_csv,
        _writer(csv_table.write_csv),
        "CSV or TSV table, one document per row",
        unwritable=_not_utf8,
        aliases=("tsv",),
        stream_read=_iter_csv,
        stream_write=_stream_writer(csv_table.write_csv),
    ),
    "parquet": CorpusFormat(
        "parquet",
        (".parquet", ".pq"),
        _read_parquet,
        _writer(parquet_table.write_parquet),
        "Parquet table, one document per row",
        unwritable=_not_utf8,
        stream_read=_iter_parquet,
        stream_write=_stream_writer(parquet_table.write_parquet),
    ),
}


def get_format(name: str) -> CorpusFormat:
    key = name.lower()
    for fmt in FORMATS.values():
        if key == fmt.name or key in fmt.aliases:
            return fmt
    raise ConfigurationError(f"unknown format {name!r}; known: {', '.join(sorted(FORMATS))}")


# Files that belong to another file's document, not documents of their own.
_COMPANIONS = (".phrase", ".conf")


def _folder_formats(folder: Path) -> dict[str, int]:
    """How many files of each corpus format a folder holds (its own sidecars and companions aside)."""
    files = [p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")]
    brat_pairs = any(p.suffix.lower() == ".ann" for p in files)
    counts: dict[str, int] = {}
    for file in files:
        name = file.name.lower()
        if (file.parent == folder and file.name in (plaintext.SIDECAR, FOLDER_SIDECAR)) or name.endswith(_COMPANIONS):
            continue
        if name.endswith((".ann", ".txt")):
            fmt = "brat" if brat_pairs else "text"
            if name.endswith(".ann"):
                continue  # counted by its .txt
        elif name.endswith(".xml"):
            fmt = "i2b2-2014"
        else:
            found = next((f.name for f in FORMATS.values() if any(name.endswith(ext) for ext in f.extensions)), None)
            if found is None:
                continue  # not a corpus file (a README, say)
            fmt = found
        counts[fmt] = counts.get(fmt, 0) + 1
    if brat_pairs and "brat" not in counts:
        counts["brat"] = 0
    return counts


def _folder_format(folder: Path) -> CorpusFormat:
    counts = _folder_formats(folder)
    if not counts:
        raise ConfigurationError(f"{folder}: cannot tell the format of this folder; name it with --from/--format")
    if len(counts) > 1:
        listed = ", ".join(f"{name} ({count} files)" for name, count in sorted(counts.items()))
        raise ConfigurationError(
            f"{folder}: holds files of several formats: {listed}; name the one to read with --from/--format "
            "(the others are then left aside), or give the files separately"
        )
    fmt = FORMATS[next(iter(counts))]
    if not fmt.directory:
        raise ConfigurationError(f"{folder}: a folder of {fmt.name} files; give the files themselves")
    return fmt


def detect_format(path: Path) -> CorpusFormat:
    """Guess a path's format: folders from the files they hold (.ann: brat, .xml: i2b2 2014,
    .txt: plain text; a folder holding files of several formats is an error that lists them, never a
    silent choice), .xml files from their root element, other files from their extension."""
    if path.is_dir():
        return _folder_format(path)
    name = path.name.lower()
    if name.endswith(".xml"):
        if path.exists() and i2b2_2014.looks_like_i2b2_2014(path):
            return FORMATS["i2b2-2014"]
        if path.exists() and i2b2_2006.looks_like_i2b2_2006(path):
            return FORMATS["i2b2-2006"]
        raise ConfigurationError(f"{path}: neither i2b2 2014 nor i2b2 2006 XML; name the format with --from/--format")
    if name.endswith(".txt") and path.with_suffix(".ann").exists():
        return FORMATS["brat"]
    for fmt in FORMATS.values():
        if any(name.endswith(ext) for ext in fmt.extensions):
            return fmt
    raise ConfigurationError(f"{path}: cannot tell the format from the extension; name it with --from/--format")


def read_corpus(
    path: str | Path, fmt: str | None = None, options: ReadOptions | None = None
) -> list[AnnotatedDocument]:
    path, corpus_format = _readable(path, fmt)
    return corpus_format.read(path, options or ReadOptions())


def iter_corpus(
    path: str | Path, fmt: str | None = None, options: ReadOptions | None = None
) -> Iterator[AnnotatedDocument]:
    """The documents one at a time: streamed where the format has a streaming reader, else read whole."""
    path, corpus_format = _readable(path, fmt)
    if corpus_format.stream_read is not None:
        return corpus_format.stream_read(path, options or ReadOptions())
    return iter(corpus_format.read(path, options or ReadOptions()))


def _readable(path: str | Path, fmt: str | None) -> tuple[Path, CorpusFormat]:
    path = Path(path)
    if not path.exists():
        raise InputFormatError(path, None, "no such file or folder")
    corpus_format = get_format(fmt) if fmt else detect_format(path)
    # A single-file format given a folder (pyarrow reads a Parquet dataset folder, so Parquet may have one).
    if path.is_dir() and not corpus_format.directory and corpus_format.name != "parquet":
        raise ConfigurationError(
            f"{path}: a folder, but format {corpus_format.name!r} reads one file; give the files themselves"
        )
    return path, corpus_format


def write_corpus(docs: Iterable[AnnotatedDocument], path: str | Path, fmt: str | None = None) -> None:
    """Write the documents; a format with a streaming writer takes them one at a time (each checked as it
    passes: the file is written atomically, so a refused note leaves nothing behind)."""
    path = Path(path)
    corpus_format = get_format(fmt) if fmt else _output_format(path)
    if corpus_format.write is None:
        raise ConfigurationError(f"format {corpus_format.name!r} can be read but not written")
    if corpus_format.stream_write is not None:
        corpus_format.stream_write(_checked(docs, corpus_format), path)
        return
    items = docs if isinstance(docs, Sequence) else list(docs)
    check_writable(items, corpus_format)
    corpus_format.write(items, path)


def _checked(docs: Iterable[AnnotatedDocument], corpus_format: CorpusFormat) -> Iterator[AnnotatedDocument]:
    for position, item in enumerate(docs, start=1):
        refuse_unwritable([item], corpus_format.name, corpus_format.unwritable, position)
        yield item


def check_writable(docs: Sequence[AnnotatedDocument], corpus_format: CorpusFormat) -> None:
    """ConfigurationError naming the first note (by position) the format cannot hold, before anything
    is written."""
    refuse_unwritable(docs, corpus_format.name, corpus_format.unwritable)


def losses(docs: Sequence[AnnotatedDocument], fmt: str) -> list[str]:
    """What writing ``docs`` as ``fmt`` will lose (counts only), for a warning; [] when nothing."""
    name = get_format(fmt).name
    found = []
    if name == "physionet":
        folded = sum(
            1
            for item in docs
            for span in item.spans
            if PHYSIONET_TO_LABEL[physionet.physionet_type(span, item.text)] is not span.label
        )
        if folded:
            found.append(
                f"{folded} spans get a coarser label (PhysioNet has 10 types; the side file keeps the original ones, "
                "which `deident convert` back restores)"
            )
    if name == "conll":
        spaced = sum(1 for item in docs if any(c.isspace() and c != " " for c in item.text))
        if spaced:
            found.append(f"{spaced} notes hold line breaks or other white space that CoNLL writes as spaces")
    if name in ("physionet", "brat", "i2b2-2006", "i2b2-2014", "conll"):
        detailed = sum(1 for item in docs for span in item.spans if span.parts or span.score is not None)
        if detailed:
            found.append(f"{detailed} spans lose their detector details (score, parts)")
    return found


def _output_format(path: Path) -> CorpusFormat:
    """An existing path's format, else the extension's (.xml: i2b2 2006, a single file)."""
    if path.exists() and not (path.is_dir() and not any(path.iterdir())):
        return detect_format(path)
    name = path.name.lower()
    if name.endswith(".xml"):
        return FORMATS["i2b2-2006"]
    for fmt in FORMATS.values():
        if any(name.endswith(ext) for ext in fmt.extensions if ext):
            return fmt
    raise ConfigurationError(f"{path}: cannot tell the output format from the name; name it with --to/--format")
