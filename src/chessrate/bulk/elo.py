"""Whole Elo rating periods from arrays, with numpy: FIDE's or any rule set of
:mod:`chessrate.systems.elo.ruleset`.

A rating period rates every game from the ratings at its start (FIDE B.02 8.3.2 and 8.3.4:
one change per period, rounded once), so a period is a few passes over arrays instead of a loop
over games. The results are those of the scalar path, :func:`chessrate.systems.elo.calculate.rate_period`,
player for player (``tests/test_bulk.py`` checks it on random periods). The FIDE policy (the K
lines in order, the 700 rule, the 400-point rule's reach and its one game per tournament) is
:mod:`chessrate.systems.fide.policy`'s, which the scalar path applies too.

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

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chessrate.bulk import _arrays as arrays
from chessrate.bulk._arrays import HIGHEST as _MAX
from chessrate.bulk._arrays import LOWEST as _MIN
from chessrate.bulk._arrays import FloatArray, IntArray
from chessrate.systems.elo import rating as elo
from chessrate.systems.elo.ruleset import (
    DifferenceCap,
    Expected,
    FideKPolicy,
    KByRatingBand,
    Rounding,
    RuleSet,
)
from chessrate.systems.fide.policy import (
    K_LINE_ORDER,
    UNKNOWN,
    cap_covers,
    capped_game_preference,
    exceeds_700_rule,
    game_not_rated,
    is_junior,
    k_line_holds,
    k_of_line,
    k_under_700_rule,
    over_cap,
)
from chessrate.systems.fide.regulations import CapScope
from chessrate.systems.fide.tables import scoring_probability

#: Every difference between two ratings on the scale: -4000 ... 4000.
_SPAN = 2 * (_MAX - _MIN) + 1
#: Keys of one table block: a difference and White's half points (0, 1, 2).
_BLOCK = 3 * _SPAN
#: Added to a table value per game, so one weighted bincount also counts the games.
_COUNT_UNIT = float(2**30)
#: The count decodes exactly while |sum of 100 S - PD| < 2**29, that is below this many games.
_SAFE_GAMES = 2**29 // 100 - 1


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
    score: FloatArray | None
    expected: FloatArray | None


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

    Equal to :func:`chessrate.systems.elo.calculate.rate_period` per player, the change to float precision
    and the rounded change exactly (table 8.1.2 works in whole hundredths). With the logistic
    formula the sum is in floats, so a change within 1e-12 of x.5 could round otherwise than
    the scalar path's 28-digit decimals.
    """
    w, b, s = arrays.games(white, black, white_half_points)
    rating = arrays.ratings(ratings, "ratings")
    players = len(rating)
    arrays.check_players(w, b, players)
    events = None if event is None else arrays.indices(event, "event", len(w))
    own = _own_ratings(rating, w, b, white_rating, black_rating)
    kept = _rated_games(rating, (w, b), own, rules)
    if kept is not None:  # the games the rules do not rate are left out (FIDE rapid and blitz 8.3.1)
        w, b, s = w[kept], b[kept], s[kept]
        events = None if events is None else events[kept]
        own = None if own is None else (own[0][kept], own[1][kept])
    k_given = _k_array(k, rating, rules)

    one_game_scope = rules.cap is not None and rules.cap.scope is CapScope.ONE_GAME_PER_TOURNAMENT
    per_event_rounding = rules.rounding is Rounding.TOURNAMENT and events is not None
    exact = rules.expected is Expected.TABLE
    # With the 2022 scope the tables are uncapped; the one capped game per tournament is added after.
    table_cap = None if one_game_scope else rules.cap
    key = _game_keys(rating, (w, b), s, own, table_cap)

    values: tuple[FloatArray, FloatArray] | None = None
    if not (one_game_scope or per_event_rounding or not exact or len(w) > _SAFE_GAMES):
        games, sums = _counted_sums(key, (w, b), players, own or (rating,), rules.expected, table_cap)
    else:
        white_table, black_table = _tables(rules.expected, table_cap, counted=False)
        values = (np.take(white_table, key), np.take(black_table, key))
        if one_game_scope and rules.cap is not None:
            own_of_game = own or (rating[w], rating[b])
            _cap_one_game_per_event(key, values, (w, b), own_of_game, events, rules.expected, rules.cap)
        games = (np.bincount(w, minlength=players) + np.bincount(b, minlength=players)).astype(np.int64)
        sums = np.bincount(w, values[0], minlength=players).astype(np.float64)
        sums += np.bincount(b, values[1], minlength=players)

    k_used = _apply_700_rule(k_given, games, rules.max_k_times_games)
    change, rounded = _change(sums, k_used, exact=exact)
    if per_event_rounding and events is not None and values is not None:
        rounded = _round_per_event((w, b), events, values, k_used, players, exact=exact)
    score, expected = _totals(w, b, s, sums, players, exact=exact) if totals else (None, None)
    return EloPeriod(
        games=games,
        k=k_used,
        change=change,
        rounded_change=rounded,
        new_rating=rating + rounded,
        score=score,
        expected=expected,
    )


