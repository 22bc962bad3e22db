"""Where the web's analyses run: a fixed number of worker threads and a queue of bounded length.

Every analysis (a job of ``/strength/jobs`` and the no-JavaScript ``POST /strength``) is a task of
:class:`AnalysisPool`: at most ``workers`` run at once, each with one engine, and at most ``queue``
more wait; beyond that a request is refused at once ("busy", ``Retry-After``). The event loop
never runs an analysis nor reads a PGN: both are on threads (reading and checking, on at most
``READERS`` threads at once). Workers and their engines run at a lower priority (niceness 10), so
that on a busy machine the pages are answered first.

:class:`Jobs` keeps the htmx jobs by id. A job whose page stops asking for it (``abandon_seconds``;
the page asks every half second) is dropped: a running one stops its analysis at the next position
and frees its engine. A finished job is dropped once shown. Only running or waiting analyses take a
place in the pool; finished ones never block anyone.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from chessrate.analysis.runners import Stop
from chessrate.service.options import Outcome
from chessrate.service.strength import StrengthResult

T = TypeVar("T")

#: PGN readings and checks at once (each holds at most one file of the upload cap).
READERS = 2
#: Seconds a client is told to wait when the pool is full (``Retry-After``).
RETRY_AFTER = 60
#: Niceness of a worker thread, inherited by its engine: pages are answered first.
WORKER_NICENESS = 10


def _lower_priority() -> None:
    """Make this worker thread (Linux: a task of its own) and the engines it starts yield the CPU."""
    # Not Linux, or not allowed: the same priority, still bounded.
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WORKER_NICENESS)


class AnalysisPool:
    """``workers`` threads; a task is refused when ``workers + queue`` are running or waiting."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = workers
        self.queue = queue
        self._executor = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="analysis", initializer=_lower_priority
        )
        self._lock = threading.Lock()
        self._pending = 0

    @property
    def pending(self) -> int:
        """Tasks running or waiting."""
        with self._lock:
            return self._pending

    def submit(self, task: Callable[[], T]) -> Future[T] | None:
        """The task's future, or None when the pool is full."""
        with self._lock:
            if self._pending >= self.workers + self.queue:
                return None
            self._pending += 1
        future = self._executor.submit(task)
        future.add_done_callback(self._done)
        return future

    def _done(self, _: object) -> None:
        with self._lock:
            self._pending -= 1

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


@dataclass
class Job:
    language: str
    stop: Stop
    done: int = 0
    total: int = 0
    outcome: Outcome[StrengthResult] | None = None
    touched: float = field(default_factory=time.monotonic)
    finished: float | None = None
    #: Games fetched by username: each game's address on its platform, and what was said of the fetch.
    links: list[str] = field(default_factory=list)
    fetch_lines: list[str] = field(default_factory=list)
    #: The platform the games came from (Lichess, Chess.com), named by the links.
    link_host: str = ""


class JobStop(Stop):
    """A job's stop: cancelled too when its page has not asked for it in ``abandon_seconds``."""

    def __init__(self, seconds: float | None, abandon_seconds: float) -> None:
        super().__init__(seconds)
        self.abandon_seconds = abandon_seconds
        self.job: Job | None = None

    def check(self) -> None:
        if self.job is not None and time.monotonic() - self.job.touched > self.abandon_seconds:
            self.cancel()
        super().check()


class Jobs:
    """The htmx jobs running, waiting or finished and not yet shown, by id (in memory)."""

    def __init__(self, pool: AnalysisPool, abandon_seconds: float) -> None:
        self.pool = pool
        self.abandon_seconds = abandon_seconds
        self.lock = threading.Lock()
        self.jobs: dict[str, Job] = {}

    def start(
        self,
        language: str,
        seconds: float | None,
        run: Callable[[Job], Outcome[StrengthResult]],
        *,
        links: list[str] | None = None,
        fetch_lines: list[str] | None = None,
        link_host: str = "",
    ) -> str | None:
        """A new job's id, or None when the pool is full. ``run(job)`` analyses, with ``job.stop``."""
        self.prune()
        stop = JobStop(seconds, self.abandon_seconds)
        job = stop.job = Job(
            language, stop, links=links or [], fetch_lines=fetch_lines or [], link_host=link_host
        )

        def task() -> None:
            try:
                job.outcome = run(job)
            finally:
                job.finished = time.monotonic()

        key = secrets.token_urlsafe(12)
        with self.lock:
            self.jobs[key] = job
        if self.pool.submit(task) is None:
            with self.lock:
                del self.jobs[key]
            return None
        return key

    def prune(self) -> None:
        """Drop the jobs nobody asked for in ``abandon_seconds``; a running one stops."""
        now = time.monotonic()
        with self.lock:
            for key, job in list(self.jobs.items()):
                if now - job.touched > self.abandon_seconds:
                    job.stop.cancel()
                    del self.jobs[key]

    def get(self, key: str) -> Job | None:
        """The job (asked for: not abandoned); once it is finished it is dropped."""
        self.prune()
        with self.lock:
            job = self.jobs.get(key)
            if job is not None:
                job.touched = time.monotonic()
                if job.outcome is not None:
                    del self.jobs[key]
            return job

    def __len__(self) -> int:
        with self.lock:
            return len(self.jobs)
