"""The Chess.com-style preset: Glicko-1 from a start rating chosen by level (an estimate)."""

from __future__ import annotations

import pytest

from chessrate.errors import InvalidInputError
from chessrate.systems.glicko import chesscom
from chessrate.systems.glicko import glicko1 as glicko


def test_start_ratings_span_the_published_range() -> None:
    # support.chess.com: a beginner "probably started at 800 or 1000"; forum: "from 400 to 2000".
    assert chesscom.start_rating(chesscom.Level.BEGINNER).rating == 800
    assert min(chesscom.LEVELS.values()) == 400
    assert max(chesscom.LEVELS.values()) == 2000
    # Glickman, "The Glicko system", Step 1: an unrated player's RD is 350.
    assert chesscom.start_rating(chesscom.Level.NEW).deviation == 350


def test_glicko_1_underneath() -> None:
    # Glickman's example (1500/200 v 1400/30 W, 1550/100 L, 1700/300 L) -> 1464, RD 151.4.
    games = [glicko.GlickoGame(1400, 30, 1), glicko.GlickoGame(1550, 100, 0), glicko.GlickoGame(1700, 300, 0)]
    after = chesscom.rate_period(glicko.GlickoRating(1500, 200), games).after
    assert (round(after.rating), round(after.deviation, 1)) == (1464, 151.4)


def test_levels_parse_and_errors_name_the_field() -> None:
    assert chesscom.parse_level(" Advanced ") is chesscom.Level.ADVANCED
    with pytest.raises(InvalidInputError, match="level"):
        chesscom.parse_level("grandmaster")
