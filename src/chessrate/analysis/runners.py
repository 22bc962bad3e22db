"""Where the searches run: one engine here, N engine processes here, or a Dask distributed cluster.

The work is cut into batches (a batch is the unanalysed positions of a few games, in game order).
Each batch opens its own engine, wherever it runs, and returns its evaluations; the caller merges
them into the cache. Since an evaluation depends only on the position (see ``engine``), every way
of running gives the same result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from chessrate.analysis.engine import Engine, Evaluation, Setting
from chessrate.errors import InvalidInputError

#: Called with (positions done, positions in all).
Progress = Callable[[int, int], None]


def evaluate_batch(
    keys: Sequence[str], engine_path: str | None, depth: int | None, nodes: int | None
) -> dict[str, tuple[int, str]]:
    """Evaluate one batch with an engine of its own (a task on a process or a Dask worker).

    Plain tuples travel between processes; ``Evaluation`` is rebuilt by the caller.
    """
    with Engine(engine_path, Setting(depth=depth, nodes=nodes)) as engine:
        return {key: (e.score, e.best) for key, e in engine.evaluate_many(keys).items()}


def run_batches(
    batches: Sequence[Sequence[str]],
    *,
    engine_path: str | None,
    setting: Setting,
    workers: int = 1,
    scheduler: str | Any | None = None,
    progress: Progress | None = None,
    on_batch: Callable[[dict[str, Evaluation]], None] | None = None,
) -> dict[str, Evaluation]:
    """Evaluate every batch: here (``workers`` 1), on ``workers`` processes, or on a Dask cluster.

    ``scheduler`` is a Dask scheduler address (``tcp://HOST:PORT``) or a ``distributed.Client``;
    ``on_batch`` receives each batch's evaluations as it comes back (to cache them at once).
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
        if progress is not None:
            progress(done, total)

    args = (engine_path, setting.depth, setting.nodes)
    if scheduler is not None:
        _run_on_dask(batches, args, scheduler, merge)
    elif workers == 1:
        with Engine(engine_path, setting) as engine:
            for batch in batches:
                merge({key: (e.score, e.best) for key, e in engine.evaluate_many(batch).items()})
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
) -> None:
    from distributed import Client
    from distributed import as_completed as dask_completed

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler, timeout="10s")  # type: ignore[no-untyped-call]
    try:
        futures = [client.submit(evaluate_batch, list(batch), *args, pure=False) for batch in batches]
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            merge(future.result())
    finally:
        if client is not scheduler:
            client.close()  # type: ignore[no-untyped-call]
