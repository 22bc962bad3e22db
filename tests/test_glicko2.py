"""Glicko-2 against Glickman's "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf).

Exact doubles as asserted by JSpeedie/glicko2-rust ``tests/integration_test.rs`` @9c78575d
([GLICKO2] in docs/sources.md); the paper's
rounded figures beside them.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessrate.errors import ConvergenceError, InvalidInputError, RatingError
from chessrate.systems.glicko import glicko2_steps as steps
from chessrate.systems.glicko.glicko2 import (
    Glicko2Game,
    Glicko2Rating,
    PeriodGame,
    expected_score,
    expected_score_between,
    rate_idle_period,
    rate_period,
    rate_whole_period,
)

PLAYER = Glicko2Rating(1500, 200, 0.06)
GAMES = [Glicko2Game(1400, 30, 1), Glicko2Game(1550, 100, 0), Glicko2Game(1700, 300, 0)]
OPPONENTS = [
    steps.Opponent(steps.to_mu(x.opponent_rating), steps.to_phi(x.opponent_deviation), x.score) for x in GAMES
]


def test_step2_scale() -> None:
    """glicko2.pdf Step 2: mu = 0, phi = 1.1513; mu_j, phi_j as the paper's table."""
    assert steps.to_mu(1500) == 0.0
    assert steps.to_phi(200) == pytest.approx(1.1512924985234674, abs=1e-15)
    assert [o.mu for o in OPPONENTS] == pytest.approx(
        [-0.5756462492617337, 0.28782312463086684, 1.1512924985234674], abs=1e-15
    )
    assert [o.phi for o in OPPONENTS] == pytest.approx(
        [0.1726938747785201, 0.5756462492617337, 1.726938747785201], abs=1e-15
    )
    assert [round(o.mu, 4) for o in OPPONENTS] == [-0.5756, 0.2878, 1.1513]
    assert [round(o.phi, 4) for o in OPPONENTS] == [0.1727, 0.5756, 1.7269]


# fmt: off
STEP3 = [
    pytest.param(0, 0.9954980064506083, 0.9955, 0.6394677305521533, 0.639, id="glicko2.pdf-step3-j1-JSpeedie"),  # noqa: E501
    pytest.param(1, 0.9531489778689763, 0.9531, 0.4318423561076679, 0.432, id="glicko2.pdf-step3-j2-JSpeedie"),  # noqa: E501
    pytest.param(2, 0.7242354780877525, 0.7242, 0.3028407290952193, 0.303, id="glicko2.pdf-step3-j3-JSpeedie"),  # noqa: E501
]
# fmt: on


@pytest.mark.parametrize(("index", "g_exact", "g_paper", "e_exact", "e_paper"), STEP3)
def test_step3_g_and_e(index: int, g_exact: float, g_paper: float, e_exact: float, e_paper: float) -> None:
    o = OPPONENTS[index]
    assert steps.g(o.phi) == pytest.approx(g_exact, abs=1e-12)
    assert round(steps.g(o.phi), 4) == g_paper
    assert steps.expected(0.0, o.mu, o.phi) == pytest.approx(e_exact, abs=1e-12)
    assert round(steps.expected(0.0, o.mu, o.phi), 3) == e_paper


def test_paper_example_every_intermediate() -> None:
    """glicko2.pdf worked example, tau 0.5: v, Delta, sigma', phi*, phi', mu' (JSpeedie exact)."""
    update = steps.update(0.0, steps.to_phi(200), 0.06, OPPONENTS, tau=0.5)
    assert update.v == pytest.approx(1.7789770897239976, abs=1e-9)
    assert update.delta == pytest.approx(-0.4839332609836549, abs=1e-9)
    assert update.sigma == pytest.approx(0.059995984286488495, abs=1e-9)
    assert update.phi_star == pytest.approx(1.1528546895801364, abs=1e-9)
    assert update.phi == pytest.approx(0.8721991881307343, abs=1e-9)
    assert update.mu == pytest.approx(-0.20694096667525494, abs=1e-9)
    assert (round(update.phi, 4), round(update.mu, 4)) == (0.8722, -0.2069)


def test_paper_example_public_result() -> None:
    """glicko2.pdf: r' = 1464.06, RD' = 151.52, sigma' = 0.05999; exact 1464.0506705393013 etc."""
    result = rate_period(PLAYER, GAMES, tau=0.5)
    assert result.after.rating == pytest.approx(1464.0506705393013, abs=1e-6)
    assert result.after.deviation == pytest.approx(151.51652412385727, abs=1e-6)
    assert result.after.volatility == pytest.approx(0.059995984286488495, abs=1e-9)
    assert round(result.after.rating, 2) == 1464.05  # the paper prints 1464.06 from rounded steps
    assert round(result.after.deviation, 2) == 151.52
    assert math.floor(result.after.volatility * 1e5) / 1e5 == 0.05999
    assert result.expected_scores == pytest.approx([0.639, 0.432, 0.303], abs=5e-4)
    assert result.iterations == 2  # [GLICKO2]'s example: two Illinois iterations


