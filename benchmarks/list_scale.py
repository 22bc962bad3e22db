"""A federation's month through the rating list, end to end, at two sizes: init, import, run, export.

    PYTHONPATH=src python benchmarks/list_scale.py                       # 2x10^5 games, SQLite
    PYTHONPATH=src python benchmarks/list_scale.py --sizes 200000 2000000 --postgres URL
    PYTHONPATH=src python benchmarks/list_scale.py --sizes 200000 2000000 --formats trf csv
    PYTHONPATH=src python benchmarks/list_scale.py --sizes 200000 --imports-only       # no run/export
    PYTHONPATH=src python benchmarks/list_scale.py --formats trf --keep   # keep the files and stores
    PYTHONPATH=src python benchmarks/list_scale.py --sizes 2000000 --months 6  # a run after 5 lists

Synthetic months (``chessrate.synthetic.swiss_month``: Swiss events of 100 players over 9 rounds,
one pool player per 10 games) are written as TRF files (one per event, ratings and FIDE ids), PGN
files (one per event, ``WhiteElo``/``WhiteFideId`` tags, a few moves a game) and CSV files (one per
event, names only). Each step is the real command, ``python -m chessrate list ...``, in its own
process, timed from outside, with that process's peak RSS (``os.wait4``):

* ``import`` of each format into a new store (``list init`` first);
* ``run`` of the month (period 2025-10, FIDE rules of 1 October 2025) on the TRF store;
* ``export`` of the list (CSV to a file) and ``show --json``.

Beside them, in the same run: the bulk engine (:func:`chessrate.bulk.rate_elo_period`) rating the
same games from arrays, and python-chess ``read_headers`` over the same PGN files. Ratios: games a
second, bytes of peak RSS a game, and the growth exponent between the sizes (1.0 is linear:
time ~ size^exponent). One run each on a shared 2-core machine: figures vary by 10-20 %.

``--months N`` measures instead the run of a month after N - 1 published ones (SQLite, TRF): N
synthetic months of the same pool of players (a new draw of events each month) imported and run
in order, up to period 2025-10; the first run and the last are timed, so the cost of the history
of the lists before a period shows as their difference.
"""

from __future__ import annotations

import argparse
import compileall
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import chess.pgn
import numpy as np

from chessrate import bulk, synthetic
from chessrate.fide.rules import rules_in_force
from chessrate.ratinglist.periods import Period
from chessrate.ruleset import fide_rule_set

ROOT = Path(__file__).resolve().parents[1]
PERIOD = "2025-10"
RESULTS = {0: "0-1", 1: "1/2-1/2", 2: "1-0"}
#: ``--imports-only``: time the imports (and read_headers, the engine), not run, export and show.
IMPORTS_ONLY = False


def write_month(month: synthetic.SwissMonth, folder: Path) -> dict[str, list[Path]]:
    """The month as TRF, PGN and CSV files, one per event of each format."""
    paths: dict[str, list[Path]] = {"trf": [], "pgn": [], "csv": []}
    for kind in paths:
        (folder / kind).mkdir()
    rating = month.players.rating
    per_event = len(month.white) // len(month.seats)
    for event in range(len(month.seats)):
        games = slice(event * per_event, (event + 1) * per_event)
        white, black = month.white[games], month.black[games]
        half, rounds = month.white_half_points[games], month.round[games]
        day = month.start[event]
        trf = folder / "trf" / f"event-{event:05d}.trf"
        trf.write_text(synthetic.trf_text(month, event), encoding="utf-8")
        paths["trf"].append(trf)
        paths["pgn"].append(_pgn(folder / "pgn", event, white, black, half, rounds, rating, month, day))
        paths["csv"].append(_csv(folder / "csv", event, white, black, half, rounds, rating, day))
    return paths


