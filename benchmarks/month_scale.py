"""A federation's month as it really arrives: thousands of small TRF, PGN and CSV files, from the
folder to the published list. Not a test.

    PYTHONPATH=src python benchmarks/month_scale.py                               # 10^5 games, SQLite
    PYTHONPATH=src python benchmarks/month_scale.py --sizes 100000 1000000 --postgres URL
    PYTHONPATH=src python benchmarks/month_scale.py --sizes 2000000 --pages        # the list page meanwhile

Each size is a month of events (period 2025-10) after one month of history (2025-09, half as many
games, imported and run before anything is timed): one file an event, TRF (half the events: ratings
and FIDE ids), PGN (a quarter: ``WhiteElo``/``WhiteFideId`` tags, a few moves) and CSV (a quarter:
a club's players by name, a rating or none), of 20 to 500 games (lognormal, median 245 games: 5, 7
or 9 rounds of a random pairing). Players are drawn from one pool with a skew (some play every
week), so they recur across events and months; 2 % of the pool is unrated (no rating, no FIDE id,
known by name). After the month's folder, three of its TRF events are imported again corrected (one
result changed), each with ``--replaces``.

Each step is the real command, ``python -m chessrate list ...``, in its own process, timed from
outside with its peak RSS (``os.wait4``), fastest of ``--repeat`` (each on a new copy of the store
after the history: SQLite's backup API, PostgreSQL's ``CREATE DATABASE ... TEMPLATE``), the
backends side by side in one run:

* ``import`` of the month's folder (``list import --db DB FOLDER/``): files/s, games/s, peak bytes
  a game; ``corrections``: the three ``--replaces`` imports; ``run`` of 2025-10: games/s;
* ``folder -> list``: import and run, the published list's end to end (each CLI's start-up in);
* the cost of a file and of a game: as many games imported as 450-game files too (``big``, the
  same mix of formats), and
  one 20-game file (the fixed cost of a command): a file = (import - big) / (files - big files),
  a game = (big - one file - a file x big files) / games.

``--pages`` (SQLite): while the month's run goes, a thread asks the web's list page (first page)
and a player's page in turn; their median and p99, and the same idle.
"""

from __future__ import annotations

import argparse
import compileall
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
HISTORY, PERIOD = "2025-09", "2025-10"
RESULTS = {2: "1-0", 1: "1/2-1/2", 0: "0-1"}
TRF_RESULT = {2: ("1", "0"), 1: ("=", "="), 0: ("0", "1")}
CORRECTIONS = 3