def test_not_the_pypi_glicko2_bug() -> None:
    """PyPI glicko2 2.1.0 gives sigma' 0.05999342315486217 (mu^2 for phi^2, [PYPI-GLICKO2])."""
    after = rate_period(PLAYER, GAMES, tau=0.5).after
    assert abs(after.volatility - 0.05999342315486217) > 2e-6


def test_idle_period() -> None:
    """glicko2.pdf Step 6 only; hexdocs glicko: RD 200 -> 200.27141669877065."""
    after = rate_idle_period(PLAYER)
    assert (after.rating, after.volatility) == (1500, 0.06)
    assert after.deviation == pytest.approx(200.27141669877065, abs=1e-9)


def test_single_win() -> None:
    """1500/200/0.06 beats 1400/30, tau 0.5: ~1563.6, ~175.4, ~0.06 (README of the Hex package
    glicko_rating_system 1.0.0, which prints them rounded)."""
    after = rate_period(PLAYER, GAMES[:1], tau=0.5).after
    assert after.rating == pytest.approx(1563.6, abs=0.05)
    assert after.deviation == pytest.approx(175.4, abs=0.05)
    assert after.volatility == pytest.approx(0.06, abs=0.00005)


def test_regression_single_win() -> None:
    """Regression check, not a published value: chessrate's own doubles for the case above."""
    after = rate_period(PLAYER, GAMES[:1], tau=0.5).after
    assert after.rating == pytest.approx(1563.5641943063383, abs=1e-6)
    assert after.deviation == pytest.approx(175.402655938555, abs=1e-6)
    assert after.volatility == pytest.approx(0.059998657304847616, abs=1e-9)


def test_internal_scale_example() -> None:
    """Exglicko2 docs: {0,1.2,0.06} vs {-0.6,0.2},{0.3,0.6},{1.2,1.7}, 1/0/0, tau 0.5."""
    games = [steps.Opponent(-0.6, 0.2, 1), steps.Opponent(0.3, 0.6, 0), steps.Opponent(1.2, 1.7, 0)]
    update = steps.update(0.0, 1.2, 0.06, games, tau=0.5)
    assert update.mu == pytest.approx(-0.21522518921916625, abs=1e-6)
    assert update.phi == pytest.approx(0.8943062104659615, abs=1e-6)
    assert update.sigma == pytest.approx(0.059995829968027437, abs=1e-6)


def test_tau_is_honoured_lila_mixed_case() -> None:
    """lila RatingCalculatorTest "mixed: white wins" at tau 0.75 and 0 elapsed periods."""
    result = rate_period(
        Glicko2Rating(1400, 79, 0.06), [Glicko2Game(1550, 110, 1)], tau=0.75, elapsed_periods=0
    )
    assert result.after.volatility == pytest.approx(0.06000649679525476, abs=1e-9)
    assert result.after.rating == pytest.approx(1422.6260395691206, abs=1e-6)


def test_skelo_comparison_value() -> None:
    """[SKELO]: 1600/350 vs 1500/350, Glicko formula 0.5766713999885229 (skelo gives 0.814)."""
    value = expected_score_between(Glicko2Rating(1600, 350), Glicko2Rating(1500, 350))
    assert value == pytest.approx(0.5766713999885229, abs=1e-6)


def test_expected_score_is_the_step3_e() -> None:
    """glicko2.pdf Step 3: E for 1500 against 1400/RD 30 is 0.639."""
    assert round(expected_score(1500, 1400, 30), 3) == 0.639


def test_volatility_iteration_fails_loudly() -> None:
    """The paper example needs 2 Illinois iterations: a bound of 1 must raise, not loop or guess."""
    with pytest.raises(ConvergenceError):
        rate_period(PLAYER, GAMES, tau=0.5, max_iterations=1)


