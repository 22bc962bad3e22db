"""Pools compared: each conversion as published, and FIDE's 2024 adjustment as a range."""

from __future__ import annotations

import pytest

from chessrate.comparisons import pools
from chessrate.comparisons.pools import Pool
from chessrate.errors import InvalidInputError


def _fit(ratings: dict[Pool, float], target: Pool, name: str) -> pools.Converted:
    return next(c for c in pools.convert(ratings, target) if c.conversion.name == name)


@pytest.mark.parametrize(
    ("name", "source", "target", "intercept", "slope"),
    [  # each at two inputs its pool can hold (Lichess: 400 to below 4000), the line through them
        # r/chess, April 2025: Chess.com blitz = 1.3728 x Lichess blitz - 929.4548 (R^2 0.313).
        ("reddit-2025", Pool.LICHESS_BLITZ, Pool.CHESSCOM_BLITZ, -929.4548, 1.3728),
        # mathtuition88.com, February 2020: FIDE = 0.8399 x Lichess blitz + 179.89 (R^2 0.74).
        ("mathtuition88-2020", Pool.LICHESS_BLITZ, Pool.FIDE, 179.89, 0.8399),
        # ECF: rating = 7.5 x grade + 700.
        ("ecf-grade", Pool.ECF_GRADE, Pool.ECF, 700, 7.5),
    ],
)
def test_one_input_fits_reproduce_their_published_coefficients(
    name: str, source: Pool, target: Pool, intercept: float, slope: float
) -> None:
    low, high = (100.0, 200.0) if source is Pool.ECF_GRADE else (1000.0, 2000.0)
    at_low, at_high = _fit({source: low}, target, name).value, _fit({source: high}, target, name).value
    slope_found = (at_high - at_low) / (high - low)
    assert slope_found == pytest.approx(slope, abs=1e-12)
    assert at_low - slope_found * low == pytest.approx(intercept, abs=1e-9)


def test_the_two_input_lichess_forum_fit() -> None:
    # Lichess forum: FIDE = 187 + 0.38 x Lichess classical + 0.48 x Lichess blitz.
    def value(classical: float, blitz: float) -> float:
        ratings = {Pool.LICHESS_CLASSICAL: classical, Pool.LICHESS_BLITZ: blitz}
        return _fit(ratings, Pool.FIDE, "lichess-forum").value

    assert value(1000, 1000) == pytest.approx(187 + 380 + 480)
    assert value(2000, 1000) - value(1000, 1000) == pytest.approx(380)
    assert value(1000, 2000) - value(1000, 1000) == pytest.approx(480)


def test_published_sample_sizes_and_r_squared() -> None:
    by_name = {c.name: c for c in pools.CONVERSIONS}
    assert (by_name["reddit-2025"].sample, by_name["reddit-2025"].r_squared) == (
        "305,539 accounts matched by username",
        0.313,
    )
    assert (by_name["mathtuition88-2020"].sample, by_name["mathtuition88-2020"].r_squared) == (
        "30 players",
        0.74,
    )
    assert by_name["lichess-forum"].r_squared is None


# FIDE's examples of the 1 March 2024 adjustment: 1000 -> 1400, 1500 -> 1700, 1600 -> 1760,
# 1950 -> 1970, 2000 -> 2000 (FIDE news 2538; Chess.com news, 1 March 2024).
@pytest.mark.parametrize(
    ("before", "after"), [(1000, 1400), (1500, 1700), (1600, 1760), (1950, 1970), (2000, 2000), (2400, 2400)]
)
def test_fide_2024_adjustment(before: float, after: float) -> None:
    assert pools.fide_2024_adjustment(before) == pytest.approx(after)


def test_fide_fits_show_the_adjustment_as_a_range() -> None:
    fit = _fit({Pool.LICHESS_BLITZ: 1500.0}, Pool.FIDE, "mathtuition88-2020")
    value = 0.8399 * 1500 + 179.89
    assert fit.value == pytest.approx(value)
    assert fit.adjusted == pytest.approx(value + 0.4 * (2000 - value))
    assert (fit.low, fit.high) == (fit.value, fit.adjusted)
    chesscom = _fit({Pool.LICHESS_BLITZ: 1500.0}, Pool.CHESSCOM_BLITZ, "reddit-2025")
    assert chesscom.adjusted is None
    assert chesscom.low == chesscom.high == chesscom.value


def test_every_applicable_fit_is_given() -> None:
    both = {Pool.LICHESS_BLITZ: 1800.0, Pool.LICHESS_CLASSICAL: 1900.0}
    assert {c.conversion.name for c in pools.convert(both, Pool.FIDE)} == {
        "lichess-forum",
        "mathtuition88-2020",
    }
    assert {c.conversion.name for c in pools.convert({Pool.LICHESS_BLITZ: 1800.0}, Pool.FIDE)} == {
        "mathtuition88-2020"
    }


def test_no_path_is_an_error_naming_what_is_needed() -> None:
    with pytest.raises(InvalidInputError, match="lichess-blitz"):
        pools.convert({Pool.CHESSCOM_BLITZ: 1500.0}, Pool.FIDE)
    with pytest.raises(InvalidInputError, match="no published conversion"):
        pools.convert({Pool.FIDE: 1500.0}, Pool.LICHESS_BLITZ)
    with pytest.raises(InvalidInputError, match="pool"):
        pools.parse_pool("icc")
    with pytest.raises(InvalidInputError, match="lichess-blitz"):
        pools.convert({Pool.LICHESS_BLITZ: float("nan")}, Pool.FIDE)
