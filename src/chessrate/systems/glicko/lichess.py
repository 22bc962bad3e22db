"""Glicko-2 as Lichess runs it: each game its own rating period, RD that grows by calendar days.

Everything here follows the code of lichess-org/lila and lichess-org/scalachess [LILA] [SCALACHESS]
(lila ``modules/rating/src/main/Glicko.scala`` @39329bfd,
``Perf.scala`` @d99cb8db, ``modules/round/src/main/PerfsUpdater.scala`` @b81e1d63,
``RatingRegulator.scala`` @06b0a53e; scalachess ``rating/src/main/scala/glicko/`` @2370472a and
``model.scala`` @014416ea). One game:

1. each player's stored RD grows with the days since their last game ("live deviation"), and the
   player is capped: rating >= 400, RD in [45, 500], volatility <= 0.1 (``toGlickoPlayer``);
2. both players are rated from those pre-game values by the paper's Steps 3-8 with tau 0.75 and
   *zero* elapsed periods in Step 6, so the game itself adds no deviation
   (``computeGame(..., skipDeviationIncrease = true)``);
3. the rating regulator multiplies gains by a per-category factor, and a human's change against a
   bot is halved (``RatingRegulator``) - both off by default here, see below;
4. the change is kept within +-700, the result is checked for sanity (else reset to a new
   player's 1500/500/0.09) and capped again (``PerfExt.addOrReset``);
5. the PGN's ``WhiteRatingDiff`` is trunc(new) - trunc(old), printed with "+" for 0 and above.

What this preset cannot know: Lichess's per-category gain factor is a live server setting
(``RatingFactor``, a runtime setting at lila @06b0a53e; a hard-coded table at lila @b97af467 had
bullet 1.015, blitz 1.005, rapid 1.015), so ``gain_factor`` defaults to 1 and is an option of
:func:`rate_game` and :func:`rate_games`; whether an opponent is a bot; and a player's exact
last-game time, which the caller gives as ``days_idle``.

The rating Lichess shows is the stored real number truncated, not the stored rating itself:
keep :attr:`LichessRating.rating` (a float) between games, and use ``int_rating`` only to show it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from chessrate.errors import InvalidInputError
from chessrate.systems.glicko import glicko2
from chessrate.systems.glicko import glicko2_steps as steps
from chessrate.systems.glicko.glicko1 import GlickoGame, check_finite, check_positive
from chessrate.systems.glicko.glicko2 import Glicko2Rating

#: scalachess ``model.scala``: ``Tau.default = 0.75d``; lila never overrides it.
TAU = 0.75
#: lila ``Glicko.scala``: ``val default = new Glicko(1500d, maxDeviation, defaultVolatility)``.
NEW_RATING = 1500.0
#: lila ``Glicko.scala``: ``maxDeviation = 500d`` (since lila PR #7309, 2020-09); the bulk engine's
#: largest RD too, held once in ``glicko2``.
MAX_DEVIATION = glicko2.MOST_DEVIATION
#: lila ``Glicko.scala``: ``defaultVolatility = 0.09d``.
NEW_VOLATILITY = 0.09
#: lila ``Glicko.scala``: ``minDeviation = 45``.
MIN_DEVIATION = 45.0
#: lila ``Glicko.scala``: ``maxVolatility = 0.1d`` ("past this, it might not stabilize ever again").
MAX_VOLATILITY = 0.1
#: lila ``Glicko.scala``: ``minRating = IntRating(400)`` (600 before lila PR #12488, 2023-03-07).
MIN_RATING = 400.0
#: lila ``Glicko.scala``: ``maxRatingDelta = 700``, applied in ``PerfExt.addOrReset``.
MAX_RATING_DELTA = 700.0
#: scalachess ``model.scala``: ``provisionalDeviation = 110``; provisional is ``deviation >= 110``.
PROVISIONAL_DEVIATION = 110.0
#: lila ``Glicko.scala``: ``ratingPeriodsPerDay = 0.21436`` ("Chosen so a typical player's RD goes
#: from 60 -> 110 in 1 year").
RATING_PERIODS_PER_DAY = 0.21436
#: lila ``Perf.scala`` ``sanityCheck``: 0 < rating < 4000, 0 < RD < 1000, 0 < volatility < 0.2.
SANE_RATING_BELOW = 4000.0
SANE_DEVIATION_BELOW = 1000.0
SANE_VOLATILITY_BELOW = 2 * MAX_VOLATILITY


@dataclass(frozen=True, slots=True)
class LichessRating(Glicko2Rating):
    """A Lichess rating (one category, e.g. blitz): a Glicko-2 rating whose defaults are lila's new
    player (1500, RD 500, volatility 0.09) rather than the paper's, with Lichess's display."""

    rating: float = NEW_RATING
    deviation: float = MAX_DEVIATION
    volatility: float = NEW_VOLATILITY

    @property
    def int_rating(self) -> int:
        """The rating Lichess shows: truncated (scalachess ``IntRating(rating.toInt)``)."""
        return math.trunc(self.rating)

    @property
    def provisional(self) -> bool:
        """Shown with "?": RD >= 110 (scalachess ``provisionalDeviation``)."""
        return self.deviation >= PROVISIONAL_DEVIATION

    @property
    def display(self) -> str:
        """As Lichess prints it: ``1741?`` while provisional, else ``1741``."""
        return f"{self.int_rating}{'?' if self.provisional else ''}"

    def capped(self) -> LichessRating:
        """lila ``Glicko.cap``: rating >= 400, RD in [45, 500], volatility <= 0.1."""
        return LichessRating(
            max(self.rating, MIN_RATING),
            min(max(self.deviation, MIN_DEVIATION), MAX_DEVIATION),
            min(self.volatility, MAX_VOLATILITY),
        )

    def is_sane(self) -> bool:
        """lila ``sanityCheck``; a result that fails it resets the player (``addOrReset``)."""
        return (
            0 < self.rating < SANE_RATING_BELOW
            and 0 < self.deviation < SANE_DEVIATION_BELOW
            and 0 < self.volatility < SANE_VOLATILITY_BELOW
        )


NEW_PLAYER = LichessRating()


def check_rating(field: str, value: float) -> float:
    """A Lichess rating as lila can hold one: from ``minRating`` 400 (``Glicko.scala``; every rating
    is capped there after each game) to below 4000 (``Perf.scala`` ``sanityCheck``). Anything else is
    not a Lichess rating, and rating it would report a change Lichess never gives (a loss that "gains"
    the 400 - R of the cap)."""
    if not MIN_RATING <= check_finite(value, field) < SANE_RATING_BELOW:
        raise InvalidInputError(
            field,
            value,
            "a Lichess rating is from 400 (lila's minRating) to below 4000 (lila's sanity check)",
            code="lichess-rating-bounds",
        )
    return value


def check_deviation(field: str, value: float) -> float:
    """A Lichess RD as lila holds one: from ``minDeviation`` 45 to ``maxDeviation`` 500."""
    if not MIN_DEVIATION <= check_finite(value, field) <= MAX_DEVIATION:
        raise InvalidInputError(
            field, value, "a Lichess RD is from 45 to 500 (lila's bounds)", code="lichess-deviation-bounds"
        )
    return value


@dataclass(frozen=True, slots=True)
class LichessSide:
    """One player's side of a rated game: before (as the game starts), after, and the PGN diff."""

    before: LichessRating
    after: LichessRating
    expected_score: float
    """E against the opponent as the update uses it (only the opponent's RD enters)."""
    reset: bool = False
    """True when the result failed lila's sanity check and the player was reset to a new one."""

    @property
    def rating_diff(self) -> int:
        """``WhiteRatingDiff``/``BlackRatingDiff``: trunc(new) - trunc(old)."""
        return rating_diff(self.before, self.after)

    @property
    def rating_diff_text(self) -> str:
        """The diff as the PGN prints it: ``+241``, ``-242``, ``+0``."""
        return format_rating_diff(self.rating_diff)


