"""A real Lichess bullet session replays exactly with the gain factor 1.015, and not with 1.0.

The data: 38 consecutive games between the same two players (tests/data/SOURCES.md), each with
both players' published rating diffs (trunc(new) - trunc(old)). What the export does not give is
each player's stored rating (only its whole part), RD and volatility. The replay assumes both at
lila's RD floor of 45 (players with thousands of games, playing a game a minute; the volatility
only matters through the minutes between games) and looks for the fractional parts of the two
first ratings on a grid of twentieths.
"""

from __future__ import annotations

import csv
from pathlib import Path

from chessrate.systems.glicko.lichess import MIN_DEVIATION, LichessRating, after_idle, rate_game

SESSION = Path(__file__).parents[1] / "data" / "lichess" / "penguingim1-nyezhmetdinov0.csv"
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
GRID = [step / 20 for step in range(20)]


def _games() -> list[dict[str, str]]:
    with SESSION.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))[::-1]  # oldest first


def _seconds(clock: str) -> int:
    hours, minutes, seconds = (int(part) for part in clock.split(":"))
    return hours * 3600 + minutes * 60 + seconds


def _misses(games: list[dict[str, str]], fractions: dict[str, float], gain_factor: float) -> int:
    """Games whose published diffs the replay does not reproduce."""
    first = games[0]
    start = {first["white"]: int(first["white_elo"]), first["black"]: int(first["black_elo"])}
    players = {name: LichessRating(elo + fractions[name], MIN_DEVIATION, 0.06) for name, elo in start.items()}
    last_game: dict[str, int] = {}
    misses = 0
    for game in games:
        now = _seconds(game["utc_time"])
        white, black = game["white"], game["black"]
        before = {
            name: after_idle(players[name], (now - last_game[name]) / 86400)
            if name in last_game
            else players[name]
            for name in (white, black)
        }
        rated = rate_game(before[white], before[black], SCORES[game["result"]], gain_factor=gain_factor)
        published = (int(game["white_diff"]), int(game["black_diff"]))
        misses += (rated.white.rating_diff, rated.black.rating_diff) != published
        players[white], players[black] = rated.white.after, rated.black.after
        last_game[white] = last_game[black] = now
    return misses


def test_the_session_is_consistent() -> None:
    games = _games()
    assert len(games) == 38
    elo: dict[str, int] = {}
    for game in games:
        for side in ("white", "black"):
            name = game[side]
            if name in elo:
                assert int(game[f"{side}_elo"]) == elo[name]
            elo[name] = int(game[f"{side}_elo"]) + int(game[f"{side}_diff"])


def test_replays_exactly_with_gain_factor_1_015() -> None:
    games = _games()
    assert _misses(games, {"penguingim1": 0.95, "Nyezhmetdinov0": 0.2}, 1.015) == 0


def test_no_start_on_the_grid_replays_it_with_1_0() -> None:
    games = _games()
    best = min(_misses(games, {"penguingim1": a, "Nyezhmetdinov0": b}, 1.0) for a in GRID for b in GRID)
    assert best >= 9  # a point off in at least 9 of the 38 games, wherever the fractions start
