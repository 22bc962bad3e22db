"""Elo and FIDE commands: game, tournament, games, period, k-factor, performance, initial, table.

Each command turns its arguments into the request layer's ``*Inputs`` (:mod:`chessrate.service.elo`),
calls it, and prints a Rich table or, with ``--json``, the document the API answers
(:mod:`chessrate.service.documents`). Annotations are evaluated when the module loads (no
``from __future__ import annotations``): Typer reads them as objects instead of compiling each
string again when it builds the command, which the command line's start notices.
"""

import datetime as dt
from typing import Annotated

import typer

from chessrate.cli.app import app
from chessrate.cli.language import N_, words
from chessrate.cli.language import say as _
from chessrate.cli.options import (
    AsOfOpt,
    BirthYearOpt,
    HighestOpt,
    JsonOpt,
    RatedGamesOpt,
    result_of,
    texts,
    with_rule_options,
)
from chessrate.cli.output import fixed, fmt, number, print_document, print_json, print_summary, print_table
from chessrate.errors import InvalidInputError
from chessrate.service import documents, elo, explanations
from chessrate.service.options import OptionInputs, Options
from chessrate.service.problems import Problems
from chessrate.systems.elo.calculate import GameWorking, PeriodResult, TournamentResult
from chessrate.systems.elo.ruleset import FideKPolicy, RuleSet
from chessrate.systems.fide.k_factor import KFactor
from chessrate.systems.fide.regulations import InitialRatingMethod
from chessrate.systems.fide.tables import PD_TABLE

RatingArg = Annotated[str, typer.Argument(metavar="RATING", help=N_("Your rating."), show_default=False)]
GAME_COLUMNS = [N_("game"), N_("opponent"), N_("difference"), N_("expected"), N_("score"), N_("change")]
#: The period's rounded change, by what its rule set rounds.
ROUNDED_PER = {
    "game": N_("change (rounded per game)"),
    "tournament": N_("change (rounded per tournament)"),
    "period": N_("change (rounded per period)"),
}


def _problems() -> Problems:
    return Problems(words())


def _row(text: str) -> elo.GameRow:
    """``OPPONENT:RESULT``, or a bare ``OPPONENT`` when the total is given with ``--points``."""
    opponent, _colon, result = text.partition(":")
    return elo.GameRow(opponent=opponent, result=result)


def _options_of(outcome_options: Options | None) -> Options:
    assert outcome_options is not None  # an Elo result always comes with its options
    return outcome_options


def _game_rows(games: tuple[GameWorking, ...]) -> list[list[str]]:
    rows = []
    for place, game in enumerate(games, start=1):
        difference = fmt(game.difference, signed=True) + (" " + _("(capped)") if game.capped else "")
        rows.append(
            [
                str(place),
                fmt(game.opponent),
                difference,
                fmt(game.expected, places=2 if game.expected.as_tuple().exponent != -2 else None),
                fmt(game.score),
                fmt(game.change, signed=True, places=2) if game.change is not None else "—",
            ]
        )
    return rows


def rules_title(rules: RuleSet) -> str:
    """The rule set's title in the command line's language: FIDE's version and the day it is
    applied to (``FIDE 2025-10-01 (in force on 2026-12-05)``), plain Elo, a club's title."""
    if isinstance(rules.k_policy, FideKPolicy):
        return explanations.report_rules_title(rules, rules.k_policy.day, words())
    if rules.fide is not None:
        return rules.title
    return explanations.report_rules_title(rules, dt.date.today(), words())


def _k_note(k: KFactor) -> str:
    """Why K is what it is, in words, with its article: printed under the table, wrapped."""
    reason = explanations.k_reason(k, words())
    return reason if k.article == "given" else f"{reason} ({explanations.k_article(k, words())})"


def _change_lines(result: PeriodResult) -> list[tuple[str, str]]:
    return [
        (_("K"), str(result.k.k)),
        (_("change (unrounded)"), fmt(result.change, signed=True, places=2)),
        (_("change (rounded)"), fmt(result.rounded_change, signed=True)),
        (_("new rating"), fmt(result.new_rating)),
    ]


