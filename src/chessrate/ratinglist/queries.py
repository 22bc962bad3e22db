"""Reading the store: a period's list, a player's history with the games behind each change, an
event, the list of events. What the CLI and web pages show; nothing here writes.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.engine import Connection, Row

from chessrate.errors import InvalidInputError
from chessrate.identity import PlayerIdentity, identity_fields
from chessrate.parse import is_digits
from chessrate.ratinglist.facts import Working
from chessrate.ratinglist.fide_import import fide_ratings_of
from chessrate.ratinglist.loading import FETCH, working
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.schema import (
    event_players,
    events,
    game_workings,
    list_entries,
    list_versions,
    players,
)
from chessrate.ratinglist.statuses import ListStatus
from chessrate.ratinglist.store import StoreError
from chessrate.ratinglist.workings import rated_workings


@dataclass(frozen=True, kw_only=True)
class ListRow(PlayerIdentity):
    rank: int | None
    player_id: int
    status: str
    rating_before: int | None
    rating: int | None
    change: int | None
    adjustment: int | None
    k: int | None
    games: int
    deviation: float | None
    note: str | None


@dataclass(frozen=True, kw_only=True)
class ListView:
    period: str
    list_date: dt.date
    status: str
    revision: int
    rules: str
    rules_title: str
    #: A tuple, or read as used (:func:`streamed_list`).
    rows: Iterable[ListRow]


@dataclass(frozen=True, kw_only=True)
class GameLine(Working):
    """A game behind a list line, with its figures, and the event's and the opponent's names."""

    event: str
    opponent: str


@dataclass(frozen=True, kw_only=True)
class HistoryLine:
    period: str
    list_date: dt.date
    status: str
    rating_before: int | None
    rating: int | None
    k: int | None
    k_reason: str | None
    games: int
    score: Decimal | None
    expected: Decimal | None
    change: Decimal | None
    rounded_change: int | None
    adjustment: int | None
    deviation: float | None
    note: str | None
    game_lines: tuple[GameLine, ...]


@dataclass(frozen=True, kw_only=True)
class PlayerView(PlayerIdentity):
    id: int
    history: tuple[HistoryLine, ...]
    #: The player's lines of the FIDE lists imported (``list import-fide``), newest month first.
    fide_lines: tuple[FideLine, ...] = ()


@dataclass(frozen=True, kw_only=True)
class FideLine:
    """A player's line of one FIDE list imported: FIDE's rating, games and K of that month."""

    list_type: str
    month: dt.date
    file_name: str
    rating: int | None
    games: int | None
    k: int | None
    flag: str


@dataclass(frozen=True, kw_only=True)
class EventLine:
    id: int
    name: str
    file_name: str
    source_format: str
    start_date: dt.date
    end_date: dt.date
    period: str
    players: int
    replaced_by: int | None
    sha256: str


@dataclass(frozen=True, kw_only=True)
class EventView:
    event: EventLine
    #: Each player's rating change in the event, from the published list of its period.
    results: tuple[
        tuple[int, str, Decimal | None, int, Decimal | None], ...
    ]  # id, name, start, games, change


def published_periods(connection: Connection) -> list[str]:
    rows = connection.execute(
        select(list_versions.c.period)
        .where(list_versions.c.status == ListStatus.PUBLISHED)
        .order_by(list_versions.c.period)
    )
    return list(rows.scalars())


def list_version(connection: Connection, period: str | None, *, draft: bool) -> tuple[str, Row[Any]]:
    if period is None:
        periods = published_periods(connection)
        if not periods:
            raise StoreError(
                "no list has been published yet: run 'chessrate list run PERIOD'", code="no-list"
            )
        period = periods[-1]
    else:
        period = str(Period.parse(period))
    status = ListStatus.DRAFT if draft else ListStatus.PUBLISHED
    row = connection.execute(
        select(list_versions).where(list_versions.c.period == period, list_versions.c.status == status)
    ).first()
    if row is None:
        raise StoreError(
            f"period {period} has no {status} list",
            code="period-no-list",
            params={"period": period, "status": str(status)},
        )
    return period, row


def list_view(engine: Engine, period: str | None = None, *, draft: bool = False) -> ListView:
    """A period's list (the latest published one when no period is given), best rating first."""
    with streamed_list(engine, period, draft=draft) as view:
        return dataclasses.replace(view, rows=tuple(view.rows))


