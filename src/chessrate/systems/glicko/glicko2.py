"""Glicko-2 as Mark Glickman published it: one rating period at a time.

Plain words here (rating, deviation, volatility); the paper's steps, in its own symbols, are in
:mod:`chessrate.systems.glicko.glicko2_steps`. Lichess's way of running Glicko-2 is
:mod:`chessrate.systems.glicko.lichess`.

Source: Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf, revision of
2022-03-22) [GLICKO2].

>>> after = rate_period(
...     Glicko2Rating(1500, 200, 0.06),
...     [Glicko2Game(1400, 30, 1), Glicko2Game(1550, 100, 0), Glicko2Game(1700, 300, 0)],
...     tau=0.5,
... ).after
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 5)
(1464.05, 151.52, 0.06)

**Expected score, not win probability.** :func:`expected_score` is the points a player should
score per game, a draw counting one half ([ELO-GUIDE]: "0,76 no significa un 76 %
de probabilidades de ganar"). Glicko-2 models a game as won or lost and draws as half of each;
it gives no separate probability of winning, so this module offers none.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from chessrate.errors import InvalidInputError
from chessrate.systems.glicko import glicko2_steps as steps
from chessrate.systems.glicko.glicko1 import (
    GlickoGame,
    check_finite,
    check_positive,
    check_score,
    check_squarable,
)

#: Step 1: "a player is unrated ... use a value of 1500 ... RD of 350 ... volatility 0.06".
UNRATED_RATING = 1500.0
UNRATED_DEVIATION = 350.0
UNRATED_VOLATILITY = 0.06
#: Step 1: 0.5 is the worked example's value of tau.
DEFAULT_TAU = 0.5
#: Step 1: tau "reasonable choices are between 0.3 and 1.2" (the bounds of a tau typed).
LEAST_TAU, MOST_TAU = 0.3, 1.2
# The bounds of an RD and a volatility given to the bulk engine (chessrate.bulk.glicko2); the forms
# (chessrate.service.glicko) take the least RD, the volatility's and tau's bounds, but their largest
# RD is 350 (glicko1.MAX_DEVIATION) for the papers and 500 for Lichess; docs/glicko.md, "Bounds of
# the values typed".
#: The least RD: Glickman suggests keeping RD above a threshold "such as 30" [LILA-7274], lila
#: keeps it at 45 at least (minDeviation); ratings are shown to the point, so 1 is our floor.
LEAST_DEVIATION = 1.0
#: The largest RD of the bulk engine: lila's maxDeviation 500 (Glicko.scala), the largest any system
#: here holds, since a rating list's idle player's RD grows past 350 under Step 6. The papers' forms
#: keep to 350, an unrated player's RD (Step 1: glicko1.MAX_DEVIATION); lichess.MAX_DEVIATION is this.
MOST_DEVIATION = 500.0
#: The least volatility: published defaults are 0.06 (Step 1) and 0.09 (lila); below 0.001 the RD
#: grows by less than 0.2 a period (Step 6), no different in practice. Our choice.
LEAST_VOLATILITY = 0.001
#: The largest volatility: ten times lila's cap of 0.1 (maxVolatility); at 1, Step 6 alone adds an
#: RD of 174 points in one period, past any published use. Our choice.
MOST_VOLATILITY = 1.0
EPSILON = steps.EPSILON
MAX_ITERATIONS = steps.MAX_ITERATIONS

PlayerKey = TypeVar("PlayerKey", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """A player's Glicko-2 rating, rating deviation (RD) and volatility, on the Glicko scale.

    The defaults are the paper's unrated player (Step 1).
    """

    rating: float = UNRATED_RATING
    deviation: float = UNRATED_DEVIATION
    """The rating deviation, RD: one standard deviation of the rating's uncertainty."""
    volatility: float = UNRATED_VOLATILITY
    """sigma: how erratic the player's results are; sets how fast RD grows while idle."""

    def __post_init__(self) -> None:
        check_finite(self.rating, "rating")
        check_squarable(self.deviation, "deviation")
        check_squarable(self.volatility, "volatility")


#: One game of the period: the opponent's rating and RD at the period start, and the score
#: (1 win, 0.5 draw, 0 loss); the same game as Glicko-1's.
Glicko2Game = GlickoGame


@dataclass(frozen=True, slots=True)
class Glicko2Result:
    """One player's rating period, with the working the paper prints."""

    before: Glicko2Rating
    after: Glicko2Rating
    expected_scores: tuple[float, ...]
    """E_j for each game, in the order given (Step 3)."""
    estimated_variance: float | None
    """The paper's v on the Glicko-2 scale (Step 3); ``None`` when no game was played."""
    estimated_improvement: float | None
    """The paper's Delta on the Glicko-2 scale (Step 4); ``None`` when no game was played."""
    iterations: int
    """Illinois iterations taken in Step 5.4."""


@dataclass(frozen=True, slots=True)
class PeriodGame(Generic[PlayerKey]):
    """A game between two players of a whole period: ``white_score`` is 1, 0.5 or 0."""

    white: PlayerKey
    black: PlayerKey
    white_score: float

    def __post_init__(self) -> None:
        check_score(self.white_score, "white score")
        if self.white == self.black:
            raise InvalidInputError("black", self.black, "a player cannot play themself", code="own-opponent")


