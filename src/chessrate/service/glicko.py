"""Glicko as the faces ask for it: Lichess's sessions, one period of Glickman's Glicko-2 paper, or
one period of his Glicko (Glicko-1) paper.

Text in, the library's results out, problems kept per field, as in :mod:`chessrate.service.elo`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from chessrate.errors import InvalidInputError, RatingError
from chessrate.parse import MAX_RATING, MIN_RATING, parse_decimal, parse_in_range, parse_rating, parse_score
from chessrate.service.elo import MAX_ROWS, GameRow, too_many_rows
from chessrate.service.options import Outcome
from chessrate.service.problems import Problems
from chessrate.systems.glicko import glicko1 as glicko_one_period
from chessrate.systems.glicko import glicko2, lichess
from chessrate.systems.glicko.glicko1 import GlickoGame, GlickoRating
from chessrate.systems.glicko.glicko2 import Glicko2Rating
from chessrate.systems.glicko.lichess import LichessRating, LichessSide

GLICKO_SYSTEMS = ("lichess", "glicko2")

#: How a rating field's hint names a Glicko rating (the bounds: :func:`chessrate.parse.parse_rating`'s).
GLICKO_SCALE = "Glicko"


@dataclass(kw_only=True)
class GlickoInputs:
    #: ``lichess`` (each game its own period, lila's bounds) or ``glicko2`` (Glickman's paper).
    system: str = "lichess"
    rating: str = ""
    deviation: str = ""
    volatility: str = ""
    days_idle: str = ""
    tau: str = ""
    #: Lichess's rating-gain factor (a server setting; blank: 1, none).
    gain_factor: str = ""
    games: tuple[GameRow, ...] = ()


@dataclass(kw_only=True)
class GlickoOutcomeGame:
    opponent: float
    opponent_deviation: float
    score: float
    expected: float
    #: Lichess only: this player's side of the game as lila rates it, before and after.
    side: LichessSide | None = None


@dataclass(kw_only=True)
class GlickoResult:
    system: str
    before: Glicko2Rating | LichessRating
    after: Glicko2Rating | LichessRating
    games: tuple[GlickoOutcomeGame, ...]
    tau: float
    #: The RD at the start, after the days idle (Lichess) - equal to ``before.deviation`` otherwise.
    start_deviation: float
    #: Lichess's rating-gain factor applied (1.0 for the paper).
    gain_factor: float = 1.0
    #: The paper's v and Delta (Glicko-2 only).
    variance: float | None = None
    improvement: float | None = None

    @property
    def provisional(self) -> bool:
        """Lichess's "?" (RD >= 110, scalachess ``provisionalDeviation``); the paper has no such mark,
        so it is always False for the paper (the key is there so that both modes have it)."""
        return self.system == "lichess" and self.after.deviation >= lichess.PROVISIONAL_DEVIATION


# The bounds of what a user may type for Glicko, one parser for every face and mode (docs/glicko.md,
# "Bounds of the values typed"): chessrate.systems.glicko.glicko2's, which the bulk engine keeps too.
# The largest RD is each system's own; tau's 0.3-1.2 is the paper's range (Glickman, "Example of
# the Glicko-2 system", Step 1); the least RD and the volatility's range are ours (the papers give
# none), far beyond every published value.


def positive(field_name: str) -> Callable[[str], float]:
    """A number above zero (Lichess's gain factor)."""

    def parse(text: str) -> float:
        value = parse_decimal(text, field=field_name)
        if value <= 0:
            raise InvalidInputError(field_name, text, "must be above zero", code="above-zero")
        return float(value)

    return parse


def bounded(field_name: str, minimum: Decimal, maximum: Decimal | None = None) -> Callable[[str], float]:
    """A number from ``minimum`` to ``maximum``, as a float for the Glicko core."""
    return lambda text: float(parse_in_range(text, field=field_name, minimum=minimum, maximum=maximum))


def most_deviation(system: str) -> float:
    """The largest RD of a system: Lichess's maxDeviation 500; the papers' (and the Chess.com
    estimate's) 350, an unrated player's (Glickman, "The Glicko system", Step 1: RD = min(..., 350))."""
    return lichess.MAX_DEVIATION if system == "lichess" else glicko_one_period.MAX_DEVIATION


def _rating(system: str, field_name: str) -> Callable[[str], float]:
    """A rating typed for ``system``: Lichess's within lila's bounds (400 to below 4000)."""
    if system == "lichess":
        return lambda text: lichess.check_rating(field_name, float(parse_rating(text, field=field_name)))
    return lambda text: float(parse_rating(text, field=field_name))


def deviation(system: str, field_name: str = "deviation") -> Callable[[str], float]:
    """An RD typed for ``system`` (``lichess``, ``glicko2``, ``glicko``, ``chesscom``)."""
    # Lichess: lila's minDeviation 45 too; an RD below it is never held (Glicko.scala).
    least = lichess.MIN_DEVIATION if system == "lichess" else glicko2.LEAST_DEVIATION
    return bounded(field_name, _decimal(least), _decimal(most_deviation(system)))


def volatility(field_name: str = "volatility") -> Callable[[str], float]:
    """A Glicko-2 volatility typed (Lichess caps it at 0.1 itself, as lila does)."""
    return bounded(field_name, _decimal(glicko2.LEAST_VOLATILITY), _decimal(glicko2.MOST_VOLATILITY))


def tau(field_name: str = "tau") -> Callable[[str], float]:
    """Glicko-2's tau, within the paper's "reasonable choices" (glicko2.pdf, Step 1)."""
    return bounded(field_name, _decimal(glicko2.LEAST_TAU), _decimal(glicko2.MOST_TAU))


def _decimal(value: float) -> Decimal:
    """A bound as written in its source: 350, 0.3 (not 350.0)."""
    return Decimal(int(value)) if value.is_integer() else Decimal(str(value))


#: Glickman's unrated player, the paper's defaults (glicko2.pdf, Step 1): 1500, RD 350, volatility 0.06.
PAPER_NEW_PLAYER = Glicko2Rating(
    glicko2.UNRATED_RATING, glicko2.UNRATED_DEVIATION, glicko2.UNRATED_VOLATILITY
)


@dataclass(frozen=True, kw_only=True)
class GlickoPlayer:
    """A Glicko-2 player as typed: None where blank (or wrong, the problem kept)."""

    rating: float | None
    deviation: float | None
    volatility: float | None

    def start(self, default: Glicko2Rating | LichessRating) -> tuple[float, float, float]:
        """Rating, RD and volatility, the ``default`` player's where not typed."""
        return (
            default.rating if self.rating is None else self.rating,
            default.deviation if self.deviation is None else self.deviation,
            default.volatility if self.volatility is None else self.volatility,
        )


def read_glicko2_player(
    problems: Problems,
    rating: str,
    deviation_text: str,
    volatility_text: str,
    *,
    system: str = "glicko2",
    side: str = "",
    required: bool = False,
    hints: Mapping[str, str] | None = None,
) -> GlickoPlayer:
    """The one reader of a Glicko-2 player's fields (Lichess's or the paper's), for the calculator
    and the points at stake. ``side``: ``""`` for the player (``rating``, ``deviation``,
    ``volatility``), ``"opponent"`` for the opponent (``opponent``, ``opponent_deviation``...).
    ``required``: the rating must be given; ``hints``: what to type, by field name."""
    name = side or "rating"
    prefix = f"{side}_" if side else ""
    parse = problems.parse if required else problems.optional
    return GlickoPlayer(
        rating=parse((name,), rating, _rating(system, name)),
        deviation=_optional(
            problems, f"{prefix}deviation", deviation_text, deviation(system, f"{prefix}deviation"), hints
        ),
        volatility=_optional(
            problems, f"{prefix}volatility", volatility_text, volatility(f"{prefix}volatility"), hints
        ),
    )


def _optional(
    problems: Problems, name: str, text: str, parser: Callable[[str], float], hints: Mapping[str, str] | None
) -> float | None:
    """``problems.optional`` with the field's hint, if any."""
    if not text.strip():
        return None
    try:
        return parser(text)
    except RatingError as error:
        problems.add((name,), text, error, hint=(hints or {}).get(name))
        return None


def glicko(
    inputs: GlickoInputs, problems: Problems, *, today: dt.date, idle_allowed: bool = False
) -> Outcome[GlickoResult]:
    """``idle_allowed``: no game is an idle period (the command line); else a game is asked for."""
    del today  # Glicko ratings do not depend on the date
    system = inputs.system.strip().lower() or "lichess"
    if system not in GLICKO_SYSTEMS:
        problems.add(
            ("system",),
            inputs.system,
            InvalidInputError(
                "system",
                inputs.system,
                "use lichess or glicko2",
                code="one-of",
                params={"choices": "lichess, glicko2"},
            ),
        )
        return Outcome(None, problems)
    problems.rating_scale = (GLICKO_SCALE, int(MIN_RATING), int(MAX_RATING))
    typed = read_glicko2_player(problems, inputs.rating, inputs.deviation, inputs.volatility, system=system)
    chosen = problems.optional(("tau",), inputs.tau, tau())
    gain = problems.optional(("gain_factor",), inputs.gain_factor, positive("gain_factor"))
    days = problems.optional(
        ("days_idle",), inputs.days_idle, lambda text: float(parse_count_or_fraction(text, "days_idle"))
    )
    rows = _games(inputs.games, problems, system=system)
    if not rows and not problems and not idle_allowed:
        problems.missing.append(("games", 0, "opponent"))
    if problems:
        return Outcome(None, problems)
    if system == "lichess":
        player = LichessRating(*typed.start(lichess.NEW_PLAYER))
        return _lichess(player, rows, problems, days=days or 0.0, gain=gain or 1.0, typed=inputs.rating)
    paper_player = Glicko2Rating(*typed.start(PAPER_NEW_PLAYER))
    return _paper(paper_player, rows, problems, tau=chosen if chosen is not None else glicko2.DEFAULT_TAU)


def _lichess(
    player: LichessRating, rows: list[GlickoGame], problems: Problems, *, days: float, gain: float, typed: str
) -> Outcome[GlickoResult]:
    """Lichess: each game its own rating period (lila's Glicko-2), after ``days`` idle."""
    sides = problems.attempt(
        ("rating",), typed, lambda: lichess.rate_games(player, rows, days_idle=days, gain_factor=gain)
    )
    if sides is None:
        return Outcome(None, problems)
    if not sides:  # an idle period: only the RD grows
        idle = lichess.after_idle(player, days)
        result = GlickoResult(
            system="lichess",
            before=player,
            after=idle,
            games=(),
            tau=lichess.TAU,
            gain_factor=gain,
            start_deviation=idle.deviation,
        )
        return Outcome(result, problems)
    games = tuple(
        GlickoOutcomeGame(
            opponent=row.opponent_rating,
            opponent_deviation=row.opponent_deviation,
            score=row.score,
            expected=side.expected_score,
            side=side,
        )
        for row, side in zip(rows, sides, strict=True)
    )
    result = GlickoResult(
        system="lichess",
        before=player,
        after=sides[-1].after,
        games=games,
        tau=lichess.TAU,
        gain_factor=gain,
        start_deviation=sides[0].before.deviation,
    )
    return Outcome(result, problems)


def _paper(
    player: Glicko2Rating, rows: list[GlickoGame], problems: Problems, *, tau: float
) -> Outcome[GlickoResult]:
    """One rating period of Glickman's Glicko-2 paper (glicko2.pdf, Steps 1 to 8)."""
    period_result = problems.attempt(
        ("games",), len(rows), lambda: glicko2.rate_period(player, rows, tau=tau)
    )
    if period_result is None:
        return Outcome(None, problems)
    games = tuple(
        GlickoOutcomeGame(
            opponent=row.opponent_rating,
            opponent_deviation=row.opponent_deviation,
            score=row.score,
            expected=e,
        )
        for row, e in zip(rows, period_result.expected_scores, strict=True)
    )
    result = GlickoResult(
        system="glicko2",
        before=player,
        after=period_result.after,
        games=games,
        tau=tau,
        start_deviation=player.deviation,
        variance=period_result.estimated_variance,
        improvement=period_result.estimated_improvement,
    )
    return Outcome(result, problems)


@dataclass(kw_only=True)
class GlickoOneInputs:
    """One rating period of Glickman's Glicko (Glicko-1) paper: rating and RD are needed."""

    rating: str = ""
    deviation: str = ""
    #: Step 1's constant c, or ``FROM:TO:N``: the c that takes an RD from FROM to TO in N periods.
    c: str = ""
    #: The paper's t, periods since the last one played (needs c); blank: 1.
    periods_idle: str = ""
    #: A floor for the new RD (Glickman advises one; the published steps have none).
    min_deviation: str = ""
    #: None: an idle period.
    games: tuple[GameRow, ...] = ()


@dataclass(kw_only=True)
class GlickoOneResult:
    period: glicko_one_period.GlickoResult
    c: float | None
    games: tuple[GlickoGame, ...]


def glicko_one(inputs: GlickoOneInputs, problems: Problems) -> Outcome[GlickoOneResult]:
    """Glicko-1 for one rating period, Steps 1 and 2 of "The Glicko system" [GLICKO]."""
    problems.rating_scale = (GLICKO_SCALE, int(MIN_RATING), int(MAX_RATING))
    rating = problems.parse(("rating",), inputs.rating, lambda text: float(parse_rating(text)))
    rd = problems.parse(("deviation",), inputs.deviation, deviation("glicko"))
    c = problems.optional(("c",), inputs.c, _constant_c)
    periods = problems.optional(
        ("periods_idle",),
        inputs.periods_idle,
        lambda text: float(parse_count_or_fraction(text, "periods_idle")),
    )
    if periods is not None and c is None and not inputs.c.strip():
        problems.add(
            ("c",),
            "",
            InvalidInputError(
                "c", "", "periods idle grow the RD by c for each period: give c", code="c-for-idle-periods"
            ),
        )
    # A floor for the new RD: at least our least RD, at most Step 1's cap of 350 (a floor above
    # the cap would hold every RD at the floor). Glickman's suggestion, 30, and lila's 45 lie within.
    floor = problems.optional(("min_deviation",), inputs.min_deviation, deviation("glicko", "min_deviation"))
    rows = _games(inputs.games, problems, system="glicko")
    if problems or rating is None or rd is None:
        return Outcome(None, problems)
    player = GlickoRating(rating, rd)
    period = problems.attempt(
        ("games",),
        len(rows),
        lambda: glicko_one_period.rate_period(
            player, rows, c=c, periods=periods if periods is not None else 1.0, min_deviation=floor
        ),
    )
    if period is None:
        return Outcome(None, problems)
    return Outcome(GlickoOneResult(period=period, c=c, games=tuple(rows)), problems)


def _constant_c(text: str) -> float:
    """c as a number, or ``FROM:TO:N`` (glicko.pdf Step 1: 50:350:100 gives 34.6)."""
    parts = text.split(":")
    if len(parts) == 1:
        return float(parse_count_or_fraction(text, "c"))
    if len(parts) != 3:
        raise InvalidInputError(
            "c", text, "c is a number, or FROM:TO:N (RD from FROM to TO in N periods)", code="c-growth"
        )
    low, high = (deviation("glicko", "c")(part) for part in parts[:2])
    count = float(parse_in_range(parts[2], field="c", minimum=Decimal(1)))
    return glicko_one_period.c_for_growth(low, high, count)


def _games(rows: tuple[GameRow, ...], problems: Problems, *, system: str) -> list[GlickoGame]:
    """The games that are filled in, each field checked; more rows than :data:`MAX_ROWS` are refused."""
    games: list[GlickoGame] = []
    if len(rows) > MAX_ROWS:
        problems.add(("games",), len(rows), too_many_rows(("games",), len(rows)))
        return games
    for index, row in enumerate(rows):
        if row.blank:
            continue
        path = ("games", index, "opponent")
        opponent = problems.parse(path, row.opponent, _rating(system, "opponent"))
        opponent_rd = problems.parse(("games", index, "deviation"), row.deviation, deviation(system))
        score = problems.parse(("games", index, "result"), row.result, parse_score)
        if opponent is not None and opponent_rd is not None and score is not None:
            games.append(GlickoGame(float(opponent), opponent_rd, float(score)))
    return games


def parse_count_or_fraction(text: str, field_name: str) -> Decimal:
    """Days: a number of 0 or more, fractions allowed (Lichess counts to the millisecond)."""
    value = parse_decimal(text, field=field_name)
    if value < 0:
        raise InvalidInputError(field_name, text, "cannot be negative", code="not-negative")
    return value


@dataclass(kw_only=True, eq=False)
class GlickoGameDocument:
    opponent: float
    opponent_deviation: float
    score: float
    expected: float
    #: ``opponent`` and ``expected`` again, by the names ``glicko2 --json`` gave them before it
    #: printed this document.
    opponent_rating: float
    expected_score: float
    rating_after: float | None
    #: Lichess: the PGN's diff as a number, trunc(new) - trunc(old): 241, -242, 0.
    rating_diff: int | None
    #: The same as the PGN prints it: "+241", "-242", "+0".
    rating_diff_text: str | None
    #: Lichess: this player's side before and after the game (each game its own period), and
    #: whether lila's sanity check reset the player to a new one.
    rating_before: float | None = None
    deviation_before: float | None = None
    deviation_after: float | None = None
    volatility_after: float | None = None
    reset: bool | None = None


@dataclass(kw_only=True, eq=False)
class GlickoDocument:
    system: str
    rating: float
    deviation: float
    volatility: float
    provisional: bool
    tau: float
    #: Lichess: the rating-gain factor applied (1.0: none).
    gain_factor: float
    start_deviation: float
    estimated_variance: float | None
    estimated_improvement: float | None
    #: Lichess: the rating as Lichess prints it, "1741?" while provisional.
    display: str | None
    games: list[GlickoGameDocument]


def glicko_document(result: GlickoResult) -> GlickoDocument:
    return GlickoDocument(
        system=result.system,
        rating=result.after.rating,
        deviation=result.after.deviation,
        volatility=result.after.volatility,
        provisional=result.provisional,
        tau=result.tau,
        gain_factor=result.gain_factor,
        start_deviation=result.start_deviation,
        estimated_variance=result.variance,
        estimated_improvement=result.improvement,
        display=result.after.display if isinstance(result.after, LichessRating) else None,
        games=[_game_document(g) for g in result.games],
    )


def _game_document(game: GlickoOutcomeGame) -> GlickoGameDocument:
    side = game.side
    return GlickoGameDocument(
        opponent=game.opponent,
        opponent_deviation=game.opponent_deviation,
        score=game.score,
        expected=game.expected,
        opponent_rating=game.opponent,
        expected_score=game.expected,
        rating_after=side.after.rating if side else None,
        rating_diff=side.rating_diff if side else None,
        rating_diff_text=side.rating_diff_text if side else None,
        rating_before=side.before.rating if side else None,
        deviation_before=side.before.deviation if side else None,
        deviation_after=side.after.deviation if side else None,
        volatility_after=side.after.volatility if side else None,
        reset=side.reset if side else None,
    )