@contextmanager
def streamed_list(engine: Engine, period: str | None = None, *, draft: bool = False) -> Iterator[ListView]:
    """:func:`list_view` whose rows are read from the database as they are used (once, inside the
    ``with``): a list of any length in bounded memory."""
    with engine.connect() as connection:
        period, version = list_version(connection, period, draft=draft)
        rows = connection.execution_options(yield_per=FETCH).execute(
            select(list_entries, players)
            .join(players, players.c.id == list_entries.c.player_id)
            .where(list_entries.c.version_id == version.id)
            .order_by(list_entries.c.rating.desc().nulls_last(), players.c.name)
        )
        yield ListView(
            period=period,
            list_date=Period.parse(period).list_date,
            status=version.status,
            revision=version.revision,
            rules=version.rules,
            rules_title=version.rules_title,
            rows=ranked_rows(rows),
        )


def ranked_rows(rows: Iterable[Row[Any]]) -> Iterator[ListRow]:
    rank = 0
    for row in rows:
        if row.rating is not None:
            rank += 1
        yield ListRow(
            rank=rank if row.rating is not None else None,
            player_id=row.player_id,
            **identity_fields(row),
            status=row.status,
            rating_before=row.rating_before,
            rating=row.rating,
            change=(row.rating - row.rating_before)
            if row.rating is not None and row.rating_before is not None
            else None,
            adjustment=row.adjustment,
            k=row.k,
            games=row.games,
            deviation=row.deviation,
            note=row.note,
        )


#: Longest id looked up: ids are 64-bit integers in the store (SQLite and PostgreSQL BIGINT).
MAX_ID_DIGITS = 15


def find_player(connection: Connection, reference: str) -> int:
    """A player by FIDE id, else by store id."""
    text = reference.strip()
    if not is_digits(text) or len(text) > MAX_ID_DIGITS:
        raise InvalidInputError(
            "player", reference[:30], "give the player's FIDE id or store id (a number of up to 15 digits)"
        )
    number = int(text)
    found = connection.execute(select(players.c.id).where(players.c.fide_id == number)).scalar()
    if found is None:
        found = connection.execute(select(players.c.id).where(players.c.id == number)).scalar()
    if found is None:
        raise InvalidInputError("player", reference, "no player has this FIDE id or store id")
    return int(found)


def player_view(engine: Engine, reference: str) -> PlayerView:
    """A player and every published list they are on, with the games behind each line."""
    with engine.connect() as connection:
        player_id = find_player(connection, reference)
        player = connection.execute(select(players).where(players.c.id == player_id)).one()
        fide_lines = tuple(FideLine(**line) for line in fide_ratings_of(connection, player_id))
        rows = connection.execute(
            select(list_entries, list_versions.c.period, list_versions.c.rules)
            .join(list_versions, list_versions.c.id == list_entries.c.version_id)
            .where(list_entries.c.player_id == player_id, list_versions.c.status == ListStatus.PUBLISHED)
            .order_by(list_versions.c.period)
        ).all()
        stored = connection.execute(
            select(game_workings)
            .join(list_versions, list_versions.c.id == game_workings.c.version_id)
            .where(game_workings.c.player_id == player_id, list_versions.c.status == ListStatus.PUBLISHED)
            .order_by(game_workings.c.id)
        ).all()
        by_version: dict[int, list[Working]] = {}
        for row in stored:
            by_version.setdefault(row.version_id, []).append(working(row))
        for row in rows:
            if row.k is not None and row.version_id not in by_version:  # an Elo line: recomputed
                period = Period.parse(row.period)
                by_version[row.version_id] = rated_workings(connection, period, row.rules, [player_id])
        game_lines = {
            version_id: _game_lines(connection, workings) for version_id, workings in by_version.items()
        }
    history = tuple(
        HistoryLine(
            period=row.period,
            list_date=Period.parse(row.period).list_date,
            status=row.status,
            rating_before=row.rating_before,
            rating=row.rating,
            k=row.k,
            k_reason=row.k_reason,
            games=row.games,
            score=row.score,
            expected=row.expected,
            change=row.change,
            rounded_change=row.rounded_change,
            adjustment=row.adjustment,
            deviation=row.deviation,
            note=row.note,
            game_lines=game_lines.get(row.version_id, ()),
        )
        for row in rows
    )
    return PlayerView(
        id=player.id,
        **identity_fields(player),
        history=history,
        fide_lines=fide_lines,
    )


