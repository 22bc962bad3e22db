"""Many rows into one table through the driver's fast path, in bounded chunks.

SQLite: ``executemany`` of plain tuples on the connection's cursor (no per-row SQLAlchemy
processing). PostgreSQL: ``COPY ... FROM STDIN`` (psycopg's ``Copy.write_row``). Both run inside
the caller's transaction, so a run or an import still commits whole or not at all. Values are
given as the driver stores them: decimals as their text (as :class:`.schema.DecimalText` writes
them), booleans, whole numbers, ``None``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any

from sqlalchemy import Table
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
