"""The bounds of the Glicko values typed, from their sources, and what the core does below them.

Sources (docs/glicko.md, "Bounds of the values typed"): Glickman, "The Glicko system", Step 1 (RD at
most 350, an unrated player's); glicko2.pdf Step 1 (tau: "reasonable choices are between 0.3 and
1.2"); lila ``Glicko.scala`` (``maxDeviation = 500``). A value whose square underflows crashed the
papers' arithmetic (``ln(sigma^2)``, ``1/RD^2``, ``1/tau^2``): the core now refuses it by name.
"""

from __future__ import annotations

import datetime as dt
import itertools
import warnings

import numpy as np
import pytest

from chessrate import bulk
from chessrate.bulk import _arrays as bulk_arrays
from chessrate.errors import InvalidInputError
from chessrate.service import glicko as requests_glicko
from chessrate.service import stakes, systems
from chessrate.service.elo import GameRow
from chessrate.service.language import ENGLISH
from chessrate.service.problems import Problems
from chessrate.systems.glicko import glicko1 as glicko
from chessrate.systems.glicko import glicko2, lichess

PAPER_GAMES = [
    glicko.GlickoGame(1400, 30, 1),
    glicko.GlickoGame(1550, 100, 0),
    glicko.GlickoGame(1700, 300, 0),
]


def test_the_bounds_are_the_sources() -> None:
    assert requests_glicko.most_deviation("lichess") == 500  # lila maxDeviation
    assert requests_glicko.most_deviation("glicko2") == requests_glicko.most_deviation("glicko") == 350
    assert (glicko2.LEAST_TAU, glicko2.MOST_TAU) == (0.3, 1.2)
    # The floors are below every published value: Glickman's RD threshold 30 and lila's 45; the
    # volatilities 0.06 (glicko2.pdf) and 0.09 (lila).
    assert min(glicko.SUGGESTED_MIN_DEVIATION, lichess.MIN_DEVIATION) > glicko2.LEAST_DEVIATION
    assert min(0.06, lichess.NEW_VOLATILITY) > glicko2.LEAST_VOLATILITY
    # The largest volatility is above lila's cap (maxVolatility) and every published default.
    assert glicko2.MOST_VOLATILITY > lichess.MAX_VOLATILITY


@pytest.mark.parametrize(
    ("field", "inside", "outside"),
    [
        ("deviation", (glicko2.LEAST_DEVIATION, glicko2.MOST_DEVIATION), (0.5, 500.5, 1e200)),
        ("volatility", (glicko2.LEAST_VOLATILITY, glicko2.MOST_VOLATILITY), (0.0009, 1.01, 1e200)),
        ("tau", (glicko2.LEAST_TAU, glicko2.MOST_TAU), (0.29, 1.21, 1e200)),
    ],
)
def test_the_forms_and_the_bulk_engine_keep_one_set_of_bounds(
    field: str, inside: tuple[float, float], outside: tuple[float, ...]
) -> None:
    # The least RD is the paper's forms' (Lichess's is lila's 45), the largest Lichess's.
    least, most = {
        "deviation": (requests_glicko.deviation("glicko2"), requests_glicko.deviation("lichess")),
        "volatility": (requests_glicko.volatility(),) * 2,
        "tau": (requests_glicko.tau(),) * 2,
    }[field]

    def bulk_rate(value: float) -> object:
        deviation = value if field == "deviation" else 200.0
        volatility = value if field == "volatility" else 0.06
        tau = value if field == "tau" else 0.5
        return bulk.rate_glicko2_period(
            [0], [1], [2], [1500.0, 1500.0], [200.0, deviation], [0.06, volatility], tau=tau
        )

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy overflow warning before the refusal (RD 1e200 gave one)
        for typed, value in zip((least, most), inside, strict=True):
            assert typed(repr(value)) == value
            bulk_rate(value)
        for typed, value in zip((least, most, most), outside, strict=True):
            with pytest.raises(InvalidInputError) as form:
                typed(repr(value))
            with pytest.raises(InvalidInputError) as engine:
                bulk_rate(value)
            assert form.value.field == engine.value.field == field


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: glicko2.rate_period(glicko2.Glicko2Rating(1500, 200, 1e-320), PAPER_GAMES), "volatility"),
        (lambda: glicko2.rate_period(glicko2.Glicko2Rating(1500, 200, 0.06), PAPER_GAMES, tau=1e-300), "tau"),
        (lambda: glicko.rate_period(glicko.GlickoRating(1500, 1e-320), PAPER_GAMES), "deviation"),
        (
            lambda: lichess.rate_game(lichess.LichessRating(1500, 500, 1e-320), lichess.NEW_PLAYER, 1),
            "volatility",
        ),
    ],
)
def test_a_value_whose_square_underflows_is_refused_by_name(make: object, field: str) -> None:
    # Before: ValueError "math domain error" and ZeroDivisionError from inside the steps.
    with pytest.raises(InvalidInputError) as refused:
        make()  # type: ignore[operator]
    assert (refused.value.field, refused.value.code) == (field, "too-small")


