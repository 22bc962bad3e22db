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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chessrate import _glicko2_steps as steps
from chessrate import elo
from chessrate.errors import ConvergenceError, InvalidInputError, RatingError
from chessrate.fide.rules import CapScope, JuniorRule
from chessrate.fide.tables import scoring_probability
from chessrate.glicko2 import DEFAULT_TAU
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
        white_part = _side_key(w_rating, table_cap, white=True)
        black_part = _side_key(b_rating, table_cap, white=False)
    else:
        white_part = _side_key(rating, table_cap, white=True)[w]
        black_part = _side_key(rating, table_cap, white=False)[b]
    key = np.add(white_part, black_part, dtype=np.intp)  # an index array, so the gather is direct
    del white_part, black_part
    key += s
    k_given = _k_array(k, rating, rules)

    x_white = x_black = None
    if not (one_game_scope or per_event_rounding or not exact or len(w) > _SAFE_GAMES):
        # The fast path: one table gather and one scatter-add per colour, the game counts in the values.
        white_table, black_table = _tables(rules.expected, table_cap, counted=True)
        values = np.take(white_table, key)
        total = np.zeros(players)
        np.add.at(total, w, values)
        sides = (w_rating, b_rating) if per_game else (rating,)
        if any(_spares_anyone(table_cap, side) for side in sides):
            np.take(black_table, key, out=values)
        else:
            np.subtract(2.0 * _COUNT_UNIT, values, out=values)  # Black's: -(100 S - PD) + 2**30
        np.add.at(total, b, values)
        del values, key
        counted = np.rint(total * (1.0 / _COUNT_UNIT))  # exact: a power of two, whole numbers < 2**53
        total -= counted * _COUNT_UNIT
        games: IntArray = counted.astype(np.int64)
        sums: FloatArray = total
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
        games = (np.bincount(w, minlength=players) + np.bincount(b, minlength=players)).astype(np.int64)
        sums = np.bincount(w, x_white, minlength=players).astype(np.float64)
        sums += np.bincount(b, x_black, minlength=players)

    k_used = _apply_700_rule(k_given, games, rules.max_k_times_games)
    if exact:
        hundredths = np.rint(sums) * k_used.astype(np.float64)  # K x sum(100 S - PD): whole, exact
        change = hundredths / 100.0
        rounded = _round_hundredths(hundredths)
    else:
        change = sums * k_used
        rounded = _round_float(change)
    if per_event_rounding and events is not None and x_white is not None and x_black is not None:
        rounded = _round_per_event((w, b), events, (x_white, x_black), k_used, players, exact=exact)

    score: FloatArray | None = None
    expected: FloatArray | None = None
    if totals:
        halves = np.bincount(w, s, minlength=players) + np.bincount(b, 2 - s, minlength=players)
        score = halves / 2.0
        expected_sum = (50.0 * halves - sums) / 100.0 if exact else halves / 2.0 - sums
        expected = expected_sum.astype(np.float64, copy=False)
    return EloPeriod(
        games=games,
        k=k_used,
        change=change,
        rounded_change=rounded,
        new_rating=rating + rounded,
        score=score,
        expected=expected,
    )


@dataclass(frozen=True, kw_only=True, eq=False)
class EloGameWorking:
    """How each game is rated for White and for Black, as arrays indexed by game."""

    #: The difference used: own rating minus the opponent's, after the 400-point rule.
    white_difference: IntArray
    black_difference: IntArray
    #: Whether the 400-point rule limited the difference (B.02 8.3.1).
    white_capped: NDArray[np.bool_]
    black_capped: NDArray[np.bool_]
    #: The expected score PD: table 8.1.2 (a whole number of hundredths) or the logistic formula.
    white_expected: FloatArray
    black_expected: FloatArray


