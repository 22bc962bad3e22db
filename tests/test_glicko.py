"""Glicko-1 against Glickman's "The Glicko system" (glicko.net/glicko/glicko.pdf).

Values from [GLICKO] (docs/sources.md): the paper's
rounded figures, and the exact doubles confirmed by sublee/glicko ``glickotests.py``
(``Rating(1464.106, 151.399)``) and jitwit/J-esquisse ``glicko.ijs``.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessrate.errors import InvalidInputError
from chessrate.systems.glicko.glicko1 import (
    MAX_DEVIATION,
    GlickoGame,
    GlickoRating,
    c_for_growth,
    deviation_after_idle,
    expected_score,
    expected_score_between,
    g,
    rate_period,
)

PAPER_PLAYER = GlickoRating(1500, 200)
PAPER_GAMES = [GlickoGame(1400, 30, 1), GlickoGame(1550, 100, 0), GlickoGame(1700, 300, 0)]


@pytest.mark.parametrize(
    ("deviation", "paper", "exact"),
    [
        pytest.param(30, 0.9955, 0.9954980060779481, id="glicko.pdf-g(30)-jitwit-0.995498"),
        pytest.param(100, 0.9531, 0.953148974234587, id="glicko.pdf-g(100)-jitwit-0.953149"),
        pytest.param(300, 0.7242, 0.7242354637384434, id="glicko.pdf-g(300)-jitwit-0.724235"),
    ],
)
def test_g_of_the_paper_example(deviation: float, paper: float, exact: float) -> None:
    assert round(g(deviation), 4) == paper
    assert g(deviation) == pytest.approx(exact, abs=1e-12)


@pytest.mark.parametrize(
    ("opponent", "paper", "exact"),
    [
        pytest.param((1400, 30), 0.639, 0.639467736007921, id="glicko.pdf-E1-jitwit-0.639468"),
        pytest.param((1550, 100), 0.432, 0.43184235355955686, id="glicko.pdf-E2-jitwit-0.431842"),
        pytest.param((1700, 300), 0.303, 0.30284072524764, id="glicko.pdf-E3-jitwit-0.302841"),
    ],
)
def test_expected_score_of_the_paper_example(
    opponent: tuple[float, float], paper: float, exact: float
) -> None:
    value = expected_score(1500, *opponent)
    assert round(value, 3) == paper
    assert value == pytest.approx(exact, abs=1e-12)


def test_paper_example_rating_period() -> None:
    """glicko.pdf example: r' = 1464, RD' = 151.4; exact 1464.1064627569112 / 151.39890244796933."""
    result = rate_period(PAPER_PLAYER, PAPER_GAMES)
    assert round(result.after.rating) == 1464
    assert round(result.after.deviation, 1) == 151.4
    assert result.after.rating == pytest.approx(1464.1064627569112, abs=1e-6)
    assert result.after.deviation == pytest.approx(151.39890244796933, abs=1e-6)
    assert result.d == pytest.approx(231.70184052350282, abs=1e-6)
    assert result.start == PAPER_PLAYER


def test_c_from_rd_50_to_350_in_100_periods() -> None:
    """glicko.pdf / Wikipedia Step 1: c = sqrt((350^2 - 50^2)/100) = 34.6."""
    assert c_for_growth(50, 350, 100) == pytest.approx(34.64101615137755, abs=1e-12)
    assert round(c_for_growth(50, 350, 100), 1) == 34.6


def test_step1_then_paper_games() -> None:
    """glicko.pdf Step 1, RD = sqrt(RD0^2 + c^2 t), with the paper's c (50 -> 350 in 100 periods:
    c^2 = (350^2 - 50^2) / 100 = 1200), then Step 2 on the grown RD. No published figure rates the
    paper's games after Step 1, so the test checks the two steps against each other."""
    result = rate_period(PAPER_PLAYER, PAPER_GAMES, c=c_for_growth(50, 350, 100), periods=1)
    assert result.start.deviation == pytest.approx(math.sqrt(200**2 + 1200), rel=1e-12)
    grown = rate_period(GlickoRating(1500, math.sqrt(200**2 + 1200)), PAPER_GAMES)
    assert (result.after.rating, result.after.deviation) == pytest.approx(
        (grown.after.rating, grown.after.deviation), rel=1e-12
    )


def test_regression_step1_then_paper_games() -> None:
    """Regression check, not a published value: chessrate's own doubles for the case above, kept to
    notice any change in the arithmetic."""
    result = rate_period(PAPER_PLAYER, PAPER_GAMES, c=c_for_growth(50, 350, 100), periods=1)
    assert result.after.rating == pytest.approx(1463.4972127832038, abs=1e-6)
    assert result.after.deviation == pytest.approx(152.67840366769457, abs=1e-6)


