"""The points at stake: before a game, what a win, a draw and a loss would each do, to both players.

Each system rates the three outcomes by its own module; nothing here is new maths. In Elo the
opponent, with the same K, loses exactly what the player gains (K x (S - E) and
K x ((1 - S) - (1 - E)) are opposite; FIDE table 8.1.2's H and L columns add up to 1). DWZ, US
Chess and Glicko-2 are zero-sum only where their formulas make them so (same development
coefficient, same K, same RD).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from chessrate.systems.elo.calculate import rate_game
from chessrate.systems.elo.ruleset import RuleSet
from chessrate.systems.fide.k_factor import PlayerProfile

if TYPE_CHECKING:  # each system's module is imported where it rates: an Elo answer needs none
    from chessrate.systems.glicko import glicko2
    from chessrate.systems.uscf import rating as uscf

#: The player's score in each of the three outcomes of a game: a win, a draw, a loss (floats, as the
#: systems' arithmetic; :data:`chessrate.parse.SCORES` is the set of scores a result may have).
OUTCOME_SCORES = (1.0, 0.5, 0.0)


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """One outcome for both players: the change as computed and the rating it leads to."""

    score: float
    change: float
    """The player's change before any final rounding."""
    new_rating: float
    """The player's new rating as the system publishes it (whole for Elo, DWZ and US Chess)."""
    opponent_change: float
    opponent_new_rating: float


@dataclass(frozen=True, kw_only=True)
class Stakes:
    system: str
    rating: float
    opponent: float
    expected: float
    """The player's expected score in this game (the opponent's is 1 minus it)."""
    win: Outcome
    draw: Outcome
    loss: Outcome

    @property
    def outcomes(self) -> tuple[Outcome, Outcome, Outcome]:
        return (self.win, self.draw, self.loss)

    @property
    def zero_sum(self) -> bool:
        """True when, in every outcome, the opponent loses exactly what the player gains."""
        return all(abs(o.change + o.opponent_change) < 1e-9 for o in self.outcomes)


#: One player's side of one outcome: the change as computed and the rating it leads to.
Side = tuple[float, float]


def _stakes(
    system: str,
    rating: float,
    opponent: float,
    expected: float,
    one_game: Callable[[float], tuple[Side, Side]],
) -> Stakes:
    """The three outcomes, each rated by ``one_game(score)`` for the player and the opponent."""
    win, draw, loss = (
        Outcome(
            score=score,
            change=mine[0],
            new_rating=mine[1],
            opponent_change=theirs[0],
            opponent_new_rating=theirs[1],
        )
        for score in OUTCOME_SCORES
        for mine, theirs in [one_game(score)]
    )
    return Stakes(
        system=system, rating=rating, opponent=opponent, expected=expected, win=win, draw=draw, loss=loss
    )


def elo_stakes(
    rating: Decimal,
    opponent: Decimal,
    *,
    rules: RuleSet,
    k: int | None = None,
    opponent_k: int | None = None,
    profile: PlayerProfile | None = None,
    opponent_profile: PlayerProfile | None = None,
) -> Stakes:
    """Elo under a rule set (FIDE's table or the logistic formula). The opponent's K is
    ``opponent_k``; when only ``k`` is given, the opponent has the same K."""
    their_k = opponent_k if opponent_k is not None else k

    def one_game(score: float) -> tuple[Side, Side]:
        mine = rate_game(rating, opponent, Decimal(str(score)), rules=rules, k=k, profile=profile).period
        theirs = rate_game(
            opponent, rating, Decimal(str(1 - score)), rules=rules, k=their_k, profile=opponent_profile
        ).period
        return (float(mine.change), float(mine.new_rating)), (float(theirs.change), float(theirs.new_rating))

    expected = rate_game(rating, opponent, Decimal(0), rules=rules, k=k, profile=profile).period.expected
    return _stakes(rules.name, float(rating), float(opponent), float(expected), one_game)


def dwz_stakes(
    rating: int,
    opponent: int,
    *,
    age: int,
    index: int,
    opponent_age: int | None = None,
    opponent_index: int | None = None,
) -> Stakes:
    """DWZ for one game; the opponent's age and Index default to the player's."""
    from chessrate.systems.dwz import rating as dwz

    their_age = age if opponent_age is None else opponent_age
    their_index = index if opponent_index is None else opponent_index

    def one_game(score: float) -> tuple[Side, Side]:
        mine = dwz.rate(rating, [dwz.DwzGame(opponent, score)], age=age, index=index)
        theirs = dwz.rate(opponent, [dwz.DwzGame(rating, 1 - score)], age=their_age, index=their_index)
        return (mine.unrounded - rating, mine.new_rating), (theirs.unrounded - opponent, theirs.new_rating)

    return _stakes("dwz", rating, opponent, dwz.expected_score(rating - opponent), one_game)


def uscf_stakes(
    rating: float,
    opponent: float,
    *,
    games_played: int,
    opponent_games_played: int,
    event_end: dt.date,
    half_k: bool = False,
    effective: uscf.EffectiveGames | None = None,
) -> Stakes:
    """US Chess for a one-game event (no bonus: it needs 3 games); ``effective``: Glickman 2004's."""
    from chessrate.systems.uscf import rating as uscf

    effective = uscf.EffectiveGames.GLICKMAN_2004 if effective is None else effective

    def rated(player: float, other: float, score: float, played: int) -> Side:
        after = uscf.rate_event(
            player,
            [uscf.UscfGame(other, score)],
            games_played=played,
            event_end=event_end,
            half_k=half_k,
            effective=effective,
        )
        return after.new_rating - player, after.published

    def one_game(score: float) -> tuple[Side, Side]:
        return rated(rating, opponent, score, games_played), rated(
            opponent, rating, 1 - score, opponent_games_played
        )

    return _stakes("uscf", rating, opponent, uscf.winning_expectancy(rating, opponent), one_game)


def glicko2_stakes(
    player: glicko2.Glicko2Rating, opponent: glicko2.Glicko2Rating, *, tau: float | None = None
) -> Stakes:
    """Glicko-2 (the paper) for a rating period of this one game, for both players (tau: 0.5)."""
    from chessrate.systems.glicko import glicko2
    from chessrate.systems.glicko.glicko1 import GlickoGame

    tau = glicko2.DEFAULT_TAU if tau is None else tau

    def rated(one: glicko2.Glicko2Rating, other: glicko2.Glicko2Rating, score: float) -> Side:
        after = glicko2.rate_period(one, [GlickoGame(other.rating, other.deviation, score)], tau=tau).after
        return after.rating - one.rating, after.rating

    def one_game(score: float) -> tuple[Side, Side]:
        return rated(player, opponent, score), rated(opponent, player, 1 - score)

    expected = glicko2.expected_score(player.rating, opponent.rating, opponent.deviation)
    return _stakes("glicko2", player.rating, opponent.rating, expected, one_game)
