"""Spark survives a lost worker (issue 22, item 7): a standalone cluster on this machine, one worker killed mid-job.

    python bench/spark_cluster.py [--notes 2000] [--seed 5] [--partitions 8] [--work DIR]

A standalone master and two one-core workers are started on the loopback interface (pyspark's bundled
``spark-class org.apache.spark.deploy.master.Master`` / ``...worker.Worker``; needs Java 17+). ``deident synth``
notes of every style, as a plain Parquet table (id, patient id, text; four notes per patient, interleaved), are
de-identified in surrogate mode with the default pipeline by ``run_spark`` (what ``deident spark`` runs) on the
cluster; once the de-identification stage has finished a task and has others running, the second worker is
killed (SIGKILL to its process group: the worker, its executor and the executor's Python workers). The job must
still complete, and its output must equal ``deident run``'s (one process) on the same table and key, note by
note (text, patient pseudonym and the spans found). Prints wall times, whether the outputs are equal, the
executors lost and the tasks that failed and were run again. Exit status 1 when the outputs differ or no
worker was killed mid-job.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import deident
from deident.replace import Mode, ReplaceOptions, SecretKey
from deident.spark.dataframe import OutputColumns, run_spark, spark_sql
from deident.spark.partition import SparkJob

KEY_HEX = "5eed0f5a9a2f4c1b8d7e6f5a4b3c2d1e0f9e8d7c6b5a49382716051423324150"
LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex((LOOPBACK, port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit(f"nothing listens on {LOOPBACK}:{port} after {timeout:.0f} s (see the logs in the work folder)")


class Cluster:
    """A standalone master and workers, each in its own process group so that one can be killed with its children."""

    def __init__(self, work: Path, workers: int) -> None:
        import pyspark

        home = Path(pyspark.__file__).parent
        self.spark_class = str(home / "bin" / "spark-class")
        self.work = work
        src = str(Path(deident.__file__).resolve().parents[1])  # executors import the same deident as this process
        path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
        self.env = {
            **os.environ,
            "SPARK_HOME": str(home),
            "SPARK_LOCAL_IP": LOOPBACK,
            "PYSPARK_PYTHON": sys.executable,
            "PYTHONPATH": path,
        }
        self.port = free_port()
        self.url = f"spark://{LOOPBACK}:{self.port}"
        self.master = self._start("master", "org.apache.spark.deploy.master.Master", "--port", str(self.port))
        wait_for_port(self.port, 60)
        self.workers = [
            self._start(
                f"worker{n}",
                "org.apache.spark.deploy.worker.Worker",
                self.url,
                "--cores",
                "1",
                "--memory",
                "2g",
                "--work-dir",
                str(work / f"worker{n}-work"),
            )
            for n in (1, 2)[:workers]
        ]

    def _start(self, name: str, main_class: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.work / f"{name}.log").open("wb")
        command = [self.spark_class, main_class, "--host", LOOPBACK, "--webui-port", str(free_port()), *args]
        return subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        """SIGKILL the process group: as if the machine went away."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        for process in [*self.workers, self.master]:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    self.kill(process)


