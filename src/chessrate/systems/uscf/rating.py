"""US Chess ratings (Glickman's system), as far as the published texts allow.

Sources ([USCF-RS], [USCF-APPROX], [USCF-B], [USCF-2013] in docs/sources.md):
- Glickman, "The US Chess Rating System" (math.bu.edu/people/mg/uscf/rs/, 2004-09-22):
  node3 (effective number of games, with the worked value N* = 26.7 at R = 1700) and node5
  (standard formula, K, its table of full-K and half-K values, the bonus).
- Glickman, "Approximating Formulas for the US Chess Rating System" (June 2015; April 2017):
  the special formula for players with 8 or fewer games, with its worked case 1500 -> 1511.
- US Chess news on the bonus threshold B: "Bonus Threshold To Increase June 1, 2015" (10 -> 12 for
  events ending on or after 1 June 2015); "US Chess Rating Bonus Formula Change" (12 -> 14 for
  tournaments ending on 1 May or later; the page gives no year, 2017 is inferred); "Change to US
  Chess Ratings: Bonus Threshold Lowered" (October 2023: 14 -> 12 for events ending on or after
  1 February 2023); the US Chess forum thread "2025 Rerate with Lowered Bonus Threshold" (June
  2025: 12 -> 10, all 2025 events).

What is exact and what is not:
- The special formula here is the *approximating* one: the real system solves a harder equation
  that the approximation can miss (the 2017 text says so). The standard formula is the real one.
- A newer effective-games formula, 50 / sqrt(0.662 + 0.00000739 (2569 - R)^2) below 2355, is used
  by implementations (the skillratings library) but was not found in a US Chess or Glickman
  text: it is UNCONFIRMED and only used when asked for (:attr:`EffectiveGames.UNCONFIRMED_NEWER`).
- Node5 uses the standard formula only for players who have not had all wins or all losses in
  every previous game; such players are not singled out here.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from chessrate.errors import InvalidInputError
from chessrate.parse import check_rating, check_score
from chessrate.systems.games import OpponentGame
from chessrate.systems.rounding import round_half_away_from_zero

#: node3: N* = 50 / sqrt(1 + (2200 - R)^2 / 100000) for R <= 2200, else 50.
MAX_EFFECTIVE_GAMES = 50.0
#: Approximating Formulas: "based on 8 or fewer games" -> the special formula.
SPECIAL_FORMULA_MAX_GAMES = 8
#: Approximating Formulas: established "if having played more than 25" games.
ESTABLISHED_AFTER = 25
#: node5: K = 800 / (N' + m); the special formula's 400 per win minus loss.
K_NUMERATOR = 800.0
SPECIAL_POINTS = 400.0
#: node5: a bonus needs at least 3 games, and uses sqrt(max(m, 4)).
BONUS_MIN_GAMES, BONUS_MIN_ROOT = 3, 4
#: The absolute rating floor: no US Chess rating is below 100 (US Chess forum, "Ratings floor
#: question", uschess.discourse.group/t/ratings-floor-question/8761). The per-event increment for
#: low-rated players and the peak-based floors of the same thread are not modelled.
ABSOLUTE_FLOOR = 100.0
#: A US Chess rating accepted: from the absolute floor up to 3500, chessrate's sanity bound above
#: any rating US Chess publishes (docs/systems.md, "Rating bounds").
MIN_RATING, MAX_RATING = 100, 3500


class EffectiveGames(StrEnum):
    """Which formula gives N*, the effective number of games."""

    GLICKMAN_2004 = "2004"  # node3, with its worked example
    UNCONFIRMED_NEWER = "newer"  # in implementations only; not found in a published text


@dataclass(frozen=True, kw_only=True)
class BonusThreshold:
    """B of the bonus, in force for events ending from ``since``."""

    b: int
    since: dt.date | None
    source: str


#: B by the end date of the event, each range with its source (docs/systems.md, "US Chess: the bonus
#: threshold B"). Before Glickman's text of 2004 no source read says what B was: 10 is kept for every
#: earlier event too, and said so in its source; ``bonus_b`` gives another B.
BONUS_THRESHOLDS: tuple[BonusThreshold, ...] = (
    BonusThreshold(
        b=10,
        since=None,
        source="Glickman, 'The US Chess Rating System' (2004), node5: B = 10; US Chess news 'Bonus Threshold "
        "To Increase June 1, 2015': 'from the current level of B=10' [USCF-B15]; before the 2004 text no "
        "source read gives B: 10 is kept",
    ),
    BonusThreshold(
        b=12,
        since=dt.date(2015, 6, 1),
        source="US Chess news 'Bonus Threshold To Increase June 1, 2015': B=12 from B=10 'for events "
        "ending on or after that date' [USCF-B15]",
    ),
    BonusThreshold(
        b=14,
        since=dt.date(2017, 5, 1),
        source="US Chess news, 'US Chess Rating Bonus Formula Change': 12 -> 14 "
        "for tournaments ending on May 1 (year inferred: 2017) or later",
    ),
    BonusThreshold(
        b=12,
        since=dt.date(2023, 2, 1),
        source="US Chess news, 'Change to US Chess Ratings: Bonus Threshold Lowered' (Oct 2023): 14 -> 12 "
        "for tournaments that ended on or after February 1, 2023",
    ),
    BonusThreshold(
        b=10,
        since=dt.date(2025, 1, 1),
        source="US Chess forum, '2025 Rerate with Lowered Bonus Threshold' (June 2025): 12 -> 10 "
        "for all events of 2025",
    ),
)


def check_event_end(event_end: dt.date, *, today: dt.date) -> dt.date:
    """An event that has ended: a day after ``today`` is refused, its B (and its rating) not yet known."""
    if event_end > today:
        raise InvalidInputError(
            "event_end",
            event_end.isoformat(),
            f"the event ends after today ({today.isoformat()}): a US Chess event is rated once it has ended",
            code="uscf-future-event",
            params={"today": today.isoformat()},
        )
    return event_end


def bonus_threshold(event_end: dt.date) -> BonusThreshold:
    """The B in force for an event that ended on ``event_end``."""
    chosen = BONUS_THRESHOLDS[0]
    for threshold in BONUS_THRESHOLDS[1:]:
        if threshold.since is not None and event_end >= threshold.since:
            chosen = threshold
    return chosen


def effective_games_star(rating: float, formula: EffectiveGames = EffectiveGames.GLICKMAN_2004) -> float:
    """N*: node3 (2004), or the UNCONFIRMED newer formula."""
    r = _check_rating("rating", rating)
    if formula is EffectiveGames.UNCONFIRMED_NEWER:
        if r >= 2355:
            return MAX_EFFECTIVE_GAMES
        return MAX_EFFECTIVE_GAMES / math.sqrt(0.662 + 0.00000739 * (2569.0 - r) * (2569.0 - r))
    if r > 2200:
        return MAX_EFFECTIVE_GAMES
    return MAX_EFFECTIVE_GAMES / math.sqrt(1.0 + (2200.0 - r) ** 2 / 100000.0)


def effective_games(
    rating: float, games_played: int, formula: EffectiveGames = EffectiveGames.GLICKMAN_2004
) -> float:
    """N' = the smaller of N (games played so far) and N* (node3)."""
    return min(float(_check_games_played(games_played)), effective_games_star(rating, formula))


