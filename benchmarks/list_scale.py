"""A federation's month through the rating list, end to end, at two sizes: init, import, run, export.

    PYTHONPATH=src python benchmarks/list_scale.py                       # 2x10^5 games, SQLite
    PYTHONPATH=src python benchmarks/list_scale.py --sizes 200000 2000000 --postgres URL
    PYTHONPATH=src python benchmarks/list_scale.py --sizes 200000 2000000 --formats trf csv
    PYTHONPATH=src python benchmarks/list_scale.py --sizes 200000 --imports-only       # no run/export
    PYTHONPATH=src python benchmarks/list_scale.py --formats trf --keep   # keep the files and stores
    PYTHONPATH=src python benchmarks/list_scale.py --sizes 2000000 --months 6  # a run after 5 lists

Synthetic months (``chessrate.testing.synthetic.swiss_month``: Swiss events of 100 players over 9 rounds,
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
time ~ size^exponent). Each command's CPU seconds are given beside (user and system), and a
PostgreSQL server's on this machine in brackets. ``run``, ``export`` and ``show`` run ``--repeat``
times (the fastest kept), each run on a new copy of the imported store (SQLite's backup API;
``CREATE DATABASE ... TEMPLATE``), the backends in turn; a PostgreSQL import is timed with a
``CHECKPOINT`` after it, as a SQLite commit writes its pages before it returns.

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
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import chess.pgn
import numpy as np

from chessrate import bulk
from chessrate.ratinglist.periods import Period
from chessrate.systems.elo.ruleset import fide_rule_set
from chessrate.systems.fide.regulations import rules_in_force
from chessrate.testing import synthetic

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
    #: The command's own CPU seconds (user and system).
    cpu: float
    #: PostgreSQL on this machine: the server's CPU seconds meanwhile (every process of the
    #: cluster); None for SQLite or a server elsewhere.
    server_cpu: float | None = None

    def plus(self, seconds: float, server_cpu: float | None) -> Step:
        """This step and a query after it (a ``CHECKPOINT``) as one."""
        both = None if self.server_cpu is None or server_cpu is None else self.server_cpu + server_cpu
        return Step(self.seconds + seconds, self.peak_rss, self.cpu, both)


def fastest(steps: Sequence[Step]) -> Step:
    return min(steps, key=lambda step: step.seconds)


def chessrate(*args: str, out: Path | None = None, server: ServerClock | None = None) -> Step:
    """``python -m chessrate ARGS`` in its own process: wall seconds, its peak RSS and CPU seconds,
    and the server's CPU seconds meanwhile."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    sink = out.open("wb") if out is not None else subprocess.DEVNULL
    server_before = server.seconds() if server else None
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "chessrate", *args], stdout=sink, stderr=subprocess.PIPE, env=env
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    server_after = server.seconds() if server else None
    if out is not None:
        sink.close()  # type: ignore[union-attr]
    if status != 0:
        error = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"chessrate {' '.join(args[:3])} failed: {error[-2000:]}")
    server_cpu = None
    if server_before is not None and server_after is not None:
        server_cpu = server_after - server_before
    return Step(seconds, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime, server_cpu)


