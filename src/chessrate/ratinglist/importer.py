"""Importing events from TRF, PGN or CSV files into the store.

- A file is identified by the sha256 of its bytes: the same file is refused the second time; so
  is the same event saved again (:mod:`chessrate.ratinglist.fingerprint`).
- A file with any reading error imports nothing (the readers' problems are listed); warnings are
  returned with the import.
- All the files of one import go in one transaction: every file or none.
- Players are the same person when they have the same FIDE id; without a FIDE id, when they have
  the same name (letter case and spacing aside) and the stored player has no FIDE id either.
  One lookup structure serves the whole import (:class:`PlayerDirectory`): the stored players a batch
  of files names are fetched in one query per kind, and kept for the next files.
- The files are checked and stored a batch at a time (:class:`_Batch`), with the refusals of a
  file by file import. Rows go in through the driver's fast path (SQLite: :func:`.rows.insert_rows`;
  PostgreSQL: ``COPY`` text on a thread, :mod:`.copy_text`), and the few statements a batch runs
  through the driver's cursor (:class:`Driver`); the time an import takes grows with its games,
  not with the players already stored.
- An event is rated in the period of the month it ends (B.02 7.1.3 closes a list 3 days before
  its date; that margin is not applied: see docs/ratinglist.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from itertools import chain, repeat
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.engine import Connection

from chessrate.errors import InvalidInputError
from chessrate.formats import Problem
from chessrate.ratinglist import copy_text
from chessrate.ratinglist.copy_text import Writer
from chessrate.ratinglist.fingerprint import fingerprint_columns
from chessrate.ratinglist.import_driver import Driver, NewIds, page_cache
from chessrate.ratinglist.import_players import PLAYER_COLUMNS, KnownPlayer, PlayerDirectory
from chessrate.ratinglist.import_players import name_key as name_key  # where fide_import reads it
from chessrate.ratinglist.import_reads import MAX_ERRORS_SHOWN as MAX_ERRORS_SHOWN  # the web's
from chessrate.ratinglist.import_reads import FileRead, RefusedFiles, Unreadable, file_reads
from chessrate.ratinglist.import_reads import RefusedFile as RefusedFile  # where the faces read it
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.refusals import input_refusal, refusal_text
from chessrate.ratinglist.rows import CHUNK, insert_rows
from chessrate.ratinglist.schema import event_players, events, games, players
from chessrate.ratinglist.store import WRITER_WAIT, StoreError, write_transaction
from chessrate.runtime.gc_pause import cycle_collector_paused


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
    #: The same warnings as the reader found them (a code and its values: a face says them).
    warning_problems: tuple[Problem, ...]
    replaces: int | None


def import_files(
    engine: Engine,
    paths: Sequence[Path],
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    replaces: int | None = None,
    wait: float = WRITER_WAIT,
    on_wait: Callable[[], None] | None = None,
    on_file: Callable[[Path], None] | None = None,
) -> tuple[ImportedEvent, ...]:
    """Import every file in one transaction; any refusal imports nothing.

    Files that cannot be read (reading errors, no dates) are all named at once
    (:class:`RefusedFiles`, each file's problems by line); one alone is raised as it is.
    ``on_file`` is called with each file once it is read (a progress bar).

    ``start`` and ``end`` give the dates of a file that has none or wrong ones (one file only);
    ``replaces`` names an event a corrected file replaces (one file only): the old event is kept
    for the lists already published from it, and no longer rated. While another import or run
    holds the store, this one waits (see :func:`~chessrate.ratinglist.store.write_transaction`).
    """
    if not paths:
        raise input_refusal("import-no-files", field="file", value="")
    if len(paths) > 1 and (start or end or replaces):
        raise input_refusal("import-one-file", field="file", value=len(paths))
    with (
        cycle_collector_paused(),  # a month's players and rows, none in a cycle: 3 % at 2x10^6 games
        # Read ahead on the second core (before the transaction: the reading process is forked
        # without its connection or the writer's thread).
        file_reads([p if isinstance(p, Path) else Path(p) for p in paths], start=start, end=end) as reads,
        write_transaction(engine, wait=wait, on_wait=on_wait, foreign_keys=False) as connection,
        page_cache(connection),
        closing(Driver(connection)) as driver,
        _writer(driver) as writer,
    ):
        batch = _Batch(driver, writer, replaces=replaces)
        refused: list[Unreadable] = []
        for read in reads:
            if isinstance(read, Unreadable):
                if not refused:
                    # The files before it are checked first, then whether it was imported already:
                    # the refusal is the one file by file checks would meet first.
                    batch.settle()
                    batch.refuse_known(read.path.name, read.digest)
                refused.append(read)  # the files after it are read for their own problems
            elif not refused:
                batch.add(read)
            if on_file is not None:
                on_file(read.path)
        if refused:
            raise refused[0].error if len(refused) == 1 else RefusedFiles(refused) from None
        batch.settle()
        batch.finish()
        return tuple(batch.imported)


@contextmanager
def _writer(driver: Driver) -> Iterator[Writer | None]:
    """PostgreSQL: the thread that runs the import's ``COPY``s (:class:`.copy_text.Writer`)."""
    if driver.sqlite:
        yield None
        return
    with closing(Writer(driver.connection)) as writer:
        yield writer


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
_EVENT_COLUMNS = (
    "id",
    "name",
    "source_format",
    "file_name",
    "file_sha256",
    "games_fingerprint",
    "start_date",
    "end_date",
    "period",
    "imported_at",
)
#: Files read before they are checked and stored together (besides :data:`.rows.CHUNK` games).
_FILES = 2_000
#: An earlier event: its id, name and file name.
_Earlier = tuple[int, str, str]


class _Batch:
    """The files of an import, checked and stored a batch at a time: :meth:`add` a file read,
    :meth:`settle` the files added (when they hold :data:`.rows.CHUNK` games, and at the end),
    :meth:`finish` once all are settled.

    A batch's checks are a few statements whatever its files (PostgreSQL: each a wait for the
    server): its files' digests, its players and its games' fingerprints each looked up in one
    query; its new players' and events' ids taken in one query each; its rows written in one
    ``COPY`` (SQLite: ``executemany``) a table. The refusals are those of a file by file import:
    the files are checked in order, each against the store and the files before it, and the
    first refusal met is raised.
    """

    def __init__(self, driver: Driver, writer: Writer | None, *, replaces: int | None) -> None:
        self._driver, self._writer = driver, writer
        self._directory = PlayerDirectory(driver)
        self._keys = _Keys()
        self._replaces = replaces
        self._files: list[FileRead] = []
        self._games = 0
        # This import's events by digest and by games' fingerprint.
        self._digests: dict[str, _Earlier] = {}
        self._fingerprints: dict[str, _Earlier] = {}
        self._event_ids = NewIds(driver, events)
        self.imported: list[ImportedEvent] = []

    def add(self, read: FileRead) -> None:
        self._files.append(read)
        self._games += len(read.event.games)
        if self._games >= CHUNK or len(self._files) >= _FILES:
            self.settle()

    def refuse_known(self, file_name: str, digest: str | None) -> None:
        """Refuse a file whose bytes were imported already (before, or by this import)."""
        if digest is not None:
            self._wait()
            self._refuse_known(file_name, digest, self._stored_digests([digest]))

    def settle(self) -> None:
        """Check the files added since the last call, and store them (nothing is committed)."""
        files, self._files, self._games = self._files, [], 0
        if not files:
            return
        self._wait()
        driver, directory = self._driver, self._directory
        keys = [read.player_keys for read in files]
        directory.fetch(
            [p for read in files for p in read.event.players], [k for file_keys in keys for k in file_keys]
        )
        stored = self._stored_digests([read.digest for read in files])
        event_ids = self._event_ids.take(len(files))
        refusal: Exception | None = None
        chosen: list[tuple[list[KnownPlayer], int]] = []
        for read, event_id, file_keys in zip(files, event_ids, keys, strict=True):
            try:
                self._refuse_known(read.path.name, read.digest, stored)
                if self._replaces is not None:
                    _check_replaceable(driver.connection, self._replaces)
                chosen.append(directory.resolve(read.event.players, file_keys, file_name=read.path.name))
            except (InvalidInputError, StoreError) as error:
                refusal = error  # raised once the files before it are checked
                break
            self._digests[read.digest] = (event_id, _event_name(read)[:300], read.path.name[:300])
        directory.give_ids()
        rows = [
            _EventRows(read, event_id, known, driver)
            for read, event_id, known in zip(files, event_ids, chosen, strict=False)  # up to a refusal
        ]
        self._check_fingerprints(rows)
        if refusal is not None:
            raise refusal
        self._store(rows)

    def _check_fingerprints(self, rows: Sequence[_EventRows]) -> None:
        """Refuse the first file whose games on the same days were imported already (an event
        still rated, not the one it replaces), by an earlier import (the first by id) or this one."""
        wanted = list({row.fingerprint for row in rows if row.fingerprint})
        stored: dict[str, _Earlier] = {}
        for found in self._driver.rows_where(_EARLIER_IMPORTS, "games_fingerprint", wanted, "text"):
            earlier_id, name, file_name, fingerprint = found
            if fingerprint not in stored or earlier_id < stored[fingerprint][0]:
                stored[fingerprint] = (earlier_id, name, file_name)
        for row in rows:
            if row.fingerprint is None:  # an event without games is never a duplicate: it rates nothing
                continue
            earlier = stored.get(row.fingerprint) or self._fingerprints.get(row.fingerprint)
            if earlier is not None and earlier[0] != self._replaces:
                earlier_id, earlier_name, earlier_file = earlier
                name = row.read.path.name
                raise _store_refusal(
                    "import-same-games",
                    file=name,
                    event=earlier_id,
                    name=earlier_name,
                    earlier_file=earlier_file,
                )
            self._fingerprints[row.fingerprint] = self._digests[row.read.digest]

    def _store(self, rows: Sequence[_EventRows]) -> None:
        """The batch's events, new players, entrants and games written (PostgreSQL: by the
        writer's thread, while the next files are read), and its details filled in."""
        driver, connection = self._driver, self._driver.connection
        now = driver.datetime(dt.datetime.now(dt.UTC).replace(tzinfo=None))
        event_rows = [row.event_row(now) for row in rows]
        new_players = self._directory.new_players()
        self._directory.fill()
        if self._writer is None:
            insert_rows(connection, players, PLAYER_COLUMNS, new_players)
            insert_rows(connection, events, _EVENT_COLUMNS, event_rows)
            entrants = chain.from_iterable(r.entrants() for r in rows)
            insert_rows(connection, event_players, _ENTRANT_COLUMNS, entrants)
            all_games = chain.from_iterable(r.games() for r in rows)
            insert_rows(connection, games, _GAME_COLUMNS, all_games)
        else:
            self._writer.start(
                [
                    (players, PLAYER_COLUMNS, copy_text.rows_lines(new_players, _PLAYER_TEXTS)),
                    (events, _EVENT_COLUMNS, copy_text.rows_lines(event_rows, _EVENT_TEXTS)),
                    (event_players, _ENTRANT_COLUMNS, "".join(row.entrant_lines() for row in rows)),
                    (games, _GAME_COLUMNS, "".join(row.game_lines() for row in rows)),
                ]
            )
        for row in rows:
            self._keys.events.add(row.event_id)
            self._keys.players.update(row.stored_players)
            self.imported.append(row.imported(self._replaces))

    def _wait(self) -> None:
        """The writer's ``COPY``s done, before the connection is used again."""
        if self._writer is not None:
            self._writer.wait()

    def finish(self) -> None:
        """The replaced event marked, and every key the import's rows name checked (:class:`_Keys`).

        No ``ANALYZE`` of the tables the import grew (PostgreSQL): autovacuum gathers their
        statistics after the commit (docs/ratinglist.md, "PostgreSQL imports")."""
        self._wait()
        if self._replaces is not None and self.imported:
            replaced = update(events).where(events.c.id == self._replaces)
            self._driver.connection.execute(replaced.values(replaced_by=self.imported[0].id))
        self._keys.check(self._driver)

    def _stored_digests(self, digests: list[str]) -> dict[str, _Earlier]:
        found = self._driver.rows_where(_EVENTS_OF_FILES, "file_sha256", digests, "text")
        return {digest: (event_id, name, file_name) for event_id, name, file_name, digest in found}

    def _refuse_known(self, file_name: str, digest: str, stored: dict[str, _Earlier]) -> None:
        known = stored.get(digest) or self._digests.get(digest)
        if known is None:
            return
        known_id, known_name, known_file = known
        raise _store_refusal(
            "import-same-file", file=file_name, event=known_id, name=known_name, earlier_file=known_file
        )


#: The columns of :data:`_EVENT_COLUMNS` and :data:`PLAYER_COLUMNS` that are texts (PostgreSQL's ``COPY``).
_EVENT_TEXTS = (1, 2, 3, 4, 5, 8)
_PLAYER_TEXTS = (1, 2, 7, 8, 9)
_EVENTS_OF_FILES = "SELECT id, name, file_name, file_sha256 FROM events WHERE "
#: The stored events still rated with these fingerprints (an event without games has none).
_EARLIER_IMPORTS = "SELECT id, name, file_name, games_fingerprint FROM events WHERE replaced_by IS NULL AND "


class _EventRows:
    """One file's event as the store keeps it: its players' stored ids, its games' columns and
    fingerprint, then its rows (:meth:`event_row`, :meth:`entrants`, :meth:`games`; PostgreSQL:
    ``COPY`` lines)."""

    def __init__(
        self, read: FileRead, event_id: int, chosen: tuple[list[KnownPlayer], int], driver: Driver
    ) -> None:
        known, self.new_players = chosen
        self.read, self.event_id, self._driver = read, event_id, driver
        # The stored players of the entrants (the games' are drawn from them).
        self.stored_players = [int(k.id or 0) for k in known if not k.added]
        self.player_ids = {
            player.number: int(k.id or 0) for player, k in zip(read.event.players, known, strict=True)
        }
        columns = read.event.games
        self.white_ids = list(map(self.player_ids.__getitem__, columns.white))
        self.black_ids = list(map(self.player_ids.__getitem__, columns.black))
        self.white_scores, self.black_scores = read.white_scores, read.black_scores
        self.fingerprint = (
            fingerprint_columns(
                read.start_date,
                read.end_date,
                columns.round,
                self.white_ids,
                self.black_ids,
                self.white_scores,
                self.black_scores,
            )
            if len(columns)
            else None
        )

    def event_row(self, now: object) -> tuple[Any, ...]:
        read, date = self.read, self._driver.date
        return (
            self.event_id,
            _event_name(read)[:300],
            read.event.source_format,
            read.path.name[:300],
            read.digest,
            self.fingerprint,
            date(read.start_date),
            date(read.end_date),
            str(Period.of(read.end_date)),
            now,
        )

    def entrants(self) -> list[tuple[Any, ...]]:
        ids = self.player_ids
        return [(self.event_id, p.number, ids[p.number], p.rating) for p in self.read.event.players]

    def games(self) -> Iterator[tuple[Any, ...]]:
        columns = self.read.event.games
        return zip(
            repeat(self.event_id),
            columns.round,
            self.white_ids,
            self.black_ids,
            self.white_scores,
            self.black_scores,
            # As the whole numbers SQLite stores (sqlite3 binds a bool through its adapter lookup,
            # a quarter of a game row's insert).
            map(int, columns.rated),
            _codes(columns.code),
            columns.line,
            strict=False,  # repeat() is endless; the other columns have one entry a game
        )

    def entrant_lines(self) -> str:
        players_read = self.read.event.players
        return copy_text.lines(
            [
                [self.event_id] * len(players_read),
                [p.number for p in players_read],
                list(map(self.player_ids.__getitem__, (p.number for p in players_read))),
                copy_text.nullable([p.rating for p in players_read]),
            ]
        )

    def game_lines(self) -> str:
        columns = self.read.event.games
        return copy_text.lines(
            [
                [self.event_id] * len(columns),
                copy_text.nullable(columns.round),
                self.white_ids,
                self.black_ids,
                copy_text.nullable(self.white_scores),  # decimal texts: nothing to escape
                copy_text.nullable(self.black_scores),
                copy_text.booleans(columns.rated),
                copy_text.texts(_codes(columns.code)),
                columns.line,
            ]
        )

    def imported(self, replaces: int | None) -> ImportedEvent:
        read = self.read
        return ImportedEvent(
            id=self.event_id,
            name=_event_name(read),
            file_name=read.path.name,
            sha256=read.digest,
            start_date=read.start_date,
            end_date=read.end_date,
            period=str(Period.of(read.end_date)),
            players=len(read.event.players),
            new_players=self.new_players,
            games=len(read.event.games),
            rated_games=sum(read.event.games.rated),
            warnings=read.warnings,
            warning_problems=read.event.warnings,
            replaces=replaces,
        )


def _event_name(read: FileRead) -> str:
    return read.event.name or read.path.stem


def _codes(codes: Sequence[str]) -> Sequence[str]:
    """Game codes cut to the column's 10 characters."""
    return codes if max(map(len, codes), default=0) <= 10 else [code[:10] for code in codes]


@dataclass
class _Keys:
    """The events and players the rows of an import name, checked once at its end (:meth:`check`):
    ``games`` and ``event_players`` have no foreign keys (migration 0005), which were checked row
    by row (three a game: on PostgreSQL most of an import's time); here each event and player is
    looked up once, before the import commits."""

    events: set[int] = field(default_factory=set)
    #: The stored players the rows name (those the import adds, it writes itself).
    players: set[int] = field(default_factory=set)

    def check(self, driver: Driver) -> None:
        """Refuse the import (nothing is committed) if a key names a row the store does not have."""
        for table, ids in (("events", self.events), ("players", self.players)):
            wanted = sorted(ids)
            counts = driver.rows_where(f"SELECT count(*) FROM {table} WHERE ", "id", wanted, "integer")
            found = sum(int(count) for (count,) in counts)
            if found != len(wanted):
                raise _store_refusal("import-missing-rows", count=len(wanted) - found, table=table)


def _check_replaceable(connection: Connection, event_id: int) -> None:
    row = connection.execute(select(events.c.replaced_by).where(events.c.id == event_id)).first()
    if row is None:
        raise input_refusal("replaces-unknown", field="replaces", value=event_id)
    if row.replaced_by is not None:
        raise input_refusal("replaces-replaced", field="replaces", value=event_id, event=row.replaced_by)


def _store_refusal(code: str, **params: object) -> StoreError:
    """The store's refusal ``code``, its English message said from its one template (refusals)."""
    return StoreError(refusal_text(code, params), code=code, params=params)
