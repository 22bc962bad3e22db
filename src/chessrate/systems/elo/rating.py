"""The Elo maths, without policy: logistic expected score, change, and the logistic performance.

Exact decimals throughout, so that a change of exactly x.5 is seen as one when it is rounded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal, localcontext

#: Elo's class interval: 400 points of difference multiply the odds by ten.
SCALE = Decimal(400)


def expected_score(difference: Decimal | int) -> Decimal:
    """Logistic expected score of a player rated ``difference`` points above the opponent.

    E = 1 / (1 + 10^(-D/400)): the points expected per game, draws counting half [ELO-CALC-ES][ELO-GUIDE].
    """
    with localcontext() as context:
        context.prec = 28
        return Decimal(1) / (Decimal(1) + Decimal(10) ** (-Decimal(difference) / SCALE))


def change(k: int | Decimal, score: Decimal, expected: Decimal) -> Decimal:
    """Rating change K x (S - E) for one game or, with totals, for several."""
    return Decimal(k) * (score - expected)


def logistic_performance(opponents: Sequence[Decimal], points: Decimal) -> float | None:
    """The rating R at which the expected scores against ``opponents`` add up to ``points``.

    The inverse of :func:`expected_score` summed over the games. None for a score of 0 % or 100 %,
    where no finite rating fits.
    """
    if not opponents or points <= 0 or points >= len(opponents):
        return None
    ratings = [float(rating) for rating in opponents]
    target = float(points)

    def total_expected(rating: float) -> float:
        return math.fsum(1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0)) for opponent in ratings)

    low, high = min(ratings) - 4000.0, max(ratings) + 4000.0
    for _ in range(200):  # bisection: the sum is increasing in R; 200 halvings reach float precision
        middle = (low + high) / 2.0
        bounds = (low, high)
        if total_expected(middle) < target:
            low = middle
        else:
            high = middle
        if middle in bounds:  # adjacent floats: every further halving leaves low and high as they are
            break
    result = (low + high) / 2.0
    return result if math.isfinite(result) else None
