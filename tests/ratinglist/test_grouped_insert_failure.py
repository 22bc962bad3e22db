"""A statement of many rows that fails a constraint (SQLite's ``INSERT OR FAIL``, which keeps no
statement journal) still raises, and the caller's rolled-back transaction keeps none of its rows:
neither those of the failing statement before the bad row nor those of earlier statements."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import func, select

from chessrate.ratinglist.rows import insert_rows
from chessrate.ratinglist.schema import list_summaries
from chessrate.ratinglist.store import init_store

COLUMNS = ("player_id", "first_period", "entered", "games", "highest", "active_period")


@pytest.mark.parametrize("bad_row", [0, 150, 399])
def test_a_failed_statement_of_many_rows_leaves_nothing(tmp_path: Path, bad_row: int) -> None:
    store = init_store(str(tmp_path / "grouped.db"))
    written = [(player, "2025-01", True, 3, 1500, "2025-01") for player in range(1, 401)]
    written[bad_row] = (1 if bad_row else 2, "2025-01", True, 3, 1500, "2025-01")  # a player twice
    try:
        with pytest.raises(sqlite3.IntegrityError), store.begin() as connection:
            insert_rows(connection, list_summaries, COLUMNS, written, rows_a_statement=200)
        with store.connect() as connection:
            assert connection.execute(select(func.count()).select_from(list_summaries)).scalar() == 0
    finally:
        store.dispose()
