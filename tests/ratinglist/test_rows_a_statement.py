"""``rows.insert_rows`` with many rows a statement (SQLite's multi-row ``VALUES``; PostgreSQL's
``COPY`` ignores it) stores the same rows as one a statement: every count around a statement's
and a chunk's size (the remainders go one a statement), NULLs, booleans, texts; and a statement
never has more variables than SQLite allows."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, delete, event, select

from chessrate.ratinglist import rows as rows_module
from chessrate.ratinglist.rows import SQLITE_VARIABLES, insert_rows
from chessrate.ratinglist.schema import list_summaries
from chessrate.ratinglist.store import init_store

from .ratinglist_support import BACKENDS, fresh_database

COLUMNS = ("player_id", "first_period", "entered", "games", "highest", "active_period")


@pytest.fixture(scope="module", params=BACKENDS)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    for url in fresh_database(Path(tmp_path_factory.mktemp("many")), request.param):
        store = init_store(url)
        yield store
        store.dispose()


def _rows(count: int) -> list[tuple[object, ...]]:
    return [
        (
            player,
            f"2025-{player % 12 + 1:02d}",
            player % 3 == 0,
            player * 7,
            None if player % 5 == 0 else 1000 + player,
            None if player % 4 == 0 else "2025-0é"[: 7 - player % 2],
        )
        for player in range(1, count + 1)
    ]


def _stored(engine: Engine, many: int, written: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    with engine.begin() as connection:
        connection.execute(delete(list_summaries))
        assert insert_rows(connection, list_summaries, COLUMNS, written, rows_a_statement=many) == len(
            written
        )
    with engine.connect() as connection:
        columns = [list_summaries.c[name] for name in COLUMNS]
        return [
            tuple(row) for row in connection.execute(select(*columns).order_by(list_summaries.c.player_id))
        ]


@pytest.mark.parametrize("count", [0, 1, 6, 7, 13, 14, 15, 29])
def test_many_rows_a_statement_store_what_one_a_statement_stores(
    engine: Engine, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rows_module, "CHUNK", 14)  # chunks of 14 rows: two statements of 7
    written = _rows(count)
    one = _stored(engine, 1, written)
    assert one == written
    for many in (2, 7, 200):
        assert _stored(engine, many, written) == one


def test_a_statement_has_no_more_variables_than_sqlite_allows(tmp_path: Path) -> None:
    store = init_store(str(tmp_path / "wide.db"))
    store.dispose()  # every connection from here on opened with the limit below

    @event.listens_for(store, "connect")
    def _limited(driver: sqlite3.Connection, _record: object) -> None:
        # This SQLite may allow more variables than the default limit: hold it to that limit.
        driver.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, SQLITE_VARIABLES)

    many = SQLITE_VARIABLES // len(COLUMNS) + 1  # one row more than a statement may hold
    assert many * len(COLUMNS) > SQLITE_VARIABLES
    assert many < rows_module.CHUNK
    written = _rows(2 * many + 3)  # grouped statements at the cap, then the remainder
    try:
        assert _stored(store, many, written) == written
    finally:
        store.dispose()
