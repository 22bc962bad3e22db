"""Time per game of ``chessrate strength`` at its default setting, this tree beside another.

The first ``--games`` games of the Lichess calibration file (ratings left out) are written to a PGN
and run through ``python -m chessrate strength FILE --json`` (no cache: every position searched),
alternately by this tree and, with ``--baseline-python``, by another checkout's interpreter (its
own ``chessrate``), ``--repeat`` times each, so that both see the same machine load::

    nice python benchmarks/strength_speed.py --games 30 --repeat 3 \\
        --baseline-python /path/to/other/checkout/.venv/bin/python

It prints seconds per game (the median of the runs) and the ratio of this tree's to the baseline's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from chessrate.strength.calibration import read_rows, row_game  # noqa: E402

DATA = ROOT / "data" / "lichess-calibration" / "calibration.csv"


def run(python: str, pgn: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        [python, "-m", "chessrate", "strength", str(pgn), "--json"],
        check=True,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline-python", help="another checkout's Python, with its own chessrate")
    args = parser.parse_args()
    games = [row_game(row) for row in read_rows(DATA)[: args.games]]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = env.get("PATH", "") + ":/usr/games"
    ours = dict(env, PYTHONPATH=str(ROOT / "src"))
    times: dict[str, list[float]] = {"this tree": [], "baseline": []}
    with tempfile.TemporaryDirectory() as folder:
        pgn = Path(folder) / "games.pgn"
        pgn.write_text("\n\n".join(str(g) for g in games) + "\n", encoding="utf-8")
        for _ in range(args.repeat):
            times["this tree"].append(run(sys.executable, pgn, ours))
            if args.baseline_python:
                times["baseline"].append(run(args.baseline_python, pgn, env))
    for label, runs in times.items():
        if runs:
            per_game = statistics.median(runs) / len(games)
            print(f"{label}: {per_game:.3f} s a game (runs: {', '.join(f'{t:.1f}' for t in runs)} s)")
    if times["baseline"]:
        ratio = statistics.median(times["this tree"]) / statistics.median(times["baseline"])
        print(f"ratio: {ratio:.2f}")


if __name__ == "__main__":
    main()
