"""ECF ratings (English Chess Federation), calculated monthly since 2020: the K method.

Sources: [ECF-MONTHLY] [ECF-HELP] English Chess Federation, "The calculation of ECF grades on a monthly basis"
(englishchess.org.uk); ECF rating help pages (ecfrating.org.uk/v2/help/help_rating.php).

- K rating: R1 = R0 + k (W - We), k = 20, or 40 for juniors; We from FIDE's table of rating
  difference to expected score (FIDE Handbook B.02, table 8.1.2, unchanged since 2009).
- Worked: an adult who beats an equal-rated player gains 20 x (1 - 0.50) = +10; a junior +20.
- Old three-digit grades convert as rating = 7.5 x grade + 700; a value of 300 or less given as a
  rating is refused with its conversion, ``grade`` converts every value.

What cannot be exact: a new player's P (performance) rating "includes a fictional draw against a
fictional opponent of nominal rating" (ECF help page), and that nominal rating is not published,
so :func:`new_player_rating` refuses. The texts found give no rounding rule for the monthly
change; chessrate shows it unrounded and rounds the new rating to the nearest whole number,
0.5 away from zero, as FIDE does (B.02 8.3.4). No cap on the rating difference is mentioned,
so none is applied: the table's last row (> 735) gives 1.00.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from chessrate.errors import InvalidInputError, UnpublishedRuleError
from chessrate.parse import check_rating, check_score
from chessrate.systems.fide.tables import scoring_probability
from chessrate.systems.games import OpponentGame, WorkedGame
from chessrate.systems.rounding import round_half_away_from_zero

#: ECF monthly calculation: k = 20 for adults, 40 for juniors.
K_ADULT, K_JUNIOR = 20, 40
#: ECF: rating = 7.5 x grade + 700 (the grade-to-rating conversion).
GRADE_FACTOR, GRADE_OFFSET = Decimal("7.5"), Decimal(700)
#: The ECF rating accepted: a whole number from 0 up to 3500, chessrate's sanity bound above any
#: rating the ECF publishes (docs/systems.md, "Rating bounds").
MIN_RATING, MAX_RATING = 0, 3500


#: One ECF game: the opponent's rating and the score (1, 0.5 or 0).
EcfGame = OpponentGame[int, Decimal]


@dataclass(frozen=True, kw_only=True)
class EcfGameWorking(WorkedGame[int, Decimal]):
    """A game as the ECF rated it, with its change: k (W - We)."""

    change: Decimal


@dataclass(frozen=True, kw_only=True)
class EcfResult:
    rating: int
    junior: bool
    k: int
    games: tuple[EcfGameWorking, ...]
    points: Decimal
    expected: Decimal
    change: Decimal
    """k (W - We), unrounded."""
    new_rating: int


def k_for(*, junior: bool) -> int:
    return K_JUNIOR if junior else K_ADULT


def rate(rating: int, games: Sequence[EcfGame], *, junior: bool = False) -> EcfResult:
    """The K method: R1 = R0 + k (W - We), We from FIDE table 8.1.2."""
    _check_rating("rating", rating)
    if not games:
        raise InvalidInputError("games", "", "at least one game", code="games-none")
    k = k_for(junior=junior)
    worked = []
    for number, game in enumerate(games, start=1):
        _check_rating(f"game {number} opponent", game.opponent)
        check_score(f"game {number} result", game.score)
        difference = rating - game.opponent
        expected = scoring_probability(difference)
        worked.append(
            EcfGameWorking(
                opponent=game.opponent,
                difference=difference,
                expected=expected,
                score=game.score,
                change=k * (game.score - expected),
            )
        )
    points = sum((g.score for g in worked), Decimal(0))
    expected = sum((g.expected for g in worked), Decimal(0))
    change = k * (points - expected)
    return EcfResult(
        rating=rating,
        junior=junior,
        k=k,
        games=tuple(worked),
        points=points,
        expected=expected,
        change=change,
        new_rating=rating + round_half_away_from_zero(change),
    )


def rating_from_grade(grade: Decimal) -> Decimal:
    """An old ECF grade as a rating: 7.5 x grade + 700."""
    if grade < 0:
        raise InvalidInputError("grade", grade, "an ECF grade is 0 or more", code="ecf-grade")
    return GRADE_FACTOR * grade + GRADE_OFFSET


#: The ECF's old grades ran on a three-digit scale, and grade 0 converts to 700 [ECF-MONTHLY]: a
#: value of 300 or less is taken as a grade typed where a rating is asked for (a choice,
#: docs/systems.md, "ECF: grades and ratings"), refused with its conversion.
GRADE_LIKE_AT_MOST = 300


def rating_of_grade(grade: int | Decimal) -> int:
    """An old grade as the whole rating it converts to: 7.5 x grade + 700, rounded half away from zero
    (the ECF's formula gives halves for odd grades; the rounding is chessrate's choice)."""
    return round_half_away_from_zero(rating_from_grade(Decimal(grade)))


def check_not_a_grade(field: str, value: int) -> int:
    """A rating that is not an old three-digit grade (at most :data:`GRADE_LIKE_AT_MOST`)."""
    if value <= GRADE_LIKE_AT_MOST:
        converted = rating_of_grade(value)
        raise InvalidInputError(
            field,
            value,
            f"{value} looks like an old three-digit ECF grade, not a rating: a grade converts as "
            f"7.5 x grade + 700 = {converted}; give --grade to convert every value",
            code="ecf-grade-not-rating",
            params={"value": value, "rating": converted},
        )
    return value


def new_player_rating(*args: object, **kwargs: object) -> None:
    """The P method for new players: it cannot be computed exactly, so this always refuses."""
    del args, kwargs
    raise UnpublishedRuleError(
        "the ECF P rating of a new player cannot be computed exactly: it includes a draw against "
        "a nominal opponent whose rating the ECF does not publish"
    )


def _check_rating(field: str, value: int) -> None:
    check_rating(field, value, low=MIN_RATING, high=MAX_RATING, whole=True)