class ServerClock:
    """The CPU seconds of a PostgreSQL cluster running on this machine: each of its processes'
    own (``/proc/PID/stat`` fields 14 and 15, utime and stime) and, for the postmaster, those of
    the children it has reaped (fields 16 and 17: every backend of a command that ended).
    ``seconds()`` is None where ``/proc`` does not show the server (a server elsewhere)."""

    def __init__(self, url: str) -> None:
        from sqlalchemy import create_engine, text

        from chessrate.ratinglist.store import database_url

        engine = create_engine(database_url(url))
        with engine.connect() as connection:
            backend = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
        engine.dispose()
        fields = _stat(backend)
        self.postmaster = int(fields[1]) if fields else None  # the backend's parent

    def seconds(self) -> float | None:
        if self.postmaster is None:
            return None
        ticks = 0
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            fields = _stat(int(entry.name))
            if fields is None:
                continue
            pid, parent = int(entry.name), int(fields[1])
            if pid == self.postmaster:
                ticks += sum(int(value) for value in fields[11:15])
            elif parent == self.postmaster:
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    """``/proc/PID/stat`` from field 3 on (after the command's name, which may hold spaces)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


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
    games: int, *, postgres: str | None, folder: Path, formats: Sequence[str], repeat: int
) -> dict[str, Step | float]:
    month = synthetic.swiss_month(games=games, seed=1)
    n = len(month.white)
    files = write_month(month, folder)
    rows: dict[str, Step | float] = {"games": n}
    stores = {"sqlite": Store.sqlite(folder)}
    if postgres:
        stores["postgres"] = Store.postgres(postgres)
    # The TRF store last: the store the run, export and show work on.
    kinds = [*(kind for kind in formats if kind != "trf"), "trf"]
    for backend, store in stores.items():
        for kind in kinds:
            store.reset()
            chessrate("list", "init", "--db", store.url(kind))
            step = chessrate(
                "list", "import", *map(str, files[kind]), "--db", store.url(kind), server=store.clock
            )
            rows[f"{backend} import {kind}"] = step.plus(*store.checkpoint())
    if not IMPORTS_ONLY:
        # Each run on a new copy of the imported store, the backends in turn, the fastest kept.
        runs: dict[str, list[Step]] = {backend: [] for backend in stores}
        for _ in range(repeat):
            for backend, store in stores.items():
                copy = store.copy()
                runs[backend].append(chessrate("list", "run", PERIOD, "--db", copy, server=store.clock))
        for backend, store in stores.items():
            copy = store.copied()
            rows[f"{backend} run"] = fastest(runs[backend])
            rows[f"{backend} export"] = fastest(
                [
                    chessrate(
                        "list", "export", PERIOD, "--db", copy, out=folder / "export.csv", server=store.clock
                    )
                    for _ in range(repeat)
                ]
            )
            rows[f"{backend} show --json"] = fastest(
                [
                    chessrate(
                        "list",
                        "show",
                        PERIOD,
                        "--json",
                        "--db",
                        copy,
                        out=folder / "show.json",
                        server=store.clock,
                    )
                    for _ in range(repeat)
                ]
            )
    for store in stores.values():
        store.close()
    rows["bulk engine"] = engine_seconds(month)
    rows["read_headers"] = read_headers_seconds(files["pgn"])
    return rows


@dataclass
class Store:
    """Where a backend's stores are: SQLite files in the size's folder (one a format), or one
    PostgreSQL database whose public schema is dropped before each import. ``copy()`` makes a new
    copy of the TRF store for a run (SQLite: the file; PostgreSQL: ``CREATE DATABASE ... TEMPLATE``)."""

    backend: str
    base: str
    clock: ServerClock | None = None

    @classmethod
    def sqlite(cls, folder: Path) -> Store:
        return cls("sqlite", str(folder / "list-{kind}.db"))

    @classmethod
    def postgres(cls, url: str) -> Store:
        return cls("postgres", url, ServerClock(url))

    def url(self, kind: str) -> str:
        return self.base.format(kind=kind) if self.backend == "sqlite" else self.base

    def reset(self) -> None:
        if self.backend == "postgres":
            _sql(self.base, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")

    def checkpoint(self) -> tuple[float, float | None]:
        """PostgreSQL: the import's pages written out now (``CHECKPOINT``), not by the server while
        the next command runs; its seconds and the server's CPU seconds. SQLite: its commit did it."""
        if self.backend != "postgres":
            return 0.0, 0.0
        before = self.clock.seconds() if self.clock else None
        start = time.perf_counter()
        _sql(self.base, "CHECKPOINT")
        seconds = time.perf_counter() - start
        after = self.clock.seconds() if self.clock else None
        return seconds, None if before is None or after is None else after - before

    def copy(self) -> str:
        """A new copy of the TRF store, its URL."""
        if self.backend == "sqlite":
            Path(self.copied()).unlink(missing_ok=True)
            with (
                closing(sqlite3.connect(self.url("trf"))) as source,
                closing(sqlite3.connect(self.copied())) as target,
            ):
                source.backup(target)
            return self.copied()
        database = self._database()
        _sql(self._maintenance(), f'DROP DATABASE IF EXISTS "{database}_run"', autocommit=True)
        _sql(
            self._maintenance(),
            f'CREATE DATABASE "{database}_run" TEMPLATE "{database}" STRATEGY FILE_COPY',
            autocommit=True,
        )
        return self.copied()

    def copied(self) -> str:
        if self.backend == "sqlite":
            return self.base.format(kind="run")
        return self.base.rsplit("/", 1)[0] + f"/{self._database()}_run"

    def close(self) -> None:
        if self.backend == "postgres":
            _sql(self._maintenance(), f'DROP DATABASE IF EXISTS "{self._database()}_run"', autocommit=True)

    def _database(self) -> str:
        return self.base.rsplit("/", 1)[1].split("?")[0]

    def _maintenance(self) -> str:
        return self.base.rsplit("/", 1)[0] + "/postgres"


