"""Glicko (Glicko-1) as Mark Glickman published it: a rating and a rating deviation (RD).

Source: Glickman, "The Glicko system" (glicko.net/glicko/glicko.pdf), Steps 1 and 2 [GLICKO], read
through Wikipedia "Glicko rating system", a copy of the paper's steps on codefu.mk, and the FICS
"glicko" help file quoting Glickman [FICS-GLICKO].

>>> after = rate_period(
...     GlickoRating(1500, 200),
...     [GlickoGame(1400, 30, 1), GlickoGame(1550, 100, 0), GlickoGame(1700, 300, 0)],
... ).after
>>> round(after.rating), round(after.deviation, 1)
(1464, 151.4)

**Expected score, not win probability.** :func:`expected_score` counts a draw as half a point
([ELO-GUIDE]). Glicko gives no separate probability of a win.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from chessrate.errors import InvalidInputError

#: Step 2: q = ln(10) / 400.
Q = math.log(10) / 400
#: Step 1: "If the player is unrated, set the rating to 1500 and the RD to 350."
UNRATED_RATING = 1500.0
UNRATED_DEVIATION = 350.0
#: Step 1 caps the grown RD at the unrated player's 350.
MAX_DEVIATION = UNRATED_DEVIATION
#: Glickman suggests "an RD never drop below a threshold value, such as 30" (quoted in lila issue
#: #7274 [LILA-7274]; which of his papers says it is unconfirmed). Off unless asked for: the
#: paper's steps have no floor.
SUGGESTED_MIN_DEVIATION = 30.0


def check_finite(value: float, field_name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInputError(field_name, value, "not a finite number", code="not-finite")
    return float(value)


def check_positive(value: float, field_name: str) -> float:
    number = check_finite(value, field_name)
    if number <= 0:
        raise InvalidInputError(field_name, value, "must be above zero", code="above-zero")
    return number


#: The least value whose square is a normal float (about 1.5e-154): the papers divide by RD^2 and
#: tau^2 and take ln(sigma^2), which fail for a value whose square is zero or subnormal.
LEAST_SQUARABLE = math.sqrt(sys.float_info.min)


def check_squarable(value: float, field_name: str) -> float:
    """A value above zero whose square the arithmetic can use (an RD, a volatility, tau)."""
    number = check_positive(value, field_name)
    if number < LEAST_SQUARABLE:
        raise InvalidInputError(field_name, value, "too small to compute with", code="too-small")
    return number


def check_not_negative(value: float, field_name: str) -> float:
    number = check_finite(value, field_name)
    if number < 0:
        raise InvalidInputError(field_name, value, "cannot be negative", code="not-negative")
    return number


def check_score(value: float, field_name: str = "result") -> float:
    number = check_finite(value, field_name)
    if not 0.0 <= number <= 1.0:
        raise InvalidInputError(
            field_name, value, "a score is between 0 (loss) and 1 (win)", code="score-range"
        )
    return number


@dataclass(frozen=True, slots=True)
class GlickoRating:
    """A player's Glicko rating and rating deviation (RD); defaults are the unrated player."""

    rating: float = UNRATED_RATING
    deviation: float = UNRATED_DEVIATION

    def __post_init__(self) -> None:
        check_finite(self.rating, "rating")
        check_squarable(self.deviation, "deviation")


@dataclass(frozen=True, slots=True)
class GlickoGame:
    """One game of the period: the opponent's rating and RD, and the score (1, 0.5 or 0)."""

    opponent_rating: float
    opponent_deviation: float
    score: float

    def __post_init__(self) -> None:
        check_finite(self.opponent_rating, "opponent rating")
        check_squarable(self.opponent_deviation, "opponent deviation")
        check_score(self.score)


@dataclass(frozen=True, slots=True)
class GlickoResult:
    """One player's rating period with its working."""

    before: GlickoRating
    start: GlickoRating
    """The rating at the start of the period, after Step 1 grew the RD (same as ``before`` when
    no c was given)."""
    after: GlickoRating
    expected_scores: tuple[float, ...]
    """E(s | r, r_j, RD_j) for each game, in the order given (Step 2)."""
    d: float | None
    """The paper's d (square root of d^2); ``None`` when no game was played."""


