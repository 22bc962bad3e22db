"""Reproducible synthetic chess games for tests and benchmarks.

Players get a hidden true strength; games are drawn over consecutive months between players of
nearby strength (as in a club or a Swiss tournament), with results drawn from the true strengths
by the logistic expectation and a share of draws. The same arguments give the same games.

The games come as the arrays :mod:`chessrate.bulk` rates: player indices for White and Black,
White's score in half points (0, 1, 2), and for each game its day, its month (the rating period)
and its tournament. They are sorted by day, so every month is one contiguous slice.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chessrate.errors import InvalidInputError


@dataclass(frozen=True, kw_only=True, eq=False)
class SyntheticPlayers:
    """The players, as arrays indexed by player."""

    #: Hidden true strength on the Elo scale: what the ratings should find.
    strength: NDArray[np.float64]
    #: Whole-number rating at the start, the strength plus noise, within ``rating_range``.
    rating: NDArray[np.int64]
    #: Glicko-2 deviation and volatility at the start.
    deviation: NDArray[np.float64]
    volatility: NDArray[np.float64]


@dataclass(frozen=True, kw_only=True, eq=False)
class GameArrays:
    """Games as :mod:`chessrate.bulk` rates them, an entry a game: its players (indices of
    ``players``), White's score in half points and its tournament."""

    players: SyntheticPlayers
    white: NDArray[np.intp]
    black: NDArray[np.intp]
    white_half_points: NDArray[np.int8]
    event: NDArray[np.intp]


@dataclass(frozen=True, kw_only=True, eq=False)
class SyntheticGames(GameArrays):
    """Games sorted by day; ``month`` numbers the rating periods from 0."""

    day: NDArray[np.datetime64]
    month: NDArray[np.int32]

    def periods(self) -> list[slice]:
        """One slice of the game arrays per month, in order (months without games are empty)."""
        months = int(self.month[-1]) + 1 if len(self.month) else 0
        # Needles of the haystack's dtype: searchsorted would otherwise copy the months.
        bounds = np.searchsorted(self.month, np.arange(months + 1, dtype=self.month.dtype))
        return [slice(int(bounds[i]), int(bounds[i + 1])) for i in range(months)]