def _rated_games(
    rating: IntArray,
    players: tuple[IntArray, IntArray],
    own: tuple[IntArray, IntArray] | None,
    rules: RuleSet,
) -> NDArray[np.bool_] | None:
    """Which games the rules rate, when some are not: FIDE rapid and blitz 8.3.1 from 1 December
    2024 leaves out a game 600 points or more apart with a player above 2600
    (:func:`chessrate.systems.fide.policy.game_not_rated`, as the scalar path); None: every game."""
    fide = rules.fide
    if fide is None or fide.not_rated_difference is None:
        return None
    white, black = own or (rating[players[0]], rating[players[1]])
    kept = ~np.asarray(game_not_rated(white, black, fide), dtype=np.bool_)
    return None if kept.all() else kept


def _own_ratings(
    rating: IntArray,
    w: IntArray,
    b: IntArray,
    white_rating: ArrayLike | None,
    black_rating: ArrayLike | None,
) -> tuple[IntArray, IntArray] | None:
    """Each side's rating per game, when given (per-event start ratings); None: the period start's."""
    if white_rating is None and black_rating is None:
        return None
    w_rating = rating[w] if white_rating is None else white_rating
    b_rating = rating[b] if black_rating is None else black_rating
    return (
        arrays.ratings(w_rating, "white_rating", len(w)),
        arrays.ratings(b_rating, "black_rating", len(w)),
    )


def _game_keys(
    rating: IntArray,
    players: tuple[IntArray, IntArray],
    s: NDArray[np.int8],
    own: tuple[IntArray, IntArray] | None,
    cap: DifferenceCap | None,
) -> NDArray[np.intp]:
    """One integer key per game: 3 (D + 4000) + s, plus a block for each side the cap spares."""
    if own is not None:
        white_part = _side_key(own[0], cap, white=True)
        black_part = _side_key(own[1], cap, white=False)
    else:
        white_part = _side_key(rating, cap, white=True)[players[0]]
        black_part = _side_key(rating, cap, white=False)[players[1]]
    key = np.add(white_part, black_part, dtype=np.intp)  # an index array, so the gather is direct
    key += s
    return key


def _counted_sums(
    key: NDArray[np.intp],
    players_of: tuple[IntArray, IntArray],
    players: int,
    sides: tuple[IntArray, ...],
    expected: Expected,
    cap: DifferenceCap | None,
) -> tuple[IntArray, FloatArray]:
    """The fast path: one table gather and one scatter-add per colour, the game counts carried in
    the values (2**30 a game). Each player's games and sum of 100 S - PD."""
    white_table, black_table = _tables(expected, cap, counted=True)
    values = np.take(white_table, key)
    total = np.zeros(players)
    np.add.at(total, players_of[0], values)
    if any(_spares_anyone(cap, side) for side in sides):
        np.take(black_table, key, out=values)
    else:
        np.subtract(2.0 * _COUNT_UNIT, values, out=values)  # Black's: -(100 S - PD) + 2**30
    np.add.at(total, players_of[1], values)
    counted = np.rint(total * (1.0 / _COUNT_UNIT))  # exact: a power of two, whole numbers < 2**53
    total -= counted * _COUNT_UNIT
    return counted.astype(np.int64), total


