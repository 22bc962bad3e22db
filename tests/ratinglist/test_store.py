"""The store: migrations build exactly the schema the code queries, constraints are on."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import delete, insert, text
from sqlalchemy.exc import IntegrityError

from chessrate.errors import InvalidInputError
from chessrate.ratinglist.schema import (
    SCHEMA_REVISION,
    events,
    fide_ratings,
    list_entries,
    list_versions,
    metadata,
    players,
)
from chessrate.ratinglist.statuses import EntryStatus, ListStatus
from chessrate.ratinglist.store import StoreError, database_url, head_revision, init_store, open_store


def test_migrations_build_the_schema_the_code_queries(db: str) -> None:
    engine = init_store(db)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []


def test_the_revision_a_store_is_opened_at_is_the_newest_migration(db: str) -> None:
    """``open_store`` reads the store's revision without Alembic and compares it with
    ``SCHEMA_REVISION``: that is Alembic's head and what ``init`` records; a store behind it is
    refused, naming the command that upgrades it."""
    assert head_revision() == SCHEMA_REVISION
    engine = init_store(db)
    with engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == SCHEMA_REVISION
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0002'"))
    with pytest.raises(StoreError, match=r"schema 0002.*chessrate list init"):
        open_store(db)


def test_init_is_idempotent_and_open_checks_the_schema(db: str) -> None:
    init_store(db, rules="ciabe")
    init_store(db)  # upgrading an up-to-date store changes nothing
    assert open_store(db).dialect.name in {"sqlite", "postgresql"}


def test_open_refuses_a_store_that_was_never_initialised(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="chessrate list init"):
        open_store(str(tmp_path / "missing.db"))


def test_foreign_keys_and_checks_are_enforced(db: str) -> None:
    engine = init_store(db)
    # (event_players and games have no foreign keys: an import checks them, test_import_paths.py)
    with pytest.raises(IntegrityError), engine.begin() as connection:
        connection.execute(insert(fide_ratings).values(fide_list_id=99, player_id=42, rating=2000, flag=""))
    day = dt.date(2024, 1, 2)
    with pytest.raises(IntegrityError), engine.begin() as connection:
        connection.execute(
            insert(events).values(
                name="x",
                source_format="TRF16",
                file_name="x.trf",
                file_sha256="0" * 64,
                start_date=day,
                end_date=day - dt.timedelta(days=1),
                period="2024-01",
                imported_at=dt.datetime(2024, 1, 1),
            )
        )


@pytest.mark.parametrize(
    ("spec", "url"),
    [
        ("chessrate.db", "sqlite:///chessrate.db"),
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
    ],
)
def test_database_url(spec: str, url: str) -> None:
    assert database_url(spec) == url


def test_bad_database_url_names_the_field() -> None:
    with pytest.raises(InvalidInputError, match="invalid db"):
        init_store("nosuchdialect://x")


def test_the_migrated_status_checks_accept_exactly_the_status_enums(db: str) -> None:
    """The CHECK constraints the migrations build allow every ListStatus and EntryStatus and
    nothing else (schema.py builds its constraints from the same enums)."""
    engine = init_store(db)
    now = dt.datetime(2024, 1, 1)
    with engine.begin() as connection:
        player = connection.execute(
            insert(players).values(name="A", name_key="a", created_at=now).returning(players.c.id)
        ).scalar_one()
    for revision, status in enumerate([*ListStatus, "final"], start=1):
        version = {"period": "2024-01", "revision": revision, "rules": "fide", "rules_title": "FIDE"}
        row = {**version, "status": status, "created_at": now}
        if status == "final":
            with pytest.raises(IntegrityError), engine.begin() as connection:
                connection.execute(insert(list_versions).values(**row))
            continue
        with engine.begin() as connection:
            if status == ListStatus.PUBLISHED:
                version_id = connection.execute(
                    insert(list_versions).values(**row).returning(list_versions.c.id)
                ).scalar_one()
            else:
                connection.execute(insert(list_versions).values(**row))
    for status in [*EntryStatus, "retired"]:
        entry = {"version_id": version_id, "player_id": player, "status": status, "games": 0}
        if status == "retired":
            with pytest.raises(IntegrityError), engine.begin() as connection:
                connection.execute(insert(list_entries).values(**entry))
            continue
        with engine.begin() as connection:
            connection.execute(insert(list_entries).values(**entry))
            connection.execute(delete(list_entries))