def make_table(folder: Path, notes: int, seed: int) -> Path:
    synth = folder / "synth.parquet"
    command = [sys.executable, "-m", "deident", "synth", "--notes", str(notes), "--seed", str(seed), "-o", str(synth)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    table = pq.read_table(synth)
    patients = [f"patient-{i % max(1, notes // 4):05d}" for i in range(table.num_rows)]
    path = folder / "notes.parquet"
    pq.write_table(pa.table({"id": table.column("id"), "patient_id": patients, "text": table.column("text")}), path)
    return path


def run_single_process(table: Path, key: Path, out: Path) -> float:
    started = time.perf_counter()
    command = [sys.executable, "-m", "deident", "run", str(table), "-o", str(out), "--mode", "surrogate"]
    command += ["--key", str(key), "--id-col", "id", "--patient-col", "patient_id", "--quiet"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def compare(by_run: Path, by_spark: Path) -> dict[str, Any]:
    """Notes whose text, patient pseudonym or spans found (label, detector, score) differ, matched by id pseudonym."""
    run_rows = {row["id"]: row for row in pq.read_table(by_run).to_pylist()}
    spark_rows = {row["id"]: row for row in pq.read_table(by_spark).to_pylist()}

    def kinds(spans: list[dict[str, Any]]) -> list[tuple[str, str, float | None]]:
        return [(s["label"], s["source"], None if s["score"] is None else round(s["score"], 6)) for s in spans]

    common = run_rows.keys() & spark_rows.keys()
    differing = sum(
        run_rows[i]["text"] != spark_rows[i]["text"]
        or run_rows[i]["patient_id"] != spark_rows[i]["patient_id"]
        or kinds(json.loads(run_rows[i]["spans"])) != kinds(spark_rows[i]["phi_spans"])
        for i in common
    )
    missing = len(run_rows.keys() ^ spark_rows.keys())
    return {
        "notes_run": len(run_rows),
        "notes_spark": len(spark_rows),
        "notes_missing": missing,
        "notes_differing": differing,
        "equal": missing == 0 and differing == 0,
    }


class Watch:
    """Polls Spark's status tracker: the de-identification stage's progress and every stage's failed tasks."""

    def __init__(self, context: Any) -> None:
        self.tracker = context.statusTracker()
        self.failed: dict[tuple[int, int], int] = {}  # (stage, attempt) -> most failed tasks seen

    def poll(self) -> list[Any]:
        infos = [self.tracker.getStageInfo(i) for i in self.tracker.getActiveStageIds()]
        for info in infos:
            if info is not None:
                key = (info.stageId, info.currentAttemptId)
                self.failed[key] = max(self.failed.get(key, 0), info.numFailedTasks)
        return [i for i in infos if i is not None]

    def settle(self, last_stage: int) -> None:
        for stage in range(last_stage + 1):
            info = self.tracker.getStageInfo(stage)
            if info is not None:
                key = (info.stageId, info.currentAttemptId)
                self.failed[key] = max(self.failed.get(key, 0), info.numFailedTasks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--partitions", type=int, default=8, help="Shuffle partitions (tasks of the deident stage).")
    parser.add_argument("--work", type=Path, help="Work folder (default: a temporary one, removed after).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deident-spark-cluster-") as temporary:
        work = args.work or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        figures = measure(work, args.notes, args.seed, args.partitions)
    print(json.dumps(figures, indent=2))
    sys.exit(0 if figures["equal"] and figures["worker_killed_mid_job"] else 1)


def measure(work: Path, notes: int, seed: int, partitions: int) -> dict[str, Any]:
    began = time.perf_counter()
    table = make_table(work, notes, seed)
    key_path = work / "key"
    key_path.write_text(KEY_HEX + "\n")
    key_path.chmod(0o600)
    single_s = run_single_process(table, key_path, work / "run.parquet")

    os.environ["PYSPARK_PYTHON"] = sys.executable  # the executors' Python: this interpreter, with deident
    os.environ["SPARK_LOCAL_IP"] = LOOPBACK  # the driver too binds to the loopback interface only
    cluster = Cluster(work, workers=2)
    try:
        session = (
            spark_sql()
            .SparkSession.builder.master(cluster.url)
            .appName("deident-cluster-bench")
            .config("spark.driver.host", LOOPBACK)
            .config("spark.driver.bindAddress", LOOPBACK)
            .config("spark.ui.enabled", "false")
            .config("spark.executor.memory", "1g")
            .config("spark.sql.shuffle.partitions", str(partitions))
            # one task per shuffle partition, on both workers (adaptive execution would merge them into one)
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.task.maxFailures", "4")
            .getOrCreate()
        )
        context = session.sparkContext
        deadline = time.monotonic() + 120
        while len(context.statusTracker().getExecutorInfos()) < 3 and time.monotonic() < deadline:  # driver + 2
            time.sleep(0.5)
        executors_before = len(context.statusTracker().getExecutorInfos()) - 1
        key = SecretKey.from_text(KEY_HEX)
        job = SparkJob(
            options=ReplaceOptions(mode=Mode.SURROGATE, key=key),
            text_col="text",
            id_col="id",
            patient_col="patient_id",
            output_col="text",
            source=str(table),
        )
        result: dict[str, Any] = {}

        def submit() -> None:
            try:
                result["rows"] = run_spark(session, str(table), str(work / "spark"), job, "parquet", OutputColumns(key))
            except Exception as err:  # reported below, the job's failure is the figure
                result["error"] = f"{type(err).__name__}: {err}"

        watch = Watch(context)
        job_began = time.perf_counter()
        thread = threading.Thread(target=submit)
        thread.start()
        killed_at: float | None = None
        while thread.is_alive():
            for stage in watch.poll():
                mid_job = stage.numTasks == partitions and stage.numCompletedTasks >= 1 and stage.numActiveTasks >= 1
                if killed_at is None and mid_job and stage.numCompletedTasks < stage.numTasks - 1:
                    cluster.kill(cluster.workers[1])
                    killed_at = time.perf_counter() - job_began
            time.sleep(0.2)
        thread.join()
        job_s = time.perf_counter() - job_began
        watch.settle(max((s for s, _ in watch.failed), default=0) + 2)
        executors_after = len(context.statusTracker().getExecutorInfos()) - 1
        session.stop()
    finally:
        cluster.stop()
    figures: dict[str, Any] = {
        "notes": notes,
        "workers": 2,
        "executors_at_start": executors_before,
        "executors_at_end": executors_after,
        "worker_killed_mid_job": killed_at is not None,
        "killed_after_s": None if killed_at is None else round(killed_at, 1),
        "job_completed": "rows" in result,
        "job_error": result.get("error"),
        "tasks_failed_and_retried": sum(watch.failed.values()),
        "stage_attempts_retried": sum(1 for _, attempt in watch.failed if attempt > 0),
        "cluster_job_wall_s": round(job_s, 1),
        "single_process_run_wall_s": round(single_s, 1),
        "total_wall_s": round(time.perf_counter() - began, 1),
    }
    if "rows" in result:
        figures.update(compare(work / "run.parquet", work / "spark"))
    else:
        figures["equal"] = False
    return figures


if __name__ == "__main__":
    main()
