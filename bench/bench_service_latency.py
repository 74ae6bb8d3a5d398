"""``/health`` latency of the REST service while a megabyte note is de-identified (issue 22 item 3).

Starts ``deident serve`` in a subprocess on loopback (a free port), waits for ``/health``, then sends one invented
note dense with PHI (``bench_large_note.dense_note``, 1,000,000 characters by default: the service's largest) to
``/v1/deidentify`` from a thread and polls ``/health`` every ``--interval`` seconds (a new connection each time)
until the answer comes. Prints, per mode, the idle ``/health`` latency, the ``/health`` latency during the large
request (count, median, p95, max; target: max under 100 ms) and the large request's status, wall time and
replacements. Modes: ``workers`` (the default of ``deident serve``: worker processes) and, with ``--compare``,
``in-process`` (``--workers 0``: detection on the service's own threads, as before issue 22). Wall-clock times,
so a busy machine counts. Needs no ../shared.

    python bench/bench_service_latency.py [--chars 1000000] [--pipeline default] [--workers 2] [--compare]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench_large_note import dense_note

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> float:
    """Seconds for one GET answered 200."""
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as answer:
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{url}: HTTP {answer.status}")
    return time.perf_counter() - start


def _wait_until_up(url: str, process: subprocess.Popen[bytes], limit_s: float = 600) -> None:
    deadline = time.monotonic() + limit_s
    while True:
        try:
            _get(url)
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the service did not start") from None
            time.sleep(0.2)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(args: argparse.Namespace, workers: int, note: str) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "deident", "serve", "--pipeline", args.pipeline, "--port", str(port), "--quiet"]
    command += ["--workers", str(workers), "--request-timeout", str(args.timeout), "--max-note-chars", str(len(note))]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_until_up(f"{base}/health", process)
        start_s = time.perf_counter() - started
        idle = [_get(f"{base}/health") for _ in range(20)]
        outcome: dict[str, object] = {}

        # The body is encoded before, and the answer parsed after, the polling: either would hold this process's
        # GIL for tens of milliseconds and delay the polling thread's own timing.
        body = json.dumps({"text": note}).encode()

        def send_large_note() -> None:
            request = urllib.request.Request(
                f"{base}/v1/deidentify", data=body, headers={"Content-Type": "application/json"}
            )
            begin = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=args.timeout + 60) as answer:
                    outcome["answer"] = answer.read()
                    outcome["status"] = answer.status
            except urllib.error.HTTPError as err:
                outcome["status"] = err.code
            outcome["seconds"] = time.perf_counter() - begin

        large = threading.Thread(target=send_large_note)
        sent = time.perf_counter()
        large.start()
        during: list[tuple[float, float]] = []  # (seconds since the large note was sent, /health seconds)
        while large.is_alive():
            at = time.perf_counter() - sent
            during.append((at, _get(f"{base}/health")))
            time.sleep(args.interval)
        large.join()
        if "answer" in outcome:
            outcome["spans"] = json.loads(outcome.pop("answer"))["replaced"]  # type: ignore[arg-type]
        mode = "in-process" if workers == 0 else f"{workers} workers"
        ms = [1000 * seconds for _, seconds in during]
        slowest = sorted(during, key=lambda pair: -pair[1])[:3]
        print(
            f"{mode:>11} | start {start_s:5.1f} s | idle /health max {1000 * max(idle):6.1f} ms | "
            f"during: n {len(ms):4d}, median {statistics.median(ms):6.1f} ms, p95 {_percentile(ms, 0.95):7.1f} ms, "
            f"max {max(ms):7.1f} ms | large note: HTTP {outcome.get('status')}, {outcome.get('seconds', 0.0):.1f} s, "
            f"{outcome.get('spans', '-')} spans replaced | slowest at "
            + ", ".join(f"{at:.1f} s ({1000 * seconds:.0f} ms)" for at, seconds in slowest)
            + f" | load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chars", type=int, default=1_000_000, help="the large note's length")
    parser.add_argument("--pipeline", default="default")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the service")
    parser.add_argument("--timeout", type=float, default=300.0, help="the service's --request-timeout")
    parser.add_argument("--interval", type=float, default=0.02, help="pause between /health polls (s)")
    parser.add_argument("--compare", action="store_true", help="also measure --workers 0 (in-process)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    note = dense_note(args.chars, args.seed)
    print(f"{args.pipeline} pipeline, one invented dense-PHI note of {len(note):,} characters, tag mode; wall times")
    for workers in [args.workers, *([0] if args.compare else [])]:
        measure(args, workers, note)


if __name__ == "__main__":
    main()
