"""FIDE rapid and blitz: their own chapter's versions, from its text ([FIDE-RR-RB-2024], [SCAC], [CE21])."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from chessrate.errors import InvalidInputError
from chessrate.formats import read_tournament
from chessrate.systems.elo.calculate import Game, rate_game, rate_tournament
from chessrate.systems.elo.ruleset import RuleSet, fide_rule_set
from chessrate.systems.fide.k_factor import PlayerProfile, fide_k_factor
from chessrate.systems.fide.regulations import (
    FIDE_2025_10,
    FIDE_RB_2022_01,
    FIDE_RB_2022_10,
    FIDE_RB_2024_03,
    FIDE_RB_2024_12,
    rules_in_force,
)
from chessrate.tournament.report import report_rule_set, report_tournament

D = Decimal


def _rules(day: dt.date, list_type: str = "rapid") -> RuleSet:
    return fide_rule_set(rules_in_force(day, list_type), day=day)


@pytest.mark.parametrize("list_type", ["rapid", "blitz"])
@pytest.mark.parametrize(
    ("day", "version"),
    [
        (dt.date(2022, 1, 1), FIDE_RB_2022_01),
        (dt.date(2022, 9, 30), FIDE_RB_2022_01),
        (dt.date(2022, 10, 1), FIDE_RB_2022_10),
        (dt.date(2024, 2, 29), FIDE_RB_2022_10),
        (dt.date(2024, 3, 1), FIDE_RB_2024_03),
        (dt.date(2024, 11, 30), FIDE_RB_2024_03),
        (dt.date(2024, 12, 1), FIDE_RB_2024_12),
        (dt.date(2026, 1, 1), FIDE_RB_2024_12),
    ],
)
def test_rapid_and_blitz_versions_on_both_sides_of_every_date(
    list_type: str, day: dt.date, version: object
) -> None:
    assert rules_in_force(day, list_type) is version


def test_rapid_before_2022_and_an_unknown_list_are_refused() -> None:
    with pytest.raises(InvalidInputError) as refused:
        rules_in_force(dt.date(2021, 12, 31), "rapid")
    assert refused.value.field == "as_of"
    with pytest.raises(InvalidInputError) as unknown:
        rules_in_force(dt.date(2025, 1, 1), "bullet")
    assert unknown.value.field == "list_type"


def test_k_20_for_everyone_before_1_october_2022() -> None:
    # [SCAC]: before 1 October 2022 "K=20 per tutti"; from then the standard K lines (a junior: 40).
    junior = PlayerProfile(birth_year=2008, rated_games=50, highest_rating=1900)
    established = PlayerProfile(birth_year=1980, rated_games=500, highest_rating=2500)
    day = dt.date(2022, 6, 1)
    assert fide_k_factor(D(1900), junior, rules=FIDE_RB_2022_01, day=day).k == 20
    assert fide_k_factor(D(2450), established, rules=FIDE_RB_2022_01, day=day).k == 20
    day = dt.date(2022, 11, 1)
    assert fide_k_factor(D(1900), junior, rules=FIDE_RB_2022_10, day=day).k == 40
    assert fide_k_factor(D(2450), established, rules=FIDE_RB_2022_10, day=day).k == 10


def test_700_rule_beyond_35_games_before_october_2022() -> None:
    # [SCAC]: "più di n=35 partite ... il K era il maggior numero intero tale che n * K < 700".
    rules = _rules(dt.date(2022, 6, 1))
    thirty_five = rate_tournament(D(1800), [Game(D(1800), D("0.5"))] * 35, rules=rules)
    thirty_six = rate_tournament(D(1800), [Game(D(1800), D("0.5"))] * 36, rules=rules)
    assert (thirty_five.period.k.k, thirty_six.period.k.k) == (20, 19)


def test_no_2650_exemption_in_rapid() -> None:
    # B02RB 8.3.1: "A difference in rating of more than 400 points shall be counted ... as 400"
    # for everyone; standard chess exempts 2650 and above from 1 October 2025.
    day = dt.date(2025, 11, 1)
    rapid = rate_game(D(2700), D(2200), D(1), rules=_rules(day), k=10).event.games[0]
    standard = rate_game(D(2700), D(2200), D(1), rules=fide_rule_set(FIDE_2025_10, day=day), k=10)
    assert (rapid.capped, rapid.expected, rapid.change) == (True, D(".92"), D(".8"))  # table 8.1.2: 392-411
    assert (standard.event.games[0].capped, standard.event.games[0].expected) == (False, D(".96"))


@pytest.mark.parametrize(
    ("own", "opponent", "rated"),
    [
        (2601, 2001, False),  # 600 apart, one player above 2600: "shall not be rated"
        (2001, 2601, False),  # whichever player is above 2600
        (2601, 2002, True),  # 599 apart
        (2600, 2000, True),  # 600 apart, nobody *above* 2600
        (2800, 1900, False),
    ],
)
def test_600_point_games_not_rated_from_1_december_2024(own: int, opponent: int, rated: bool) -> None:
    after = _rules(dt.date(2024, 12, 1), "blitz")
    if rated:
        assert rate_game(D(own), D(opponent), D(1), rules=after, k=20).event.games[0].change is not None
    else:
        with pytest.raises(InvalidInputError) as refused:
            rate_game(D(own), D(opponent), D(1), rules=after, k=20)
        assert refused.value.field == "opponent"
    # The day before, every such game is rated.
    assert rate_game(D(own), D(opponent), D(1), rules=_rules(dt.date(2024, 11, 30), "blitz"), k=20)


PGN = b"""[Event "Rapid"]
[Date "2025.11.01"]
[Round "1"]
[White "Alpha"]
[Black "Beta"]
[WhiteElo "2700"]
[BlackElo "2000"]
[Result "1-0"]

