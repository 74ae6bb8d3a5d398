"""Worker processes for the REST service: detection runs outside the process that answers HTTP.

Each worker loads the model once (from a factory: the model folder, options and key, site configuration path;
nothing written to disk) and answers :class:`~deident.service.jobs.Job` s one at a time over a pipe. The
service's event loop never runs detection, so ``/health`` and ``/v1/info`` answer at once while a megabyte note
is being de-identified (bench/bench_service_latency.py).

Every request has a time budget, counted from its arrival: a request still waiting or running when it is spent
is answered 504, and the worker running it is killed and replaced (a new process loads the model) so that a
pathological note cannot hold a worker forever. At most ``workers + max_queued`` requests are admitted at once;
the next is answered 503 at once (backpressure) rather than queued without end.

Workers are started with "spawn" (a clean interpreter: no copy of the service's threads or sockets) and ignore
SIGINT, which the service's process handles for all of them (Ctrl-C in a terminal reaches the whole group).
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from deident.api import Deidentifier
from deident.core.errors import ConfigurationError, DeidentError
from deident.core.heap import settle_heap
from deident.service.jobs import Job, ModelDescription, answer

DeidentifierFactory = Callable[[], Deidentifier]

# How long a worker may take to load the model before the service gives up on it.
LOAD_TIMEOUT_S = 600.0

_log = logging.getLogger(__name__)


class ServiceUnavailable(DeidentError):
    """A request the workers could not answer; ``status`` is its HTTP status. Messages name no PHI."""

    status = 503


class PoolSaturated(ServiceUnavailable):
    status = 503


class RequestTimedOut(ServiceUnavailable):
    status = 504


class WorkerFailed(ServiceUnavailable):
    status = 500


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection


def _serve_jobs(connection: Connection, factory: DeidentifierFactory) -> None:
    """A worker process's life: load the model, say so, then answer jobs until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        deidentifier = factory()
    except DeidentError as err:  # deident's own messages are one line and name no PHI
        connection.send(("failed", str(err)))
        return
    except Exception as err:
        connection.send(("failed", f"the model could not be loaded ({type(err).__name__})"))
        return
    settle_heap()  # a worker process runs deident only
    connection.send(("ready", ModelDescription.of(deidentifier)))
    while True:
        try:
            job = connection.recv()
        except EOFError:  # the service has gone
            return
        if job is None:
            return
        try:
            reply: tuple[str, Any] = ("ok", answer(deidentifier, job))
        except Exception as err:  # the type only: a message may quote the note
            reply = ("error", type(err).__name__)
        try:
            connection.send(reply)
        except OSError:  # the service has gone while this job ran
            return


class WorkerPool:
    """``workers`` processes each holding a model from ``factory``; :meth:`run` answers a job on a free one within
    ``timeout`` seconds (None: no budget). Blocking: the service calls :meth:`run` on a thread, many at once.

    The constructor returns when every worker has loaded the model (ConfigurationError when one could not)."""

    def __init__(
        self, factory: DeidentifierFactory, workers: int, timeout: float | None = 60.0, max_queued: int = 16
    ) -> None:
        if workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        self._factory = factory
        self._context = multiprocessing.get_context("spawn")
        self._timeout = timeout
        self._capacity = workers + max_queued
        self._admitted = 0
        self._lock = threading.Lock()
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._workers: list[_Worker] = []
        self._closed = False
        started = [self._spawn() for _ in range(workers)]
        descriptions = []
        try:
            for worker in started:
                descriptions.append(self._await_ready(worker))
        except BaseException:
            self.close()
            raise
        self._description = descriptions[0]
        for worker in started:
            self._idle.put(worker)

    @property
    def description(self) -> ModelDescription:
        return self._description

    @property
    def timeout(self) -> float | None:
        return self._timeout

    def pids(self) -> list[int]:
        """The process ids of the workers alive now (loading ones included)."""
        with self._lock:
            return [w.process.pid for w in self._workers if w.process.pid is not None and w.process.is_alive()]

    def idle(self) -> int:
        """How many workers are loaded and free now."""
        return self._idle.qsize()

    def run(self, job: Job) -> bytes:
        deadline = None if self._timeout is None else time.monotonic() + self._timeout
        with self._lock:
            if self._closed:
                raise ServiceUnavailable("the service is stopping")
            if self._admitted >= self._capacity:
                raise PoolSaturated(f"the service is busy ({self._admitted} requests running or waiting); retry later")
            self._admitted += 1
        try:
            return self._run(job, deadline)
        finally:
            with self._lock:
                self._admitted -= 1

    def _run(self, job: Job, deadline: float | None) -> bytes:
        try:
            worker = self._idle.get(timeout=_remaining(deadline))
        except queue.Empty:
            raise self._timed_out(waited=True) from None
        try:
            worker.connection.send(job)
            if not worker.connection.poll(_remaining(deadline)):
                self._replace(worker)
                raise self._timed_out(waited=False)
            kind, payload = worker.connection.recv()
        except (EOFError, OSError):  # the worker died (killed, out of memory): a new one takes its place
            self._replace(worker)
            raise WorkerFailed("a worker process stopped while answering (out of memory?); it is replaced") from None
        self._idle.put(worker)
        if kind != "ok":
            raise WorkerFailed(f"the request failed in a worker ({payload})")
        assert isinstance(payload, bytes)
        return payload

    def _timed_out(self, waited: bool) -> RequestTimedOut:
        where = "waiting for a worker" if waited else "its worker was stopped"
        return RequestTimedOut(
            f"the request took longer than the time budget of {self._timeout:g} s ({where}); "
            "send a smaller note or batch, or raise --request-timeout"
        )

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve_jobs, args=(theirs, self._factory), daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        with self._lock:
            self._workers.append(worker)
        return worker

    def _await_ready(self, worker: _Worker) -> ModelDescription:
        try:
            if not worker.connection.poll(LOAD_TIMEOUT_S):
                raise ConfigurationError(f"a service worker did not load the model in {LOAD_TIMEOUT_S:g} s")
            kind, payload = worker.connection.recv()
        except (EOFError, OSError):
            raise ConfigurationError("a service worker stopped while loading the model") from None
        if kind != "ready":
            raise ConfigurationError(str(payload))
        assert isinstance(payload, ModelDescription)
        return payload

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` now and start another in the background; it joins the idle ones once loaded."""
        worker.process.kill()
        worker.connection.close()
        with self._lock:
            if self._closed:  # close() has stopped every worker already
                return
            self._workers.remove(worker)
        threading.Thread(target=self._start_replacement, args=(worker,), daemon=True).start()

    def _start_replacement(self, old: _Worker) -> None:
        old.process.join()
        try:
            worker = self._spawn()
            self._await_ready(worker)
        except ConfigurationError as err:
            _log.error("a service worker could not be replaced: %s", err)
            return
        with self._lock:
            closed = self._closed
        if closed:
            _stop(worker)
        else:
            self._idle.put(worker)

    def close(self) -> None:
        """Stop every worker (those answering are killed)."""
        with self._lock:
            self._closed = True
            workers, self._workers = self._workers, []
        for worker in workers:
            _stop(worker)


def _stop(worker: _Worker) -> None:
    worker.process.kill()
    worker.process.join(timeout=10)
    worker.connection.close()


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())
