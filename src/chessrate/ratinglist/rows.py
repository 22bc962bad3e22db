"""Many rows into one table, and whole-number columns out of a query, through the driver's fast path.

Writing (:func:`insert_rows`), in bounded chunks. SQLite: ``executemany`` of plain tuples on the
connection's cursor (no per-row SQLAlchemy processing). PostgreSQL: ``COPY ... FROM STDIN``
(psycopg's ``Copy.write_row``). Both run inside the caller's transaction, so a run or an import
still commits whole or not at all. Values are given as the driver stores them: decimals as their
text (as :class:`.schema.DecimalText` writes them), booleans, whole numbers, ``None``.

Reading (:func:`int_columns`): a query's whole-number columns as numpy arrays, with no Python
object per row. SQLite: one ``group_concat`` per column, in one pass over the rows (each
aggregate is fed the same rows in the same order), the texts parsed by numpy. PostgreSQL:
``COPY (query) TO STDOUT (FORMAT binary)``, whose rows of big-endian 64-bit integers numpy reads
in place (postgresql.org/docs/current/sql-copy.html, "Binary Format").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Select, Table
from sqlalchemy.engine import Connection

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
    driver = connection.connection.driver_connection
    if connection.dialect.name == "postgresql":
        return _copy_columns(driver, sql, names)
    aggregates = ", ".join(f"group_concat(q.{name})" for name in names)
    cursor = driver.cursor()  # type: ignore[union-attr]
    try:
        count, *texts = cursor.execute(f"SELECT count(*), {aggregates} FROM ({sql}) AS q").fetchone()
    finally:
        cursor.close()
    columns = [_parsed(text) for text in texts]
    if any(len(column) != count for column in columns):  # group_concat leaves NULLs out
        raise ValueError(f"a NULL in the columns {names} of a query read as whole numbers")
    return columns


def _parsed(text: str | None) -> NDArray[np.int64]:
    if not text:
        return np.zeros(0, dtype=np.int64)
    return np.fromstring(text, dtype=np.int64, sep=",")


#: PostgreSQL's binary COPY: the signature, flags and header-extension length before the rows.
_COPY_HEADER = 19


def _copy_columns(driver: Any, sql: str, names: Sequence[str]) -> list[NDArray[np.int64]]:
    """The columns through binary COPY: each row is a field count (int16) and, per field, its
    length (int32, 8; -1 for NULL) and a big-endian int64. Read a block at a time."""
    row = np.dtype([("fields", ">i2"), *((f, [("length", ">i4"), ("value", ">i8")]) for f in names)])
    casts = ", ".join(f"CAST(q.{name} AS BIGINT)" for name in names)
    parts: list[NDArray[Any]] = []
    pending = bytearray()
    header = True
    with (
        driver.cursor() as cursor,
        cursor.copy(f"COPY (SELECT {casts} FROM ({sql}) AS q) TO STDOUT (FORMAT binary)") as copy,
    ):
        for block in copy:
            pending += block
            if header and len(pending) >= _COPY_HEADER:
                extension = int.from_bytes(pending[15:19], "big")
                del pending[: _COPY_HEADER + extension]
                header = False
            whole = len(pending) // row.itemsize * row.itemsize
            if not header and whole:
                parts.append(np.frombuffer(bytes(pending[:whole]), dtype=row))
                del pending[:whole]
    if bytes(pending) != b"\xff\xff":  # the trailer: a field count of -1
        raise ValueError(f"a NULL in the columns {names} of a query read as whole numbers")
    rows = np.concatenate(parts) if parts else np.zeros(0, dtype=row)
    if len(rows) and (
        (rows["fields"] != len(names)).any() or any((rows[f]["length"] != 8).any() for f in names)
    ):
        raise ValueError(f"a NULL in the columns {names} of a query read as whole numbers")
    return [rows[f]["value"].astype(np.int64) for f in names]