def _pgn(
    folder: Path,
    event: int,
    white: np.ndarray,
    black: np.ndarray,
    half: np.ndarray,
    rounds: np.ndarray,
    rating: np.ndarray,
    month: synthetic.SwissMonth,
    day: np.datetime64,
) -> Path:
    parts = []
    for w, b, h, r in zip(white.tolist(), black.tolist(), half.tolist(), rounds.tolist(), strict=True):
        date = str(day + np.timedelta64(r - 1, "D")).replace("-", ".")
        parts.append(
            f'[Event "Synthetic Swiss {event + 1}"]\n[Site "?"]\n[Date "{date}"]\n[Round "{r}"]\n'
            f'[White "Player {w:06d}"]\n[Black "Player {b:06d}"]\n[Result "{RESULTS[h]}"]\n'
            f'[WhiteElo "{int(rating[w])}"]\n[BlackElo "{int(rating[b])}"]\n'
            f'[WhiteFideId "{int(month.fide_id[w])}"]\n[BlackFideId "{int(month.fide_id[b])}"]\n\n'
            f"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {{a comment}} 4. Ba4 Nf6 {RESULTS[h]}\n\n"
        )
    path = folder / f"event-{event:05d}.pgn"
    path.write_text("".join(parts), encoding="utf-8")
    return path


def _csv(
    folder: Path,
    event: int,
    white: np.ndarray,
    black: np.ndarray,
    half: np.ndarray,
    rounds: np.ndarray,
    rating: np.ndarray,
    day: np.datetime64,
) -> Path:
    path = folder / f"event-{event:05d}.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["white", "black", "white_rating", "black_rating", "result", "date", "round"])
        for w, b, h, r in zip(white.tolist(), black.tolist(), half.tolist(), rounds.tolist(), strict=True):
            date = str(day + np.timedelta64(r - 1, "D"))
            out.writerow(
                [f"Player {w:06d}", f"Player {b:06d}", int(rating[w]), int(rating[b]), RESULTS[h], date, r]
            )
    return path


@dataclass(frozen=True)
class Step:
    seconds: float
    peak_rss: int  # bytes


def chessrate(*args: str, out: Path | None = None) -> Step:
    """``python -m chessrate ARGS`` in its own process: wall seconds and its peak RSS."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    sink = out.open("wb") if out is not None else subprocess.DEVNULL
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "chessrate", *args], stdout=sink, stderr=subprocess.PIPE, env=env
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if out is not None:
        sink.close()  # type: ignore[union-attr]
    if status != 0:
        error = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"chessrate {' '.join(args[:3])} failed: {error[-2000:]}")
    return Step(seconds, usage.ru_maxrss * 1024)


def engine_seconds(month: synthetic.SwissMonth) -> float:
    """The bulk engine on the month's games from arrays (best of three)."""
    day = rules_in_force(month.start.min().astype(object))
    rules = fide_rule_set(day, day=month.start.min().astype(object))
    ratings = month.players.rating
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        k = bulk.k_factors(ratings, rules=rules)
        bulk.rate_elo_period(month.white, month.black, month.white_half_points, ratings, k, rules=rules)
        best = min(best, time.perf_counter() - start)
    return best


def read_headers_seconds(paths: Sequence[Path]) -> float:
    """python-chess ``read_headers`` over the PGN files, every game's headers."""
    start = time.perf_counter()
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            while chess.pgn.read_headers(handle) is not None:
                pass
    return time.perf_counter() - start


def measure(
    games: int, *, postgres: str | None, folder: Path, formats: Sequence[str]
) -> dict[str, tuple[float, int] | float]:
    month = synthetic.swiss_month(games=games, seed=1)
    n = len(month.white)
    files = write_month(month, folder)
    rows: dict[str, tuple[float, int] | float] = {"games": n}
    backends = [("sqlite", str(folder / "list-{kind}.db"))]
    if postgres:
        backends.append(("postgres", postgres))
    for backend, url in backends:
        for kind in ("trf", *(kind for kind in formats if kind != "trf")):
            db = url.format(kind=kind) if backend == "sqlite" else url
            if backend == "postgres":
                _reset_postgres(url)
            chessrate("list", "init", "--db", db)
            step = chessrate("list", "import", *map(str, files[kind]), "--db", db)
            rows[f"{backend} import {kind}"] = (step.seconds, step.peak_rss)
            if kind == "trf" and not IMPORTS_ONLY:
                step = chessrate("list", "run", PERIOD, "--db", db)
                rows[f"{backend} run"] = (step.seconds, step.peak_rss)
                step = chessrate("list", "export", PERIOD, "--db", db, out=folder / "export.csv")
                rows[f"{backend} export"] = (step.seconds, step.peak_rss)
                step = chessrate("list", "show", PERIOD, "--json", "--db", db, out=folder / "show.json")
                rows[f"{backend} show --json"] = (step.seconds, step.peak_rss)
    rows["bulk engine"] = engine_seconds(month)
    rows["read_headers"] = read_headers_seconds(files["pgn"])
    return rows


