"""Other systems and the points at stake: ``dwz``, ``uscf``, ``ecf``, ``convert``, ``stakes``.

Each command builds the request layer's ``*Inputs`` (:mod:`chessrate.service.systems`), calls
it, and prints a table or, with ``--json``, the document the API answers
(:mod:`chessrate.service.system_documents`). A GAME is ``OPPONENT:RESULT``, e.g. ``1200:1``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Annotated, TypeVar

import typer

from chessrate.cli.app import app
from chessrate.cli.language import N_, words
from chessrate.cli.language import say as _
from chessrate.cli.options import JsonOpt, result_of, with_rule_options
from chessrate.cli.output import fixed, fmt, number, print_document, print_summary, print_table
from chessrate.comparisons.pools import Pool
from chessrate.comparisons.stakes import Stakes
from chessrate.service import stakes as stakes_inputs
from chessrate.service import system_documents as documents
from chessrate.service import systems
from chessrate.service.documents import stakes_document
from chessrate.service.elo import GameRow
from chessrate.service.options import OptionInputs, Outcome
from chessrate.service.problems import Problems
from chessrate.systems.uscf import rating as uscf

RatingArg = Annotated[str, typer.Argument(metavar="RATING", help=N_("Your rating."), show_default=False)]
GamesArg = Annotated[
    list[str],
    typer.Argument(metavar="GAME...", help=N_("OPPONENT:RESULT, e.g. 1200:1 or 1550:½."), show_default=False),
]
#: The pools, as ``--from`` and ``--to``'s help lists them (a test holds the two together).
POOLS = ", ".join(pool.value for pool in Pool)
#: DWZ's age groups (Anhang 1.2), as the table says them.
AGE_GROUPS = {"youth": N_("youth"), "junior": N_("junior"), "senior": N_("senior")}

T = TypeVar("T")


def _problems() -> Problems:
    return Problems(words())


def _calculated(
    calculate: Callable[..., Outcome[T]], inputs: object, document: Callable[[T], object] | None
) -> T | None:
    """The calculation's result (its problem: the one-line error); with a ``document`` (``--json``),
    None once the result is printed as it."""
    result = result_of(calculate(inputs, _problems(), today=dt.date.today()))
    if document is None:
        return result
    print_document(document(result))
    return None


def _rows(texts: list[str]) -> tuple[GameRow, ...]:
    rows = []
    for text in texts:
        opponent, _colon, result = text.partition(":")
        rows.append(GameRow(opponent=opponent, result=result))
    return tuple(rows)


def _games_table(rows: list[list[str]], columns: list[str]) -> None:
    print_table(_("Games"), columns, rows)


@app.command(help=N_("German DWZ (DSB Wertungsordnung): one evaluation, with E's working."))
def dwz(
    rating: RatingArg,
    games: GamesArg,
    age: Annotated[
        str, typer.Option("--age", help=N_("Your age in years (J: 5 to 20, 10 to 25, else 15)."))
    ] = "",
    index: Annotated[
        str, typer.Option("--index", help=N_("Index: your previous DWZ evaluations (1 or more)."))
    ] = "",
    json: JsonOpt = False,
) -> None:
    inputs = systems.DwzInputs(rating=rating, age=age, index=index, games=_rows(games))
    result = _calculated(systems.dwz_evaluation, inputs, documents.dwz_document if json else None)
    if result is None:
        return
    _games_table(
        [
            [str(n), str(g.opponent), fmt(g.difference, signed=True), fixed(g.expected, 3), fmt(g.score)]
            for n, g in enumerate(result.games, start=1)
        ],
        [N_("game"), N_("opponent"), N_("difference"), N_("expected P(D)"), N_("score")],
    )
    e = result.coefficient
    print_summary(
        "DWZ (DSB Wertungsordnung §3.5.2, Anhang 1.2)",
        [
            (_("points W / expected We"), f"{fmt(result.points)} / {fixed(result.expected, 3)}"),
            ("E0 = (R0/1000)^4 + J", f"{fixed(e.e0, 3)}  (J {e.j}, {_(AGE_GROUPS[e.age_group.value])})"),
            ("fB, SBr", f"{fixed(e.fb, 3)}, {fixed(e.sbr, 3)}"),
            (
                "E = E0 x fB + SBr",
                f"{fixed(e.unlimited, 3)} → {e.e}  "
                + _("(limits %(low)s…%(high)s)", low=e.lower_limit, high=e.upper_limit),
            ),
            ("Rn = R0 + 800 (W - We) / (E + n)", fixed(result.unrounded, 2)),
            (_("new DWZ"), f"{result.new_rating}  ({fmt(result.change, signed=True)})"),
        ],
    )


@app.command(
    "uscf",
    help=N_("US Chess: the standard formula with K, bonus and dated B, or the special formula (≤ 8 games)."),
)
def uscf_command(
    rating: Annotated[
        str, typer.Argument(metavar="RATING", help=N_("Your rating; 0 if unrated."), show_default=False)
    ],
    games: GamesArg,
    games_played: Annotated[
        str,
        typer.Option(
            "--games-played", help=N_("Rated games before this event; needed with a rating (unrated: 0).")
        ),
    ] = "",
    event_end: Annotated[
        str,
        typer.Option("--event-end", help=N_("The day the event ended, YYYY-MM-DD (sets B); default today.")),
    ] = "",
    half_k: Annotated[bool, typer.Option("--half-k", help=N_("A half-K event."))] = False,
    effective_games: Annotated[
        str,
        typer.Option(
            "--effective-games",
            help=N_(
                "2004 (Glickman's published N*, default) or newer "
                "(UNCONFIRMED: found only in implementations)."
            ),
        ),
    ] = uscf.EffectiveGames.GLICKMAN_2004.value,
    repeated_opponent: Annotated[
        bool, typer.Option("--repeated-opponent", help=N_("An opponent was met more than twice (no bonus)."))
    ] = False,
    bonus_threshold: Annotated[
        str, typer.Option("--bonus-threshold", help=N_("B of the bonus; default: by --event-end."))
    ] = "",
    json: JsonOpt = False,
) -> None:
    unrated = rating.strip() in {"0", ""}
    inputs = systems.UscfInputs(
        rating="" if unrated else rating,
        games_played=games_played,
        event_end=event_end,
        half_k="on" if half_k else "",
        effective=effective_games,
        repeated_opponent="on" if repeated_opponent else "",
        bonus_b=bonus_threshold,
        games=_rows(games),
    )
    result = _calculated(systems.uscf_event, inputs, documents.uscf_document if json else None)
    if result is None:
        return
    _games_table(
        [
            [str(n), _whole(g.opponent), fmt(g.score), "—" if g.expected is None else fixed(g.expected, 3)]
            for n, g in enumerate(result.games, start=1)
        ],
        [N_("game"), N_("opponent"), N_("score"), N_("winning expectancy")],
    )
    if result.formula is uscf.Formula.SPECIAL:
        lines = [
            (
                _("formula"),
                _("special (≤ 8 games): (N Rpre + m Ravg + 400 (W − L)) / (N + m) — an approximation"),
            ),
        ]
    else:
        threshold = result.bonus_threshold
        lines = [
            (_("formula"), _("standard: R + K (S − E) + bonus")),
            (_("effective games N′"), fixed(result.effective_games, 2)),
            ("K", fixed(result.k, 2) + (" " + _("(half-K)") if result.half_k else "")),
            ("S / E", f"{fmt(result.points)} / {fixed(result.expected, 3)}"),
            (
                _("bonus"),
                fixed(result.bonus, 2)
                + (f"  (B {threshold.b})" if threshold and result.bonus_allowed else ""),
            ),
        ]
    print_summary(
        _("US Chess"),
        [
            *lines,
            *(
                [
                    (
                        _("absolute floor"),
                        _(
                            "%(rating)s raised to %(floor)s",
                            rating=fixed(result.unfloored_rating, 3),
                            floor=fixed(uscf.ABSOLUTE_FLOOR, 0),
                        ),
                    )
                ]
                if result.unfloored_rating is not None
                else []
            ),
            (_("new rating (kept)"), fixed(result.new_rating, 3)),
            (_("new rating (published)"), str(result.published)),
        ],
    )


@app.command(
    help=N_(
        "ECF rating, the K method (k 20, juniors 40; We from FIDE's table 8.1.2).\n\n"
        "A new player's P rating cannot be computed exactly: the ECF does not publish the "
        "nominal opponent it counts."
    )
)
def ecf(
    rating: RatingArg,
    games: GamesArg,
    junior: Annotated[bool, typer.Option("--junior", help=N_("A junior: k = 40 instead of 20."))] = False,
    grade: Annotated[
        bool,
        typer.Option("--grade", help=N_("The values are old ECF grades: each becomes 7.5 x grade + 700.")),
    ] = False,
    new_player: Annotated[
        bool,
        typer.Option(
            "--new-player", help=N_("A new player's P rating: refused, as it cannot be computed exactly.")
        ),
    ] = False,
    json: JsonOpt = False,
) -> None:
    inputs = systems.EcfInputs(
        rating=rating,
        junior="on" if junior else "",
        grade="on" if grade else "",
        new_player="on" if new_player else "",
        games=_rows(games),
    )
    result = _calculated(systems.ecf_rating, inputs, documents.ecf_document if json else None)
    if result is None:
        return
    _games_table(
        [
            [
                str(n),
                str(g.opponent),
                fmt(g.difference, signed=True),
                fmt(g.expected),
                fmt(g.score),
                fmt(g.change, signed=True),
            ]
            for n, g in enumerate(result.games, start=1)
        ],
        [N_("game"), N_("opponent"), N_("difference"), N_("expected"), N_("score"), N_("change")],
    )
    print_summary(
        "ECF (K method)",
        [
            ("k", f"{result.k}" + (" " + _("(junior)") if result.junior else "")),
            (_("change k (W − We)"), fmt(result.change, signed=True)),
            (_("new rating"), str(result.new_rating)),
        ],
    )


@app.command(
    help=N_(
        "Pools compared: each published conversion with its sample and R²; FIDE's 2024 adjustment as a range."
    )
)
def convert(
    rating: RatingArg,
    from_pool: Annotated[
        str,
        typer.Option(
            "--from",
            help=N_(
                "The rating's pool: lichess-blitz, lichess-classical, chesscom-blitz, fide, ecf-grade, ecf."
            ),
        ),
    ] = "",
    to_pool: Annotated[
        str,
        typer.Option(
            "--to",
            help=N_(
                "The pool to convert to: lichess-blitz, lichess-classical, chesscom-blitz, fide, "
                "ecf-grade, ecf."
            ),
        ),
    ] = "",
    also: Annotated[
        list[str] | None,
        typer.Option(
            "--and", help=N_("Another rating some fits need, POOL=RATING (e.g. lichess-classical=1900).")
        ),
    ] = None,
    json: JsonOpt = False,
) -> None:
    inputs = systems.ConvertInputs(
        rating=rating, from_pool=from_pool, to_pool=to_pool, also=tuple(also or ())
    )
    result = _calculated(systems.convert, inputs, documents.convert_document if json else None)
    if result is None:
        return
    rows = []
    for c in result.conversions:
        value = (
            fixed(c.value, 0)
            if c.adjusted is None
            else _("%(low)s to %(high)s", low=fixed(c.low, 0), high=fixed(c.high, 0))
        )
        if c.extrapolated is not None:
            low, high = c.extrapolated
            value += " " + _(
                "(extrapolated: the data shown span %(low)s to %(high)s)",
                low=fixed(low, 0),
                high=fixed(high, 0),
            )
        r2 = "—" if c.conversion.r_squared is None else number(f"{c.conversion.r_squared:g}")
        rows.append([c.conversion.formula(), value, c.conversion.sample, r2, c.conversion.source])
    print_table(
        _("To %(pool)s", pool=result.target.value),
        [N_("formula"), N_("value"), N_("sample"), N_("R²"), N_("source")],
        rows,
        caption=_(
            "A range: the fit's value, and the same after FIDE's 1 March 2024 adjustment "
            "(+0.40 × (2000 − R) below 2000), which every FIDE fit here predates."
        ),
    )


@app.command(
    help=N_("The points at stake before a game: what a win, a draw and a loss would do, to both players.")
)
@with_rule_options
def stakes(
    rating: RatingArg,
    opponent: Annotated[str, typer.Argument(help=N_("The opponent's rating."), show_default=False)],
    system: Annotated[
        str, typer.Option("--system", help=N_("elo (default, with the rule options), dwz, uscf, glicko2."))
    ] = "elo",
    opponent_k: Annotated[
        str, typer.Option("--opponent-k", help=N_("Elo: the opponent's K if not yours."))
    ] = "",
    age: Annotated[str, typer.Option("--age", help=N_("DWZ: your age."))] = "",
    index: Annotated[str, typer.Option("--index", help=N_("DWZ: your Index."))] = "",
    opponent_age: Annotated[str, typer.Option("--opponent-age", help=N_("DWZ: default yours."))] = "",
    opponent_index: Annotated[str, typer.Option("--opponent-index", help=N_("DWZ: default yours."))] = "",
    games_played: Annotated[str, typer.Option("--games-played", help=N_("US Chess: your rated games."))] = "",
    opponent_games_played: Annotated[
        str, typer.Option("--opponent-games-played", help=N_("US Chess: the opponent's rated games."))
    ] = "",
    deviation: Annotated[str, typer.Option("--deviation", help=N_("Glicko-2: your RD (default 350)."))] = "",
    volatility: Annotated[
        str, typer.Option("--volatility", help=N_("Glicko-2: your volatility (0.06)."))
    ] = "",
    opponent_deviation: Annotated[str, typer.Option("--opponent-deviation", help=N_("Glicko-2."))] = "",
    opponent_volatility: Annotated[str, typer.Option("--opponent-volatility", help=N_("Glicko-2."))] = "",
    json: JsonOpt = False,
    *,
    options: OptionInputs,
) -> None:
    inputs = stakes_inputs.StakesInputs(
        system=system,
        rating=rating,
        opponent=opponent,
        options=options,
        opponent_k=opponent_k,
        age=age,
        index=index,
        opponent_age=opponent_age,
        opponent_index=opponent_index,
        games_played=games_played,
        opponent_games_played=opponent_games_played,
        deviation=deviation,
        volatility=volatility,
        opponent_deviation=opponent_deviation,
        opponent_volatility=opponent_volatility,
    )
    result = _calculated(stakes_inputs.points_at_stake, inputs, stakes_document if json else None)
    if result is None:
        return
    print_stakes(result)


def _whole(value: float) -> str:
    return fixed(value, 0) if float(value).is_integer() else fixed(value, 2)


def print_stakes(result: Stakes) -> None:
    print_table(
        _(
            "At stake — %(system)s, %(rating)s v %(opponent)s (expected %(expected)s)",
            system=result.system,
            rating=_whole(result.rating),
            opponent=_whole(result.opponent),
            expected=fixed(result.expected, 2),
        ),
        ["", N_("you"), N_("new rating"), N_("opponent"), N_("opponent's new rating")],
        [
            [
                label,
                fmt(o.change, signed=True, places=2),
                fmt(o.new_rating, places=0 if float(o.new_rating).is_integer() else 2),
                fmt(o.opponent_change, signed=True, places=2),
                fmt(o.opponent_new_rating, places=0 if float(o.opponent_new_rating).is_integer() else 2),
            ]
            for label, o in ((_("win"), result.win), (_("draw"), result.draw), (_("loss"), result.loss))
        ],
        caption=_("Zero-sum: the opponent loses exactly what you gain.")
        if result.zero_sum
        else _("Not zero-sum here: the two players' factors differ."),
    )
