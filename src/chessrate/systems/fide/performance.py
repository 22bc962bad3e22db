"""Performance rating (Ra + dp, table 8.1.1) and the initial rating of an unrated player (B.02 8.2)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum

from chessrate.errors import InvalidInputError
from chessrate.systems.fide.regulations import FideRules, InitialRatingMethod
from chessrate.systems.fide.tables import CENT, rating_difference
from chessrate.systems.rounding import round_half_away_from_zero

ARTICLE_INITIAL = "FIDE B.02 7.1.4, 8.2"


@dataclass(frozen=True, kw_only=True)
class Performance:
    """FIDE's performance rating Rp = Ra + dp, with its working."""

    average_opponent: int
    fractional_score: Decimal
    dp: int
    rating: int


def check_points(points: Decimal, games: int) -> Decimal:
    """The points scored in ``games`` games: from 0 to ``games``."""
    if not 0 <= points <= games:
        raise InvalidInputError(
            "points",
            points,
            f"points are between 0 and {games}",
            code="points-at-most",
            params={"games": games},
        )
    return points


def fide_performance(opponents: Sequence[Decimal], points: Decimal) -> Performance:
    """Rp = Ra + dp, table 8.1.1 (the Title Regulations' performance, B.01 1.4.9).

    "Rounding of the rating average is made to the nearest whole number. The fraction 0.5 is
    rounded upward." and p to the nearest hundredth, 0.005 up ([FIDE-TR-2024 §1.4.9]).
    A score of 0 % or 100 % gives dp -800 or +800 ("shown notionally as 800", B.02 8.1).
    """
    if not opponents:
        raise InvalidInputError(
            "games", "", "a performance needs at least one game", code="performance-no-games"
        )
    check_points(points, len(opponents))
    average = round_half_away_from_zero(sum(opponents, Decimal(0)) / len(opponents))
    p = (points / len(opponents)).quantize(CENT, rounding=ROUND_HALF_UP)
    dp = rating_difference(p)
    return Performance(average_opponent=average, fractional_score=p, dp=dp, rating=average + dp)


class InitialOutcome(StrEnum):
    """Why the first rating is what it is, or why there is none: a code the faces say in their language."""

    NO_RATED_GAMES = "no-rated-games"
    """No game against a rated opponent (B.02 7.1.4)."""
    ZERO_SCORE = "zero-score"
    """A score of zero in a first event is disregarded (B.02 8.2.1)."""
    TOO_FEW_GAMES = "too-few-games"
    """Fewer games against rated opponents than a first rating needs (B.02 7.1.4)."""
    BELOW_FLOOR = "below-floor"
    """The rating would be below the lowest published rating."""
    RULES_NOT_READ = "rules-not-read"
    """The initial-rating text of the rules in force was not read (docs/fide.md)."""
    BELOW_HALF_NOT_READ = "below-half-not-read"
    """A score below 50 % under [FIDE09], whose formula for it was not read (docs/fide.md)."""
    RATED = "rated"
    """A first rating results."""
    CAPPED = "capped"
    """A first rating results, capped at the rules' maximum initial rating."""


@dataclass(frozen=True, kw_only=True)
class InitialRating:
    """The first rating of a player new to the list, or None, with the outcome that says why."""

    rating: int | None
    outcome: InitialOutcome
    article: str
    games: int
    points: Decimal
    average_opponent: Decimal | None = None
    fractional_score: Decimal | None = None
    dp: int | None = None
    unrounded: Decimal | None = None


def initial_rating(opponents: Sequence[Decimal], points: Decimal, *, rules: FideRules) -> InitialRating:
    """The initial rating from games against rated opponents, under the rules of ``rules``.

    ``opponents`` are the ratings of the rated opponents, ``points`` the score against them
    (games against unrated opponents do not count, B.02 7.1.4).
    """
    games = len(opponents)
    check_points(points, games)
    none = InitialRating(
        rating=None,
        outcome=InitialOutcome.NO_RATED_GAMES,
        article=ARTICLE_INITIAL,
        games=games,
        points=points,
    )
    if games == 0:
        return none
    if points == 0:
        # B.02 8.2.1: "If an unrated player scores zero in their first event this score is
        # disregarded."
        return dataclasses.replace(none, outcome=InitialOutcome.ZERO_SCORE, article="FIDE B.02 8.2.1")
    if rules.initial_rating_method is InitialRatingMethod.NOT_KNOWN:
        return dataclasses.replace(none, outcome=InitialOutcome.RULES_NOT_READ, article=rules.source)
    if rules.initial_rating_method is InitialRatingMethod.AVERAGE_PLUS_12_5_PER_HALF_POINT:
        return _average_plus_12_5(opponents, points, rules=rules)
    if rules.initial_rating_method is InitialRatingMethod.TWO_HYPOTHETICAL_1800_DRAWS:
        working = _two_hypothetical_draws(opponents, points)
    else:
        working = _average_plus_20(opponents, points)
    average, p, dp, unrounded = working
    shown = dataclasses.replace(
        none, average_opponent=average, fractional_score=p, dp=dp, unrounded=unrounded
    )
    return _first_rating(shown, round_half_away_from_zero(unrounded), rules)


