"""DWZ against the DSB Wertungsordnung (Anhang 1.2, 2.1; §3.5.2) and its published worked example."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrate.errors import InvalidInputError
from chessrate.systems.dwz import rating as dwz


# sktroisdorf.de, "DWZ - Deutsche Wertungszahl" (2018-11-15): 1000 v 1200, both juniors (J = 5),
# Index >= 1. First player's result -> (first player's new DWZ, second player's new DWZ).
@pytest.mark.parametrize(
    ("first_score", "first_new", "second_new"),
    [(1.0, 1101, 1132), (0.5, 1035, 1177), (0.0, 985, 1232)],
    ids=["win", "draw", "loss"],
)
def test_worked_example_1000_v_1200(first_score: float, first_new: int, second_new: int) -> None:
    first = dwz.rate(1000, [dwz.DwzGame(1200, first_score)], age=15, index=1)
    second = dwz.rate(1200, [dwz.DwzGame(1000, 1 - first_score)], age=15, index=1)
    assert (first.new_rating, second.new_rating) == (first_new, second_new)


def test_expected_score_is_the_normal_distribution() -> None:
    # Anhang 2.1: P(D) = Phi(D / (200 sqrt 2)); at D = 200 sqrt 2 it is Phi(1) = 0.8413447...
    assert dwz.expected_score(0) == 0.5
    assert dwz.expected_score(283) == pytest.approx(0.841344746, abs=2e-4)
    assert dwz.expected_score(-200) + dwz.expected_score(200) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize(
    ("age", "group", "j"),
    [
        (0, "youth", 5),
        (20, "youth", 5),
        (21, "junior", 10),
        (25, "junior", 10),
        (26, "senior", 15),
        (90, "senior", 15),
    ],
)
def test_age_groups_at_their_boundaries(age: int, group: str, j: int) -> None:
    coefficient = dwz.development_coefficient(1500, age=age, index=5, points=0.5, expected=0.5)
    assert (coefficient.age_group.value, coefficient.j) == (group, j)


def test_lower_limit_five() -> None:
    # A youth rated 1000 who scores at least We: (1 + 5) x 0.5 = 3 -> E = 5.
    coefficient = dwz.development_coefficient(1000, age=15, index=5, points=1, expected=0.24)
    assert coefficient.unlimited == pytest.approx(3.0)
    assert coefficient.e == 5


@pytest.mark.parametrize(("index", "e"), [(1, 5), (2, 10), (3, 15), (4, 20), (5, 20), (9, 20)])
def test_upper_limit_five_times_index(index: int, e: int) -> None:
    # An adult rated 1500: E0 = 1.5^4 + 15 = 20.06 -> 20, at most 5 x Index.
    assert dwz.development_coefficient(1500, age=40, index=index, points=1, expected=0.5).e == e


def test_upper_limit_thirty() -> None:
    # An adult rated 2400: 2.4^4 + 15 = 48.2 -> 30, whatever the Index.
    coefficient = dwz.development_coefficient(2400, age=40, index=9, points=1, expected=0.5)
    assert round(coefficient.unlimited, 1) == 48.2
    assert coefficient.e == 30


def test_upper_limit_150_with_sbr() -> None:
    # A youth rated 500 who loses: SBr = e^(800/150) - 1 = 206.6, E = 0.0625 + 5 + 206.6 -> 150.
    coefficient = dwz.development_coefficient(500, age=12, index=1, points=0, expected=0.2)
    assert coefficient.sbr == pytest.approx(math.exp(800 / 150) - 1)
    assert coefficient.e == 150


def test_sbr_starts_below_1300_and_lifts_the_index_limit() -> None:
    # R0 = 1300: SBr = 0, so E (17.86 -> 18) is held to 5 x Index = 5. R0 = 1299: SBr > 0, so the
    # limit is 150 and E = 18.
    at = dwz.development_coefficient(1300, age=40, index=1, points=0, expected=0.5)
    below = dwz.development_coefficient(1299, age=40, index=1, points=0, expected=0.5)
    assert (at.sbr, at.upper_limit, at.e) == (0.0, 5, 5)
    assert below.sbr > 0
    assert (below.upper_limit, below.e) == (150, 18)


def test_sbr_only_when_scoring_below_expectation() -> None:
    assert dwz.development_coefficient(1000, age=40, index=5, points=0.5, expected=0.5).sbr == 0.0
    assert dwz.development_coefficient(1000, age=40, index=5, points=0.49, expected=0.5).sbr > 0


@pytest.mark.parametrize(("rating", "fb"), [(800, 0.5), (1000, 0.5), (1500, 0.75), (2000, 1.0), (2200, 1.0)])
def test_fb_within_half_and_one_for_youth_at_or_above_expectation(rating: int, fb: float) -> None:
    assert dwz.development_coefficient(rating, age=20, index=5, points=0.5, expected=0.5).fb == fb
    assert dwz.development_coefficient(rating, age=20, index=5, points=0.4, expected=0.5).fb == 1.0
    assert dwz.development_coefficient(rating, age=21, index=5, points=0.5, expected=0.5).fb == 1.0


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"age": 15, "index": 0}, "index"),
        ({"age": -1, "index": 1}, "age"),
        ({"age": 121, "index": 1}, "age"),
    ],
)
def test_bad_player_inputs_name_the_field(kwargs: dict[str, int], field: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        dwz.rate(1500, [dwz.DwzGame(1500, 1)], **kwargs)
    assert error.value.field == field


def test_bad_games_name_the_game() -> None:
    with pytest.raises(InvalidInputError, match="game 2 result"):
        dwz.rate(1500, [dwz.DwzGame(1500, 1), dwz.DwzGame(1500, 2)], age=30, index=3)
    with pytest.raises(InvalidInputError, match="game 1 opponent"):
        dwz.rate(1500, [dwz.DwzGame(0, 1)], age=30, index=3)
    with pytest.raises(InvalidInputError, match="games"):
        dwz.rate(1500, [], age=30, index=3)


ratings = st.integers(min_value=400, max_value=2800)
ages = st.integers(min_value=6, max_value=80)
indexes = st.integers(min_value=1, max_value=8)


@given(ratings, st.lists(ratings, min_size=1, max_size=9), ages, indexes, st.data())
def test_monotone_in_the_score(
    rating: int, opponents: list[int], age: int, index: int, data: st.DataObject
) -> None:
    # More points never give a lower rating (the limits and SBr keep the change's sign).
    scores = [data.draw(st.sampled_from([0.0, 0.5, 1.0])) for _ in opponents]
    position = data.draw(st.integers(min_value=0, max_value=len(opponents) - 1))
    news = []
    for score in (0.0, 0.5, 1.0):
        scores[position] = score
        games = [dwz.DwzGame(o, s) for o, s in zip(opponents, scores, strict=True)]
        news.append(dwz.rate(rating, games, age=age, index=index).unrounded)
    assert news[0] <= news[1] <= news[2]


@given(
    st.integers(min_value=1300, max_value=2800),
    st.integers(min_value=1300, max_value=2800),
    st.sampled_from([0.0, 0.5, 1.0]),
)
def test_zero_sum_where_both_coefficients_are_equal(a: int, b: int, score: float) -> None:
    # Adults at Index 1 above 1299 both have E = 5: the formula is then zero-sum for one game.
    first = dwz.rate(a, [dwz.DwzGame(b, score)], age=40, index=1)
    second = dwz.rate(b, [dwz.DwzGame(a, 1 - score)], age=40, index=1)
    assert first.coefficient.e == second.coefficient.e == 5
    assert (first.unrounded - a) + (second.unrounded - b) == pytest.approx(0.0, abs=1e-9)


def test_not_zero_sum_when_the_coefficients_differ() -> None:
    # The worked example: the winner of 1000 v 1200 gains 101, the loser drops 68.
    first = dwz.rate(1000, [dwz.DwzGame(1200, 1)], age=15, index=1)
    second = dwz.rate(1200, [dwz.DwzGame(1000, 0)], age=15, index=1)
    assert (first.change, second.change) == (101, -68)
