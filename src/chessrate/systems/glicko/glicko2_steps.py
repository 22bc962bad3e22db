"""Glickman's Glicko-2 algorithm, step by step, in the paper's own symbols.

Internal: the public face is :mod:`chessrate.systems.glicko.glicko2` (plain words: rating, deviation,
volatility). Here everything is on the Glicko-2 scale (``mu``, ``phi``, ``sigma``) and each step
carries the paper's number.

Source: Mark E. Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf,
revision of 2022-03-22, ``<=`` in Step 5.4(b)) [GLICKO2]; exact intermediates checked against
the paper's example as asserted by JSpeedie/glicko2-rust (docs/sources.md). Lichess's port
(scalachess ``glicko/impl/RatingCalculator.scala``) differs only in the number of elapsed
rating periods in Step 6, which is why it is a parameter here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from chessrate.errors import ConvergenceError, RatingError

#: Step 2: the Glicko-2 scale factor, 400 / ln 10 rounded as the paper prints it (also lila's
#: ``MULTIPLIER = 173.7178``).
SCALE = 173.7178
#: Step 2: the rating that maps to mu = 0.
CENTRE = 1500.0
#: Step 5.1: "a convergence tolerance, epsilon ... 0.000001".
EPSILON = 0.000001
#: Bound on the Step 5.2 search and the Step 5.4 iteration; scalachess uses the same 1000.
MAX_ITERATIONS = 1000


@dataclass(frozen=True, slots=True)
class Opponent:
    """One game of the period on the Glicko-2 scale: opponent's mu_j, phi_j and the score s_j."""

    mu: float
    phi: float
    score: float


@dataclass(frozen=True, slots=True)
class Update:
    """The outcome of Steps 3-8 for one player, with the intermediates the paper prints."""

    mu: float
    phi: float
    sigma: float
    v: float | None
    delta: float | None
    phi_star: float
    iterations: int


def to_mu(rating: float) -> float:
    """Step 2: mu = (r - 1500) / 173.7178."""
    return (rating - CENTRE) / SCALE


def to_phi(deviation: float) -> float:
    """Step 2: phi = RD / 173.7178."""
    return deviation / SCALE


def to_rating(mu: float) -> float:
    """Step 8: r' = 173.7178 mu' + 1500."""
    return SCALE * mu + CENTRE


def to_deviation(phi: float) -> float:
    """Step 8: RD' = 173.7178 phi'."""
    return SCALE * phi