def elo_game_working(
    white: ArrayLike,
    black: ArrayLike,
    white_rating: ArrayLike,
    black_rating: ArrayLike,
    *,
    rules: RuleSet,
    event: ArrayLike | None = None,
) -> EloGameWorking:
    """The per-game working of :func:`rate_elo_period`: each side's difference, cap and expected score.

    The figures :func:`chessrate.calculate.rate_period` shows per game (``GameWorking``), for
    whole ratings. ``white_rating`` and ``black_rating`` are the ratings each side is rated
    from; ``event`` each game's tournament, as for :func:`rate_elo_period` (the 2022-2024 rules
    cap one game per player and tournament). A game's change is K x (score - expected).
    """
    w = _indices(white, "white")
    b = _indices(black, "black", len(w))
    w_rating = _ratings(white_rating, "white_rating", len(w))
    b_rating = _ratings(black_rating, "black_rating", len(w))
    events = None if event is None else _indices(event, "event", len(w))
    difference = w_rating - b_rating  # White's; Black's is its negative
    cap = rules.cap
    if cap is None:
        white_capped = np.zeros(len(w), dtype=bool)
        black_capped = np.zeros(len(w), dtype=bool)
    elif cap.scope is CapScope.ONE_GAME_PER_TOURNAMENT:
        chosen = _one_capped_game_per_event(difference, (w, b), (w_rating, b_rating), events, cap)
        white_capped = np.zeros(len(w), dtype=bool)
        black_capped = np.zeros(len(w), dtype=bool)
        white_capped[chosen[0]] = True
        black_capped[chosen[1]] = True
    else:
        over = np.abs(difference) > cap.limit
        white_capped = over if cap.applies_below is None else over & (w_rating < cap.applies_below)
        black_capped = over if cap.applies_below is None else over & (b_rating < cap.applies_below)
    limit = cap.limit if cap is not None else _MAX - _MIN
    clipped = np.clip(difference, -limit, limit)
    white_difference = np.where(white_capped, clipped, difference)
    black_difference = np.where(black_capped, -clipped, -difference)
    by_difference = _expected_by_difference(rules.expected)
    unit = 100.0 if rules.expected is Expected.TABLE else 1.0
    return EloGameWorking(
        white_difference=white_difference,
        black_difference=black_difference,
        white_capped=white_capped,
        black_capped=black_capped,
        white_expected=by_difference[white_difference + (_MAX - _MIN)] / unit,
        black_expected=by_difference[black_difference + (_MAX - _MIN)] / unit,
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


def _side_key(rating: IntArray, cap: DifferenceCap | None, *, white: bool) -> NDArray[np.uint16]:
    """White's part of a game's key, 3 x rating, or Black's, 3 x (4000 - rating); each plus the
    block of the tables for a side the cap spares. Both fit two bytes, so the per-game gathers
    read little memory: White's 3 r + 24003 e (at most 36003), Black's 3 (4000 - r) + 48006 e.
    """
    two_bytes = rating.astype(np.uint16)
    key = two_bytes * np.uint16(3) if white else (np.uint16(_MAX - _MIN) - two_bytes) * np.uint16(3)
    if cap is not None and cap.applies_below is not None:
        # B.02 8.3.1 (from 2025-10-01): the 400-point rule is for players rated below 2650.
        spared = (rating >= cap.applies_below).astype(np.uint16)
        key += spared * np.uint16(_BLOCK if white else 2 * _BLOCK)
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

    def expected_for(own_difference: NDArray[np.int64], *, capped: bool) -> FloatArray:
        used = np.clip(own_difference, -limit, limit) if capped else own_difference
        return by_difference[used + (_MAX - _MIN)]

    blocks_white: list[FloatArray] = []
    blocks_black: list[FloatArray] = []
    for spared_black in (False, True):
        for spared_white in (False, True):
            white = np.empty(_BLOCK)
            black = np.empty(_BLOCK)
            # FIDE B.02 8.3.1: a difference over 400 counts as 400, for the side the rule covers.
            white_expected = expected_for(difference, capped=not spared_white)
            black_expected = expected_for(-difference, capped=not spared_black)
            for halves in range(3):
                white[halves::3] = unit * halves / 2 - white_expected
                black[halves::3] = unit * (2 - halves) / 2 - black_expected
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
    by_difference = _expected_by_difference(expected)
    unit = 100.0 if expected is Expected.TABLE else 1.0
    for side, capped_games in enumerate(
        _one_capped_game_per_event(difference, players, own_ratings, events, cap)
    ):
        own = difference[capped_games] if side == 0 else -difference[capped_games]
        halves = key[capped_games] % 3 if side == 0 else 2 - key[capped_games] % 3
        capped = np.clip(own, -cap.limit, cap.limit)
        values[side][capped_games] = unit * halves / 2 - by_difference[capped + (_MAX - _MIN)]


def _one_capped_game_per_event(
    difference: NDArray[np.integer[Any]],
    players: tuple[IntArray, IntArray],
    own_ratings: tuple[IntArray, IntArray],
    events: IntArray | None,
    cap: DifferenceCap,
) -> tuple[IntArray, IntArray]:
    """The games whose difference (White's) the 2022-2024 rule caps, for White and for Black:
    per player and tournament the greatest |D| over the limit, the first such game on a tie."""
    over = np.flatnonzero(np.abs(difference) > cap.limit)
    if len(over) == 0:
        return over, over
    event = np.zeros(len(over), dtype=np.intp) if events is None else events[over]
    colour_parts: list[IntArray] = []
    player_parts: list[IntArray] = []
    event_parts: list[IntArray] = []
    game_parts: list[IntArray] = []
    for side in (0, 1):
        covered = np.ones(len(over), dtype=bool)
        if cap.applies_below is not None:
            covered = own_ratings[side][over] < cap.applies_below
        colour_parts.append(np.full(int(covered.sum()), side, dtype=np.int64))
        player_parts.append(players[side][over[covered]])
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
    return game[chosen[colour[chosen] == 0]], game[chosen[colour[chosen] == 1]]


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
    rounded = _round_hundredths(np.rint(sums) * k[player]) if exact else _round_float(sums * k[player])
    return np.bincount(player, rounded, minlength=players).astype(np.int64)


def _apply_700_rule(k: IntArray, games: IntArray, max_k_times_games: int | None) -> IntArray:
    """K cut to the largest whole number with K x n <= 700 (B.02 8.3.3), n the period's games."""
    if max_k_times_games is None:
        return k
    over = np.flatnonzero(k * games > max_k_times_games)
    if not len(over):
        return k
    cut = k.copy()
    cut[over] = max_k_times_games // games[over]
    return cut


def _round_hundredths(hundredths: FloatArray) -> IntArray:
    """A whole number of hundredths (held exactly in a float) to the nearest whole number, 0.5 away
    from zero (B.02 8.3.4): floor((|h| + 50) / 100) with the sign of h. Exact while |h| < 2**40:
    the quotient's float error is then far below the 0.01 between x.99 and the next whole number.
    """
    magnitude = np.abs(hundredths)
    if len(magnitude) and magnitude.max() >= 2.0**40:  # beyond any real period; exact integers then
        whole = (magnitude.astype(np.int64) + 50) // 100
        return np.where(hundredths < 0, -whole, whole)
    magnitude += 50.0
    magnitude /= 100.0
    np.floor(magnitude, out=magnitude)
    np.copysign(magnitude, hundredths, out=magnitude)
    return magnitude.astype(np.int64)


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


# ---------------------------------------------------------------------------------------------
# Glicko-2 (Glickman, "Example of the Glicko-2 system", as chessrate.glicko2 implements it)


@dataclass(frozen=True, kw_only=True, eq=False)
class Glicko2Period:
    """One Glicko-2 rating period of every player, as arrays indexed by player."""

    rating: FloatArray
    deviation: FloatArray
    volatility: FloatArray
    #: Whether the player had games in the period (if not, only Step 6 applied).
    played: NDArray[np.bool_]
    #: Illinois iterations of Step 5.4 (0 for a player without games).
    iterations: IntArray


#: Games (or players) per chunk of the Glicko-2 passes: the temporaries stay in the processor's cache.
_CHUNK = 1 << 15


def rate_glicko2_period(
    white: ArrayLike,
    black: ArrayLike,
    white_half_points: ArrayLike,
    rating: ArrayLike,
    deviation: ArrayLike,
    volatility: ArrayLike,
    *,
    tau: float = DEFAULT_TAU,
    epsilon: float = steps.EPSILON,
    max_iterations: int = steps.MAX_ITERATIONS,
) -> Glicko2Period:
    """Rate one Glicko-2 period of many players, each from the ratings at the period start.

    The bulk counterpart of :func:`chessrate.glicko2.rate_whole_period` (paper Steps 2-8, one
    elapsed period): Steps 3-4 sum over the games with two gathers per game, Step 5's Illinois
    iteration runs on every player at once, each stopping at its own tolerance, bounded by
    ``max_iterations`` (a :class:`~chessrate.errors.ConvergenceError` names the player).
    Ratings are chess ratings, 0 to 4000; deviations and volatilities above zero.
    """
    w, b, s = _games(white, black, white_half_points)
    r = _floats(rating, "rating", positive=False)
    n = len(r)
    rd = _floats(deviation, "deviation", positive=True, n=n)
    sigma = _floats(volatility, "volatility", positive=True, n=n)
    if len(r) and (r.min() < _MIN or r.max() > _MAX):
        first = int(np.flatnonzero((r < _MIN) | (r > _MAX))[0])
        raise InvalidInputError(
            "rating", r[first].item(), f"player {first}: a rating is between {_MIN} and {_MAX}"
        )
    _check_players(w, b, n)
    _check_settings(tau, epsilon, max_iterations)

    # Step 2: the Glicko-2 scale; g(phi) once per player (Step 3).
    mu = (r - steps.CENTRE) / steps.SCALE
    phi = rd / steps.SCALE
    g = 1.0 / np.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))
    variance_sum, improvement = _glicko2_sums(w, b, s, mu + 1j * g, n)
    played = np.zeros(n, dtype=bool)
    played[w] = True
    played[b] = True

    rating_out = np.empty(n)
    deviation_out = np.empty(n)
    volatility_out = np.empty(n)
    iterations = np.zeros(n, dtype=np.int64)
    # Steps 3-8 a block of players at a time, so that the per-player temporaries stay in cache.
    for start in range(0, n, _CHUNK):
        block = slice(start, start + _CHUNK)
        new_mu, new_phi, new_sigma, taken = _update_players(
            mu[block],
            phi[block],
            sigma[block],
            played[block],
            variance_sum[block],
            improvement[block],
            first_player=start,
            tau=tau,
            epsilon=epsilon,
            max_iterations=max_iterations,
        )
        rating_out[block] = steps.SCALE * new_mu + steps.CENTRE  # Step 8
        deviation_out[block] = steps.SCALE * new_phi
        volatility_out[block] = new_sigma
        iterations[block] = taken
    return Glicko2Period(
        rating=rating_out,
        deviation=deviation_out,
        volatility=volatility_out,
        played=played,
        iterations=iterations,
    )


