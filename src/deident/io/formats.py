"""Corpus formats by name, and detection from paths.

Each format is a reader (path -> documents) and optionally a writer (documents, path -> None).
The table is explicit: adding a format means adding a row here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deident.core.document import AnnotatedDocument
from deident.core.errors import ConfigurationError
from deident.io import brat, conll, csv_table, i2b2_2006, i2b2_2014, jsonl, parquet_table, physionet, plaintext


@dataclass(frozen=True)
class ReadOptions:
    """Options for table and plain-text inputs (ignored by formats that carry their own ids)."""

    text_col: str = "text"
    id_col: str | None = None
    patient_col: str | None = None
    author_col: str | None = None  # the poster or writer of each note (message boards): metadata.author
    encoding: str = "utf-8"
    annotations: Path | None = None  # an explicit annotation file (e.g. a .phrase) for the input


@dataclass(frozen=True)
class CorpusFormat:
    name: str
    extensions: tuple[str, ...]
    read: Callable[[Path, ReadOptions], list[AnnotatedDocument]]
    write: Callable[[Sequence[AnnotatedDocument], Path], None] | None = None
    description: str = ""
    directory: bool = False  # True when the format is a folder of files
    aliases: tuple[str, ...] = field(default=())


def _read_physionet(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return physionet.read_physionet(path, options.annotations)


def _write_physionet(docs: Sequence[AnnotatedDocument], path: Path) -> None:
    physionet.write_physionet(docs, path)


def _read_jsonl(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return jsonl.read_jsonl(path)


def _write_jsonl(docs: Sequence[AnnotatedDocument], path: Path) -> None:
    jsonl.write_jsonl(docs, path)


def _read_i2b2_2014(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return i2b2_2014.read_i2b2_2014(path, options.encoding)


def _read_i2b2_2006(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return i2b2_2006.read_i2b2_2006(path)


def _read_brat(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return brat.read_brat(path, options.encoding)


def _read_conll(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return conll.read_conll(path, options.encoding)


def _read_text(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return plaintext.read_text_corpus(path, options.encoding)


def _read_csv(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return csv_table.read_csv(
        path, options.text_col, options.id_col, options.patient_col, options.encoding, options.author_col
    )


def _read_parquet(path: Path, options: ReadOptions) -> list[AnnotatedDocument]:
    return parquet_table.read_parquet(path, options.text_col, options.id_col, options.patient_col, options.author_col)


def _writer(
    function: Callable[[Sequence[AnnotatedDocument], Path], object],
) -> Callable[[Sequence[AnnotatedDocument], Path], None]:
    def write(docs: Sequence[AnnotatedDocument], path: Path) -> None:
        function(docs, path)

    return write


FORMATS: dict[str, CorpusFormat] = {
    "physionet": CorpusFormat(
        "physionet", (".text",), _read_physionet, _write_physionet, "PhysioNet deid .text with .phrase annotations"
    ),
    "jsonl": CorpusFormat("jsonl", (".jsonl", ".ndjson"), _read_jsonl, _write_jsonl, "one JSON document per line"),
    "i2b2-2014": CorpusFormat(
        "i2b2-2014",
        (".xml",),
        _read_i2b2_2014,
        _writer(i2b2_2014.write_i2b2_2014),
        "i2b2 2014 / CEGS N-GRID XML, one <deIdi2b2> document per .xml file in a folder",
        directory=True,
        aliases=("i2b2_2014", "i2b2", "ngrid", "cegs-ngrid"),
    ),
    "i2b2-2006": CorpusFormat(
        "i2b2-2006",
        (".xml",),
        _read_i2b2_2006,
        _writer(i2b2_2006.write_i2b2_2006),
        "i2b2 2006 XML, one file of <RECORD>s with inline <PHI TYPE> tags",
        aliases=("i2b2_2006",),
    ),
    "brat": CorpusFormat(
        "brat",
        (".ann",),
        _read_brat,
        _writer(brat.write_brat),
        "BRAT standoff, a folder of .txt + .ann pairs",
        directory=True,
        aliases=("standoff",),
    ),
    "conll": CorpusFormat(
        "conll",
        (".conll", ".bio", ".iob"),
        _read_conll,
        _writer(conll.write_conll),
        "BIO token lines 'token start end tag' (text spacing is not kept)",
        aliases=("bio",),
    ),
    "text": CorpusFormat(
        "text",
        (".txt",),
        _read_text,
        _writer(plaintext.write_text_corpus),
        "plain text: a .txt file or a folder of them, spans in a spans.jsonl sidecar",
        directory=True,
        aliases=("txt", "plain"),
    ),
    "csv": CorpusFormat("csv", (".csv",), _read_csv, _writer(csv_table.write_csv), "CSV table, one document per row"),
    "parquet": CorpusFormat(
        "parquet",
        (".parquet", ".pq"),
        _read_parquet,
        _writer(parquet_table.write_parquet),
        "Parquet table, one document per row",
    ),
}


def get_format(name: str) -> CorpusFormat:
    key = name.lower()
    for fmt in FORMATS.values():
        if key == fmt.name or key in fmt.aliases:
            return fmt
    raise ConfigurationError(f"unknown format {name!r}; known: {', '.join(sorted(FORMATS))}")


def _has(folder: Path, suffix: str) -> bool:
    return any(p.is_file() for p in folder.rglob(f"*{suffix}"))


def detect_format(path: Path) -> CorpusFormat:
    """Guess a path's format: folders from the files they hold (.ann: brat, .xml: i2b2 2014,
    .txt: plain text), .xml files from their root element, other files from their extension."""
    if path.is_dir():
        for suffix, name in ((".ann", "brat"), (".xml", "i2b2-2014"), (".txt", "text")):
            if _has(path, suffix):
                return FORMATS[name]
        raise ConfigurationError(f"{path}: cannot tell the format of this folder; name it with --from/--format")
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
    path = Path(path)
    if not path.exists():
        raise ConfigurationError(f"{path}: no such file or folder")
    corpus_format = get_format(fmt) if fmt else detect_format(path)
    # A single-file format given a folder (pyarrow reads a Parquet dataset folder, so Parquet may have one).
    if path.is_dir() and not corpus_format.directory and corpus_format.name != "parquet":
        raise ConfigurationError(
            f"{path}: a folder, but format {corpus_format.name!r} reads one file; give the files themselves"
        )
    return corpus_format.read(path, options or ReadOptions())


def write_corpus(docs: Sequence[AnnotatedDocument], path: str | Path, fmt: str | None = None) -> None:
    path = Path(path)
    corpus_format = get_format(fmt) if fmt else _output_format(path)
    if corpus_format.write is None:
        raise ConfigurationError(f"format {corpus_format.name!r} can be read but not written")
    corpus_format.write(docs, path)


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