@app.command(help=N_("The rating change of one game."))
@with_rule_options
def game(
    rating: RatingArg,
    opponent: Annotated[
        str, typer.Argument(metavar="OPPONENT", help=N_("The opponent's rating."), show_default=False)
    ],
    result: Annotated[
        str, typer.Argument(metavar="RESULT", help=N_("1, 0.5, 0, ½, win, draw, loss."), show_default=False)
    ],
    json: JsonOpt = False,
    *,
    options: OptionInputs,
) -> None:
    inputs = elo.GameInputs(rating=rating, opponent=opponent, result=result, options=options)
    outcome = elo.one_game(inputs, _problems(), today=dt.date.today())
    rated = result_of(outcome)
    if json:
        print_document(documents.one_game_document(rated, _options_of(outcome.options), words()))
        return
    period, played = rated.period, rated.event.games[0]
    capped = (
        " " + _("(real %(real)s, capped)", real=fmt(played.raw_difference, signed=True))
        if played.capped
        else ""
    )
    print_summary(
        _("One game — %(rules)s", rules=rules_title(period.rules)),
        [
            (_("rating"), fmt(period.rating)),
            (_("opponent"), fmt(played.opponent)),
            (_("difference used"), fmt(played.difference, signed=True) + capped),
            (_("expected score"), fmt(played.expected)),
            (_("score"), fmt(played.score)),
            *_change_lines(period),
        ],
        notes=[_k_note(period.k)],
    )


@app.command(
    help=N_("The rating change of a tournament: each opponent with a result, or opponents and total points.")
)
@with_rule_options
def tournament(
    rating: RatingArg,
    games: Annotated[
        list[str],
        typer.Argument(
            metavar="OPPONENT[:RESULT]...",
            help=N_("OPPONENT:RESULT for each game, or bare OPPONENT with --points."),
            show_default=False,
        ),
    ],
    points: Annotated[
        str | None, typer.Option("--points", metavar="POINTS", help=N_("Total points, with bare opponents."))
    ] = None,
    json: JsonOpt = False,
    *,
    options: OptionInputs,
) -> None:
    rows = tuple(_row(text) for text in games)
    if points is not None and any(row.result for row in rows):
        raise InvalidInputError("--points", points, _("give per-game results or total points, not both"))
    inputs = elo.TournamentInputs(
        rating=rating, games=rows, total=points is not None, points=points or "", options=options
    )
    outcome = elo.tournament(inputs, _problems(), today=dt.date.today())
    rated = result_of(outcome)
    if json:
        print_document(documents.tournament_document(rated, _options_of(outcome.options), words()))
        return
    _show_tournament(rated)


def _show_tournament(result: TournamentResult) -> None:
    period, event = result.period, result.event
    print_table(
        _("Tournament — %(rules)s", rules=rules_title(period.rules)), GAME_COLUMNS, _game_rows(event.games)
    )
    performance = result.performance
    print_summary(
        _("Result"),
        [
            (_("rating"), fmt(period.rating)),
            (_("games"), str(len(event.games))),
            (_("score"), fmt(period.score)),
            (_("expected (sum)"), fmt(period.expected)),
            (_("average opponent"), fmt(result.average_opponent, places=1)),
            *_change_lines(period),
            (
                _("performance (FIDE Ra + dp)"),
                f"{performance.rating}  (Ra {performance.average_opponent}, "
                f"p {fmt(performance.fractional_score)}, dp {performance.dp:+d})",
            ),
            (_("performance (logistic)"), fmt(result.logistic_performance, places=1)),
        ],
        notes=[_k_note(period.k), *_not_rated_notes(period)],
    )


def _not_rated_notes(result: PeriodResult) -> list[str]:
    """The games left out as not rated (FIDE rapid and blitz 8.3.1), said once."""
    note = explanations.not_rated_note(result.not_rated, result.rules, words())
    return [note] if note else []


@app.command("games", help=N_("G games against an average opponent with P points: R + K (P - G E)."))
@with_rule_options
def games_against_average(
    rating: RatingArg,
    games: Annotated[
        str, typer.Option("--games", metavar="G", help=N_("Number of games G."), show_default=False)
    ],
    points: Annotated[
        str, typer.Option("--points", metavar="P", help=N_("Total points P."), show_default=False)
    ],
    average: Annotated[
        str,
        typer.Option("--average", metavar="RATING", help=N_("Average opponent rating."), show_default=False),
    ],
    json: JsonOpt = False,
    *,
    options: OptionInputs,
) -> None:
    inputs = elo.AverageInputs(rating=rating, games=games, points=points, average=average, options=options)
    outcome = elo.against_average(inputs, _problems(), today=dt.date.today())
    result = result_of(outcome, {"games": "--games"})
    if json:
        print_document(documents.average_document(result, _options_of(outcome.options), words()))
        return
    print_summary(
        _(
            "%(games)s games against an average of %(average)s — %(rules)s",
            games=result.games,
            average=fmt(result.average_opponent),
            rules=rules_title(result.rules),
        ),
        [
            (_("rating"), fmt(result.rating)),
            (
                _("difference used"),
                fmt(result.difference, signed=True) + (" " + _("(capped)") if result.capped else ""),
            ),
            (_("expected per game"), fmt(result.expected_per_game)),
            (_("expected (G x E)"), fmt(result.expected)),
            (_("points"), fmt(result.points)),
            (_("K"), str(result.k.k)),
            (_("change (unrounded)"), fmt(result.change, signed=True, places=2)),
            (_("change (rounded)"), fmt(result.rounded_change, signed=True)),
            (_("new rating"), fmt(result.new_rating)),
        ],
        notes=[_k_note(result.k)],
    )


