"""Whole rating periods from arrays, with numpy: FIDE Elo and Glicko-2.

A rating period rates every game from the ratings at its start (FIDE B.02 8.3.2 and 8.3.4:
one change per period, rounded once; Glickman's Glicko-2, Step 2), so a period is a few passes
over arrays instead of a loop over games. The results are those of the scalar path,
:func:`chessrate.calculate.rate_period` and :func:`chessrate.glicko2.rate_whole_period`, player
for player (``tests/test_bulk.py`` checks it on random periods).

The games of a period are three arrays of the same length: ``white`` and ``black``, the players'
indices (0 to n_players - 1), and ``white_half_points``, White's score in half points (0 loss,
1 draw, 2 win: one byte a game; :func:`half_points` converts 0 / 0.5 / 1).

How the FIDE engine cuts the work per game (see ``docs/bulk.md``):

* ratings are whole numbers, so a game's difference D and White's score s make one integer key,
  ``3 (D + 4000) + s``, computed as ``P[white] - Q[black] + s`` from two per-player arrays;
* one precomputed array, indexed by that key, holds White's ``100 S - PD`` in hundredths: table
  8.1.2, the 400-point rule and the score folded into a single gather (Black's is its negative,
  or a second gather when the 2650 limit makes the cap one-sided);
* the table values carry ``2**30`` per game, so the one weighted ``np.bincount`` per colour sums
  both the games played (for the 700 rule) and the change, exactly, in integers held by floats;
* the change is an exact whole number of hundredths times K, so the once-per-period rounding
  (half away from zero) is integer arithmetic and agrees with the scalar path's decimals.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chessrate import elo
from chessrate.errors import ConvergenceError, InvalidInputError, RatingError
from chessrate.fide.rules import CapScope, JuniorRule
from chessrate.fide.tables import scoring_probability
from chessrate.parse import MAX_RATING, MIN_RATING
from chessrate.ruleset import (
    DifferenceCap,
    Expected,
    FideKPolicy,
    KByRatingBand,
    Rounding,
    RuleSet,
)

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

_MIN = int(MIN_RATING)
_MAX = int(MAX_RATING)
#: Every difference between two ratings on the scale: -4000 ... 4000.
_SPAN = 2 * (_MAX - _MIN) + 1
#: Keys of one table block: a difference and White's half points (0, 1, 2).
_BLOCK = 3 * _SPAN
#: Added to a table value per game, so one weighted bincount also counts the games.
_COUNT_UNIT = float(2**30)
#: The count decodes exactly while |sum of 100 S - PD| < 2**29, that is below this many games.
_SAFE_GAMES = 2**29 // 100 - 1


def half_points(white_score: ArrayLike) -> NDArray[np.int8]:
    """White's scores (1, 0.5, 0) as half points (2, 1, 0), the engine's one-byte encoding."""
    scores = np.asarray(white_score, dtype=np.float64)
    halves = scores * 2.0
    bad = (halves != 0.0) & (halves != 1.0) & (halves != 2.0)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise InvalidInputError("white_score", scores[first].item(), f"game {first}: a score is 1, 0.5 or 0")
    return halves.astype(np.int8)


# ---------------------------------------------------------------------------------------------
# FIDE Elo (and any rule set of chessrate.ruleset)


@dataclass(frozen=True, kw_only=True, eq=False)
class EloPeriod:
    """One rating period of every player, as arrays indexed by player."""

    #: Games played in the period.
    games: IntArray
    #: K used: the given (or rule set's) K, cut by the 700 rule over the period's games.
    k: IntArray
    #: The unrounded change, K x sum of (score - expected) over the period's games.
    change: FloatArray
    #: The change rounded to a whole number, 0.5 away from zero (FIDE B.02 8.3.4).
    rounded_change: IntArray
    #: Rating at the period start plus the rounded change.
    new_rating: IntArray
    #: Points scored and expected (only with ``totals=True``; None otherwise).
    score: FloatArray | None = None
    expected: FloatArray | None = None


def rate_elo_period(
    white: ArrayLike,
    black: ArrayLike,
    white_half_points: ArrayLike,
    ratings: ArrayLike,
    k: ArrayLike | None = None,
    *,
    rules: RuleSet,
    event: ArrayLike | None = None,
    white_rating: ArrayLike | None = None,
    black_rating: ArrayLike | None = None,
    totals: bool = False,
) -> EloPeriod:
    """Rate one period of many players under ``rules`` (FIDE's, plain Elo or a club's).

    ``ratings`` are the players' ratings at the period start (whole numbers, as published); ``k``
    each player's K (an array), or None for the rule set's K from the rating alone (see
    :func:`k_factors` for K from birth years, rated games and highest ratings). K is cut by the
    700 rule over the player's games of the period (B.02 8.3.3).

    ``event`` gives each game's tournament: needed only where the rules look at tournaments
    (the 2022 rules' one capped game per tournament, B.02 8.3.1; a rule set rounding per
    tournament). Without it every player's games form one tournament. ``white_rating`` and
    ``black_rating`` give the rating each side is rated from in that game (its rating at the
    start of the game's tournament, B.02 8.3.2); by default the period start's.

    Equal to :func:`chessrate.calculate.rate_period` per player, the change to float precision
    and the rounded change exactly (table 8.1.2 works in whole hundredths). With the logistic
    formula the sum is in floats, so a change within 1e-12 of x.5 could round otherwise than
    the scalar path's 28-digit decimals.
    """
    w, b, s = _games(white, black, white_half_points)
    rating = _ratings(ratings, "ratings")
    players = len(rating)
    _check_players(w, b, players)
    events = None if event is None else _indices(event, "event", len(w))

    per_game = white_rating is not None or black_rating is not None
    if per_game:
        w_rating = _ratings(white_rating if white_rating is not None else rating[w], "white_rating", len(w))
        b_rating = _ratings(black_rating if black_rating is not None else rating[b], "black_rating", len(w))

    one_game_scope = rules.cap is not None and rules.cap.scope is CapScope.ONE_GAME_PER_TOURNAMENT
    per_event_rounding = rules.rounding is Rounding.TOURNAMENT and events is not None
    exact = rules.expected is Expected.TABLE
    # With the 2022 scope the tables are uncapped; the one capped game per tournament is added after.
    table_cap = None if one_game_scope else rules.cap

    # One integer key per game: 3 (D + 4000) + s, plus a block for each side the cap spares.
    if per_game:
        key = _side_key(w_rating, table_cap, white=True)
        key -= _side_key(b_rating, table_cap, white=False)
    else:
        key = _side_key(rating, table_cap, white=True)[w]
        key -= _side_key(rating, table_cap, white=False)[b]
    key += s
    k_given = _k_array(k, rating, rules)

    x_white = x_black = None
    if not (one_game_scope or per_event_rounding or not exact or len(w) > _SAFE_GAMES):
        # The fast path: one gather and one bincount per colour, the game counts carried in the values.
        white_table, black_table = _tables(rules.expected, table_cap, counted=True)
        values = np.take(white_table, key)
        total = np.bincount(w, values, minlength=players)
        sides = (w_rating, b_rating) if per_game else (rating,)
        if any(_spares_anyone(table_cap, side) for side in sides):
            np.take(black_table, key, out=values)
        else:
            np.subtract(2.0 * _COUNT_UNIT, values, out=values)  # Black's: -(100 S - PD) + 2**30
        total += np.bincount(b, values, minlength=players)
        del values, key
        games = np.rint(total / _COUNT_UNIT).astype(np.int64)
        sums = total - games * _COUNT_UNIT  # exact: whole numbers below 2**53
    else:
        white_table, black_table = _tables(rules.expected, table_cap, counted=False)
        x_white = np.take(white_table, key)
        x_black = np.take(black_table, key)
        if one_game_scope and rules.cap is not None:
            _cap_one_game_per_event(
                key,
                (x_white, x_black),
                (w, b),
                (w_rating if per_game else rating[w], b_rating if per_game else rating[b]),
                events,
                rules.expected,
                rules.cap,
            )
        games = np.bincount(w, minlength=players) + np.bincount(b, minlength=players)
        sums = np.bincount(w, x_white, minlength=players) + np.bincount(b, x_black, minlength=players)

    k_used = _apply_700_rule(k_given, games, rules.max_k_times_games)
    if exact:
        hundredths = np.rint(sums).astype(np.int64) * k_used  # K x sum(100 S - PD), exact
        change = hundredths / 100.0
        rounded = _round_hundredths(hundredths)
    else:
        change = sums * k_used
        rounded = _round_float(change)
    if per_event_rounding and events is not None and x_white is not None and x_black is not None:
        rounded = _round_per_event((w, b), events, (x_white, x_black), k_used, players, exact=exact)

    score = expected = None
    if totals:
        halves = np.bincount(w, s, minlength=players) + np.bincount(b, 2 - s, minlength=players)
        score = halves / 2.0
        expected = (50.0 * halves - sums) / 100.0 if exact else score - sums
    return EloPeriod(
        games=games,
        k=k_used,
        change=change,
        rounded_change=rounded,
        new_rating=rating + rounded,
        score=score,
        expected=expected,
    )


def k_factors(
    ratings: ArrayLike,
    *,
    rules: RuleSet,
    birth_year: ArrayLike | None = None,
    rated_games: ArrayLike | None = None,
    highest_rating: ArrayLike | None = None,
) -> IntArray:
    """Each player's K under ``rules``, before the 700 rule, as an array.

    FIDE's K (B.02 8.3.3, :func:`chessrate.fide.k_factor.fide_k_factor`): without any profile
    array, from the rating alone; with profile arrays, by the same rules in the same order, a
    value of -1 meaning "not known" for that player. A club's K by rating band looks at the
    rating only.
    """
    rating = _ratings(ratings, "ratings")
    policy = rules.k_policy
    if policy is None:
        raise InvalidInputError("k", None, f"the rule set {rules.name!r} needs K to be given")
    if isinstance(policy, KByRatingBand):
        # As KByRatingBand.k_for: the first band, then each band whose start the rating reaches.
        k = np.full(len(rating), policy.bands[0].k, dtype=np.int64)
        for band in policy.bands:
            k = np.where(rating >= band.from_rating, band.k, k)
        return k
    return _fide_k(rating, policy, birth_year, rated_games, highest_rating)


def _fide_k(
    rating: IntArray,
    policy: FideKPolicy,
    birth_year: ArrayLike | None,
    rated_games: ArrayLike | None,
    highest_rating: ArrayLike | None,
) -> IntArray:
    fide = policy.rules
    if birth_year is None and rated_games is None and highest_rating is None:
        # Profile unknown: the rating alone decides between 20 and 10 (fide_k_factor).
        return np.where(rating >= fide.k_established_from, fide.k_established, fide.k_standard)
    n = len(rating)
    born = _profile(birth_year, "birth_year", n)
    played = _profile(rated_games, "rated_games", n)
    # max(rating, highest published): an unknown (-1) highest leaves the rating.
    highest = np.maximum(rating, _profile(highest_rating, "highest_rating", n))
    age = policy.day.year - born
    if fide.junior_rule is JuniorRule.UNTIL_END_OF_YEAR_OF_18TH_BIRTHDAY:
        junior = (born >= 0) & (age <= 18)
    else:
        junior = (born >= 0) & (age < 18)
    k = np.full(n, fide.k_standard, dtype=np.int64)
    k = np.where((played >= 0) & (played < fide.new_player_games), fide.k_new_player, k)
    k = np.where(junior & (highest < fide.junior_rating_below), fide.k_junior, k)
    return np.where(highest >= fide.k_established_from, fide.k_established, k)


def _profile(values: ArrayLike | None, field: str, n: int) -> IntArray:
    if values is None:
        return np.full(n, -1, dtype=np.int64)
    array = np.asarray(values)
    if array.shape != (n,) or not np.issubdtype(array.dtype, np.integer):
        raise InvalidInputError(field, array.shape, f"one whole number per player ({n}), -1 if unknown")
    return array.astype(np.int64, copy=False)


def _side_key(rating: IntArray, cap: DifferenceCap | None, *, white: bool) -> NDArray[np.int32]:
    """White's part of a game's key, or Black's (to subtract): 3 x rating, and the cap's block."""
    key = 3 * rating.astype(np.int32)
    spared = cap is not None and cap.applies_below is not None
    if white:
        key += 3 * (_MAX - _MIN)
        if spared and cap is not None and cap.applies_below is not None:
            # B.02 8.3.1 (from 2025-10-01): no cap for a player rated 2650 or more.
            key += _BLOCK * (rating >= cap.applies_below).astype(np.int32)
    elif spared and cap is not None and cap.applies_below is not None:
        key -= 2 * _BLOCK * (rating >= cap.applies_below).astype(np.int32)
    return key


@lru_cache(maxsize=32)
def _expected_by_difference(expected: Expected) -> FloatArray:
    """The expected score for every whole difference -4000 ... 4000 (hundredths for the table)."""
    differences = range(-(_MAX - _MIN), _MAX - _MIN + 1)
    if expected is Expected.TABLE:
        return np.array([int(scoring_probability(d) * 100) for d in differences], dtype=np.float64)
    return np.array([float(elo.expected_score(d)) for d in differences], dtype=np.float64)


@lru_cache(maxsize=32)
def _tables(expected: Expected, cap: DifferenceCap | None, *, counted: bool) -> tuple[FloatArray, FloatArray]:
    """White's and Black's score minus expected score for every key, in four blocks.

    Block (spared White, spared Black): whether the 400-point rule spares that side. Hundredths
    for table 8.1.2 (``100 S - PD``), plain fractions for the formula; with ``counted``, plus
    2**30 per game. Read-only: they are shared between calls.
    """
    by_difference = _expected_by_difference(expected)
    unit = 100.0 if expected is Expected.TABLE else 1.0
    difference = np.arange(-(_MAX - _MIN), _MAX - _MIN + 1)
    limit = cap.limit if cap is not None else _MAX - _MIN

    def expected_for(own_difference: NDArray[np.int64], capped: bool) -> FloatArray:
        used = np.clip(own_difference, -limit, limit) if capped else own_difference
        return by_difference[used + (_MAX - _MIN)]

    blocks_white: list[FloatArray] = []
    blocks_black: list[FloatArray] = []
    for spared_black in (False, True):
        for spared_white in (False, True):
            white = np.empty(_BLOCK)
            black = np.empty(_BLOCK)
            for halves in range(3):
                # FIDE B.02 8.3.1: a difference over 400 counts as 400, for the side the rule covers.
                white[halves::3] = unit * halves / 2 - expected_for(difference, not spared_white)
                black[halves::3] = unit * (2 - halves) / 2 - expected_for(-difference, not spared_black)
            blocks_white.append(white)
            blocks_black.append(black)
    white_all = np.concatenate(blocks_white)
    black_all = np.concatenate(blocks_black)
    if counted:
        white_all += _COUNT_UNIT
        black_all += _COUNT_UNIT
    white_all.flags.writeable = False
    black_all.flags.writeable = False
    return white_all, black_all


def _spares_anyone(cap: DifferenceCap | None, ratings: IntArray) -> bool:
    """Whether the cap spares some player here, so that White's and Black's tables differ."""
    if cap is None or cap.applies_below is None:
        return False
    return bool(len(ratings)) and int(ratings.max()) >= cap.applies_below


def _cap_one_game_per_event(
    key: NDArray[np.int32],
    values: tuple[FloatArray, FloatArray],
    players: tuple[IntArray, IntArray],
    own_ratings: tuple[IntArray, IntArray],
    events: IntArray | None,
    expected: Expected,
    cap: DifferenceCap,
) -> None:
    """FIDE 2022-2024 (B.02 8.3.1): "a player may benefit from only one upgrade under this rule,
    for the game in which the rating difference is greatest", per player and tournament; on a tie
    the first such game, as :func:`chessrate.calculate._games_to_cap` takes it.

    ``values`` (White's and Black's, uncapped) are updated in place for the capped games.
    """
    difference = key // 3 - (_MAX - _MIN)
    over = np.flatnonzero(np.abs(difference) > cap.limit)
    if len(over) == 0:
        return
    event = np.zeros(len(over), dtype=np.intp) if events is None else events[over]
    colour_parts, player_parts, event_parts, game_parts = [], [], [], []
    for colour in (0, 1):
        covered = np.ones(len(over), dtype=bool)
        if cap.applies_below is not None:
            covered = own_ratings[colour][over] < cap.applies_below
        colour_parts.append(np.full(int(covered.sum()), colour))
        player_parts.append(players[colour][over[covered]])
        event_parts.append(event[covered])
        game_parts.append(over[covered])
    colour = np.concatenate(colour_parts)
    player = np.concatenate(player_parts)
    event_of = np.concatenate(event_parts)
    game = np.concatenate(game_parts)
    # Per player and tournament: the greatest |D| first, then the earliest game.
    order = np.lexsort((game, -np.abs(difference[game]), event_of, player))
    first = np.ones(len(order), dtype=bool)
    first[1:] = (np.diff(player[order]) != 0) | (np.diff(event_of[order]) != 0)
    chosen = order[first]
    by_difference = _expected_by_difference(expected)
    unit = 100.0 if expected is Expected.TABLE else 1.0
    for side in (0, 1):
        games = game[chosen[colour[chosen] == side]]
        own = difference[games] if side == 0 else -difference[games]
        halves = key[games] % 3 if side == 0 else 2 - key[games] % 3
        capped = np.clip(own, -cap.limit, cap.limit)
        values[side][games] = unit * halves / 2 - by_difference[capped + (_MAX - _MIN)]


def _round_per_event(
    players_of: tuple[IntArray, IntArray],
    events: IntArray,
    values: tuple[FloatArray, FloatArray],
    k: IntArray,
    players: int,
    *,
    exact: bool,
) -> IntArray:
    """Each tournament's change rounded on its own, then added up (a club's rounding)."""
    span = int(events.max(initial=0)) + 1
    sides = np.concatenate([players_of[0] * span + events, players_of[1] * span + events])
    groups, inverse = np.unique(sides, return_inverse=True)
    sums = np.bincount(inverse, np.concatenate(values), minlength=len(groups))
    player = groups // span
    if exact:
        rounded = _round_hundredths(np.rint(sums).astype(np.int64) * k[player])
    else:
        rounded = _round_float(sums * k[player])
    return np.bincount(player, rounded, minlength=players).astype(np.int64)


def _apply_700_rule(k: IntArray, games: IntArray, max_k_times_games: int | None) -> IntArray:
    """K cut to the largest whole number with K x n <= 700 (B.02 8.3.3), n the period's games."""
    if max_k_times_games is None:
        return k
    over = k * games > max_k_times_games
    return np.where(over, max_k_times_games // np.maximum(games, 1), k)


def _round_hundredths(hundredths: IntArray) -> IntArray:
    """A whole number of hundredths to the nearest whole number, 0.5 away from zero (B.02 8.3.4)."""
    magnitude = (np.abs(hundredths) + 50) // 100
    return np.where(hundredths < 0, -magnitude, magnitude)


def _round_float(change: FloatArray) -> IntArray:
    """To the nearest whole number, 0.5 away from zero."""
    return (np.sign(change) * np.floor(np.abs(change) + 0.5)).astype(np.int64)


def _k_array(k: ArrayLike | None, rating: IntArray, rules: RuleSet) -> IntArray:
    if k is None:
        return k_factors(rating, rules=rules)
    array = np.asarray(k)
    if array.ndim == 0:
        array = np.full(len(rating), array)
    if array.shape != rating.shape or not np.issubdtype(array.dtype, np.integer):
        raise InvalidInputError("k", array.shape, f"one whole number per player ({len(rating)})")
    if len(array) and array.min() <= 0:
        first = int(np.flatnonzero(array <= 0)[0])
        raise InvalidInputError("k", int(array[first]), f"player {first}: K is a whole number above zero")
    return array.astype(np.int64, copy=False)


# ---------------------------------------------------------------------------------------------
# Input checks: cheap whole-array reductions, so a bad value is named before any rating.


def _indices(values: ArrayLike, field: str, n: int | None = None) -> IntArray:
    array = np.asarray(values)
    if array.ndim != 1 or not np.issubdtype(array.dtype, np.integer):
        raise InvalidInputError(field, array.dtype, "a one-dimensional array of whole numbers")
    if n is not None and len(array) != n:
        raise InvalidInputError(field, len(array), f"one value per game ({n})")
    array = array.astype(np.intp, copy=False)
    if len(array) and array.min() < 0:
        first = int(np.flatnonzero(array < 0)[0])
        raise InvalidInputError(field, int(array[first]), f"game {first}: cannot be negative")
    return array


def _games(
    white: ArrayLike, black: ArrayLike, white_half_points: ArrayLike
) -> tuple[IntArray, IntArray, NDArray[np.int8]]:
    w = _indices(white, "white")
    b = _indices(black, "black", len(w))
    s = np.asarray(white_half_points)
    if s.shape != w.shape or not np.issubdtype(s.dtype, np.integer):
        raise InvalidInputError("white_half_points", s.dtype, f"one whole number per game ({len(w)})")
    if len(s) and (s.min() < 0 or s.max() > 2):
        first = int(np.flatnonzero((s < 0) | (s > 2))[0])
        raise InvalidInputError("white_half_points", int(s[first]), f"game {first}: 0, 1 or 2 half points")
    if len(w) and (same := w == b).any():
        first = int(np.flatnonzero(same)[0])
        raise InvalidInputError("black", int(b[first]), f"game {first}: a player cannot play themself")
    return w, b, s.astype(np.int8, copy=False)


def _check_players(w: IntArray, b: IntArray, players: int) -> None:
    for field, side in (("white", w), ("black", b)):
        if len(side) and side.max() >= players:
            first = int(np.flatnonzero(side >= players)[0])
            raise InvalidInputError(field, int(side[first]), f"game {first}: only {players} players rated")


def _ratings(values: ArrayLike, field: str, n: int | None = None) -> IntArray:
    array = np.asarray(values)
    if array.ndim != 1 or (n is not None and len(array) != n):
        raise InvalidInputError(
            field, array.shape, "one rating per player" if n is None else f"one per game ({n})"
        )
    if not np.issubdtype(array.dtype, np.integer):
        whole = np.asarray(array, dtype=np.float64)
        if not np.all(whole == np.round(whole)):
            first = int(np.flatnonzero(whole != np.round(whole))[0])
            raise InvalidInputError(field, whole[first].item(), "the bulk engine rates whole-number ratings")
        array = whole.astype(np.int64)
    array = array.astype(np.int64, copy=False)
    if len(array) and (array.min() < _MIN or array.max() > _MAX):
        first = int(np.flatnonzero((array < _MIN) | (array > _MAX))[0])
        raise InvalidInputError(field, int(array[first]), f"a rating is between {_MIN} and {_MAX}")
    return array
