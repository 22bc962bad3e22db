"""The calculator's modes: raw text in, the library's results out, problems kept per field.

The form and the JSON API both build these ``*Inputs`` (every value as the user typed it) and call
the same function, so they share one validation: :mod:`chessrate.parse` and the rating core.
Nothing here computes a rating: it parses, calls :mod:`chessrate.calculate` and friends, and says
which field was wrong.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Generic, TypeVar

from chessrate import glicko2, lichess
from chessrate.calculate import (
    AverageResult,
    Event,
    Game,
    PeriodResult,
    TournamentResult,
    rate_against_average,
    rate_game,
    rate_period,
    rate_tournament,
)
from chessrate.elo import logistic_performance
from chessrate.errors import InvalidInputError, RuleSetError
from chessrate.fide.k_factor import KFactor, PlayerProfile, apply_700_rule, fide_k_factor
from chessrate.fide.performance import InitialRating, Performance, fide_performance, initial_rating
from chessrate.fide.rules import FideRules, rules_in_force
from chessrate.glicko import GlickoGame
from chessrate.glicko2 import Glicko2Rating
from chessrate.lichess import LichessRating
from chessrate.parse import (
    parse_count,
    parse_date,
    parse_decimal,
    parse_k,
    parse_points,
    parse_rating,
    parse_score,
)
from chessrate.presets import resolve_rule_set, rule_set_from_toml
from chessrate.ruleset import CapMode, DifferenceCap, Expected, Rounding, RuleSet
from chessrate.web.problems import Path, Problems

RULE_SET_CHOICES = ("fide", "elo", "ciabe", "custom")
EXPECTED_CHOICES = ("rules", "table", "formula")
CAP_CHOICES = tuple(mode.value for mode in CapMode)
K_PRESETS = ("40", "20", "10")
ROUNDING_CHOICES = ("rules", "period", "tournament")
#: Most rows a list may have (a long Swiss has 15 rounds; a period of many events, more).
MAX_ROWS = 60
MAX_EVENTS = 12
#: Longest pasted club TOML accepted.
MAX_TOML = 20_000

T = TypeVar("T")


# --- what the user typed ------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ProfileInputs:
    """The player's profile for FIDE's K rules (all blank: unknown)."""

    birth_year: str = ""
    rated_games: str = ""
    highest_rating: str = ""


@dataclass(frozen=True, kw_only=True)
class OptionInputs(ProfileInputs):
    """The rule options beside every Elo calculation."""

    rules: str = "fide"
    as_of: str = ""
    rules_toml: str = ""
    expected: str = "rules"
    cap: str = "auto"
    #: Blank or ``rules``: K from the rule set; otherwise a number.
    k: str = ""


@dataclass(frozen=True, kw_only=True)
class GameRow:
    opponent: str = ""
    result: str = ""
    #: The opponent's rating deviation (Glicko only).
    deviation: str = ""

    @property
    def blank(self) -> bool:
        return not (self.opponent.strip() or self.result.strip() or self.deviation.strip())


@dataclass(frozen=True, kw_only=True)
class EloInputs:
    """What every Elo calculation has: your rating and the rule options."""

    rating: str = ""
    options: OptionInputs = field(default_factory=OptionInputs)


@dataclass(frozen=True, kw_only=True)
class GameInputs(EloInputs):
    opponent: str = ""
    result: str = ""


@dataclass(frozen=True, kw_only=True)
class AverageInputs(EloInputs):
    games: str = ""
    points: str = ""
    average: str = ""


@dataclass(frozen=True, kw_only=True)
class TournamentInputs(EloInputs):
    games: tuple[GameRow, ...] = ()
    #: True: the results are not given per game but as ``points`` in total ([CIABE]'s example).
    total: bool = False
    points: str = ""


@dataclass(frozen=True, kw_only=True)
class EventInputs:
    start_rating: str = ""
    games: tuple[GameRow, ...] = ()

    @property
    def blank(self) -> bool:
        return not self.start_rating.strip() and all(row.blank for row in self.games)


@dataclass(frozen=True, kw_only=True)
class PeriodInputs(EloInputs):
    events: tuple[EventInputs, ...] = ()
    rounding: str = "rules"


@dataclass(frozen=True, kw_only=True)
class KFactorInputs(ProfileInputs):
    rating: str = ""
    games_this_period: str = ""
    as_of: str = ""


@dataclass(frozen=True, kw_only=True)
class PerformanceInputs:
    games: tuple[GameRow, ...] = ()
    as_of: str = ""


# --- what the options resolve to ----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Options:
    rules: RuleSet
    day: dt.date
    k: int | None
    profile: PlayerProfile | None
    cap_mode: CapMode
    #: The 400-point rule of the rule set before the user's choice (to explain it).
    rule_set_cap: DifferenceCap | None


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """A calculation's result, or None with the problems that prevented it."""

    result: T | None
    problems: Problems
    options: Options | None = None