@dataclass
class Pool:
    """Every player of the run: a rating (0: unrated), a FIDE id (0: none), how often they play."""

    rating: np.ndarray
    fide_id: np.ndarray
    weight: np.ndarray
    club: np.ndarray  # a club player (CSV files, by name)

    @classmethod
    def make(cls, games: int, rng: np.random.Generator) -> Pool:
        count = max(1_000, games // 8)
        strength = rng.normal(1750.0, 300.0, count)
        rating = np.clip(np.rint(strength), 1000, 2800).astype(np.int64)
        unrated = rng.random(count) < 0.02
        rating[unrated] = 0
        fide_id = np.where(unrated, 0, np.arange(count) + 2_000_001)
        weight = rng.pareto(1.5, count) + 1.0  # a few play every week, most now and then
        club = rng.random(count) < 0.3
        return cls(rating, fide_id, weight / weight.sum(), club)

    def name(self, player: int) -> str:
        if self.club[player]:
            return f"Club Player {player:06d}"
        return f"Newcomer {player:06d}" if not self.fide_id[player] else f"Player {player:06d}"


@dataclass
class Event:
    kind: str
    players: np.ndarray  # pool indices, start numbers 1..n in this order
    white: np.ndarray  # seats
    black: np.ndarray
    half: np.ndarray
    round: np.ndarray
    start: np.datetime64

    @property
    def games(self) -> int:
        return len(self.white)


def month_events(
    pool: Pool, games: int, period: str, rng: np.random.Generator, *, big: bool = False
) -> list[Event]:
    """About ``games`` games of events in ``period``; ``big``: every event 100 players x 9 rounds
    (450 games), in the same mix of formats."""
    first = np.datetime64(f"{period}-01", "D")
    events: list[Event] = []
    total = 0
    while total < games:
        kind = str(rng.choice(["trf", "trf", "pgn", "csv"]))
        if big:
            rounds, size = 9, 100
        else:
            wanted = float(np.clip(rng.lognormal(np.log(245.0), 0.7), 20, 500))
            rounds = int(rng.choice([5, 7, 9]))
            size = max(4, 2 * round(wanted / rounds))  # size / 2 boards x rounds
            if size // 2 * rounds > 500:
                size -= 2
        candidates = np.flatnonzero(pool.club) if kind == "csv" else np.flatnonzero(~pool.club)
        weight = pool.weight[candidates] / pool.weight[candidates].sum()
        players = rng.choice(candidates, size=size, replace=False, p=weight)
        order = rng.permuted(np.tile(np.arange(size), (rounds, 1)), axis=1)
        white, black = order[:, 0::2].reshape(-1), order[:, 1::2].reshape(-1)
        diff = pool.rating[players[black]] - pool.rating[players[white]]
        expected = 1.0 / (1.0 + 10.0 ** (diff / 400.0))
        roll = rng.random(len(white))
        half = np.where(roll < expected - 0.15, 2, np.where(roll < expected + 0.15, 1, 0))
        rnd = np.repeat(np.arange(1, rounds + 1), size // 2)
        start = first + np.timedelta64(int(rng.integers(0, 28 - rounds)), "D")
        events.append(Event(kind, players, white, black, half, rnd, start))
        total += len(white)
    return events


def write_events(pool: Pool, events: Sequence[Event], folder: Path) -> int:
    folder.mkdir(parents=True)
    for number, event in enumerate(events):
        path = folder / f"event-{number:05d}.{event.kind}"
        text = {"trf": trf_text, "pgn": pgn_text, "csv": csv_text}[event.kind](pool, event, number)
        path.write_text(text, encoding="utf-8")
    return sum(event.games for event in events)


def trf_text(pool: Pool, event: Event, number: int) -> str:
    size = len(event.players)
    cells: list[list[str]] = [[] for _ in range(size)]
    points = [0.0] * size
    for w, b, h in zip(event.white.tolist(), event.black.tolist(), event.half.tolist(), strict=True):
        white_result, black_result = TRF_RESULT[h]
        cells[w].append(f"{b + 1:>4} w {white_result}  ")
        cells[b].append(f"{w + 1:>4} b {black_result}  ")
        points[w] += h / 2
        points[b] += 1 - h / 2
    end = event.start + np.timedelta64(int(event.round.max()) - 1, "D")
    lines = [
        f"012 Month event {number}",
        f"042 {str(event.start).replace('-', '/')}",
        f"052 {str(end).replace('-', '/')}",
        f"062 {size}",
        "092 Individual: Swiss-System",
    ]
    for seat, player in enumerate(event.players.tolist()):
        rating = int(pool.rating[player])
        fide = int(pool.fide_id[player])
        head = (
            f"001 {seat + 1:>4} m    {pool.name(player):<33} {rating or '':>4} ESP "
            f"{fide or '':>11} 0000/00/00 {points[seat]:>4.1f} {seat + 1:>4}  "
        )
        lines.append(head + "".join(cells[seat]))
    return "\n".join(lines) + "\n"


def pgn_text(pool: Pool, event: Event, number: int) -> str:
    parts = []
    for w, b, h, r in zip(
        event.white.tolist(), event.black.tolist(), event.half.tolist(), event.round.tolist(), strict=True
    ):
        white, black = int(event.players[w]), int(event.players[b])
        date = str(event.start + np.timedelta64(r - 1, "D")).replace("-", ".")
        tags = [
            f'[Event "Month broadcast {number}"]',
            '[Site "?"]',
            f'[Date "{date}"]',
            f'[Round "{r}"]',
            f'[White "{pool.name(white)}"]',
            f'[Black "{pool.name(black)}"]',
            f'[Result "{RESULTS[h]}"]',
        ]
        for side, player in (("White", white), ("Black", black)):
            if pool.rating[player]:
                tags.append(f'[{side}Elo "{int(pool.rating[player])}"]')
            if pool.fide_id[player]:
                tags.append(f'[{side}FideId "{int(pool.fide_id[player])}"]')
        parts.append("\n".join(tags) + f"\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 {RESULTS[h]}\n\n")
    return "".join(parts)


def csv_text(pool: Pool, event: Event, number: int) -> str:
    lines = ["white,black,white_rating,black_rating,result,date,round"]
    for w, b, h, r in zip(
        event.white.tolist(), event.black.tolist(), event.half.tolist(), event.round.tolist(), strict=True
    ):
        white, black = int(event.players[w]), int(event.players[b])
        date = str(event.start + np.timedelta64(r - 1, "D"))
        ratings = [str(int(pool.rating[p])) if pool.rating[p] else "" for p in (white, black)]
        lines.append(
            f"{pool.name(white)},{pool.name(black)},{ratings[0]},{ratings[1]},{RESULTS[h]},{date},{r}"
        )
    return "\n".join(lines) + "\n"


def corrected(path: Path, folder: Path) -> Path:
    """The TRF file with its first game's result changed (a win for White becomes a draw...), the
    two players' points with it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    value = {"1": 1.0, "=": 0.5, "0": 0.0}
    seats = {int(line[4:8]): index for index, line in enumerate(lines) if line.startswith("001 ")}
    first = seats[1]
    opponent = seats[int(lines[first][91:95])]
    old = lines[first][98]
    new = {"1": "=", "=": "0", "0": "1"}[old]
    mirror = {"1": "0", "=": "=", "0": "1"}
    for index, before, after in ((first, old, new), (opponent, mirror[old], mirror[new])):
        line = lines[index]  # round 1's cell: columns 92-101, its result in column 99
        points = float(line[80:84]) - value[before] + value[after]
        lines[index] = f"{line[:80]}{points:>4.1f}{line[84:98]}{after}{line[99:]}"
    target = folder / f"{path.stem}-corrected.trf"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


@dataclass(frozen=True)
class Step:
    seconds: float
    peak_rss: int
    cpu: float


def chessrate(*args: str, out: Path | None = None) -> Step:
    """``python -m chessrate ARGS`` in its own process: wall seconds, peak RSS, CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    sink = out.open("wb") if out is not None else subprocess.DEVNULL
    # Standard error to a file: a month's warnings (players without a rating) fill a pipe.
    with tempfile.TemporaryFile() as said:
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "chessrate", *args], stdout=sink, stderr=said, env=env
        )
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        if out is not None:
            sink.close()  # type: ignore[union-attr]
        if status != 0:
            said.seek(0)
            raise SystemExit(f"chessrate {' '.join(args[:3])} failed: {said.read().decode()[-2000:]}")
    return Step(seconds, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime)