def _sql(url: str, statement: str, *, autocommit: bool = False) -> None:
    from sqlalchemy import create_engine, text

    from chessrate.ratinglist.store import database_url

    engine = create_engine(database_url(url), isolation_level="AUTOCOMMIT" if autocommit else None)
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()


def measure_months(games: int, months: int, *, folder: Path) -> dict[str, Step | float]:
    """The run of a month after ``months - 1`` published ones, and the first run (``--months``)."""
    db = str(folder / "list-months.db")
    chessrate("list", "init", "--db", db)
    last = Period.parse(PERIOD)
    rows: dict[str, Step | float] = {}
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
            rows["sqlite run, first list"] = step
    rows[f"sqlite run after {months - 1} lists"] = step
    return rows


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
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="each run, export and show this many times (each run on a new copy of the store), the fastest",
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
                results.append(
                    measure(
                        size, postgres=args.postgres, folder=folder, formats=args.formats, repeat=args.repeat
                    )
                )
        finally:
            if args.keep:
                print(f"kept {folder}", file=sys.stderr)
            else:
                shutil.rmtree(folder, ignore_errors=True)
    report(results)


def report(results: list[dict[str, Step | float]]) -> None:
    sizes = [int(result["games"]) for result in results]  # type: ignore[arg-type]
    print(
        "| step | "
        + " | ".join(f"{size:,} games: s, games/s, RSS B/game, CPU s (server)" for size in sizes)
        + " | growth |"
    )
    print("|---|" + "---|" * (len(sizes) + 1))
    for name in results[0]:
        if name == "games":
            continue
        cells = []
        seconds = []
        for result, size in zip(results, sizes, strict=True):
            value = result[name]
            if isinstance(value, Step):
                cpu = f"{value.cpu:.2f}" + ("" if value.server_cpu is None else f" (+{value.server_cpu:.2f})")
                rate, memory = size / value.seconds, value.peak_rss / size
                cells.append(f"{value.seconds:.2f} s, {rate:,.0f}/s, {memory:,.0f} B, {cpu}")
                seconds.append(value.seconds)
            else:
                cells.append(f"{value:.3f} s, {size / value:,.0f}/s")
                seconds.append(value)
        growth = ""
        if len(sizes) > 1:
            growth = f"{math.log(seconds[-1] / seconds[0]) / math.log(sizes[-1] / sizes[0]):.2f}"
        print(f"| {name} | " + " | ".join(cells) + f" | {growth} |")


if __name__ == "__main__":
    main()
