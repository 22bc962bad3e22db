"""Every worked example of the users' own documents, exactly ([CIABE], [ELO-CALC-ES], [ELO-GUIDE] in
docs/sources.md)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chessrate.systems.elo.calculate import Game, rate_game, rate_tournament
from chessrate.systems.elo.presets import PLAIN_ELO, ciabe_rule_set
from chessrate.systems.elo.ruleset import CapMode, fide_rule_set
from chessrate.systems.fide.k_factor import KFactor, apply_700_rule
from chessrate.systems.fide.regulations import rules_in_force

TODAY = dt.date(2026, 11, 29)
FIDE = fide_rule_set(rules_in_force(TODAY), day=TODAY)

D = Decimal


def test_ciabe_tournament() -> None:
    # 1800, 4.5 points against 1500..2000: We 0.85 0.76 0.64 0.5 0.36 0.24, sum 3.35, K 15,
    # 15 x (4.5 - 3.35) = 17.25, new rating 1817.
    opponents = [D(r) for r in (1500, 1600, 1700, 1800, 1900, 2000)]
    result = rate_tournament(D(1800), [Game(r) for r in opponents], rules=ciabe_rule_set(), points=D("4.5"))
    assert [g.expected for g in result.event.games] == [
        D(x) for x in (".85", ".76", ".64", ".50", ".36", ".24")
    ]
    assert [g.difference for g in result.event.games] == [300, 200, 100, 0, -100, -200]
    assert result.period.expected == D("3.35")
    assert result.period.k.k == 15
    assert result.period.change == D("17.25")
    assert result.period.new_rating == 1817


@pytest.mark.parametrize(
    ("rating", "k"),
    [(1579, 25), (1580, 20), (1699, 20), (1700, 15), (1824, 15), (1825, 10)],
    ids=lambda v: f"ciabe-band-{v}",
)
def test_ciabe_k_bands(rating: int, k: int) -> None:
    # "4ta: (<1580 K=25), 3era: (1580 < 1700 k=20), 2da: (1700<1825 k=15) y 1era: (>=1825 k=10)"
    assert ciabe_rule_set().k_for(D(rating), None).k == k


def test_guide_single_game_expected_score() -> None:
    # 1500 v 1700, K 20: E = 1 / (1 + 10^(200/400)) = 0.24
    result = rate_game(D(1500), D(1700), D("0.5"), rules=PLAIN_ELO, k=20)
    assert round(result.event.games[0].expected, 2) == D("0.24")
    assert result.period.change > 0  # a draw against a stronger player gains points


@pytest.mark.parametrize("rules", [PLAIN_ELO, FIDE], ids=["guide-formula", "guide-fide-table"])
def test_guide_three_games(rules: object) -> None:
    # K 20, 1500: win v 1400 (E 0.64, +7.2), draw v 1600 (E 0.36, +2.8), loss v 1550 (E 0.43, -8.6);
    # total +1.4, new rating 1501.
    games = [Game(D(1400), D(1)), Game(D(1600), D("0.5")), Game(D(1550), D(0))]
    result = rate_tournament(D(1500), games, rules=rules, k=20)  # type: ignore[arg-type]
    changes = [round(g.change or 0, 1) for g in result.event.games]
    assert changes == [D("7.2"), D("2.8"), D("-8.6")]
    assert [round(g.expected, 2) for g in result.event.games] == [D(".64"), D(".36"), D(".43")]
    assert round(result.period.change, 1) == D("1.4")
    assert result.period.new_rating == 1501


@pytest.mark.parametrize(
    ("k", "games", "reduced"),
    [(40, 20, 35), (20, 40, 17)],
    ids=["guide-700-rule-junior-20-games", "guide-700-rule-adult-40-games"],
)
def test_guide_700_rule(k: int, games: int, reduced: int) -> None:
    assert apply_700_rule(KFactor(k=k, code="k-given", article=""), games, max_k_times_games=700).k == reduced


@pytest.mark.parametrize(
    ("cap", "score", "change"),
    [
        (CapMode.OFF, "1", "1.1"),
        (CapMode.ON, "1", "1.8"),
        (CapMode.OFF, "0", "-18.9"),
        (CapMode.ON, "0", "-18.2"),
    ],
    ids=[
        "guide-400-win-uncapped",
        "guide-400-win-capped",
        "guide-400-loss-uncapped",
        "guide-400-loss-capped",
    ],
)
def test_guide_400_point_rule(cap: CapMode, score: str, change: str) -> None:
    # 1500 beats (or loses to) 1000 with K 20, by the formula: E 0.95 real, 0.91 capped.
    result = rate_game(D(1500), D(1000), D(score), rules=PLAIN_ELO.with_cap(cap), k=20)
    assert round(result.period.change, 1) == D(change)
    assert round(result.event.games[0].expected, 2) == (D("0.91") if cap is CapMode.ON else D("0.95"))


def test_guide_table_versus_formula_at_400() -> None:
    # "con una diferencia de 400, la tabla da 0,92 en lugar de 0,91"
    table = rate_game(D(2000), D(1600), D(1), rules=FIDE, k=20).event.games[0].expected
    formula = rate_game(D(2000), D(1600), D(1), rules=PLAIN_ELO, k=20).event.games[0].expected
    assert table == D("0.92")
    assert round(formula, 2) == D("0.91")


def test_elo_calc_multi_game_mode() -> None:
    # [ELO-CALC-ES]: "Ra + K·(puntos − G·E)" against the average opponent; with the [ELO-GUIDE] numbers for
    # one game (1500 v 1700, K 20): 4 games, 2 points -> 20 x (2 - 4 x 0.2403) = +20.78.
    from chessrate.systems.elo.calculate import rate_against_average

    result = rate_against_average(D(1500), games=4, points=D(2), average=D(1700), rules=PLAIN_ELO, k=20)
    assert round(result.expected_per_game, 2) == D("0.24")
    assert result.expected == 4 * result.expected_per_game
    assert round(result.change, 2) == D("20.78")
    assert result.new_rating == 1521
