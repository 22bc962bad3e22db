"""Opening the store: a database URL (or a plain path, which means SQLite), its schema by Alembic.

- :func:`init_store` creates or upgrades the schema with the migrations shipped in this package.
- :func:`open_store` refuses a database whose schema is missing or behind, naming the command
  that fixes it.
- SQLite's foreign keys are off unless asked for on every connection: they are turned on here.
- :func:`write_transaction` is how every writer (an import, a run) begins: it holds the store's
  lock until it commits. A second writer waits (``wait`` seconds, after saying so) or is refused
  at once: "another run or import is in progress".
- A damaged SQLite file is reported as such (:class:`DamagedStoreError`); :func:`check_store`
  runs SQLite's ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing, contextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event, func, insert, inspect, select, text, update
from sqlalchemy.engine import Connection, ExceptionContext, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError, SQLAlchemyError

from chessrate.errors import CodedError, InvalidInputError
from chessrate.ratinglist.refusals import coded_refusal, input_refusal, refusal_text
from chessrate.ratinglist.schema import (
    SCHEMA_REVISION,
    add_postgresql_options,
    event_players,
    events,
    game_workings,
    games,
    list_entries,
    list_versions,
    meta,
    players,
)

if TYPE_CHECKING:
    from alembic.config import Config

DEFAULT_DB = "chessrate.db"
DEFAULT_RULES = "fide"


#: How long a writer from the command line waits for another to end before giving up (seconds).
WRITER_WAIT = 600.0
#: How long a reader waits for a writer's commit (milliseconds).
READER_WAIT_MS = 30_000


class StoreError(CodedError):
    """The store cannot be opened or used as asked: missing, not initialised, busy, refused."""


class StoreBusyError(StoreError):
    """Another writer holds the store's lock."""


class DamagedStoreError(StoreError):
    """The SQLite file is damaged: SQLite found a page it cannot read."""

    def __init__(self, database: str) -> None:
        params: dict[str, object] = {"store": database}
        super().__init__(refusal_text("store-damaged", params), code="store-damaged", params=params)


def shown(spec: str) -> str:
    """``--db`` as it may be shown: a URL's password hidden."""
    try:
        return make_url(database_url(spec)).render_as_string(hide_password=True) if "://" in spec else spec
    except (ArgumentError, InvalidInputError):
        return spec


def one_line(error: object) -> str:
    """A driver's message on one line (psycopg's span several)."""
    return " ".join(str(error).split())


def database_url(spec: str) -> str:
    """A SQLAlchemy URL from ``--db``: a URL as it is, a plain path as a SQLite file.

    ``postgresql://`` and ``postgres://`` URLs use the psycopg (version 3) driver.
    """
    spec = spec.strip()
    if not spec:
        raise input_refusal("db-empty", field="db", value=spec)
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
        raise input_refusal("db-url", field="db", value=spec, reason=str(error)) from None
    if engine.dialect.name == "postgresql":
        add_postgresql_options()
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_on_connect)
        event.listen(engine, "begin", _sqlite_on_begin)
        event.listen(engine, "handle_error", _sqlite_on_error)
    return engine


#: SQLite's messages for a file it cannot read (sqlite3.c: SQLITE_CORRUPT and SQLITE_NOTADB).
_DAMAGED = ("database disk image is malformed", "file is not a database")


def _sqlite_on_error(context: ExceptionContext) -> None:
    # SQLAlchemy's handle_error hook: the exception raised here is the one the caller gets.
    original = context.original_exception
    if isinstance(original, sqlite3.DatabaseError) and any(m in str(original) for m in _DAMAGED):
        database = context.engine.url.database if context.engine is not None else None
        raise DamagedStoreError(database or "?") from None
    if isinstance(original, sqlite3.OperationalError) and "database is locked" in str(original):
        raise coded_refusal(StoreBusyError, "store-busy") from None


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    # pysqlite would open transactions itself; SQLAlchemy's "begin" event does it instead.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    _write_ahead_log(cursor)
    cursor.close()


