"""Glicko commands: ``glicko`` (Glicko-1) and ``glicko2`` (the paper, or ``--preset lichess``).

A GAME is ``OPPONENT_RATING:OPPONENT_RD:RESULT``, e.g. ``1400:30:1`` or ``1550:100:½``. The JSON
keys are a public interface: ``rating``, ``deviation`` (and ``volatility``, ``provisional`` for
Glicko-2), plus ``games`` with each game's working.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated

import typer

from chessrate.cli.app import app
from chessrate.cli.language import N_, words
from chessrate.cli.language import say as _
from chessrate.cli.options import result_of
from chessrate.cli.output import fixed, fmt, number, print_document, print_json, print_summary, print_table
from chessrate.errors import InvalidInputError, RatingError
from chessrate.service import system_documents, systems
from chessrate.service.elo import GameRow
from chessrate.service.glicko import (
    GlickoInputs,
    GlickoOneInputs,
    GlickoResult,
    glicko,
    glicko_document,
    glicko_one,
)
from chessrate.service.problems import Problems
from chessrate.systems.glicko import lichess
from chessrate.systems.glicko.glicko1 import GlickoGame

GamesArg = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="GAME...",
        help=N_("OPPONENT_RATING:OPPONENT_RD:RESULT, e.g. 1400:30:1; none for an idle period."),
        show_default=False,
    ),
]
RatingOpt = Annotated[str | None, typer.Option("--rating", help=N_("Your rating."), show_default=False)]
DeviationOpt = Annotated[
    str | None, typer.Option("--deviation", help=N_("Your rating deviation (RD)."), show_default=False)
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print the result as JSON."))]


def _game_rows(texts: list[str] | None) -> tuple[GameRow, ...]:
    """Each GAME argument split into the request layer's fields (checked there)."""
    rows = []
    for place, text in enumerate(texts or [], start=1):
        parts = text.split(":")
        if len(parts) != 3:
            raise InvalidInputError(
                f"game {place}", text, _("a game is OPPONENT_RATING:OPPONENT_RD:RESULT, e.g. 1400:30:1")
            )
        opponent, deviation, result = parts
        rows.append(GameRow(opponent=opponent, deviation=deviation, result=result))
    return tuple(rows)


def _require(text: str | None, option: str, hint: str = "") -> str:
    if text is None:
        raise RatingError(_("missing %(option)s", option=option) + hint)
    return text


def _games_table(columns: list[str], rows: list[list[str]]) -> None:
    if rows:
        print_table(_("Games"), columns, rows)


def _paper_games_json(games: Sequence[GlickoGame], expected: Sequence[float]) -> list[dict[str, float]]:
    """Each game of one period of the papers, with its expected score."""
    return [
        {
            "opponent_rating": g.opponent_rating,
            "opponent_deviation": g.opponent_deviation,
            "score": g.score,
            "expected_score": e,
        }
        for g, e in zip(games, expected, strict=True)
    ]


def _paper_games_table(games: Sequence[GlickoGame], expected: Sequence[float]) -> None:
    _games_table(
        [N_("game"), N_("opponent"), N_("opponent RD"), N_("score"), N_("expected score")],
        [
            [str(n), fmt(g.opponent_rating), fmt(g.opponent_deviation), fmt(g.score), fixed(e, 3)]
            for n, (g, e) in enumerate(zip(games, expected, strict=True), start=1)
        ],
    )