def g(phi: float) -> float:
    """Step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(z: float) -> float:
    """1 / (1 + e^-z), without overflow for any finite z."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    ez = math.exp(z)
    return ez / (1.0 + ez)


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3: E(mu, mu_j, phi_j) = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))."""
    return _logistic(g(phi_j) * (mu - mu_j))


def _surprise(mu: float, game: Opponent) -> float:
    """s_j - E_j, with 1 - E_j computed as E(mu_j, mu) so a lopsided win does not round to 0."""
    z = g(game.phi) * (mu - game.mu)
    return game.score * _logistic(-z) - (1.0 - game.score) * _logistic(z)


def variance(mu: float, games: Sequence[Opponent]) -> float:
    """Step 3: v = [sum_j g(phi_j)^2 E_j (1 - E_j)]^-1."""
    total = 0.0
    for game in games:
        z = g(game.phi) * (mu - game.mu)
        total += g(game.phi) ** 2 * _logistic(z) * _logistic(-z)
    v = 1.0 / total if total > 0.0 else math.inf
    if not math.isfinite(v * v):
        raise RatingError(
            "the rating gaps in this period are too large: every result was a certainty to "
            "floating point, so Glicko-2's estimated variance v is not finite"
        )
    return v


def improvement_sum(mu: float, games: Sequence[Opponent]) -> float:
    """Step 4 (and Step 7) sum: sum_j g(phi_j) (s_j - E_j)."""
    return sum(g(game.phi) * _surprise(mu, game) for game in games)


def volatility(
    sigma: float,
    phi: float,
    v: float,
    delta: float,
    *,
    tau: float,
    epsilon: float = EPSILON,
    max_iterations: int = MAX_ITERATIONS,
) -> tuple[float, int]:
    """Step 5: the new volatility sigma' by the Illinois algorithm; returns (sigma', iterations).

    Raises :class:`~chessrate.errors.ConvergenceError` when the bracket search (5.2) or the
    iteration (5.4) exceeds ``max_iterations``, or when the iteration stops making sense.
    """
    # Step 5.1
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    # Step 5.2
    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
            if k > max_iterations:
                raise ConvergenceError(
                    f"Glicko-2 Step 5.2 found no bracket for the volatility in {max_iterations} steps"
                )
        big_b = a - k * tau
    # Step 5.3
    f_a = f(big_a)
    f_b = f(big_b)
    # Step 5.4
    iterations = 0
    while abs(big_b - big_a) > epsilon:
        iterations += 1
        if iterations > max_iterations:
            raise ConvergenceError(
                f"Glicko-2 Step 5.4 (volatility) did not converge in {max_iterations} iterations"
            )
        if f_b == f_a:
            raise ConvergenceError("Glicko-2 Step 5.4 (volatility): f(A) = f(B), no secant")
        # Step 5.4(a)
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if not (math.isfinite(big_c) and math.isfinite(f_c)):
            raise ConvergenceError("Glicko-2 Step 5.4 (volatility) left the finite numbers")
        # Step 5.4(b): "<=" since the 2022-03-22 revision of the paper.
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        # Step 5.4(c)
        big_b, f_b = big_c, f_c
    # Step 5.5
    return math.exp(big_a / 2.0), iterations


def pre_period_phi(phi: float, sigma: float, elapsed_periods: float = 1.0) -> float:
    """Step 6: phi* = sqrt(phi^2 + sigma^2), for ``elapsed_periods`` periods of growth.

    The paper has one period. scalachess's ``calculateNewRD`` multiplies sigma^2 by the elapsed
    periods: 0 for a Lichess game, days x 0.21436 for its time decay.
    """
    return math.sqrt(phi * phi + elapsed_periods * sigma * sigma)


def update(
    mu: float,
    phi: float,
    sigma: float,
    games: Sequence[Opponent],
    *,
    tau: float,
    epsilon: float = EPSILON,
    max_iterations: int = MAX_ITERATIONS,
    elapsed_periods: float = 1.0,
) -> Update:
    """Steps 3-8 for one player over one rating period, everything on the Glicko-2 scale.

    With no games only Step 6 applies: "the player's rating and volatility parameters remain the
    same, but the RD increases" (paper, end of Step 6).
    """
    if not games:
        phi_star = pre_period_phi(phi, sigma, elapsed_periods)
        return Update(mu, phi_star, sigma, None, None, phi_star, 0)
    # Step 3
    v = variance(mu, games)
    # Step 4
    total = improvement_sum(mu, games)
    delta = v * total
    if not math.isfinite(delta * delta):
        raise RatingError("the rating gaps in this period are too large: Glicko-2's Delta^2 overflows")
    # Step 5
    sigma_prime, iterations = volatility(
        sigma, phi, v, delta, tau=tau, epsilon=epsilon, max_iterations=max_iterations
    )
    # Step 6
    phi_star = pre_period_phi(phi, sigma_prime, elapsed_periods)
    # Step 7
    phi_prime = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_prime = mu + phi_prime * phi_prime * total
    result = Update(mu_prime, phi_prime, sigma_prime, v, delta, phi_star, iterations)
    if not all(math.isfinite(x) for x in (mu_prime, phi_prime, sigma_prime)):
        raise ConvergenceError(f"Glicko-2 produced a non-finite result: {result}")
    return result
