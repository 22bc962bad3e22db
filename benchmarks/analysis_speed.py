"""Speed of the engine analysis: positions/s and games/s, the cache on a second run, 2 processes, Dask.

The first ``--games`` games of the calibration file (default 40, about 2,600 positions) are analysed
at the default setting (Stockfish, depth 8, one thread per engine), each run with a fresh cache:

1. one engine process (``--workers 1``);
2. the same games again on the filled cache: the hit rate must be 100% and no position searched;
3. ``--workers 2``: two engine processes;
4. a Dask ``LocalCluster`` with two single-threaded worker processes (``--scheduler``);

and the results of 3 and 4 are checked equal to 1. Speed-ups are ratios to run 1. Run from the
repository root, nice'd on a shared machine::

    nice python benchmarks/analysis_speed.py            # about 1-2 minutes on 2 free cores
    nice python benchmarks/analysis_speed.py --games 10
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

from chessrate.analysis import AnalysisStats, GameAnalysis, Setting, analyse_games
from chessrate.analysis.engine import engine_name

DATA = Path(__file__).parents[1] / "data" / "lichess-calibration" / "calibration.csv"


def calibration_games(count: int) -> list[chess.pgn.Game]:
    games = []
    with DATA.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            board = chess.Board()
            for san in row["moves"].split():
                board.push_san(san)
            games.append(chess.pgn.Game.from_board(board))
            if len(games) == count:
                break
    return games


def timed(run: Callable[[], list[GameAnalysis]]) -> tuple[float, list[GameAnalysis]]:
    started = time.perf_counter()
    result = run()
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--depth", type=int, default=8)
    args = parser.parse_args()
    setting = Setting(depth=args.depth)
    games = calibration_games(args.games)
    machine = platform.processor() or platform.machine()
    print(f"{machine}, {os.cpu_count()} cores, {engine_name(None)}, depth {args.depth}")
    rows: list[tuple[str, float, int, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder) / "one.sqlite"
        stats = AnalysisStats()
        seconds, single = timed(lambda: analyse_games(games, setting=setting, cache_path=cache, stats=stats))
        positions = stats.searched
        rows.append(("1 process", seconds, positions, f"{stats.searched} searched"))
        again = AnalysisStats()
        seconds2, repeat = timed(lambda: analyse_games(games, setting=setting, cache_path=cache, stats=again))
        assert repeat == single
        rows.append(
            (
                "same games, cached",
                seconds2,
                positions,
                f"hit rate {again.hit_rate:.0%}, {again.searched} searched",
            )
        )
        seconds3, two = timed(
            lambda: analyse_games(games, setting=setting, cache_path=Path(folder) / "two.sqlite", workers=2)
        )
        assert two == single
        rows.append(("--workers 2", seconds3, positions, "equal to 1 process"))
        from distributed import Client, LocalCluster

        with (
            LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster),
        ):
            seconds4, on_dask = timed(
                lambda: analyse_games(
                    games,
                    setting=setting,
                    cache_path=Path(folder) / "dask.sqlite",
                    scheduler=cluster.scheduler_address,
                )
            )
        assert on_dask == single
        rows.append(("Dask LocalCluster, 2 workers", seconds4, positions, "equal to 1 process"))
    print(f"{len(games)} games, {positions} distinct positions searched\n")
    print("| run | seconds | positions/s | games/s | speed-up | note |\n|---|---|---|---|---|---|")
    for name, seconds, count, note in rows:
        print(
            f"| {name} | {seconds:.2f} | {count / seconds:.0f} | {len(games) / seconds:.2f} | "
            f"{rows[0][1] / seconds:.2f} | {note} |"
        )


if __name__ == "__main__":
    main()