def test_an_arithmetic_error_of_the_core_is_a_problem_of_the_field() -> None:
    problems = Problems(ENGLISH)

    def overflow() -> float:
        raise OverflowError("math range error")

    assert problems.attempt(("volatility",), "9e11", overflow) is None
    assert problems.errors[("volatility",)].reason == "too extreme to compute with"


def test_one_parser_for_every_glicko_rd() -> None:
    """The Glicko-2 page, the Chess.com estimate and the points at stake refuse the same RD alike."""
    day = dt.date(2025, 12, 1)
    glicko_problems, chesscom_problems, stakes_problems = (
        Problems(ENGLISH),
        Problems(ENGLISH),
        Problems(ENGLISH),
    )
    game = GameRow(opponent="1400", deviation="30", result="1")
    requests_glicko.glicko(
        requests_glicko.GlickoInputs(system="glicko2", deviation="1e6", games=(game,)),
        glicko_problems,
        today=day,
    )
    systems.chesscom_glicko(
        systems.ChesscomInputs(rating="1500", deviation="1e6", games=(game,)),
        chesscom_problems,
        today=day,
    )
    stakes.points_at_stake(
        stakes.StakesInputs(system="glicko2", rating="1500", opponent="1700", deviation="1e6"),
        stakes_problems,
        today=day,
    )
    reasons = {p.errors[("deviation",)].reason for p in (glicko_problems, chesscom_problems, stakes_problems)}
    assert reasons == {"must be at most 350"}


#: The corners of the bulk engine's bounds: chess ratings 0 and 4000, and glicko2's RD, volatility.
_CORNERS = [
    (rating, deviation, volatility)
    for rating in (bulk_arrays.LOWEST, bulk_arrays.HIGHEST)
    for deviation in (glicko2.LEAST_DEVIATION, glicko2.MOST_DEVIATION)
    for volatility in (glicko2.LEAST_VOLATILITY, glicko2.MOST_VOLATILITY)
]


@pytest.mark.parametrize("tau", [glicko2.LEAST_TAU, glicko2.MOST_TAU])
def test_the_bulk_engine_is_finite_at_every_corner_of_its_bounds(tau: float) -> None:
    # The guard bulk-gaps-too-large is gone: v and Delta stay finite within the bounds (bulk/glicko2.py,
    # Steps 3 and 4). Every corner player plays each other corner player once, alone, with each result;
    # then all of them play one another in one period, beside an idle copy of each (Step 6 only).
    assert (bulk_arrays.LOWEST, bulk_arrays.HIGHEST) == (0, 4000)
    calls = [
        ([0], [1], [half], [one, other])
        for one, other in itertools.permutations(_CORNERS, 2)
        for half in (0, 1, 2)
    ]
    pairs = list(itertools.permutations(range(len(_CORNERS)), 2))
    calls.append(
        (
            [white for white, _ in pairs],
            [black for _, black in pairs],
            [(white + black) % 3 for white, black in pairs],
            _CORNERS * 2,
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for white, black, half_points, players in calls:
            period = bulk.rate_glicko2_period(
                white,
                black,
                half_points,
                [rating for rating, _, _ in players],
                [deviation for _, deviation, _ in players],
                [volatility for _, _, volatility in players],
                tau=tau,
            )
            for values in (period.rating, period.deviation, period.volatility):
                assert np.isfinite(values).all(), (players, half_points, values)
