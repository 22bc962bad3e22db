"""DWZ, the Deutsche Wertungszahl of the German chess federation (Deutscher Schachbund, DSB).

Source: [DSB-WO] DSB Wertungsordnung (schachbund.de), §3.5.2 (the new rating), Anhang 1.2 (the development
coefficient E) and Anhang 2.1 (the expected score: the normal distribution since August 2013).

- Expected score of one game: P(D) = Phi(D / (200 sqrt 2)), D = own rating - opponent's.
- New rating: Rn = R0 + 800 (W - We) / (E + n), n games, W points, We expected points.
- E = E0 x fB + SBr, E0 = (R0 / 1000)^4 + J; J = 5 up to age 20, 10 for 21 to 25, 15 over 25.
  fB = R0 / 2000 within 0.5 ... 1.0, only for players up to 20 who scored W >= We, else 1.
  SBr = e^((1300 - R0) / 150) - 1, only when R0 < 1300 and W < We, else 0.
  E is rounded to a whole number and is at least 5; with SBr = 0 at most 5 x Index and 30; with
  SBr > 0 at most 150. The Index (the number of previous evaluations) is not capped: from
  Index 6 on, the limit is 30.
- The new rating is rounded to the nearest whole number. The regulation's worked example
  [DWZ-EXAMPLE] (sktroisdorf.de, "DWZ - Deutsche Wertungszahl", 2018-11-15) gives whole numbers and is
  reproduced with half-up rounding; the rounding rule itself is not spelled out there.

This module rates one evaluation (a tournament, or one game) of a player who already has a DWZ
(Index >= 1). The first DWZ of a new player (Erst-DWZ, WO 3.4) is refused, saying why:
:func:`check_index`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from chessrate.errors import InvalidInputError
from chessrate.parse import check_rating, check_score
from chessrate.systems.games import OpponentGame, WorkedGame
from chessrate.systems.rounding import round_half_away_from_zero

#: Anhang 2.1: the standard deviation of the performance difference, 200 sqrt 2 (about 282.8).
SIGMA = 200.0 * math.sqrt(2.0)
#: §3.5.2: Rn = R0 + 800 (W - We) / (E + n).
SCALE = 800.0
#: Anhang 1.2: J by age group.
J_YOUTH, J_JUNIOR, J_SENIOR = 5, 10, 15
YOUTH_MAX_AGE, JUNIOR_MAX_AGE = 20, 25
#: Anhang 1.2: fB = R0 / 2000, limited to 0.5 ... 1.0.
FB_DIVISOR, FB_MIN, FB_MAX = 2000.0, 0.5, 1.0
#: Anhang 1.2: SBr = e^((1300 - R0) / 150) - 1 below 1300.
SBR_BELOW, SBR_SCALE = 1300, 150.0
#: Anhang 1.2: the limits of E.
E_MIN, E_MAX, E_PER_INDEX, E_MAX_WITH_SBR = 5, 30, 5, 150
#: The DWZ accepted: a positive whole number (Anhang 1.2 takes (R0/1000)^4 and R0/2000 of it) up to
#: 3500, chessrate's sanity bound above any DWZ published (docs/systems.md, "Rating bounds").
MIN_RATING, MAX_RATING = 1, 3500
#: The Wertungsordnung sets no largest age: 120, older than any living player, is chessrate's
#: sanity bound on the age typed (docs/systems.md).
MAX_AGE = 120


class AgeGroup(StrEnum):
    """Anhang 1.2's three age groups, which set J (and whether fB and SBr can apply)."""

    YOUTH = "youth"  # up to 20 (Jugendliche): J = 5
    JUNIOR = "junior"  # 21 to 25 (Junioren): J = 10
    SENIOR = "senior"  # 26 and over (Senioren): J = 15


def age_group(age: int) -> AgeGroup:
    """The age group of a player of ``age`` years."""
    if isinstance(age, bool) or not isinstance(age, int) or not 0 <= age <= MAX_AGE:
        raise InvalidInputError(
            "age",
            age,
            f"an age is a whole number of years from 0 to {MAX_AGE}",
            code="age",
            params={"maximum": MAX_AGE},
        )
    if age <= YOUTH_MAX_AGE:
        return AgeGroup.YOUTH
    if age <= JUNIOR_MAX_AGE:
        return AgeGroup.JUNIOR
    return AgeGroup.SENIOR


J_BY_GROUP = {AgeGroup.YOUTH: J_YOUTH, AgeGroup.JUNIOR: J_JUNIOR, AgeGroup.SENIOR: J_SENIOR}


def expected_score(difference: int) -> float:
    """Anhang 2.1: P(D) = Phi(D / (200 sqrt 2)), the normal distribution function."""
    return 0.5 * (1.0 + math.erf(difference / SIGMA / math.sqrt(2.0)))