@app.command(
    "glicko",
    help=N_("Glicko (Glicko-1) for one rating period, as in Glickman's paper (or --preset chesscom)."),
)
def glicko_command(
    games: GamesArg = None,
    rating: RatingOpt = None,
    deviation: DeviationOpt = None,
    c: Annotated[
        str | None,
        typer.Option(
            "--c",
            help=N_(
                "Step 1 constant c, or FROM:TO:N for the c that takes RD from FROM to TO in N "
                "periods (the paper's 50:350:100 gives 34.6). Without it the RD is taken as given."
            ),
            show_default=False,
        ),
    ] = None,
    periods_idle: Annotated[
        str | None,
        typer.Option(
            "--periods-idle",
            help=N_(
                "The paper's t: rating periods since you last played (1 = played in the "
                "previous period); needs --c. Default 1."
            ),
            show_default=False,
        ),
    ] = None,
    min_deviation: Annotated[
        str | None,
        typer.Option(
            "--min-deviation",
            help=N_("Floor for the new RD (Glickman suggests e.g. 30)."),
            show_default=False,
        ),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            help=N_(
                "chesscom: a Chess.com-style ESTIMATE (Glicko-1, start rating by --level, RD 350); "
                "Chess.com does not publish its constants."
            ),
            show_default=False,
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            help=N_(
                "With --preset chesscom: the level picked at sign-up: new 400, beginner 800, "
                "intermediate 1200, advanced 1600, expert 2000."
            ),
            show_default=False,
        ),
    ] = None,
    json: JsonOpt = False,
) -> None:
    if preset is not None:
        if preset.strip().lower() != "chesscom":
            raise InvalidInputError("--preset", preset, _("the only preset of glicko is chesscom"))
        if c is not None or periods_idle is not None or min_deviation is not None:
            raise RatingError(
                _("--c, --periods-idle and --min-deviation do not apply with --preset chesscom")
            )
        _chesscom(games, level, rating, deviation, json=json)
        return
    if level is not None:
        raise InvalidInputError("--level", level, _("the level applies only with --preset chesscom"))
    inputs = GlickoOneInputs(
        rating=rating or "",
        deviation=deviation or "",
        c=c or "",
        periods_idle=periods_idle or "",
        min_deviation=min_deviation or "",
        games=_game_rows(games),
    )
    rated = result_of(glicko_one(inputs, Problems(words())))
    result = rated.period
    if json:
        print_json(
            {
                "rating": result.after.rating,
                "deviation": result.after.deviation,
                "start_deviation": result.start.deviation,
                "c": rated.c,
                "games": _paper_games_json(rated.games, result.expected_scores),
            }
        )
        return
    _paper_games_table(rated.games, result.expected_scores)
    print_summary(
        _("Glicko (Glickman's paper), one rating period"),
        [
            (_("rating"), f"{fixed(result.before.rating, 1)} → {fixed(result.after.rating, 1)}"),
            (_("deviation at period start"), fixed(result.start.deviation, 1)),
            (_("new deviation"), fixed(result.after.deviation, 1)),
        ],
    )


def _chesscom(
    games: list[str] | None, level: str | None, rating: str | None, deviation: str | None, *, json: bool
) -> None:
    rows = []
    for text in games or []:
        opponent, _colon, rest = text.partition(":")
        rd, _colon, score = rest.partition(":")
        rows.append(GameRow(opponent=opponent, deviation=rd, result=score))
    inputs = systems.ChesscomInputs(
        level=level or "", rating=rating or "", deviation=deviation or "", games=tuple(rows)
    )
    rated = result_of(systems.chesscom_glicko(inputs, Problems(words()), today=dt.date.today()))
    document = system_documents.chesscom_document(rated, words())
    if json:
        print_document(document)
        return
    period = rated.period
    _paper_games_table(rated.games, period.expected_scores)
    print_summary(
        _("Chess.com-style Glicko (an estimate)"),
        [
            (
                _("start"),
                f"{fixed(rated.start.rating, 0)}, RD {fixed(rated.start.deviation, 0)}"
                + ("  " + _("(level %(level)s)", level=rated.level.value) if rated.level else ""),
            ),
            (_("rating"), fixed(period.after.rating, 1)),
            (_("deviation"), fixed(period.after.deviation, 1)),
            (_("note"), document.note),
        ],
    )


def _is_lichess(
    preset: str | None, *, tau: str | None, gain_factor: str | None, days_idle: str | None
) -> bool:
    """Whether ``--preset lichess`` is asked for; an option of the other mode is refused by name."""
    lichess_preset = preset is not None
    if preset is not None and preset.strip().lower() != "lichess":
        raise InvalidInputError("--preset", preset, _("the only preset is lichess"))
    if lichess_preset and tau is not None:
        raise InvalidInputError(
            "--tau", tau, _("Lichess uses tau %(tau)s; drop --tau or --preset", tau=number(str(lichess.TAU)))
        )
    if not lichess_preset and gain_factor is not None:
        raise InvalidInputError(
            "--gain-factor", gain_factor, _("the gain factor applies only with --preset lichess")
        )
    if not lichess_preset and days_idle is not None:
        raise InvalidInputError("--days-idle", days_idle, _("days idle apply only with --preset lichess"))
    return lichess_preset