def _write_ahead_log(cursor: Any) -> None:
    """SQLite's write-ahead log (sqlite.org/wal.html): readers see the last commit while a writer
    writes, neither waiting for the other (a rollback journal locks readers out while a large
    transaction spills its pages and commits). The mode is kept in the file: set once, by the
    first connection that can (not while another process holds the file in the other mode, nor
    on a read-only file: that connection goes on in the file's mode)."""
    (mode,) = cursor.execute("PRAGMA journal_mode").fetchone()
    if str(mode).lower() in {"wal", "memory"}:
        return
    with suppress(sqlite3.Error):
        cursor.execute("PRAGMA journal_mode=WAL")


def _sqlite_on_begin(connection: Connection) -> None:
    # SQLAlchemy's documented pysqlite recipe: our own BEGIN, so that SAVEPOINT and DDL in a
    # transaction behave. A writer (``write_transaction``) begins IMMEDIATE: it takes SQLite's
    # write lock at once, waiting ``busy_timeout`` for it, so two writers never deadlock
    # (sqlite.org/lang_transaction.html). Foreign keys are set for each transaction, since the
    # setting cannot change inside one (sqlite.org/foreignkeys.html#fk_enable): on, unless a writer
    # checks its own rows' keys (``write_transaction(..., foreign_keys=False)``).
    options = connection.get_execution_options()
    connection.exec_driver_sql(
        f"PRAGMA foreign_keys = {'ON' if options.get('sqlite_foreign_keys', True) else 'OFF'}"
    )
    wait = options.get("sqlite_writer_wait")
    if wait is None:
        connection.exec_driver_sql(f"PRAGMA busy_timeout = {READER_WAIT_MS}")
        connection.exec_driver_sql("BEGIN")
        return
    connection.exec_driver_sql(f"PRAGMA busy_timeout = {int(wait * 1000)}")
    connection.exec_driver_sql("BEGIN IMMEDIATE")


# Alembic is imported where the schema is created or upgraded only: opening a store reads its
# revision with one query (``list run`` starts a tenth of a second sooner).


def _alembic_config(connection: Connection) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "chessrate.ratinglist:migrations")
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration shipped with this version of chessrate (``schema.SCHEMA_REVISION``)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(resources.files("chessrate.ratinglist").joinpath("migrations")))
    head = script.get_current_head()
    if head is None:  # pragma: no cover - the package always ships its migrations
        raise coded_refusal(StoreError, "no-migrations")
    return head


def init_store(spec: str, *, rules: str | None = None) -> Engine:
    """Create the schema (or upgrade it to the newest migration); set the default rule set."""
    from alembic import command

    engine = make_engine(spec)
    _refuse_foreign_database(spec)
    try:
        # SQLite's foreign keys off while tables are rebuilt (migration 0005 rebuilds a table
        # another names), then checked, as SQLite's procedure for such a change asks
        # (sqlite.org/lang_altertable.html#otheralter, steps 1, 10 and 12).
        with engine.execution_options(sqlite_foreign_keys=False).begin() as connection:
            command.upgrade(_alembic_config(connection), "head")
            if engine.dialect.name == "sqlite":
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                if broken is not None:
                    raise coded_refusal(
                        StoreError,
                        "store-upgrade-orphans",
                        store=shown(spec),
                        table=broken[0],
                        parent=broken[2],
                    )
            current = connection.execute(select(meta.c.value).where(meta.c.key == "rules")).scalar()
            if current is None:
                connection.execute(insert(meta).values(key="rules", value=rules or DEFAULT_RULES))
            elif rules is not None:
                connection.execute(update(meta).where(meta.c.key == "rules").values(value=rules))
            if connection.execute(select(meta.c.value).where(meta.c.key == "lock")).scalar() is None:
                connection.execute(insert(meta).values(key="lock", value="0"))
    except OperationalError as error:
        raise coded_refusal(
            StoreError, "store-init", store=shown(spec), reason=one_line(error.orig)
        ) from None
    return engine


