"""Where the searches run: one engine here, N engine processes here, or a Dask distributed cluster.

The work is cut into batches (a batch is the unanalysed positions of a few games, in game order).
Each batch opens its own engine, wherever it runs, and returns its evaluations; the caller merges
them into the cache. Since an evaluation depends only on the position (see ``engine``), every way
of running gives the same result.

An engine that dies on a position (``engine.ENGINE_FAULTS``) is started again and that position is
left out of the batch's answer: the caller sees which positions are missing and says so per game.
A :class:`Stop` asked between positions ends a run early (a client gone, an engine-time cap).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from chessrate.analysis.engine import ENGINE_FAULTS, Engine, Evaluation, Setting
from chessrate.errors import CodedError, InvalidInputError

#: Called with (positions done, positions in all).
Progress = Callable[[int, int], None]


#: Longest wait for a Dask scheduler to answer, in seconds (``--scheduler-timeout``).
SCHEDULER_TIMEOUT = 10.0
#: The scheduler addresses taken: ``tcp://HOST:PORT`` (a name, IPv4, or [IPv6]).
SCHEDULER_ADDRESS = re.compile(r"^tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})$")


class AnalysisStopped(CodedError):
    """A run ended before its positions were all searched (``cancelled``, ``engine-time``)."""


class Stop:
    """Asked between positions: ``cancel()`` from elsewhere, or ``seconds`` of engine time spent
    (counted from the first question, when the first search starts, not while queued)."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds
        self.cancelled = threading.Event()
        self._started: float | None = None

    def cancel(self) -> None:
        self.cancelled.set()

    def check(self) -> None:
        if self.cancelled.is_set():
            raise AnalysisStopped("the analysis was cancelled", code="cancelled")
        now = time.monotonic()
        if self._started is None:
            self._started = now
        if self.seconds is not None and now - self._started > self.seconds:
            raise AnalysisStopped(
                f"the analysis took more than {self.seconds:g} s of engine time",
                code="engine-time",
                params={"seconds": f"{self.seconds:g}"},
            )


def evaluate_keys(
    engine: Engine, keys: Sequence[str], stop: Stop | None = None
) -> dict[str, tuple[int, str]]:
    """Each position's evaluation; a position the engine dies on is left out and the engine restarted."""
    found: dict[str, tuple[int, str]] = {}
    for key in keys:
        if stop is not None:
            stop.check()
        try:
            evaluation = engine.evaluate(key)
        except ENGINE_FAULTS:
            engine.restart()
            continue
        found[key] = (evaluation.score, evaluation.best)
    return found


def evaluate_batch(
    keys: Sequence[str], engine_path: str | None, depth: int | None, nodes: int | None
) -> dict[str, tuple[int, str]]:
    """Evaluate one batch with an engine of its own (a task on a process or a Dask worker).

    Plain tuples travel between processes; ``Evaluation`` is rebuilt by the caller.
    """
    with Engine(engine_path, Setting(depth=depth, nodes=nodes)) as engine:
        return evaluate_keys(engine, keys)


def check_scheduler(address: str) -> str:
    """``address`` if it is ``tcp://HOST:PORT`` with a port from 1 to 65535, else an error naming it."""
    match = SCHEDULER_ADDRESS.match(address)
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        raise InvalidInputError(
            "scheduler",
            address,
            "write a Dask scheduler address as tcp://HOST:PORT, such as tcp://127.0.0.1:8786",
            code="scheduler-address",
        )
    return address


def run_batches(
    batches: Sequence[Sequence[str]],
    *,
    engine_path: str | None,
    setting: Setting,
    workers: int = 1,
    scheduler: str | Any | None = None,
    progress: Progress | None = None,
    on_batch: Callable[[dict[str, Evaluation]], None] | None = None,
    stop: Stop | None = None,
    scheduler_timeout: float = SCHEDULER_TIMEOUT,
) -> dict[str, Evaluation]:
    """Evaluate every batch: here (``workers`` 1), on ``workers`` processes, or on a Dask cluster.

    ``scheduler`` is a Dask scheduler address (``tcp://HOST:PORT``) or a ``distributed.Client``;
    ``on_batch`` receives each batch's evaluations as it comes back (to cache them at once).
    A position missing from the answer is one an engine died on.
    """
    if workers < 1:
        raise InvalidInputError("workers", workers, "must be at least 1")
    total = sum(len(b) for b in batches)
    done = 0
    results: dict[str, Evaluation] = {}

    def merge(batch: dict[str, tuple[int, str]]) -> None:
        nonlocal done
        evaluations = {key: Evaluation(score, best) for key, (score, best) in batch.items()}
        results.update(evaluations)
        if on_batch is not None:
            on_batch(evaluations)
        done += len(batch)
        if stop is not None:
            stop.check()
        if progress is not None:
            progress(done, total)

    args = (engine_path, setting.depth, setting.nodes)
    if scheduler is not None:
        _run_on_dask(batches, args, scheduler, merge, scheduler_timeout)
    elif workers == 1:
        with Engine(engine_path, setting) as engine:
            for batch in batches:
                merge(evaluate_keys(engine, batch, stop))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(evaluate_batch, batch, *args) for batch in batches]
            for future in as_completed(futures):
                merge(future.result())
    return results


def _run_on_dask(
    batches: Sequence[Sequence[str]],
    args: tuple[str | None, int | None, int | None],
    scheduler: str | Any,
    merge: Callable[[dict[str, tuple[int, str]]], None],
    timeout: float,
) -> None:
    from distributed import Client
    from distributed import as_completed as dask_completed

    client = scheduler if isinstance(scheduler, Client) else _connect(check_scheduler(scheduler), timeout)
    try:
        futures = [client.submit(evaluate_batch, list(batch), *args, pure=False) for batch in batches]
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            merge(future.result())
    finally:
        if client is not scheduler:
            client.close()


def _connect(address: str, timeout: float) -> Any:
    """A Dask client of ``address``, or one line naming it when it does not answer within ``timeout``.

    Dask's own timeout does not cover a server that accepts the connection and never speaks, so the
    client is made in a thread that is given up on after ``timeout`` (it ends when the socket does).
    """
    from distributed import Client

    made: list[Any] = []
    failed: list[BaseException] = []

    def connect() -> None:
        try:
            made.append(Client(address, timeout=f"{timeout}s", set_as_default=False))  # type: ignore[no-untyped-call]
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=connect, daemon=True, name="dask-connect")
    thread.start()
    thread.join(timeout + 1)
    if made:
        return made[0]
    reason = f"no Dask scheduler answered within {timeout:g} s"
    if failed and not isinstance(failed[0], TimeoutError | OSError):
        reason = f"cannot connect ({type(failed[0]).__name__})"
    raise InvalidInputError(
        "scheduler", address, reason, code="scheduler-unreachable", params={"seconds": f"{timeout:g}"}
    )