def measure_months(games: int, months: int, *, folder: Path) -> dict[str, tuple[float, int] | float]:
    """The run of a month after ``months - 1`` published ones, and the first run (``--months``)."""
    db = str(folder / "list-months.db")
    chessrate("list", "init", "--db", db)
    last = Period.parse(PERIOD)
    rows: dict[str, tuple[float, int] | float] = {}
    for index in range(months):
        period = last.minus_months(months - 1 - index)
        month = synthetic.swiss_month(games=games, seed=1 + index, start=period.first_day)
        (folder / str(period)).mkdir()
        paths = []
        for event in range(len(month.seats)):
            path = folder / str(period) / f"event-{event:05d}.trf"
            path.write_text(synthetic.trf_text(month, event), encoding="utf-8")
            paths.append(str(path))
        chessrate("list", "import", *paths, "--db", db)
        step = chessrate("list", "run", str(period), "--db", db)
        if index == 0:
            rows["games"] = len(month.white)
            rows["sqlite run, first list"] = (step.seconds, step.peak_rss)
    rows[f"sqlite run after {months - 1} lists"] = (step.seconds, step.peak_rss)
    return rows


def _reset_postgres(url: str) -> None:
    from sqlalchemy import create_engine, text

    from chessrate.ratinglist.store import database_url

    engine = create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200_000])
    parser.add_argument("--postgres", help="a PostgreSQL URL whose public schema may be dropped")
    parser.add_argument("--imports-only", action="store_true", help="skip list run, export and show")
    parser.add_argument(
        "--formats",
        nargs="+",
        default=["trf", "pgn", "csv"],
        help="formats imported (TRF always: run, export)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep each size's folder (files and stores), and say where"
    )
    parser.add_argument(
        "--months", type=int, default=1, help="time a run after this many months less one (SQLite, TRF)"
    )
    args = parser.parse_args()
    global IMPORTS_ONLY  # a switch for the whole run, set once here
    IMPORTS_ONLY = args.imports_only
    # chessrate's modules byte-compiled first, as an installed package has them: where
    # PYTHONDONTWRITEBYTECODE is set and src/ has no __pycache__, each command would compile them
    # again (0.1-0.2 s of every process's start-up).
    compileall.compile_dir(ROOT / "src" / "chessrate", quiet=1)
    results = []
    for size in args.sizes:
        folder = Path(tempfile.mkdtemp(prefix="chessrate-scale-"))
        try:
            if args.months > 1:
                results.append(measure_months(size, args.months, folder=folder))
            else:
                results.append(measure(size, postgres=args.postgres, folder=folder, formats=args.formats))
        finally:
            if args.keep:
                print(f"kept {folder}", file=sys.stderr)
            else:
                shutil.rmtree(folder, ignore_errors=True)
    report(results)


def report(results: list[dict[str, tuple[float, int] | float]]) -> None:
    sizes = [int(result["games"]) for result in results]  # type: ignore[arg-type]
    print(
        "| step | " + " | ".join(f"{size:,} games: s, games/s, RSS B/game" for size in sizes) + " | growth |"
    )
    print("|---|" + "---|" * (len(sizes) + 1))
    for name in results[0]:
        if name == "games":
            continue
        cells = []
        seconds = []
        for result, size in zip(results, sizes, strict=True):
            value = result[name]
            if isinstance(value, tuple):
                secs, rss = value
                cells.append(f"{secs:.2f} s, {size / secs:,.0f}/s, {rss / size:,.0f} B")
            else:
                secs = value
                cells.append(f"{secs:.3f} s, {size / secs:,.0f}/s")
            seconds.append(secs)
        growth = ""
        if len(sizes) > 1:
            growth = f"{math.log(seconds[-1] / seconds[0]) / math.log(sizes[-1] / sizes[0]):.2f}"
        print(f"| {name} | " + " | ".join(cells) + f" | {growth} |")


if __name__ == "__main__":
    main()