def resolve_options(inputs: OptionInputs, problems: Problems, *, today: dt.date) -> Options | None:
    day = _day(inputs.as_of, problems, today=today)
    rules = _rule_set(inputs, problems, day=day)
    expected = inputs.expected.strip().lower() or "rules"
    if expected not in EXPECTED_CHOICES:
        problems.add(("expected",), inputs.expected, "use rules, table or formula")
    cap_text = inputs.cap.strip().lower() or CapMode.AUTO.value
    cap_mode = CapMode(cap_text) if cap_text in CAP_CHOICES else None
    if cap_mode is None:
        problems.add(("cap",), inputs.cap, "use auto, on or off")
    k_text = inputs.k.strip()
    k = None if k_text.lower() in {"", "rules"} else problems.optional(("k",), k_text, parse_k)
    profile = profile_from(inputs, problems, today=today)
    if rules is None or cap_mode is None or day is None:
        return None
    if k is None and rules.k_policy is None and ("k",) not in problems.errors:
        problems.add(
            ("k",),
            k_text,
            f"the rule set {rules.name!r} needs K to be given",
            message=problems.t.gettext("This rule set has no rule for K: choose 40, 20, 10 or your own."),
        )
    if problems.errors:
        return None
    base_cap = rules.cap
    if expected in {"table", "formula"}:
        rules = rules.with_expected(Expected(expected))
    return Options(
        rules=rules.with_cap(cap_mode),
        day=day,
        k=k,
        profile=profile,
        cap_mode=cap_mode,
        rule_set_cap=base_cap,
    )


def _day(text: str, problems: Problems, *, today: dt.date) -> dt.date | None:
    if not text.strip():
        return today
    day = problems.optional(("as_of",), text, lambda value: parse_date(value, field="as_of"))
    if day is not None:
        # The rules must be known on that day (the first version is of 2014-07-01).
        known = problems.attempt(("as_of",), text, lambda: rules_in_force(day))
        return day if known is not None else None
    return None


def _rule_set(inputs: OptionInputs, problems: Problems, *, day: dt.date | None) -> RuleSet | None:
    choice = inputs.rules.strip().lower() or "fide"
    if choice == "custom":
        text = inputs.rules_toml
        if not text.strip():
            problems.missing.append(("rules_toml",))
            return None
        if len(text) > MAX_TOML:
            problems.add(("rules_toml",), text[:20], f"longer than {MAX_TOML} characters")
            return None
        try:
            return rule_set_from_toml(text, origin="club rules")
        except RuleSetError as error:
            problems.add(("rules_toml",), text[:20], error)
            return None
    if choice not in RULE_SET_CHOICES:
        problems.add(
            ("rules",),
            inputs.rules,
            "use fide, elo, ciabe or custom",
            message=problems.t.gettext("Choose a rule set from the list."),
        )
        return None
    if day is None:
        return None
    return problems.attempt(("rules",), choice, lambda: resolve_rule_set(choice, as_of=day))


def profile_from(inputs: ProfileInputs, problems: Problems, *, today: dt.date) -> PlayerProfile | None:
    """The player's profile for the K rules; None when nothing of it is given."""
    birth_year, rated_games, highest_rating = inputs.birth_year, inputs.rated_games, inputs.highest_rating
    if not (birth_year.strip() or rated_games.strip() or highest_rating.strip()):
        return None

    def year(text: str) -> int:
        value = parse_count(text, field="birth_year", minimum=1900)
        if value > today.year:
            raise InvalidInputError("birth_year", text, "a birth year cannot be in the future")
        return value

    highest = problems.optional(
        ("highest_rating",), highest_rating, lambda text: parse_rating(text, field="highest_rating")
    )
    return PlayerProfile(
        birth_year=problems.optional(("birth_year",), birth_year, year),
        rated_games=problems.optional(
            ("rated_games",), rated_games, lambda text: parse_count(text, field="rated_games")
        ),
        highest_rating=int(highest) if highest is not None else None,
    )