def g(deviation: float) -> float:
    """Step 2: g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * Q * Q * deviation * deviation / (math.pi * math.pi))


def _logistic10(exponent: float) -> float:
    """1 / (1 + 10^(-exponent)), without overflow for any finite exponent."""
    z = exponent * math.log(10)
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    ez = math.exp(z)
    return ez / (1.0 + ez)


def expected_score(rating: float, opponent_rating: float, opponent_deviation: float) -> float:
    """Step 2: E(s | r, r_j, RD_j) = 1 / (1 + 10^(-g(RD_j) (r - r_j) / 400)).

    The expected score the update uses; only the opponent's RD enters.
    """
    check_finite(rating, "rating")
    check_finite(opponent_rating, "opponent rating")
    check_positive(opponent_deviation, "opponent deviation")
    return _logistic10(g(opponent_deviation) * (rating - opponent_rating) / 400)


def expected_score_between(player: GlickoRating, opponent: GlickoRating) -> float:
    """Expected score of ``player`` against ``opponent`` counting both RDs.

    E = 1 / (1 + 10^(-g(sqrt(RD1^2 + RD2^2)) (r1 - r2) / 400)), Glickman's answer quoted in the
    FICS "glicko" help file [FICS-GLICKO].
    """
    combined = math.hypot(player.deviation, opponent.deviation)
    return _logistic10(g(combined) * (player.rating - opponent.rating) / 400)


def c_for_growth(from_deviation: float, to_deviation: float, periods: float) -> float:
    """The constant c that takes an RD from ``from_deviation`` to ``to_deviation`` in ``periods``.

    c = sqrt((to^2 - from^2) / periods); the paper's example, 50 -> 350 in 100 periods, gives
    c = 34.6.
    """
    low = check_positive(from_deviation, "from deviation")
    high = check_positive(to_deviation, "to deviation")
    count = check_positive(periods, "periods")
    if high < low:
        raise InvalidInputError(
            "to deviation", to_deviation, "RD only grows while idle", code="deviation-grows"
        )
    return math.sqrt((high * high - low * low) / count)


def deviation_after_idle(
    deviation: float, *, c: float, periods: float = 1.0, max_deviation: float = MAX_DEVIATION
) -> float:
    """Step 1: RD = min(sqrt(RD_old^2 + c^2 t), 350), with t = ``periods``.

    The paper's t is "the number of rating periods since last competition": 1 for a player who
    played in the previous period.
    """
    old = check_positive(deviation, "deviation")
    grown = math.sqrt(old * old + check_not_negative(c, "c") ** 2 * check_not_negative(periods, "periods"))
    return min(grown, check_positive(max_deviation, "max deviation"))


def rate_period(
    player: GlickoRating,
    games: Sequence[GlickoGame],
    *,
    c: float | None = None,
    periods: float = 1.0,
    min_deviation: float | None = None,
    max_deviation: float = MAX_DEVIATION,
) -> GlickoResult:
    """Rate one player's rating period: Step 1 (when ``c`` is given) then Step 2.

    Without ``c`` the given RD is taken as the RD at the period start, as in the paper's worked
    example. With ``c``, Step 1 first grows it over ``periods`` periods (the paper's t), capped at
    ``max_deviation``. Opponents' RDs are taken as given: the paper does not say whether they are
    before or after their own Step 1 (an open point, [SKILLRATINGS-3]).

    ``min_deviation`` (for example :data:`SUGGESTED_MIN_DEVIATION`) keeps the new RD from
    dropping below a floor, as Glickman advises; the published steps have none.
    """
    if c is not None:
        start_deviation = deviation_after_idle(
            player.deviation, c=c, periods=periods, max_deviation=max_deviation
        )
    else:
        check_not_negative(periods, "periods")
        start_deviation = player.deviation
    start = GlickoRating(player.rating, start_deviation)
    if min_deviation is not None:
        check_positive(min_deviation, "min deviation")
    if not games:
        return GlickoResult(player, start, start, (), None)
    r, rd = start.rating, start.deviation
    expected = tuple(expected_score(r, x.opponent_rating, x.opponent_deviation) for x in games)
    # Step 2: d^2 = [q^2 sum g(RD_j)^2 E_j (1 - E_j)]^-1
    information = (
        Q
        * Q
        * sum(g(x.opponent_deviation) ** 2 * e * (1.0 - e) for x, e in zip(games, expected, strict=True))
    )
    precision = 1.0 / (rd * rd) + information  # 1/RD^2 + 1/d^2
    surprise = sum(g(x.opponent_deviation) * (x.score - e) for x, e in zip(games, expected, strict=True))
    new_rating = r + Q / precision * surprise
    new_deviation = math.sqrt(1.0 / precision)
    if min_deviation is not None:
        new_deviation = max(new_deviation, min_deviation)
    d = math.sqrt(1.0 / information) if information > 0 else math.inf
    return GlickoResult(player, start, GlickoRating(new_rating, new_deviation), expected, d)
