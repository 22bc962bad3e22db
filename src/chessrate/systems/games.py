"""One game as the systems that rate a player's own games take it: the opponent's rating and the
player's score, each in the numbers of its system (DWZ and ECF: whole ratings; US Chess: any); and
the game as DWZ and the ECF rated it, with the difference and the expected score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

Rating = TypeVar("Rating")
Score = TypeVar("Score")


@dataclass(frozen=True)
class OpponentGame(Generic[Rating, Score]):
    """One game: the opponent's rating and the score (1, 0.5 or 0)."""

    opponent: Rating
    score: Score


@dataclass(frozen=True, kw_only=True)
class WorkedGame(Generic[Rating, Score]):
    """One game as rated: the difference (own rating minus the opponent's) and the expected score."""

    opponent: Rating
    difference: Rating
    expected: Score
    score: Score
