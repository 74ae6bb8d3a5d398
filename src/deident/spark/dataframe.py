"""De-identify a Spark DataFrame column: :func:`deidentify_dataframe`, and the files-to-files :func:`run_spark`.

Every executor needs deident installed (and the model directory, if not the bundled one, at the same
path). Rows of one patient are brought into one partition and next to each other, so they share
surrogates and a date shift; output rows keep every input column, or with :class:`OutputColumns` only
those it keeps (``deident spark`` does this: the text replaced in place, ids pseudonymised).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deident.core.errors import ConfigurationError
from deident.io.tables import missing_column_problem
from deident.replace import SecretKey
from deident.spark.partition import SparkJob, deidentify_rows

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

INPUT_FORMATS = ("parquet", "csv", "json")
_EXTENSIONS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".json": "json", ".jsonl": "json"}
_EXTENSIONS[".ndjson"] = "json"


def spark_input_format(input_path: str) -> str:
    """The input format named by the path's extension (a folder or no extension: Parquet, as Spark writes)."""
    name = input_path.rstrip("/").rsplit("/", 1)[-1].lower()
    suffix = name[name.rfind(".") :] if "." in name else ""
    if not suffix:
        return "parquet"
    if suffix not in _EXTENSIONS:
        raise ConfigurationError(
            f"{input_path}: cannot tell the format from the extension; name it with --format "
            f"({', '.join(INPUT_FORMATS)})"
        )
    return _EXTENSIONS[suffix]


def spark_sql() -> Any:
    try:
        import pyspark.sql
    except ImportError:
        raise ConfigurationError('the Spark path needs pyspark: pip install "deident[spark]"') from None
    return pyspark.sql


@dataclass(frozen=True)
class OutputColumns:
    """Which input columns an output keeps besides the de-identified text (see deident.run.output_policy):
    ``keep`` as they are, ``pseudonymise`` replaced by pseudonyms (HMAC of ``key``), the job's ``deid_cols``
    de-identified as free text; the id and patient columns are pseudonymised unless kept; every other column
    is dropped. Pseudonyms match ``deident run``'s
    for the same key (kinds "document", "patient", "column:NAME")."""

    key: SecretKey
    keep: frozenset[str] = frozenset()
    pseudonymise: frozenset[str] = frozenset()

    def chosen(self, job: SparkJob, names: list[str]) -> list[str]:
        # output_col: the text, in place or new; deid_cols: replaced in place by the task.
        roles = {job.output_col, job.spans_col, job.id_col, job.patient_col, *job.deid_cols}
        return [n for n in names if n in roles or n in self.keep or n in self.pseudonymise]

    def kind(self, job: SparkJob, name: str) -> str | None:
        """The pseudonym kind of a column, None when it is kept as it is."""
        if name in self.keep or name in (job.text_col, job.output_col):
            return None
        if name == job.patient_col:
            return "patient"
        if name == job.id_col:
            return "document"
        return f"column:{name}" if name in self.pseudonymise else None


def deidentify_dataframe(df: DataFrame, job: SparkJob, keep: OutputColumns | None = None) -> DataFrame:
    """``df`` with ``job.output_col`` (de-identified text) and ``job.spans_col`` (spans) added; with ``keep``,
    only the columns it keeps (``job.output_col`` may then be the text column: replaced in place)."""
    sql = spark_sql()
    types = sql.types
    columns = set(df.columns)
    for needed in (job.text_col, job.id_col, job.patient_col, job.author_col, *job.deid_cols):
        if needed is not None and needed not in columns:
            raise ConfigurationError(f"{job.source}: {missing_column_problem(needed, len(df.columns))}")
    for name in job.deid_cols:
        if not isinstance(df.schema[name].dataType, types.StringType):
            raise ConfigurationError(f"{job.source}: --deid-col {name!r} is not a text column")
    for added in (job.output_col, job.spans_col):
        if added is not None and added in columns and not (keep is not None and added == job.text_col):
            raise ConfigurationError(f"{job.source}: the output column {added!r} exists already")
    if job.patient_col:
        order = [job.patient_col, *([job.id_col] if job.id_col else [])]
        df = df.repartition(job.patient_col).sortWithinPartitions(*order)
    fields = list(df.schema.fields)
    if job.output_col != job.text_col:
        fields.append(types.StructField(job.output_col, types.StringType(), True))
    if keep is not None:
        chosen = keep.chosen(job, [f.name for f in fields])
        fields = [
            f if keep.kind(job, f.name) is None else types.StructField(f.name, types.StringType(), True)
            for f in fields
            if f.name in chosen
        ]
    if job.spans_col:
        span_type = types.StructType(
            [
                types.StructField("start", types.IntegerType(), False),
                types.StructField("end", types.IntegerType(), False),
                types.StructField("label", types.StringType(), False),
                types.StructField("source", types.StringType(), False),
                types.StructField("score", types.DoubleType(), True),
            ]
        )
        fields.append(types.StructField(job.spans_col, types.ArrayType(span_type), True))
    schema = types.StructType(fields)
    names = [f.name for f in fields]

    kinds = {name: None if keep is None else keep.kind(job, name) for name in names}
    key = None if keep is None else keep.key

    def value(name: str, out: dict[str, Any]) -> Any:
        kind = kinds.get(name)
        raw = out[name]
        if kind is None or raw is None or key is None:
            return raw
        return key.digest(None, f"pseudonym:{kind}", str(raw)).hex()[:16]

    def task(rows: Any) -> Any:
        for out in deidentify_rows(job, (row.asDict() for row in rows)):
            yield tuple(value(name, out) for name in names)

    return df.sparkSession.createDataFrame(df.rdd.mapPartitions(task), schema)


def run_spark(
    spark: SparkSession,
    input_path: str,
    output_path: str,
    job: SparkJob,
    input_format: str = "parquet",
    keep: OutputColumns | None = None,
    encoding: str = "utf-8",
) -> int:
    """Read a table (parquet, csv with a header row, or JSON lines, in ``encoding``), de-identify it, write Parquet.

    Spark's output committer writes ``_SUCCESS`` only when every part is in place, so an interrupted
    job never leaves an output that looks finished. Returns the number of rows written."""
    if input_format not in INPUT_FORMATS:
        raise ConfigurationError(f"unknown input format {input_format!r}; choose one of {', '.join(INPUT_FORMATS)}")
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    reader = spark.read
    if input_format == "csv":
        reader = reader.option("header", True).option("multiLine", True).option("escape", '"')
    if input_format in {"csv", "json"}:
        reader = reader.option("encoding", encoding)
    try:
        df = reader.format(input_format).load(input_path)
        result = deidentify_dataframe(df, job, keep).cache()
        result.write.mode("errorifexists").parquet(output_path)
        return int(result.count())
    except (PySparkException, Py4JJavaError) as err:
        # Spark's messages can quote column names and values (a headerless CSV's first record): only the
        # error's class or condition is shown.
        if isinstance(err, PySparkException):
            kind = err.getCondition() or type(err).__name__
        else:
            kind = err.java_exception.getClass().getSimpleName()
        known = {
            "PATH_ALREADY_EXISTS": f"{output_path}: already exists",
            "PATH_NOT_FOUND": f"{input_path}: no such file or folder",
        }
        problem = known.get(
            kind,
            f"{input_path}: the Spark job failed ({kind}); check --format ({input_format} was used) and Spark's log",
        )
        raise ConfigurationError(problem) from None
