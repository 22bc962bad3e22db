"""FIDE's own outputs: the online calculator vectors F-C01..F-C24 [FIDE-CALC].

The calculator (recorded 2026-10-09) still caps every player at 400; the amended B.02 8.3.1
(from 1 October 2025) exempts players rated 2650 and above. Each vector is checked under the rules
in force the day before and on the day of the amendment.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chessrate.systems.elo.calculate import rate_game
from chessrate.systems.elo.ruleset import fide_rule_set
from chessrate.systems.fide.regulations import rules_in_force

BEFORE = dt.date(2025, 9, 30)
AFTER = dt.date(2025, 10, 1)

# id, own, opponent, score, K, FIDE calculator (cap for all), 2025 rule
VECTORS = [
    ("F-C01", 2000, 2000, "1", 10, "5", "5"),
    ("F-C02", 2003, 2000, "1", 10, "5", "5"),
    ("F-C03", 2004, 2000, "1", 10, "4.9", "4.9"),
    ("F-C04", 2010, 2000, "1", 10, "4.9", "4.9"),
    ("F-C05", 2011, 2000, "1", 10, "4.8", "4.8"),
    ("F-C06", 2206, 2000, "1", 10, "2.4", "2.4"),
    ("F-C07", 2207, 2000, "1", 10, "2.3", "2.3"),
    ("F-C08", 2391, 2000, "1", 10, "0.9", "0.9"),
    ("F-C09", 2392, 2000, "1", 10, "0.8", "0.8"),
    ("F-C10", 2000, 2003, "0", 10, "-5", "-5"),
    ("F-C11", 2000, 2004, "0", 10, "-4.9", "-4.9"),
    ("F-C12", 1656, 2000, "0", 10, "-1.2", "-1.2"),
    ("F-C13", 1655, 2000, "0", 10, "-1.1", "-1.1"),
    ("F-C14", 2600, 2100, "1", 10, "0.8", "0.8"),
    ("F-C15", 2649, 2149, "1", 10, "0.8", "0.8"),
    ("F-C16", 2650, 2150, "1", 10, "0.8", "0.4"),
    ("F-C17", 2700, 2200, "1", 10, "0.8", "0.4"),
    ("F-C18", 2200, 2700, "0", 20, "-1.6", "-1.6"),
    ("F-C19", 2100, 2600, "0", 20, "-1.6", "-1.6"),
    ("F-C20", 2700, 1964, "1", 10, "0.8", "0.0"),
    ("F-C21", 2700, 1900, "0", 10, "-9.2", "-10.0"),
    ("F-C22", 1500, 2000, "0.5", 20, "8.4", "8.4"),
    ("F-C23", 2092, 2000, "1", 15, "5.55", "5.55"),
    ("F-C24", 2000, 2092, "0.5", 30, "3.9", "3.9"),
]


def _change(own: int, opponent: int, score: str, k: int, day: dt.date) -> Decimal:
    rules = fide_rule_set(rules_in_force(day), day=day)
    result = rate_game(Decimal(own), Decimal(opponent), Decimal(score), rules=rules, k=k)
    return result.period.change


@pytest.mark.parametrize(
    ("own", "opponent", "score", "k", "calculator", "rule_2025"),
    [case[1:] for case in VECTORS],
    ids=[f"{case[0]}-before-2025-10-01" for case in VECTORS],
)
def test_fide_calculator_before_the_2650_amendment(
    own: int, opponent: int, score: str, k: int, calculator: str, rule_2025: str
) -> None:
    assert _change(own, opponent, score, k, BEFORE) == Decimal(calculator)


@pytest.mark.parametrize(
    ("own", "opponent", "score", "k", "calculator", "rule_2025"),
    [case[1:] for case in VECTORS],
    ids=[f"{case[0]}-from-2025-10-01" for case in VECTORS],
)
def test_fide_calculator_under_the_2650_amendment(
    own: int, opponent: int, score: str, k: int, calculator: str, rule_2025: str
) -> None:
    assert _change(own, opponent, score, k, AFTER) == Decimal(rule_2025)


def test_whose_rating_decides_the_exemption() -> None:
    # [FIDE-CALC] F-P01/F-P02: in one game, 2813 uses the full gap (D 413, PD .93) while his 2400-rated
    # opponent is capped at 400.
    rules = fide_rule_set(rules_in_force(AFTER), day=AFTER)
    strong = rate_game(Decimal(2813), Decimal(2400), Decimal(1), rules=rules, k=10).event.games[0]
    weak = rate_game(Decimal(2400), Decimal(2813), Decimal(0), rules=rules, k=10).event.games[0]
    assert (strong.difference, strong.capped, strong.expected) == (413, False, Decimal(".93"))
    assert (weak.difference, weak.capped, weak.expected) == (-400, True, Decimal(".08"))


@pytest.mark.parametrize(
    ("own", "opponent", "difference", "pd"),
    [(2000, 2420, -400, ".08"), (2000, 1550, 400, ".92")],
    ids=["CELO400-2000-v-2420", "CELO400-2000-v-1550"],
)
def test_400_point_rule_examples(own: int, opponent: int, difference: int, pd: str) -> None:
    # [CELO400]
    rules = fide_rule_set(rules_in_force(BEFORE), day=BEFORE)
    game = rate_game(Decimal(own), Decimal(opponent), Decimal(1), rules=rules, k=20).event.games[0]
    assert (game.difference, game.capped, game.expected) == (difference, True, Decimal(pd))