@dataclass
class Store:
    """A backend's store after the history, copied for each timed try."""

    backend: str
    base: str  # SQLite: a file; PostgreSQL: a URL
    tries: int = 0

    def fresh(self) -> str:
        """An empty database, for the history."""
        if self.backend == "sqlite":
            Path(self.base).unlink(missing_ok=True)
            return self.base
        _sql(self.base, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        return self.base

    def copy(self) -> str:
        self.tries += 1
        if self.backend == "sqlite":
            target = f"{self.base}.try"
            Path(target).unlink(missing_ok=True)
            with closing(sqlite3.connect(self.base)) as source, closing(sqlite3.connect(target)) as copy:
                source.backup(copy)
            return target
        database = self.base.rsplit("/", 1)[1].split("?")[0]
        maintenance = self.base.rsplit("/", 1)[0] + "/postgres"
        _sql(maintenance, f'DROP DATABASE IF EXISTS "{database}_try" WITH (FORCE)', autocommit=True)
        _sql(maintenance, f'CREATE DATABASE "{database}_try" TEMPLATE "{database}"', autocommit=True)
        return self.base.rsplit("/", 1)[0] + f"/{database}_try"

    def checkpoint(self, url: str) -> float:
        """PostgreSQL: the written pages flushed now (as a SQLite commit does before it returns)."""
        if self.backend == "sqlite":
            return 0.0
        start = time.perf_counter()
        _sql(url, "CHECKPOINT")
        return time.perf_counter() - start


def _sql(url: str, statement: str, *, autocommit: bool = False) -> None:
    from sqlalchemy import create_engine, text

    from chessrate.ratinglist.store import database_url

    engine = create_engine(database_url(url), isolation_level="AUTOCOMMIT" if autocommit else None)
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()


@dataclass
class Result:
    games: int
    files: int
    big_files: int
    rows: dict[str, Step | float | str] = field(default_factory=dict)


def measure(size: int, folder: Path, *, postgres: str | None, repeat: int, pages: bool) -> Result:
    rng = np.random.default_rng(size)
    pool = Pool.make(size, rng)
    write_events(pool, month_events(pool, size // 2, HISTORY, rng), folder / "history")
    month = month_events(pool, size, PERIOD, rng)
    games = write_events(pool, month, folder / "month")
    big = month_events(pool, games, PERIOD, np.random.default_rng(size + 1), big=True)
    write_events(pool, big, folder / "big")
    tiny = folder / "tiny"
    write_events(pool, month_events(pool, 20, PERIOD, np.random.default_rng(3))[:1], tiny)
    trf_files = [path for path in sorted((folder / "month").iterdir()) if path.suffix == ".trf"]
    fixes = folder / "corrections"
    fixes.mkdir()
    corrections = [corrected(path, fixes) for path in trf_files[:CORRECTIONS]]
    result = Result(games, len(month), len(big))
    stores = {"sqlite": Store("sqlite", str(folder / "list.db"))}
    if postgres:
        stores["postgres"] = Store("postgres", postgres)
    for store in stores.values():
        db = store.fresh()
        chessrate("list", "init", "--db", db)
        chessrate("list", "import", "--db", db, f"{folder / 'history'}/")
        chessrate("list", "run", HISTORY, "--db", db)
    tries: dict[str, list[dict[str, Step]]] = {backend: [] for backend in stores}
    for _ in range(repeat):
        for backend, store in stores.items():
            steps: dict[str, Step] = {}
            db = store.copy()
            steps["import"] = _checkpointed(
                store, db, chessrate("list", "import", "--db", db, f"{folder / 'month'}/")
            )
            ids = _event_ids(db, [path.name for path in trf_files[:CORRECTIONS]])
            fix = [
                chessrate("list", "import", "--db", db, str(path), "--replaces", str(ids[index]))
                for index, path in enumerate(corrections)
            ]
            steps["corrections"] = Step(
                sum(s.seconds for s in fix), max(s.peak_rss for s in fix), sum(s.cpu for s in fix)
            )
            steps["run"] = chessrate("list", "run", PERIOD, "--db", db)
            db = store.copy()
            steps["import big files"] = _checkpointed(
                store, db, chessrate("list", "import", "--db", db, f"{folder / 'big'}/")
            )
            db = store.copy()
            steps["import one file"] = chessrate("list", "import", "--db", db, f"{tiny}/")
            tries[backend].append(steps)
    for backend, found in tries.items():
        for name in found[0]:
            result.rows[f"{backend} {name}"] = min((steps[name] for steps in found), key=lambda s: s.seconds)
        best = min(found, key=lambda steps: steps["import"].seconds + steps["run"].seconds)
        result.rows[f"{backend} folder -> list"] = Step(
            best["import"].seconds + best["run"].seconds,
            max(best["import"].peak_rss, best["run"].peak_rss),
            best["import"].cpu + best["run"].cpu,
        )
    if pages:
        result.rows["pages"] = pages_during_run(stores["sqlite"], folder / "month")
    return result


def _checkpointed(store: Store, db: str, step: Step) -> Step:
    return Step(step.seconds + store.checkpoint(db), step.peak_rss, step.cpu)


def _event_ids(db: str, names: list[str]) -> list[int]:
    done = subprocess.run(
        [sys.executable, "-m", "chessrate", "list", "events", "--db", db, "--json"],
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    by_name = {
        event["file"]: event["id"] for event in json.loads(done.stdout)["events"] if event["period"] == PERIOD
    }
    return [int(by_name[name]) for name in names]


def pages_during_run(store: Store, month: Path) -> str:
    """The list page and a player's page asked in turn, idle and while the month's run goes (SQLite)."""
    from starlette.testclient import TestClient

    from chessrate.web import WebSettings, create_app

    db = store.copy()
    chessrate("list", "import", "--db", db, f"{month}/")
    client = TestClient(create_app(WebSettings(list_db=db)))
    targets = ["/list", "/list/player/1"]
    for target in targets:
        answer = client.get(target)
        if answer.status_code != 200:
            raise SystemExit(f"{target}: {answer.status_code}")

    def ask(stop: threading.Event | None, count: int) -> list[float]:
        times: list[float] = []
        while (stop is None and len(times) < count) or (stop is not None and not stop.is_set()):
            start = time.perf_counter()
            answer = client.get(targets[len(times) % 2])
            times.append(time.perf_counter() - start)
            if answer.status_code != 200:
                raise SystemExit(f"{answer.status_code} during the run")
        return times

    idle = ask(None, 200)
    stop = threading.Event()
    during: list[float] = []
    thread = threading.Thread(target=lambda: during.extend(ask(stop, 0)))
    thread.start()
    step = chessrate("list", "run", PERIOD, "--db", db)
    stop.set()
    thread.join()
    return (
        f"idle: median {_ms(idle, 50)}, p99 {_ms(idle, 99)}; during a {step.seconds:.1f} s run: "
        f"{len(during)} pages, median {_ms(during, 50)}, p99 {_ms(during, 99)}"
    )


def _ms(times: list[float], percent: int) -> str:
    if not times:
        return "-"
    ordered = sorted(times)
    return f"{1000 * ordered[min(len(ordered) - 1, math.ceil(percent / 100 * len(ordered)) - 1)]:.0f} ms"


def report(results: list[Result]) -> None:
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load: {load} (1, 5, 15 min), {os.cpu_count()} CPUs")
    header = " | ".join(f"{r.games:,} games, {r.files:,} files" for r in results)
    print(f"| step | {header} | growth |")
    print("|---|" + "---|" * (len(results) + 1))
    names = [name for name in results[0].rows if name != "pages"]
    for name in names:
        cells, seconds = [], []
        for result in results:
            step = result.rows[name]
            assert isinstance(step, Step)
            seconds.append(step.seconds)
            if "one file" in name or "corrections" in name:
                cell = f"{step.seconds:.2f} s, peak {step.peak_rss / 1e6:,.0f} MB"
            else:
                rate, memory = result.games / step.seconds, step.peak_rss / result.games
                cell = f"{step.seconds:.2f} s, {rate:,.0f} games/s, {memory:,.0f} B/game"
            if name.endswith(" import"):
                cell += f", {result.files / step.seconds:,.0f} files/s"
            cells.append(cell)
        growth = ""
        if len(results) > 1 and "one file" not in name and "corrections" not in name:
            growth = (
                f"{math.log(seconds[-1] / seconds[0]) / math.log(results[-1].games / results[0].games):.2f}"
            )
        print(f"| {name} | " + " | ".join(cells) + f" | {growth} |")
    backends = sorted({name.split()[0] for name in names})
    for backend in backends:
        cells = []
        for result in results:
            month, big, one = (
                result.rows[f"{backend} {kind}"] for kind in ("import", "import big files", "import one file")
            )
            assert isinstance(month, Step)
            assert isinstance(big, Step)
            assert isinstance(one, Step)
            per_file = (month.seconds - big.seconds) / (result.files - result.big_files)
            per_game = (big.seconds - one.seconds - per_file * result.big_files) / result.games
            cells.append(f"a file {1e3 * per_file:.2f} ms, a game {1e6 * per_game:.2f} µs")
        print(f"| {backend} cost of a file, of a game | " + " | ".join(cells) + " | |")
    for result in results:
        if "pages" in result.rows:
            print(f"pages at {result.games:,} games (SQLite): {result.rows['pages']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--postgres", help="a PostgreSQL URL whose public schema may be dropped")
    parser.add_argument("--repeat", type=int, default=3, help="tries of each step, the fastest kept")
    parser.add_argument(
        "--pages", action="store_true", help="the list and player pages during a run (SQLite)"
    )
    parser.add_argument("--keep", action="store_true", help="keep each size's folder, and say where")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "src" / "chessrate", quiet=1)  # as an installed package has them
    results = []
    for size in args.sizes:
        folder = Path(tempfile.mkdtemp(prefix="chessrate-month-"))
        try:
            results.append(
                measure(size, folder, postgres=args.postgres, repeat=args.repeat, pages=args.pages)
            )
        finally:
            if args.keep:
                print(f"kept {folder}", file=sys.stderr)
            else:
                shutil.rmtree(folder, ignore_errors=True)
    report(results)


if __name__ == "__main__":
    main()
