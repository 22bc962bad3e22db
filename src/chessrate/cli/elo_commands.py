"""Elo and FIDE commands: game, tournament, games, period, k-factor, performance, initial, table."""

from __future__ import annotations

import datetime as dt
import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

import typer

from chessrate.calculate import (
    AverageResult,
    Event,
    Game,
    GameWorking,
    PeriodResult,
    TournamentResult,
    rate_against_average,
    rate_game,
    rate_period,
    rate_tournament,
)
from chessrate.cli.app import app
from chessrate.cli.output import fmt, print_json, print_summary, print_table
from chessrate.elo import logistic_performance
from chessrate.errors import InvalidInputError
from chessrate.fide.k_factor import KFactor, PlayerProfile, apply_700_rule, fide_k_factor
from chessrate.fide.performance import fide_performance, initial_rating
from chessrate.fide.rules import rules_in_force
from chessrate.fide.tables import DP_TABLE_UPPER_HALF, PD_TABLE
from chessrate.parse import (
    parse_count,
    parse_date,
    parse_k,
    parse_points,
    parse_rating,
    parse_score,
)
from chessrate.presets import resolve_rule_set
from chessrate.ruleset import CapMode, Expected, Rounding, RuleSet

RatingArg = Annotated[str, typer.Argument(metavar="RATING", help="Your rating.", show_default=False)]
KOpt = Annotated[str | None, typer.Option("--k", help="K-factor; default: from the rule set.")]
RulesOpt = Annotated[
    str | None,
    typer.Option("--rules", help="fide (default), elo, ciabe, or a club's FILE.toml."),
]
AsOfOpt = Annotated[
    str | None, typer.Option("--as-of", help="Apply the FIDE rules of this day (YYYY-MM-DD); default today.")
]
ExpectedOpt = Annotated[
    str | None, typer.Option("--expected", help="table (FIDE 8.1.2) or formula (logistic).")
]
NoCapOpt = Annotated[bool, typer.Option("--no-cap", help="Use the real difference: no 400-point rule.")]
BirthYearOpt = Annotated[str | None, typer.Option("--birth-year", help="For the junior K (FIDE 8.3.3).")]
RatedGamesOpt = Annotated[str | None, typer.Option("--rated-games", help="Games rated so far.")]
HighestOpt = Annotated[str | None, typer.Option("--highest-rating", help="Highest published rating.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


@dataclass(frozen=True)
class Settings:
    """What the common options resolve to."""

    rules: RuleSet
    k: int | None
    profile: PlayerProfile | None


def _settings(
    *,
    rules: str | None,
    as_of: str | None,
    expected: str | None,
    no_cap: bool,
    k: str | None,
    birth_year: str | None,
    rated_games: str | None,
    highest_rating: str | None,
) -> Settings:
    day = parse_date(as_of, field="as_of") if as_of else dt.date.today()
    rule_set = resolve_rule_set(rules, as_of=day)
    if expected is not None:
        try:
            rule_set = rule_set.with_expected(Expected(expected.strip().lower()))
        except ValueError:
            raise InvalidInputError("expected", expected, "use table or formula") from None
    if no_cap:
        rule_set = rule_set.with_cap(CapMode.OFF)
    return Settings(
        rules=rule_set,
        k=parse_k(k) if k is not None else None,
        profile=_profile(birth_year, rated_games, highest_rating),
    )


#: The options every Elo command shares, in the order ``--help`` shows them.
RULE_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("k", KOpt),
    ("rules", RulesOpt),
    ("as_of", AsOfOpt),
    ("expected", ExpectedOpt),
    ("no_cap", NoCapOpt),
    ("birth_year", BirthYearOpt),
    ("rated_games", RatedGamesOpt),
    ("highest_rating", HighestOpt),
)


def with_rule_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command the shared rule and K options; it receives them resolved as ``settings``."""
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "settings"]
    shared = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=annotation,
            default=False if name == "no_cap" else None,
        )
        for name, annotation in RULE_OPTIONS
    ]

    @functools.wraps(command)
    def run(**options: Any) -> None:
        settings = _settings(**{name: options.pop(name) for name, _ in RULE_OPTIONS})
        command(settings=settings, **options)

    run.__signature__ = inspect.Signature(own + shared)  # type: ignore[attr-defined]
    return run


def _profile(
    birth_year: str | None, rated_games: str | None, highest_rating: str | None
) -> PlayerProfile | None:
    if birth_year is None and rated_games is None and highest_rating is None:
        return None
    year = parse_count(birth_year, field="birth_year", minimum=1900) if birth_year else None
    if year is not None and year > dt.date.today().year:
        raise InvalidInputError("birth_year", birth_year, "a birth year cannot be in the future")
    return PlayerProfile(
        birth_year=year,
        rated_games=parse_count(rated_games, field="rated_games") if rated_games else None,
        highest_rating=int(parse_rating(highest_rating, field="highest_rating")) if highest_rating else None,
    )


def _parse_game(text: str, *, field: str = "game") -> Game:
    """``OPPONENT:RESULT`` (or a bare ``OPPONENT`` when the total is given elsewhere)."""
    opponent, separator, result = text.partition(":")
    rating = parse_rating(opponent, field="opponent")
    if not separator:
        return Game(rating)
    return Game(rating, parse_score(result, field="result"))


def _k_json(k: KFactor) -> dict[str, Any]:
    return {"k": k.k, "k_reason": k.reason, "k_article": k.article}


def _game_json(game: GameWorking) -> dict[str, Any]:
    return {
        "opponent": game.opponent,
        "raw_difference": game.raw_difference,
        "difference": game.difference,
        "capped": game.capped,
        "expected": game.expected,
        "score": game.score,
        "change": game.change,
    }


def _game_rows(games: tuple[GameWorking, ...]) -> list[list[str]]:
    rows = []
    for number, game in enumerate(games, start=1):
        difference = fmt(game.difference, signed=True) + (" (capped)" if game.capped else "")
        rows.append(
            [
                str(number),
                fmt(game.opponent),
                difference,
                fmt(game.expected, places=2 if game.expected.as_tuple().exponent != -2 else None),
                fmt(game.score),
                fmt(game.change, signed=True, places=2) if game.change is not None else "—",
            ]
        )
    return rows


GAME_COLUMNS = ["game", "opponent", "difference", "expected", "score", "change"]


@app.command()
@with_rule_options
def game(
    rating: RatingArg,
    opponent: Annotated[str, typer.Argument(help="The opponent's rating.", show_default=False)],
    result: Annotated[str, typer.Argument(help="1, 0.5, 0, ½, win, draw, loss.", show_default=False)],
    json: JsonOpt = False,
    *,
    settings: Settings,
) -> None:
    """The rating change of one game."""
    result_ = rate_game(
        parse_rating(rating),
        parse_rating(opponent, field="opponent"),
        parse_score(result),
        rules=settings.rules,
        k=settings.k,
        profile=settings.profile,
    )
    period = result_.period
    played = result_.event.games[0]
    if json:
        print_json(
            {
                **_k_json(period.k),
                **_game_json(played),
                "rounded_change": period.rounded_change,
                "new_rating": period.new_rating,
                "rules": settings.rules.title,
            }
        )
        return
    print_summary(
        f"One game — {settings.rules.title}",
        [
            ("rating", fmt(period.rating)),
            ("opponent", fmt(played.opponent)),
            ("difference used", fmt(played.difference, signed=True) + _capped_note(played)),
            ("expected score", fmt(played.expected)),
            ("score", fmt(played.score)),
            ("K", f"{period.k.k}  ({period.k.reason})"),
            ("change (unrounded)", fmt(period.change, signed=True, places=2)),
            ("change (rounded)", fmt(period.rounded_change, signed=True)),
            ("new rating", fmt(period.new_rating)),
        ],
    )


def _capped_note(game: GameWorking) -> str:
    return f" (real {fmt(game.raw_difference, signed=True)}, capped)" if game.capped else ""


@app.command()
@with_rule_options
def tournament(
    rating: RatingArg,
    games: Annotated[
        list[str],
        typer.Argument(
            help="OPPONENT:RESULT for each game, or bare OPPONENT with --points.", show_default=False
        ),
    ],
    points: Annotated[str | None, typer.Option("--points", help="Total points, with bare opponents.")] = None,
    json: JsonOpt = False,
    *,
    settings: Settings,
) -> None:
    """The rating change of a tournament: each opponent with a result, or opponents and total points."""
    parsed = [_parse_game(text) for text in games]
    total = parse_points(points, games=len(parsed)) if points is not None else None
    if total is None and any(item.score is None for item in parsed):
        raise InvalidInputError(
            "game", games[0], "write OPPONENT:RESULT, or give --points with bare opponents"
        )
    result = rate_tournament(
        parse_rating(rating),
        parsed,
        rules=settings.rules,
        k=settings.k,
        profile=settings.profile,
        points=total,
    )
    _show_tournament(result, as_json=json)


def _show_tournament(result: TournamentResult, *, as_json: bool) -> None:
    period, event = result.period, result.event
    if as_json:
        print_json(
            {
                **_k_json(period.k),
                "games": [_game_json(played) for played in event.games],
                "score": period.score,
                "expected": period.expected,
                "average_opponent": result.average_opponent,
                "change": period.change,
                "rounded_change": period.rounded_change,
                "new_rating": period.new_rating,
                "performance": result.performance.rating,
                "performance_logistic": result.logistic_performance,
                "rules": period.rules.title,
            }
        )
        return
    print_table(f"Tournament — {period.rules.title}", GAME_COLUMNS, _game_rows(event.games))
    print_summary(
        "Result",
        [
            ("rating", fmt(period.rating)),
            ("games", str(len(event.games))),
            ("score", fmt(period.score)),
            ("expected (sum)", fmt(period.expected)),
            ("average opponent", fmt(result.average_opponent, places=1)),
            ("K", f"{period.k.k}  ({period.k.reason})"),
            ("change (unrounded)", fmt(period.change, signed=True, places=2)),
            ("change (rounded)", fmt(period.rounded_change, signed=True)),
            ("new rating", fmt(period.new_rating)),
            (
                "performance (FIDE Ra + dp)",
                f"{result.performance.rating}  (Ra {result.performance.average_opponent}, "
                f"p {result.performance.fractional_score}, dp {result.performance.dp:+d})",
            ),
            ("performance (logistic)", fmt(result.logistic_performance, places=1)),
        ],
    )


@app.command("games")
@with_rule_options
def games_against_average(
    rating: RatingArg,
    games: Annotated[str, typer.Option("--games", help="Number of games G.", show_default=False)],
    points: Annotated[str, typer.Option("--points", help="Total points P.", show_default=False)],
    average: Annotated[str, typer.Option("--average", help="Average opponent rating.", show_default=False)],
    json: JsonOpt = False,
    *,
    settings: Settings,
) -> None:
    """G games against an average opponent with P points: R + K (P - G E)."""
    count = parse_count(games, field="games", minimum=1)
    result = rate_against_average(
        parse_rating(rating),
        games=count,
        points=parse_points(points, games=count),
        average=parse_rating(average, field="average"),
        rules=settings.rules,
        k=settings.k,
        profile=settings.profile,
    )
    _show_average(result, as_json=json)


def _show_average(result: AverageResult, *, as_json: bool) -> None:
    if as_json:
        print_json(
            {
                **_k_json(result.k),
                "games": result.games,
                "points": result.points,
                "average_opponent": result.average_opponent,
                "difference": result.difference,
                "capped": result.capped,
                "expected_per_game": result.expected_per_game,
                "expected": result.expected,
                "change": result.change,
                "rounded_change": result.rounded_change,
                "new_rating": result.new_rating,
                "rules": result.rules.title,
            }
        )
        return
    print_summary(
        f"{result.games} games against an average of {fmt(result.average_opponent)} — {result.rules.title}",
        [
            ("rating", fmt(result.rating)),
            ("difference used", fmt(result.difference, signed=True) + (" (capped)" if result.capped else "")),
            ("expected per game", fmt(result.expected_per_game)),
            ("expected (G x E)", fmt(result.expected)),
            ("points", fmt(result.points)),
            ("K", f"{result.k.k}  ({result.k.reason})"),
            ("change (unrounded)", fmt(result.change, signed=True, places=2)),
            ("change (rounded)", fmt(result.rounded_change, signed=True)),
            ("new rating", fmt(result.new_rating)),
        ],
    )


def _parse_event(text: str, position: int) -> Event:
    """``"[@START_RATING] OPPONENT:RESULT ..."``."""
    items = text.split()
    start: Decimal | None = None
    if items and items[0].startswith("@"):
        start = parse_rating(items[0][1:], field="start_rating")
        items = items[1:]
    if not items:
        raise InvalidInputError("event", text, "a tournament needs at least one OPPONENT:RESULT")
    games = []
    for item in items:
        parsed = _parse_game(item)
        if parsed.score is None:
            raise InvalidInputError("game", item, "write OPPONENT:RESULT")
        games.append(parsed)
    return Event(tuple(games), start_rating=start, name=f"tournament {position}")


@app.command()
@with_rule_options
def period(
    rating: RatingArg,
    events: Annotated[
        list[str],
        typer.Argument(
            help='Each tournament as one quoted string "[@START] OPP:RES ...".', show_default=False
        ),
    ],
    round_per_tournament: Annotated[
        bool, typer.Option("--round-per-tournament", help="Round each tournament's change, not the period's.")
    ] = False,
    json: JsonOpt = False,
    *,
    settings: Settings,
) -> None:
    """One rating period with several tournaments, each rated from the rating at its start."""
    rule_set = settings.rules.with_rounding(Rounding.TOURNAMENT) if round_per_tournament else settings.rules
    parsed = [_parse_event(text, position) for position, text in enumerate(events, start=1)]
    result = rate_period(parse_rating(rating), parsed, rules=rule_set, k=settings.k, profile=settings.profile)
    _show_period(result, as_json=json)


def _show_period(result: PeriodResult, *, as_json: bool) -> None:
    if as_json:
        print_json(
            {
                **_k_json(result.k),
                "games": result.games,
                "events": [
                    {
                        "name": event.name,
                        "start_rating": event.start_rating,
                        "games": [_game_json(played) for played in event.games],
                        "score": event.score,
                        "expected": event.expected,
                        "change": event.change,
                        "rounded_change": event.rounded_change,
                    }
                    for event in result.events
                ],
                "score": result.score,
                "expected": result.expected,
                "change": result.change,
                "rounded_change": result.rounded_change,
                "rounding": result.rules.rounding.value,
                "new_rating": result.new_rating,
                "rules": result.rules.title,
            }
        )
        return
    for event in result.events:
        print_table(
            f"{event.name} — from {fmt(event.start_rating)}: change {fmt(event.change, signed=True)}",
            GAME_COLUMNS,
            _game_rows(event.games),
        )
    print_summary(
        f"Rating period — {result.rules.title}",
        [
            ("rating", fmt(result.rating)),
            ("games", str(result.games)),
            ("K", f"{result.k.k}  ({result.k.reason})"),
            ("change (unrounded)", fmt(result.change, signed=True, places=2)),
            (f"change (rounded per {result.rules.rounding.value})", fmt(result.rounded_change, signed=True)),
            ("new rating", fmt(result.new_rating)),
        ],
    )


@app.command("k-factor")
def k_factor(
    rating: RatingArg,
    birth_year: BirthYearOpt = None,
    rated_games: RatedGamesOpt = None,
    highest_rating: HighestOpt = None,
    games_this_period: Annotated[
        str | None, typer.Option("--games-this-period", help="Games in the period, for the 700 rule.")
    ] = None,
    as_of: AsOfOpt = None,
    json: JsonOpt = False,
) -> None:
    """FIDE's K for a player, with the rule and article that decided it (B.02 8.3.3)."""
    day = parse_date(as_of, field="as_of") if as_of else dt.date.today()
    rules = rules_in_force(day)
    chosen = fide_k_factor(
        parse_rating(rating), _profile(birth_year, rated_games, highest_rating), rules=rules, day=day
    )
    if games_this_period is not None:
        count = parse_count(games_this_period, field="games_this_period")
        chosen = apply_700_rule(chosen, count, max_k_times_games=rules.max_k_times_games)
    if json:
        print_json({"k": chosen.k, "reason": chosen.reason, "article": chosen.article, "rules": rules.name})
        return
    print_summary(
        f"K-factor — {rules.name}",
        [("K", str(chosen.k)), ("why", chosen.reason), ("article", chosen.article)],
    )


def _games_with_results(games: list[str]) -> list[Game]:
    parsed = [_parse_game(text) for text in games]
    for text, item in zip(games, parsed, strict=True):
        if item.score is None:
            raise InvalidInputError("game", text, "write OPPONENT:RESULT")
    return parsed


@app.command()
def performance(
    games: Annotated[list[str], typer.Argument(help="OPPONENT:RESULT for each game.", show_default=False)],
    json: JsonOpt = False,
) -> None:
    """Performance rating: FIDE's Ra + dp (table 8.1.1) and the logistic one."""
    parsed = _games_with_results(games)
    opponents = [item.opponent for item in parsed]
    points = sum((item.score or Decimal(0) for item in parsed), Decimal(0))
    fide = fide_performance(opponents, points)
    logistic = logistic_performance(opponents, points)
    if json:
        print_json(
            {
                "fide": fide.rating,
                "formula": logistic,
                "average_opponent": fide.average_opponent,
                "fractional_score": fide.fractional_score,
                "dp": fide.dp,
                "games": len(parsed),
                "points": points,
            }
        )
        return
    print_summary(
        "Performance rating",
        [
            ("games", str(len(parsed))),
            ("points", fmt(points)),
            ("average opponent (Ra)", str(fide.average_opponent)),
            ("fractional score p", fmt(fide.fractional_score)),
            ("dp (table 8.1.1)", f"{fide.dp:+d}"),
            ("FIDE performance Ra + dp", str(fide.rating)),
            ("logistic performance", fmt(logistic, places=1)),
        ],
    )


@app.command()
def initial(
    games: Annotated[
        list[str],
        typer.Argument(help="OPPONENT:RESULT for each game against a rated opponent.", show_default=False),
    ],
    as_of: AsOfOpt = None,
    json: JsonOpt = False,
) -> None:
    """The initial rating of an unrated player under the FIDE rules of the date (B.02 8.2)."""
    day = parse_date(as_of, field="as_of") if as_of else dt.date.today()
    rules = rules_in_force(day)
    parsed = _games_with_results(games)
    points = sum((item.score or Decimal(0) for item in parsed), Decimal(0))
    result = initial_rating([item.opponent for item in parsed], points, rules=rules)
    if json:
        print_json(
            {
                "rating": result.rating,
                "reason": result.reason,
                "article": result.article,
                "games": result.games,
                "points": result.points,
                "average_opponent": result.average_opponent,
                "fractional_score": result.fractional_score,
                "dp": result.dp,
                "unrounded": result.unrounded,
                "rules": rules.name,
            }
        )
        return
    print_summary(
        f"Initial rating — {rules.name}",
        [
            ("games against rated opponents", str(result.games)),
            ("points", fmt(result.points)),
            ("Ra", fmt(result.average_opponent, places=2)),
            ("p", fmt(result.fractional_score)),
            ("dp", fmt(result.dp)),
            ("initial rating", fmt(result.rating)),
            ("why", result.reason),
        ],
    )


@app.command()
def table(
    which: Annotated[str, typer.Argument(help="pd (table 8.1.2) or dp (table 8.1.1).", show_default=False)],
    json: JsonOpt = False,
) -> None:
    """Print FIDE table 8.1.2 (D -> PD) or 8.1.1 (p -> dp)."""
    name = which.strip().lower()
    if name == "pd":
        rows = [
            [f"{low}-{high}" if high is not None else f"> {low - 1}", h, low_pd]
            for low, high, h, low_pd in PD_TABLE
        ]
        if json:
            print_json([{"from": r[0], "to": r[1], "pd_higher": r[2], "pd_lower": r[3]} for r in PD_TABLE])
            return
        print_table(
            "FIDE table 8.1.2: rating difference D → scoring probability PD", ["D", "PD H", "PD L"], rows
        )
    elif name == "dp":
        pairs = [(p, dp) for p, dp in DP_TABLE_UPPER_HALF]
        pairs += [(f"{1 - Decimal(p):.2f}".lstrip("0"), -dp) for p, dp in reversed(DP_TABLE_UPPER_HALF[:-1])]
        if json:
            print_json([{"p": p, "dp": dp} for p, dp in pairs])
            return
        print_table("FIDE table 8.1.1: fractional score p → rating difference dp", ["p", "dp"], pairs)
    else:
        raise InvalidInputError("table", which, "use pd (table 8.1.2) or dp (table 8.1.1)")
