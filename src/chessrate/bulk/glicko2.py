"""One Glicko-2 rating period of many players at once, with numpy (Glickman, "Example of the
Glicko-2 system", as :mod:`chessrate.systems.glicko.glicko2` implements it): equal to
:func:`chessrate.systems.glicko.glicko2.rate_whole_period` to the tolerance ``docs/bulk.md`` states."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chessrate.bulk import _arrays as arrays
from chessrate.bulk._arrays import HIGHEST, LOWEST, FloatArray, IntArray
from chessrate.errors import ConvergenceError
from chessrate.systems.glicko import glicko2
from chessrate.systems.glicko import glicko2_steps as steps
from chessrate.systems.glicko.glicko2 import DEFAULT_TAU

#: How closely this engine's rating, deviation and volatility agree with the scalar path's: within
#: this fraction of the value (or this much, for values under 1). Both run the same steps in the
#: same order, except that Steps 3-4 add up a player's games in another order and with another
#: (equal) form of E; those float roundings (about 1e-16) are magnified where Step 5's
#: f(x) = e^x (Delta^2 - phi^2 - v - e^x) / ... subtracts nearly equal terms. Differences of 4e-11
#: have been seen (docs/bulk.md, "Agreement"); 1e-9 leaves a margin and is far below what a list shows.
SCALAR_AGREEMENT = 1e-9

#: The RD's and the volatility's bounds the engine takes (glicko2's), with the code refusing one outside.
_BOUNDS = {
    "deviation": (glicko2.LEAST_DEVIATION, glicko2.MOST_DEVIATION, "bulk-deviation-range"),
    "volatility": (glicko2.LEAST_VOLATILITY, glicko2.MOST_VOLATILITY, "bulk-volatility-range"),
}


def glicko2_takes(rating: ArrayLike, deviation: ArrayLike, volatility: ArrayLike) -> bool:
    """Whether :func:`rate_glicko2_period` takes these players' values: every rating from 0 to 4000,
    every RD and volatility within its bounds (all finite); a caller with others rates them otherwise.

    >>> glicko2_takes([1500.0, 0.0], [350.0, 500.0], [0.06, 1.0])
    True
    >>> glicko2_takes([1500.0], [500.5], [0.06]), glicko2_takes([1500.0], [350.0], [1.01])
    (False, False)
    """
    return all(
        bool(((array >= low) & (array <= high)).all())
        for array, low, high in (
            (np.asarray(rating, dtype=np.float64), LOWEST, HIGHEST),
            (np.asarray(deviation, dtype=np.float64), *_BOUNDS["deviation"][:2]),
            (np.asarray(volatility, dtype=np.float64), *_BOUNDS["volatility"][:2]),
        )
    )


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

    The bulk counterpart of :func:`chessrate.systems.glicko.glicko2.rate_whole_period` (paper Steps 2-8, one
    elapsed period): Steps 3-4 sum over the games with two gathers per game, Step 5's Illinois
    iteration runs on every player at once, each stopping at its own tolerance, bounded by
    ``max_iterations`` (a :class:`~chessrate.errors.ConvergenceError` names the player).
    Ratings are chess ratings, 0 to 4000; deviations, volatilities and tau within
    :mod:`chessrate.systems.glicko.glicko2`'s bounds (RD 1 to 500, volatility 0.001 to 1, tau 0.3
    to 1.2), refused (by code) before any arithmetic.
    """
    w, b, s = arrays.games(white, black, white_half_points)
    r = arrays.floats(rating, "rating")
    n = len(r)
    rd = arrays.floats(deviation, "deviation", n=n)
    sigma = arrays.floats(volatility, "volatility", n=n)
    if len(r) and (r.min() < LOWEST or r.max() > HIGHEST):
        first = int(np.flatnonzero((r < LOWEST) | (r > HIGHEST))[0])
        raise arrays.refused(
            "rating", r[first].item(), "bulk-player-rating-range", player=first, low=LOWEST, high=HIGHEST
        )
    # An RD, a volatility and tau within glicko2's bounds, refused before any arithmetic: an RD of
    # 1e200 overflowed phi^2 (a numpy warning) before it was refused.
    for field, values in (("deviation", rd), ("volatility", sigma)):
        low, high, code = _BOUNDS[field]
        outside = (values < low) | (values > high)
        if outside.any():
            first = int(np.flatnonzero(outside)[0])
            raise arrays.refused(
                field, values[first].item(), code, player=first, low=_shown(low), high=_shown(high)
            )
    arrays.check_players(w, b, n)
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
    # Step 3 and 4: finite within the bounds checked (every g(phi) at least 0.53, every E(1 - E) at
    # least 1e-10 between ratings 0 and 4000), so v and Delta are too.
    v = 1.0 / variance_sum[rows]
    delta = v * total
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
    """Step 5 for every player at once: the Illinois iteration of :func:`glicko2_steps.volatility`.

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


def _shown(bound: float) -> float | int:
    """A bound as its source writes it: 500, 0.3 (not 500.0)."""
    return int(bound) if bound.is_integer() else bound


def _check_settings(tau: float, epsilon: float, max_iterations: int) -> None:
    if not glicko2.LEAST_TAU <= tau <= glicko2.MOST_TAU:
        low, high = _shown(glicko2.LEAST_TAU), _shown(glicko2.MOST_TAU)
        raise arrays.refused("tau", tau, "bulk-setting-range", low=low, high=high)
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise arrays.refused("epsilon", epsilon, "bulk-setting-positive")
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, int) or max_iterations < 1:
        raise arrays.refused("max iterations", max_iterations, "whole-at-least-one")
