"""List entries without foreign keys (migration 0004): the upgrade from 0003 keeps every list and
constraint but the two keys, a run refuses a list naming a player the store does not have, a
replaced draft leaves none of its lines behind, and ``list check`` finds lines without their
player or list."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from ratinglist_support import DATA
from sqlalchemy import create_engine, func, insert, inspect, select, text
from sqlalchemy.exc import IntegrityError

from chessrate.ratinglist import runner
from chessrate.ratinglist.compute import compute_period
from chessrate.ratinglist.facts import ComputedList, Entry
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import SCHEMA_REVISION, list_entries, list_versions, metadata, players
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.ratinglist.store import StoreError, check_store, database_url, init_store, open_store

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
    with engine.connect() as connection:
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