def _update_players(
    mu: FloatArray,
    phi: FloatArray,
    sigma: FloatArray,
    played: NDArray[np.bool_],
    variance_sum: FloatArray,
    improvement: FloatArray,
    *,
    first_player: int,
    tau: float,
    epsilon: float,
    max_iterations: int,
) -> tuple[FloatArray, FloatArray, FloatArray, IntArray]:
    """Steps 3-7 for a block of players, from their sums over the period's games."""
    new_mu = mu.copy()
    new_phi = np.sqrt(phi * phi + 1.0 * sigma * sigma)  # Step 6 only, for those without games
    new_sigma = sigma.copy()
    iterations = np.zeros(len(mu), dtype=np.int64)
    rows = np.flatnonzero(played)
    if not len(rows):
        return new_mu, new_phi, new_sigma, iterations
    who = rows + first_player
    total = improvement[rows]
    with np.errstate(divide="ignore", over="ignore"):
        v = 1.0 / variance_sum[rows]  # Step 3 (a sum of 0 gives inf, refused below)
        delta = v * total  # Step 4
        bad = ~np.isfinite(v * v) | ~np.isfinite(delta * delta)
    if bad.any():
        raise RatingError(
            f"player {int(who[bad][0])}: the rating gaps in this period are too large for "
            "Glicko-2's estimated variance v or improvement Delta"
        )
    phi2 = phi[rows] * phi[rows]
    sigma_prime, taken = _volatility(
        sigma[rows], phi2, v, delta, who, tau=tau, epsilon=epsilon, max_iterations=max_iterations
    )
    phi_star = np.sqrt(phi2 + 1.0 * sigma_prime * sigma_prime)  # Step 6
    phi_prime = 1.0 / np.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # Step 7
    mu_prime = mu[rows] + phi_prime * phi_prime * total
    if not (np.isfinite(mu_prime).all() and np.isfinite(phi_prime).all()):
        first = int(who[np.flatnonzero(~np.isfinite(mu_prime) | ~np.isfinite(phi_prime))[0]])
        raise ConvergenceError(f"player {first}: Glicko-2 produced a non-finite result")
    new_mu[rows] = mu_prime
    new_phi[rows] = phi_prime
    new_sigma[rows] = sigma_prime
    iterations[rows] = taken
    return new_mu, new_phi, new_sigma, iterations


