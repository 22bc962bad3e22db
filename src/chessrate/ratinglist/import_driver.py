"""How an import talks to the database: the driver's cursor, new ids, ``IN`` lists, SQLite's cache.

An import runs a few statements per batch of files (:mod:`chessrate.ratinglist.importer`) through the
driver's own cursor (:class:`Driver`), faster than through SQLAlchemy for many small statements.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

from sqlalchemy import Column, Table
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from chessrate.ratinglist.schema import events

_V = TypeVar("_V")

#: Values per ``IN (...)`` query.
BATCH = 512
#: SQLite's page cache while an import writes (sqlite.org/pragma.html#pragma_cache_size).
SQLITE_CACHE_KIB = 64 * 1024


class Driver:
    """The statements an import runs for each file, through the driver's cursor: SQLAlchemy's
    processing of a statement (some 0.1 ms) would be a tenth of a small file's import. Values go
    in as SQLAlchemy would write them (:attr:`date`, :attr:`datetime`)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.sqlite = connection.dialect.name == "sqlite"
        self._cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        self.date = bind(events.c.start_date, connection)
        self.datetime = bind(events.c.imported_at, connection)
        if not self.sqlite:
            # psycopg prepares a statement run five times, and PostgreSQL may then keep one plan
            # for it, made when the tables were empty (a scan of every player, 7 ms a query once
            # there are thousands): each run planned for the tables as they are now, in this
            # transaction only (postgresql.org/docs/current/runtime-config-query.html,
            # plan_cache_mode).
            self._cursor.execute("SET LOCAL plan_cache_mode = force_custom_plan")

    def rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of ``sql``, written with ``?`` marks (PostgreSQL's driver is given ``%s``)."""
        self._cursor.execute(sql if self.sqlite else sql.replace("?", "%s"), params)
        return list(self._cursor.fetchall())

    def run(self, sql: str, params: Sequence[object] = ()) -> None:
        """Run ``sql`` (written with ``?`` marks), which returns no rows."""
        self._cursor.execute(sql if self.sqlite else sql.replace("?", "%s"), params)

    def rows_where(
        self, select: str, column: str, values: Sequence[_V], kind: str, *, order: str = ""
    ) -> list[tuple[Any, ...]]:
        """The rows of ``select`` (up to its ``WHERE``) whose ``column`` is one of ``values``,
        through the column's index. PostgreSQL: one array of ``kind``; SQLite: ``IN`` lists of
        :data:`BATCH` values (:func:`in_list`)."""
        if not values:
            return []
        if not self.sqlite:
            return self.rows(f"{select}{column} = ANY(?::{kind}[]){order}", (array_text(values),))
        found = []
        for start in range(0, len(values), BATCH):
            marks, padded = in_list(values[start : start + BATCH])
            found += self.rows(f"{select}{column} IN ({marks}){order}", padded)
        return found

    def close(self) -> None:
        self._cursor.close()


def array_text(values: Sequence[object]) -> str:
    """PostgreSQL's text of an array of ``values`` (whole numbers, or texts quoted with their
    backslashes and double quotes escaped: postgresql.org/docs/current/arrays.html#ARRAYS-IO),
    written here rather than adapted by psycopg value by value (a second for a 2x10^6-game
    import's names). Sent as one value, the array is a constant the planner sees whole: with a
    computed array (``ARRAY(SELECT ...)``) it planned a scan of every player, each tested
    against 5 000 names (0.5 s a batch)."""
    if all(isinstance(value, int) for value in values):
        return "{" + ",".join(map(str, values)) + "}"
    escaped = (str(value).replace("\\", "\\\\").replace('"', '\\"') for value in values)
    return '{"' + '","'.join(escaped) + '"}'


def bind(column: Column[Any], connection: Connection) -> Callable[[Any], Any]:
    """How SQLAlchemy writes a value of ``column`` on this database (SQLite: dates as text)."""
    dialect = connection.dialect
    process = column.type.dialect_impl(dialect).bind_processor(dialect)
    if process is None:
        return lambda value: value
    return process


@contextmanager
def page_cache(connection: Connection) -> Iterator[None]:
    """SQLite: a larger page cache while the import writes, the connection's own afterwards.

    A month's import checks each game's players and indexes each event's players at random places
    of a table and an index larger than SQLite's default cache (2 MB): a 2x10^6-game import spent
    3 s of system time reading pages back, 0.6 s with 64 MB (sqlite.org/pragma.html#pragma_cache_size).
    """
    if connection.dialect.name != "sqlite":
        yield
        return
    before = connection.exec_driver_sql("PRAGMA cache_size").scalar()
    connection.exec_driver_sql(f"PRAGMA cache_size = -{SQLITE_CACHE_KIB}")
    try:
        yield
    finally:
        with suppress(SQLAlchemyError):  # a broken connection: the import's own error is raised
            connection.exec_driver_sql(f"PRAGMA cache_size = {int(before or 0)}")


def in_list(values: Sequence[_V]) -> tuple[str, list[_V]]:
    """The marks of ``IN (...)`` and its values, padded (with the first value again) to a power of
    two: a few statement texts in all, so the driver's cache of prepared statements (128 in
    sqlite3) keeps them, and the import's other statements, prepared (a file's unknown players
    would make a new text each)."""
    size = max(8, 1 << (len(values) - 1).bit_length())
    return ", ".join("?" * size), [*values, *[values[0]] * (size - len(values))]


class NewIds:
    """The ids the database would give a table's new rows: SQLite, the largest plus one (a rowid
    table without ``AUTOINCREMENT``, sqlite.org/autoinc.html); PostgreSQL, the column's sequence,
    as its default would take them. Rows are then written with their ids."""

    def __init__(self, driver: Driver, table: Table) -> None:
        self._driver, self._table = driver, table.name
        self._last: int | None = None  # SQLite: the largest id, once looked up

    def take(self, count: int) -> list[int]:
        driver = self._driver
        if not count:
            return []
        if not driver.sqlite:
            ((taken,),) = driver.rows(_NEXT_IDS.format(table=self._table), (count,))
            return sorted(map(int, taken.split(",")))
        if self._last is None:
            self._last = int(driver.rows(f"SELECT max(id) FROM {self._table}")[0][0] or 0)
        first, self._last = self._last + 1, self._last + count
        return list(range(first, self._last + 1))


#: PostgreSQL: as many ids from the sequence of ``table.id`` as its default would take.
_NEXT_IDS = (
    "SELECT string_agg(nextval(pg_get_serial_sequence('{table}', 'id'))::text, ',') "
    "FROM generate_series(1, ?)"
)