def generate(
    *,
    games: int,
    players: int | None = None,
    months: int = 12,
    seed: int = 0,
    start: dt.date = dt.date(2025, 1, 1),
    draw_share: float = 0.3,
    rating_range: tuple[int, int] = (1400, 2850),
    events_per_month: int = 20,
) -> SyntheticGames:
    """``games`` games between ``players`` players (default: one per 40 games, at least 20).

    Strengths are normal around 1800 (standard deviation 300). An opponent is a player nearby in
    strength order. White's expected score is E = 1 / (1 + 10^(-(strength difference)/400));
    draws take ``draw_share`` of the most even games' room, 2 x draw_share x min(E, 1 - E), and
    wins and losses the rest, so that White's average score is E.
    """
    if games < 0:
        raise InvalidInputError("games", games, "cannot be negative")
    count = players if players is not None else max(20, games // 40)
    if count < 2:
        raise InvalidInputError("players", count, "at least two players")
    if months < 1:
        raise InvalidInputError("months", months, "at least one month")
    if not 0.0 <= draw_share <= 1.0:
        raise InvalidInputError("draw_share", draw_share, "between 0 and 1")
    rng = np.random.default_rng(seed)

    pool = _pool(rng, count, rating_range)
    strength = pool.strength
    by_strength = np.argsort(strength)

    # Pairings: a random player and one of its neighbours in strength order.
    first = rng.integers(0, count, games)
    reach = max(1, count // 20)
    step = rng.integers(1, reach + 1, games) * rng.choice(np.array([-1, 1]), games)
    second = first + step
    second = np.where((second < 0) | (second >= count), first - step, second)
    second = np.clip(second, 0, count - 1)
    second = np.where(second == first, (first + 1) % count, second)
    white = by_strength[first].astype(np.intp)
    black = by_strength[second].astype(np.intp)
    swap = rng.random(games) < 0.5
    white, black = np.where(swap, black, white), np.where(swap, white, black)

    white_half_points = _white_half_points(rng, strength, white, black, draw_share)

    first_day = np.datetime64(start, "D")
    last_day = (np.datetime64(start, "M") + np.timedelta64(months, "M")).astype("datetime64[D]")
    offsets = np.sort(rng.integers(0, int((last_day - first_day).astype(int)), games))
    day = first_day + offsets.astype("timedelta64[D]")
    month = (day.astype("datetime64[M]") - np.datetime64(start, "M")).astype(np.int32)
    event = (month.astype(np.intp) * events_per_month + rng.integers(0, events_per_month, games)).astype(
        np.intp
    )
    return SyntheticGames(
        players=pool,
        white=white,
        black=black,
        white_half_points=white_half_points,
        day=day,
        month=month,
        event=event,
    )


@dataclass(frozen=True, kw_only=True, eq=False)
class SwissMonth(GameArrays):
    """A month of Swiss tournaments: every event ``size`` players of the pool over ``rounds`` rounds.

    Games are in event order, then round by round; ``seats`` holds each event's players (pool
    indices), in their starting order (by rating, highest first, as a Swiss starting list is).
    """

    #: A FIDE id per pool player (all different).
    fide_id: NDArray[np.int64]
    seats: NDArray[np.intp]
    round: NDArray[np.int8]
    #: Each event's first day; round r is played on that day plus r - 1 days.
    start: NDArray[np.datetime64]


def _pool(rng: np.random.Generator, count: int, rating_range: tuple[int, int]) -> SyntheticPlayers:
    """``count`` players: strengths normal around 1800 (standard deviation 300), a start rating of
    the strength plus noise within ``rating_range``, a Glicko-2 deviation and volatility at random."""
    strength = rng.normal(1800.0, 300.0, count)
    low, high = rating_range
    return SyntheticPlayers(
        strength=strength,
        rating=np.clip(np.rint(strength + rng.normal(0.0, 60.0, count)), low, high).astype(np.int64),
        deviation=rng.uniform(50.0, 350.0, count),
        volatility=rng.uniform(0.04, 0.08, count),
    )


def _white_half_points(
    rng: np.random.Generator,
    strength: NDArray[np.float64],
    white: NDArray[np.intp],
    black: NDArray[np.intp],
    draw_share: float,
) -> NDArray[np.int8]:
    """White's score of each game, drawn from the hidden strengths as :func:`generate` says."""
    expected = 1.0 / (1.0 + 10.0 ** ((strength[black] - strength[white]) / 400.0))
    draw = draw_share * 2.0 * np.minimum(expected, 1.0 - expected)
    roll = rng.random(white.shape)
    win = expected - draw / 2.0
    return np.where(roll < win, 2, np.where(roll < win + draw, 1, 0)).astype(np.int8)


def swiss_month(
    *,
    games: int,
    players: int | None = None,
    size: int = 100,
    rounds: int = 9,
    seed: int = 0,
    start: dt.date = dt.date(2025, 10, 1),
    draw_share: float = 0.3,
) -> SwissMonth:
    """About ``games`` games in Swiss events of ``size`` players (even) over ``rounds`` rounds,
    within one month, drawn from a pool of ``players`` (default: one per 10 games).

    Each round pairs the players of an event by score, at random within a score group (rematches
    are possible, as in a pairing that ignores them); colours at random. Results as in
    :func:`generate`, from the players' hidden strengths.
    """
    if size < 2 or size % 2:
        raise InvalidInputError("size", size, "an even number of at least 2")
    if rounds < 1 or rounds > 20:
        raise InvalidInputError("rounds", rounds, "from 1 to 20 (within a month)")
    per_event = size // 2 * rounds
    events = max(1, -(-games // per_event))
    count = players if players is not None else max(size, games // 10)
    if count < size:
        raise InvalidInputError("players", count, f"at least the {size} players of an event")
    rng = np.random.default_rng(seed)
    pool = _pool(rng, count, (1400, 2850))
    strength, rating = pool.strength, pool.rating
    # Each event's players: distinct pool players, in starting order by rating.
    seats = (
        np.argsort(rng.random((events, count)), axis=1)[:, :size]
        if count <= 4 * size
        else _draw(rng, events, count, size)
    )
    seats = np.take_along_axis(seats, np.argsort(-rating[seats], axis=1, kind="stable"), axis=1)
    score = np.zeros((events, size))
    rows = np.arange(events)[:, None]
    white_parts, black_parts, half_parts, round_parts = [], [], [], []
    for number in range(1, rounds + 1):
        order = np.argsort(-score + rng.random((events, size)) * 0.1, axis=1)  # score groups, shuffled
        first, second = order[:, 0::2], order[:, 1::2]
        swap = rng.random(first.shape) < 0.5
        white_seat, black_seat = np.where(swap, second, first), np.where(swap, first, second)
        white, black = seats[rows, white_seat], seats[rows, black_seat]
        half = _white_half_points(rng, strength, white, black, draw_share)
        np.add.at(score, (np.broadcast_to(rows, white_seat.shape), white_seat), half / 2.0)
        np.add.at(score, (np.broadcast_to(rows, black_seat.shape), black_seat), 1.0 - half / 2.0)
        white_parts.append(white)
        black_parts.append(black)
        half_parts.append(half)
        round_parts.append(np.full(first.shape, number, dtype=np.int8))

    def by_event(parts: list[NDArray[Any]]) -> NDArray[Any]:
        return np.stack(parts, axis=1).reshape(-1)  # event, then round, then board

    last_start = max(0, 28 - rounds)
    first_day = np.datetime64(start, "D")
    return SwissMonth(
        players=pool,
        fide_id=(np.arange(count, dtype=np.int64) + 1_000_001),
        seats=seats.astype(np.intp),
        white=by_event(white_parts).astype(np.intp),
        black=by_event(black_parts).astype(np.intp),
        white_half_points=by_event(half_parts),
        event=np.repeat(np.arange(events, dtype=np.intp), per_event),
        round=by_event(round_parts),
        start=first_day + rng.integers(0, last_start + 1, events).astype("timedelta64[D]"),
    )


#: A TRF cell's result for White and for Black, by White's half points ([TRF16] codes 1, =, 0).
_TRF_RESULT = {2: ("1", "0"), 1: ("=", "="), 0: ("0", "1")}


def trf_text(month: SwissMonth, event: int) -> str:
    """One event of ``month`` as a TRF16 file: players ``Player NNNNNN`` with their rating and FIDE
    id, one cell per round (columns 92 on, ten wide), points and the dates of the rounds."""
    seats = month.seats[event]
    per_event = len(month.white) // len(month.seats)
    games = slice(event * per_event, (event + 1) * per_event)
    number = {int(player): i + 1 for i, player in enumerate(seats.tolist())}
    cells: dict[int, list[str]] = {player: [] for player in number}
    points = dict.fromkeys(number, 0.0)
    for w, b, h in zip(
        month.white[games].tolist(),
        month.black[games].tolist(),
        month.white_half_points[games].tolist(),
        strict=True,
    ):
        white_result, black_result = _TRF_RESULT[h]
        cells[w].append(f"{number[b]:>4} w {white_result}  ")
        cells[b].append(f"{number[w]:>4} b {black_result}  ")
        points[w] += h / 2
        points[b] += 1 - h / 2
    day = month.start[event]
    end = day + np.timedelta64(int(month.round[games].max()) - 1, "D")
    lines = [
        f"012 Synthetic Swiss {event + 1}",
        f"042 {str(day).replace('-', '/')}",
        f"052 {str(end).replace('-', '/')}",
        f"062 {len(seats)}",
        f"072 {len(seats)}",
        "092 Swiss System",
    ]
    rating = month.players.rating
    for player in number:
        head = (
            f"001 {number[player]:>4} m    {f'Player {player:06d}':<33} {int(rating[player]):>4} ESP "
            f"{int(month.fide_id[player]):>11} 0000/00/00 {points[player]:>4.1f} {number[player]:>4}  "
        )
        lines.append(head + "".join(cells[player]))
    return "\n".join(lines) + "\n"


def _draw(rng: np.random.Generator, events: int, count: int, size: int) -> NDArray[np.intp]:
    """``size`` distinct players out of ``count`` for each event, without a row per pool player."""
    seats = rng.integers(0, count, (events, size))
    for _ in range(100):
        ordered = np.sort(seats, axis=1)
        repeated = np.zeros_like(seats, dtype=bool)
        repeated[:, 1:] = ordered[:, 1:] == ordered[:, :-1]
        if not repeated.any():
            return ordered
        seats = np.where(repeated, rng.integers(0, count, seats.shape), ordered)
    raise InvalidInputError("players", count, "too few players to fill the events")
