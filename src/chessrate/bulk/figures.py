"""The Elo part of a period for every rated player at once, with :mod:`chessrate.bulk`.

:func:`chessrate.ratinglist.compute.compute_period` gathers each rated player's games of the
period (tournament by tournament, each side with the ratings it is rated from) and hands them
here; this module rates them all with :func:`chessrate.bulk.rate_elo_period` and derives each
game's working with :func:`chessrate.bulk.elo_game_working`. The figures are those of the scalar
path (:func:`chessrate.systems.elo.calculate.rate_period`, per player), written as the same decimals: a sum
or product of decimals keeps the smallest exponent of its terms (``Decimal("0.5") + 1`` is
``1.5``, ``3 * (Decimal(1) - Decimal("0.64"))`` is ``1.08``), so each figure is computed in whole
hundredths with numpy and written with the exponent the scalar arithmetic would give it.

Only table 8.1.2 (whole hundredths, exact in floats) is done here; the logistic formula's
28-digit decimals cannot be reproduced from floats, so those rule sets stay on the scalar path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from chessrate.bulk import elo as bulk_elo
from chessrate.parse import MAX_RATING, MIN_RATING
from chessrate.systems.elo.ruleset import Expected, RuleSet
from chessrate.systems.fide.k_factor import KFactor, apply_700_rule
from chessrate.systems.fide.tables import scoring_probability

#: Differences of whole ratings: -4000 ... 4000.
_SPAN = int(MAX_RATING) - int(MIN_RATING)
#: A score as White's half points, the engine's encoding (Decimal("1.0") == Decimal(1) here).
_HALVES = {Decimal(0): 0, Decimal("0.5"): 1, Decimal(1): 2}


class RatedGame(NamedTuple):
    """One game of a player that the period rates: the ratings it is rated from and the score."""

    game_id: int
    event_id: int
    opponent_id: int
    own_rating: int
    opponent_rating: int
    score: Decimal


@dataclass(frozen=True, kw_only=True)
class PlayerPeriod:
    """A rated player's period: rating at its start, K before the 700 rule, games by tournament."""

    rating: int
    k: KFactor
    events: Sequence[Sequence[RatedGame]]


@dataclass(frozen=True, kw_only=True)
class GameFigures:
    """How each game was rated (``calculate.GameWorking``'s figures), one list per figure, the
    games of every player in input order."""

    difference: list[Decimal]
    capped: list[bool]
    expected: list[Decimal]
    change: list[Decimal]


class PlayerFigures(NamedTuple):
    """A rated player's period, as ``calculate.PeriodResult`` gives it (a named tuple: a period
    rates hundreds of thousands)."""

    k: KFactor
    games: int
    score: Decimal
    expected: Decimal
    change: Decimal
    rounded_change: int
    new_rating: int


def supports(rules: RuleSet) -> bool:
    """Whether these rules are rated here (table 8.1.2); otherwise the scalar path rates them."""
    return rules.expected is Expected.TABLE


def rate_players(
    players: Sequence[PlayerPeriod], *, rules: RuleSet, game_figures: bool = True
) -> tuple[list[PlayerFigures], GameFigures] | None:
    """Every player's period, in order; None when a score is not 1, ½ or 0 (the scalar path then).

    Each side of a game is given to the engine as a game of its own, against a sink player whose
    figures are dropped: the list rates a side only when its opponent was rated at the event's
    start (B.02 8.3.1), so one game may count for one of its players only.
    """
    # Every rated side, player by player, as columns (a NamedTuple transposed by zip, in C).
    sides = [game for mine in players for games in mine.events for game in games]
    counts = [sum(len(games) for games in mine.events) for mine in players]
    columns = list(zip(*sides, strict=True)) if sides else [()] * len(RatedGame._fields)
    _, event_ids, _, own_ratings, opponent_ratings, scores = columns
    # Each score object's half points and exponent, once: by identity, as equal decimals (1, 1.0)
    # differ in exponent; the scores live in ``players`` while this runs.
    known: dict[int, tuple[int, int]] = {}
    for score in scores:
        if id(score) not in known:
            half = _HALVES.get(score)
            if half is None:
                return None
            exponent = score.as_tuple().exponent
            known[id(score)] = (half, exponent if isinstance(exponent, int) else 0)
    coded = [known[id(score)] for score in scores]
    who = np.repeat(np.arange(len(players), dtype=np.intp), counts)
    # Each K object once, by identity (``players`` holds them, so each id stays its own).
    ks = {id(mine.k): mine.k for mine in players}
    code_of = {key: code for code, key in enumerate(ks)}
    players_figures, figures = rate_sides(
        who,
        np.array(event_ids, dtype=np.intp),
        np.array(own_ratings, dtype=np.int64),
        np.array(opponent_ratings, dtype=np.int64),
        np.array([half for half, _ in coded], dtype=np.int8),
        np.array([exponent for _, exponent in coded], dtype=np.int64),
        ratings=[mine.rating for mine in players],
        k=tuple(ks.values()),
        k_codes=np.array([code_of[id(mine.k)] for mine in players], dtype=np.int64).reshape(-1),
        rules=rules,
        game_figures=game_figures,
    )
    return players_figures.figures(), figures or GameFigures(difference=[], capped=[], expected=[], change=[])