def _glicko2_sums(
    w: IntArray, b: IntArray, s: NDArray[np.int8], packed: NDArray[np.complex128], players: int
) -> tuple[FloatArray, FloatArray]:
    """Per player: sum of g(phi_j)^2 E_j (1 - E_j) (Step 3) and of g(phi_j) (s_j - E_j) (Step 4).

    ``packed`` holds mu + i g(phi) per player, so one gather per side brings both. With
    t = exp(g_black (mu_black - mu_white)), White's E = 1 / (1 + t) and 1 - E = t E; with
    u = exp(g_white (mu_black - mu_white)), Black's 1 - E = 1 / (1 + u) and E = u (1 - E): one
    exponential per side, no division by a difference. The games go through in chunks whose
    temporaries stay in the processor's cache.
    """
    variance_sum = np.zeros(players)
    improvement = np.zeros(players)
    size = min(_CHUNK, len(w))
    white_buffer = np.empty(size, dtype=np.complex128)
    black_buffer = np.empty(size, dtype=np.complex128)
    gap_buffer, score_buffer, odds_buffer, p_buffer, gp_buffer, term_buffer = (
        np.empty(size) for _ in range(6)
    )
    for start in range(0, len(w), _CHUNK):
        wc = w[start : start + _CHUNK]
        bc = b[start : start + _CHUNK]
        m = len(wc)
        white = np.take(packed, wc, out=white_buffer[:m])
        black = np.take(packed, bc, out=black_buffer[:m])
        gap = np.subtract(black.real, white.real, out=gap_buffer[:m])  # mu_black - mu_white
        score = np.multiply(s[start : start + _CHUNK], 0.5, out=score_buffer[:m])  # White's
        odds, p, gp, term = odds_buffer[:m], p_buffer[:m], gp_buffer[:m], term_buffer[:m]
        for players_of, g, white_side in ((wc, black.imag, True), (bc, white.imag, False)):
            # g is the opponent's g(phi_j)
            np.multiply(g, gap, out=odds)
            np.exp(odds, out=odds)  # White: t = 1/E - 1; Black: u
            np.add(odds, 1.0, out=p)
            np.divide(1.0, p, out=p)  # White: E; Black: 1 - E
            np.multiply(g, p, out=gp)
            np.multiply(gp, gp, out=term)
            term *= odds  # g^2 E (1 - E)
            np.add.at(variance_sum, players_of, term)
            np.multiply(g, score, out=term)
            if white_side:
                np.subtract(term, gp, out=term)  # g (s - E)
            else:
                np.subtract(gp, term, out=term)  # g ((1 - s) - E) = g ((1 - E) - s)
            np.add.at(improvement, players_of, term)
    return variance_sum, improvement


