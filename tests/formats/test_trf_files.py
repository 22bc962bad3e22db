"""The TRF reader on the real files of tests/data/trf.

Expected counts were made from the files when they were copied (``tests/data/SOURCES.md``) or are
counted in the test straight from the file's text with a regular expression, independently of the
reader; single players and games were read by hand from the file text (the line is quoted beside
each case).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from chessrate.formats import Kind, read_trf

TRF = Path(__file__).parents[1] / "data" / "trf"


def read(name: str):  # type: ignore[no-untyped-def]
    result = read_trf(TRF / name)
    assert result.errors == (), [str(p) for p in result.errors]
    return result.tournament


def raw_cells(name: str) -> list[str]:
    """Every round cell of every 001 line, cut from the text at columns 92-99, 102-109... (§2.2)."""
    cells = []
    for line in re.split(r"\r\n|\r|\n", (TRF / name).read_text("ascii")):
        if line.startswith("001 "):
            body = line.rstrip()
            cells += [body[i : i + 8] for i in range(91, len(body), 10)]
    return cells


def played_in_text(name: str) -> int:
    """Cells ``NNNN c r`` with r in 1 = 0, counted from the text: each game appears twice."""
    return sum(bool(re.fullmatch(r" *\d+ [wb] [10=]", c)) for c in raw_cells(name)) // 2


# (file, players, rounds, planned rounds, TRF version) counted from the files (tests/data/SOURCES.md).
FILES = [
    ("fide-example.trf", 284, 7, None, "TRF16"),
    ("javafo-sample2.trf", 52, 5, 9, "TRF16"),  # 4 rounds played, round-5 byes pre-set; XXR 9
    ("swiss-9-rounds.trf", 16, 9, 9, "TRF16"),
    ("swiss-unplayed-rounds.trf", 15, 7, None, "TRF16"),
    ("example-trf26.trf", 249, 14, 14, "TRF26"),
]


@pytest.mark.parametrize(("name", "players", "rounds", "planned", "version"), FILES)
def test_players_rounds_version_data_readme(
    name: str, players: int, rounds: int, planned: int | None, version: str
) -> None:
    tournament = read(name)
    assert len(tournament.players) == players
    assert tournament.rounds == rounds
    assert tournament.planned_rounds == planned
    assert tournament.source_format == version


@pytest.mark.parametrize("name", [f[0] for f in FILES])
def test_played_games_match_the_text(name: str) -> None:
    tournament = read(name)
    assert len(tournament.played_games) == played_in_text(name)
    assert all(g.kind is Kind.PLAYED for g in tournament.played_games)


# Result codes of the round cells, counted from the files ("" is a blank cell).
CODES = [
    ("fide-example.trf", {"+": 11, "-": 11, "": 26}),
    ("javafo-sample2.trf", {"H": 16, "Z": 6, "U": 3, "+": 4, "-": 4}),
    ("swiss-9-rounds.trf", {"H": 2, "U": 3, "Z": 3, "+": 2, "-": 2}),
    ("swiss-unplayed-rounds.trf", {"F": 2, "H": 6, "U": 4, "Z": 5, "+": 6, "-": 10}),
    ("example-trf26.trf", {"-": 1328, "+": 98}),  # "0000 - -" and "0000 - +" cells
]


@pytest.mark.parametrize(("name", "expected"), CODES)
def test_forfeit_and_bye_counts_data_readme(name: str, expected: dict[str, int]) -> None:
    tournament = read(name)
    counts = Counter(cell.code for cell in tournament.cells())
    # A round after the end of a player's line is blank too, without a cell (trf_games.Lineup.rounds).
    counts[""] += sum(tournament.rounds - len(player.cells) for player in tournament.players)
    for code, count in expected.items():
        assert counts[code] == count, code


@pytest.mark.parametrize(("name", "expected"), CODES)
def test_byes_and_forfeits_are_kept_and_not_rated(name: str, expected: dict[str, int]) -> None:
    tournament = read(name)
    for cell in tournament.cells():
        if cell.code in ("H", "F", "U", "Z", "+", "-", ""):
            assert not cell.counts_for_rating
            assert cell.kind in (Kind.BYE, Kind.FORFEIT, Kind.NOT_PAIRED)
    for game in tournament.games:
        assert game.counts_for_rating == (game.kind is Kind.PLAYED)


def test_fide_example_header_data_readme() -> None:
    t = read("fide-example.trf")
    assert t.name == "9. Karl-Mala-Gedenkturnier"
    assert t.place == "Frankfurt (Main) /GER"
    assert t.start_date == dt.date(2005, 7, 28)  # "28. 07. 2005"
    assert t.end_date == dt.date(2005, 7, 31)
    assert t.declared_players == 284
    assert t.declared_rated_players == 146
    assert t.deputy_arbiters == ("NSR Thomas Rondio, NSR Wolfgang Hettler",)
    assert sum(p.rating is not None for p in t.players) == 146
    assert sum(p.fide_id is not None for p in t.players) == 146
    assert sum(p.federation is None for p in t.players) == 276
    assert {p.title for p in t.players} == {None, "GM", "IM", "FM", "WFM"}  # g/m/f/wf


def test_fide_example_player_1_by_hand() -> None:
    # "001    1    g Vasquez,Rodrigo ... 2558 CHI     3400042 1969.12.06  6.0    4   141 w 1 ..."
    t = read("fide-example.trf")
    p = t.player(1)
    assert (p.name, p.title, p.rating, p.federation, p.fide_id) == (
        "Vasquez,Rodrigo", "GM", 2558, "CHI", 3400042,
    )  # fmt: skip
    assert p.birth_date == dt.date(1969, 12, 6)
    assert (p.points, p.rank) == (Decimal("6.0"), 4)
    games = t.rated_games(1)
    # Opponents 141 78 42 21 16 25 31 rated 1895 2079 2149 2302 2346 2251 2219 (their 001 lines).
    assert [(g.round, g.opponent, g.opponent_rating, g.colour, g.score) for g in games] == [
        (1, 141, 1895, "w", 1), (2, 78, 2079, "b", 1), (3, 42, 2149, "w", 1),
        (4, 21, 2302, "b", 1), (5, 16, 2346, "w", 1), (6, 25, 2251, "b", Decimal("0.5")),
        (7, 31, 2219, "w", Decimal("0.5")),
    ]  # fmt: skip
    assert all(g.own_rating == 2558 and g.opponent_rated for g in games)


def test_fide_example_unrated_opponent_is_marked() -> None:
    # "001   11      Sopur,Lech ... 2395 POL ...   151 w 0" and 151 Yilmaz,Ahmet has a blank rating.
    t = read("fide-example.trf")
    first = t.rated_games(11)[0]
    assert (first.opponent, first.opponent_rating, first.score) == (151, None, 0)
    assert not first.opponent_rated
    assert t.player(151).rating is None
    assert t.player(151).fide_id is None


def test_fide_example_forfeit_with_dash_colour() -> None:
    # "001   13 ... Bakhmatov,Eduard ... 0.0 ...   153 - -" and "001  153 ...    13 - +"
    t = read("fide-example.trf")
    (game,) = list(t.games_of(13))
    assert game.kind is Kind.FORFEIT
    assert not game.counts_for_rating
    assert not game.colours_known
    assert {game.white, game.black} == {13, 153}
    assert t.rated_games(13) == ()
    # Withdrawn after round 1: the line ends there, the later rounds are blank (no cell is made).
    assert [cell.round for cell in t.player(13).cells] == [1]


def test_fide_example_forfeit_win_without_opponent() -> None:
    # "001  282 ... Schirrmacher,Nils ... 1.0 ...  0000 - +" in round 5
    cell = read("fide-example.trf").player(282).cells[4]
    assert (cell.opponent, cell.code, cell.kind, cell.points) == (None, "+", Kind.FORFEIT, 1)


def test_javafo_sample_by_hand() -> None:
    t = read("javafo-sample2.trf")
    assert t.start_date == dt.date(2010, 9, 24)  # "24/09/2010"
    assert t.federation == "ESP"
    # "001    6 m    Gorrochategui Torres, Eugenio        0 ESP           0 1950        3.5"
    p6 = t.player(6)
    assert (p6.name, p6.rating, p6.fide_id, p6.birth_year, p6.birth_date) == (
        "Gorrochategui Torres, Eugenio", None, None, 1950, None,
    )  # fmt: skip
    # Rating 0 for 11 players, 10 of them with a FIDE ID (data README).
    unrated = [p for p in t.players if p.rating is None]
    assert len(unrated) == 11
    assert sum(p.fide_id is not None for p in unrated) == 10
    # "001   28 ... Moreno Romero Ernesto ... 0.0   52  0000 - Z  0000 - Z ..." (all Z)
    assert [c.code for c in t.player(28).cells] == ["Z"] * 5
    assert t.player(28).points == 0
    # "001   43 ... Gallas Gautier ... 1.0 ...  0000 - H" (a pre-set round-5 bye counts in points)
    assert t.player(43).cells[4].code == "H"
    played_rounds = {g.round for g in t.games}
    assert played_rounds == {1, 2, 3, 4}


def test_swiss_9_rounds_by_hand() -> None:
    t = read("swiss-9-rounds.trf")
    assert t.start_date == dt.date(2024, 8, 1)  # "042 2024-08-01"
    assert all(p.fide_id is None for p in t.players)  # every FIDE ID is 0
    # "001    4 m    David ... 12 b 1     0 - H" (opponent written as 0)
    cell = t.player(4).cells[1]
    assert (cell.opponent, cell.code, cell.kind, cell.points) == (
        None,
        "H",
        Kind.BYE,
        Decimal("0.5"),
    )
    # "001    9 ... Jessica ...  11 b -" and "001   11 ... Maria ...  9 w +" in round 4
    (game,) = [g for g in t.games_of(9) if g.round == 4]
    assert (game.white, game.black, game.code, game.kind) == (11, 9, "+", Kind.FORFEIT)


def test_swiss_unplayed_rounds_by_hand() -> None:
    t = read("swiss-unplayed-rounds.trf")
    assert t.declared_players == 15  # "062 15 (12)"
    # "001    1 mFM  Player, 1 ...": sex glued to the title
    assert (t.player(1).sex, t.player(1).title) == ("m", "FM")
    assert t.player(5).birth_year is None  # blank birth date
    assert t.player(6).rating is None  # "0000"
    assert sum(p.rating is not None for p in t.players) == 8
    # Double forfeits: "001    4 ...    11 w -    13 w -", "001   11 ...     4 b -",
    # "001   13 ...     5 w 0     4 b -"
    double = [g for g in t.games if g.code == "-" and g.black_score == 0]
    assert sorted((g.round, g.white, g.black) for g in double) == [(1, 4, 11), (2, 4, 13)]
    # "001   12 ... 4.0 ... 0000 - H  0000 - F    14 b 1  0000 - H  0000 - Z  0000 - F  0000 - Z"
    assert [c.code for c in t.player(12).cells] == ["H", "F", "1", "H", "Z", "F", "Z"]
    assert sum(c.points for c in t.player(12).cells) == t.player(12).points == 4


def test_trf26_sample_by_hand() -> None:
    t = read("example-trf26.trf")
    assert t.name == "Grandmommy's Cup"
    assert t.deputy_arbiters == (
        "The first Deputy Chief Arbiter",
        "The second Deputy Chief Arbiter",
    )
    # "132 ... 24/01/01  24/01/02 ... 24/01/06  24/01/06 ..." (YY/MM/DD under the round columns)
    assert t.round_dates[:2] == (dt.date(2024, 1, 1), dt.date(2024, 1, 2))
    assert t.round_dates[5] == t.round_dates[6] == dt.date(2024, 1, 6)
    # "001    1      Test0001 Player0001               2586 IND 70123454321 1987/00/00  8.0   12"
    p = t.player(1)
    assert (p.rating, p.fide_id, p.birth_year, p.birth_date) == (2586, 70123454321, 1987, None)
    first = t.rated_games(1)[0]  # "51 b ="
    assert (first.opponent, first.colour, first.score, first.date) == (
        51, "b", Decimal("0.5"), dt.date(2024, 1, 1),
    )  # fmt: skip


@pytest.mark.parametrize("name", [f[0] for f in FILES])
def test_every_game_is_seen_from_both_sides(name: str) -> None:
    tournament = read(name)
    for game in tournament.games:
        white = tournament.player(game.white).cells[game.round - 1]  # type: ignore[operator]
        black = tournament.player(game.black).cells[game.round - 1]  # type: ignore[operator]
        assert (white.opponent, black.opponent) == (game.black, game.white)