def test_whole_period_rates_everyone_from_the_start() -> None:
    """The paper example as one period: the player's result is the paper's whatever the order."""
    start = {
        "p": PLAYER,
        "a": Glicko2Rating(1400, 30),
        "b": Glicko2Rating(1550, 100),
        "c": Glicko2Rating(1700, 300),
    }
    played = [PeriodGame("p", "a", 1), PeriodGame("b", "p", 1), PeriodGame("p", "c", 0)]
    after = rate_whole_period(start, played, tau=0.5)
    assert after["p"].rating == pytest.approx(1464.0506705393013, abs=1e-6)
    assert after["p"].volatility == pytest.approx(0.059995984286488495, abs=1e-9)
    # each opponent against the player's period-start rating, not the updated one
    alone = rate_period(start["a"], [Glicko2Game(1500, 200, 0)], tau=0.5).after
    assert after["a"] == alone
    assert rate_whole_period(start, list(reversed(played)), tau=0.5) == after


def test_whole_period_idle_players_and_newcomers() -> None:
    start = {"p": PLAYER, "idle": PLAYER}
    after = rate_whole_period(start, [PeriodGame("p", "new", 0.5)], newcomer=Glicko2Rating())
    assert after["idle"].deviation == pytest.approx(200.27141669877065, abs=1e-9)
    assert set(after) == {"p", "idle", "new"}
    with pytest.raises(InvalidInputError, match="period start"):
        rate_whole_period(start, [PeriodGame("p", "stranger", 1)])
    with pytest.raises(InvalidInputError):
        PeriodGame("p", "p", 1)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        pytest.param(lambda: Glicko2Rating(1500, -5, 0.06), "deviation", id="deviation-negative"),
        pytest.param(lambda: Glicko2Rating(1500, 200, 0), "volatility", id="volatility-zero"),
        pytest.param(lambda: Glicko2Game(math.inf, 30, 1), "opponent rating", id="opponent-inf"),
        pytest.param(lambda: rate_period(PLAYER, GAMES, tau=0), "tau", id="tau-zero"),
        pytest.param(lambda: rate_period(PLAYER, GAMES, max_iterations=0), "max iterations", id="iter"),
    ],
)
def test_bad_input_names_the_field(call: object, field: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        call()  # type: ignore[operator]
    assert error.value.field == field


ratings = st.floats(min_value=0, max_value=4000)
deviations = st.floats(min_value=1, max_value=1000)
volatilities = st.floats(min_value=0.001, max_value=0.2)
scores = st.sampled_from([0.0, 0.5, 1.0])
games = st.lists(st.builds(Glicko2Game, ratings, deviations, scores), min_size=0, max_size=300)


@settings(max_examples=80, deadline=None)
@given(
    player=st.builds(Glicko2Rating, ratings, deviations, volatilities),
    played=games,
    tau=st.floats(min_value=0.2, max_value=1.2),
)
def test_extreme_inputs_finite_or_a_clear_error(
    player: Glicko2Rating, played: list[Glicko2Game], tau: float
) -> None:
    """Never NaN, never an endless loop: a finite result within the paper's bounds, or RatingError."""
    try:
        result = rate_period(player, played, tau=tau)
    except RatingError:
        return
    after = result.after
    assert all(math.isfinite(x) for x in (after.rating, after.deviation, after.volatility))
    assert after.deviation > 0
    assert after.volatility > 0
    # Step 7: phi' <= phi* = sqrt(phi^2 + sigma'^2)
    assert after.deviation <= math.hypot(player.deviation, steps.SCALE * after.volatility) * (1 + 1e-12)


@pytest.mark.parametrize(
    ("player", "opponent", "score"),
    [
        pytest.param(Glicko2Rating(1500, 1000, 0.06), (1500, 30), 1, id="rd-1000-vs-rd-30"),
        pytest.param(Glicko2Rating(3500, 30, 0.06), (1500, 30), 0, id="gap-2000-upset-loss"),
        pytest.param(Glicko2Rating(1000, 30, 0.06), (3000, 30), 1, id="gap-2000-upset-win"),
        pytest.param(Glicko2Rating(0, 30, 0.0999), (4000, 30), 1, id="gap-4000-volatility-near-cap"),
    ],
)
def test_named_extremes_are_finite(
    player: Glicko2Rating, opponent: tuple[float, float], score: float
) -> None:
    after = rate_period(player, [Glicko2Game(*opponent, score)] * 3, tau=0.5).after
    assert all(math.isfinite(x) for x in (after.rating, after.deviation, after.volatility))


def test_hundreds_of_games_in_one_period() -> None:
    """500 draws against equals: rating stays, RD falls (v small), volatility stays finite."""
    after = rate_period(PLAYER, [Glicko2Game(1500, 50, 0.5)] * 500, tau=0.5).after
    assert after.rating == pytest.approx(1500, abs=1e-9)
    assert after.deviation < 20
    assert 0 < after.volatility < 0.06