@dataclass(frozen=True, slots=True)
class LichessGame:
    """A rated game between two Lichess players."""

    white: LichessSide
    black: LichessSide


#: One game of a series: the opponent's rating and RD as they stood before that game.
OpponentGame = GlickoGame


def rating_diff(before: LichessRating, after: LichessRating) -> int:
    """lila ``PerfsUpdater``: ``ratingOf(next) - ratingOf(prev)`` with ``intRating`` truncated."""
    return after.int_rating - before.int_rating


def format_rating_diff(diff: int) -> str:
    """lila ``PgnDump``: ``s"${if (rd >= 0) "+" else ""}$rd"``, so zero prints as ``+0``."""
    return f"+{diff}" if diff >= 0 else str(diff)


def live_deviation(player: LichessRating, days: float) -> float:
    """The RD after ``days`` without games: lila ``Glicko.liveDeviation``.

    RD = clamp(173.7178 sqrt(phi^2 + days x 0.21436 x sigma^2), 45, 500).
    """
    if check_finite(days, "days idle") < 0:
        raise InvalidInputError("days idle", days, "cannot be negative", code="not-negative")
    phi = steps.pre_period_phi(
        steps.to_phi(player.deviation), player.volatility, days * RATING_PERIODS_PER_DAY
    )
    return min(max(steps.to_deviation(phi), MIN_DEVIATION), MAX_DEVIATION)


