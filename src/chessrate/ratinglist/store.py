"""Opening the store: a database URL (or a plain path, which means SQLite), its schema by Alembic.

- :func:`init_store` creates or upgrades the schema with the migrations shipped in this package.
- :func:`open_store` refuses a database whose schema is missing or behind, naming the command
  that fixes it.
- SQLite's foreign keys are off unless asked for on every connection: they are turned on here.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, insert, select, update
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError

from chessrate.errors import InvalidInputError, RatingError
from chessrate.ratinglist.schema import meta

DEFAULT_DB = "chessrate.db"
DEFAULT_RULES = "fide"


class StoreError(RatingError):
    """The store cannot be opened or used as asked: missing, not initialised, busy, refused."""


def database_url(spec: str) -> str:
    """A SQLAlchemy URL from ``--db``: a URL as it is, a plain path as a SQLite file.

    ``postgresql://`` and ``postgres://`` URLs use the psycopg (version 3) driver.
    """
    spec = spec.strip()
    if not spec:
        raise InvalidInputError("db", spec, "give a database URL or a file path")
    if "://" not in spec:
        return f"sqlite:///{Path(spec).expanduser()}"
    for prefix in ("postgres://", "postgresql://"):
        if spec.startswith(prefix):
            return "postgresql+psycopg://" + spec[len(prefix) :]
    return spec


def make_engine(spec: str) -> Engine:
    """An engine for ``spec`` with SQLite foreign keys on."""
    url = database_url(spec)
    try:
        engine = create_engine(url)
    except (ArgumentError, ImportError) as error:
        raise InvalidInputError("db", spec, f"not a usable database URL ({error})") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_on_connect)
        event.listen(engine, "begin", _sqlite_on_begin)
    return engine


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    # pysqlite would open transactions itself; SQLAlchemy's "begin" event does it instead.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_on_begin(connection: Connection) -> None:
    # SQLAlchemy's documented pysqlite recipe: our own BEGIN, so that SAVEPOINT and DDL in a
    # transaction behave. Writers take the store's lock row first (see ``take_lock``).
    connection.exec_driver_sql("BEGIN")


def _alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", "chessrate.ratinglist:migrations")
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration shipped with this version of chessrate."""
    script = ScriptDirectory(str(resources.files("chessrate.ratinglist").joinpath("migrations")))
    head = script.get_current_head()
    if head is None:  # pragma: no cover - the package always ships its migrations
        raise StoreError("no migrations found in the chessrate package")
    return head


def init_store(spec: str, *, rules: str | None = None) -> Engine:
    """Create the schema (or upgrade it to the newest migration); set the default rule set."""
    engine = make_engine(spec)
    try:
        with engine.begin() as connection:
            command.upgrade(_alembic_config(connection), "head")
            current = connection.execute(select(meta.c.value).where(meta.c.key == "rules")).scalar()
            if current is None:
                connection.execute(insert(meta).values(key="rules", value=rules or DEFAULT_RULES))
            elif rules is not None:
                connection.execute(update(meta).where(meta.c.key == "rules").values(value=rules))
            if connection.execute(select(meta.c.value).where(meta.c.key == "lock")).scalar() is None:
                connection.execute(insert(meta).values(key="lock", value="0"))
    except OperationalError as error:
        raise StoreError(f"cannot initialise the store {spec!r}: {error.orig}") from None
    return engine


def open_store(spec: str) -> Engine:
    """An engine on an initialised store at the newest schema, else a :class:`StoreError`."""
    engine = make_engine(spec)
    url = make_url(database_url(spec))
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).exists():
        raise StoreError(f"no store at {url.database!r}: run 'chessrate list init --db {spec}' first")
    try:
        with engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
    except SQLAlchemyError as error:
        raise StoreError(f"cannot open the store {spec!r}: {getattr(error, 'orig', error)}") from None
    if current is None:
        raise StoreError(f"{spec!r} is not a chessrate store: run 'chessrate list init --db {spec}'")
    if current != head_revision():
        raise StoreError(
            f"the store {spec!r} has schema {current}, this chessrate needs {head_revision()}: "
            f"run 'chessrate list init --db {spec}' to upgrade it"
        )
    return engine


def take_lock(connection: Connection) -> None:
    """Take the store's write lock for this transaction: a second writer waits until it ends."""
    connection.execute(update(meta).where(meta.c.key == "lock").values(value=meta.c.value))


def store_rules(connection: Connection) -> str:
    """The store's default rule set (``list init --rules``)."""
    value = connection.execute(select(meta.c.value).where(meta.c.key == "rules")).scalar()
    return str(value or DEFAULT_RULES)
