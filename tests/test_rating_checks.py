"""One rating check, one score check and one rounding for every system, each with its own bounds."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from decimal import Decimal

import pytest

from chessrate.comparisons import pools
from chessrate.errors import InvalidInputError
from chessrate.systems.dwz import rating as dwz
from chessrate.systems.ecf import rating as ecf
from chessrate.systems.elo.calculate import Game, rate_tournament
from chessrate.systems.elo.ruleset import fide_rule_set
from chessrate.systems.fide.regulations import FIDE_2024_03
from chessrate.systems.rounding import round_half_away_from_zero
from chessrate.systems.uscf import rating as uscf

DAY = dt.date(2025, 1, 1)
FIDE = fide_rule_set(FIDE_2024_03, day=DAY)


def _fide(rating: float) -> object:
    return rate_tournament(Decimal(rating), [Game(Decimal(1500), Decimal(1))], rules=FIDE, k=20)


def _dwz(rating: float) -> object:
    return dwz.rate(int(rating), [dwz.DwzGame(1500, 1)], age=30, index=5)


def _ecf(rating: float) -> object:
    return ecf.rate(int(rating), [ecf.EcfGame(1500, Decimal(1))])


def _uscf(rating: float) -> object:
    return uscf.rate_event(rating, [uscf.UscfGame(1500, 1)], games_played=30, event_end=DAY)


def _pools(rating: float) -> object:
    return pools.convert({pools.Pool.ECF_GRADE: rating}, pools.Pool.ECF)


# Each system's bounds (the constants cite why): FIDE 0-4000, DWZ 1-3500, ECF 0-3500, US Chess from
# its absolute floor of 100 to 3500, pools 0-3500.
@pytest.mark.parametrize(
    ("rate", "low", "high"),
    [
        pytest.param(_fide, 0, 4000, id="fide"),
        pytest.param(_dwz, dwz.MIN_RATING, dwz.MAX_RATING, id="dwz"),
        pytest.param(_ecf, ecf.MIN_RATING, ecf.MAX_RATING, id="ecf"),
        pytest.param(_uscf, uscf.ABSOLUTE_FLOOR, uscf.MAX_RATING, id="uscf-floor-100"),
        pytest.param(_pools, pools.MIN_RATING, pools.MAX_RATING, id="pools"),
    ],
)
def test_each_system_refuses_a_rating_outside_its_bounds(
    rate: Callable[[float], object], low: float, high: float
) -> None:
    for outside in (low - 1, high + 1):
        with pytest.raises(InvalidInputError) as refused:
            rate(outside)
        assert (refused.value.code, dict(refused.value.params)) == (
            "rating-range",
            {"low": low, "high": high},
        )
    rate(low + 100)  # inside: rated (or converted) without a word


@pytest.mark.parametrize("value", [math.nan, math.inf, True, "1500"])
def test_a_rating_that_is_no_number_is_refused(value: object) -> None:
    with pytest.raises(InvalidInputError):
        _uscf(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("score", [0.25, 2, -1, math.nan, Decimal("NaN"), Decimal("0.75"), "1"])
def test_every_system_takes_only_1_half_or_0(score: object) -> None:
    for rate in (
        lambda: dwz.rate(1500, [dwz.DwzGame(1500, score)], age=30, index=5),  # type: ignore[arg-type]
        lambda: ecf.rate(1500, [ecf.EcfGame(1500, score)]),  # type: ignore[arg-type]
        lambda: uscf.rate_event(1500, [uscf.UscfGame(1500, score)], games_played=30, event_end=DAY),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidInputError) as refused:
            rate()
        assert refused.value.code == "result"


@pytest.mark.parametrize(
    ("value", "rounded"),
    [(2.5, 3), (-2.5, -3), (1500.5, 1501), (0.49999999999999994, 0), (Decimal("-0.5"), -1), (1511.111, 1511)],
)
def test_one_rounding_half_away_from_zero(value: float | Decimal, rounded: int) -> None:
    # FIDE B.02 8.3.4: "rounded to the nearest whole number. 0.5 is rounded away from zero."
    assert round_half_away_from_zero(value) == rounded
