"""ECF's K method against the ECF's worked values."""

from __future__ import annotations

from decimal import Decimal

import pytest

from chessrate.errors import InvalidInputError, UnpublishedRuleError
from chessrate.systems.ecf import rating as ecf


def test_adult_beating_an_equal_gains_ten_junior_twenty() -> None:
    # ECF, "The calculation of ECF grades on a monthly basis": k = 20 (juniors 40), We = 0.50.
    adult = ecf.rate(1800, [ecf.EcfGame(1800, Decimal(1))])
    junior = ecf.rate(1800, [ecf.EcfGame(1800, Decimal(1))], junior=True)
    assert (adult.k, adult.change, adult.new_rating) == (20, 10, 1810)
    assert (junior.k, junior.change, junior.new_rating) == (40, 20, 1820)


def test_expected_score_from_fide_table_8_1_2() -> None:
    # D = -200 -> row 198-206, PD L = .24; D = 200 -> .76.
    result = ecf.rate(1500, [ecf.EcfGame(1700, Decimal("0.5"))])
    assert result.games[0].expected == Decimal("0.24")
    assert result.change == Decimal("5.2")


def test_grade_conversion() -> None:
    # ECF: rating = 7.5 x grade + 700.
    assert ecf.rating_from_grade(Decimal(150)) == 7.5 * 150 + 700
    assert ecf.rating_from_grade(Decimal(0)) == 700


def test_the_p_method_refuses_and_says_why() -> None:
    with pytest.raises(UnpublishedRuleError, match="nominal opponent"):
        ecf.new_player_rating()


def test_bad_inputs_name_the_field() -> None:
    with pytest.raises(InvalidInputError, match="game 1 result"):
        ecf.rate(1500, [ecf.EcfGame(1500, Decimal(2))])
    with pytest.raises(InvalidInputError, match="rating"):
        ecf.rate(-3, [ecf.EcfGame(1500, Decimal(1))])