def _volatility(
    sigma: FloatArray,
    phi2: FloatArray,
    v: FloatArray,
    delta: FloatArray,
    who: IntArray,
    *,
    tau: float,
    epsilon: float,
    max_iterations: int,
) -> tuple[FloatArray, IntArray]:
    """Step 5 for every player at once: the Illinois iteration of :func:`_glicko2_steps.volatility`.

    Each player iterates until its own |B - A| <= epsilon; the players still open are kept
    packed together, so each round computes on them alone. ``phi2`` is phi^2; ``who`` names
    the players in errors.
    """
    a = np.log(sigma * sigma)  # Step 5.1
    # f(x) = e^x (Delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2, with the
    # constant parts added in the same order as the scalar code.
    c1 = delta * delta - phi2 - v
    c2 = phi2 + v
    tau2 = tau * tau

    def f(x: FloatArray, a: FloatArray, c1: FloatArray, c2: FloatArray) -> FloatArray:
        ex = np.exp(x)
        return ex * (c1 - ex) / (2.0 * (c2 + ex) ** 2) - (x - a) / tau2

    # Step 5.2
    big_a = a.copy()
    big_b = np.empty_like(a)
    wide = delta * delta > c2
    big_b[wide] = np.log(c1[wide])
    search = np.flatnonzero(~wide)
    k = np.ones(len(search), dtype=np.int64)
    rows = np.arange(len(search))
    while len(rows):
        at = search[rows]
        rows = rows[f(a[at] - k[rows] * tau, a[at], c1[at], c2[at]) < 0]
        k[rows] += 1
        if len(rows) and int(k[rows].max()) > max_iterations:
            player = int(who[search[rows[0]]])
            raise ConvergenceError(
                f"player {player}: Glicko-2 Step 5.2 found no bracket for the volatility in "
                f"{max_iterations} steps"
            )
    big_b[search] = a[search] - k * tau
    # Step 5.3
    f_a = f(big_a, a, c1, c2)
    f_b = f(big_b, a, c1, c2)
    # Step 5.4, on the open players only, packed.
    iterations = np.zeros(len(a), dtype=np.int64)
    open_ = np.flatnonzero(np.abs(big_b - big_a) > epsilon)
    packed = [array[open_] for array in (big_a, big_b, f_a, f_b, a, c1, c2)]
    rounds = 0
    while len(open_):
        rounds += 1
        if rounds > max_iterations:
            raise ConvergenceError(
                f"player {int(who[open_[0]])}: Glicko-2 Step 5.4 (volatility) did not converge in "
                f"{max_iterations} iterations"
            )
        pa, pb, fa, fb, pa0, pc1, pc2 = packed
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            big_c = pa + (pa - pb) * fa / (fb - fa)  # Step 5.4(a)
            f_c = f(big_c, pa0, pc1, pc2)
        if not math.isfinite(float(np.add.reduce(f_c))):  # one pass; the rows only on failure
            _volatility_failure(fa, fb, big_c, f_c, who[open_])
        # Step 5.4(b): "<=" since the 2022-03-22 revision of the paper.
        swap = f_c * fb <= 0
        pa = np.where(swap, pb, pa)
        fa = np.where(swap, fb, fa / 2.0)
        pb, fb = big_c, f_c  # Step 5.4(c)
        still = np.abs(pb - pa) > epsilon
        if still.all():
            packed = [pa, pb, fa, fb, pa0, pc1, pc2]
            continue
        done = open_[~still]
        big_a[done] = pa[~still]
        iterations[done] = rounds
        open_ = open_[still]
        packed = [array[still] for array in (pa, pb, fa, fb, pa0, pc1, pc2)]
    return np.exp(big_a / 2.0), iterations  # Step 5.5