def after_idle(player: LichessRating, days: float) -> LichessRating:
    """The player as Lichess reads them after ``days`` idle: only the RD changes."""
    return replace(player, deviation=live_deviation(player, days))


def _rate_side(
    player: LichessRating,
    opponent_rating: float,
    opponent_deviation: float,
    score: float,
    *,
    gain_factor: float,
    against_bot: bool,
) -> LichessSide:
    """One side of one game, from the capped pre-game values of both players."""
    before = player.capped()
    opponent = LichessRating(opponent_rating, opponent_deviation).capped()
    mu, phi = steps.to_mu(before.rating), steps.to_phi(before.deviation)
    game = steps.Opponent(steps.to_mu(opponent.rating), steps.to_phi(opponent.deviation), score)
    # scalachess updateRatings: skipDeviationIncrease = true -> 0 elapsed periods in Step 6.
    update = steps.update(mu, phi, before.volatility, [game], tau=TAU, elapsed_periods=0.0)
    computed = LichessRating(steps.to_rating(update.mu), steps.to_deviation(update.phi), update.sigma)
    # RatingRegulator.regulate: gains only are multiplied by the category's factor.
    if gain_factor != 1.0 and computed.rating > before.rating:
        computed = replace(
            computed, rating=computed.rating + (computed.rating - before.rating) * (gain_factor - 1)
        )
    # RatingRegulator.apply: a human against a bot gets the average of after and before.
    if against_bot:
        computed = LichessRating(
            (computed.rating + before.rating) / 2,
            (computed.deviation + before.deviation) / 2,
            (computed.volatility + before.volatility) / 2,
        )
    # PerfExt.addOrReset: the change is kept within +-700 of the stored rating ...
    bounded = replace(
        computed,
        rating=min(max(computed.rating, player.rating - MAX_RATING_DELTA), player.rating + MAX_RATING_DELTA),
    )
    # ... then a result failing the sanity check resets the perf, else it is capped.
    reset = not bounded.is_sane()
    after = NEW_PLAYER if reset else bounded.capped()
    expected = steps.expected(mu, game.mu, game.phi)
    return LichessSide(before=player, after=after, expected_score=expected, reset=reset)


def rate_game(
    white: LichessRating,
    black: LichessRating,
    white_score: float,
    *,
    gain_factor: float = 1.0,
    white_is_bot: bool = False,
    black_is_bot: bool = False,
) -> LichessGame:
    """Rate one game as Lichess does; both players as they stand when the game starts.

    Give each player's RD as it is at game start (use :func:`after_idle` for the days since
    their previous game). ``gain_factor`` is Lichess's rating regulator factor for the category
    (unknown here: a server setting); ``*_is_bot`` halves a human's change against a bot.
    """
    if not 0.0 <= check_finite(white_score, "result") <= 1.0:
        raise InvalidInputError(
            "result", white_score, "a score is between 0 (loss) and 1 (win)", code="score-range"
        )
    check_positive(gain_factor, "gain factor")
    w, b = white.capped(), black.capped()
    return LichessGame(
        white=_rate_side(
            white,
            b.rating,
            b.deviation,
            white_score,
            gain_factor=gain_factor,
            against_bot=black_is_bot and not white_is_bot,
        ),
        black=_rate_side(
            black,
            w.rating,
            w.deviation,
            1.0 - white_score,
            gain_factor=gain_factor,
            against_bot=white_is_bot and not black_is_bot,
        ),
    )


def rate_games(
    player: LichessRating,
    games: Sequence[OpponentGame],
    *,
    days_idle: float = 0.0,
    gain_factor: float = 1.0,
) -> tuple[LichessSide, ...]:
    """Rate a player's games one after another as Lichess does, each game its own period.

    ``days_idle`` is the time since the player's previous game, before the first of these; the
    games follow each other without a pause. Each opponent is given as they stood before that
    game. Returns one side per game; the last ``after`` is the player's new rating.
    """
    check_positive(gain_factor, "gain factor")
    current = after_idle(player, days_idle)
    sides: list[LichessSide] = []
    for game in games:
        side = _rate_side(
            current,
            game.opponent_rating,
            game.opponent_deviation,
            game.score,
            gain_factor=gain_factor,
            against_bot=False,
        )
        sides.append(side)
        current = side.after
    return tuple(sides)