1. e4 1-0

[Event "Rapid"]
[Date "2025.11.01"]
[Round "2"]
[White "Alpha"]
[Black "Gamma"]
[WhiteElo "2700"]
[BlackElo "2200"]
[Result "1-0"]

1. d4 1-0
"""


def test_a_rapid_report_drops_the_600_point_game_and_says_so() -> None:
    day = dt.date(2025, 11, 1)
    rules, note = report_rule_set(None, day=day, list_type="rapid")
    assert (rules.fide, note) == (FIDE_RB_2024_12, None)
    report = report_tournament(read_tournament(PGN), rules=rules, as_of=day, k_for_everyone=10)
    alpha = next(player for player in report.players if player.name == "Alpha")
    # Only the game against the 2200 is rated, capped at 400 (PD .92): 10 x (1 - .92) = 0.8.
    assert (alpha.games, alpha.expected, alpha.change) == (1, D(".92"), D(".8"))
    assert any("is not rated" in warning and "2700 against 2000" in warning for warning in report.warnings)


def test_a_rapid_report_before_2022_uses_the_oldest_kept_with_a_warning() -> None:
    rules, note = report_rule_set(None, day=dt.date(2019, 5, 1), list_type="blitz")
    assert rules.fide is FIDE_RB_2022_01
    assert note is not None
    assert "the oldest FIDE rules chessrate keeps" in note.message
    assert dict(note.params) == {"day": "2019-05-01", "oldest": "2022-01-01", "list": "blitz"}


def test_the_list_type_chooses_the_rules_of_a_report(cli: Any, tmp_path: Path) -> None:
    # A 15+10 game of 1 November 2025, 2700 beats 2200: rapid caps the difference at 400
    # (PD .92, K 10: +0.8); the standard rules of that day would not (2650 exemption).
    path = tmp_path / "rapid.pgn"
    path.write_bytes(PGN.split(b"\n\n[Event")[0].replace(b"2000", b"2200") + b"\n")
    rapid = cli("report", str(path), "--list-type", "rapid", "--k", "10", "--format", "json")
    assert rapid.code == 0, rapid.err
    data = rapid.json()
    assert data["rules"].startswith("FIDE rapid and blitz 2024-12-01")
    assert (data["players"][0]["expected"], data["players"][0]["change"]) == (0.92, 0.8)
    standard = cli("report", str(path), "--k", "10", "--format", "json").json()
    assert standard["rules"].startswith("FIDE 2025-10-01")
    assert standard["players"][0]["expected"] == 0.96


def test_the_pages_name_the_rapid_and_blitz_rules() -> None:
    from chessrate.service.explanations import rule_set_title
    from chessrate.service.language import Translator
    from chessrate.web.i18n import load_catalogs

    rules = fide_rule_set(FIDE_RB_2024_12, day=dt.date(2025, 1, 1))
    spanish = rule_set_title(rules, Translator("es", load_catalogs()["es"]))
    assert spanish.startswith("Reglas FIDE de partidas rápidas y relámpago del ")
