"""What the rating-list tests share: the backends and a fresh database on each."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from chessrate.ratinglist.store import database_url

POSTGRES_VARIABLE = "CHESSRATE_TEST_POSTGRES_URL"
DATA = Path(__file__).parents[1] / "data"


def postgres_server_url() -> str:
    url = os.environ.get(POSTGRES_VARIABLE)
    if not url:
        pytest.fail(
            f"{POSTGRES_VARIABLE} is not set: start a server with scripts/start_postgres.sh and export "
            "its URL, or deselect the PostgreSQL tests with -m 'not postgres'"
        )
    return database_url(url)


def fresh_database(tmp_path: Path, backend: str) -> Iterator[str]:
    """A new empty database: a SQLite file, or a new PostgreSQL database dropped afterwards."""
    if backend == "sqlite":
        yield str(tmp_path / "list.db")
        return
    server = make_url(postgres_server_url())
    name = f"chessrate_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
