"""Many rows into one table, and whole-number columns out of a query, through the driver's fast path.

Writing (:func:`insert_rows`), in bounded chunks. SQLite: ``executemany`` of plain tuples on the
connection's cursor (no per-row SQLAlchemy processing). PostgreSQL: ``COPY ... FROM STDIN``
(psycopg's ``Copy.write_row``). Both run inside the caller's transaction, so a run or an import
still commits whole or not at all. Values are given as the driver stores them: decimals as their
text (as :class:`.schema.DecimalText` writes them), booleans, whole numbers, ``None``.

Reading (:func:`int_columns`): a query's whole-number columns as numpy arrays, with no Python
object per row: one aggregate per column, all in one pass over the rows, so each is fed the same
rows in the same order. SQLite: ``group_concat``, a text numpy parses. PostgreSQL: ``array_agg``
sent in the binary format of an array (``array_send``, fetched as bytes), which numpy reads as
it is; a third faster than ``string_agg`` texts. (PostgreSQL's binary ``COPY`` sends a message a
row, each a Python object to psycopg: slower here.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, Table
from sqlalchemy.engine import Connection

if TYPE_CHECKING:  # numpy is imported where columns are read: an import of a CSV file needs none
    import numpy as np
    from numpy.typing import NDArray

#: Rows handed to the driver at a time: the memory a write holds stays bounded.
CHUNK = 50_000


def insert_rows(
    connection: Connection, table: Table, columns: Sequence[str], rows: Iterable[tuple[Any, ...]]
) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``table``; the number written."""
    names = ", ".join(columns)
    driver = connection.connection.driver_connection
    written = 0
    if connection.dialect.name == "postgresql":
        with driver.cursor() as cursor, cursor.copy(f"COPY {table.name} ({names}) FROM STDIN") as copy:  # type: ignore[union-attr]
            for row in rows:
                copy.write_row(row)
                written += 1
        return written
    statement = f"INSERT INTO {table.name} ({names}) VALUES ({', '.join('?' for _ in columns)})"
    cursor = driver.cursor()  # type: ignore[union-attr]
    try:
        iterator = iter(rows)
        while chunk := list(islice(iterator, CHUNK)):
            cursor.executemany(statement, chunk)
            written += len(chunk)
    finally:
        cursor.close()
    return written


def int_columns(connection: Connection, query: Select[Any]) -> list[NDArray[np.int64]]:
    """Each column of ``query`` as an array, in the order the rows come (the same for every
    column). Every value must be a whole number, never NULL (give NULL a value with ``coalesce``):
    a NULL is refused (:class:`ValueError`), never guessed."""
    names = list(query.selected_columns.keys())
    sql = str(query.compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True}))
    postgres = connection.dialect.name == "postgresql"
    if postgres:
        aggregates = ", ".join(f"array_send(array_agg(q.{name}))" for name in names)
    else:
        aggregates = ", ".join(f"group_concat(q.{name})" for name in names)
    driver = connection.connection.driver_connection
    cursor = driver.cursor(binary=True) if postgres else driver.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(f"SELECT count(*), {aggregates} FROM ({sql}) AS q")
        count, *values = cursor.fetchone()
    finally:
        cursor.close()
    columns = [_from_array(value) if postgres else _parsed(value) for value in values]
    if any(len(column) != count for column in columns):  # group_concat leaves NULLs out
        raise ValueError(f"a NULL in the columns {names} of a query read as whole numbers")
    return columns


def _parsed(text: str | None) -> NDArray[np.int64]:
    import numpy as np

    if not text:
        return np.zeros(0, dtype=np.int64)
    return np.fromstring(text, dtype=np.int64, sep=",")


#: PostgreSQL's whole-number types (pg_type oid) and their width in bytes.
_WIDTHS = {21: 2, 23: 4, 20: 8}


def _from_array(data: bytes | None) -> NDArray[np.int64]:
    """A one-dimensional array of whole numbers in PostgreSQL's binary format (``array_send``):
    a header (dimensions, a has-NULLs flag, the element type, each dimension's length and lower
    bound), then each element as its length and its big-endian bytes (postgresql.org/docs/current/
    sql-copy.html, "Binary Format"; src/backend/utils/adt/arrayfuncs.c, ``array_send``)."""
    import numpy as np

    if data is None:  # array_agg over no rows
        return np.zeros(0, dtype=np.int64)
    dimensions, has_nulls, element = np.frombuffer(data, dtype=">i4", count=3).tolist()
    if has_nulls:
        return np.zeros(0, dtype=np.int64)  # refused by the caller: fewer values than rows
    width = _WIDTHS.get(element)
    if dimensions != 1 or width is None:
        raise ValueError(
            f"not a list of whole numbers: PostgreSQL array of type {element}, {dimensions} dimension(s)"
        )
    elements = np.frombuffer(data, dtype=[("length", ">i4"), ("value", f">i{width}")], offset=20)
    return elements["value"].astype(np.int64)