# --- the modes ----------------------------------------------------------------------------------


def _rating(problems: Problems, path: Path, text: str) -> Decimal | None:
    name = str(path[-1])
    return problems.parse(path, text, lambda value: parse_rating(value, field=name))


def one_game(inputs: GameInputs, problems: Problems, *, today: dt.date) -> Outcome[TournamentResult]:
    rating = _rating(problems, ("rating",), inputs.rating)
    opponent = _rating(problems, ("opponent",), inputs.opponent)
    score = problems.parse(("result",), inputs.result, parse_score)
    options = resolve_options(inputs.options, problems, today=today)
    if problems or rating is None or opponent is None or score is None or options is None:
        return Outcome(None, problems, options)
    result = problems.attempt(
        ("rating",),
        inputs.rating,
        lambda: rate_game(rating, opponent, score, rules=options.rules, k=options.k, profile=options.profile),
    )
    return Outcome(result, problems, options)


def against_average(inputs: AverageInputs, problems: Problems, *, today: dt.date) -> Outcome[AverageResult]:
    rating = _rating(problems, ("rating",), inputs.rating)
    games = problems.parse(("games",), inputs.games, lambda text: parse_count(text, field="games", minimum=1))
    points = None
    if games is not None:
        points = problems.parse(("points",), inputs.points, lambda text: parse_points(text, games=games))
    elif not inputs.points.strip():
        problems.missing.append(("points",))
    average = _rating(problems, ("average",), inputs.average)
    options = resolve_options(inputs.options, problems, today=today)
    if problems or rating is None or games is None or points is None or average is None or options is None:
        return Outcome(None, problems, options)
    result = problems.attempt(
        ("rating",),
        inputs.rating,
        lambda: rate_against_average(
            rating,
            games=games,
            points=points,
            average=average,
            rules=options.rules,
            k=options.k,
            profile=options.profile,
        ),
    )
    return Outcome(result, problems, options)


def _games(
    rows: tuple[GameRow, ...], problems: Problems, *, prefix: Path, with_results: bool
) -> list[Game] | None:
    """The games of the filled rows; blank rows are skipped; errors under ``prefix + (i, name)``."""
    if len(rows) > MAX_ROWS:
        problems.add(prefix, len(rows), f"at most {MAX_ROWS} games")
        return None
    games: list[Game] = []
    complete = True
    for index, row in enumerate(rows):
        if row.blank:
            continue
        opponent = _rating(problems, (*prefix, index, "opponent"), row.opponent)
        score = None
        if with_results:
            score = problems.parse((*prefix, index, "result"), row.result, parse_score)
        if opponent is None or (with_results and score is None):
            complete = False
            continue
        games.append(Game(opponent, score))
    if not games and complete:
        problems.missing.append((*prefix, 0, "opponent"))
    return games if complete and games else None


def tournament(inputs: TournamentInputs, problems: Problems, *, today: dt.date) -> Outcome[TournamentResult]:
    rating = _rating(problems, ("rating",), inputs.rating)
    games = _games(inputs.games, problems, prefix=("games",), with_results=not inputs.total)
    points = None
    if inputs.total:
        count = len(games) if games is not None else MAX_ROWS
        points = problems.parse(("points",), inputs.points, lambda text: parse_points(text, games=count))
    options = resolve_options(inputs.options, problems, today=today)
    if problems or rating is None or games is None or options is None:
        return Outcome(None, problems, options)
    result = problems.attempt(
        ("points",) if inputs.total else ("games",),
        inputs.points,
        lambda: rate_tournament(
            rating, games, rules=options.rules, k=options.k, profile=options.profile, points=points
        ),
    )
    return Outcome(result, problems, options)


