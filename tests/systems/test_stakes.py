"""The points at stake before a game, for both players."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrate.comparisons import stakes
from chessrate.systems.elo.presets import PLAIN_ELO
from chessrate.systems.elo.ruleset import Expected, fide_rule_set
from chessrate.systems.fide.regulations import FIDE_2024_03
from chessrate.systems.glicko import glicko2

FIDE = fide_rule_set(FIDE_2024_03, day=dt.date(2024, 6, 1))


def test_1500_v_1700_k20_with_table_8_1_2() -> None:
    # D = -200 -> PD .24: win 20 x .76 = +15.2, draw 20 x .26 = +5.2, loss 20 x -.24 = -4.8.
    result = stakes.elo_stakes(Decimal(1500), Decimal(1700), rules=FIDE, k=20)
    assert [o.change for o in result.outcomes] == [15.2, 5.2, -4.8]
    assert [o.opponent_change for o in result.outcomes] == [-15.2, -5.2, 4.8]
    assert [o.new_rating for o in result.outcomes] == [1515, 1505, 1495]
    assert result.zero_sum


def test_1500_v_1700_k20_with_the_formula() -> None:
    # E = 1 / (1 + 10^(200/400)) = 0.2403: +15.19, +5.19, -4.81.
    result = stakes.elo_stakes(
        Decimal(1500), Decimal(1700), rules=PLAIN_ELO.with_expected(Expected.FORMULA), k=20
    )
    assert [round(o.change, 2) for o in result.outcomes] == [15.19, 5.19, -4.81]
    assert result.zero_sum


def test_the_opponent_may_have_another_k() -> None:
    result = stakes.elo_stakes(Decimal(1500), Decimal(1700), rules=FIDE, k=40, opponent_k=10)
    assert (result.win.change, result.win.opponent_change) == (30.4, -7.6)
    assert not result.zero_sum


def test_dwz_stakes_are_the_worked_example() -> None:
    result = stakes.dwz_stakes(1000, 1200, age=15, index=1)
    assert [(o.new_rating, o.opponent_new_rating) for o in result.outcomes] == [
        (1101, 1132),
        (1035, 1177),
        (985, 1232),
    ]
    assert not result.zero_sum


def test_uscf_stakes_use_each_players_games() -> None:
    # Both established at 1700 with 30 games: N' = 26.7, K = 800 / 27.7 for one game, zero-sum.
    result = stakes.uscf_stakes(
        1700, 1700, games_played=30, opponent_games_played=30, event_end=dt.date(2024, 1, 1)
    )
    k = 800 / (50 / (3.5**0.5) + 1)
    assert result.win.change == pytest.approx(k / 2)
    assert result.zero_sum


def test_glicko2_stakes_match_a_period_of_one_game() -> None:
    player, opponent = glicko2.Glicko2Rating(1500, 200, 0.06), glicko2.Glicko2Rating(1400, 30, 0.06)
    result = stakes.glicko2_stakes(player, opponent)
    # Glickman's example game 1 alone (1500/200 beats 1400/30, tau 0.5): 1563.564 (research vector).
    assert result.win.new_rating == pytest.approx(1563.5641943063383, abs=1e-6)
    assert not result.zero_sum  # different RDs: the surer rating moves less


ratings = st.integers(min_value=1000, max_value=2800).map(Decimal)


@given(ratings, ratings, st.integers(min_value=1, max_value=60), st.sampled_from([PLAIN_ELO, FIDE]))
def test_elo_zero_sum_with_the_same_k_and_ordered_outcomes(
    a: Decimal, b: Decimal, k: int, rules: object
) -> None:
    result = stakes.elo_stakes(a, b, rules=rules, k=k)  # type: ignore[arg-type]
    assert result.zero_sum
    assert result.win.change > result.draw.change > result.loss.change
    assert result.win.change - result.loss.change == pytest.approx(k)


@given(
    st.integers(min_value=600, max_value=2600),
    st.integers(min_value=600, max_value=2600),
    st.integers(min_value=5, max_value=70),
)
def test_dwz_outcomes_ordered(a: int, b: int, age: int) -> None:
    result = stakes.dwz_stakes(a, b, age=age, index=3)
    assert result.win.change >= result.draw.change >= result.loss.change
    assert result.win.opponent_change <= result.draw.opponent_change <= result.loss.opponent_change