def k_factor(effective: float, games: int, *, half_k: bool = False) -> float:
    """node5: K = 800 / (N' + m); in a half-K event, half of 800 / (N' + m/2).

    The half-K formula is the one that gives node5's table (N' 6, m 4: 80 and 50).
    """
    if not math.isfinite(effective) or effective < 0:
        raise InvalidInputError(
            "effective games", effective, "a number of games, 0 or more", code="games-count"
        )
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidInputError("games", games, "at least one game", code="games-none")
    if half_k:
        return K_NUMERATOR / 2.0 / (effective + games / 2.0)
    return K_NUMERATOR / (effective + games)


def winning_expectancy(rating: float, opponent: float) -> float:
    """node5's standard winning expectancy: 1 / (1 + 10^(-(R - R_i) / 400))."""
    return 1.0 / (1.0 + math.pow(10.0, -(rating - opponent) / 400.0))


class Formula(StrEnum):
    """Which rating formula rated the event (Glickman's node5; the Approximating Formulas)."""

    SPECIAL = "special"  # 8 or fewer games before the event, or unrated: the approximating special formula
    STANDARD = "standard"  # more than 8 games: R + K (S - E) + bonus (node5)


#: One US Chess game: the opponent's rating and the score (1, 0.5 or 0).
UscfGame = OpponentGame[float, float]


@dataclass(frozen=True, kw_only=True)
class UscfGameWorking:
    opponent: float
    score: float
    expected: float | None
    """node5's winning expectancy (standard formula only)."""


@dataclass(frozen=True, kw_only=True)
class UscfResult:
    """One event with its working."""

    rating: float | None
    """The pre-event rating; None for an unrated player."""
    games_played: int
    formula: Formula
    games: tuple[UscfGameWorking, ...]
    points: float
    expected: float | None
    effective_games: float | None
    k: float | None
    half_k: bool
    bonus_threshold: BonusThreshold | None
    bonus_allowed: bool
    bonus: float
    new_rating: float
    """As US Chess keeps it: a real number, at least :data:`ABSOLUTE_FLOOR`."""
    unfloored_rating: float | None = None
    """The formula's rating when it fell below the absolute floor and was raised to it; else None."""

    @property
    def published(self) -> int:
        """The rating as published: rounded to the nearest whole number."""
        return round_half_away_from_zero(self.new_rating)

    @property
    def change(self) -> float | None:
        return None if self.rating is None else self.new_rating - self.rating

    @property
    def established(self) -> bool:
        return self.games_played + len(self.games) > ESTABLISHED_AFTER


