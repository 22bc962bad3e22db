"""The FIDE rapid and blitz rule sets (``fide-rapid``, ``fide-blitz``) in every calculator: the library,
the command line and the JSON API, against the regulation's text ([FIDE-RR-RB-2024], [SCAC]) and
FIDE's own calculator ([FIDE-CALC]), and their invariants against the standard rules."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessrate import bulk
from chessrate.errors import InvalidInputError, RuleSetError
from chessrate.systems.elo.calculate import Event, Game, rate_game, rate_period, rate_tournament
from chessrate.systems.elo.presets import resolve_rule_set
from chessrate.systems.fide.k_factor import PlayerProfile
from chessrate.systems.fide.regulations import (
    FIDE_RB_2022_01,
    FIDE_RB_2022_10,
    FIDE_RB_2024_03,
    FIDE_RB_2024_12,
    rules_in_force,
)

D = Decimal


@pytest.mark.parametrize("name", ["fide-rapid", "fide-blitz", " FIDE-Rapid "])
@pytest.mark.parametrize(
    ("day", "version"),
    [
        (dt.date(2022, 9, 30), FIDE_RB_2022_01),
        (dt.date(2022, 10, 1), FIDE_RB_2022_10),
        (dt.date(2024, 3, 1), FIDE_RB_2024_03),
        (dt.date(2024, 12, 1), FIDE_RB_2024_12),
    ],
)
def test_the_rapid_and_blitz_names_give_the_version_of_the_day(
    name: str, day: dt.date, version: object
) -> None:
    rules = resolve_rule_set(name, as_of=day)
    assert rules.fide is version
    assert rules.name == name.strip().lower()
    assert rules.is_fide


def test_rapid_before_2022_is_refused_in_one_line() -> None:
    with pytest.raises(InvalidInputError) as refused:
        resolve_rule_set("fide-blitz", as_of=dt.date(2021, 12, 31))
    assert "2022-01-01" in refused.value.reason
    assert "\n" not in str(refused.value)
    with pytest.raises(RuleSetError) as unknown:
        resolve_rule_set("fide-bullet", as_of=dt.date(2025, 1, 1))
    assert "fide-rapid" in str(unknown.value)


#: What the rapid and blitz chapter may differ in from the standard rules of the same day, by name.
NAMED_DIFFERENCES = (
    "name",
    "effective_from",
    "source",
    "rapid_and_blitz",
    "not_rated_difference",  # 8.3.1 from 1 December 2024
    "not_rated_above",
    "standard_rating_for_unrated",  # 7.2.1 (2024 chapter)
    "cap_applies_below",  # standard 8.3.1 from 1 October 2025 (the 2650 exemption); not in rapid
)


@settings(max_examples=60, deadline=None)
@given(day=st.dates(dt.date(2022, 10, 1), dt.date(2030, 12, 31)))
def test_from_october_2022_rapid_is_standard_but_for_the_named_differences(day: dt.date) -> None:
    standard = rules_in_force(day, "standard")
    for list_type in ("rapid", "blitz"):
        rapid = rules_in_force(day, list_type)
        same = dataclasses.replace(rapid, **{name: getattr(standard, name) for name in NAMED_DIFFERENCES})
        assert same == standard


@settings(max_examples=80, deadline=None)
@given(
    day=st.dates(dt.date(2022, 10, 1), dt.date(2030, 12, 31)),
    rating=st.integers(1000, 2599),
    opponent=st.integers(1000, 2599),
    score=st.sampled_from([D(0), D("0.5"), D(1)]),
    birth_year=st.one_of(st.none(), st.integers(1950, 2015)),
    rated_games=st.one_of(st.none(), st.integers(0, 100)),
)
def test_below_2600_a_rapid_game_changes_the_rating_as_a_standard_one(
    day: dt.date, rating: int, opponent: int, score: Decimal, birth_year: int | None, rated_games: int | None
) -> None:
    """Below 2600 neither named difference can bite (the 600-point games, the 2650 exemption): the
    same game under ``fide-rapid`` and ``fide`` is the same working."""
    profile = PlayerProfile(birth_year=birth_year, rated_games=rated_games)
    rapid = rate_game(
        D(rating), D(opponent), score, rules=resolve_rule_set("fide-rapid", as_of=day), profile=profile
    )
    standard = rate_game(
        D(rating), D(opponent), score, rules=resolve_rule_set("fide", as_of=day), profile=profile
    )
    assert rapid.event == standard.event
    assert (rapid.period.k.k, rapid.period.new_rating) == (standard.period.k.k, standard.period.new_rating)


# FIDE's online calculator [FIDE-CALC] caps every difference at 400 ("calculator" column of
# tests/test_bulk.py), as the rapid and blitz 8.3.1 does for everyone, with no 2650 exemption.
CALCULATOR = [
    ("F-C01", 2000, 2000, 1, 10, "5"),
    ("F-C05", 2011, 2000, 1, 10, "4.8"),
    ("F-C09", 2392, 2000, 1, 10, "0.8"),
    ("F-C13", 1655, 2000, 0, 10, "-1.1"),
    ("F-C16", 2650, 2150, 1, 10, "0.8"),
    ("F-C17", 2700, 2200, 1, 10, "0.8"),
    ("F-C18", 2200, 2700, 0, 20, "-1.6"),
    ("F-C22", 1500, 2000, 0.5, 20, "8.4"),
]


@pytest.mark.parametrize("row", CALCULATOR, ids=lambda row: row[0])
def test_fide_calculator_values_under_the_rapid_rules_of_2025(row: tuple[Any, ...]) -> None:
    _, own, opponent, score, k, change = row
    rules = resolve_rule_set("fide-rapid", as_of=dt.date(2025, 11, 1))
    result = rate_game(D(own), D(opponent), D(str(score)), rules=rules, k=k)
    assert result.period.change == D(change)


@pytest.mark.parametrize(("own", "opponent"), [(2700, 1964), (2700, 1900)], ids=["F-C20", "F-C21"])
def test_the_calculator_games_of_600_points_or_more_are_not_rated_in_blitz(own: int, opponent: int) -> None:
    # B02RBRegulations2024 8.3.1, from 1 December 2024: 736 and 800 apart, 2700 "above 2600".
    rules = resolve_rule_set("fide-blitz", as_of=dt.date(2025, 11, 1))
    with pytest.raises(InvalidInputError) as refused:
        rate_game(D(own), D(opponent), D(1), rules=rules, k=10)
    assert (refused.value.field, refused.value.code) == ("opponent", "not-rated-game")


def test_a_tournament_leaves_the_600_point_game_out_and_keeps_it_to_say() -> None:
    # 2700 beats 2000 (not rated: 700 apart, above 2600) and 2200 (rated, capped at 400: PD .92 by
    # table 8.1.2): K 10 x (1 - .92) = 0.8; one game rated, so the 700 rule counts one game.
    rules = resolve_rule_set("fide-blitz", as_of=dt.date(2025, 1, 1))
    result = rate_tournament(D(2700), [Game(D(2000), D(1)), Game(D(2200), D(1))], rules=rules, k=10)
    assert (result.period.games, result.period.change, result.period.rounded_change) == (1, D("0.8"), 1)
    assert result.period.not_rated == (Game(D(2000), D(1)),)
    assert result.average_opponent == 2200  # of the games rated
    with pytest.raises(InvalidInputError) as total:
        rate_tournament(D(2700), [Game(D(2000)), Game(D(2200))], rules=rules, k=10, points=D(2))
    assert total.value.field == "points"


def test_a_period_counts_only_the_rated_games_for_the_700_rule() -> None:
    # Rapid before 1 October 2022: K 20 for all, cut beyond 35 games [SCAC]. 36 games of which one
    # is 600 points away from a 2650 player: under the 2024-12 rules that one is not rated, so
    # 35 games: K 20, not 19. (Dates differ, so the same rule is checked on the chapter in force.)
    games = [Game(D(2600), D("0.5"))] * 35 + [Game(D(2000), D(1))]
    later = resolve_rule_set("fide-rapid", as_of=dt.date(2025, 1, 1))
    result = rate_period(D(2650), [Event(tuple(games))], rules=later, k=20)
    assert (result.games, result.k.k) == (35, 20)
    earlier = resolve_rule_set("fide-rapid", as_of=dt.date(2022, 6, 1))
    assert rate_period(D(2650), [Event(tuple(games))], rules=earlier).k.k == 19  # 700 // 36


# --- the command line -------------------------------------------------------------------------------


def test_cli_game_junior_k_20_in_rapid_before_october_2022(cli: Any) -> None:
    # [SCAC]: rapid before 1 October 2022 "K=20 per tutti"; standard chess gives the junior 40
    # (B.02 8.3.3). 1900 beats 1800: D 100, PD .64 (table 8.1.2, 92-98... 99-106 -> .64).
    args = ("game", "1900", "1800", "1", "--as-of", "2022-06-01", "--birth-year", "2008", "--json")
    rapid = cli(*args, "--rules", "fide-rapid")
    standard = cli(*args)
    assert rapid.code == 0, rapid.err
    assert (rapid.json()["k"], rapid.json()["change"], rapid.json()["new_rating"]) == (20, 7.2, 1907)
    assert (standard.json()["k"], standard.json()["change"], standard.json()["new_rating"]) == (
        40,
        14.4,
        1914,
    )
    assert rapid.json()["rules_id"] == "FIDE rapid and blitz 2022-01-01"


def test_cli_tournament_says_the_game_not_rated(cli: Any) -> None:
    run = cli(
        "tournament", "2700", "2000:1", "2200:1", "--k", "10", "--rules", "fide-blitz",
        "--as-of", "2025-01-01", "--json",
    )  # fmt: skip
    assert run.code == 0, run.err
    data = run.json()
    assert (data["game_count"], data["change"], data["not_rated"]) == (1, 0.8, [2000])
    assert "8.3.1" in data["not_rated_note"]
    shown = cli(
        "tournament",
        "2700",
        "2000:1",
        "2200:1",
        "--k",
        "10",
        "--rules",
        "fide-blitz",
        "--as-of",
        "2025-01-01",
    )
    assert "Not rated, so left out: the game against 2000" in " ".join(shown.out.split())


def test_cli_one_game_not_rated_is_one_line_exit_2(cli: Any) -> None:
    run = cli("game", "2700", "2000", "1", "--rules", "fide-rapid", "--as-of", "2025-01-01")
    assert run.code == 2
    assert run.err.count("\n") == 1
    assert "invalid opponent '2000'" in run.err
    assert "not rated" in run.err


def test_cli_initial_with_a_standard_rating_in_rapid(cli: Any) -> None:
    # Rapid and blitz 7.2.1 (2024): the standard rating 1850 "is used for rating calculation"; the
    # player is new to the rapid list, so K 40 (B.02 8.3.3). Table 8.1.2: D +50 -> .57, -50 -> .43,
    # -150 -> .30: expected 1.30; 1.5 points: 40 x 0.2 = +8 -> 1858.
    args = ("initial", "1800:1", "1900:½", "2000:0", "--rules", "fide-rapid", "--as-of", "2025-01-01")
    run = cli(*args, "--standard-rating", "1850", "--json")
    assert run.code == 0, run.err
    rated = run.json()["rated_from_standard"]
    assert (rated["k"], rated["expected"], rated["change"], rated["new_rating"]) == (40, 1.3, 8, 1858)
    before = cli(*args[:-1], "2023-06-01", "--standard-rating", "1850")
    assert before.code == 2
    assert "7.2.1" in before.err
    standard = cli("initial", "1800:1", "--standard-rating", "1850", "--as-of", "2025-01-01")
    assert standard.code == 2
    assert "--standard-rating" in standard.err


# --- the bulk engine --------------------------------------------------------------------------------


def test_bulk_and_scalar_agree_on_a_period_with_not_rated_games() -> None:
    rules = resolve_rule_set("fide-rapid", as_of=dt.date(2025, 1, 1))
    ratings = np.array([2700, 2000, 2200, 2650])
    white, black, half = [0, 0, 3, 1], [1, 2, 1, 2], [2, 2, 0, 1]
    period = bulk.rate_elo_period(white, black, half, ratings, [10, 20, 20, 10], rules=rules)
    assert period.games.tolist() == [1, 1, 2, 0]  # 2700-2000 and 2650-2000 are not rated
    scalar = rate_tournament(D(2700), [Game(D(2000), D(1)), Game(D(2200), D(1))], rules=rules, k=10)
    assert int(period.rounded_change[0]) == scalar.period.rounded_change
    assert float(period.change[0]) == pytest.approx(float(scalar.period.change))


def test_cli_k_factor_on_the_blitz_list(cli: Any) -> None:
    """Blitz before 1 October 2022: K 20 for every player, cut by the 700 rule (40 games: 17) [SCAC]."""
    run = cli(
        "k-factor",
        "2700",
        "--rules",
        "fide-blitz",
        "--as-of",
        "2022-01-05",
        "--games-this-period",
        "40",
        "--json",
    )
    assert run.code == 0, run.err
    assert (run.json()["k_before_700_rule"], run.json()["k"]) == (20, 17)
    early = cli("k-factor", "2700", "--rules", "fide-blitz", "--as-of", "2021-06-01")
    assert early.code == 2
    assert "--rules" in early.err