def _check_settings(tau: float, epsilon: float, max_iterations: int, elapsed: float) -> None:
    check_squarable(tau, "tau")
    check_positive(epsilon, "epsilon")
    whole = isinstance(max_iterations, int) and not isinstance(max_iterations, bool)
    if not whole or max_iterations < 1:
        raise InvalidInputError(
            "max iterations", max_iterations, "a whole number of at least 1", code="whole-at-least-one"
        )
    if check_finite(elapsed, "elapsed periods") < 0:
        raise InvalidInputError("elapsed periods", elapsed, "cannot be negative", code="not-negative")


def rate_period(
    player: Glicko2Rating,
    games: Sequence[Glicko2Game],
    *,
    tau: float = DEFAULT_TAU,
    epsilon: float = EPSILON,
    max_iterations: int = MAX_ITERATIONS,
    elapsed_periods: float = 1.0,
) -> Glicko2Result:
    """Rate one player's rating period: Steps 2-8 of the paper.

    All games of the period count as played at once, against the opponents' ratings at the
    period start. With no games, only Step 6 applies: the rating and volatility stay, the
    deviation grows to sqrt(RD^2 + (173.7178 sigma)^2).

    ``elapsed_periods`` is 1 in the paper; Lichess uses 0 inside a game (see
    :mod:`chessrate.systems.glicko.lichess`). :class:`~chessrate.errors.ConvergenceError` is raised if the
    volatility iteration needs more than ``max_iterations`` steps.
    """
    _check_settings(tau, epsilon, max_iterations, elapsed_periods)
    mu = steps.to_mu(player.rating)
    phi = steps.to_phi(player.deviation)
    opponents = [
        steps.Opponent(steps.to_mu(g.opponent_rating), steps.to_phi(g.opponent_deviation), g.score)
        for g in games
    ]
    update = steps.update(
        mu,
        phi,
        player.volatility,
        opponents,
        tau=tau,
        epsilon=epsilon,
        max_iterations=max_iterations,
        elapsed_periods=elapsed_periods,
    )
    after = Glicko2Rating(steps.to_rating(update.mu), steps.to_deviation(update.phi), update.sigma)
    return Glicko2Result(
        before=player,
        after=after,
        expected_scores=tuple(steps.expected(mu, o.mu, o.phi) for o in opponents),
        estimated_variance=update.v,
        estimated_improvement=update.delta,
        iterations=update.iterations,
    )


def rate_idle_period(player: Glicko2Rating, *, elapsed_periods: float = 1.0) -> Glicko2Rating:
    """A period without games (Step 6 only): the deviation grows, nothing else changes."""
    return rate_period(player, [], elapsed_periods=elapsed_periods).after


def rate_whole_period(
    players: Mapping[PlayerKey, Glicko2Rating],
    games: Iterable[PeriodGame[PlayerKey]],
    *,
    tau: float = DEFAULT_TAU,
    epsilon: float = EPSILON,
    max_iterations: int = MAX_ITERATIONS,
    newcomer: Glicko2Rating | None = None,
) -> dict[PlayerKey, Glicko2Rating]:
    """Rate every player of one rating period, each from the ratings at the period start.

    ``players`` are the ratings at the start of the period; players without games get Step 6.
    A player who appears in ``games`` but not in ``players`` starts at ``newcomer`` (for example
    ``Glicko2Rating()``, the paper's unrated player), or is refused when ``newcomer`` is None.
    This is the reference the bulk (numpy) engine is checked against.
    """
    _check_settings(tau, epsilon, max_iterations, 1.0)
    start: dict[PlayerKey, Glicko2Rating] = dict(players)
    by_player: dict[PlayerKey, list[Glicko2Game]] = {key: [] for key in start}
    period_games = list(games)
    for game in period_games:
        for key in (game.white, game.black):
            if key not in start:
                if newcomer is None:
                    raise InvalidInputError(
                        "player", key, "has no rating at the period start", code="no-start-rating"
                    )
                start[key] = newcomer
                by_player[key] = []
    for game in period_games:
        white, black = start[game.white], start[game.black]
        by_player[game.white].append(Glicko2Game(black.rating, black.deviation, game.white_score))
        by_player[game.black].append(Glicko2Game(white.rating, white.deviation, 1.0 - game.white_score))
    return {
        key: rate_period(
            start[key], by_player[key], tau=tau, epsilon=epsilon, max_iterations=max_iterations
        ).after
        for key in start
    }


def expected_score(rating: float, opponent_rating: float, opponent_deviation: float) -> float:
    """Expected score against one opponent as Glicko-2 uses it in its update (Step 3, E).

    Only the opponent's deviation enters, so this is not symmetric between the two players.
    """
    check_finite(rating, "rating")
    check_finite(opponent_rating, "opponent rating")
    check_positive(opponent_deviation, "opponent deviation")
    return steps.expected(steps.to_mu(rating), steps.to_mu(opponent_rating), steps.to_phi(opponent_deviation))


def expected_score_between(player: Glicko2Rating, opponent: Glicko2Rating) -> float:
    """Expected score of ``player`` against ``opponent``, counting both players' uncertainty.

    Glickman's predictive formula E = 1/(1 + 10^(-g(sqrt(RD1^2 + RD2^2)) (r1 - r2)/400)), quoted in
    the FICS "glicko" help file [FICS-GLICKO], here on the Glicko-2 scale.
    ``expected_score_between(a, b) + expected_score_between(b, a) == 1``.
    """
    combined = math.hypot(player.deviation, opponent.deviation)
    return steps.expected(steps.to_mu(player.rating), steps.to_mu(opponent.rating), steps.to_phi(combined))
