"""Loading the facts a period is computed from: its events and games, and the history of the lists
before it, for every player or for the players a page shows.

Games are read through the driver's cursor as plain tuples, a chunk at a time (no per-row
SQLAlchemy processing); each score text becomes one shared :class:`~decimal.Decimal`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping
from decimal import Decimal
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import and_, func, select
from sqlalchemy.engine import Connection, Row

from chessrate.ratinglist.facts import Entry, EventFacts, GameFacts, History, PeriodGames, Working
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.schema import (
    event_players,
    events,
    game_workings,
    list_entries,
    list_versions,
    players,
)
from chessrate.ratinglist.statuses import EntryStatus, ListStatus

#: Rows fetched from the driver at a time.
FETCH = 50_000


def published_versions(connection: Connection) -> dict[Period, Row[Any]]:
    """The published list of each period."""
    rows = connection.execute(select(list_versions).where(list_versions.c.status == ListStatus.PUBLISHED))
    return {Period.parse(row.period): row for row in rows}


def load_history(
    connection: Connection,
    *,
    before: Period,
    published: Mapping[Period, Row[Any]],
    only: Collection[int] | None = None,
) -> History:
    """The published lists before ``before``, as the computation of ``before`` needs them; ``only``:
    for these players alone (a page's players and their opponents)."""

    def mine(column: Any) -> Any:
        return True if only is None else column.in_(only)

    earliest = (
        select(
            event_players.c.player_id,
            event_players.c.event_id,
            event_players.c.rating_in_file,
            func.row_number()
            .over(partition_by=event_players.c.player_id, order_by=(events.c.start_date, events.c.id))
            .label("rank"),
        )
        .join(events, events.c.id == event_players.c.event_id)
        .where(events.c.replaced_by.is_(None), mine(event_players.c.player_id))
        .subquery()
    )
    first_rows = connection.execute(select(earliest).where(earliest.c.rank == 1)).all()
    birth_years = select(players.c.id, players.c.birth_year).where(mine(players.c.id))
    history = History(
        entry_ratings={row.player_id: row.rating_in_file for row in first_rows},
        first_events={row.player_id: row.event_id for row in first_rows},
        birth_years={row.id: row.birth_year for row in connection.execute(birth_years)},
    )
    versions = sorted((period, row.id) for period, row in published.items() if period < before)
    for period, version_id in versions:
        entries = {
            row.player_id: _entry(row)
            for row in connection.execute(
                select(list_entries).where(
                    list_entries.c.version_id == version_id, mine(list_entries.c.player_id)
                )
            )
        }
        pending = connection.execute(
            select(game_workings)
            .join(
                list_entries,
                and_(
                    list_entries.c.version_id == game_workings.c.version_id,
                    list_entries.c.player_id == game_workings.c.player_id,
                ),
            )
            .where(
                game_workings.c.version_id == version_id,
                list_entries.c.status == EntryStatus.PENDING,
                mine(game_workings.c.player_id),
            )
            .order_by(game_workings.c.id)
        )
        history.add(period, entries, [working(row) for row in pending])
    return history


def _entry(row: Row[Any]) -> Entry:
    mapping = row._mapping
    fields = {name: mapping[name] for name in Entry.__dataclass_fields__}
    return Entry(**{**fields, "status": EntryStatus(fields["status"])})


def working(row: Row[Any]) -> Working:
    """A stored working row as the computation writes it."""
    mapping = row._mapping
    return Working(**{name: mapping[name] for name in Working.__dataclass_fields__})


def load_events(
    connection: Connection, period: Period, *, only: Collection[int] | None = None, games: bool = True
) -> list[EventFacts]:
    """The events rated in ``period`` (not replaced), with their players and games; ``only``: these
    events alone; ``games=False``: without their games."""
    query = select(events).where(events.c.period == str(period), events.c.replaced_by.is_(None))
    if only is not None:
        query = query.where(events.c.id.in_(only))
    rows = connection.execute(query.order_by(events.c.id)).all()
    if not rows:
        return []
    chosen = "" if only is None else f" AND e.id IN ({', '.join(str(row.id) for row in rows)})"
    entrants: dict[int, dict[int, int | None]] = defaultdict(dict)
    for event_id, player_id, rating in _tuples(
        connection,
        "SELECT ep.event_id, ep.player_id, ep.rating_in_file FROM event_players ep "
        "JOIN events e ON e.id = ep.event_id WHERE e.period = {p} AND e.replaced_by IS NULL" + chosen,
        str(period),
    ):
        entrants[event_id][player_id] = rating
    by_event: dict[int, list[GameFacts]] = defaultdict(list)
    scores: dict[str | None, Decimal | None] = {None: None}
    for game_id, event_id, white, black, white_text, black_text, rated in (
        _tuples(
            connection,
            "SELECT g.id, g.event_id, g.white_id, g.black_id, g.white_score, g.black_score, g.rated "
            "FROM games g JOIN events e ON e.id = g.event_id "
            "WHERE e.period = {p} AND e.replaced_by IS NULL" + chosen + " ORDER BY g.id",
            str(period),
        )
        if games
        else ()
    ):
        if white_text not in scores:
            scores[white_text] = Decimal(white_text)
        if black_text not in scores:
            scores[black_text] = Decimal(black_text)
        by_event[event_id].append(
            GameFacts(
                id=game_id,
                white=white,
                black=black,
                white_score=scores[white_text],
                black_score=scores[black_text],
                rated=bool(rated),
            )
        )
    return [
        EventFacts(
            id=row.id,
            name=row.name,
            start_date=row.start_date,
            end_date=row.end_date,
            ratings_in_file=entrants[row.id],
            games=tuple(by_event[row.id]),
        )
        for row in rows
    ]


def load_games(connection: Connection, period: Period) -> PeriodGames:
    """The events rated in ``period`` (not replaced) and their games as columns, read from the
    driver's cursor a chunk at a time (no object per game kept)."""
    headers = load_events(connection, period, games=False)
    scores: dict[str | None, int] = {None: -1}
    kinds = (np.int64, np.int64, np.int64, np.int64, np.int8, np.int8, np.bool_)
    parts: list[list[NDArray[Any]]] = [[] for _ in kinds]
    for chunk in _chunks(
        connection,
        "SELECT g.id, g.event_id, g.white_id, g.black_id, g.white_score, g.black_score, g.rated "
        "FROM games g JOIN events e ON e.id = g.event_id "
        "WHERE e.period = {p} AND e.replaced_by IS NULL",
        str(period),
    ):
        columns: list[Any] = list(zip(*chunk, strict=True))
        for place in (4, 5):  # a score's text becomes its index in ``scores``
            columns[place] = [scores.setdefault(text, len(scores) - 1) for text in columns[place]]
        for part, column, kind in zip(parts, columns, kinds, strict=True):
            part.append(np.array(column, dtype=kind))
    joined = [
        np.concatenate(part) if part else np.zeros(0, dtype=kind)
        for part, kind in zip(parts, kinds, strict=True)
    ]
    order = np.argsort(joined[0])  # in game id order (numpy's sort, not SQL's)
    game_id, event_id, white, black, white_score, black_score, rated = (column[order] for column in joined)
    return PeriodGames(
        events=tuple(headers),
        game_id=game_id,
        event_id=event_id,
        white=white,
        black=black,
        white_score=white_score,
        black_score=black_score,
        rated=rated,
        scores=tuple(Decimal(text) for text in scores if text is not None),
    )


def _chunks(connection: Connection, sql: str, period: str) -> Any:
    """The rows of ``sql`` (with ``{p}`` for the period) as the driver gives them, in chunks."""
    marker = "%s" if connection.dialect.paramstyle in ("format", "pyformat") else "?"
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(sql.format(p=marker), (period,))
        while chunk := cursor.fetchmany(FETCH):
            yield chunk
    finally:
        cursor.close()


def _tuples(connection: Connection, sql: str, period: str) -> Any:
    """The rows of ``sql`` (with ``{p}`` for the period) as the driver gives them, a chunk at a time."""
    marker = "%s" if connection.dialect.paramstyle in ("format", "pyformat") else "?"
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(sql.format(p=marker), (period,))
        while chunk := cursor.fetchmany(FETCH):
            yield from chunk
    finally:
        cursor.close()