def test_expected_score_between_two_rated_players() -> None:
    """FICS "glicko" help, Glickman's formula: 1400/80 vs 1500/150 -> 0.376 (exact 0.37598765...)."""
    a, b = GlickoRating(1400, 80), GlickoRating(1500, 150)
    assert expected_score_between(a, b) == pytest.approx(0.3759876557136924, abs=1e-12)
    assert round(expected_score_between(a, b), 3) == 0.376
    assert expected_score_between(a, b) + expected_score_between(b, a) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("deviation", "c", "periods", "expected"),
    [
        pytest.param(50, 34.64101615137755, 100, 350.0, id="glicko.pdf-step1-50-to-350-in-100"),
        pytest.param(50, 34.64101615137755, 0, 50.0, id="glicko.pdf-step1-no-time-no-growth"),
        pytest.param(300, 34.64101615137755, 100, 350.0, id="glicko.pdf-step1-capped-at-350"),
        pytest.param(200, 34.64101615137755, 1, math.sqrt(200**2 + 1200), id="glicko.pdf-step1-one-period"),
    ],
)
def test_deviation_after_idle(deviation: float, c: float, periods: float, expected: float) -> None:
    assert deviation_after_idle(deviation, c=c, periods=periods) == pytest.approx(expected, abs=1e-9)


def test_idle_period_keeps_the_rating_and_grows_the_rd() -> None:
    """glicko.pdf Step 1 alone (no games): rating unchanged, RD = sqrt(200^2 + c^2 t)."""
    result = rate_period(PAPER_PLAYER, [], c=34.64101615137755, periods=3)
    assert result.after.rating == 1500
    assert result.after.deviation == pytest.approx(math.sqrt(200**2 + 1200 * 3), abs=1e-9)


def test_min_deviation_is_a_floor_on_the_new_rd() -> None:
    """Glickman's advice (lila #7274 quote): keep RD above a threshold such as 30."""
    games = [GlickoGame(1500, 30, 0.5)] * 200
    assert rate_period(GlickoRating(1500, 40), games).after.deviation < 30
    assert rate_period(GlickoRating(1500, 40), games, min_deviation=30).after.deviation == 30


@pytest.mark.parametrize(
    ("call", "field"),
    [
        pytest.param(lambda: GlickoRating(1500, 0), "deviation", id="deviation-zero"),
        pytest.param(lambda: GlickoRating(math.nan, 100), "rating", id="rating-nan"),
        pytest.param(lambda: GlickoGame(1500, 100, 2), "result", id="score-above-one"),
        pytest.param(lambda: c_for_growth(350, 50, 100), "to deviation", id="c-shrinking-rd"),
        pytest.param(lambda: deviation_after_idle(200, c=-1), "c", id="c-negative"),
    ],
)
def test_bad_input_names_the_field(call: object, field: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        call()  # type: ignore[operator]
    assert error.value.field == field


ratings = st.floats(min_value=0, max_value=4000)
deviations = st.floats(min_value=1, max_value=1000)
scores = st.sampled_from([0.0, 0.5, 1.0])
games = st.lists(st.builds(GlickoGame, ratings, deviations, scores), min_size=1, max_size=300)


@settings(max_examples=60, deadline=None)
@given(rating=ratings, deviation=deviations, played=games)
def test_extreme_inputs_stay_finite_and_bounded(
    rating: float, deviation: float, played: list[GlickoGame]
) -> None:
    """Glicko-1 property: RD never grows with games, and |r' - r| <= q RD^2 sum g(RD_j)."""
    after = rate_period(GlickoRating(rating, deviation), played).after
    assert math.isfinite(after.rating)
    assert 0 < after.deviation <= deviation
    bound = math.log(10) / 400 * deviation**2 * sum(g(x.opponent_deviation) for x in played)
    assert abs(after.rating - rating) <= bound + 1e-9


@settings(max_examples=60, deadline=None)
@given(deviation=deviations, c=st.floats(0, 200), periods=st.floats(0, 1000))
def test_step1_never_shrinks_below_the_given_rd_nor_passes_350(
    deviation: float, c: float, periods: float
) -> None:
    grown = deviation_after_idle(deviation, c=c, periods=periods)
    assert grown <= MAX_DEVIATION
    assert grown >= min(deviation, MAX_DEVIATION)
