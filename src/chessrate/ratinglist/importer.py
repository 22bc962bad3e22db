"""Importing events from TRF, PGN or CSV files into the store.

- A file is identified by the sha256 of its bytes: the same file is refused the second time; so
  is the same event saved again (:mod:`chessrate.ratinglist.fingerprint`).
- A file with any reading error imports nothing (the readers' problems are listed); warnings are
  returned with the import.
- All the files of one import go in one transaction: every file or none.
- Players are the same person when they have the same FIDE id; without a FIDE id, when they have
  the same name (letter case and spacing aside) and the stored player has no FIDE id either.
- An event is rated in the period of the month it ends (B.02 7.1.3 closes a list 3 days before
  its date; that margin is not applied: see docs/ratinglist.md).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.engine import Connection

from chessrate.errors import FileFormatError, InvalidInputError
from chessrate.formats import Player, read_tournament, sniff_format
from chessrate.formats.text import decode
from chessrate.ratinglist.fingerprint import earlier_import
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.schema import event_players, events, games, players
from chessrate.ratinglist.store import WRITER_WAIT, StoreError, write_transaction

MAX_ERRORS_SHOWN = 3


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
    with write_transaction(engine, wait=wait, on_wait=on_wait) as connection:
        return tuple(
            _import_one(connection, Path(path), start=start, end=end, replaces=replaces) for path in paths
        )


def _import_one(
    connection: Connection, path: Path, *, start: dt.date | None, end: dt.date | None, replaces: int | None
) -> ImportedEvent:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InvalidInputError("file", str(path), error.strerror or "cannot be read") from None
    digest = hashlib.sha256(data).hexdigest()
    known = connection.execute(
        select(events.c.id, events.c.name, events.c.file_name).where(events.c.file_sha256 == digest)
    ).first()
    if known is not None:
        raise StoreError(
            f"{path.name}: this file (sha256 {digest[:12]}...) was already imported as event "
            f"{known.id} '{known.name}' from {known.file_name}; nothing imported"
        )
    read = read_tournament(data, format=sniff_format(decode(data)[0], name=path.name))
    if read.errors:
        shown = "; ".join(str(problem) for problem in read.errors[:MAX_ERRORS_SHOWN])
        more = len(read.errors) - MAX_ERRORS_SHOWN
        raise FileFormatError(
            f"{path.name}: {len(read.errors)} error(s), nothing imported: {shown}"
            + (f" (and {more} more)" if more > 0 else "")
        )
    tournament = read.tournament
    start_date, end_date = _event_dates(tournament.start_date, tournament.end_date, start=start, end=end)
    if start_date is None or end_date is None:
        raise InvalidInputError("start", None, f"{path.name} gives no date: give the event's --start date")
    if end_date < start_date:
        raise InvalidInputError("end", end_date.isoformat(), f"{path.name} ends before it starts")
    if replaces is not None:
        _check_replaceable(connection, replaces)

    ids: dict[int, int] = {}
    new_players = 0
    for player in tournament.players:
        player_id, created = _find_or_add_player(connection, player)
        new_players += created
        if player_id in ids.values():
            raise InvalidInputError(
                "player", player.name, f"{path.name}: two players of the file are the same stored player"
            )
        ids[player.number] = player_id

    keys = [(g.round, ids[g.white], ids[g.black], g.white_score, g.black_score) for g in tournament.games]
    earlier = earlier_import(connection, start=start_date, end=end_date, keys=keys)
    if earlier is not None and earlier.id != replaces:
        raise StoreError(
            f"{path.name}: the same games on the same days were already imported as event {earlier.id} "
            f"'{earlier.name}' from {earlier.file_name}; nothing imported (a corrected file: "
            f"--replaces {earlier.id})"
        )

    name = tournament.name or path.stem
    event_id = connection.execute(
        insert(events)
        .values(
            name=name[:300],
            source_format=tournament.source_format,
            file_name=path.name[:300],
            file_sha256=digest,
            start_date=start_date,
            end_date=end_date,
            period=str(Period.of(end_date)),
            imported_at=dt.datetime.now(dt.UTC).replace(tzinfo=None),
        )
        .returning(events.c.id)
    ).scalar_one()
    connection.execute(
        insert(event_players),
        [
            {
                "event_id": event_id,
                "start_number": player.number,
                "player_id": ids[player.number],
                "rating_in_file": player.rating,
            }
            for player in tournament.players
        ],
    )
    game_rows = [
        {
            "event_id": event_id,
            "round": game.round,
            "white_id": ids[game.white],
            "black_id": ids[game.black],
            "white_score": game.white_score,
            "black_score": game.black_score,
            "rated": game.counts_for_rating,
            "code": game.code[:10],
            "line": game.line,
        }
        for game in tournament.games
    ]
    if game_rows:
        connection.execute(insert(games), game_rows)
    if replaces is not None:
        connection.execute(update(events).where(events.c.id == replaces).values(replaced_by=event_id))
    return ImportedEvent(
        id=event_id,
        name=name,
        file_name=path.name,
        sha256=digest,
        start_date=start_date,
        end_date=end_date,
        period=str(Period.of(end_date)),
        players=len(tournament.players),
        new_players=new_players,
        games=len(game_rows),
        rated_games=sum(1 for game in tournament.games if game.counts_for_rating),
        warnings=tuple(problem.located() for problem in read.warnings),
        replaces=replaces,
    )


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


def _find_or_add_player(connection: Connection, player: Player) -> tuple[int, bool]:
    """The stored player this file's player is, and whether it was added now."""
    key = name_key(player.name)
    if player.fide_id:
        found = connection.execute(select(players).where(players.c.fide_id == player.fide_id)).first()
    else:
        found = connection.execute(
            select(players)
            .where(players.c.name_key == key, players.c.fide_id.is_(None))
            .order_by(players.c.id)
        ).first()
    details = {
        "birth_date": player.birth_date,
        "birth_year": player.birth_year or (player.birth_date.year if player.birth_date else None),
        "sex": (player.sex or "")[:1] or None,
        "federation": (player.federation or "")[:8] or None,
        "title": (player.title or "")[:8] or None,
    }
    if found is None:
        new_id = connection.execute(
            insert(players)
            .values(
                name=player.name[:200],
                name_key=key[:200],
                fide_id=player.fide_id or None,
                created_at=dt.datetime.now(dt.UTC).replace(tzinfo=None),
                **details,
            )
            .returning(players.c.id)
        ).scalar_one()
        return int(new_id), True
    # Fill in what the store did not know yet; never overwrite what it knows.
    missing = {
        field: value
        for field, value in details.items()
        if value is not None and found._mapping[field] is None
    }
    if missing:
        connection.execute(update(players).where(players.c.id == found.id).values(**missing))
    return int(found.id), False
