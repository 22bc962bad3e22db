"""Concurrent writers on one store (SQLite file and PostgreSQL): each waits its turn or is refused
cleanly, and the lists are those of one run (issue 12)."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import list_versions
from chessrate.ratinglist.store import check_store, init_store, open_store, write_transaction

from .ratinglist_support import DATA
from .test_faults import published

SRC = Path(__file__).parents[2] / "src"
CANDIDATES = DATA / "pgn/candidates-2022.pgn"
SWISS = DATA / "trf/swiss-unplayed-rounds.trf"
ENV = {**os.environ, "PYTHONPATH": str(SRC)}


def store_with_events(db: str) -> None:
    engine = init_store(db)
    import_files(engine, [CANDIDATES], start=dt.date(2024, 5, 6))
    import_files(engine, [SWISS], start=dt.date(2024, 5, 20))
    engine.dispose()


def chessrate(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "chessrate", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def test_eight_runs_at_once_all_finish_or_refuse_cleanly(db: str, tmp_path: Path) -> None:
    store_with_events(db)
    runs = [chessrate("list", "run", "2024-05", "--db", db, "--json") for _ in range(8)]
    results = [(run.wait(timeout=300), *run.communicate()) for run in runs]
    for code, _out, err in results:
        assert code in {0, 2}, err
        assert "Traceback" not in err
        if code == 2:
            assert err.startswith("chessrate: error: ")
            assert err.count("\n") == 1
    assert sum(1 for code, _, _ in results if code == 0) >= 1

    # The published list is exactly that of one run on its own.
    reference = str(tmp_path / "reference.db")
    store_with_events(reference)
    run_period(open_store(reference), Period(2024, 5))
    assert published(db) == published(reference)
    with open_store(db).connect() as connection:
        statuses = connection.execute(
            select(list_versions.c.status, func.count()).group_by(list_versions.c.status)
        ).all()
    assert dict(statuses)["published"] == 1
    assert check_store(db) == (True, ("ok",))


def test_a_second_writer_says_it_waits_then_runs(db: str) -> None:
    store_with_events(db)
    holder = write_transaction(open_store(db))
    holder.__enter__()  # another writer holds the store
    try:
        run = chessrate("list", "run", "2024-05", "--db", db)
        assert run.stderr is not None
        line = run.stderr.readline()
        assert "another run or import is in progress on this store; waiting" in line
        time.sleep(0.5)
        assert run.poll() is None  # still waiting
    finally:
        holder.__exit__(None, None, None)
    assert run.wait(timeout=120) == 0
    assert list(published(db)) == ["2024-05"]