def _volatility_failure(
    fa: FloatArray, fb: FloatArray, big_c: FloatArray, f_c: FloatArray, who: IntArray
) -> None:
    """Raise the error of the first player whose Step 5.4 broke down, as the scalar code words it."""
    no_secant = fb == fa
    broken = no_secant | ~np.isfinite(big_c) | ~np.isfinite(f_c)
    if not broken.any():  # a sum overflowed, every value is finite
        return
    row = int(np.flatnonzero(broken)[0])
    if no_secant[row]:
        raise ConvergenceError(
            f"player {int(who[row])}: Glicko-2 Step 5.4 (volatility): f(A) = f(B), no secant"
        )
    raise ConvergenceError(f"player {int(who[row])}: Glicko-2 Step 5.4 (volatility) left the finite numbers")


def _check_settings(tau: float, epsilon: float, max_iterations: int) -> None:
    for field, value in (("tau", tau), ("epsilon", epsilon)):
        if not (math.isfinite(value) and value > 0):
            raise InvalidInputError(field, value, "must be a finite number above zero")
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, int) or max_iterations < 1:
        raise InvalidInputError("max iterations", max_iterations, "a whole number of at least 1")


def _floats(values: ArrayLike, field: str, *, positive: bool, n: int | None = None) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or (n is not None and len(array) != n):
        raise InvalidInputError(field, array.shape, "one value per player")
    bad = ~np.isfinite(array) | (array <= 0 if positive else False)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        reason = "a finite number above zero" if positive else "a finite number"
        raise InvalidInputError(field, array[first].item(), f"player {first}: {reason}")
    return array