def _event(text: str) -> elo.EventInputs:
    """``"[@START_RATING] OPPONENT:RESULT ..."``."""
    items = text.split()
    start = ""
    if items and items[0].startswith("@"):
        start, items = items[0][1:], items[1:]
    if not items:
        raise InvalidInputError("event", text, _("a tournament needs at least one OPPONENT:RESULT"))
    return elo.EventInputs(start_rating=start, games=tuple(_row(item) for item in items))


@app.command(help=N_("One rating period with several tournaments, each rated from the rating at its start."))
@with_rule_options
def period(
    rating: RatingArg,
    events: Annotated[
        list[str],
        typer.Argument(
            metavar="TOURNAMENT...",
            help=N_('Each tournament as one quoted string "[@START] OPP:RES ...".'),
            show_default=False,
        ),
    ],
    round_per_tournament: Annotated[
        bool,
        typer.Option("--round-per-tournament", help=N_("Round each tournament's change, not the period's.")),
    ] = False,
    json: JsonOpt = False,
    *,
    options: OptionInputs,
) -> None:
    inputs = elo.PeriodInputs(
        rating=rating,
        events=tuple(_event(text) for text in events),
        rounding="tournament" if round_per_tournament else "rules",
        options=options,
    )
    outcome = elo.period(inputs, _problems(), today=dt.date.today())
    result = result_of(outcome)
    if json:
        print_document(documents.period_document(result, _options_of(outcome.options), words()))
        return
    for event in result.events:
        print_table(
            _(
                "tournament %(number)s — from %(start)s: change %(change)s",
                number=event.name,
                start=fmt(event.start_rating),
                change=fmt(event.change, signed=True),
            ),
            GAME_COLUMNS,
            _game_rows(event.games),
        )
    print_summary(
        _("Rating period — %(rules)s", rules=rules_title(result.rules)),
        [
            (_("rating"), fmt(result.rating)),
            (_("games"), str(result.games)),
            (_("K"), str(result.k.k)),
            (_("change (unrounded)"), fmt(result.change, signed=True, places=2)),
            (_(ROUNDED_PER[result.rules.rounding.value]), fmt(result.rounded_change, signed=True)),
            (_("new rating"), fmt(result.new_rating)),
        ],
        notes=[_k_note(result.k), *_not_rated_notes(result)],
    )


ListRulesOpt = Annotated[
    str | None, typer.Option("--rules", metavar="NAME", help=N_("fide (default), fide-rapid or fide-blitz."))
]


@app.command(
    "k-factor",
    help=N_(
        "FIDE's K for a player, with the rule and article that decided it (B.02 8.3.3; "
        "rapid and blitz: their chapter's)."
    ),
)
def k_factor(
    rating: RatingArg,
    birth_year: BirthYearOpt = None,
    rated_games: RatedGamesOpt = None,
    highest_rating: HighestOpt = None,
    games_this_period: Annotated[
        str | None,
        typer.Option("--games-this-period", metavar="N", help=N_("Games in the period, for the 700 rule.")),
    ] = None,
    as_of: AsOfOpt = None,
    rules: ListRulesOpt = None,
    json: JsonOpt = False,
) -> None:
    inputs = elo.KFactorInputs(
        rating=rating,
        rules=rules or "fide",
        **texts(
            birth_year=birth_year,
            rated_games=rated_games,
            highest_rating=highest_rating,
            games_this_period=games_this_period,
            as_of=as_of,
        ),
    )
    result = result_of(elo.k_factor(inputs, _problems(), today=dt.date.today()))
    if json:
        print_document(documents.k_factor_document(result, words()))
        return
    print_summary(
        _("K-factor — %(rules)s", rules=result.rules.name),
        [("K", str(result.k.k)), (_("article"), explanations.k_article(result.k, words()))],
        notes=[explanations.k_reason(result.k, words())],
    )


def _performance(
    games: list[str], as_of: str | None, rules: str | None = None, standard_rating: str | None = None
) -> elo.PerformanceResult:
    inputs = elo.PerformanceInputs(
        games=tuple(_row(text) for text in games),
        rules=rules or "fide",
        **texts(as_of=as_of, standard_rating=standard_rating),
    )
    return result_of(elo.performance(inputs, _problems(), today=dt.date.today()))


StandardRatingOpt = Annotated[
    str | None,
    typer.Option(
        "--standard-rating",
        metavar="RATING",
        help=N_("Rapid and blitz 7.2.1 (from 2024-03-01): your standard rating, used to rate the games."),
    ),
]