def open_store(spec: str) -> Engine:
    """An engine on an initialised store at the newest schema, else a :class:`StoreError`."""
    engine = make_engine(spec)
    url = make_url(database_url(spec))
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).exists():
        raise coded_refusal(StoreError, "no-store", store=url.database)
    try:
        with engine.connect() as connection:
            current = _revision(connection)
    except DamagedStoreError:
        _refuse_other_files(spec)  # no SQLite file at all: not a damaged store
        raise
    except SQLAlchemyError as error:
        _refuse_other_files(spec)
        said = one_line(getattr(error, "orig", error))
        raise coded_refusal(StoreError, "store-unopenable", store=shown(spec), reason=said) from None
    if current is None:
        raise coded_refusal(StoreError, "not-a-store", store=shown(spec))
    if current != SCHEMA_REVISION:
        raise coded_refusal(
            StoreError, "store-schema", store=shown(spec), found=current, needed=SCHEMA_REVISION
        )
    return engine


#: The first 16 bytes of every SQLite database file (sqlite.org/fileformat.html, 1.3 "Magic Header String").
SQLITE_HEADER = b"SQLite format 3\x00"


def _refuse_other_files(spec: str) -> None:
    """Refuse a file that is not a SQLite database at all: SQLite says "file is not a database", as
    of a damaged one's header, but it is no store to create or open.

    Called only once SQLite has failed to read the file: a file opened and closed outside SQLite
    while this process has a connection to it drops that connection's POSIX locks (closing any
    descriptor of a file does: sqlite.org/howtocorrupt.html, 2.2), and another process could then
    take the store as unused and remove the write-ahead log under it ("malformed")."""
    url = make_url(database_url(spec))
    if url.get_backend_name() == "sqlite" and url.database and not _sqlite_file(Path(url.database)):
        raise coded_refusal(StoreError, "not-sqlite", store=spec)


def _refuse_foreign_database(spec: str) -> None:
    """Refuse a SQLite database that holds tables of its own but is no chessrate store (no Alembic
    revision and no ``meta`` table): ``list init`` would add the store's tables beside them. It is
    looked at read-only (SQLite's ``mode=ro``), so that nothing of it changes."""
    url = make_url(database_url(spec))
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return
    path = Path(url.database)
    if not path.is_file() or path.stat().st_size == 0:
        return
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
            rows = connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            ).fetchall()
    except sqlite3.Error:
        _refuse_other_files(spec)  # read as bytes only now: SQLite could not read it
        return  # unreadable or damaged: said as such when the store is created
    tables = {str(name) for (name,) in rows}
    if tables and not {"alembic_version", meta.name} <= tables:
        shown_tables = ", ".join(sorted(tables)[:3]) + (", …" if len(tables) > 3 else "")
        raise coded_refusal(StoreError, "foreign-database", store=spec, tables=shown_tables)


def _sqlite_file(path: Path) -> bool:
    """Whether ``path`` starts as a SQLite database does, or is empty (SQLite makes it one);
    a file that cannot be read is left to SQLite to say so."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError:
        return True
    return not head or head == SQLITE_HEADER


def _revision(connection: Connection) -> str | None:
    """The store's schema revision, as Alembic records it (its ``alembic_version`` table)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def take_lock(connection: Connection) -> None:
    """Take the store's write lock for this transaction: a second writer waits until it ends."""
    connection.execute(update(meta).where(meta.c.key == "lock").values(value=meta.c.value))


@contextmanager
def write_transaction(
    engine: Engine,
    *,
    wait: float = WRITER_WAIT,
    on_wait: Callable[[], None] | None = None,
    foreign_keys: bool = True,
) -> Iterator[Connection]:
    """A transaction holding the store's write lock, committed at the end (rolled back on error).

    When another writer holds the lock, ``on_wait`` is called and this one waits up to ``wait``
    seconds for it; then (or at once, with ``wait=0``) :class:`StoreBusyError`. With
    ``foreign_keys=False`` SQLite does not check the foreign keys of the rows written: the writer
    checks them itself before it commits (PostgreSQL always checks those the schema has).
    """
    if engine.dialect.name != "sqlite":
        with engine.begin() as connection:
            _postgres_lock(connection, wait=wait, on_wait=on_wait)
            yield connection
        return
    writer = engine.execution_options(sqlite_foreign_keys=foreign_keys)
    with ExitStack() as stack:
        try:
            connection = stack.enter_context(writer.execution_options(sqlite_writer_wait=0.0).begin())
        except StoreBusyError:
            if wait <= 0:
                raise
            if on_wait is not None:
                on_wait()
            try:
                connection = stack.enter_context(writer.execution_options(sqlite_writer_wait=wait).begin())
            except StoreBusyError:
                raise coded_refusal(StoreBusyError, "store-busy", seconds=round(wait)) from None
        take_lock(connection)
        yield connection


