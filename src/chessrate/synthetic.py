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
class SyntheticGames:
    """Games sorted by day; ``month`` numbers the rating periods from 0."""

    players: SyntheticPlayers
    white: NDArray[np.intp]
    black: NDArray[np.intp]
    white_half_points: NDArray[np.int8]
    day: NDArray[np.datetime64]
    month: NDArray[np.int32]
    event: NDArray[np.intp]

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

    strength = rng.normal(1800.0, 300.0, count)
    low, high = rating_range
    rating = np.clip(np.rint(strength + rng.normal(0.0, 60.0, count)), low, high).astype(np.int64)
    deviation = rng.uniform(50.0, 350.0, count)
    volatility = rng.uniform(0.04, 0.08, count)
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

    expected = 1.0 / (1.0 + 10.0 ** ((strength[black] - strength[white]) / 400.0))
    draw = draw_share * 2.0 * np.minimum(expected, 1.0 - expected)
    roll = rng.random(games)
    win = expected - draw / 2.0
    white_half_points = np.where(roll < win, 2, np.where(roll < win + draw, 1, 0)).astype(np.int8)

    first_day = np.datetime64(start, "D")
    last_day = (np.datetime64(start, "M") + np.timedelta64(months, "M")).astype("datetime64[D]")
    offsets = np.sort(rng.integers(0, int((last_day - first_day).astype(int)), games))
    day = first_day + offsets.astype("timedelta64[D]")
    month = (day.astype("datetime64[M]") - np.datetime64(start, "M")).astype(np.int32)
    event = (month.astype(np.intp) * events_per_month + rng.integers(0, events_per_month, games)).astype(
        np.intp
    )
    return SyntheticGames(
        players=SyntheticPlayers(
            strength=strength, rating=rating, deviation=deviation, volatility=volatility
        ),
        white=white,
        black=black,
        white_half_points=white_half_points,
        day=day,
        month=month,
        event=event,
    )
