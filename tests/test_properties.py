"""Invariants of the Elo maths (hypothesis)."""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from chessrate.systems.elo import rating as elo
from chessrate.systems.elo.calculate import rate_game
from chessrate.systems.elo.presets import PLAIN_ELO
from chessrate.systems.elo.ruleset import fide_rule_set
from chessrate.systems.fide.regulations import FIDE_2024_03
from chessrate.systems.fide.tables import scoring_probability

ratings = st.integers(min_value=0, max_value=4000).map(Decimal)
scores = st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)])
ks = st.integers(min_value=1, max_value=60)
FIDE = fide_rule_set(FIDE_2024_03, day=dt.date(2024, 6, 1))


@given(ratings, ratings, scores, ks, st.sampled_from([PLAIN_ELO, FIDE]))
def test_zero_sum_with_equal_k(a: Decimal, b: Decimal, score: Decimal, k: int, rules: object) -> None:
    # With the same K, what one player gains the other loses [ELO-GUIDE], with or without the cap.
    gain = rate_game(a, b, score, rules=rules, k=k).period.change  # type: ignore[arg-type]
    loss = rate_game(b, a, 1 - score, rules=rules, k=k).period.change  # type: ignore[arg-type]
    if rules is FIDE:
        assert gain + loss == 0  # table 8.1.2: H + L = 1 exactly
    else:
        assert abs(gain + loss) < Decimal("1e-20")  # the logistic, to 28 significant digits


@given(ratings, ratings, ratings, scores, st.sampled_from([PLAIN_ELO, FIDE]))
def test_monotone_in_the_opponents_rating(
    own: Decimal, b: Decimal, c: Decimal, score: Decimal, rules: object
) -> None:
    weaker, stronger = sorted([b, c])
    low = rate_game(own, weaker, score, rules=rules, k=20).period.change  # type: ignore[arg-type]
    high = rate_game(own, stronger, score, rules=rules, k=20).period.change  # type: ignore[arg-type]
    assert low <= high


@given(st.integers(min_value=-735, max_value=735))
def test_table_and_formula_within_two_hundredths_below_735(difference: int) -> None:
    # [SE2][MILV]: the two differ by at most about 0.018 for |D| <= 800.
    assert abs(scoring_probability(difference) - elo.expected_score(difference)) <= Decimal("0.02")


@given(st.integers(min_value=-3000, max_value=3000))
def test_expected_scores_of_both_players_add_up_to_one(difference: int) -> None:
    assert scoring_probability(difference) + scoring_probability(-difference) == 1
    assert abs(elo.expected_score(difference) + elo.expected_score(-difference) - 1) < Decimal("1e-20")


@given(st.lists(ratings, min_size=1, max_size=12), st.data())
def test_logistic_performance_reproduces_the_score(opponents: list[Decimal], data: st.DataObject) -> None:
    points = Decimal(data.draw(st.integers(min_value=1, max_value=2 * len(opponents) - 1))) / 2
    performance = elo.logistic_performance(opponents, points)
    assert performance is not None
    total = sum(elo.expected_score(Decimal(performance) - o) for o in opponents)
    assert abs(total - points) < Decimal("1e-6")


@given(st.lists(ratings, min_size=1, max_size=12), st.data())
def test_logistic_performance_stops_where_halving_no_longer_moves(
    opponents: list[Decimal], data: st.DataObject
) -> None:
    """The bisection stops once its bounds are adjacent floats: the rating all 200 halvings give."""
    points = Decimal(data.draw(st.integers(min_value=1, max_value=2 * len(opponents) - 1))) / 2
    values = [float(o) for o in opponents]
    low, high = min(values) - 4000.0, max(values) + 4000.0
    for _ in range(200):
        middle = (low + high) / 2.0
        total = math.fsum(1.0 / (1.0 + math.pow(10.0, (o - middle) / 400.0)) for o in values)
        low, high = (middle, high) if total < float(points) else (low, middle)
    assert elo.logistic_performance(opponents, points) == (low + high) / 2.0