def _change(sums: FloatArray, k: IntArray, *, exact: bool) -> tuple[FloatArray, IntArray]:
    """The unrounded change K x sum, and the change rounded once, 0.5 away from zero (B.02 8.3.4)."""
    if exact:
        hundredths = np.rint(sums) * k.astype(np.float64)  # K x sum(100 S - PD): whole, exact
        return hundredths / 100.0, arrays.round_hundredths(hundredths)
    change = sums * k
    return change, arrays.round_half_away(change)


def _totals(
    w: IntArray, b: IntArray, s: NDArray[np.int8], sums: FloatArray, players: int, *, exact: bool
) -> tuple[FloatArray, FloatArray]:
    """Points scored and expected per player."""
    halves = np.bincount(w, s, minlength=players) + np.bincount(b, 2 - s, minlength=players)
    expected_sum = (50.0 * halves - sums) / 100.0 if exact else halves / 2.0 - sums
    return halves / 2.0, expected_sum.astype(np.float64, copy=False)


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

    The figures :func:`chessrate.systems.elo.calculate.rate_period` shows per game (``GameWorking``), for
    whole ratings. ``white_rating`` and ``black_rating`` are the ratings each side is rated
    from; ``event`` each game's tournament, as for :func:`rate_elo_period` (the 2022-2024 rules
    cap one game per player and tournament). A game's change is K x (score - expected).
    """
    w = arrays.indices(white, "white")
    b = arrays.indices(black, "black", len(w))
    w_rating = arrays.ratings(white_rating, "white_rating", len(w))
    b_rating = arrays.ratings(black_rating, "black_rating", len(w))
    events = None if event is None else arrays.indices(event, "event", len(w))
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
        over = over_cap(difference, cap.limit)
        white_capped = over & cap_covers(w_rating, cap.applies_below)
        black_capped = over & cap_covers(b_rating, cap.applies_below)
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

    FIDE's K (B.02 8.3.3, :func:`chessrate.systems.fide.k_factor.fide_k_factor`): without any profile
    array, from the rating alone; with profile arrays, by the same rules in the same order, a
    value of -1 meaning "not known" for that player. A club's K by rating band looks at the
    rating only.
    """
    rating = arrays.ratings(ratings, "ratings")
    policy = rules.k_policy
    if policy is None:
        raise arrays.refused("k", None, "rules-need-k", rules=rules.name)
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
    if fide.k_everyone is not None:  # rapid and blitz before 1 October 2022: one K for all
        return np.full(len(rating), fide.k_everyone, dtype=np.int64)
    if birth_year is None and rated_games is None and highest_rating is None:
        # Profile unknown: the rating alone decides between 20 and 10 (fide_k_factor).
        established = k_line_holds(
            K_LINE_ORDER[0], highest=rating, junior=False, rated_games=UNKNOWN, rules=fide
        )
        return np.where(established, fide.k_established, fide.k_standard)
    n = len(rating)
    # max(rating, highest published): an unknown (-1) highest leaves the rating.
    highest = np.maximum(rating, _profile(highest_rating, "highest_rating", n))
    junior = is_junior(_profile(birth_year, "birth_year", n), policy.day.year, fide)
    played = _profile(rated_games, "rated_games", n)
    holds = [
        k_line_holds(line, highest=highest, junior=junior, rated_games=played, rules=fide)
        for line in K_LINE_ORDER
    ]
    # The first line that holds gives K (np.select takes the first true condition).
    return np.select(
        [np.broadcast_to(condition, (n,)) for condition in holds],
        [k_of_line(line, fide) for line in K_LINE_ORDER],
    ).astype(np.int64)


