"""The FIDE regulations as dated data: both sides of every effective date, K, 700 rule, rounding,
initial ratings ([FIDE-RR-2014], [FIDE-RR-2022], [FIDE-RR-2024], [FIDE-CALC])."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chessrate.errors import InvalidInputError
from chessrate.systems.elo.calculate import Event, Game, rate_against_average, rate_period, rate_tournament
from chessrate.systems.elo.ruleset import Rounding, fide_rule_set
from chessrate.systems.fide.k_factor import KFactor, PlayerProfile, apply_700_rule, fide_k_factor
from chessrate.systems.fide.performance import InitialOutcome, fide_performance, initial_rating
from chessrate.systems.fide.regulations import (
    FIDE_2014_07,
    FIDE_2022_01,
    FIDE_2024_03,
    FIDE_2025_10,
    FIDE_RULES,
    rules_in_force,
)
from chessrate.systems.rounding import round_half_away_from_zero

D = Decimal


@pytest.mark.parametrize(
    ("day", "version"),
    [
        (dt.date(2014, 7, 1), FIDE_2014_07),
        (dt.date(2021, 12, 31), FIDE_2014_07),
        (dt.date(2022, 1, 1), FIDE_2022_01),
        (dt.date(2024, 2, 29), FIDE_2022_01),
        (dt.date(2024, 3, 1), FIDE_2024_03),
        (dt.date(2025, 9, 30), FIDE_2024_03),
        (dt.date(2025, 10, 1), FIDE_2025_10),
        (dt.date(2026, 11, 29), FIDE_2025_10),
    ],
    ids=lambda v: str(v) if isinstance(v, dt.date) else "",
)
def test_rules_in_force_on_both_sides_of_every_date(day: dt.date, version: object) -> None:
    assert rules_in_force(day) is version


def test_versions_are_sorted_and_nothing_before_2008_is_guessed() -> None:
    days = [rules.effective_from for rules in FIDE_RULES]
    assert days == sorted(days)
    with pytest.raises(InvalidInputError, match="as_of"):
        rules_in_force(dt.date(2008, 6, 30))


# Derived from the text of 8.3.3 [FIDE-RR-2024 §8.3.3].
@pytest.mark.parametrize(
    ("k", "games", "expected"),
    [(40, 17, 40), (40, 18, 38), (20, 35, 20), (20, 36, 19), (20, 39, 17), (10, 70, 10), (10, 71, 9)],
    ids=lambda v: str(v),
)
def test_700_rule_thresholds(k: int, games: int, expected: int) -> None:
    assert (
        apply_700_rule(KFactor(k=k, code="k-given", article=""), games, max_k_times_games=700).k == expected
    )


def test_700_rule_is_not_in_the_2014_text() -> None:
    assert FIDE_2014_07.max_k_times_games is None
    assert FIDE_2022_01.max_k_times_games == 700


@pytest.mark.parametrize(
    ("change", "rounded"),
    [("2.5", 3), ("-2.5", -3), ("1.49", 1), ("-0.5", -1), ("0.49", 0), ("-2.4", -2)],
    ids=lambda v: f"fide-8.3.4-{v}",
)
def test_rounding_half_away_from_zero(change: str, rounded: int) -> None:
    assert round_half_away_from_zero(D(change)) == rounded


DAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("rating", "profile", "k", "code"),
    [
        (2100, PlayerProfile(birth_year=1990, rated_games=10, highest_rating=2100), 40, "k-new-player"),
        (2100, PlayerProfile(birth_year=1990, rated_games=30, highest_rating=2100), 20, "k-standard"),
        (2350, PlayerProfile(birth_year=1990, rated_games=300, highest_rating=2410), 10, "k-established"),
        (
            2100,
            PlayerProfile(birth_year=2008, rated_games=200, highest_rating=2200),
            40,
            "k-junior-end-of-year",
        ),
        (2100, PlayerProfile(birth_year=2007, rated_games=200, highest_rating=2200), 20, "k-standard"),
        (2250, PlayerProfile(birth_year=2010, rated_games=200, highest_rating=2310), 20, "k-standard"),
        (2405, None, 10, "k-rating-alone-established"),
        (2399, None, 20, "k-rating-alone-standard"),
    ],
    ids=[
        "new-player-10-games",
        "30-games-adult",
        "published-2400-once-stays-10",
        "junior-18-this-year",
        "junior-turned-19-this-year",
        "junior-who-reached-2300",
        "no-profile-2405",
        "no-profile-2399",
    ],
)
def test_k_rules_8_3_3(rating: int, profile: PlayerProfile | None, k: int, code: str) -> None:
    chosen = fide_k_factor(D(rating), profile, rules=FIDE_2025_10, day=DAY)
    assert chosen.k == k
    assert chosen.code == code
    assert chosen.article == "FIDE B.02 8.3.3"


def test_junior_rule_2014_ends_with_the_birthday_year() -> None:
    # 2014: "until their 18th birthday"; 2022 on: "until the end of the year of their 18th birthday".
    profile = PlayerProfile(birth_year=2000, rated_games=100, highest_rating=2000)
    assert fide_k_factor(D(2000), profile, rules=FIDE_2014_07, day=dt.date(2018, 6, 1)).k == 20
    assert fide_k_factor(D(2000), profile, rules=FIDE_2014_07, day=dt.date(2017, 6, 1)).k == 40
    assert fide_k_factor(D(2000), profile, rules=FIDE_2022_01, day=dt.date(2018, 12, 31)).k == 40


def test_cap_once_per_tournament_2022() -> None:
    # B022022 8.3.1: "a player may benefit from only one upgrade under this rule, for the game in
    # which the rating difference is greatest" [FIDE-RR-2022 §8.3.1].
    day = dt.date(2023, 6, 1)
    games = [Game(D(1500), D(1)), Game(D(1450), D(1)), Game(D(1900), D(1))]
    result = rate_tournament(D(2000), games, rules=fide_rule_set(rules_in_force(day), day=day), k=20)
    worked = result.event.games
    assert [(g.difference, g.capped) for g in worked] == [(500, False), (400, True), (100, False)]
    assert [g.expected for g in worked] == [D(".96"), D(".92"), D(".64")]
    # From 1 March 2024 every game over 400 is capped again.
    day = dt.date(2024, 3, 1)
    result = rate_tournament(D(2000), games, rules=fide_rule_set(rules_in_force(day), day=day), k=20)
    assert [g.capped for g in result.event.games] == [True, True, False]


def test_cap_once_per_tournament_2022_against_an_average() -> None:
    # B022022 8.3.1: "In any tournament, a player may benefit from only one upgrade under this
    # rule": G games against one average are a tournament too, so one game of five is capped.
    day = dt.date(2023, 6, 1)
    rules = fide_rule_set(rules_in_force(day), day=day)
    result = rate_against_average(D(2000), games=5, points=D(5), average=D(1500), rules=rules, k=20)
    # Table 8.1.2: PD .92 for D 392-411 (the capped game), .96 for D 485-517 (the four others).
    assert (result.capped, result.capped_games) == (True, 1)
    assert result.expected == D(".92") + 4 * D(".96")
    assert result.change == 20 * (5 - result.expected)
    tournament = rate_tournament(D(2000), [Game(D(1500), D(1))] * 5, rules=rules, k=20)
    assert (result.expected, result.rounded_change) == (
        tournament.period.expected,
        tournament.period.rounded_change,
    )
    # From 1 March 2024 (B022024 8.3.1) every one of the five games is capped.
    day = dt.date(2024, 3, 1)
    rules = fide_rule_set(rules_in_force(day), day=day)
    result = rate_against_average(D(2000), games=5, points=D(5), average=D(1500), rules=rules, k=20)
    assert (result.capped_games, result.expected) == (5, 5 * D(".92"))


def test_period_rounding_once_versus_per_tournament() -> None:
    # B.02 8.3.4 rounds the period's change; two tournaments of +2.5 each (K 5, one win at D = 0:
    # 5 x (1 - .50)) give +5 once per period, 3 + 3 when each tournament is rounded.
    day = dt.date(2026, 1, 1)
    rules = fide_rule_set(rules_in_force(day), day=day)
    one_win = Event((Game(D(2000), D(1)),))
    result = rate_period(D(2000), [one_win, one_win], rules=rules, k=5)
    assert [e.change for e in result.events] == [D("2.5"), D("2.5")]
    assert result.rounded_change == 5
    per_tournament = rules.with_rounding(Rounding.TOURNAMENT)
    assert rate_period(D(2000), [one_win, one_win], rules=per_tournament, k=5).rounded_change == 6


def test_period_rates_each_tournament_from_its_start_rating_and_k_over_all_games() -> None:
    # K 20 list player with 39 games in a period -> K 17 in every tournament ([FIDE-CALC] F-P05).
    day = dt.date(2026, 1, 1)
    rules = fide_rule_set(rules_in_force(day), day=day)
    first = Event(tuple(Game(D(2000), D(1)) for _ in range(20)))
    second = Event(tuple(Game(D(2000), D(0)) for _ in range(19)), start_rating=D(2100))
    profile = PlayerProfile(birth_year=1980, rated_games=500, highest_rating=2100)
    result = rate_period(D(2000), [first, second], rules=rules, profile=profile)
    assert result.k.k == 17
    assert result.events[1].games[0].difference == 100  # rated from 2100, its own start
    assert result.events[0].change == 17 * D("10")  # 20 x (1 - .50)
    assert result.events[1].change == 17 * 19 * (0 - D(".64"))


# [FIDE-CALC] F-I01..F-I08: FIDE's initial-rating calculator (2022 rule) and the current rule
# recomputed for the same inputs, all opponents rated Rc.
INITIAL = [
    ("F-I01", 2000, "3", 5, 2020, 1993),
    ("F-I02", 2000, "2", 5, 1928, 1893),
    ("F-I03", 2000, "2.5", 5, 2000, 1943),
    ("F-I04", 2100, "5", 5, 2200, 2200),
    ("F-I05", 2400, "3", 5, 2420, 2200),
    ("F-I06", 1600, "1", 5, 1360, 1499),
    ("F-I07", 1657, "3", 5, 1677, 1748),
    ("F-I08", 1800, "4", 7, 1820, 1843),
]


@pytest.mark.parametrize(
    ("rc", "points", "games", "rule_2022", "rule_2024"),
    [case[1:] for case in INITIAL],
    ids=[case[0] for case in INITIAL],
)
def test_initial_rating_2022_and_2024(
    rc: int, points: str, games: int, rule_2022: int, rule_2024: int
) -> None:
    opponents = [D(rc)] * games
    assert initial_rating(opponents, D(points), rules=FIDE_2022_01).rating == rule_2022
    assert initial_rating(opponents, D(points), rules=FIDE_2025_10).rating == rule_2024


def test_initial_rating_published_first_rating_f_n01() -> None:
    # [FIDE-CALC] F-N01: opponents 1902 1877 1884 2012 1832, 3 points -> Ra 1872.43, p .57, dp 50 -> 1922.
    result = initial_rating([D(r) for r in (1902, 1877, 1884, 2012, 1832)], D(3), rules=FIDE_2024_03)
    assert result.rating == 1922
    assert round(result.average_opponent or 0, 2) == D("1872.43")
    assert (result.fractional_score, result.dp) == (D(".57"), 50)


@pytest.mark.parametrize(
    ("opponents", "points", "outcome"),
    [
        ([1500] * 4, "2", InitialOutcome.TOO_FEW_GAMES),
        ([1500] * 5, "0", InitialOutcome.ZERO_SCORE),
        ([1000] * 6, "0.5", InitialOutcome.BELOW_FLOOR),
    ],
    ids=["fewer-than-5-games-7.1.4", "zero-score-8.2.1", "below-1400-floor-7.1.4"],
)
def test_initial_rating_refused_with_reason(
    opponents: list[int], points: str, outcome: InitialOutcome
) -> None:
    result = initial_rating([D(r) for r in opponents], D(points), rules=FIDE_2025_10)
    assert result.rating is None
    assert result.outcome is outcome


def test_fide_performance_ra_plus_dp() -> None:
    # [CIABE]'s tournament: Ra 1750, p = 4.5/6 = .75 -> dp 193 (table 8.1.1) -> 1943.
    result = fide_performance([D(r) for r in (1500, 1600, 1700, 1800, 1900, 2000)], D("4.5"))
    assert (result.average_opponent, result.fractional_score, result.dp, result.rating) == (
        1750,
        D(".75"),
        193,
        1943,
    )