def period(inputs: PeriodInputs, problems: Problems, *, today: dt.date) -> Outcome[PeriodResult]:
    rating = _rating(problems, ("rating",), inputs.rating)
    if len(inputs.events) > MAX_EVENTS:
        problems.add(("events",), len(inputs.events), f"at most {MAX_EVENTS} tournaments")
    events: list[Event] = []
    complete = True
    for index, event in enumerate(inputs.events[:MAX_EVENTS]):
        if event.blank:
            continue
        start = None
        if event.start_rating.strip():
            start = _rating(problems, ("events", index, "start_rating"), event.start_rating)
            complete = complete and start is not None
        games = _games(event.games, problems, prefix=("events", index, "games"), with_results=True)
        if games is None:
            complete = False
            continue
        events.append(Event(tuple(games), start_rating=start, name=str(index + 1)))
    if not events and complete:
        problems.missing.append(("events", 0, "games", 0, "opponent"))
    rounding = inputs.rounding.strip().lower() or "rules"
    if rounding not in ROUNDING_CHOICES:
        problems.add(("rounding",), inputs.rounding, "use rules, period or tournament")
    options = resolve_options(inputs.options, problems, today=today)
    if problems or rating is None or not complete or options is None:
        return Outcome(None, problems, options)
    rules = options.rules if rounding == "rules" else options.rules.with_rounding(Rounding(rounding))
    result = problems.attempt(
        ("events",),
        len(events),
        lambda: rate_period(rating, events, rules=rules, k=options.k, profile=options.profile),
    )
    return Outcome(result, problems, options)


@dataclass(frozen=True, kw_only=True)
class KFactorResult:
    rules: FideRules
    day: dt.date
    #: K by the rules, before the 700 rule.
    base: KFactor
    #: K after the 700 rule for the games of this period (the same as ``base`` when it does not bite).
    k: KFactor
    games_this_period: int | None

    @property
    def cut_by_700_rule(self) -> bool:
        return self.k.k != self.base.k


def k_factor(inputs: KFactorInputs, problems: Problems, *, today: dt.date) -> Outcome[KFactorResult]:
    rating = _rating(problems, ("rating",), inputs.rating)
    day = _day(inputs.as_of, problems, today=today)
    profile = profile_from(inputs, problems, today=today)
    games = problems.optional(
        ("games_this_period",),
        inputs.games_this_period,
        lambda text: parse_count(text, field="games_this_period"),
    )
    if problems or rating is None or day is None:
        return Outcome(None, problems)
    rules = rules_in_force(day)
    base = fide_k_factor(rating, profile, rules=rules, day=day)
    final = base if games is None else apply_700_rule(base, games, max_k_times_games=rules.max_k_times_games)
    return Outcome(KFactorResult(rules=rules, day=day, base=base, k=final, games_this_period=games), problems)


@dataclass(frozen=True, kw_only=True)
class PerformanceResult:
    rules: FideRules
    games: int
    points: Decimal
    opponents: tuple[Decimal, ...]
    fide: Performance
    logistic: float | None
    initial: InitialRating


def performance(
    inputs: PerformanceInputs, problems: Problems, *, today: dt.date
) -> Outcome[PerformanceResult]:
    day = _day(inputs.as_of, problems, today=today)
    games = _games(inputs.games, problems, prefix=("games",), with_results=True)
    if problems or games is None or day is None:
        return Outcome(None, problems)
    rules = rules_in_force(day)
    opponents = tuple(game.opponent for game in games)
    points = sum((game.score or Decimal(0) for game in games), Decimal(0))
    return Outcome(
        PerformanceResult(
            rules=rules,
            games=len(games),
            points=points,
            opponents=opponents,
            fide=fide_performance(opponents, points),
            logistic=logistic_performance(opponents, points),
            initial=initial_rating(opponents, points, rules=rules),
        ),
        problems,
    )


# --- Glicko-2 and Lichess -------------------------------------------------------------------------

GLICKO_SYSTEMS = ("lichess", "glicko2")


@dataclass(frozen=True, kw_only=True)
class GlickoInputs:
    #: ``lichess`` (each game its own period, lila's bounds) or ``glicko2`` (Glickman's paper).
    system: str = "lichess"
    rating: str = ""
    deviation: str = ""
    volatility: str = ""
    days_idle: str = ""
    tau: str = ""
    games: tuple[GameRow, ...] = ()


@dataclass(frozen=True, kw_only=True)
class GlickoOutcomeGame:
    opponent: float
    opponent_deviation: float
    score: float
    expected: float
    #: Lichess only: the rating after this game and the PGN's diff (``+241``).
    after: float | None = None
    diff: str | None = None


