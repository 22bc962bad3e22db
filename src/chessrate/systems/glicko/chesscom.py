"""A Chess.com-style Glicko preset: Glicko-1 with a start rating chosen by the level picked at sign-up.

This is an ESTIMATE. Chess.com [CHESSCOM-HELP] says it uses "the Glicko rating system", with a
rating deviation (support.chess.com, "How do ratings work on Chess.com?"), and that a beginner's
rating "probably started at 800 or 1000, depending on what you selected for your experience level when you
created your account" (support.chess.com, "What is the number next to my name?"). A Chess.com
forum post [CHESSCOM-FORUM] ("800 starting level") says the self-assessment gives "a wider variety of starting
ratings -- from 400 to 2000"; older accounts all started at 1200 (forum, "Glicko system").

Not published: the exact level-to-rating table, whether live chess uses Glicko-1 or Glicko-2,
the starting and minimum RD, c and the rating period. chessrate's choices, each an option:

- Glicko-1 (:mod:`chessrate.systems.glicko.glicko1`), one rating period per call;
- the start ratings of :data:`LEVELS`, 400 points apart across the forum's 400 to 2000, with the
  official 800 for a beginner (the official text also allows 1000);
- a new player's RD of 350, Glickman's value for an unrated player ("The Glicko system", Step 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from chessrate.parse import parse_choice
from chessrate.systems.glicko import glicko1 as glicko


class Level(StrEnum):
    """The experience level a player picks when creating a Chess.com account."""

    NEW = "new"
    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"


#: chessrate's choice (see the module text): 400 to 2000 in steps of 400, beginner 800.
LEVELS: dict[Level, float] = {
    Level.NEW: 400.0,
    Level.BEGINNER: 800.0,
    Level.INTERMEDIATE: 1200.0,
    Level.ADVANCED: 1600.0,
    Level.EXPERT: 2000.0,
}
#: Glickman, "The Glicko system", Step 1: an unrated player's RD is 350.
START_DEVIATION = glicko.UNRATED_DEVIATION


def parse_level(text: str) -> Level:
    return parse_choice(Level, text, field="level")


def start_rating(level: Level) -> glicko.GlickoRating:
    """A new account's rating and RD for the level picked at sign-up (an estimate)."""
    return glicko.GlickoRating(LEVELS[level], START_DEVIATION)


def rate_period(player: glicko.GlickoRating, games: Sequence[glicko.GlickoGame]) -> glicko.GlickoResult:
    """One rating period by Glicko-1 (no Step 1 growth: Chess.com's c is not published)."""
    return glicko.rate_period(player, games)