def rate_event(
    rating: float | None,
    games: Sequence[UscfGame],
    *,
    games_played: int,
    event_end: dt.date,
    half_k: bool = False,
    effective: EffectiveGames = EffectiveGames.GLICKMAN_2004,
    repeated_opponent: bool = False,
    bonus_b: int | None = None,
) -> UscfResult:
    """Rate one event for a player with ``games_played`` games before it (0 and None: unrated).

    ``repeated_opponent``: some opponent was met more than twice, which rules out the bonus
    (node5). ``bonus_b`` overrides the dated B.
    """
    _check_games_played(games_played)
    if rating is None:
        if games_played:
            raise rated_with_games(games_played)
    else:
        _check_rating("rating", rating)
        if not games_played:
            raise games_played_needed(games_played)
    if not games:
        raise InvalidInputError("games", "", "an event needs at least one game", code="event-no-games")
    for number, game in enumerate(games, start=1):
        _check_rating(f"game {number} opponent", game.opponent)
        check_score(f"game {number} result", game.score)
    if bonus_b is not None and (isinstance(bonus_b, bool) or not isinstance(bonus_b, int) or bonus_b < 0):
        raise InvalidInputError(
            "bonus threshold", bonus_b, "a whole number, 0 or more", code="whole-not-negative"
        )
    points = math.fsum(float(game.score) for game in games)
    m = len(games)
    if rating is None or games_played <= SPECIAL_FORMULA_MAX_GAMES:
        return _floored(_special(rating, games, games_played=games_played, points=points, half_k=half_k))
    n_eff = effective_games(rating, games_played, effective)
    k = k_factor(n_eff, m, half_k=half_k)
    worked = tuple(
        UscfGameWorking(
            opponent=g.opponent, score=float(g.score), expected=winning_expectancy(rating, g.opponent)
        )
        for g in games
    )
    expected = math.fsum(g.expected or 0.0 for g in worked)
    threshold = bonus_threshold(event_end)
    if bonus_b is not None:
        threshold = BonusThreshold(b=bonus_b, since=None, source="given by the user")
    allowed = m >= BONUS_MIN_GAMES and not repeated_opponent
    base = k * (points - expected)
    bonus = max(0.0, base - threshold.b * math.sqrt(max(m, BONUS_MIN_ROOT))) if allowed else 0.0
    return _floored(
        UscfResult(
            rating=rating,
            games_played=games_played,
            formula=Formula.STANDARD,
            games=worked,
            points=points,
            expected=expected,
            effective_games=n_eff,
            k=k,
            half_k=half_k,
            bonus_threshold=threshold,
            bonus_allowed=allowed,
            bonus=bonus,
            new_rating=rating + base + bonus,
        )
    )


def _floored(result: UscfResult) -> UscfResult:
    """The result raised to the absolute floor of 100 when the formula went below it."""
    if result.new_rating >= ABSOLUTE_FLOOR:
        return result
    return dataclasses.replace(result, new_rating=ABSOLUTE_FLOOR, unfloored_rating=result.new_rating)


def _special(
    rating: float | None, games: Sequence[UscfGame], *, games_played: int, points: float, half_k: bool
) -> UscfResult:
    """Approximating Formulas: Rpost = (N Rpre + m Ravg + 400 (W - L)) / (N + m)."""
    m = len(games)
    wins = sum(1 for g in games if g.score == 1)
    losses = sum(1 for g in games if g.score == 0)
    average = math.fsum(g.opponent for g in games) / m
    pre = 0.0 if rating is None else rating  # "If the player is unrated, set N = 0 and Rpre = 0."
    new = (games_played * pre + m * average + SPECIAL_POINTS * (wins - losses)) / (games_played + m)
    return UscfResult(
        rating=rating,
        games_played=games_played,
        formula=Formula.SPECIAL,
        games=tuple(UscfGameWorking(opponent=g.opponent, score=float(g.score), expected=None) for g in games),
        points=points,
        expected=None,
        effective_games=None,
        k=None,
        half_k=half_k,
        bonus_threshold=None,
        bonus_allowed=False,
        bonus=0.0,
        new_rating=new,
    )


# The special formula: "If the player is unrated, set N = 0 and Rpre = 0": N = 0 is an unrated
# player, and a rating always comes with the games (N >= 1) that weigh it.


def rated_with_games(games_played: int) -> InvalidInputError:
    """Games played given without the rating they led to."""
    return InvalidInputError(
        "rating", None, "a player with games played has a rating", code="uscf-rating-needed",
        params={"games": games_played},
    )  # fmt: skip


def games_played_needed(games_played: object) -> InvalidInputError:
    """A rating given without its games played (N), which weigh it in both formulas."""
    return InvalidInputError(
        "games played",
        games_played,
        "a rated player's games played are needed: they weigh the rating (0 only for an unrated player)",
        code="uscf-games-played-needed",
    )


def _check_rating(field: str, value: float) -> float:
    return float(check_rating(field, value, low=MIN_RATING, high=MAX_RATING))


def _check_games_played(games_played: int) -> int:
    if isinstance(games_played, bool) or not isinstance(games_played, int) or games_played < 0:
        raise InvalidInputError(
            "games played", games_played, "a whole number, 0 or more", code="whole-not-negative"
        )
    return games_played