def _first_rating(shown: InitialRating, rounded: int, rules: FideRules) -> InitialRating:
    """The working's outcome: too few games (7.1.4), below the floor, capped at the maximum, or rated."""
    if shown.games < rules.initial_rating_min_games:
        return dataclasses.replace(shown, outcome=InitialOutcome.TOO_FEW_GAMES)
    if rules.rating_floor is not None and rounded < rules.rating_floor:
        return dataclasses.replace(shown, outcome=InitialOutcome.BELOW_FLOOR)
    if rules.initial_rating_max is not None and rounded > rules.initial_rating_max:
        return dataclasses.replace(shown, rating=rules.initial_rating_max, outcome=InitialOutcome.CAPPED)
    return dataclasses.replace(shown, rating=rounded, outcome=InitialOutcome.RATED)


# [FIDE09] (1 July 2009): "the value of 0.5 point in a new player's rating calculation will stay as
# 12.5 (half of the highest K value)": Ru = Ra at 50 %, Ra + 12.5 per half point over 50 %. The text
# for a score below 50 % was not read: no rating is computed there (docs/fide.md).
POINTS_PER_HALF_POINT_2009 = Decimal("12.5")


def _average_plus_12_5(opponents: Sequence[Decimal], points: Decimal, *, rules: FideRules) -> InitialRating:
    games = len(opponents)
    average = sum(opponents, Decimal(0)) / games
    p = (points / games).quantize(CENT, rounding=ROUND_HALF_UP)
    over_half = points - Decimal(games) / 2
    shown = InitialRating(
        rating=None, outcome=InitialOutcome.BELOW_HALF_NOT_READ, article=rules.source, games=games,
        points=points, average_opponent=average, fractional_score=p,
    )  # fmt: skip
    if over_half < 0:
        return shown
    unrounded = average + over_half * 2 * POINTS_PER_HALF_POINT_2009
    shown = dataclasses.replace(shown, unrounded=unrounded)
    return _first_rating(shown, round_half_away_from_zero(unrounded), rules)


# B.02 8.2.2 (2024): "Ra is the average rating of the player's rated opponents plus two
# hypothetical opponents rated 1800. The result against these two hypothetical opponents is
# considered as a draw." 8.2.3: "Ru = Ra + dp".
HYPOTHETICAL_OPPONENT = Decimal(1800)
HYPOTHETICAL_GAMES = 2


def _two_hypothetical_draws(
    opponents: Sequence[Decimal], points: Decimal
) -> tuple[Decimal, Decimal, int, Decimal]:
    games = len(opponents) + HYPOTHETICAL_GAMES
    average = (sum(opponents, Decimal(0)) + HYPOTHETICAL_GAMES * HYPOTHETICAL_OPPONENT) / games
    p = ((points + Decimal(HYPOTHETICAL_GAMES) / 2) / games).quantize(CENT, rounding=ROUND_HALF_UP)
    dp = rating_difference(p)
    return average, p, dp, average + dp


# B.02 8.2.3 (2014, 2022): "If the player scores 50%, then Ru = Ra. If they score more than 50%,
# then Ru = Ra + 20 for each half point scored over 50%. If they score less than 50%, then
# Ru = Ra + dp" [FIDE-RR-2022 §8.2.3].
POINTS_PER_HALF_POINT_OVER_50 = 20


def _average_plus_20(opponents: Sequence[Decimal], points: Decimal) -> tuple[Decimal, Decimal, int, Decimal]:
    games = len(opponents)
    average = sum(opponents, Decimal(0)) / games
    p = (points / games).quantize(CENT, rounding=ROUND_HALF_UP)
    over_half = points - Decimal(games) / 2
    if over_half > 0:
        dp = int(over_half * 2 * POINTS_PER_HALF_POINT_OVER_50)
    elif over_half == 0:
        dp = 0
    else:
        dp = rating_difference(p)
    return average, p, dp, average + dp
