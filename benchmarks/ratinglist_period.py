"""A rating-list period with the numpy engine against the scalar path, in a temporary SQLite store.

    PYTHONPATH=src python benchmarks/ratinglist_period.py                  # 10^5 games, all rule sets
    PYTHONPATH=src python benchmarks/ratinglist_period.py --games 10000 --rules fide

One month of synthetic games (``chessrate.testing.synthetic.generate(months=1, seed=1)``, one player per
40 games, 20 tournaments) is written as one CSV file per tournament and imported into a new SQLite
store (``chessrate list init`` / ``import``); every player enters with the file's rating. Then
period 2025-10 (FIDE rules of 1 October 2025) is rated both ways, once each:

* ``compute``: :func:`chessrate.ratinglist.compute.compute_period` alone on the loaded facts,
  ``bulk=True`` (the numpy engine) and ``bulk=False`` (the scalar rating core per player); the
  two lists are checked equal;
* ``run``: the whole ``chessrate list run`` (load the facts, compute, write the list, commit; the
  working of each rated game is not stored, see docs/ratinglist.md), on two copies of the store.

One run each (no repeats): the figures vary by some 10-20 % between runs on a shared machine.
"""

from __future__ import annotations

import argparse
import csv
import functools
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from chessrate.bulk import figures as bulk_elo
from chessrate.ratinglist import runner
from chessrate.ratinglist.compute import ComputedList, compute_period
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.loading import load_events, load_history, published_versions
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.store import init_store, open_store
from chessrate.testing import synthetic

PERIOD = Period(2025, 10)
RESULTS = {0: "0-1", 1: "1/2-1/2", 2: "1-0"}


def write_events(games: int, folder: Path) -> list[Path]:
    """The synthetic month as one CSV file per tournament."""
    data = synthetic.generate(games=games, months=1, seed=1, start=PERIOD.first_day)
    rating = data.players.rating
    paths = []
    for event in np.unique(data.event):
        path = folder / f"event-{int(event):03d}.csv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            out = csv.writer(handle)
            out.writerow(["white", "black", "white_rating", "black_rating", "result", "date"])
            for i in np.flatnonzero(data.event == event):
                white, black = int(data.white[i]), int(data.black[i])
                out.writerow(
                    [
                        f"Player {white:05d}",
                        f"Player {black:05d}",
                        int(rating[white]),
                        int(rating[black]),
                        RESULTS[int(data.white_half_points[i])],
                        str(data.day[i]),
                    ]
                )
        paths.append(path)
    return paths


def timed(action: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def compute_both(db: str, spec: str) -> tuple[float, float, float, int]:
    """compute_period on the loaded facts, bulk and scalar; the bulk path's seconds in
    ``bulk_elo.rate_players`` (Elo: the engine and the figures per game); the games rated."""
    engine_seconds: list[float] = []
    rate_players = bulk_elo.rate_players

    def timed_rate_players(*args: Any, **kwargs: Any) -> Any:
        seconds, result = timed(lambda: rate_players(*args, **kwargs))
        engine_seconds.append(seconds)
        return result

    engine = open_store(db)
    with engine.connect() as connection:
        published = published_versions(connection)
        events = load_events(connection, PERIOD)
        rules = runner.rule_set_for(spec, PERIOD)
        times = []
        lists: list[ComputedList] = []
        for bulk in (True, False):
            history = load_history(connection, before=PERIOD, published=published)
            bulk_elo.rate_players = timed_rate_players
            try:
                seconds, computed = timed(
                    functools.partial(
                        compute_period, PERIOD, rules=rules, history=history, events=events, bulk=bulk
                    )
                )
            finally:
                bulk_elo.rate_players = rate_players
            times.append(seconds)
            assert isinstance(computed, ComputedList)
            lists.append(computed)
    engine.dispose()
    ours, reference = lists
    assert [(e.player_id, e.rating, e.rounded_change) for e in ours.entries.values()] == [
        (e.player_id, e.rating, e.rounded_change) for e in reference.entries.values()
    ], "the bulk and scalar lists differ"
    assert len(ours.workings) == len(reference.workings)
    return times[0], times[1], sum(engine_seconds), len(ours.workings) // 2


def run_both(db: str, folder: Path) -> tuple[float, float]:
    """The whole period run (load, compute, write, commit) on two copies of the store."""
    times = []
    for bulk in (True, False):
        copy = folder / f"run-{'bulk' if bulk else 'scalar'}.db"
        shutil.copy(db, copy)
        engine = open_store(str(copy))
        original = runner.compute_period
        runner.compute_period = functools.partial(compute_period, bulk=bulk)  # type: ignore[assignment]
        try:
            seconds, _ = timed(lambda: runner.run_period(engine, PERIOD))  # noqa: B023
        finally:
            runner.compute_period = original  # type: ignore[assignment]
        engine.dispose()
        times.append(seconds)
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--rules", nargs="*", default=["fide", "ciabe", "glicko2"])
    args = parser.parse_args()
    print(f"{args.games} synthetic games, period {PERIOD}, one run each; seconds (bulk vs scalar)")
    header = ("rules", "games", "compute bulk", "scalar", "ratio", "run bulk", "scalar", "ratio")
    print("{:8} {:>7} {:>13} {:>8} {:>6} {:>9} {:>8} {:>6}".format(*header))
    for spec in args.rules:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            db = str(folder / "list.db")
            init_store(db, rules=spec).dispose()
            engine = open_store(db)
            import_seconds, _ = timed(lambda: import_files(engine, write_events(args.games, folder)))  # noqa: B023
            engine.dispose()
            bulk_compute, scalar_compute, in_engine, games = compute_both(db, spec)
            bulk_run, scalar_run = run_both(db, folder)
            print(
                f"{spec:8} {games:>7} {bulk_compute:>13.2f} {scalar_compute:>8.2f} "
                f"{scalar_compute / bulk_compute:>5.1f}x {bulk_run:>9.2f} {scalar_run:>8.2f} "
                f"{scalar_run / bulk_run:>5.1f}x   (rate_players {in_engine:.2f} s;"
                f" import {import_seconds:.1f} s)"
            )


if __name__ == "__main__":
    main()
