"""Rows for PostgreSQL's ``COPY ... FROM STDIN`` in its text format, built a column at a time.

The text format: a line a row, its fields separated by tabs, ``\\N`` for NULL, and a backslash,
tab, newline or carriage return inside a value written as ``\\\\``, ``\\t``, ``\\n``, ``\\r``
(postgresql.org/docs/current/sql-copy.html, "Text Format"). psycopg's ``Copy.write_row`` adapts
each value of each row (some 3.5 us a game row, a third of a PostgreSQL import's own work); here
a file's rows are one ``str.format`` over its columns, each distinct text escaped once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import Table
from sqlalchemy.engine import Connection

NULL = "\\N"
_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
#: Booleans as PostgreSQL reads them (postgresql.org/docs/current/datatype-boolean.html).
_BOOLEANS = {True: "t", False: "f"}


def text(value: str | None) -> str:
    """One text field."""
    return NULL if value is None else value.translate(_ESCAPES)


def texts(values: Sequence[str | None]) -> list[str]:
    """A text column, each distinct value escaped once (a file has a few distinct codes)."""
    written = {value: text(value) for value in set(values)}
    return list(map(written.__getitem__, values))


def nullable(values: Sequence[object]) -> Sequence[object]:
    """A column of values written as ``str.format`` writes them (whole numbers, decimal texts),
    with ``None`` as NULL; the column itself where it has no ``None``."""
    return values if None not in values else [NULL if value is None else value for value in values]


def booleans(values: Iterable[bool]) -> list[str]:
    return list(map(_BOOLEANS.__getitem__, values))


def lines(columns: Sequence[Sequence[object]]) -> str:
    """The rows of ``columns`` (each already written: :func:`texts`, :func:`nullable`,
    :func:`booleans`, or whole numbers), one line each."""
    template = "\t".join(["{}"] * len(columns)) + "\n"
    return "".join(map(template.format, *columns))


def row_line(values: Sequence[object]) -> str:
    """One row of any values: texts escaped, ``None`` as NULL, the others as ``str`` writes them
    (whole numbers, dates, times)."""
    fields = (NULL if v is None else v.translate(_ESCAPES) if isinstance(v, str) else str(v) for v in values)
    return "\t".join(fields) + "\n"


def copy_lines(connection: Connection, table: Table, columns: Sequence[str], chunks: Iterable[str]) -> None:
    """``chunks`` of :func:`lines` into ``table``, in the caller's transaction."""
    driver = connection.connection.driver_connection
    with (
        driver.cursor() as cursor,  # type: ignore[union-attr]
        cursor.copy(f"COPY {table.name} ({', '.join(columns)}) FROM STDIN") as copy,
    ):
        for chunk in chunks:
            if chunk:
                copy.write(chunk)