@dataclass(frozen=True, kw_only=True)
class GlickoResult:
    system: str
    before: Glicko2Rating | LichessRating
    after: Glicko2Rating | LichessRating
    games: tuple[GlickoOutcomeGame, ...]
    tau: float
    #: The RD at the start, after the days idle (Lichess) - equal to ``before.deviation`` otherwise.
    start_deviation: float
    #: The paper's v and Delta (Glicko-2 only).
    variance: float | None = None
    improvement: float | None = None

    @property
    def provisional(self) -> bool:
        """Lichess's "?" (RD >= 110, scalachess ``provisionalDeviation``); the paper has no such mark."""
        return self.system == "lichess" and self.after.deviation >= lichess.PROVISIONAL_DEVIATION


def _positive_number(field_name: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = parse_decimal(text, field=field_name)
        if value <= 0:
            raise InvalidInputError(field_name, text, "must be above zero")
        return float(value)

    return parse


def glicko(inputs: GlickoInputs, problems: Problems, *, today: dt.date) -> Outcome[GlickoResult]:
    del today  # Glicko ratings do not depend on the date
    system = inputs.system.strip().lower() or "lichess"
    if system not in GLICKO_SYSTEMS:
        problems.add(("system",), inputs.system, "use lichess or glicko2")
        return Outcome(None, problems)
    is_lichess = system == "lichess"
    default = (
        lichess.NEW_PLAYER
        if is_lichess
        else Glicko2Rating(glicko2.UNRATED_RATING, glicko2.UNRATED_DEVIATION, glicko2.UNRATED_VOLATILITY)
    )
    rating = problems.optional(("rating",), inputs.rating, lambda text: float(parse_rating(text)))
    deviation = problems.optional(("deviation",), inputs.deviation, _positive_number("deviation"))
    volatility = problems.optional(("volatility",), inputs.volatility, _positive_number("volatility"))
    tau = problems.optional(("tau",), inputs.tau, _positive_number("tau"))
    days = problems.optional(
        ("days_idle",), inputs.days_idle, lambda text: float(parse_count_or_fraction(text, "days_idle"))
    )
    rows: list[GlickoGame] = []
    for index, row in enumerate(inputs.games[:MAX_ROWS]):
        if row.blank:
            continue
        opponent = _rating(problems, ("games", index, "opponent"), row.opponent)
        opponent_rd = problems.parse(
            ("games", index, "deviation"), row.deviation, _positive_number("deviation")
        )
        score = problems.parse(("games", index, "result"), row.result, parse_score)
        if opponent is not None and opponent_rd is not None and score is not None:
            rows.append(GlickoGame(float(opponent), opponent_rd, float(score)))
    if not rows and not problems:
        problems.missing.append(("games", 0, "opponent"))
    if problems:
        return Outcome(None, problems)
    start_rating = rating if rating is not None else default.rating
    start_rd = deviation if deviation is not None else default.deviation
    start_vol = volatility if volatility is not None else default.volatility
    if is_lichess:
        player = LichessRating(start_rating, start_rd, start_vol)
        sides = problems.attempt(
            ("rating",), inputs.rating, lambda: lichess.rate_games(player, rows, days_idle=days or 0.0)
        )
        if sides is None:
            return Outcome(None, problems)
        games = tuple(
            GlickoOutcomeGame(
                opponent=row.opponent_rating,
                opponent_deviation=row.opponent_deviation,
                score=row.score,
                expected=side.expected_score,
                after=side.after.rating,
                diff=side.rating_diff_text,
            )
            for row, side in zip(rows, sides, strict=True)
        )
        result = GlickoResult(
            system=system,
            before=player,
            after=sides[-1].after,
            games=games,
            tau=lichess.TAU,
            start_deviation=sides[0].before.deviation,
        )
        return Outcome(result, problems)
    paper_player = Glicko2Rating(start_rating, start_rd, start_vol)
    chosen_tau = tau if tau is not None else glicko2.DEFAULT_TAU
    period_result = problems.attempt(
        ("games",), len(rows), lambda: glicko2.rate_period(paper_player, rows, tau=chosen_tau)
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
    return Outcome(
        GlickoResult(
            system=system,
            before=paper_player,
            after=period_result.after,
            games=games,
            tau=chosen_tau,
            start_deviation=start_rd,
            variance=period_result.estimated_variance,
            improvement=period_result.estimated_improvement,
        ),
        problems,
    )


def parse_count_or_fraction(text: str, field_name: str) -> Decimal:
    """Days: a number of 0 or more, fractions allowed (Lichess counts to the millisecond)."""
    value = parse_decimal(text, field=field_name)
    if value < 0:
        raise InvalidInputError(field_name, text, "cannot be negative")
    return value