@app.command(
    "glicko2",
    help=N_(
        "Glicko-2 for one rating period (Glickman's paper), or a Lichess session (--preset "
        "lichess).\n\n"
        "Lichess shows the stored rating truncated to a whole number: the number on the "
        "screen is not the stored rating, and the PGN's diff is trunc(new) - trunc(old)."
    ),
)
def glicko2_command(
    games: GamesArg = None,
    rating: RatingOpt = None,
    deviation: DeviationOpt = None,
    volatility: Annotated[
        str | None, typer.Option("--volatility", help=N_("Your volatility (sigma)."), show_default=False)
    ] = None,
    tau: Annotated[
        str | None,
        typer.Option(
            "--tau", help=N_("System constant tau; default 0.5 (the paper's example)."), show_default=False
        ),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            help=N_("lichess: rate the games one after another as Lichess does (defaults: a new player)."),
            show_default=False,
        ),
    ] = None,
    days_idle: Annotated[
        str | None,
        typer.Option(
            "--days-idle",
            help=N_("With --preset lichess: days since your previous game."),
            show_default=False,
        ),
    ] = None,
    gain_factor: Annotated[
        str | None,
        typer.Option(
            "--gain-factor",
            help=N_(
                "With --preset lichess: Lichess's rating-gain factor, a server setting (e.g. 1.015 "
                "for bullet; default 1). The whole rating Lichess shows is the stored one truncated."
            ),
            show_default=False,
        ),
    ] = None,
    json: JsonOpt = False,
) -> None:
    lichess_preset = _is_lichess(preset, tau=tau, gain_factor=gain_factor, days_idle=days_idle)
    inputs = GlickoInputs(
        system="lichess" if lichess_preset else "glicko2",
        rating=rating or "",
        deviation=deviation or "",
        volatility=volatility or "",
        days_idle=days_idle or "",
        tau=tau or "",
        gain_factor=gain_factor or "",
        games=_game_rows(games),
    )
    result = result_of(glicko(inputs, Problems(words()), today=dt.date.today(), idle_allowed=True))
    if lichess_preset:
        _lichess(result, json=json)
        return
    # The paper's player states all three (the request layer's blanks are an unrated player's).
    hint = " " + _("(or use --preset lichess for a new Lichess player)")
    for given, option in ((rating, "--rating"), (deviation, "--deviation"), (volatility, "--volatility")):
        _require(given, option, hint)
    if json:
        print_document(glicko_document(result))  # the API's document (/api/glicko)
        return
    before, after = result.before, result.after
    played = [GlickoGame(g.opponent, g.opponent_deviation, g.score) for g in result.games]
    _paper_games_table(played, [g.expected for g in result.games])
    print_summary(
        _("Glicko-2 (Glickman's paper), one rating period, tau %(tau)s", tau=number(str(result.tau))),
        [
            (_("rating"), f"{fixed(before.rating, 2)} → {fixed(after.rating, 2)}"),
            (_("deviation"), f"{fixed(before.deviation, 2)} → {fixed(after.deviation, 2)}"),
            (_("volatility"), f"{fixed(before.volatility, 6)} → {fixed(after.volatility, 6)}"),
        ],
    )


def _lichess(result: GlickoResult, *, json: bool) -> None:
    player, final = result.before, result.after
    assert isinstance(player, lichess.LichessRating)
    assert isinstance(final, lichess.LichessRating)
    games = [(g, g.side) for g in result.games if g.side is not None]
    if json:
        print_document(glicko_document(result))  # the API's document (/api/glicko)
        return
    _games_table(
        [
            N_("game"),
            N_("opponent"),
            N_("opponent RD"),
            N_("score"),
            N_("expected score"),
            N_("rating"),
            N_("diff (PGN)"),
        ],
        [
            [
                str(n),
                fmt(g.opponent),
                fmt(g.opponent_deviation),
                fmt(g.score),
                fixed(side.expected_score, 3),
                f"{side.before.display} → {side.after.display}",
                side.rating_diff_text,
            ]
            for n, (g, side) in enumerate(games, start=1)
        ],
    )
    gain_factor = result.gain_factor
    print_summary(
        _("Glicko-2 as Lichess runs it (each game its own rating period)"),
        [
            (
                _("rating"),
                f"{fixed(player.rating, 2)} → {fixed(final.rating, 2)}  "
                + _("(shown as %(display)s)", display=final.display),
            ),
            (_("deviation"), f"{fixed(player.deviation, 2)} → {fixed(final.deviation, 2)}"),
            (_("volatility"), f"{fixed(player.volatility, 6)} → {fixed(final.volatility, 6)}"),
            (_("provisional (RD ≥ 110)"), fmt(final.provisional)),
            (
                _("rating-gain factor"),
                number(f"{gain_factor:g}")
                + ("  " + _("(none; Lichess's own is a server setting)") if gain_factor == 1.0 else ""),
            ),
            (_("not known here"), _("halving against bots")),
        ],
    )
