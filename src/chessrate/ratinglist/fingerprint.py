"""The same event imported twice, whatever its file's bytes: the same games on the same days.

A tournament saved again (CRLF line ends, another encoding, bytes appended, tags reordered) has
new bytes but the same games. Its fingerprint is made of what is rated: the event's first and
last days and each game's round, players (as stored, after matching by FIDE id or name) and
result, sorted. An import whose fingerprint is that of a stored event still rated is refused.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection, Row

from chessrate.ratinglist.schema import events, games

#: A game as the fingerprint sees it: round, white's and black's stored ids, their scores.
GameKey = tuple[int | None, int, int, Decimal | None, Decimal | None]


def fingerprint(start: dt.date, end: dt.date, keys: Iterable[GameKey]) -> str:
    """The sha256 of the event's days and its games, in a fixed order and notation."""

    def score(value: Decimal | None) -> str:
        return "" if value is None else format(Decimal(value).normalize(), "f")

    lines = sorted(
        f"{'' if rnd is None else rnd}|{white}|{black}|{score(ws)}|{score(bs)}"
        for rnd, white, black, ws, bs in keys
    )
    text = "\n".join([start.isoformat(), end.isoformat(), *lines])
    return hashlib.sha256(text.encode()).hexdigest()


def earlier_import(
    connection: Connection, *, start: dt.date, end: dt.date, keys: list[GameKey]
) -> Row[Any, Any, Any] | None:
    """The stored event (still rated) with the same fingerprint; None if there is none.

    An event without games is never a duplicate: it rates nothing.
    """
    if not keys:
        return None
    wanted = fingerprint(start, end, keys)
    candidates = connection.execute(
        select(events.c.id, events.c.name, events.c.file_name).where(
            events.c.start_date == start, events.c.end_date == end, events.c.replaced_by.is_(None)
        )
    ).all()
    for candidate in candidates:
        stored = connection.execute(
            select(
                games.c.round, games.c.white_id, games.c.black_id, games.c.white_score, games.c.black_score
            ).where(games.c.event_id == candidate.id)
        ).all()
        if len(stored) == len(keys) and fingerprint(start, end, (tuple(row) for row in stored)) == wanted:
            return candidate
    return None
