"""``list run`` of one month with two checkouts in turn (A B A B ...), on the same store: what a
change to the run gives on a shared machine, where one run after the other says more about the
load than about the code. Not a test.

    git archive main | tar -x -C /tmp/main-checkout                         # the code to compare with
    PYTHONPATH=src python benchmarks/month_scale.py --sizes 300000 --repeat 1 --keep   # a month's files
    PYTHONPATH=src python benchmarks/paired_run.py FOLDER --other /tmp/main-checkout [--postgres URL]

``FOLDER`` holds ``history/`` and ``month/`` (as ``month_scale.py --keep`` leaves them). For each
checkout (``--other``, then this one) a store is made with that checkout's code (``list init``,
the history imported and run, the month imported): a SQLite file, or with ``--postgres`` (a URL
whose server may create and drop databases) a database. Then ``list run PERIOD`` of each in turn,
``--repeat`` times, each try on a new copy of its store (SQLite: the file copied; PostgreSQL:
``CREATE DATABASE ... TEMPLATE``, then a ``CHECKPOINT`` counted in the try), each in its own
process: wall seconds, CPU seconds and peak RSS (``os.wait4``), the 1-minute load; the fastest of
each. ``--dump`` also writes every row the run wrote (lists, lines, workings, summaries), sorted,
to compare the two byte for byte.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HISTORY, PERIOD = "2025-09", "2025-10"
#: What a run writes, each table's rows in one order (``--dump``).
DUMPED = {
    "list_versions": "SELECT id, period, revision, status, rules, rules_title FROM list_versions ORDER BY id",
    "list_entries": "SELECT * FROM list_entries ORDER BY version_id, player_id",
    "game_workings": "SELECT * FROM game_workings ORDER BY id",
    "list_summaries": "SELECT * FROM list_summaries ORDER BY player_id",
    "meta": "SELECT key, value FROM meta WHERE key = 'summary'",
}


def chessrate(checkout: Path, *args: str) -> tuple[float, float, int]:
    """``python -m chessrate ARGS`` with ``checkout``'s code: wall and CPU seconds, peak RSS."""
    env = {**os.environ, "PYTHONPATH": str(checkout / "src")}
    with tempfile.TemporaryFile() as said:
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "chessrate", *args], stdout=subprocess.DEVNULL, stderr=said, env=env
        )
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        if status != 0:
            said.seek(0)
            failed = said.read().decode()[-2000:]
            raise SystemExit(f"{checkout}: chessrate {' '.join(args[:3])} failed: {failed}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def sql(url: str, statement: str) -> None:
    from sqlalchemy import create_engine, text

    from chessrate.ratinglist.store import database_url

    engine = create_engine(database_url(url), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(statement))
    engine.dispose()


class Stores:
    """Each checkout's store after the month's import, and a new copy of it for each try."""

    def __init__(self, work: Path, postgres: str | None) -> None:
        self.work, self.postgres = work, postgres

    def _url(self, name: str) -> str:
        assert self.postgres is not None
        return self.postgres.rsplit("/", 1)[0] + f"/{name}"

    def made(self, side: str) -> str:
        if self.postgres is None:
            return str(self.work / f"{side}.db")
        sql(self.postgres, f'DROP DATABASE IF EXISTS "paired_{side}" WITH (FORCE)')
        sql(self.postgres, f'CREATE DATABASE "paired_{side}"')
        return self._url(f"paired_{side}")

    def copy(self, side: str) -> str:
        if self.postgres is None:
            target = self.work / "try.db"
            for suffix in ("", "-wal", "-shm"):
                Path(f"{target}{suffix}").unlink(missing_ok=True)
            shutil.copyfile(self.work / f"{side}.db", target)
            return str(target)
        sql(self.postgres, 'DROP DATABASE IF EXISTS "paired_try" WITH (FORCE)')
        sql(self.postgres, f'CREATE DATABASE "paired_try" TEMPLATE "paired_{side}"')
        return self._url("paired_try")

    def checkpoint(self) -> float:
        if self.postgres is None:
            return 0.0
        start = time.perf_counter()
        sql(self._url("paired_try"), "CHECKPOINT")
        return time.perf_counter() - start


def dump(db: str, target: Path) -> None:
    from sqlalchemy import create_engine, text

    from chessrate.ratinglist.store import database_url

    engine = create_engine(database_url(db))
    with engine.connect() as connection, target.open("w", encoding="utf-8") as out:
        for table, query in DUMPED.items():
            for row in connection.execute(text(query)):
                out.write("\t".join([table, *map(repr, row)]) + "\n")
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="holds history/ and month/ (month_scale.py --keep)")
    parser.add_argument("--other", type=Path, required=True, help="the checkout to compare with (A)")
    parser.add_argument("--postgres", help="a PostgreSQL URL whose server may create databases")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dump", type=Path, help="a folder for each side's rows after a run")
    args = parser.parse_args()
    sides = {"A": args.other.resolve(), "B": ROOT}
    with tempfile.TemporaryDirectory(prefix="chessrate-paired-") as work:
        stores = Stores(Path(work), args.postgres)
        for side, checkout in sides.items():
            db = stores.made(side)
            chessrate(checkout, "list", "init", "--db", db)
            chessrate(checkout, "list", "import", "--db", db, f"{args.folder / 'history'}/")
            chessrate(checkout, "list", "run", HISTORY, "--db", db)
            chessrate(checkout, "list", "import", "--db", db, f"{args.folder / 'month'}/")
        best: dict[str, tuple[float, float, int]] = {}
        for _ in range(args.repeat):
            for side, checkout in sides.items():
                db = stores.copy(side)
                seconds, cpu, peak = chessrate(checkout, "list", "run", PERIOD, "--db", db)
                seconds += stores.checkpoint()
                load = os.getloadavg()[0]
                print(f"{side}: {seconds:.2f} s, CPU {cpu:.2f} s, peak {peak / 1e6:.0f} MB, load {load:.2f}")
                if side not in best or seconds < best[side][0]:
                    best[side] = (seconds, cpu, peak)
                if args.dump is not None:
                    args.dump.mkdir(parents=True, exist_ok=True)
                    dump(db, args.dump / f"{side}.txt")
        for side, (seconds, cpu, peak) in best.items():
            print(f"fastest {side}: {seconds:.2f} s, CPU {cpu:.2f} s, peak {peak / 1e6:.0f} MB")
        if args.postgres:
            for name in ("paired_try", "paired_A", "paired_B"):
                sql(args.postgres, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
