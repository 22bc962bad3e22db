"""Rating pools compared: the published conversions between Lichess, Chess.com, FIDE and ECF.

A rating means something only within its pool: who plays there, where new players start, the
floors. A 1500 on Lichess (new players start at 1500, Glicko-2), on Chess.com (start by level,
Glicko) and on FIDE's list (floor 1400 since March 2024) are three different levels. So a
conversion is a *fit* made by someone on some players at some time; each one here carries its
source, sample size and R^2 as published, and is applied exactly as published, in the direction
it was fitted (a regression of y on x is not a regression of x on y).

FIDE's one-off adjustment of 1 March 2024 ([FIDE-PROP], [FIDE-2538], [QC24]) raised every
standard rating R below 2000 by 0.40 x (2000 - R). A fit made before it predicts the FIDE rating
of its time; today's rating for the same strength is higher below 2000. chessrate shows both ends, as a range.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from chessrate.errors import InvalidInputError
from chessrate.parse import check_rating, parse_choice

#: FIDE, 1 March 2024: R + 0.40 x (2000 - R) for ratings below 2000.
FIDE_ADJUSTMENT_DAY = dt.date(2024, 3, 1)
FIDE_ADJUSTMENT_FACTOR = 0.40
FIDE_ADJUSTMENT_BELOW = 2000.0
#: A rating to convert: 0 up to 3500, chessrate's sanity bound above any rating of these pools
#: (docs/systems.md, "Rating bounds").
MIN_RATING, MAX_RATING = 0, 3500


class Pool(StrEnum):
    LICHESS_BLITZ = "lichess-blitz"
    LICHESS_CLASSICAL = "lichess-classical"
    CHESSCOM_BLITZ = "chesscom-blitz"
    FIDE = "fide"
    ECF_GRADE = "ecf-grade"
    ECF = "ecf"


def parse_pool(text: str) -> Pool:
    return parse_choice(Pool, text, field="pool")


@dataclass(frozen=True, kw_only=True)
class Conversion:
    """A published conversion: target = intercept + sum of coefficient x input rating."""

    name: str
    target: Pool
    intercept: float
    coefficients: tuple[tuple[Pool, float], ...]
    sample: str
    r_squared: float | None
    """As published; None when the source gives none."""
    source: str
    fitted: str
    """When the data were taken, as the source says."""
    exact: bool = False
    """True for a definition (ECF's grade conversion), False for a statistical fit."""
    shown_range: tuple[float, float] | None = None
    """The lowest and highest input of the data the source shows, when it shows them; a rating
    outside is an extrapolation, flagged (docs/systems.md, "Pools compared")."""
    before_fide_adjustment: bool = False
    """A fit to FIDE ratings made before 1 March 2024."""

    @property
    def inputs(self) -> tuple[Pool, ...]:
        return tuple(pool for pool, _ in self.coefficients)

    def formula(self) -> str:
        terms = " + ".join(f"{factor:g} x {pool.value}" for pool, factor in self.coefficients)
        sign = "-" if self.intercept < 0 else "+"
        return f"{self.target.value} = {terms} {sign} {abs(self.intercept):g}"


CONVERSIONS: tuple[Conversion, ...] = (
    Conversion(
        name="reddit-2025",
        target=Pool.CHESSCOM_BLITZ,
        intercept=-929.4548,
        coefficients=((Pool.LICHESS_BLITZ, 1.3728),),
        sample="305,539 accounts matched by username",
        r_squared=0.313,
        source="[POOLS-REDDIT] r/chess, 'Comparing Lichess and Chess.com Ratings' (April 2025), RANSAC fit",
        fitted="February 2025",
    ),
    Conversion(
        name="lichess-forum",
        target=Pool.FIDE,
        intercept=187.0,
        coefficients=((Pool.LICHESS_CLASSICAL, 0.38), (Pool.LICHESS_BLITZ, 0.48)),
        sample="about 3,000 players",
        r_squared=None,
        source="[POOLS-LICHESS] Lichess forum, 'How to estimate your FIDE rating'",
        fitted="before March 2024",
        before_fide_adjustment=True,
    ),
    Conversion(
        name="mathtuition88-2020",
        target=Pool.FIDE,
        intercept=179.89,
        coefficients=((Pool.LICHESS_BLITZ, 0.8399),),
        sample="30 players",
        r_squared=0.74,
        source="[POOLS-MT88] mathtuition88.com (February 2020)",
        fitted="February 2020",
        before_fide_adjustment=True,
        # The page prints six of its 30 points: Lichess blitz 1498 to 2943 [POOLS-MT88].
        shown_range=(1498.0, 2943.0),
    ),
    Conversion(
        name="ecf-grade",
        target=Pool.ECF,
        intercept=700.0,
        coefficients=((Pool.ECF_GRADE, 7.5),),
        sample="the ECF's definition",
        r_squared=None,
        source="English Chess Federation, 'The calculation of ECF grades on a monthly basis': "
        "rating = 7.5 x grade + 700",
        fitted="2020",
        exact=True,
    ),
)


#: The lowest (and, for Lichess, the highest) rating each pool holds. Lichess: lila's ``minRating``
#: 400 and its sanity check, below 4000 [LILA]. FIDE: the lowest rating published from 1 July 2012
#: to 29 February 2024, 1000 [CE11]: every FIDE fit here predates March 2024 and predicts a rating
#: of that list. The others: no rating is below zero (no source read gives their lowest).
POOL_BOUNDS: dict[Pool, tuple[float, float | None]] = {
    Pool.LICHESS_BLITZ: (400.0, 4000.0),
    Pool.LICHESS_CLASSICAL: (400.0, 4000.0),
    Pool.CHESSCOM_BLITZ: (0.0, None),
    Pool.FIDE: (1000.0, None),
    Pool.ECF_GRADE: (0.0, None),
    Pool.ECF: (0.0, None),
}


def check_pool_rating(pool: Pool, rating: float) -> float:
    """A rating the pool can hold: Lichess's from 400 to below 4000; no rating below zero."""
    lowest, highest = POOL_BOUNDS[pool]
    if rating < lowest or (highest is not None and rating >= highest):
        upper = f"from {lowest:g} to below {highest:g}" if highest is not None else f"{lowest:g} or more"
        raise InvalidInputError(
            pool.value,
            rating,
            f"a {pool.value} rating is {upper}",
            code="pool-rating-outside",
            params={
                "pool": pool.value,
                "lowest": f"{lowest:g}",
                "highest": "" if highest is None else f"{highest:g}",
            },
        )
    return rating


def fide_2024_adjustment(rating: float) -> float:
    """FIDE's one-off adjustment of 1 March 2024: R + 0.40 x (2000 - R) below 2000."""
    if rating >= FIDE_ADJUSTMENT_BELOW:
        return rating
    return rating + FIDE_ADJUSTMENT_FACTOR * (FIDE_ADJUSTMENT_BELOW - rating)


@dataclass(frozen=True, kw_only=True)
class Converted:
    """One conversion applied: the value, and the range it stands for."""

    conversion: Conversion
    inputs: tuple[tuple[Pool, float], ...]
    value: float
    """The formula's value, as published."""
    adjusted: float | None
    """The value after FIDE's 2024 adjustment, for a FIDE fit made before it; else None."""
    extrapolated: tuple[float, float] | None = None
    """The range of the data the source shows, when an input lies outside it (a flag); else None."""

    @property
    def low(self) -> float:
        return self.value if self.adjusted is None else min(self.value, self.adjusted)

    @property
    def high(self) -> float:
        return self.value if self.adjusted is None else max(self.value, self.adjusted)


def conversions_to(target: Pool) -> tuple[Conversion, ...]:
    return tuple(c for c in CONVERSIONS if c.target is target)


def convert(ratings: Mapping[Pool, float], target: Pool) -> tuple[Converted, ...]:
    """Every published conversion to ``target`` whose inputs are all among ``ratings``.

    Raises when none applies, naming what the known conversions to ``target`` need.
    """
    for pool, rating in ratings.items():
        check_rating(pool.value, rating, low=MIN_RATING, high=MAX_RATING)
        check_pool_rating(pool, rating)
    if target in ratings:
        raise InvalidInputError("to", target.value, "the rating is already in that pool", code="pool-same")
    known = conversions_to(target)
    results = tuple(
        _converted(conversion, ratings)
        for conversion in known
        if all(pool in ratings for pool in conversion.inputs)
    )
    if not results:
        raise _no_conversion(ratings, target, known)
    return results


def _converted(conversion: Conversion, ratings: Mapping[Pool, float]) -> Converted:
    """One conversion's result, flagged when an input lies outside the range its source shows."""
    target = conversion.target
    used = tuple((pool, float(ratings[pool])) for pool in conversion.inputs)
    value = conversion.intercept + math.fsum(
        factor * ratings[pool] for pool, factor in conversion.coefficients
    )
    lowest, highest = POOL_BOUNDS[target]
    if value < lowest or (highest is not None and value >= highest):
        # Never a rating the target pool cannot hold (a negative one): outside what the fit can say.
        raise InvalidInputError(
            used[0][0].value,
            used[0][1],
            f"the published fit {conversion.name} gives {value:.0f} {target.value}, below its lowest "
            f"rating {lowest:g}: outside the range the fit can say anything about",
            code="pool-result-outside",
            params={
                "fit": conversion.name,
                "value": f"{value:.0f}",
                "pool": target.value,
                "lowest": f"{lowest:g}",
            },
        )
    shown = conversion.shown_range
    outside = shown is not None and any(not shown[0] <= rating <= shown[1] for _, rating in used)
    return Converted(
        conversion=conversion,
        inputs=used,
        value=value,
        adjusted=fide_2024_adjustment(value) if conversion.before_fide_adjustment else None,
        extrapolated=shown if outside else None,
    )


def _no_conversion(
    ratings: Mapping[Pool, float], target: Pool, known: tuple[Conversion, ...]
) -> InvalidInputError:
    """Why no conversion applies: none leads to ``target``, or what those that do need."""
    if not known:
        return InvalidInputError(
            "to", target.value, "no published conversion leads to this pool", code="pool-no-conversion"
        )
    given = ", ".join(pool.value for pool in ratings) or "nothing"
    needs = "; ".join(" and ".join(p.value for p in c.inputs) for c in known)
    return InvalidInputError(
        "from",
        given,
        f"the published conversions to {target.value} need: {needs}",
        code="pool-needs",
        params={
            "pool": target.value,
            "needs": "; ".join(" + ".join(p.value for p in c.inputs) for c in known),
        },
    )
