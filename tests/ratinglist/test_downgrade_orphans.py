"""Downgrading the migrations that dropped foreign keys (0004, 0005, 0007) over a row naming a row
the store does not have: the downgrade deletes it, then restores the keys, on both backends
(PostgreSQL refused to restore a key over it; SQLite, its check off while migrating, kept it)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Table, create_engine, func, insert, inspect, select, text

from chessrate.ratinglist.schema import event_players, game_workings, games, list_entries
from chessrate.ratinglist.store import database_url, open_store

from .test_entry_checks import migrate, store_with_lists

#: An id no table of the store has.
MISSING = 987_654


def _copy(connection: Any, table: Table, **changed: Any) -> dict[str, Any]:
    """A row of ``table`` (its first) with ``changed``, inserted; the values inserted."""
    row = dict(connection.execute(select(table).limit(1)).one()._mapping)
    if "id" in row:
        row["id"] = connection.execute(select(func.max(table.c.id))).scalar_one() + 1
    row |= changed
    connection.execute(insert(table).values(**row))
    return row


def _count(connection: Any, table: Table) -> int:
    return int(connection.execute(select(func.count()).select_from(table)).scalar_one())


def _orphans(db: str, migration: str) -> dict[str, int]:
    """Orphan rows put in the store at the newest revision: the rows each table keeps after."""
    with open_store(db).begin() as connection:
        kept = {t.name: _count(connection, t) for t in (game_workings, games, event_players, list_entries)}
        if migration == "0007":  # a working of a player the store does not have
            _copy(connection, game_workings, player_id=MISSING)
        elif migration == "0005":  # a game and an entrant of a missing player; the game's working
            game = _copy(connection, games, white_id=MISSING)
            _copy(connection, game_workings, game_id=game["id"])  # goes with its game
            _copy(connection, event_players, start_number=MISSING, player_id=MISSING)
        else:  # a list's line of a player the store does not have
            _copy(connection, list_entries, player_id=MISSING)
    return kept


#: Each migration, the revision before it, and the keys its downgrade restores: table -> names.
CASES = {
    "0007": (
        "0006",
        {
            "game_workings": {
                "fk_game_workings_version_id_list_versions",
                "fk_game_workings_player_id_players",
                "fk_game_workings_game_id_games",
                "fk_game_workings_event_id_events",
                "fk_game_workings_opponent_id_players",
            }
        },
    ),
    "0005": (
        "0004",
        {
            "games": {"fk_games_event_id_events", "fk_games_white_id_players", "fk_games_black_id_players"},
            "event_players": {"fk_event_players_event_id_events", "fk_event_players_player_id_players"},
        },
    ),
    "0004": (
        "0003",
        {"list_entries": {"fk_list_entries_version_id_list_versions", "fk_list_entries_player_id_players"}},
    ),
}


@pytest.mark.parametrize("migration", CASES)
def test_a_downgrade_deletes_the_orphans_then_restores_the_keys(db: str, migration: str) -> None:
    store_with_lists(db)
    kept = _orphans(db, migration)
    before, keys = CASES[migration]
    migrate(db, before)
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == before
        for table, names in keys.items():
            assert names <= {key["name"] for key in inspect(connection).get_foreign_keys(table)}, table
        # The orphan is gone, every other row is kept.
        for table in (game_workings, games, event_players, list_entries):
            assert _count(connection, table) == kept[table.name], table.name
        for table, column in (
            (game_workings, game_workings.c.player_id),
            (games, games.c.white_id),
            (event_players, event_players.c.player_id),
            (list_entries, list_entries.c.player_id),
        ):
            named = connection.execute(select(func.count()).where(column == MISSING)).scalar_one()
            assert named == 0, table.name
        if engine.dialect.name == "sqlite":
            assert connection.exec_driver_sql("PRAGMA foreign_key_check").all() == []
    engine.dispose()
