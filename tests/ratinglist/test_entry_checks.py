"""List entries without foreign keys (migration 0004): the upgrade from 0003 keeps every list and
constraint but the two keys, a run refuses a list naming a player the store does not have, a
replaced draft leaves none of its lines behind, and ``list check`` finds lines without their
player or list. Games and entrants without foreign keys (migration 0005): the upgrade from 0004
keeps every row and constraint but the keys, and ``list check`` finds rows without their event or
player. Workings without foreign keys (migration 0007): the upgrade from 0006 keeps every working,
a run refuses a working naming a row the store does not have, and ``list check`` finds them."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, func, insert, inspect, select, text
from sqlalchemy.exc import IntegrityError

from chessrate.ratinglist import runner
from chessrate.ratinglist.compute import compute_period
from chessrate.ratinglist.facts import ComputedList, Entry, Working, pooled_working
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import (
    SCHEMA_REVISION,
    event_players,
    events,
    game_workings,
    games,
    list_entries,
    list_versions,
    metadata,
    players,
)
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.ratinglist.store import StoreError, check_store, database_url, init_store, open_store

from .ratinglist_support import DATA

SWISS = DATA / "trf/swiss-unplayed-rounds.trf"
CANDIDATES = DATA / "pgn/candidates-2022.pgn"


def lists(db: str) -> list[tuple[Any, ...]]:
    with open_store(db).connect() as connection:
        return [tuple(row) for row in connection.execute(select(list_entries).order_by(*list_entries.c))]


def store_with_lists(db: str) -> None:
    engine = init_store(db)
    import_files(engine, [SWISS], start=dt.date(2024, 5, 4))
    import_files(engine, [CANDIDATES], start=dt.date(2024, 6, 3))
    for month in (5, 6):
        run_period(engine, Period(2024, month))


def migrate(db: str, revision: str) -> None:
    engine = open_store(db) if revision == SCHEMA_REVISION else init_store(db)
    # SQLite's foreign keys off, as init_store runs the migrations (a rebuilt table is named by another)
    with engine.execution_options(sqlite_foreign_keys=False).connect() as connection:
        config = Config()
        config.set_main_option("script_location", "chessrate.ratinglist:migrations")
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
        connection.commit()
    engine.dispose()


def test_the_upgrade_from_0003_drops_the_two_entry_keys_and_keeps_every_list_and_constraint(db: str) -> None:
    store_with_lists(db)
    before = lists(db)
    migrate(db, "0003")
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0003"
        keys = {key["name"] for key in inspect(connection).get_foreign_keys("list_entries")}
        assert keys == {"fk_list_entries_version_id_list_versions", "fk_list_entries_player_id_players"}
    engine.dispose()

    engine = init_store(db)  # upgrades to the newest revision
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
        assert inspect(connection).get_foreign_keys("list_entries") == []
        indexes = {index["name"] for index in inspect(connection).get_indexes("list_entries")}
        assert "ix_list_entries_player_id" in indexes
    assert lists(db) == before
    assert check_store(db) == (True, ("ok",))

    # The CHECK constraints and the primary key came through the table's rebuild (SQLite).
    version_id, player_id = before[0][:2]
    with engine.begin() as connection:
        draft = connection.execute(
            insert(list_versions)
            .values(
                period="2024-05",
                revision=9,
                status="draft",
                rules="fide",
                rules_title="FIDE",
                created_at=dt.datetime(2024, 6, 1),
            )
            .returning(list_versions.c.id)
        ).scalar_one()
    line = {"version_id": draft, "player_id": player_id, "status": EntryStatus.RATED, "games": 0}
    for wrong in ({"games": -1}, {"rating": 4001}, {"status": "retired"}, {"version_id": version_id}):
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(insert(list_entries).values(**{**line, **wrong}))
    with engine.begin() as connection:
        connection.execute(insert(list_entries).values(**line))  # the same line, right, goes in
        connection.execute(list_entries.delete().where(list_entries.c.version_id == draft))
        connection.execute(list_versions.delete().where(list_versions.c.id == draft))
    assert lists(db) == before


def test_a_run_refuses_a_list_naming_a_player_the_store_does_not_have(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store_with_lists(db)
    before = lists(db)
    compute = compute_period

    def with_a_stranger(*args: Any, **kwargs: Any) -> ComputedList:
        computed = compute(*args, **kwargs)
        stranger = Entry(
            player_id=987_654, status=EntryStatus.RATED, rating_before=1500, rating=1500, games=0
        )
        return dataclasses.replace(computed, entries={**computed.entries, stranger.player_id: stranger})

    monkeypatch.setattr(runner, "compute_period", with_a_stranger)
    refused = r"^the list of period 2024-06: .*player id 987654.*nothing was written$"
    with pytest.raises(StoreError, match=refused):
        run_period(open_store(db), Period(2024, 6), republish=True)
    assert lists(db) == before


@pytest.mark.parametrize("key", ["player_id", "opponent_id", "game_id", "event_id"])
def test_a_run_refuses_a_working_naming_a_row_the_store_does_not_have(
    db: str, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    """SQLite checks no foreign key of ``game_workings`` row by row while a run writes: the run
    checks them (runner.check_workings), and refuses as the database did."""
    store_with_lists(db)
    before = lists(db)
    with open_store(db).connect() as connection:
        of_the_period = select(events.c.id).where(events.c.period == "2024-06")
        game = connection.execute(select(games).where(games.c.event_id.in_(of_the_period)).limit(1)).one()
    compute = compute_period

    def with_a_stray_working(*args: Any, **kwargs: Any) -> ComputedList:
        computed = compute(*args, **kwargs)
        return dataclasses.replace(computed, workings=(*computed.workings, stray_working(game, key)))

    monkeypatch.setattr(runner, "compute_period", with_a_stray_working)
    refused = rf"^period 2024-06: the database refused the run \(.*{key} 987654\); nothing was written$"
    with pytest.raises(StoreError, match=refused):
        run_period(open_store(db), Period(2024, 6), republish=True)
    assert lists(db) == before


def test_a_replaced_draft_leaves_none_of_its_lines(db: str) -> None:
    store_with_lists(db)
    engine = open_store(db)
    for _ in range(3):  # each re-run replaces the draft before it, its lines first
        run_period(engine, Period(2024, 5))
    with engine.connect() as connection:
        versions = connection.execute(select(func.count()).select_from(list_versions)).scalar_one()
        listed = connection.execute(select(func.count(func.distinct(list_entries.c.version_id)))).scalar_one()
    assert versions == listed == 4  # two published lists, two drafts (one a period)
    assert check_store(db) == (True, ("ok",))


def test_list_check_finds_lines_without_their_player_or_list(db: str) -> None:
    store_with_lists(db)
    engine = open_store(db)
    with engine.begin() as connection:
        version_id = connection.execute(select(func.max(list_versions.c.id))).scalar_one()
        biggest = connection.execute(select(func.max(players.c.id))).scalar_one()
        for version, player in ((version_id, biggest + 7), (version_id + 50, biggest)):
            connection.execute(
                insert(list_entries).values(version_id=version, player_id=player, status="rated", games=0)
            )
    sound, lines = check_store(db)
    assert not sound
    assert lines == (
        f"list_entries: 1 line(s) name a player the store does not have (player id {biggest + 7})",
        f"list_entries: 1 line(s) name a list the store does not have (list id {version_id + 50})",
    )


def imported_rows(db: str) -> list[list[tuple[Any, ...]]]:
    with open_store(db).connect() as connection:
        return [
            [tuple(row) for row in connection.execute(select(table).order_by(*table.c))]
            for table in (event_players, games, game_workings)
        ]


def test_the_upgrade_from_0004_drops_the_keys_of_games_and_entrants_and_keeps_every_row(db: str) -> None:
    # Migration 0005: an import checks its rows' events and players as a whole, not row by row.
    store_with_lists(db)
    before, entries = imported_rows(db), lists(db)
    assert before[2]  # the pooled games' workings, which name games: kept through the rebuild
    migrate(db, "0004")
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        keys = {key["name"] for key in inspect(connection).get_foreign_keys("games")}
        assert keys == {"fk_games_event_id_events", "fk_games_white_id_players", "fk_games_black_id_players"}
    engine.dispose()

    engine = init_store(db)  # upgrades to the newest revision
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
        for table in ("games", "event_players"):
            assert inspect(connection).get_foreign_keys(table) == []
        assert "ix_games_event_id" in {index["name"] for index in inspect(connection).get_indexes("games")}
        assert inspect(connection).get_foreign_keys("game_workings") == []  # (0007)
    assert imported_rows(db) == before
    assert lists(db) == entries
    assert check_store(db) == (True, ("ok",))
    # The CHECK and unique constraints came through the tables' rebuild (SQLite).
    game = before[1][0]
    for wrong in ({"black_id": game[3]}, {"round": None, "rated": None}):
        row = {**dict(zip(games.c.keys(), game, strict=True)), "id": None, **wrong}
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(insert(games).values(**row))
    entrant = before[0][0]
    again = {"event_id": entrant[0], "start_number": 999, "player_id": entrant[2]}  # twice in an event
    with pytest.raises(IntegrityError), engine.begin() as connection:
        connection.execute(insert(event_players).values(**again))


def test_list_check_finds_games_and_entrants_without_their_event_or_players(db: str) -> None:
    store_with_lists(db)
    engine = open_store(db)
    with engine.begin() as connection:
        event = connection.execute(select(func.max(events.c.id))).scalar_one()
        biggest = connection.execute(select(func.max(players.c.id))).scalar_one()
        connection.execute(insert(event_players).values(event_id=event + 3, start_number=1, player_id=1))
        stranger = {"event_id": event, "start_number": 999, "player_id": biggest + 5}
        connection.execute(insert(event_players).values(**stranger))
        game = {"round": 1, "white_score": "1", "black_score": "0", "rated": True, "code": "1", "line": 1}
        connection.execute(insert(games).values(event_id=event, white_id=biggest + 8, black_id=1, **game))
        connection.execute(insert(games).values(event_id=event, white_id=1, black_id=biggest + 9, **game))
    sound, lines = check_store(db)
    assert not sound
    assert lines == (
        f"event_players: 1 row(s) name an event the store does not have (event id {event + 3})",
        f"event_players: 1 row(s) name a player the store does not have (player id {biggest + 5})",
        f"games: 1 row(s) name a player the store does not have (player id {biggest + 8})",
        f"games: 1 row(s) name a player the store does not have (player id {biggest + 9})",
    )


def test_the_upgrade_from_0006_drops_the_keys_of_the_workings_and_keeps_every_row(db: str) -> None:
    # Migration 0007: a run checks its workings' keys as a whole, not row by row.
    store_with_lists(db)
    before, entries = imported_rows(db), lists(db)
    assert before[2]  # the pooled games' workings
    migrate(db, "0006")
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        keys = {key["name"] for key in inspect(connection).get_foreign_keys("game_workings")}
        assert keys == {
            "fk_game_workings_version_id_list_versions",
            "fk_game_workings_player_id_players",
            "fk_game_workings_game_id_games",
            "fk_game_workings_event_id_events",
            "fk_game_workings_opponent_id_players",
        }
    engine.dispose()

    engine = init_store(db)  # upgrades to the newest revision
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
        assert inspect(connection).get_foreign_keys("game_workings") == []
        indexes = {index["name"] for index in inspect(connection).get_indexes("game_workings")}
        assert "ix_game_workings_version_player" in indexes
    assert imported_rows(db) == before
    assert lists(db) == entries
    assert check_store(db) == (True, ("ok",))
    run_period(engine, Period(2024, 6), republish=True)  # the next run writes workings as before
    assert check_store(db) == (True, ("ok",))


def test_list_check_finds_workings_without_their_list_players_game_or_event(db: str) -> None:
    store_with_lists(db)
    engine = open_store(db)
    with engine.begin() as connection:
        working = dict(connection.execute(select(game_workings).limit(1)).one()._mapping)
        del working["id"]
        biggest = connection.execute(select(func.max(players.c.id))).scalar_one()
        strays = {
            "version_id": 900,
            "player_id": biggest + 1,
            "opponent_id": biggest + 2,
            "game_id": 9_000_000,
            "event_id": 9_100,
        }
        for key, value in strays.items():
            connection.execute(insert(game_workings).values({**working, key: value}))
    sound, lines = check_store(db)
    assert not sound
    assert lines == (
        "game_workings: 1 row(s) name a list the store does not have (list id 900)",
        f"game_workings: 1 row(s) name a player the store does not have (player id {biggest + 1})",
        f"game_workings: 1 row(s) name a player the store does not have (player id {biggest + 2})",
        "game_workings: 1 row(s) name a game the store does not have (game id 9000000)",
        "game_workings: 1 row(s) name an event the store does not have (event id 9100)",
    )


def stray_working(game: Any, key: str) -> Working:
    """A pooled game of ``game`` (a row of ``games``) whose ``key`` points at no row: 987654."""
    pooled = pooled_working(game.white_id, game.event_id, game.id, game.black_id, Decimal(1500), Decimal(1))
    return dataclasses.replace(pooled, **{key: 987_654})
