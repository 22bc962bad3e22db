"""``chessrate report`` on one big PGN file, beside python-chess ``read_headers`` on the same file.

    PYTHONPATH=src python benchmarks/report_scale.py                 # 72 000 games
    PYTHONPATH=src python benchmarks/report_scale.py --games 20000

The file is a synthetic month (``chessrate.testing.synthetic.swiss_month``, Swiss events of 100 players over
9 rounds) written as one PGN with ``WhiteElo``/``WhiteFideId`` tags and a few moves a game, as
``benchmarks/list_scale.py`` writes it: 72 000 games and about 6 400 players (by name) at the
default size, the order of the 72k-game, 10.9k-player file of issue 13. ``report --format csv``
(a line a player) and ``--format json`` (every game's working too) each run in their own process,
timed from outside with their peak RSS (``os.wait4``); ``read_headers`` runs in this one. The
ratio is the report's time over ``read_headers``'s (issue 13's target: at most 2). One more row
splits the report's time: reading the file into the tournament model (``read_tournament``, timed
in this process) from the rest (start-up, rating, writing).

Each is run ``--repeat`` times (3 by default) and the fastest run kept, as wall seconds and as CPU
seconds (user and system, of the process for the report and of this one for ``read_headers``): on
a machine other jobs share, the CPU seconds move less, and their ratio is given beside.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import chess.pgn
import numpy as np

from chessrate.formats import read_tournament
from chessrate.testing import synthetic

ROOT = Path(__file__).resolve().parents[1]
RESULTS = {0: "0-1", 1: "1/2-1/2", 2: "1-0"}


def write_pgn(games: int, path: Path) -> tuple[int, int]:
    """The month as one PGN file: its number of games and of players."""
    month = synthetic.swiss_month(games=games, seed=1)
    per_event = len(month.white) // len(month.seats)
    rating, fide_id = month.players.rating, month.fide_id
    parts = []
    columns = (month.white, month.black, month.white_half_points, month.round)
    for index, (w, b, h, r) in enumerate(zip(*(column.tolist() for column in columns), strict=True)):
        event = index // per_event
        day = month.start[event] + np.timedelta64(r - 1, "D")
        parts.append(
            f'[Event "Synthetic Swiss {event + 1}"]\n[Site "?"]\n[Date "{str(day).replace("-", ".")}"]\n'
            f'[Round "{r}"]\n[White "Player {w:06d}"]\n[Black "Player {b:06d}"]\n[Result "{RESULTS[h]}"]\n'
            f'[WhiteElo "{int(rating[w])}"]\n[BlackElo "{int(rating[b])}"]\n'
            f'[WhiteFideId "{int(fide_id[w])}"]\n[BlackFideId "{int(fide_id[b])}"]\n\n'
            f"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {{a comment}} 4. Ba4 Nf6 {RESULTS[h]}\n\n"
        )
    path.write_text("".join(parts), encoding="utf-8")
    players = len(np.unique(np.concatenate([month.white, month.black])))
    return len(month.white), players


class Timing(NamedTuple):
    wall: float
    cpu: float


def fastest(timings: list[Timing]) -> Timing:
    """The fastest of several runs, by wall and by CPU seconds apart."""
    return Timing(min(t.wall for t in timings), min(t.cpu for t in timings))


def report_seconds(path: Path, output: str) -> tuple[Timing, int]:
    """``chessrate report FILE --format OUTPUT`` in its own process: wall and CPU seconds, peak RSS."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "chessrate", "report", str(path), "--format", output],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        error = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"chessrate report failed: {error[-2000:]}")
    return Timing(seconds, usage.ru_utime + usage.ru_stime), usage.ru_maxrss * 1024


def read_headers_seconds(path: Path) -> Timing:
    start, cpu = time.perf_counter(), time.process_time()
    with path.open(encoding="utf-8") as handle:
        while chess.pgn.read_headers(handle) is not None:
            pass
    return Timing(time.perf_counter() - start, time.process_time() - cpu)


def read_tournament_seconds(path: Path) -> Timing:
    """The PGN read into the tournament model as ``report`` reads it: its bytes, lenient, with the
    cycle collector paused (as the command pauses it)."""
    data = path.read_bytes()
    gc.disable()
    try:
        start, cpu = time.perf_counter(), time.process_time()
        read_tournament(data, format="pgn")
        return Timing(time.perf_counter() - start, time.process_time() - cpu)
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=72_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the fastest kept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chessrate-report-") as folder:
        path = Path(folder) / "month.pgn"
        games, players = write_pgn(args.games, path)
        headers = fastest([read_headers_seconds(path) for _ in range(args.repeat)])
        reading = fastest([read_tournament_seconds(path) for _ in range(args.repeat)])
        runs = {}
        for output in ("csv", "json"):
            timed = [report_seconds(path, output) for _ in range(args.repeat)]
            runs[output] = fastest([timing for timing, _ in timed]), max(rss for _, rss in timed)
    print(f"| {games:,} games, {players:,} players | seconds | games/s | × read_headers | CPU s | × CPU |")
    print("|---|---|---|---|---|---|")
    print(
        f"| python-chess `read_headers` | {headers.wall:.2f} | {games / headers.wall:,.0f} | 1"
        f" | {headers.cpu:.2f} | 1 |"
    )
    rows = [(f"`chessrate report --format {output}` ({rss / 2**20:,.0f} MB peak)", timing)
            for output, (timing, rss) in runs.items()]  # fmt: skip
    rows.append(("of which reading (`read_tournament`, in process)", reading))
    for name, timing in rows:
        print(
            f"| {name} | {timing.wall:.2f} | {games / timing.wall:,.0f} | {timing.wall / headers.wall:.1f}"
            f" | {timing.cpu:.2f} | {timing.cpu / headers.cpu:.1f} |"
        )


if __name__ == "__main__":
    main()
