"""Many rows into one table, and whole-number columns out of a query, through the driver's fast path.

Writing (:func:`insert_rows`), in bounded chunks. SQLite: ``executemany`` of plain tuples (a row,
or many rows, a statement) on the connection's cursor (no per-row SQLAlchemy processing).
PostgreSQL: ``COPY ... FROM STDIN`` (psycopg's ``Copy.write_row``). Both run inside the caller's
transaction, so a run or an import still commits whole or not at all. Values are given as the
driver stores them: decimals as their text (as :class:`.schema.DecimalText` writes them),
booleans, whole numbers, ``None``.

Reading (:func:`int_columns`): a query's whole-number columns as numpy arrays, with no Python
object per row: one aggregate per column, all in one pass over the rows, so each is fed the same
rows in the same order. SQLite: ``group_concat``, a text numpy parses. PostgreSQL: each value's
eight big-endian bytes (``int8send``) joined into one ``bytea`` (``string_agg``), which numpy
reads as it is; 10-20 % less of the server's time than an ``array_agg`` sent as an array
(``array_send``: a length before each value), a third less than texts. (PostgreSQL's binary
``COPY`` sends a message a row, each a Python object to psycopg: slower here.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, Table
from sqlalchemy.engine import Connection

if TYPE_CHECKING:  # numpy is imported where columns are read: an import of a CSV file needs none
    import numpy as np
    from numpy.typing import NDArray

#: Rows handed to the driver at a time: the memory a write holds stays bounded.
CHUNK = 50_000
#: SQLite's default limit on the variables of a statement since 3.32.0
#: (``SQLITE_MAX_VARIABLE_NUMBER``, sqlite.org/limits.html, item 9).
SQLITE_VARIABLES = 32766
#: SQLite: rows an ``INSERT`` statement of a run's and an import's big writes. Measured at 10^6
#: games (docs/ratinglist.md): a run's CPU 4.0-4.2 s -> 3.2-3.5 s with the pass's other changes
#: (``benchmarks/paired_run.py``), an import's inserts 2.5-2.6 s -> 1.5-1.9 s.
ROWS_A_STATEMENT = 200


def insert_rows(
    connection: Connection,
    table: Table,
    columns: Sequence[str],
    rows: Iterable[tuple[Any, ...]],
    *,
    rows_a_statement: int = ROWS_A_STATEMENT,
) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``table``; the number written.

    ``rows_a_statement`` (SQLite; :data:`ROWS_A_STATEMENT` unless given): rows a statement
    (``INSERT ... VALUES (?, ...), (?, ...)``), at most as many as SQLite's limit on a statement's
    variables allows (:data:`SQLITE_VARIABLES`): fewer statements for the driver to step through.
    PostgreSQL's ``COPY`` ignores it. The caller rolls its transaction back if this raises (as a
    run and an import do)."""
    names = ", ".join(columns)
    driver = connection.connection.driver_connection
    written = 0
    if connection.dialect.name == "postgresql":
        with driver.cursor() as cursor, cursor.copy(f"COPY {table.name} ({names}) FROM STDIN") as copy:  # type: ignore[union-attr]
            for row in rows:
                copy.write_row(row)
                written += 1
        return written
    width = len(columns)
    many = max(1, min(rows_a_statement, SQLITE_VARIABLES // width, CHUNK))
    values = f"({', '.join('?' for _ in columns)})"
    statement = f"INSERT INTO {table.name} ({names}) VALUES {values}"
    cursor = driver.cursor()  # type: ignore[union-attr]
    try:
        iterator = iter(rows)
        if many > 1:
            # OR FAIL: a statement of many rows that may fail a constraint otherwise keeps a
            # statement journal to undo its own rows, written to a temporary file
            # (sqlite.org/tempfiles.html, "Statement Journal Files"): 815,000 writes for a month's
            # 10^6-game import, against 75,000 (strace). The caller's transaction is rolled back on
            # any error, so the rows a failed statement kept are never committed
            # (sqlite.org/lang_conflict.html, FAIL).
            grouped = f"INSERT OR FAIL INTO {table.name} ({names}) VALUES {', '.join([values] * many)}"
            size = CHUNK - CHUNK % many  # whole statements a chunk
        else:
            size = CHUNK
        while chunk := list(islice(iterator, size)):
            whole = len(chunk) - len(chunk) % many if many > 1 else 0
            if whole:
                flat = list(chain.from_iterable(chunk[:whole]))
                step = many * width
                cursor.executemany(grouped, [flat[at : at + step] for at in range(0, len(flat), step)])
            if whole < len(chunk):
                cursor.executemany(statement, chunk[whole:])
            written += len(chunk)
    finally:
        cursor.close()
    return written


@dataclass(frozen=True)
class Pieces:
    """A column in PostgreSQL's binary ``COPY`` format: each row's field (its length as a
    big-endian int32, -1 for NULL, then its bytes) as a slice ``starts[i]:starts[i] + lengths[i]``
    of ``pool``."""

    pool: NDArray[np.uint8]
    starts: NDArray[np.int64]
    lengths: NDArray[np.int64]

    def taken(self, rows: slice) -> Pieces:
        return Pieces(self.pool, self.starts[rows], self.lengths[rows])


_NULL = b"\xff\xff\xff\xff"  # a field's length -1: NULL


def whole_pieces(values: NDArray[np.int64], missing: NDArray[np.bool_] | None = None) -> Pieces | None:
    """An ``integer`` column (int4); ``missing``: the rows that are NULL. None if a value does not
    fit in an int4 (the caller writes the rows as text, and the server refuses them)."""
    present = values if missing is None else values[~missing]
    if len(present) and (int(present.min()) < -(1 << 31) or int(present.max()) >= 1 << 31):
        return None
    return _fixed(values, ">i4", missing)


def bool_pieces(values: NDArray[np.bool_]) -> Pieces:
    """A ``boolean`` column (one byte: 1 true, 0 false)."""
    return _fixed(values.astype("u1"), "u1", None)


def float_pieces(values: NDArray[np.float64]) -> Pieces:
    """A ``double precision`` column (float8), NaN as NULL."""
    import numpy as np

    return _fixed(values, ">f8", np.isnan(values))


def _fixed(values: NDArray[Any], kind: str, missing: NDArray[np.bool_] | None) -> Pieces:
    import numpy as np

    count = len(values)
    fields = np.empty(count, dtype=[("length", ">i4"), ("value", kind)])
    width = fields.dtype["value"].itemsize
    fields["length"] = width
    fields["value"] = values if missing is None else np.where(missing, 0, values)
    pool = np.concatenate([fields.view(np.uint8), np.frombuffer(_NULL, dtype=np.uint8)])
    step = 4 + width
    starts = np.arange(count, dtype=np.int64) * step
    lengths = np.full(count, step, dtype=np.int64)
    if missing is not None and missing.any():
        starts[missing] = count * step
        lengths[missing] = 4
    return Pieces(pool, starts, lengths)


def text_pieces(codes: NDArray[np.int64], texts: Sequence[str | None]) -> Pieces:
    """A ``text`` (or ``varchar``) column given as each row's code into ``texts`` (None: NULL)."""
    import numpy as np

    fields = [_NULL if t is None else len(b := t.encode()).to_bytes(4, "big") + b for t in texts]
    sizes = np.array([len(field) for field in fields], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    pool = np.frombuffer(b"".join(fields), dtype=np.uint8)
    return Pieces(pool, offsets[codes], sizes[codes])


def constant_pieces(field: Pieces, count: int) -> Pieces:
    """One field's pieces (of one row) for ``count`` rows."""
    import numpy as np

    return Pieces(field.pool, np.repeat(field.starts[:1], count), np.repeat(field.lengths[:1], count))


#: PostgreSQL's binary COPY: its signature, flags and header extension (none), and its trailer
#: (postgresql.org/docs/current/sql-copy.html, "Binary Format").
_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
_TRAILER = b"\xff\xff"
#: Bytes of rows (at their widest) :func:`copy_binary` lays out at a time: its index arrays, 16
#: bytes a byte sent, stay a few tens of MiB.
COPY_BYTES = 1 << 20


def copy_binary(
    connection: Connection, table: Table, columns: Sequence[str], fields: Sequence[Pieces]
) -> int:
    """PostgreSQL: the rows of ``fields`` (one :class:`Pieces` a column of ``columns``, as many rows
    each) into ``table`` by ``COPY ... (FORMAT BINARY)``, laid out by numpy about
    :data:`COPY_BYTES` of rows at a time: no Python object a row. The number of rows written."""
    import numpy as np

    count = len(fields[0].starts)
    header = len(fields).to_bytes(2, "big")  # each row: its number of fields, then the fields
    pools = [np.frombuffer(header, dtype=np.uint8), *(field.pool for field in fields)]
    bases = np.concatenate([[0], np.cumsum([len(pool) for pool in pools])[:-1]]).astype(np.int64)
    pool = np.concatenate(pools)
    names = ", ".join(columns)
    driver = connection.connection.driver_connection
    with (
        driver.cursor() as cursor,  # type: ignore[union-attr]
        cursor.copy(f"COPY {table.name} ({names}) FROM STDIN (FORMAT BINARY)") as copy,
    ):
        copy.write(_SIGNATURE)
        widest = len(header) + sum(int(field.lengths.max(initial=0)) for field in fields)
        step = max(1, COPY_BYTES // widest)
        for first in range(0, count, step):
            rows = slice(first, min(first + step, count))
            size = rows.stop - rows.start
            # Each row's pieces in order (its header, then its fields): where each starts in the
            # pool, and its length; then every byte gathered in one indexing.
            starts = np.empty((size, len(pools)), dtype=np.int64)
            lengths = np.empty((size, len(pools)), dtype=np.int64)
            starts[:, 0], lengths[:, 0] = 0, 2
            for place, (field, base) in enumerate(zip(fields, bases[1:], strict=True), start=1):
                starts[:, place] = field.starts[rows] + base
                lengths[:, place] = field.lengths[rows]
            flat_starts, flat_lengths = starts.ravel(), lengths.ravel()
            ends = np.cumsum(flat_lengths)
            gather = np.repeat(flat_starts - (ends - flat_lengths), flat_lengths)
            gather += np.arange(int(ends[-1]), dtype=np.int64)
            copy.write(pool[gather].tobytes())
        copy.write(_TRAILER)
    return count


def int_columns(connection: Connection, query: Select[Any]) -> list[NDArray[np.int64]]:
    """Each column of ``query`` as an array, in the order the rows come (the same for every
    column). Every value must be a whole number, never NULL (give NULL a value with ``coalesce``):
    a NULL is refused (:class:`ValueError`), never guessed."""
    return sent_int_columns(connection, query).arrays()


@dataclass(frozen=True)
class SentColumns:
    """A query's whole-number columns as the driver sent them (:func:`sent_int_columns`): one
    value a column, PostgreSQL's binary array or SQLite's text; :meth:`arrays` reads them."""

    names: list[str]
    count: int
    values: list[Any]
    postgres: bool

    def arrays(self) -> list[NDArray[np.int64]]:
        """Each column as an array (:func:`int_columns`)."""
        columns = [_from_bytes(value) if self.postgres else _parsed(value) for value in self.values]
        if any(len(column) != self.count for column in columns):  # group_concat leaves NULLs out
            raise ValueError(f"a NULL in the columns {self.names} of a query read as whole numbers")
        return columns


def sent_int_columns(connection: Connection, query: Select[Any]) -> SentColumns:
    """The columns of ``query`` as :func:`int_columns` has the database send them, not yet read:
    a thread that only waits for them leaves the reading to another."""
    names = list(query.selected_columns.keys())
    sql = str(query.compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True}))
    postgres = connection.dialect.name == "postgresql"
    if postgres:
        aggregates = ", ".join(f"string_agg(int8send(CAST(q.{name} AS BIGINT)), ''::bytea)" for name in names)
    else:
        aggregates = ", ".join(f"group_concat(q.{name})" for name in names)
    driver = connection.connection.driver_connection
    cursor = driver.cursor(binary=True) if postgres else driver.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(f"SELECT count(*), {aggregates} FROM ({sql}) AS q")
        count, *values = cursor.fetchone()
    finally:
        cursor.close()
    return SentColumns(names, count, values, postgres)


def _parsed(text: str | None) -> NDArray[np.int64]:
    import numpy as np

    if not text:
        return np.zeros(0, dtype=np.int64)
    return np.fromstring(text, dtype=np.int64, sep=",")


def _from_bytes(data: bytes | None) -> NDArray[np.int64]:
    """Whole numbers as ``int8send`` sends each: eight bytes, big-endian (PostgreSQL's binary
    format of ``bigint``: postgresql.org/docs/current/sql-copy.html, "Binary Format";
    src/backend/utils/adt/int8.c, ``int8send``)."""
    import numpy as np

    if data is None:  # string_agg over no rows
        return np.zeros(0, dtype=np.int64)
    return np.frombuffer(data, dtype=">i8").astype(np.int64)
