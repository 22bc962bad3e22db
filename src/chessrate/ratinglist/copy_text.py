"""Rows for PostgreSQL's ``COPY ... FROM STDIN`` in its text format, built a column at a time.

The text format: a line a row, its fields separated by tabs, ``\\N`` for NULL, and a backslash,
tab, newline or carriage return inside a value written as ``\\\\``, ``\\t``, ``\\n``, ``\\r``
(postgresql.org/docs/current/sql-copy.html, "Text Format"). psycopg's ``Copy.write_row`` adapts
each value of each row (some 3.5 us a game row, a third of a PostgreSQL import's own work); here
a file's rows are one ``str.format`` over its columns, each distinct text escaped once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

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


def rows_lines(rows: Sequence[Sequence[object]], text_at: Sequence[int]) -> str:
    """:func:`lines` of rows given as tuples: the columns at ``text_at`` are texts (:func:`texts`),
    the others written as ``str.format`` writes them (:func:`nullable`: whole numbers, dates, times)."""
    if not rows:
        return ""
    columns = list(zip(*rows, strict=True))
    return lines([texts(column) if at in text_at else nullable(column) for at, column in enumerate(columns)])


class Writer:
    """``COPY``s run on a thread of their own, while the import reads its next files (PostgreSQL
    stores a batch's rows in about the time the import takes to read the next batch: one after
    the other, a 2x10^6-game import waited some 7 s for the server). :meth:`start` waits for the
    COPYs before (the connection runs one statement at a time), as must every other use of the
    connection (:meth:`wait`); their error, if any, is raised there."""

    def __init__(self, connection: Connection) -> None:
        self._driver = connection.connection.driver_connection
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chessrate-copy")
        self._pending: Future[None] | None = None

    def start(self, copies: Sequence[tuple[Table, Sequence[str], str]]) -> None:
        """Copy each ``(table, columns, lines)`` in turn (:func:`lines` of the rows)."""
        self.wait()
        self._pending = self._thread.submit(self._copy, copies)

    def wait(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.result()

    def close(self) -> None:
        """Wait for the thread and end it (an error of its COPY, if the caller is failing already,
        is dropped: the transaction is rolled back either way)."""
        self._thread.shutdown(wait=True)

    def _copy(self, copies: Sequence[tuple[Table, Sequence[str], str]]) -> None:
        with self._driver.cursor() as cursor:  # type: ignore[union-attr]
            for table, columns, data in copies:
                if data:
                    with cursor.copy(f"COPY {table.name} ({', '.join(columns)}) FROM STDIN") as copy:
                        copy.write(data)