GamesWithResults = Annotated[
    list[str], typer.Argument(metavar="OPPONENT:RESULT...", help=N_("Each game."), show_default=False)
]


@app.command(help=N_("Performance rating: FIDE's Ra + dp (table 8.1.1) and the logistic one."))
def performance(games: GamesWithResults, as_of: AsOfOpt = None, json: JsonOpt = False) -> None:
    result = _performance(games, as_of)
    if json:
        print_document(documents.performance_document(result, words()))
        return
    fide = result.fide
    print_summary(
        _("Performance rating"),
        [
            (_("games"), str(result.games)),
            (_("points"), fmt(result.points)),
            (_("average opponent (Ra)"), str(fide.average_opponent)),
            (_("fractional score p"), fmt(fide.fractional_score)),
            (_("dp (table 8.1.1)"), f"{fide.dp:+d}"),
            (_("FIDE performance Ra + dp"), str(fide.rating)),
            (_("logistic performance"), fmt(result.logistic, places=1)),
        ],
    )


@app.command(
    help=N_(
        "The initial rating of an unrated player under the FIDE rules of the date (B.02 "
        "8.2); in rapid and blitz with --standard-rating, the games rated from the standard"
        " rating (7.2.1)."
    )
)
def initial(
    games: Annotated[
        list[str],
        typer.Argument(
            metavar="OPPONENT:RESULT...", help=N_("Each game against a rated opponent."), show_default=False
        ),
    ],
    as_of: AsOfOpt = None,
    rules: ListRulesOpt = None,
    standard_rating: StandardRatingOpt = None,
    json: JsonOpt = False,
) -> None:
    found = _performance(games, as_of, rules, standard_rating)
    result = found.initial
    if found.rated_from_standard is not None:
        if json:
            print_document(documents.performance_document(found, words()))
        else:
            _show_tournament(found.rated_from_standard)
            print(
                _(
                    "Rated from the standard rating: FIDE B.02 rapid and blitz 7.2.1, "
                    '"Such a player is considered to be rated"; K of a player new to the list (8.3.3).'
                )
            )
        return
    if json:
        print_document(documents.initial_document(result, found.rules, words()))
        return
    rows = [(_("games against rated opponents"), str(result.games)), (_("points"), fmt(result.points))]
    if found.rules.initial_rating_method is InitialRatingMethod.TWO_HYPOTHETICAL_1800_DRAWS and result.games:
        # FIDE B.02 8.2.2 (from 2024): Ra and p count two draws against opponents rated 1800.
        with_draws = _(
            "%(games)s games, %(points)s points", games=result.games + 2, points=fmt(result.points + 1)
        )
        rows.append((_("with two assumed draws v 1800 (8.2.2)"), with_draws))
    rows += [
        (_("Ra (average opponent)"), fmt(result.average_opponent, places=2)),
        (_("p (points / games)"), fmt(result.fractional_score)),
        (explanations.initial_term(result, found.rules, words()), fmt(result.dp)),
        (_("initial rating"), fmt(result.rating)),
    ]
    why = explanations.initial_reason(result, found.rules, words())
    print_summary(
        _("Initial rating — %(rules)s", rules=found.rules.name), rows, notes=[f"{why} ({result.article})"]
    )


@app.command(help=N_("Print FIDE table 8.1.2 (D -> PD) or 8.1.1 (p -> dp)."))
def table(
    which: Annotated[
        str,
        typer.Argument(metavar="pd|dp", help=N_("pd (table 8.1.2) or dp (table 8.1.1)."), show_default=False),
    ],
    json: JsonOpt = False,
) -> None:
    name = which.strip().lower()
    if name == "pd":
        if json:
            print_json([{"from": r[0], "to": r[1], "pd_higher": r[2], "pd_lower": r[3]} for r in PD_TABLE])
            return
        rows = [
            [f"{low}-{high}" if high is not None else f"> {low - 1}", number(str(h)), number(str(low_pd))]
            for low, high, h, low_pd in PD_TABLE
        ]
        print_table(
            _("FIDE table 8.1.2: rating difference D → scoring probability PD"),
            [N_("D"), N_("PD H"), N_("PD L")],
            rows,
        )
    elif name == "dp":
        pairs = [(fixed(p, 2) if p >= 1 else fixed(p, 2).lstrip("0"), dp) for p, dp in documents.dp_table()]
        if json:
            print_json([{"p": p, "dp": dp} for p, dp in pairs])
            return
        print_table(
            _("FIDE table 8.1.1: fractional score p → rating difference dp"),
            [N_("p"), N_("dp")],
            [(number(p), dp) for p, dp in pairs],
        )
    else:
        raise InvalidInputError("table", which, _("use pd (table 8.1.2) or dp (table 8.1.1)"))
