"""Loading a period's games and entrants as columns, for a run (:func:`load_games`,
:func:`load_entrants`, :func:`game_columns_apart`): one text aggregate per column, no object per row
(:func:`.rows.int_columns`), each score as its code among ``0``, ``0.5``, ``1``; a score stored as
another text sends the games through the driver's cursor instead, each text one shared
:class:`~decimal.Decimal`. The rest of what a period is computed from is :mod:`.loading`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import (
    BigInteger,
    String,
    and_,
    case,
    cast,
    func,
    select,
    type_coerce,
)
from sqlalchemy.engine import Connection

from chessrate.ratinglist.arrays import narrow, stable_order
from chessrate.ratinglist.facts import (
    EventFacts,
    PeriodEntrants,
    PeriodGames,
)
from chessrate.ratinglist.loading import NONE, OTHER_TEXT, SCORE_TEXTS, SCORES, fetched_chunks
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.rows import SentColumns, int_columns, sent_int_columns
from chessrate.ratinglist.schema import (
    event_players,
    events,
    games,
    players,
)


def _score_code(column: Any) -> Any:
    """A score's code plus one: 0 none, 1 to 3 an index of :data:`SCORE_TEXTS` plus one, else
    :data:`OTHER_TEXT`."""
    text = type_coerce(column, String)
    # A simple CASE: the text is compared once with each, not once per branch.
    return case(
        {written: code + 1 for code, written in enumerate(SCORE_TEXTS)},
        value=text,
        else_=case((text.is_(None), 0), else_=OTHER_TEXT),
    )


def _codes(rated: Any, white: Any, black: Any) -> Any:
    """A game's rated flag and two score codes in one whole number (one column to read, not three):
    64 rated + 8 (White's code + 1) + (Black's code + 1)."""
    return case((rated, 64), else_=0) + _score_code(white) * 8 + _score_code(black)


#: Two ids read as one number: the first × PAIR + the second (each below 2^31).
PAIR = 1 << 32
#: A game's rated flag and score codes (:func:`_codes`) are below 2^CODE_BITS.
CODE_BITS = 7


def _largest_ids(connection: Connection) -> tuple[int | None, int | None, int | None]:
    """The largest game, event and player id (None: no row)."""
    game, event, player = connection.execute(
        select(
            select(func.max(games.c.id)).scalar_subquery(),
            select(func.max(events.c.id)).scalar_subquery(),
            select(func.max(players.c.id)).scalar_subquery(),
        )
    ).one()
    return game, event, player


def _fit_in_pairs(connection: Connection, largest: Sequence[int | None] | None = None) -> bool:
    """Whether every game, event and player id is below 2^31, so two fit in one whole number
    (PostgreSQL's ``integer`` ids always do; a SQLite rowid may be larger)."""
    if largest is None:
        largest = _largest_ids(connection)
    return all(value is None or 0 < value < 1 << 31 for value in largest)


#: A period's games as columns (id, event, white, black, white's and black's score codes, rated),
#: and the decimal of each score code.
GameColumns = tuple[list[NDArray[Any]], tuple[Decimal, ...]]


def load_entrants(connection: Connection, period: Period) -> PeriodEntrants:
    """The events rated in ``period`` (not replaced) and their players as columns, read through
    the driver's fast path (:func:`.rows.int_columns`: no object per row)."""
    rated_now = and_(events.c.period == str(period), events.c.replaced_by.is_(None))
    headers = connection.execute(
        select(events.c.id, events.c.name, events.c.start_date, events.c.end_date)
        .where(rated_now)
        .order_by(events.c.id)
    ).all()
    entrant_event, entrant_player, entrant_rating = int_columns(
        connection,
        select(
            event_players.c.event_id.label("event_id"),
            event_players.c.player_id.label("player_id"),
            func.coalesce(event_players.c.rating_in_file, NONE).label("rating"),
        )
        .join(events, events.c.id == event_players.c.event_id)
        .where(rated_now),
    )
    return PeriodEntrants(
        events=tuple(EventFacts.of(row) for row in headers),
        entrant_event=entrant_event,
        entrant_player=entrant_player,
        entrant_rating=entrant_rating,
    )


def load_games(
    connection: Connection,
    period: Period,
    *,
    entrants: PeriodEntrants | None = None,
    game_columns: Callable[[], GameColumns] | None = None,
) -> PeriodGames:
    """The events rated in ``period``, their players (``entrants``, read here when not given:
    :func:`load_entrants`) and their games as columns. ``game_columns``: the games as
    :func:`read_game_columns` reads them, read elsewhere (:func:`game_columns_apart`)."""
    if entrants is None:
        entrants = load_entrants(connection, period)
    game_columns_read, scores = game_columns() if game_columns else read_game_columns(connection, period)
    game_id, event_id, white, black, white_score, black_score, rated = game_columns_read
    return PeriodGames(
        events=entrants.events,
        entrant_event=entrants.entrant_event,
        entrant_player=entrants.entrant_player,
        entrant_rating=entrants.entrant_rating,
        game_id=game_id,
        event_id=event_id,
        white=white,
        black=black,
        white_score=white_score.astype(np.int8, copy=False),
        black_score=black_score.astype(np.int8, copy=False),
        rated=rated.astype(np.bool_, copy=False),
        scores=scores,
    )


@contextmanager
def game_columns_apart(connection: Connection, period: Period) -> Iterator[Callable[[], GameColumns]]:
    """How :func:`load_games` gets a period's games. PostgreSQL: sent at once on a second
    connection, in a thread, while this connection reads the rest (the history, the entrants,
    their first events): the server reads both at the same time, on two processes. What it sent
    is read into arrays here, in this thread (where the run's freed memory is kept:
    :mod:`.heap`). The second connection reads what this one would: it begins after this
    transaction took the store's lock, so no writer can change the games in between (every
    import takes the lock), and the run does not change them. It only reads: a run still
    commits whole or not at all. SQLite: read when asked, here."""
    if connection.dialect.name != "postgresql":
        yield lambda: read_game_columns(connection, period)
        return

    def send() -> _SentGames:
        with connection.engine.connect() as other:
            return _sent_games(other, period)

    with ThreadPoolExecutor(max_workers=1) as pool:
        sent = pool.submit(send)
        yield lambda: _game_columns(connection, period, sent.result())


def read_game_columns(connection: Connection, period: Period) -> GameColumns:
    """The games rated in ``period`` as columns, in game id order (:data:`GameColumns`)."""
    return _game_columns(connection, period, _sent_games(connection, period))


@dataclass(frozen=True)
class _SentGames:
    """A period's games as the driver sent them (:func:`_sent_games`), before numpy reads them:
    in the ``layout`` the ids fit in (``packed``: five numbers in two; ``pairs``: two ids in
    one; ``plain``), with the widths of the largest event and player ids."""

    layout: str
    event_bits: int
    player_bits: int
    sent: SentColumns


def _sent_games(connection: Connection, period: Period) -> _SentGames:
    rated_now = and_(events.c.period == str(period), events.c.replaced_by.is_(None))
    codes_expression = _codes(games.c.rated, games.c.white_score, games.c.black_score)
    largest = _largest_ids(connection)
    event_bits, player_bits = ((value or 0).bit_length() for value in largest[1:])
    in_pairs = _fit_in_pairs(connection, largest)
    if in_pairs and 2 * player_bits + CODE_BITS <= 62:
        # Five numbers in two, each as wide as the largest id stored: a game's id and event; its
        # players and codes. Two columns to aggregate and send, not three (a third less work
        # for the server, and for SQLite's group_concat).
        layout = "packed"
        columns = [
            (cast(games.c.id, BigInteger) * (1 << event_bits) + games.c.event_id).label("game_event"),
            (
                (cast(games.c.white_id, BigInteger) * (1 << player_bits) + games.c.black_id)
                * (1 << CODE_BITS)
                + codes_expression
            ).label("players_codes"),
        ]
    elif in_pairs:
        # Two ids in one number (id × 2^32 + id): three columns to aggregate and send, not five.
        layout = "pairs"
        columns = [
            (games.c.id * PAIR + games.c.event_id).label("game_event"),
            (games.c.white_id * PAIR + games.c.black_id).label("white_black"),
            codes_expression.label("codes"),
        ]
    else:
        layout = "plain"
        columns = [
            games.c.id.label("id"),
            games.c.event_id.label("event_id"),
            games.c.white_id.label("white"),
            games.c.black_id.label("black"),
            codes_expression.label("codes"),
        ]
    query = select(*columns).join(events, events.c.id == games.c.event_id).where(rated_now)
    return _SentGames(layout, event_bits, player_bits, sent_int_columns(connection, query))


def _game_columns(connection: Connection, period: Period, sent: _SentGames) -> GameColumns:
    """The games ``sent`` as columns (:data:`GameColumns`); read again from ``connection`` by
    their score texts where a score is written otherwise than 0, 0.5, 1."""
    if sent.layout == "packed":
        game_event, players_codes = sent.sent.arrays()
        codes, white_black = players_codes & ((1 << CODE_BITS) - 1), players_codes >> CODE_BITS
        game_columns = [
            game_event >> sent.event_bits,
            game_event & ((1 << sent.event_bits) - 1),
            white_black >> sent.player_bits,
            white_black & ((1 << sent.player_bits) - 1),
        ]
    elif sent.layout == "pairs":
        game_event, white_black, codes = sent.sent.arrays()
        game_columns = [
            game_event >> 32,
            game_event & (PAIR - 1),
            white_black >> 32,
            white_black & (PAIR - 1),
        ]
    else:
        *game_columns, codes = sent.sent.arrays()
    white_code, black_code = (codes >> 3 & 7).astype(np.int8), (codes & 7).astype(np.int8)
    # The ids narrowed as PeriodGames keeps them (32 bits where they fit; the codes in 8) before
    # they are put in order: every copy half as large or less.
    if ((white_code == OTHER_TEXT) | (black_code == OTHER_TEXT)).any():
        game_columns, scores = _games_by_text(connection, period)
        game_columns[:4] = [narrow(column) for column in game_columns[:4]]
    else:
        game_columns = [narrow(column) for column in game_columns]
        game_columns += [white_code - 1, black_code - 1, (codes >> 6).astype(np.bool_)]
        scores = SCORES
    del codes, white_code, black_code
    if not (np.diff(game_columns[0]) > 0).all():  # in game id order (numpy's sort, not SQL's)
        order = stable_order(game_columns[0])
        for place, column in enumerate(game_columns):  # one column's copy at a time
            game_columns[place] = column[order]
            del column
    return game_columns, scores


def _games_by_text(
    connection: Connection, period: Period
) -> tuple[list[NDArray[np.int64]], tuple[Decimal, ...]]:
    """The games' columns with each score by its stored text (a score written otherwise than
    0, 0.5, 1): each distinct text is one decimal, its code the index among them."""
    scores: dict[str | None, int] = {None: NONE}
    parts: list[list[NDArray[Any]]] = [[] for _ in range(7)]
    for chunk in fetched_chunks(
        connection,
        "SELECT g.id, g.event_id, g.white_id, g.black_id, g.white_score, g.black_score, g.rated "
        "FROM games g JOIN events e ON e.id = g.event_id "
        "WHERE e.period = {p} AND e.replaced_by IS NULL",
        str(period),
    ):
        columns: list[Any] = list(zip(*chunk, strict=True))
        for place in (4, 5):  # a score's text becomes its index in ``scores``
            columns[place] = [scores.setdefault(text, len(scores) - 1) for text in columns[place]]
        for part, column in zip(parts, columns, strict=True):
            part.append(np.array(column, dtype=np.int64))
    joined = [np.concatenate(part) if part else np.zeros(0, dtype=np.int64) for part in parts]
    return joined, tuple(Decimal(text) for text in scores if text is not None)