class PlayerColumns(NamedTuple):
    """Every rated player's period as columns, one value a player (:class:`PlayerFigures`'
    fields): K after the 700 rule (each player's index in ``k_values``), and each decimal figure
    in whole hundredths with the exponent the scalar arithmetic writes it with (:func:`decimals`
    makes the decimals)."""

    k_values: tuple[KFactor, ...]
    k: NDArray[np.int64]
    games: NDArray[np.int64]
    score: NDArray[np.int64]
    score_exponent: NDArray[np.int64]
    expected: NDArray[np.int64]
    expected_exponent: NDArray[np.int64]
    change: NDArray[np.int64]
    change_exponent: NDArray[np.int64]
    rounded_change: NDArray[np.int64]
    new_rating: NDArray[np.int64]

    @classmethod
    def joined(cls, parts: Sequence[PlayerColumns]) -> PlayerColumns:
        """The players of ``parts``, one after the other."""
        offsets = np.cumsum([0] + [len(part.k_values) for part in parts])
        return cls(
            tuple(factor for part in parts for factor in part.k_values),
            np.concatenate([part.k + offset for part, offset in zip(parts, offsets.tolist(), strict=False)])
            if parts
            else np.zeros(0, np.int64),
            *(
                np.concatenate([getattr(part, name) for part in parts]) if parts else np.zeros(0, np.int64)
                for name in cls._fields[2:]
            ),
        )

    def figures(self) -> list[PlayerFigures]:
        """Each player's figures as objects, the decimals made once each (:func:`decimals`)."""
        # One object per distinct decimal: the same few recur (decimals are immutable).
        score_codes, score_values = decimals(self.score, self.score_exponent)
        expected_codes, expected_values = decimals(self.expected, self.expected_exponent)
        change_codes, change_values = decimals(self.change, self.change_exponent)
        return [
            PlayerFigures(
                k=factor,
                games=games,
                score=score_values[score],
                expected=expected_values[expected],
                change=change_values[change],
                rounded_change=rounded,
                new_rating=rating,
            )
            for factor, games, score, expected, change, rounded, rating in zip(
                map(self.k_values.__getitem__, self.k.tolist()),
                self.games.tolist(),
                score_codes.tolist(),
                expected_codes.tolist(),
                change_codes.tolist(),
                self.rounded_change.tolist(),
                self.new_rating.tolist(),
                strict=True,
            )
        ]


def rate_sides(
    who: NDArray[np.intp],
    events: NDArray[np.intp],
    own_rating: NDArray[np.int64],
    opponent_rating: NDArray[np.int64],
    half_points: NDArray[np.int8],
    exponents: NDArray[np.int64],
    *,
    ratings: Sequence[int],
    k: Sequence[KFactor],
    rules: RuleSet,
    k_codes: NDArray[np.int64],
    game_figures: bool = True,
) -> tuple[PlayerColumns, GameFigures | None]:
    """:func:`rate_players` from columns: one row per rated side, grouped by player (``who``, 0 to
    ``len(ratings) - 1``) in the order its figures are given; ``half_points`` and ``exponents``: the
    side's score (0, 1, 2 halves) and the exponent of the decimal it was written as. The players'
    figures come as columns (no object a player; :meth:`PlayerColumns.figures` makes them).
    ``k_codes``: each player's K before the 700 rule as its index in ``k`` (the distinct K
    objects)."""
    players = len(ratings)
    sink = players
    sinks = np.full(len(who), sink, dtype=np.intp)
    ratings_of = np.array([*ratings, 0], dtype=np.int64)
    k_given = np.append(np.array([factor.k for factor in k], dtype=np.int64)[k_codes], 1)

    # K given per player (from each one's history), cut by the 700 rule inside the engine.
    period = bulk_elo.rate_elo_period(
        who,
        sinks,
        half_points,
        ratings_of,
        k_given,
        rules=rules,
        event=events,
        white_rating=own_rating,
        black_rating=opponent_rating,
    )
    working = bulk_elo.elo_game_working(who, sinks, own_rating, opponent_rating, rules=rules, event=events)
    difference = working.white_difference
    expected_hundredths = np.rint(working.white_expected * 100.0).astype(np.int64)
    value = 50 * half_points.astype(np.int64) - expected_hundredths  # 100 (score - PD), hundredths
    change = period.k[who] * value

    # Per player: sums in hundredths, and the smallest exponent of the decimals summed.
    n = players + 1
    score_sum = _sum(who, 50 * half_points.astype(np.int64), n)
    expected_sum = _sum(who, expected_hundredths, n)
    change_sum = _sum(who, change, n)
    table_exponent = _table_exponents()
    expected_exponent = table_exponent[difference + _SPAN]
    # Sums start from Decimal(0), exponent 0, and rate_period adds a zero score as Decimal(0)
    # (``game.score or ZERO``); a game's own change uses the score as written.
    score_low = np.zeros(n, dtype=np.int64)
    np.minimum.at(score_low, who, np.where(half_points == 0, 0, exponents))
    expected_low = np.zeros(n, dtype=np.int64)
    np.minimum.at(expected_low, who, expected_exponent)
    change_exponent = np.minimum(exponents, expected_exponent)

    figures = (
        _game_figures(difference, working.white_capped, change, change_exponent) if game_figures else None
    )
    # One K object per K given and game count (the 700 rule's cut and reason, B.02 8.3.3).
    games = period.games[:players]
    pairs, cut_codes = np.unique(
        np.stack([k_codes, games.astype(np.int64)], axis=1).reshape(-1, 2), axis=0, return_inverse=True
    )
    # One K a pair (uncut, the K given itself: the same object may recur; the caller codes them).
    k_values = tuple(
        apply_700_rule(k[given], count, max_k_times_games=rules.max_k_times_games)
        for given, count in pairs.tolist()
    )
    return PlayerColumns(
        k_values=k_values,
        k=cut_codes.reshape(-1).astype(np.int64),
        games=games,
        score=score_sum[:players],
        score_exponent=score_low[:players],
        expected=expected_sum[:players],
        expected_exponent=expected_low[:players],
        change=change_sum[:players],
        change_exponent=np.minimum(score_low, expected_low)[:players],
        rounded_change=period.rounded_change[:players],
        new_rating=period.new_rating[:players],
    ), figures


