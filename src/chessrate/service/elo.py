"""The Elo calculations as users ask for them: text in, the library's results out, problems per field.

The command line, the web form and the JSON API all build these ``*Inputs`` (every value as the
user typed it) and call the same function, so they share one validation: :mod:`chessrate.parse`
and the rating core. Nothing here computes a rating: it parses, calls :mod:`chessrate.systems.elo.calculate`
and :mod:`chessrate.systems.fide`, and says which field was wrong.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from chessrate.errors import InvalidInputError
from chessrate.parse import MAX_GAMES, parse_count, parse_points, parse_score
from chessrate.service.options import (
    OptionInputs,
    Outcome,
    ProfileInputs,
    one_of,
    profile_from,
    read_rating,
    resolve_day,
    resolve_options,
)
from chessrate.service.problems import Path, Problems
from chessrate.systems.elo.calculate import (
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
from chessrate.systems.elo.rating import logistic_performance
from chessrate.systems.elo.ruleset import FIDE_LISTS, Rounding, fide_rule_set
from chessrate.systems.fide.k_factor import KFactor, PlayerProfile, apply_700_rule, fide_k_factor
from chessrate.systems.fide.performance import InitialRating, Performance, fide_performance, initial_rating
from chessrate.systems.fide.regulations import FideRules, rules_in_force

ROUNDING_CHOICES = ("rules", "period", "tournament")
#: Most rows a list may have (a long Swiss has 15 rounds; a period of many events, more).
MAX_ROWS = 60
MAX_EVENTS = 12


def too_many_rows(path: Path, count: int) -> InvalidInputError:
    """More game rows than a form or a request may have (:data:`MAX_ROWS`)."""
    return InvalidInputError(
        str(path[-1]), count, f"at most {MAX_ROWS} games", code="too-many-rows", params={"maximum": MAX_ROWS}
    )


@dataclass(kw_only=True)
class GameRow:
    opponent: str = ""
    result: str = ""
    #: The opponent's rating deviation (Glicko only).
    deviation: str = ""

    @property
    def blank(self) -> bool:
        return not (self.opponent.strip() or self.result.strip() or self.deviation.strip())


@dataclass(kw_only=True)
class EloInputs:
    """What every Elo calculation has: your rating and the rule options."""

    rating: str = ""
    options: OptionInputs = field(default_factory=OptionInputs)


@dataclass(kw_only=True)
class GameInputs(EloInputs):
    opponent: str = ""
    result: str = ""


@dataclass(kw_only=True)
class AverageInputs(EloInputs):
    games: str = ""
    points: str = ""
    average: str = ""


@dataclass(kw_only=True)
class TournamentInputs(EloInputs):
    games: tuple[GameRow, ...] = ()
    #: True: the results are not given per game but as ``points`` in total.
    total: bool = False
    points: str = ""


@dataclass(kw_only=True)
class EventInputs:
    start_rating: str = ""
    games: tuple[GameRow, ...] = ()

    @property
    def blank(self) -> bool:
        return not self.start_rating.strip() and all(row.blank for row in self.games)


@dataclass(kw_only=True)
class PeriodInputs(EloInputs):
    events: tuple[EventInputs, ...] = ()
    rounding: str = "rules"


@dataclass(kw_only=True)
class KFactorInputs(ProfileInputs):
    rating: str = ""
    games_this_period: str = ""
    as_of: str = ""
    #: FIDE's list: ``fide`` (standard), ``fide-rapid`` or ``fide-blitz``.
    rules: str = "fide"


@dataclass(kw_only=True)
class PerformanceInputs:
    games: tuple[GameRow, ...] = ()
    as_of: str = ""
    #: FIDE's list: ``fide`` (standard), ``fide-rapid`` or ``fide-blitz``.
    rules: str = "fide"
    #: Rapid and blitz 7.2.1: the unrated player's standard rating, to be rated from (blank: none).
    standard_rating: str = ""


# --- what the options resolve to ----------------------------------------------------------------

# --- the modes ----------------------------------------------------------------------------------


def one_game(inputs: GameInputs, problems: Problems, *, today: dt.date) -> Outcome[TournamentResult]:
    rating = read_rating(problems, ("rating",), inputs.rating)
    opponent = read_rating(problems, ("opponent",), inputs.opponent)
    score = problems.parse(("result",), inputs.result, parse_score)
    options = resolve_options(inputs.options, problems, today=today)
    if problems or rating is None or opponent is None or score is None or options is None:
        return Outcome(None, problems, options)
    result = problems.attempt(
        ("rating",),
        inputs.rating,
        lambda: rate_game(rating, opponent, score, rules=options.rules, k=options.k, profile=options.profile),
        fields=("opponent",),
    )
    return Outcome(result, problems, options)


def against_average(inputs: AverageInputs, problems: Problems, *, today: dt.date) -> Outcome[AverageResult]:
    rating = read_rating(problems, ("rating",), inputs.rating)
    games = problems.parse(
        ("games",), inputs.games, lambda text: parse_count(text, field="games", minimum=1, maximum=MAX_GAMES)
    )
    points = None
    if games is not None:
        points = problems.parse(("points",), inputs.points, lambda text: parse_points(text, games=games))
    elif not inputs.points.strip():
        problems.missing.append(("points",))
    average = read_rating(problems, ("average",), inputs.average)
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
        fields=("average",),
    )
    return Outcome(result, problems, options)


def _games(
    rows: tuple[GameRow, ...], problems: Problems, *, prefix: Path, with_results: bool
) -> list[Game] | None:
    """The games of the filled rows; blank rows are skipped; errors under ``prefix + (i, name)``."""
    if len(rows) > MAX_ROWS:
        problems.add(prefix, len(rows), too_many_rows(prefix, len(rows)))
        return None
    games: list[Game] = []
    complete = True
    for index, row in enumerate(rows):
        if row.blank:
            continue
        opponent = read_rating(problems, (*prefix, index, "opponent"), row.opponent)
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
    rating = read_rating(problems, ("rating",), inputs.rating)
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
    rating = read_rating(problems, ("rating",), inputs.rating)
    if len(inputs.events) > MAX_EVENTS:
        problems.add(
            ("events",),
            len(inputs.events),
            InvalidInputError(
                "events",
                len(inputs.events),
                f"at most {MAX_EVENTS} tournaments",
                code="too-many-events",
                params={"maximum": MAX_EVENTS},
            ),
        )
    events: list[Event] = []
    complete = True
    for index, event in enumerate(inputs.events[:MAX_EVENTS]):
        if event.blank:
            continue
        start = None
        if event.start_rating.strip():
            start = read_rating(problems, ("events", index, "start_rating"), event.start_rating)
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
        problems.add(("rounding",), inputs.rounding, one_of("rounding", inputs.rounding, ROUNDING_CHOICES))
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


@dataclass(kw_only=True)
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
    rating = read_rating(problems, ("rating",), inputs.rating)
    day = resolve_day(inputs.as_of, problems, today=today)
    profile = profile_from(inputs, problems, today=today)
    games = problems.optional(
        ("games_this_period",),
        inputs.games_this_period,
        lambda text: parse_count(text, field="games_this_period", maximum=MAX_GAMES),
    )
    name = _fide_list(inputs.rules, problems)
    if problems or rating is None or day is None or name is None:
        return Outcome(None, problems)
    rules = problems.attempt(("rules",), inputs.rules, lambda: rules_in_force(day, FIDE_LISTS[name]))
    if rules is None:
        return Outcome(None, problems)
    base = fide_k_factor(rating, profile, rules=rules, day=day)
    final = base if games is None else apply_700_rule(base, games, max_k_times_games=rules.max_k_times_games)
    return Outcome(KFactorResult(rules=rules, day=day, base=base, k=final, games_this_period=games), problems)


def _fide_list(text: str, problems: Problems) -> str | None:
    """The name of FIDE's list a ``rules`` field gives (a key of ``FIDE_LISTS``: ``fide``,
    ``fide-rapid``, ``fide-blitz``; blank: ``fide``, standard)."""
    name = text.strip().lower() or "fide"
    if name not in FIDE_LISTS:
        problems.add(("rules",), text, one_of("rules", text, tuple(FIDE_LISTS)))
        return None
    return name


@dataclass(kw_only=True)
class PerformanceResult:
    rules: FideRules
    games: int
    points: Decimal
    opponents: tuple[Decimal, ...]
    fide: Performance
    logistic: float | None
    initial: InitialRating
    #: Rapid and blitz 7.2.1: the games rated from the player's standard rating (None: not given).
    rated_from_standard: TournamentResult | None = None


def performance(
    inputs: PerformanceInputs, problems: Problems, *, today: dt.date
) -> Outcome[PerformanceResult]:
    day = resolve_day(inputs.as_of, problems, today=today)
    games = _games(inputs.games, problems, prefix=("games",), with_results=True)
    name = _fide_list(inputs.rules, problems)
    standard = None
    if inputs.standard_rating.strip():
        standard = read_rating(problems, ("standard_rating",), inputs.standard_rating)
    if problems or games is None or day is None or name is None:
        return Outcome(None, problems)
    rules = problems.attempt(("rules",), inputs.rules, lambda: rules_in_force(day, FIDE_LISTS[name]))
    if rules is None:
        return Outcome(None, problems)
    rated = None
    if standard is not None:
        if not rules.standard_rating_for_unrated:
            problems.add(
                ("standard_rating",),
                inputs.standard_rating,
                InvalidInputError(
                    "standard_rating",
                    inputs.standard_rating,
                    "a standard rating counts only for a rapid or blitz tournament from 1 March 2024 "
                    "(FIDE rapid and blitz 7.2.1)",
                    code="standard-rating-rapid-only",
                ),
            )
            return Outcome(None, problems)
        # 7.2.1: "their standard rating is used for rating calculation. Such a player is considered to
        # be rated": new to the list, so K 40 until 30 games (8.3.3; docs/fide.md, "Rapid and blitz").
        rated = problems.attempt(
            ("standard_rating",),
            inputs.standard_rating,
            lambda: rate_tournament(
                standard,
                games,
                rules=fide_rule_set(rules, day=day, name=name),
                profile=PlayerProfile(rated_games=0),
            ),
        )
        if rated is None:
            return Outcome(None, problems)
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
            rated_from_standard=rated,
        ),
        problems,
    )