@dataclass(frozen=True, kw_only=True)
class DevelopmentCoefficient:
    """E with its working (Anhang 1.2); the DWZ document shows it as it is."""

    age_group: AgeGroup
    j: int
    e0: float
    fb: float
    sbr: float
    unlimited: float
    """E0 x fB + SBr before rounding and limits."""
    lower_limit: int
    upper_limit: int
    e: int

    @property
    def limited(self) -> bool:
        """True when a limit, not the formula, set E."""
        return self.e != round_half_away_from_zero(self.unlimited)


def development_coefficient(
    rating: int, *, age: int, index: int, points: float, expected: float
) -> DevelopmentCoefficient:
    """E for a player rated ``rating`` who scored ``points`` where ``expected`` were expected."""
    _check_rating("rating", rating)
    _check_index(index)
    group = age_group(age)
    j = J_BY_GROUP[group]
    e0 = (rating / 1000.0) ** 4 + j
    fb = 1.0
    if group is AgeGroup.YOUTH and points >= expected:
        fb = min(max(rating / FB_DIVISOR, FB_MIN), FB_MAX)
    sbr = 0.0
    if rating < SBR_BELOW and points < expected:
        sbr = math.exp((SBR_BELOW - rating) / SBR_SCALE) - 1.0
    unlimited = e0 * fb + sbr
    upper = E_MAX_WITH_SBR if sbr > 0 else min(E_MAX, E_PER_INDEX * index)
    e = min(max(round_half_away_from_zero(unlimited), E_MIN), upper)
    return DevelopmentCoefficient(
        age_group=group,
        j=j,
        e0=e0,
        fb=fb,
        sbr=sbr,
        unlimited=unlimited,
        lower_limit=E_MIN,
        upper_limit=upper,
        e=e,
    )


#: One DWZ game: the opponent's DWZ and the score (1, 0.5 or 0).
DwzGame = OpponentGame[int, float]
#: A game as DWZ rated it: the difference and the expected score P(D).
DwzGameWorking = WorkedGame[int, float]


@dataclass(frozen=True, kw_only=True)
class DwzResult:
    """One evaluation with its working."""

    rating: int
    games: tuple[DwzGameWorking, ...]
    points: float
    expected: float
    coefficient: DevelopmentCoefficient
    unrounded: float
    """R0 + 800 (W - We) / (E + n), before the final rounding."""
    new_rating: int

    @property
    def change(self) -> int:
        return self.new_rating - self.rating


def rate(rating: int, games: Sequence[DwzGame], *, age: int, index: int) -> DwzResult:
    """Rate one evaluation of a player with a DWZ (§3.5.2): every game against a rated opponent."""
    _check_rating("rating", rating)
    _check_index(index)
    age_group(age)
    if not games:
        raise InvalidInputError("games", "", "an evaluation needs at least one game", code="dwz-no-games")
    worked = []
    for number, game in enumerate(games, start=1):
        _check_rating(f"game {number} opponent", game.opponent)
        check_score(f"game {number} result", game.score)
        difference = rating - game.opponent
        worked.append(
            DwzGameWorking(
                opponent=game.opponent,
                difference=difference,
                expected=expected_score(difference),
                score=float(game.score),
            )
        )
    points = math.fsum(game.score for game in worked)
    expected = math.fsum(game.expected for game in worked)
    coefficient = development_coefficient(rating, age=age, index=index, points=points, expected=expected)
    unrounded = rating + SCALE * (points - expected) / (coefficient.e + len(worked))
    return DwzResult(
        rating=rating,
        games=tuple(worked),
        points=points,
        expected=expected,
        coefficient=coefficient,
        unrounded=unrounded,
        new_rating=round_half_away_from_zero(unrounded),
    )


def _check_rating(field: str, value: int) -> None:
    check_rating(field, value, low=MIN_RATING, high=MAX_RATING, whole=True)


def check_index(index: int) -> int:
    """The Index of a player who has a DWZ: 1 or more. Index 0 asks for a first DWZ (Erst-DWZ), which
    is refused with what is not computed and why: the Wertungsordnung gives a player a first DWZ with
    at least 5 games against opponents with a DWZ and no 100 % or 0 % score in them ([DSB-WO] 3.4.1.1),
    by a simultaneous iteration over the whole tournament, new players included (3.4.4
    "Gesamtiteration"); one player's games are not enough to run it."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise InvalidInputError(
            "index", index, "the Index counts previous evaluations: 0 or more", code="dwz-index"
        )
    if index == 0:
        raise InvalidInputError(
            "index",
            index,
            "a first DWZ (Index 0) is not computed: the Wertungsordnung gives it, with at least 5 games "
            "against opponents with a DWZ, neither all won nor all lost, by an iteration over the whole "
            "tournament (WO 3.4.1, 3.4.4), which one player's games cannot run",
            code="dwz-first-rating",
        )
    return index


def _check_index(index: int) -> None:
    check_index(index)
