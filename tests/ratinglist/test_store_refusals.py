"""The database refusing a write (a constraint, a full disk, a read-only store) and files that are
not a store: one line on stderr naming the file, exit 2, nothing of the import kept."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select, text

from chessrate.ratinglist.schema import event_players, events, games, players
from chessrate.ratinglist.store import init_store, open_store
from chessrate.testing import synthetic

from .ratinglist_support import DATA

SWISS = DATA / "trf/swiss-9-rounds.trf"


def one_line_error(run: Any) -> str:
    assert run.code == 2, (run.out, run.err)
    assert run.err.startswith("chessrate: error: "), run.err
    assert run.err.count("\n") == 1, run.err
    assert "Traceback" not in run.err
    return str(run.err)


def rows(db: str) -> dict[str, int]:
    with open_store(db).connect() as connection:
        return {
            table.name: connection.execute(select(func.count()).select_from(table)).scalar_one()
            for table in (events, event_players, games, players)
        }


def refuse_games(db: str) -> None:
    """The database refuses every game row: a trigger (SQLite) or a CHECK constraint (PostgreSQL),
    so that the rows written before (the event, its players) are in the transaction it rolls back."""
    engine = init_store(db)
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no games here'); END"
            )
        else:
            connection.exec_driver_sql("ALTER TABLE games ADD CONSTRAINT no_games_here CHECK (round < 0)")


def allow_games(db: str) -> None:
    with open_store(db).begin() as connection:
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql("DROP TRIGGER refuse")
        else:
            connection.exec_driver_sql("ALTER TABLE games DROP CONSTRAINT no_games_here")


def test_a_constraint_refusing_the_rows_is_one_line_and_nothing_is_kept(
    cli: Any, db: str, tmp_path: Path
) -> None:
    clean = str(tmp_path / "clean.db")  # the same file imported where nothing refuses it
    init_store(clean).dispose()
    assert cli("list", "import", str(SWISS), "--db", clean).code == 0
    refuse_games(db)
    error = one_line_error(cli("list", "import", str(SWISS), "--db", db))
    assert error.startswith("chessrate: error: swiss-9-rounds.trf: the database refused the import (")
    assert "no_games_here" in error or "no games here" in error
    assert "nothing was written" in error
    assert rows(db) == {"events": 0, "event_players": 0, "games": 0, "players": 0}
    allow_games(db)  # the same file again: imported whole, never "already imported"
    assert cli("list", "import", str(SWISS), "--db", db).code == 0
    assert rows(db) == rows(clean)


@pytest.fixture
def on_every_connection() -> Iterator[Callable[[str], None]]:
    """Run a PRAGMA on every new SQLite connection of every engine (the command line makes its own)."""
    said: list[Callable[..., None]] = []

    def add(pragma: str) -> None:
        def run(dbapi_connection: sqlite3.Connection, _record: object) -> None:
            dbapi_connection.execute(pragma)

        event.listen(Engine, "connect", run)
        said.append(run)

    yield add
    for run in said:
        event.remove(Engine, "connect", run)


def test_a_full_disk_is_one_line_and_nothing_is_kept(
    cli: Any, tmp_path: Path, on_every_connection: Callable[[str], None]
) -> None:
    db = str(tmp_path / "full.db")
    init_store(db).dispose()
    big = tmp_path / "big.trf"  # an event of 100 players over 9 rounds: more than the store's free pages
    big.write_text(synthetic.trf_text(synthetic.swiss_month(games=450, seed=1), 0))
    pages = sqlite3.connect(db).execute("PRAGMA page_count").fetchone()[0]
    # No page more than it has: SQLite then says SQLITE_FULL, as of a full disk
    # (sqlite.org/pragma.html#pragma_max_page_count).
    on_every_connection(f"PRAGMA max_page_count = {pages}")
    error = one_line_error(cli("list", "import", str(big), "--db", db))
    assert "big.trf: the database refused the import (database or disk is full)" in error
    assert rows(db) == {"events": 0, "event_players": 0, "games": 0, "players": 0}


def test_a_read_only_store_is_one_line(
    cli: Any, tmp_path: Path, on_every_connection: Callable[[str], None]
) -> None:
    db = str(tmp_path / "read-only.db")
    init_store(db).dispose()
    on_every_connection("PRAGMA query_only = ON")
    error = one_line_error(cli("list", "import", str(SWISS), "--db", db))
    assert (
        "swiss-9-rounds.trf: the database refused the import (attempt to write a readonly database)" in error
    )
    error = one_line_error(cli("list", "run", "2024-08", "--db", db))
    assert "period 2024-08: the database refused the run (attempt to write a readonly database)" in error


def test_a_file_that_is_not_a_database_is_not_a_store(cli: Any, tmp_path: Path) -> None:
    text_file = tmp_path / "passwd"
    text_file.write_text("root:x:0:0:root:/root:/bin/bash\n")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (line TEXT)")
    for path in (text_file, other):
        for args in (["list", "show"], ["list", "run", "2024-08"], ["list", "import", str(SWISS)]):
            error = one_line_error(cli(*args, "--db", str(path)))
            assert f"{path} is not a chessrate store" in error
            assert "damaged" not in error
    for args in (["list", "init"], ["list", "check"], ["list", "demo"]):  # nothing created in it
        error = one_line_error(cli(*args, "--db", str(text_file)))
        assert f"{text_file} is not a chessrate store (not a SQLite database)" in error
    assert text_file.read_text() == "root:x:0:0:root:/root:/bin/bash\n"  # left as it was


def test_init_refuses_a_database_of_other_tables_and_leaves_it_as_it_was(cli: Any, tmp_path: Path) -> None:
    other = tmp_path / "shop.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        connection.execute("INSERT INTO customers (name) VALUES ('Ada')")
    connection.close()
    before = other.read_bytes()
    for args in (["list", "init"], ["list", "init", "--rules", "elo"], ["list", "demo"]):
        error = one_line_error(cli(*args, "--db", str(other)))
        said = f"{other} is not a chessrate store: it holds other tables (customers); nothing was changed"
        assert said in error
    assert other.read_bytes() == before  # not a byte changed, no table added
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shop.db"]  # no journal left
    # An empty SQLite file, and a store already made, are still initialised.
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    assert cli("list", "init", "--db", str(empty)).code == 0
    assert cli("list", "init", "--db", str(empty)).code == 0


def test_a_damaged_store_is_still_damaged(cli: Any, tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    assert cli("list", "init", "--db", str(db)).code == 0
    assert cli("list", "import", str(SWISS), "--db", str(db)).code == 0
    # The write-ahead log's pages into the file first (the store keeps one: sqlite.org/wal.html),
    # so that the pages broken below are the store's.
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
    data = bytearray(db.read_bytes())
    for start in range(4096, len(data), 4096):  # every page but the first (and its header), broken
        data[start : start + 4] = b"\xff\xff\xff\xff"
    db.write_bytes(bytes(data))
    for args in (["list", "show", "--all"], ["list", "run", "2024-08"], ["list", "import", str(SWISS)]):
        error = one_line_error(cli(*args, "--db", str(db)))
        assert "damaged" in error or "malformed" in error
        assert "not a chessrate store" not in error


def test_the_store_error_says_its_code(db: str) -> None:
    """The codes a face translates by: a period out of order, a file imported twice."""
    from chessrate.ratinglist.importer import import_files
    from chessrate.ratinglist.periods import Period
    from chessrate.ratinglist.runner import run_period
    from chessrate.ratinglist.store import StoreError

    engine = init_store(db)
    import_files(engine, [SWISS])
    run_period(engine, Period(2024, 8))
    with pytest.raises(StoreError) as out_of_order:
        run_period(engine, Period(2024, 10))
    assert (out_of_order.value.code, out_of_order.value.params) == (
        "period-order",
        {"period": "2024-10", "next": "2024-09"},
    )
    with pytest.raises(StoreError) as twice:
        import_files(engine, [SWISS])
    assert twice.value.code == "import-same-file"
    assert twice.value.params == {
        "file": "swiss-9-rounds.trf",
        "event": 1,
        "name": "FIDE C.07 2023 Tie-Break Exercises",
        "earlier_file": "swiss-9-rounds.trf",
    }
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM events")).scalar_one() == 1