def _profile(values: ArrayLike | None, field: str, n: int) -> IntArray:
    if values is None:
        return np.full(n, -1, dtype=np.int64)
    array = np.asarray(values)
    if array.shape != (n,) or not np.issubdtype(array.dtype, np.integer):
        raise arrays.refused(field, array.shape, "bulk-profile-per-player", players=n)
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
        spared = (~cap_covers(rating, cap.applies_below)).astype(np.uint16)
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


def _spares_anyone(cap: DifferenceCap | None, side: IntArray) -> bool:
    """Whether the cap spares some player here, so that White's and Black's tables differ."""
    if cap is None or cap.applies_below is None or not len(side):
        return False
    return not bool(cap_covers(int(side.max()), cap.applies_below))


def _cap_one_game_per_event(
    key: NDArray[np.intp],
    values: tuple[FloatArray, FloatArray],
    players: tuple[IntArray, IntArray],
    own_ratings: tuple[IntArray, IntArray],
    events: IntArray | None,
    expected: Expected,
    cap: DifferenceCap,
) -> None:
    """FIDE 2022-2024 (B.02 8.3.1): "a player may benefit from only one upgrade under this rule,
    for the game in which the rating difference is greatest", per player and tournament; on a tie
    the first such game (:func:`chessrate.systems.fide.policy.capped_game_preference`).

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
    over = np.flatnonzero(over_cap(difference, cap.limit))
    if len(over) == 0:
        return over, over
    event = np.zeros(len(over), dtype=np.intp) if events is None else events[over]
    colour_parts: list[IntArray] = []
    player_parts: list[IntArray] = []
    event_parts: list[IntArray] = []
    game_parts: list[IntArray] = []
    for side in (0, 1):
        covered = np.broadcast_to(cap_covers(own_ratings[side][over], cap.applies_below), (len(over),))
        colour_parts.append(np.full(int(covered.sum()), side, dtype=np.int64))
        player_parts.append(players[side][over[covered]])
        event_parts.append(event[covered])
        game_parts.append(over[covered])
    colour = np.concatenate(colour_parts)
    player = np.concatenate(player_parts)
    event_of = np.concatenate(event_parts)
    game = np.concatenate(game_parts)
    # Per player and tournament, the game the rule prefers first (lexsort's last key is the first).
    preference = capped_game_preference(difference[game], game)
    order = np.lexsort((*reversed(preference), event_of, player))
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
    rounded = (
        arrays.round_hundredths(np.rint(sums) * k[player])
        if exact
        else arrays.round_half_away(sums * k[player])
    )
    return np.bincount(player, rounded, minlength=players).astype(np.int64)


def _apply_700_rule(k: IntArray, games: IntArray, max_k_times_games: int | None) -> IntArray:
    """K cut by the 700 rule (B.02 8.3.3, :func:`chessrate.systems.fide.policy.k_under_700_rule`)."""
    if max_k_times_games is None:
        return k
    over = np.flatnonzero(exceeds_700_rule(k, games, max_k_times_games))
    if not len(over):
        return k
    cut = k.copy()
    cut[over] = k_under_700_rule(games[over], max_k_times_games)
    return cut


def _k_array(k: ArrayLike | None, rating: IntArray, rules: RuleSet) -> IntArray:
    if k is None:
        return k_factors(rating, rules=rules)
    array = np.asarray(k)
    if array.ndim == 0:
        array = np.full(len(rating), array)
    if array.shape != rating.shape or not np.issubdtype(array.dtype, np.integer):
        raise arrays.refused("k", array.shape, "bulk-k-per-player", players=len(rating))
    if len(array) and array.min() <= 0:
        first = int(np.flatnonzero(array <= 0)[0])
        raise arrays.refused("k", int(array[first]), "bulk-k-positive", player=first)
    return array.astype(np.int64, copy=False)
