"""Importing events from TRF, PGN or CSV files into the store.

- A file is identified by the sha256 of its bytes: the same file is refused the second time; so
  is the same event saved again (:mod:`chessrate.ratinglist.fingerprint`).
- A file with any reading error imports nothing (the readers' problems are listed); warnings are
  returned with the import.
- All the files of one import go in one transaction: every file or none.
- Players are the same person when they have the same FIDE id; without a FIDE id, when they have
  the same name (letter case and spacing aside) and the stored player has no FIDE id either.
  One lookup structure serves the whole import (:class:`_Directory`): the stored players a file
  names are fetched in one query per kind, and kept for the next files.
- Rows go in through the driver's fast path (:func:`.rows.insert_rows`), and the few statements run
  for each file through the driver's cursor (:class:`_Driver`); the time an import takes grows with
  its games, not with the players already stored.
- An event is rated in the period of the month it ends (B.02 7.1.3 closes a list 3 days before
  its date; that margin is not applied: see docs/ratinglist.md).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import repeat
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Column, Engine, bindparam, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from chessrate.collector import cycle_collector_paused
from chessrate.errors import FileFormatError, InvalidInputError
from chessrate.formats import EventRead, Format, Player, Problem, read_event, sniff_format
from chessrate.formats.text import decode, split_lines
from chessrate.ratinglist.fingerprint import EARLIER_IMPORT_SQL, fingerprint_columns
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.rows import CHUNK, insert_rows
from chessrate.ratinglist.schema import event_players, events, games, players
from chessrate.ratinglist.store import WRITER_WAIT, StoreError, write_transaction

_V = TypeVar("_V")

MAX_ERRORS_SHOWN = 3
#: Files up to this size are read once, whole; a larger one (a PGN of many events) is streamed.
_READ_WHOLE = 64 << 20
#: SQLite's page cache while an import writes (sqlite.org/pragma.html#pragma_cache_size).
_SQLITE_CACHE_KIB = 64 * 1024


class RefusedFile(FileFormatError):
    """A file with reading errors: nothing of the import is stored. ``errors`` are the reader's
    problems, whose codes let a face say them in its own language."""

    def __init__(self, file_name: str, errors: Sequence[Problem]) -> None:
        self.file_name = file_name
        self.errors = tuple(errors)
        shown = "; ".join(str(problem) for problem in self.errors[:MAX_ERRORS_SHOWN])
        more = len(self.errors) - MAX_ERRORS_SHOWN
        super().__init__(
            f"{file_name}: {len(self.errors)} error(s), nothing imported: {shown}"
            + (f" (and {more} more)" if more > 0 else "")
        )


@dataclass(frozen=True, kw_only=True)
class ImportedEvent:
    """One event as it was imported."""

    id: int
    name: str
    file_name: str
    sha256: str
    start_date: dt.date
    end_date: dt.date
    period: str
    players: int
    new_players: int
    games: int
    rated_games: int
    warnings: tuple[str, ...]
    replaces: int | None


def name_key(name: str) -> str:
    """A name folded for matching: letter case and runs of spaces do not matter."""
    return " ".join(name.split()).casefold()


def import_files(
    engine: Engine,
    paths: Sequence[Path],
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    replaces: int | None = None,
    wait: float = WRITER_WAIT,
    on_wait: Callable[[], None] | None = None,
) -> tuple[ImportedEvent, ...]:
    """Import every file in one transaction; any refusal imports nothing.

    ``start`` and ``end`` give the dates of a file that has none or wrong ones (one file only);
    ``replaces`` names an event a corrected file replaces (one file only): the old event is kept
    for the lists already published from it, and no longer rated. While another import or run
    holds the store, this one waits (see :func:`~chessrate.ratinglist.store.write_transaction`).
    """
    if not paths:
        raise InvalidInputError("file", "", "give at least one file to import")
    if len(paths) > 1 and (start or end or replaces):
        raise InvalidInputError("file", len(paths), "--start, --end and --replaces take one file")
    with (
        cycle_collector_paused(),  # a month's players and rows, none in a cycle: 3 % at 2x10^6 games
        write_transaction(engine, wait=wait, on_wait=on_wait, foreign_keys=False) as connection,
        _page_cache(connection),
        closing(_Driver(connection)) as driver,
    ):
        directory = _Directory(driver)
        queue, keys = _Queue(connection, directory), _Keys()
        imported = tuple(
            _import_one(driver, directory, queue, keys, Path(path), start=start, end=end, replaces=replaces)
            for path in paths
        )
        queue.write()
        keys.check(driver)
        return imported


_ENTRANT_COLUMNS = ("event_id", "start_number", "player_id", "rating_in_file")
_GAME_COLUMNS = (
    "event_id",
    "round",
    "white_id",
    "black_id",
    "white_score",
    "black_score",
    "rated",
    "code",
    "line",
)


class _Queue:
    """The new players, entrants and games of the files read so far, written together once there
    are :data:`.rows.CHUNK` games or the files are all read: a few large writes rather than three
    a file (on PostgreSQL each ``COPY`` waits twice for the server). Their keys are checked at the end of
    the import (:class:`_Keys`)."""

    def __init__(self, connection: Connection, directory: _Directory) -> None:
        self._connection = connection
        self._directory = directory
        self._entrants: list[tuple[Any, ...]] = []
        self._games: list[tuple[Any, ...]] = []

    def add(self, entrants: list[tuple[Any, ...]], games_rows: list[tuple[Any, ...]]) -> None:
        self._entrants += entrants
        self._games += games_rows
        if len(self._games) >= CHUNK:
            self.write()

    def write(self) -> None:
        self._directory.write_new_players()
        insert_rows(self._connection, event_players, _ENTRANT_COLUMNS, self._entrants)
        insert_rows(self._connection, games, _GAME_COLUMNS, self._games)
        self._entrants, self._games = [], []


@dataclass
class _Keys:
    """The events and players the rows of an import name, checked once at its end (:meth:`check`):
    ``games`` and ``event_players`` have no foreign keys (migration 0005), which were checked row
    by row (three a game: on PostgreSQL most of an import's time); here each event and player is
    looked up once, before the import commits."""

    events: set[int] = field(default_factory=set)
    players: set[int] = field(default_factory=set)

    def check(self, driver: _Driver) -> None:
        """Refuse the import (nothing is committed) if a key names a row the store does not have.
        SQLite: ``IN`` lists of :data:`_BATCH` ids; PostgreSQL: one array of ids a table."""
        for table, ids in (("events", self.events), ("players", self.players)):
            wanted = sorted(ids)
            found = 0
            if not driver.sqlite:
                sql = f"SELECT count(*) FROM {table} WHERE id = ANY(?::integer[])"
                found = int(driver.rows(sql, (wanted,))[0][0]) if wanted else 0
            for start in range(0, len(wanted) if driver.sqlite else 0, _BATCH):
                batch = wanted[start : start + _BATCH]
                marks, values = _in_list(batch)
                found += int(driver.rows(f"SELECT count(*) FROM {table} WHERE id IN ({marks})", values)[0][0])
            if found != len(wanted):
                raise StoreError(
                    f"the import names {len(wanted) - found} row(s) of {table} the store does not have "
                    "(a foreign key); nothing imported",
                    code="import-missing-rows",
                    params={"count": len(wanted) - found, "table": table},
                )


class _Driver:
    """The statements an import runs for each file, through the driver's cursor: SQLAlchemy's
    processing of a statement (some 0.1 ms) would be a tenth of a small file's import. Values go
    in as SQLAlchemy would write them (:attr:`date`, :attr:`datetime`)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.sqlite = connection.dialect.name == "sqlite"
        self._cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        self.date = _bind(events.c.start_date, connection)
        self.datetime = _bind(events.c.imported_at, connection)
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

    def close(self) -> None:
        self._cursor.close()


def _bind(column: Column[Any], connection: Connection) -> Callable[[Any], Any]:
    """How SQLAlchemy writes a value of ``column`` on this database (SQLite: dates as text)."""
    dialect = connection.dialect
    process = column.type.dialect_impl(dialect).bind_processor(dialect)
    if process is None:
        return lambda value: value
    return process


@contextmanager
def _page_cache(connection: Connection) -> Iterator[None]:
    """SQLite: a larger page cache while the import writes, the connection's own afterwards.

    A month's import checks each game's players and indexes each event's players at random places
    of a table and an index larger than SQLite's default cache (2 MB): a 2x10^6-game import spent
    3 s of system time reading pages back, 0.6 s with 64 MB (sqlite.org/pragma.html#pragma_cache_size).
    """
    if connection.dialect.name != "sqlite":
        yield
        return
    before = connection.exec_driver_sql("PRAGMA cache_size").scalar()
    connection.exec_driver_sql(f"PRAGMA cache_size = -{_SQLITE_CACHE_KIB}")
    try:
        yield
    finally:
        with suppress(SQLAlchemyError):  # a broken connection: the import's own error is raised
            connection.exec_driver_sql(f"PRAGMA cache_size = {int(before or 0)}")


@dataclass(frozen=True)
class _File:
    """A file read and checked, ready to store."""

    path: Path
    digest: str
    event: EventRead
    warnings: tuple[str, ...]
    start_date: dt.date
    end_date: dt.date


def _import_one(
    driver: _Driver,
    directory: _Directory,
    queue: _Queue,
    keys: _Keys,
    path: Path,
    *,
    start: dt.date | None,
    end: dt.date | None,
    replaces: int | None,
) -> ImportedEvent:
    read = _read(driver, path, start=start, end=end)
    connection = driver.connection
    if replaces is not None:
        _check_replaceable(connection, replaces)
    event = read.event
    ids, new_players = directory.resolve(event.players, file_name=path.name)
    games_read = event.games
    white_ids = list(map(ids.__getitem__, games_read.white))
    black_ids = list(map(ids.__getitem__, games_read.black))
    white_scores = _texts(games_read.white_score)
    black_scores = _texts(games_read.black_score)
    games_fingerprint = (
        fingerprint_columns(
            read.start_date, read.end_date, games_read.round, white_ids, black_ids, white_scores, black_scores
        )
        if len(games_read)
        else None
    )
    # An event without games (no fingerprint) is never a duplicate: it rates nothing.
    earlier = driver.rows(EARLIER_IMPORT_SQL, (games_fingerprint,)) if games_fingerprint else []
    if earlier and earlier[0][0] != replaces:
        earlier_id, earlier_name, earlier_file = earlier[0]
        raise StoreError(
            f"{path.name}: the same games on the same days were already imported as event {earlier_id} "
            f"'{earlier_name}' from {earlier_file}; nothing imported (a corrected file: "
            f"--replaces {earlier_id})",
            code="import-same-games",
            params={
                "file": path.name,
                "event": earlier_id,
                "name": earlier_name,
                "earlier_file": earlier_file,
            },
        )
    name = event.name or path.stem
    period = str(Period.of(read.end_date))
    ((event_id,),) = driver.rows(
        _ADD_EVENT,
        (
            name[:300],
            event.source_format,
            path.name[:300],
            read.digest,
            games_fingerprint,
            driver.date(read.start_date),
            driver.date(read.end_date),
            period,
            driver.datetime(dt.datetime.now(dt.UTC).replace(tzinfo=None)),
        ),
    )
    entrants = [(event_id, player.number, ids[player.number], player.rating) for player in event.players]
    keys.events.add(event_id)
    keys.players.update(ids.values())  # the entrants' ids, which the games' are drawn from
    codes = games_read.code
    game_rows = list(
        zip(
            repeat(event_id),
            games_read.round,
            white_ids,
            black_ids,
            white_scores,
            black_scores,
            # SQLite: as the whole numbers it stores (sqlite3 binds a bool through its adapter
            # lookup, a quarter of a game row's insert); PostgreSQL's COPY is given booleans.
            list(map(int, games_read.rated)) if driver.sqlite else games_read.rated,
            codes if max(map(len, codes), default=0) <= 10 else [code[:10] for code in codes],
            games_read.line,
            strict=False,  # repeat() is endless; the other columns have one entry a game
        )
    )
    queue.add(entrants, game_rows)
    if replaces is not None:
        connection.execute(update(events).where(events.c.id == replaces).values(replaced_by=event_id))
    return ImportedEvent(
        id=event_id,
        name=name,
        file_name=path.name,
        sha256=read.digest,
        start_date=read.start_date,
        end_date=read.end_date,
        period=period,
        players=len(event.players),
        new_players=new_players,
        games=len(game_rows),
        rated_games=sum(games_read.rated),
        warnings=read.warnings,
        replaces=replaces,
    )


_ADD_EVENT = (
    "INSERT INTO events (name, source_format, file_name, file_sha256, games_fingerprint, start_date, "
    "end_date, period, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)
_EVENT_OF_FILE = "SELECT id, name, file_name FROM events WHERE file_sha256 = ?"


def _texts(scores: Sequence[Decimal | None]) -> list[str | None]:
    """Scores as :class:`.schema.DecimalText` stores them (``str``), each distinct object written
    once: a reader gives a few shared decimals."""
    # Each distinct object by its id (the list holds every score, so no id is reused while this
    # runs), then every score's text looked up: no Python code runs a score.
    distinct = dict(zip(map(id, scores), scores, strict=True))
    written = {key: None if score is None else str(score) for key, score in distinct.items()}
    return list(map(written.__getitem__, map(id, scores)))


def _read(driver: _Driver, path: Path, *, start: dt.date | None, end: dt.date | None) -> _File:
    """The file read from disk, refused if already imported, unreadable or without dates."""
    data: bytes | None = None  # the file's bytes, read once when it is not too big to hold
    try:
        if path.stat().st_size <= _READ_WHOLE:
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            head = data[:65536]
        else:
            with path.open("rb") as handle:
                digest = hashlib.file_digest(handle, "sha256").hexdigest()
            with path.open("rb") as handle:
                head = handle.read(65536)  # enough to tell the format (sniff_format reads as much)
    except OSError as error:
        raise InvalidInputError("file", str(path), error.strerror or "cannot be read") from None
    known = driver.rows(_EVENT_OF_FILE, (digest,))
    if known:
        known_id, known_name, known_file = known[0]
        raise StoreError(
            f"{path.name}: this file (sha256 {digest[:12]}...) was already imported as event "
            f"{known_id} '{known_name}' from {known_file}; nothing imported",
            code="import-same-file",
            params={"file": path.name, "event": known_id, "name": known_name, "earlier_file": known_file},
        )
    # A PGN file is streamed from disk; TRF and CSV files (one event each) are read whole.
    read = read_event(path if data is None else data, format=_format(head, path.name))
    if read.errors:
        raise RefusedFile(path.name, read.errors)
    start_date, end_date = _event_dates(read.start_date, read.end_date, start=start, end=end)
    if start_date is None or end_date is None:
        raise InvalidInputError(
            "start",
            None,
            f"{path.name} gives no date: give the event's --start date",
            code="import-no-date",
            params={"file": path.name},
        )
    if end_date < start_date:
        raise InvalidInputError(
            "end",
            end_date.isoformat(),
            f"{path.name} ends before it starts",
            code="import-ends-before-start",
            params={"file": path.name},
        )
    warnings = tuple(problem.located() for problem in read.warnings)
    return _File(path, digest, read, warnings, start_date, end_date)


def _format(head: bytes, name: str) -> Format | None:
    """:func:`~chessrate.formats.sniff_format` of the file's first 64 KiB (``head``), told from its
    first 4 KiB where they decide it: the whole lines there, ASCII (decoded alike whatever the
    encoding chosen for the 64 KiB), at least one of them meaningful (not blank, not a ``%`` or
    ``;`` comment), so the first lines the sniffer tests are the same. A TRF file is told by its
    first line; sniffing all its lines cost some 3 % of an import."""
    short = head[: max(head.rfind(b"\n", 0, 4096), head.rfind(b"\r", 0, 4096)) + 1]
    if short.isascii():
        text = short.decode("ascii")
        if any(line.strip() and not line.startswith(("%", ";")) for line in split_lines(text)):
            told = sniff_format(text, name=None)
            if told is not None:
                return told
    return sniff_format(decode(head)[0], name=name)


def _event_dates(
    file_start: dt.date | None, file_end: dt.date | None, *, start: dt.date | None, end: dt.date | None
) -> tuple[dt.date | None, dt.date | None]:
    """The event's dates: as given; a ``start`` alone moves the file's dates, keeping their span."""
    if start is None:
        first = file_start
        last = end or file_end or file_start
    else:
        first = start
        span = (file_end - file_start) if file_start and file_end else dt.timedelta(0)
        last = end or start + span
    return first, last


def _check_replaceable(connection: Connection, event_id: int) -> None:
    row = connection.execute(select(events.c.replaced_by).where(events.c.id == event_id)).first()
    if row is None:
        raise InvalidInputError("replaces", event_id, "no event has this id")
    if row.replaced_by is not None:
        raise InvalidInputError("replaces", event_id, f"already replaced by event {row.replaced_by}")


#: The details of a player the store keeps, in this order in :attr:`_Known.details`.
_DETAILS = ("birth_date", "birth_year", "sex", "federation", "title")
#: Values per ``IN (...)`` query.
_BATCH = 512


@dataclass(slots=True)
class _Known:
    """A stored player (or one this import adds): the id, once given, and the details known
    (:data:`_DETAILS`; only whether each is known matters for a stored player). ``written``:
    whether the player's row is in the store (a new one waits for :meth:`_Directory.write_new_players`,
    with its details as they are then)."""

    id: int | None
    details: list[object]
    written: bool = True


class _Directory:
    """Who the players of the files are: one lookup structure for the whole import.

    Players with a FIDE id are looked up by it; the others by name key among the stored players
    without a FIDE id (the first stored one, by id). Each file's unknown keys are fetched in one
    query per kind, each through the index that fits it: the unique FIDE-id index, and
    ``ix_players_name_key`` for ``name_key IN (...)``, the FIDE-id test applied to the few rows it
    finds (with ``AND fide_id IS NULL`` in the query SQLite plans it through the FIDE-id index and
    walks every player without an id). What is found, or added, is kept for the next files.
    """

    def __init__(self, driver: _Driver) -> None:
        self._driver = driver
        self._by_fide_id: dict[int, _Known | None] = {}
        self._by_name: dict[str, _Known | None] = {}
        self._last_id: int | None = None  # the largest player id, once looked up (SQLite)
        self._new: list[tuple[Player, _Known]] = []  # added, not written yet

    def resolve(self, file_players: Sequence[Player], *, file_name: str) -> tuple[dict[int, int], int]:
        """Each file player's stored id (added where new, details filled in), and how many are new."""
        self._fetch(file_players)
        by_fide_id, by_name = self._by_fide_id, self._by_name
        chosen: list[_Known] = []
        added: list[tuple[Player, _Known]] = []
        fill: list[tuple[_Known, dict[str, object]]] = []
        for player in file_players:
            fide_id = player.fide_id
            key = "" if fide_id else name_key(player.name)
            known = by_fide_id[fide_id] if fide_id else by_name[key]
            if known is None:
                known = _Known(None, _details(player), written=False)
                if fide_id:
                    by_fide_id[fide_id] = known
                else:
                    by_name[key] = known
                added.append((player, known))
            elif None in known.details:
                # Fill in what the store did not know yet; never overwrite what it knows.
                stored = known.details
                missing = {
                    _DETAILS[i]: value
                    for i, value in enumerate(_details(player))
                    if value is not None and stored[i] is None
                }
                if missing:
                    known.details = [
                        missing.get(field, value) for field, value in zip(_DETAILS, stored, strict=True)
                    ]
                    if known.written:  # (a new player's row is written with its details)
                        fill.append((known, missing))
            chosen.append(known)
        if len({id(known) for known in chosen}) < len(chosen):
            seen: set[int] = set()
            for player, known in zip(file_players, chosen, strict=True):
                if id(known) in seen:
                    reason = f"{file_name}: two players of the file are the same stored player"
                    raise InvalidInputError(
                        "player", player.name, reason, code="import-same-player", params={"file": file_name}
                    )
                seen.add(id(known))
        self._add(added)
        self._fill(fill)
        return {
            player.number: int(known.id or 0) for player, known in zip(file_players, chosen, strict=True)
        }, len(added)

    def _fill(self, fill: Sequence[tuple[_Known, dict[str, object]]]) -> None:
        """The details filled in, one ``executemany`` per set of columns (not a statement a player)."""
        by_columns: dict[tuple[str, ...], list[dict[str, object]]] = {}
        for known, missing in fill:
            row = {"known_id": known.id, **{f"new_{column}": value for column, value in missing.items()}}
            by_columns.setdefault(tuple(sorted(missing)), []).append(row)
        for columns, rows in by_columns.items():
            statement = (
                update(players)
                .where(players.c.id == bindparam("known_id"))
                .values({column: bindparam(f"new_{column}") for column in columns})
            )
            self._driver.connection.execute(statement, rows)

    def _fetch(self, file_players: Sequence[Player]) -> None:
        """The stored players this file names that the directory has not looked up yet."""
        by_fide_id, by_name = self._by_fide_id, self._by_name
        ids = list({p.fide_id for p in file_players if p.fide_id and p.fide_id not in by_fide_id})
        # Each name tested against the dict: ``set - dict.keys()`` would copy every name known.
        keys = list({key for p in file_players if not p.fide_id if (key := name_key(p.name)) not in by_name})
        for start in range(0, len(ids), _BATCH):
            batch = ids[start : start + _BATCH]
            by_fide_id.update(dict.fromkeys(batch))
            marks, values = _in_list(batch)
            for row in self._driver.rows(_PLAYERS_WHERE + f"fide_id IN ({marks})", values):
                by_fide_id[row[1]] = _known(row)
        for start in range(0, len(keys), _BATCH):
            names = keys[start : start + _BATCH]
            by_name.update(dict.fromkeys(names))
            # The first stored one is written last, and kept.
            marks, padded = _in_list(names)
            for row in self._driver.rows(_PLAYERS_WHERE + f"name_key IN ({marks}) ORDER BY id DESC", padded):
                if row[1] is None:
                    by_name[row[2]] = _known(row)

    def _add(self, added: Sequence[tuple[Player, _Known]]) -> None:
        """The new players given the ids the database would give them (SQLite: the largest plus
        one; PostgreSQL: from the column's sequence, as its default would), their rows written
        later (:meth:`write_new_players`)."""
        if not added:
            return
        driver = self._driver
        if driver.sqlite:
            if self._last_id is None:
                self._last_id = int(driver.rows("SELECT max(id) FROM players")[0][0] or 0)
            new_ids = list(range(self._last_id + 1, self._last_id + 1 + len(added)))
            self._last_id = new_ids[-1]
        else:
            new_ids = [int(row[0]) for row in driver.rows(_NEXT_PLAYER_IDS, (len(added),))]
        for (_, known), new_id in zip(added, new_ids, strict=True):
            known.id = new_id
        self._new += added

    def write_new_players(self) -> None:
        """The players added since the last call inserted through the driver's fast path, each
        with its id and the details known now."""
        if not self._new:
            return
        driver = self._driver
        now = driver.datetime(dt.datetime.now(dt.UTC).replace(tzinfo=None))
        date = driver.date
        rows = []
        for player, known in self._new:
            birth_date, *details = known.details
            rows.append(
                (
                    known.id,
                    player.name[:200],
                    name_key(player.name)[:200],
                    player.fide_id or None,
                    now,
                    None if birth_date is None else date(birth_date),
                    *details,
                )
            )
            known.written = True
        columns = ("id", "name", "name_key", "fide_id", "created_at", *_DETAILS)
        insert_rows(driver.connection, players, columns, rows)
        self._new = []


#: PostgreSQL: as many ids from the sequence of ``players.id`` as its default would take.
_NEXT_PLAYER_IDS = (
    "SELECT nextval(pg_get_serial_sequence('players', 'id')) FROM generate_series(1, ?) ORDER BY 1"
)
_PLAYERS_WHERE = f"SELECT id, fide_id, name_key, {', '.join(_DETAILS)} FROM players WHERE "


def _in_list(values: Sequence[_V]) -> tuple[str, list[_V]]:
    """The marks of ``IN (...)`` and its values, padded (with the first value again) to a power of
    two: a few statement texts in all, so the driver's cache of prepared statements (128 in
    sqlite3) keeps them, and the import's other statements, prepared (a file's unknown players
    would make a new text each)."""
    size = max(8, 1 << (len(values) - 1).bit_length())
    return ", ".join("?" * size), [*values, *[values[0]] * (size - len(values))]


def _known(row: tuple[Any, ...]) -> _Known:
    """A player row of :meth:`_Directory._fetch`: id, FIDE id, name key, then :data:`_DETAILS`."""
    return _Known(id=int(row[0]), details=list(row[3:]))


def _details(player: Player) -> list[object]:
    """The player's :data:`_DETAILS` as the store keeps them."""
    birth_date = player.birth_date
    return [
        birth_date,
        player.birth_year or (birth_date.year if birth_date else None),
        (player.sex or "")[:1] or None,
        (player.federation or "")[:8] or None,
        (player.title or "")[:8] or None,
    ]
