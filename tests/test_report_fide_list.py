"""The report of FIDE's example TRF (2005) with a FIDE rating list made for it (issue 17).

The list gives K 40, 20 and 10 in turn to the file's players; every rated player's change must be
exactly K x (score - expected), the expected score summed from table 8.1.2 (FIDE B.02) over the
games against rated opponents, each difference counted as at most 350 (the oldest rules kept, those of
1 July 2008, have the 350-point rule).
"""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

import pytest

from chessrate.errors import InvalidInputError
from chessrate.formats import read_tournament
from chessrate.formats.fide_list_synthetic import SyntheticEntry, write_txt
from chessrate.systems.fide.tables import scoring_probability
from chessrate.tournament.report import (
    KSource,
    TournamentReport,
    players_list_for,
    report_rule_set,
    report_tournament,
)

DATA = Path(__file__).parent / "data"
EXAMPLE = DATA / "trf" / "fide-example.trf"
START = dt.date(2005, 7, 28)  # its 042 record: "28. 07. 2005"
K_CYCLE = (40, 20, 10)


def fide_list_for_example(
    *, rating_shift: dict[int, int] | None = None, list_only: dict[int, int] | None = None
) -> bytes:
    """A combined TXT list of the example's players: K 40, 20, 10 in turn, ratings as in the file."""
    read = read_tournament(EXAMPLE)
    entries = []
    for index, player in enumerate(p for p in read.tournament.players if p.fide_id):
        assert player.fide_id is not None
        rating = player.rating
        if rating is not None:
            rating += (rating_shift or {}).get(player.number, 0)
        k = K_CYCLE[index % 3]
        entries.append(
            SyntheticEntry(
                fide_id=player.fide_id,
                name=player.name,
                federation=player.federation or "GER",
                sex="M",
                lists={"standard": (rating, 0, k), "rapid": (None, 0, None), "blitz": (None, 0, None)},
                birth_year=1990,
            )
        )
    buffer = io.BytesIO()
    write_txt(buffer, entries)
    return buffer.getvalue()


def k_given_by_list() -> dict[int, int]:
    read = read_tournament(EXAMPLE)
    with_id = [p for p in read.tournament.players if p.fide_id]
    return {player.number: K_CYCLE[index % 3] for index, player in enumerate(with_id)}


def example_report(data: bytes) -> TournamentReport:
    read = read_tournament(EXAMPLE)
    rules, warning = report_rule_set(None, day=START)
    players_list = players_list_for(read, data, name="players_list_foa.txt")
    return report_tournament(
        read, rules=rules, as_of=START, players_list=players_list, notes=[warning] if warning else []
    )


def test_the_example_is_rated_under_the_oldest_rules_kept_with_a_warning() -> None:
    rules, warning = report_rule_set(None, day=START)
    assert rules.fide is not None
    assert rules.fide.name == "FIDE 2008-07-01"
    assert warning is not None
    assert warning.message == (
        "rules: the tournament is of 2005-07-28, before 2008-07-01, the oldest FIDE rules chessrate keeps; "
        "rated under FIDE 2008-07-01 (the rules of its day differ)"
    )
    # Coded, for the web and the API to say it in their language.
    assert (warning.code, dict(warning.params)) == (
        "rules-oldest-kept",
        {"day": "2005-07-28", "oldest": "2008-07-01", "list": "standard"},
    )
    assert report_rule_set(None, day=dt.date(2008, 7, 1))[1] is None
    assert report_rule_set("elo", day=START)[1] is None


def test_every_rated_player_uses_the_lists_k_and_changes_by_k_times_score_minus_expected() -> None:
    report = example_report(fide_list_for_example())
    ks = k_given_by_list()
    read = read_tournament(EXAMPLE)
    ratings = {p.number: p.rating for p in read.tournament.players}
    checked = set()
    for player in report.players:
        if player.rating is None or player.games == 0:
            continue
        assert player.k is not None
        assert (player.k.k, player.k_source) == (ks[player.start_number], KSource.FIDE_LIST)
        # Table 8.1.2, from the file's games: every game against a rated opponent, D capped at 350
        # (the oldest rules kept, of 2008, for a tournament of 2005).
        expected = Decimal(0)
        score = Decimal(0)
        for game in read.tournament.rated_games(player.start_number):
            opponent = ratings[game.opponent]
            if opponent is None:
                continue
            difference = max(-350, min(350, player.rating - opponent))
            expected += scoring_probability(difference)
            score += game.score
        assert (player.expected, player.score) == (expected, score)
        assert player.change == ks[player.start_number] * (score - expected)
        checked.add(ks[player.start_number])
    assert checked == {40, 20, 10}
    assert report.warnings[0].startswith("rules: the tournament is of 2005-07-28")


def test_the_list_fills_a_missing_rating_and_warns_where_the_file_differs() -> None:
    # Player 2 (Milov, 2482 in the file) with the rating cut out of the file: the list's 2482 is used.
    lines = EXAMPLE.read_bytes().split(b"\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(b"001    2 "))
    lines[at] = lines[at][:48] + b"    " + lines[at][52:]
    read = read_tournament(b"\n".join(lines))
    assert read.tournament.players[1].rating is None
    rules, _ = report_rule_set(None, day=START)
    players_list = players_list_for(
        read, fide_list_for_example(rating_shift={1: 7}), name="players_list_foa.txt"
    )
    report = report_tournament(read, rules=rules, as_of=START, players_list=players_list)
    first = report.players[0]
    assert (first.rating, first.rating_source) == (2558, "file")
    assert (
        "player 1 (Vasquez,Rodrigo, FIDE id 3400042): the file's rating 2558 differs from the "
        "FIDE standard list's 2565; the file's is used"
    ) in report.warnings
    milov = report.players[1]
    assert (milov.rating, milov.rating_source, milov.k_source) == (2482, "fide-list", KSource.FIDE_LIST)
    # ...and Milov's opponents count their games against him at 2482.
    opponent = read.tournament.rated_games(2)[0].opponent
    opponent_games = report.players[opponent - 1].rated_games
    assert any(g.opponent == 2 and g.opponent_rating == 2482 for g in opponent_games)


def test_k_file_wins_over_the_list_and_the_rules_say_profile_without_a_list() -> None:
    read = read_tournament(EXAMPLE)
    rules, _ = report_rule_set(None, day=START)
    players_list = players_list_for(read, fide_list_for_example(), name="players_list_foa.txt")
    report = report_tournament(
        read, rules=rules, as_of=START, players_list=players_list, k_by_player={"1": 15}
    )
    assert report.players[0].k is not None
    assert (report.players[0].k.k, report.players[0].k_source) == (15, KSource.K_FILE)
    plain = report_tournament(read, rules=rules, as_of=START)
    assert plain.players[0].k_source == KSource.PROFILE  # the TRF gives birth dates


def test_the_list_must_carry_the_list_type_asked() -> None:
    read = read_tournament(EXAMPLE)
    single = (DATA / "fide-list" / "standard_sep26frl.txt").read_bytes()
    with pytest.raises(InvalidInputError, match="FIDE's standard list, by its name"):
        players_list_for(read, single, name="standard_sep26frl.txt", list_type="rapid")
    found = players_list_for(read, single, name="standard_sep26frl.txt")
    assert (found.label, dict(found.players)) == ("FIDE standard list (SEP26)", {})