def _postgres_lock(connection: Connection, *, wait: float, on_wait: Callable[[], None] | None) -> None:
    """The lock row, at once if free; else after ``on_wait``, waiting ``wait`` seconds at most."""
    try:
        with connection.begin_nested():
            connection.execute(select(meta.c.value).where(meta.c.key == "lock").with_for_update(nowait=True))
        return
    except DBAPIError:
        if wait <= 0:
            raise coded_refusal(StoreBusyError, "store-busy") from None
    if on_wait is not None:
        on_wait()
    connection.execute(text(f"SET LOCAL lock_timeout = {int(wait * 1000)}"))
    try:
        take_lock(connection)
    except DBAPIError:
        raise coded_refusal(StoreBusyError, "store-busy", seconds=round(wait)) from None


def check_store(spec: str) -> tuple[bool, tuple[str, ...]]:
    """Whether the store is sound, and what its check said (SQLite: ``PRAGMA integrity_check``),
    then whether every list entry names a list and a player the store has
    (:func:`rows_without_owner`: ``list_entries`` has no foreign keys), every entrant and game an
    event and players the store has, every working its list, players, game and event (nor do
    they), and whether
    ``list_summaries`` is the sum of the lists it names.

    PostgreSQL checks its own pages as it reads them; there the check is that the store opens at
    the newest schema and every table can be read.
    """
    engine = open_store(spec)
    try:
        with engine.connect() as connection:
            if engine.dialect.name == "sqlite":
                lines = tuple(str(row[0]) for row in connection.exec_driver_sql("PRAGMA integrity_check"))
                if lines != ("ok",):
                    return False, lines
            else:
                for table in ("players", "events", "games", "list_versions", "list_entries"):
                    connection.execute(text(f"SELECT count(*) FROM {table}"))
            said = rows_without_owner(connection)
            # Imported here: opening a store does not need numpy and the loaders.
            from chessrate.ratinglist.loading import summary_is_sound

            if not summary_is_sound(connection):
                said += ("list_summaries: not the sum of the lists it names: the next run sums them again",)
            return not said, said or ("ok",)
    except DamagedStoreError as error:
        return False, (str(error),)


def rows_without_owner(connection: Connection) -> tuple[str, ...]:
    """The rows that name a row the store does not have, where no foreign key keeps them (list
    entries: migration 0004; an event's entrants and games: migration 0005; a list's workings:
    migration 0007), one line per key:
    one anti-join each, in SQL."""
    said = []
    for table, column, owner, what in _UNKEYED:
        count, example = connection.execute(
            select(func.count(), func.min(column))
            .select_from(table.outerjoin(owner, owner.c.id == column))
            .where(owner.c.id.is_(None))
        ).one()
        if count:
            rows = "line(s)" if table is list_entries else "row(s)"
            article = "an" if what == "event" else "a"
            said.append(
                f"{table.name}: {count} {rows} name {article} {what} the store does not have"
                f" ({what} id {example})"
            )
    return tuple(said)


#: The keys no foreign key checks: table, column, the table it names, what that is called.
_UNKEYED = (
    (list_entries, list_entries.c.player_id, players, "player"),
    (list_entries, list_entries.c.version_id, list_versions, "list"),
    (event_players, event_players.c.event_id, events, "event"),
    (event_players, event_players.c.player_id, players, "player"),
    (games, games.c.event_id, events, "event"),
    (games, games.c.white_id, players, "player"),
    (games, games.c.black_id, players, "player"),
    (game_workings, game_workings.c.version_id, list_versions, "list"),
    (game_workings, game_workings.c.player_id, players, "player"),
    (game_workings, game_workings.c.opponent_id, players, "player"),
    (game_workings, game_workings.c.game_id, games, "game"),
    (game_workings, game_workings.c.event_id, events, "event"),
)


def store_rules(connection: Connection) -> str:
    """The store's default rule set (``list init --rules``)."""
    value = connection.execute(select(meta.c.value).where(meta.c.key == "rules")).scalar()
    return str(value or DEFAULT_RULES)
