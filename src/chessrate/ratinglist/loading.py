"""Loading the facts a period is computed from: its events and games, and the history of the lists
before it, for every player or for the players a page shows.

A run reads a period's games and entrants, and every player's first event, as numpy columns
(:func:`.rows.int_columns`: one text aggregate per column, no object per row), each score as its
code among ``0``, ``0.5``, ``1``; a score stored as another text sends the games through the
driver's cursor instead, each text one shared :class:`~decimal.Decimal`. The pages read their
few events as rows (:func:`load_events`).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from decimal import Decimal
from typing import Any

import numpy as np
from sqlalchemy import (
    ColumnElement,
    Integer,
    Select,
    and_,
    case,
    cast,
    func,
    select,
    true,
)
from sqlalchemy.engine import Connection, Row

from chessrate.ratinglist.arrays import lexical_order, stable_order
from chessrate.ratinglist.facts import (
    CODED_FIELDS,
    FLOAT_FIELDS,
    NO_RATING,
    WHOLE_FIELDS,
    Coded,
    Entry,
    EntryColumns,
    EventFacts,
    GameFacts,
    History,
    PeriodEntrants,
    Working,
)
from chessrate.ratinglist.facts import NONE as WHOLE_NONE
from chessrate.ratinglist.initial import POOL_MONTHS
from chessrate.ratinglist.listed import NOT_LISTED, ListedColumns, ListedSummary
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.rows import int_columns
from chessrate.ratinglist.schema import (
    event_players,
    events,
    fide_lists,
    fide_ratings,
    game_workings,
    list_entries,
    list_summaries,
    list_versions,
    meta,
    players,
)
from chessrate.ratinglist.statuses import EntryStatus, ListStatus

#: Rows fetched from the driver at a time (games whose scores are read as texts).
FETCH = 50_000
#: A rating column's "none" (unrated in the file): ratings are 0 to 4000 (the schema checks it).
NONE = -1
#: A score's code in the columns read: its index in :data:`SCORES` (-1: none); a score stored as
#: another text (``1.0``, ``0.50``) is read as :data:`OTHER_TEXT`, and the games as texts instead.
SCORE_TEXTS = ("0", "0.5", "1")
SCORES = tuple(Decimal(text) for text in SCORE_TEXTS)
OTHER_TEXT = 4


def official_k(connection: Connection, *, day: dt.date, list_type: str = "standard") -> Mapping[int, int]:
    """Each stored player's K on the newest FIDE list imported (``list import-fide``) whose month
    starts on or before ``day``: the K of a player with no history in this list (docs/ratinglist.md)."""
    month = connection.execute(
        select(func.max(fide_lists.c.month)).where(
            fide_lists.c.list_type == list_type, fide_lists.c.month <= day
        )
    ).scalar()
    if month is None:
        return {}
    rows = connection.execute(
        select(fide_ratings.c.player_id, fide_ratings.c.k)
        .join(fide_lists, fide_lists.c.id == fide_ratings.c.fide_list_id)
        .where(
            fide_lists.c.list_type == list_type, fide_lists.c.month == month, fide_ratings.c.k.is_not(None)
        )
    )
    return {int(row.player_id): int(row.k) for row in rows}


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
    first_events: bool = True,
) -> History:
    """The published lists before ``before``, as the computation of ``before`` needs them; ``only``:
    for these players alone (a page's players and their opponents). ``first_events=False``: without
    each player's earliest event, to be read with :func:`load_first_events` for the players a
    period needs it of (:meth:`History.first_events_needed`)."""

    def mine(column: Any) -> Any:
        return True if only is None else column.in_(only)

    born, year, unknown = int_columns(
        connection,
        select(
            players.c.id.label("id"),
            func.coalesce(players.c.birth_year, 0).label("year"),
            case((players.c.birth_year.is_(None), 1), else_=0).label("unknown"),
        ).where(mine(players.c.id)),
    )
    earlier = sorted((period, row.id) for period, row in published.items() if period < before)
    keep = _lists_in_force(connection, before)
    every = [row.id for _, row in sorted(published.items())]
    listed, summary = _listed(connection, earlier, only, published=every)
    order = np.argsort(born, kind="stable")
    born_sorted = born[order]
    history = History(
        players=born_sorted,
        birth_years=dict(
            zip(
                born.tolist(),
                [None if u else y for y, u in zip(year.tolist(), unknown.tolist(), strict=True)],
                strict=True,
            )
        ),
        keep=keep,
        listed=listed.listed(),
        summarized={period for period, _ in earlier},
        summary=summary,
    )
    history.given_columns(listed, (born_sorted, np.where(unknown == 1, WHOLE_NONE, year)[order]))
    if first_events:
        load_first_events(connection, history, only=only)
    # In full: the latest list and those in force at the start of an event still to rate.
    pooled_from = before.minus_months(POOL_MONTHS - 1)
    for period, version_id in earlier:
        if period == earlier[-1][0] or period in keep:
            history.lists[period] = _entries(
                connection,
                select(*(list_entries.c[name] for name in ENTRY_FIELDS)).where(
                    list_entries.c.version_id == version_id, mine(list_entries.c.player_id)
                ),
            )
        if period < pooled_from:  # no first rating pools games older than 26 months (B.02 7.1.4)
            continue
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
        by_player: dict[int, list[Working]] = defaultdict(list)
        for row in pending:
            by_player[row.player_id].append(working(row))
        history.pending_games[period] = {key: tuple(value) for key, value in by_player.items()}
    return history


def load_first_events(
    connection: Connection,
    history: History,
    *,
    only: Collection[int] | None,
    entrants: tuple[Period, PeriodEntrants] | None = None,
) -> None:
    """Each player's earliest event (by start date, then id; events not replaced) and the rating
    its file gives, into ``history``; ``only``: of these players alone. ``entrants``: a period and
    its entrants, already read: only the other periods' entrants are read. The events are ranked,
    and each player's lowest rank found, with numpy."""
    rated = events.c.replaced_by.is_(None)
    other = rated if entrants is None else and_(rated, events.c.period != str(entrants[0]))
    if only is None or len(only):
        player, event_id, rating = int_columns(
            connection,
            select(
                event_players.c.player_id.label("player"),
                event_players.c.event_id.label("event_id"),
                func.coalesce(event_players.c.rating_in_file, NONE).label("rating"),
            )
            .join(events, events.c.id == event_players.c.event_id)
            .where(other, _among(event_players.c.player_id, only)),
        )
    else:
        player = event_id = rating = np.zeros(0, dtype=np.int64)
    if entrants is not None:
        known = entrants[1]
        mine = slice(None) if only is None else np.isin(known.entrant_player, np.fromiter(only, np.int64))
        player = np.concatenate([player, known.entrant_player[mine]])
        event_id = np.concatenate([event_id, known.entrant_event[mine]])
        rating = np.concatenate([rating, known.entrant_rating[mine]])
    # Every event ranked by start date, then id.
    dated = connection.execute(select(events.c.id, events.c.start_date).where(rated)).all()
    ids = np.array([row.id for row in dated], dtype=np.int64)
    days = np.array([row.start_date.toordinal() for row in dated], dtype=np.int64)
    by_id = stable_order(ids)
    rank_of_id = np.empty(len(ids), dtype=np.int64)
    rank_of_id[lexical_order(ids, days)] = np.arange(len(ids))
    rank = rank_of_id[by_id[np.searchsorted(ids, event_id, sorter=by_id)]] if len(ids) else event_id
    order = lexical_order(rank, player)
    first = order[np.diff(player[order], prepend=-1) != 0]
    history.entry_ratings = dict(
        zip(player[first].tolist(), [None if r == NONE else r for r in rating[first].tolist()], strict=True)
    )
    history.first_events = dict(zip(player[first].tolist(), event_id[first].tolist(), strict=True))
    history.given_entry_ratings(player[first], np.where(rating[first] == NONE, NO_RATING, rating[first]))


def _lists_in_force(connection: Connection, before: Period) -> dict[Period, Period]:
    """The lists in force at the start of an event rated in ``before`` or later (the list before the
    month it starts in), each with the last period rating such an event."""
    needed: dict[Period, Period] = {}
    for period, start_date in connection.execute(
        select(events.c.period, events.c.start_date)
        .distinct()
        .where(events.c.period >= str(before), events.c.replaced_by.is_(None))
    ):
        listed, rated_in = Period.of(start_date).previous(), Period.parse(period)
        needed[listed] = max(needed.get(listed, rated_in), rated_in)
    return needed


#: The ``meta`` key naming the lists ``list_summaries`` sums: their version ids, comma-separated.
SUMMARY = "summary"


def _listed(
    connection: Connection,
    versions: Sequence[tuple[Period, int]],
    only: Collection[int] | None,
    *,
    published: Sequence[int],
) -> tuple[ListedColumns, ListedSummary | None]:
    """Each player's lines on the lists ``versions`` (period, version id; every published list
    before a period, oldest first) summed up, and that sum as the store should keep it. The stored
    sum (``list_summaries``) is read when the lists it sums are the first of ``versions``; the
    lists after them are summed here and added (:meth:`ListedColumns.merged`). Otherwise, as when
    a past period was republished, every list is summed again. The sum is to be kept when it sums
    more lists than the stored one or that one no longer sums the first of the ``published`` lists
    (every published list, oldest first): a draft re-run of a past period does not shorten it."""
    ids = tuple(version_id for _, version_id in versions)
    stored = _summarized(connection)
    parts = []
    rest = versions
    if stored and ids[: len(stored)] == stored:
        parts.append(_stored_summary(connection, only))
        rest = versions[len(stored) :]
    if rest or not parts:
        parts.append(_summed(connection, rest, only))
    columns = ListedColumns.merged(parts)
    still = tuple(published[: len(stored)]) == stored
    keep = only is None and ids != stored and (len(ids) > len(stored) or not still)
    return columns, ListedSummary(columns, ids) if keep else None


def _stored_summary(connection: Connection, only: Collection[int] | None) -> ListedColumns:
    """The sums ``list_summaries`` keeps, as columns."""
    player = list_summaries.c.player_id
    return ListedColumns(
        *int_columns(
            connection,
            select(
                player.label("player"),
                (
                    _month_of(list_summaries.c.first_period) * 2
                    + case((list_summaries.c.entered, 1), else_=0)
                ).label("first"),
                list_summaries.c.games.label("games"),
                func.coalesce(list_summaries.c.highest, NOT_LISTED).label("highest"),
                func.coalesce(_month_of(list_summaries.c.active_period), NOT_LISTED).label("active"),
            ).where(_among(player, only)),
        )
    )


def summary_is_sound(connection: Connection) -> bool:
    """Whether ``list_summaries`` holds the lists ``meta`` names summed again from their lines."""
    stored = _summarized(connection)
    rows = connection.execute(
        select(list_versions.c.id, list_versions.c.period).where(list_versions.c.id.in_(stored))
    )
    periods = {version_id: Period.parse(period) for version_id, period in rows}
    if set(periods) != set(stored):
        return False
    again = ListedColumns.merged(
        [_summed(connection, [(periods[version_id], version_id) for version_id in stored], None)]
    )  # in player order, as the kept sums
    kept = ListedColumns.merged([_stored_summary(connection, None)])
    return all(np.array_equal(ours, theirs) for ours, theirs in zip(kept, again, strict=True))


def _among(column: Any, only: Collection[int] | None) -> ColumnElement[bool]:
    """``column`` is one of ``only`` (None: any)."""
    return true() if only is None else column.in_(only)


def _summarized(connection: Connection) -> tuple[int, ...]:
    """The lists ``list_summaries`` sums (version ids, oldest period first; none: empty)."""
    text = connection.execute(select(meta.c.value).where(meta.c.key == SUMMARY)).scalar()
    return tuple(int(part) for part in text.split(",")) if text else ()


def _month_of(period: Any) -> Any:
    """A period written ``YYYY-MM`` as its month number (:attr:`.Period.month_number`), in SQL (NULL
    stays NULL)."""
    year = cast(func.substr(period, 1, 4), Integer)
    month = cast(func.substr(period, 6, 2), Integer)
    return year * 12 + month - 1


def _summed(
    connection: Connection, versions: Sequence[tuple[Period, int]], only: Collection[int] | None
) -> ListedColumns:
    """Each player's lines on the lists ``versions`` summed up, in one aggregate query: a list's
    period as a month number, first and last found with ``min`` and ``max`` (a player has one line
    a list)."""
    if not versions:
        return ListedColumns(*(np.zeros(0, dtype=np.int64) for _ in ListedColumns._fields))
    month = case(
        {version_id: period.month_number for period, version_id in versions}, value=list_entries.c.version_id
    )
    entered = case((list_entries.c.status == EntryStatus.ENTERED.value, 1), else_=0)
    player = list_entries.c.player_id
    return ListedColumns(
        *int_columns(
            connection,
            select(
                player.label("player"),
                func.min(month * 2 + entered).label("first"),
                func.sum(list_entries.c.games).label("games"),
                func.max(func.coalesce(list_entries.c.rating, NOT_LISTED)).label("highest"),
                func.max(
                    case((list_entries.c.status != EntryStatus.PENDING.value, month), else_=NOT_LISTED)
                ).label("active"),
            )
            .where(
                list_entries.c.version_id.in_([version_id for _, version_id in versions]),
                _among(player, only),
            )
            .group_by(player),
        )
    )


ENTRY_FIELDS = tuple(Entry.__dataclass_fields__)


def _entries(connection: Connection, query: Select[Any]) -> EntryColumns:
    """A list's lines (``query`` selects :data:`ENTRY_FIELDS`) as columns, read as the driver gives
    the rows, in one pass: no :class:`Entry` a line. Each status and each decimal text is made
    into its object once (a list of 10^5 players repeats a few thousand texts); a whole number
    column's NULL is :data:`facts.NONE`, a float's NaN."""
    sql = str(query.compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True}))
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(sql)
        rows = cursor.fetchall()
    finally:
        cursor.close()
    columns: list[Sequence[Any]] = list(zip(*rows, strict=True)) if rows else [()] * len(ENTRY_FIELDS)
    del rows
    by_name = dict(zip(ENTRY_FIELDS, columns, strict=True))
    statuses = {status.value: status for status in EntryStatus}
    convert: dict[str, Callable[[str], object]] = {
        "status": statuses.__getitem__,
        "k_reason": str,
        "note": str,
    }
    return EntryColumns(
        player_id=np.array(by_name["player_id"], dtype=np.int64),
        whole={
            name: np.array(
                [WHOLE_NONE if value is None else value for value in by_name[name]], dtype=np.int64
            )
            for name in WHOLE_FIELDS
        },
        floats={
            name: np.array([np.nan if value is None else value for value in by_name[name]], dtype=np.float64)
            for name in FLOAT_FIELDS
        },
        coded={name: _coded(by_name[name], convert.get(name, Decimal)) for name in CODED_FIELDS},
    )


def _coded(texts: Sequence[str | None], convert: Callable[[str], object]) -> Coded:
    """A column of stored texts by its distinct values, each converted once (by text: ``1`` and
    ``1.0`` are two values)."""
    # The distinct texts in the order first met, then each text's code by one lookup a line.
    index = {text: code for code, text in enumerate(dict.fromkeys(texts))}
    codes = np.fromiter(map(index.__getitem__, texts), dtype=np.int64, count=len(texts))
    return Coded(codes, tuple(None if text is None else convert(text) for text in index))


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
    return [EventFacts.of(row, entrants[row.id], by_event[row.id]) for row in rows]


def fetched_chunks(connection: Connection, sql: str, period: str) -> Any:
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
    """The rows of ``sql`` (with ``{p}`` for the period) as the driver gives them, one at a time."""
    for chunk in fetched_chunks(connection, sql, period):
        yield from chunk
