"""One page of a period's list: what the web's list page shows, at a cost that does not grow with
the list in its default order.

- By rating (the list's own order: rating, best first, then name, the unrated last), unfiltered:
  the page's rows only, ``LIMIT``/``OFFSET`` in that order; a rated row's rank is its place in it
  (:func:`.queries.streamed_list` numbers the rated rows alike). The rows before the page are
  skipped in the index of ``list_entries (version_id, rating)`` (migration 0012): the first page
  of a 250 000-player list reads 100 rows.
- By name, change or games, or searched by name or FIDE id: a few columns of every row, ranked,
  filtered and sorted here (the orders of :func:`sort_key`), then the page's rows read whole.

A page number outside the pages is the nearest page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.engine import Connection

from chessrate.ratinglist.queries import ListRow, ListView, list_version, ranked_rows
from chessrate.ratinglist.schema import list_entries, players

#: Rows a page.
PAGE_ROWS = 100
SORTS = ("rating", "name", "change", "games")


@dataclass(frozen=True, kw_only=True)
class ListPage:
    """A page of a list: ``view.rows`` are the page's rows; ``count`` the rows of every page."""

    view: ListView
    page: int
    pages: int
    count: int


def sort_key(sort: str) -> Any:
    """The order of a list's rows by ``sort`` (``rating``: the list's own, names without case)."""

    def key(row: ListRow) -> tuple[Any, ...]:
        if sort == "name":
            return (row.name.casefold(),)
        if sort == "change":
            return (-(row.change or 0), row.name.casefold())
        if sort == "games":
            return (-row.games, row.name.casefold())
        return (row.rating is None, -(row.rating or 0), row.name.casefold())

    return key


def list_page(
    engine: Engine,
    period: str | None,
    *,
    sort: str = "rating",
    query: str = "",
    unrated: bool = False,
    page: int = 1,
    rows: int | None = None,
) -> ListPage:
    """Page ``page`` of the period's published list (the latest when ``period`` is None), of
    ``rows`` rows (:data:`PAGE_ROWS`)."""
    sort = sort if sort in SORTS else "rating"
    rows = rows or PAGE_ROWS
    with engine.connect() as connection:
        period, version = list_version(connection, period, draft=False)
        head = ListView(
            period=period,
            list_date=_list_date(period),
            status=version.status,
            revision=version.revision,
            rules=version.rules,
            rules_title=version.rules_title,
            rows=(),
        )
        needle = query.strip().casefold()
        if sort == "rating" and not needle:
            return _in_list_order(connection, head, version.id, unrated=unrated, page=page, rows=rows)
        return _sorted(
            connection, head, version.id, sort=sort, needle=needle, unrated=unrated, page=page, rows=rows
        )


def _list_date(period: str) -> Any:
    from chessrate.ratinglist.periods import Period

    return Period.parse(period).list_date


def _pages(count: int, page: int, rows: int) -> tuple[int, int]:
    pages = max(1, -(-count // rows))
    return min(max(page, 1), pages), pages


def _entries(version_id: int) -> Any:
    return (
        select(list_entries, players)
        .join(players, players.c.id == list_entries.c.player_id)
        .where(list_entries.c.version_id == version_id)
    )


def _in_list_order(
    connection: Connection, head: ListView, version_id: int, *, unrated: bool, page: int, rows: int
) -> ListPage:
    counted = select(func.count()).select_from(list_entries).where(list_entries.c.version_id == version_id)
    rated = int(connection.execute(counted.where(list_entries.c.rating.is_not(None))).scalar_one())
    count = int(connection.execute(counted).scalar_one()) if unrated else rated
    page, pages = _pages(count, page, rows)
    offset = (page - 1) * rows
    statement = _entries(version_id)
    if not unrated:
        statement = statement.where(list_entries.c.rating.is_not(None))
    found = connection.execute(
        statement.order_by(list_entries.c.rating.desc().nulls_last(), players.c.name)
        .limit(rows)
        .offset(offset)
    )
    # The rated rows come first: the row at ``offset`` is rated ``offset``-th, if it is rated.
    shown = [
        dataclasses.replace(row, rank=offset + number) if row.rank is not None else row
        for number, row in enumerate(ranked_rows(found), start=1)
    ]
    return ListPage(view=dataclasses.replace(head, rows=tuple(shown)), page=page, pages=pages, count=count)


def _sorted(
    connection: Connection,
    head: ListView,
    version_id: int,
    *,
    sort: str,
    needle: str,
    unrated: bool,
    page: int,
    rows: int,
) -> ListPage:
    entries, rating = list_entries.c, list_entries.c.rating
    light = connection.execute(
        select(
            entries.player_id, rating, entries.rating_before, entries.games, players.c.name, players.c.fide_id
        )
        .join(players, players.c.id == entries.player_id)
        .where(entries.version_id == version_id)
        .order_by(rating.desc().nulls_last(), players.c.name)
    ).all()
    ranks: dict[int, int] = {}
    kept: list[_Light] = []
    for row in light:
        if row.rating is not None:
            ranks[row.player_id] = len(ranks) + 1
        elif not unrated:
            continue
        if needle and needle not in row.name.casefold() and needle != str(row.fide_id or ""):
            continue
        change = (
            row.rating - row.rating_before
            if row.rating is not None and row.rating_before is not None
            else None
        )
        kept.append(_Light(row.player_id, row.rating, row.name, change, row.games))
    if sort != "rating":  # else in the list's own order already
        kept.sort(key=sort_key(sort))
    page, pages = _pages(len(kept), page, rows)
    wanted = [light_row.player_id for light_row in kept[(page - 1) * rows : page * rows]]
    by_id = {row.player_id: row for row in ranked_rows(_whole(connection, version_id, wanted))}
    shown = [dataclasses.replace(by_id[player], rank=ranks.get(player)) for player in wanted]
    return ListPage(
        view=dataclasses.replace(head, rows=tuple(shown)), page=page, pages=pages, count=len(kept)
    )


@dataclass(frozen=True)
class _Light:
    """What a row is sorted by (the names of :class:`ListRow` that :func:`sort_key` reads)."""

    player_id: int
    rating: int | None
    name: str
    change: int | None
    games: int


def _whole(connection: Connection, version_id: int, player_ids: Sequence[int]) -> Any:
    if not player_ids:
        return []
    return connection.execute(_entries(version_id).where(list_entries.c.player_id.in_(list(player_ids))))


def has_games(engine: Engine, period: str) -> bool:
    """Whether anyone played in the period's published list (an empty month shows nothing new)."""
    with engine.connect() as connection:
        _, version = list_version(connection, period, draft=False)
        found = connection.execute(
            select(list_entries.c.player_id)
            .where(list_entries.c.version_id == version.id, list_entries.c.games > 0)
            .limit(1)
        ).first()
        return found is not None
