"""FIDE's rules before 1 July 2014, kept from 1 July 2008 (docs/fide.md, "Before 1 July 2014").

Six calculations FIDE published for 2009 and 2010, each reproduced by ``chessrate tournament`` on its own
date, K from the player's profile (never given). The published values are FIDE's, as cited in
docs/fide.md ([FIDE-CALC-2009], [FIDE-CALC-2010]): Ro, K, the opponents' ratings, the results, and
FIDE's expected score and change.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from chessrate.service.explanations import initial_reason
from chessrate.service.language import ENGLISH
from chessrate.systems.elo.calculate import Game, rate_tournament
from chessrate.systems.elo.ruleset import fide_rule_set
from chessrate.systems.fide.k_factor import PlayerProfile, fide_k_factor
from chessrate.systems.fide.performance import InitialOutcome, initial_rating
from chessrate.systems.fide.regulations import (
    FIDE_2008_07,
    FIDE_2009_07,
    FIDE_2011_07,
    FIDE_2012_07,
    FIDE_2014_07,
    rules_in_force,
)

D = Decimal

# name, --as-of (the tournament's first day), Ro, profile options, games, FIDE's expected, K, change.
PUBLISHED = [
    # 10th Karpov tournament, Poikovsky, 3-12 June 2009 (FIDE tournament report, event 44463).
    (
        "Bologan, Poikovsky 2009",
        "2009-06-03",
        2690,
        ["--highest-rating", "2690"],
        "2730:0 2682:1 2702:0.5 2684:0.5 2745:0.5 2660:0 2676:0.5 2700:1 2677:0.5",
        "4.43",
        10,
        "+0.70",
    ),
    (
        "Shirov, Poikovsky 2009",
        "2009-06-03",
        2745,
        ["--highest-rating", "2745"],
        "2676:0 2700:0 2677:0 2730:0 2690:0.5 2702:0.5 2684:0 2682:0.5 2660:0.5",
        "5.20",
        10,
        "-32.00",
    ),
    # Corus A, Wijk aan Zee, 16-31 January 2010 (FIDE tournament report, event 42427; Carlsen's
    # individual calculation of the March 2010 list).
    (
        "Carlsen, Wijk aan Zee 2010",
        "2010-01-16",
        2810,
        ["--highest-rating", "2810"],
        "2662:0.5 2657:1 2641:1 2696:0.5 2708:0.5 2790:0.5 2749:1 2723:0.5 2788:0 2720:1 2712:1 2739:0.5 "
        "2675:0.5",
        "8.21",
        10,
        "+2.90",
    ),
    (
        "Anand, Wijk aan Zee 2010",
        "2010-01-16",
        2790,
        ["--highest-rating", "2790"],
        "2720:0.5 2696:0.5 2712:0.5 2708:0.5 2739:0.5 2810:0.5 2675:0.5 2749:0.5 2662:0.5 2723:1 2657:0.5 "
        "2788:1 2641:0.5",
        "7.85",
        10,
        "-3.50",
    ),
    (
        "Shirov, Wijk aan Zee 2010",
        "2010-01-16",
        2723,
        ["--highest-rating", "2755"],
        "2662:1 2657:1 2641:1 2696:0.5 2708:0 2810:0.5 2749:0.5 2790:0 2788:0.5 2720:0.5 2712:0.5 2739:1 "
        "2675:1",
        "6.57",
        10,
        "+14.30",
    ),
    # FIDE id 4625200, individual calculation of the July 2009 list (rating period April-June 2009):
    # rated below 2400 with more than 30 rated games, so K 15.
    (
        "FIDE id 4625200, July 2009 list",
        "2009-04-01",
        2235,
        ["--highest-rating", "2240", "--rated-games", "100"],
        "2120:0.5 2121:0.5 2118:1 2026:0 2328:0 2231:1 2197:0 2190:1",
        "4.74",
        15,
        "-11.10",
    ),
]


@pytest.mark.parametrize(
    ("rating", "as_of", "ro", "profile", "games", "expected", "k", "change"),
    PUBLISHED,
    ids=[case[0] for case in PUBLISHED],
)
def test_fide_published_calculations_of_2009_and_2010(
    cli: Any,
    rating: str,
    as_of: str,
    ro: int,
    profile: list[str],
    games: str,
    expected: str,
    k: int,
    change: str,
) -> None:
    run = cli("tournament", str(ro), *games.split(), "--as-of", as_of, *profile, "--json")
    assert run.code == 0, run.err
    data = run.json()
    assert data["k"] == k  # from the profile, never given
    assert D(str(data["expected"])).quantize(D("0.01")) == D(expected)
    assert D(str(data["change"])).quantize(D("0.01")) == D(change)
    assert data["rules_id"] == rules_in_force(dt.date.fromisoformat(as_of)).name
    assert "warning" not in run.err.lower()


@pytest.mark.parametrize(
    ("day", "version"),
    [
        (dt.date(2008, 7, 1), FIDE_2008_07),
        (dt.date(2009, 6, 30), FIDE_2008_07),
        (dt.date(2009, 7, 1), FIDE_2009_07),
        (dt.date(2011, 6, 30), FIDE_2009_07),
        (dt.date(2011, 7, 1), FIDE_2011_07),
        (dt.date(2012, 6, 30), FIDE_2011_07),
        (dt.date(2012, 7, 1), FIDE_2012_07),
        (dt.date(2014, 6, 30), FIDE_2012_07),
        (dt.date(2014, 7, 1), FIDE_2014_07),
    ],
)
def test_versions_on_both_sides_of_each_date(day: dt.date, version: object) -> None:
    assert rules_in_force(day) is version


def test_before_1_july_2008_is_refused_naming_the_field(cli: Any) -> None:
    run = cli("tournament", "2000", "2000:1", "--as-of", "2008-06-30")
    assert run.code == 2
    assert "as_of" in run.err or "--as-of" in run.err
    assert "2008-07-01" in run.err


@pytest.mark.parametrize(
    ("day", "profile", "k"),
    [
        # [SAMARA]: before 1 July 2014 "K = 15 as long as a player's rating remains under 2400";
        # from that day 20; new players 30 (2011-2014), then 40; no junior line before 2014.
        ("2014-06-30", PlayerProfile(rated_games=100, highest_rating=2100), 15),
        ("2014-07-01", PlayerProfile(rated_games=100, highest_rating=2100), 20),
        ("2014-06-30", PlayerProfile(rated_games=10, highest_rating=2000), 30),
        ("2014-07-01", PlayerProfile(rated_games=10, highest_rating=2000), 40),
        ("2014-06-30", PlayerProfile(birth_year=2000, rated_games=100, highest_rating=2000), 15),
        ("2014-07-01", PlayerProfile(birth_year=2000, rated_games=100, highest_rating=2000), 40),
        # [PR]: K 25 for new players became 30 in 2011.
        ("2011-06-30", PlayerProfile(rated_games=10, highest_rating=2000), 25),
        ("2011-07-01", PlayerProfile(rated_games=10, highest_rating=2000), 30),
        ("2014-06-30", PlayerProfile(rated_games=100, highest_rating=2450), 10),
    ],
)
def test_k_on_both_sides_of_2011_and_2014(day: str, profile: PlayerProfile, k: int) -> None:
    on = dt.date.fromisoformat(day)
    assert fide_k_factor(D(2100), profile, rules=rules_in_force(on), day=on).k == k


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        # 2000 v 2420: the 350-point rule takes D as -350 (PD .11); the 400-point rule -400 (PD .08)
        # [CELO400].
        ("2009-06-30", "0.11"),
        ("2009-07-01", "0.08"),
    ],
)
def test_350_then_400_point_rule(day: str, expected: str) -> None:
    on = dt.date.fromisoformat(day)
    rules = fide_rule_set(rules_in_force(on), day=on)
    result = rate_tournament(D(2000), [Game(D(2420), D(0))], rules=rules, k=15)
    assert result.event.games[0].expected == D(expected)


def test_2009_initial_rating_adds_12_5_per_half_point() -> None:
    # [FIDE09]: "the value of 0.5 point in a new player's rating calculation will stay as 12.5".
    found = initial_rating([D(2000)] * 9, D(6), rules=FIDE_2009_07)
    # 6 of 9: 1.5 points over 50 %, three half points: 2000 + 3 x 12.5 = 2037.5, rounded 2038.
    assert found.rating == 2038
    below = initial_rating([D(2000)] * 9, D(4), rules=FIDE_2009_07)
    assert below.rating is None
    assert below.outcome is InitialOutcome.BELOW_HALF_NOT_READ
    unknown = initial_rating([D(2000)] * 9, D(6), rules=FIDE_2012_07)
    assert unknown.rating is None
    assert unknown.outcome is InitialOutcome.RULES_NOT_READ


def test_initial_rating_under_2009_rules_needs_nine_games() -> None:
    found = initial_rating([D(2000)] * 8, D(6), rules=FIDE_2009_07)
    assert found.rating is None
    assert found.outcome is InitialOutcome.TOO_FEW_GAMES
    assert "at least 9" in initial_reason(found, FIDE_2009_07, ENGLISH)


def test_a_2009_tournament_is_reported_under_the_2009_rules_with_no_warning() -> None:
    from chessrate.tournament.report import report_rule_set

    rules, warning = report_rule_set(None, day=dt.date(2009, 6, 3))
    assert warning is None
    assert rules.fide is FIDE_2008_07
    rules, warning = report_rule_set(None, day=dt.date(2013, 1, 5))
    assert (warning, rules.fide) == (None, FIDE_2012_07)