def event_lines(engine: Engine) -> tuple[EventLine, ...]:
    """Every imported event, oldest first."""
    with engine.connect() as connection:
        counts = (
            select(event_players.c.event_id, func.count().label("players"))
            .group_by(event_players.c.event_id)
            .subquery()
        )
        rows = connection.execute(
            select(events, counts.c.players)
            .join(counts, counts.c.event_id == events.c.id)
            .order_by(events.c.start_date, events.c.id)
        ).all()
    return tuple(_event_line(row) for row in rows)


def _event_line(row: Row[Any]) -> EventLine:
    r = row._mapping
    return EventLine(
        id=r["id"],
        name=r["name"],
        file_name=r["file_name"],
        source_format=r["source_format"],
        start_date=r["start_date"],
        end_date=r["end_date"],
        period=r["period"],
        players=r["players"],
        replaced_by=r["replaced_by"],
        sha256=r["file_sha256"],
    )


def event_view(engine: Engine, event_id: int) -> EventView:
    """An event and each player's change in it on the published list of its period."""
    lines = {line.id: line for line in event_lines(engine)}
    if event_id not in lines:
        raise InvalidInputError("event", event_id, "no event has this id")
    with engine.connect() as connection:
        version = connection.execute(
            select(list_versions).where(
                list_versions.c.period == lines[event_id].period,
                list_versions.c.status == ListStatus.PUBLISHED,
            )
        ).first()
        event_workings: list[Working] = []
        if version is not None:
            stored = connection.execute(
                select(game_workings)
                .where(game_workings.c.version_id == version.id, game_workings.c.event_id == event_id)
                .order_by(game_workings.c.id)
            ).all()
            entrants = connection.execute(
                select(event_players.c.player_id).where(event_players.c.event_id == event_id)
            ).scalars()
            recomputed = rated_workings(
                connection, Period.parse(version.period), version.rules, list(entrants)
            )
            event_workings = [working(row) for row in stored]
            event_workings += [w for w in recomputed if w.event_id == event_id]
        names = _names(connection, {w.player_id for w in event_workings})
    results: dict[int, tuple[int, str, Decimal | None, int, Decimal | None]] = {}
    for line in sorted(event_workings, key=lambda w: names[w.player_id]):
        _, name, own, count, total = results.get(
            line.player_id, (line.player_id, names[line.player_id], line.own_rating, 0, None)
        )
        if line.change is not None:
            total = (total or Decimal(0)) + line.change
        results[line.player_id] = (line.player_id, name, own, count + 1, total)
    return EventView(event=lines[event_id], results=tuple(results.values()))


def _names(connection: Connection, player_ids: set[int]) -> dict[int, str]:
    rows = connection.execute(select(players.c.id, players.c.name).where(players.c.id.in_(player_ids)))
    return {row.id: row.name for row in rows}


#: The figures of a game behind a list line, as the store keeps them.
WORKING_FIELDS = tuple(Working.__dataclass_fields__)


def _game_lines(connection: Connection, workings: list[Working]) -> tuple[GameLine, ...]:
    """The games of a list line, with the event's and the opponent's names."""
    names = _names(connection, {w.opponent_id for w in workings})
    event_ids = {w.event_id for w in workings}
    rows = connection.execute(select(events.c.id, events.c.name).where(events.c.id.in_(event_ids)))
    event_names = {row.id: row.name for row in rows}
    return tuple(
        GameLine(
            **{name: getattr(w, name) for name in WORKING_FIELDS},
            event=event_names[w.event_id],
            opponent=names[w.opponent_id],
        )
        for w in workings
    )