def decimals(
    hundredths: NDArray[np.int64], exponents: NDArray[np.int64]
) -> tuple[NDArray[np.int64], tuple[Decimal, ...]]:
    """Each figure (whole hundredths written with an exponent, :class:`PlayerColumns`) as an
    index into the distinct decimals it takes, made once each."""
    if not len(hundredths):
        return np.zeros(0, dtype=np.int64), ()
    low = int(exponents.min())
    span = int(exponents.max()) - low + 1
    distinct, codes = np.unique(hundredths * span + (exponents - low), return_inverse=True)
    return codes.astype(np.int64), tuple(_decimal(key // span, key % span + low) for key in distinct.tolist())


def _game_figures(
    difference: NDArray[np.int64],
    capped: NDArray[np.bool_],
    change: NDArray[np.int64],
    change_exponent: NDArray[np.int64],
) -> GameFigures:
    """Each game's figures as the scalar path's decimals. The same few values recur: one decimal
    each (decimals are immutable)."""
    differences = difference.tolist()
    table = _table_decimals()
    written: dict[tuple[int, int], Decimal] = {}
    return GameFigures(
        difference=[_whole_decimals()[d + _SPAN] for d in differences],
        capped=capped.tolist(),
        expected=[table[d + _SPAN] for d in differences],
        change=[
            written.get(key) or written.setdefault(key, _decimal(*key))
            for key in zip(change.tolist(), change_exponent.tolist(), strict=True)
        ],
    )


def _sum(who: NDArray[np.intp], values: NDArray[np.int64], n: int) -> NDArray[np.int64]:
    total = np.zeros(n, dtype=np.int64)
    np.add.at(total, who, values)
    return total


def _decimal(hundredths: int, exponent: int) -> Decimal:
    """``hundredths / 100`` written with ``exponent``, as exact decimal arithmetic writes it.

    With an exponent above -2 every term had one too (whole scores, PD such as ``0.5``), so the
    division is exact.
    """
    if exponent <= -2:
        return Decimal(hundredths * 10 ** (-2 - exponent)).scaleb(exponent)
    return Decimal(hundredths // 10 ** (exponent + 2)).scaleb(exponent)


@lru_cache(maxsize=1)
def _table_decimals() -> tuple[Decimal, ...]:
    """PD of table 8.1.2 for every whole difference, the very decimals the scalar path uses."""
    return tuple(scoring_probability(d) for d in range(-_SPAN, _SPAN + 1))


@lru_cache(maxsize=1)
def _whole_decimals() -> tuple[Decimal, ...]:
    return tuple(Decimal(d) for d in range(-_SPAN, _SPAN + 1))


@lru_cache(maxsize=1)
def _table_exponents() -> NDArray[np.int64]:
    exponents = [value.as_tuple().exponent for value in _table_decimals()]
    return np.array([e if isinstance(e, int) else 0 for e in exponents], dtype=np.int64)
