"""Performance rating (Ra + dp, table 8.1.1) and the initial rating of an unrated player (B.02 8.2)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

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


def fide_performance(opponents: Sequence[Decimal], points: Decimal) -> Performance:
    """Rp = Ra + dp, table 8.1.1 (the Title Regulations' performance, B.01 1.4.9).

    "Rounding of the rating average is made to the nearest whole number. The fraction 0.5 is
    rounded upward." and p to the nearest hundredth, 0.005 up ([FIDE-TR-2024 §1.4.9]).
    A score of 0 % or 100 % gives dp -800 or +800 ("shown notionally as 800", B.02 8.1).
    """
    if not opponents:
        raise InvalidInputError("games", "", "a performance needs at least one game")
    if not 0 <= points <= len(opponents):
        raise InvalidInputError("points", points, f"points are between 0 and {len(opponents)}")
    average = round_half_away_from_zero(sum(opponents, Decimal(0)) / len(opponents))
    p = (points / len(opponents)).quantize(CENT, rounding=ROUND_HALF_UP)
    dp = rating_difference(p)
    return Performance(average_opponent=average, fractional_score=p, dp=dp, rating=average + dp)


@dataclass(frozen=True, kw_only=True)
class InitialRating:
    """The first rating of a player new to the list, or None with the reason none results."""

    rating: int | None
    reason: str
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
    if not 0 <= points <= games:
        raise InvalidInputError("points", points, f"points are between 0 and {games}")
    if games == 0:
        return InitialRating(
            rating=None, reason="no games against rated opponents", article=ARTICLE_INITIAL,
            games=0, points=points,
        )  # fmt: skip
    if points == 0:
        # B.02 8.2.1: "If an unrated player scores zero in their first event this score is
        # disregarded."
        return InitialRating(
            rating=None,
            reason="a score of zero in a first event is disregarded (8.2.1)",
            article="FIDE B.02 8.2.1",
            games=games,
            points=points,
        )
    if rules.initial_rating_method is InitialRatingMethod.NOT_KNOWN:
        return InitialRating(
            rating=None,
            reason=f"the initial-rating text of {rules.name} was not read, so no first rating is "
            "computed (docs/fide.md, 'Before 1 July 2014')",
            article=rules.source, games=games, points=points,
        )  # fmt: skip
    if rules.initial_rating_method is InitialRatingMethod.AVERAGE_PLUS_12_5_PER_HALF_POINT:
        return _average_plus_12_5(opponents, points, rules=rules)
    if rules.initial_rating_method is InitialRatingMethod.TWO_HYPOTHETICAL_1800_DRAWS:
        working = _two_hypothetical_draws(opponents, points)
    else:
        working = _average_plus_20(opponents, points)
    average, p, dp, unrounded = working
    rounded = round_half_away_from_zero(unrounded)
    rating = rounded
    notes: list[str] = []
    if rules.initial_rating_max is not None and rounded > rules.initial_rating_max:
        notes.append(f"{rounded} is above the maximum initial rating, so {rules.initial_rating_max}")
        rating = rules.initial_rating_max
    working_shown = InitialRating(
        rating=None,
        reason="",
        article=ARTICLE_INITIAL,
        games=games,
        points=points,
        average_opponent=average,
        fractional_score=p,
        dp=dp,
        unrounded=unrounded,
    )
    if games < rules.initial_rating_min_games:
        reason = (
            f"{games} games against rated opponents; a first rating needs at least "
            f"{rules.initial_rating_min_games} (7.1.4); results may be pooled over 26 months"
        )
        return dataclasses.replace(working_shown, reason=reason)
    if rules.rating_floor is not None and rating < rules.rating_floor:
        reason = f"{rating} is below the lowest published rating {rules.rating_floor}"
        return dataclasses.replace(working_shown, reason=reason)
    notes.insert(0, f"Ru = Ra + dp = {average:.2f} + {dp} = {unrounded:.2f}, rounded {rounded}")
    return dataclasses.replace(working_shown, rating=rating, reason="; ".join(notes))


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
        rating=None, reason="", article=rules.source, games=games, points=points,
        average_opponent=average, fractional_score=p,
    )  # fmt: skip
    if over_half < 0:
        reason = (
            f"a score below 50 % under {rules.name}: the formula of the time for it was not read, "
            "so no first rating is computed (docs/fide.md, 'Before 1 July 2014')"
        )
        return dataclasses.replace(shown, reason=reason)
    unrounded = average + over_half * 2 * POINTS_PER_HALF_POINT_2009
    rating = round_half_away_from_zero(unrounded)
    shown = dataclasses.replace(shown, unrounded=unrounded)
    if games < rules.initial_rating_min_games:
        reason = (
            f"{games} games against rated opponents; a first rating needs at least "
            f"{rules.initial_rating_min_games} under {rules.name}"
        )
        return dataclasses.replace(shown, reason=reason)
    if rules.rating_floor is not None and rating < rules.rating_floor:
        return dataclasses.replace(
            shown, reason=f"{rating} is below the lowest published rating {rules.rating_floor}"
        )
    reason = (
        f"Ru = Ra + 12.5 per half point over 50 % = {average:.2f} + {over_half * 2} x 12.5 = "
        f"{unrounded:.2f}, rounded {rating} [FIDE09]"
    )
    if rules.rating_floor is None:
        reason += f"; the lowest published rating under {rules.name} was not read"
    return dataclasses.replace(shown, rating=rating, reason=reason)


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
