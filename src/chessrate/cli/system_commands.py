"""Other systems and the points at stake: ``dwz``, ``uscf``, ``ecf``, ``convert``, ``stakes``.

Each command builds the request layer's ``*Inputs`` (:mod:`chessrate.service.systems`), calls
it, and prints a table or, with ``--json``, the document the API answers
(:mod:`chessrate.service.system_documents`). A GAME is ``OPPONENT:RESULT``, e.g. ``1200:1``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

import typer

from chessrate.cli.app import app
from chessrate.cli.options import JsonOpt, result_of, with_rule_options
from chessrate.cli.output import fmt, print_document, print_summary, print_table
from chessrate.comparisons.pools import Pool
from chessrate.comparisons.stakes import Stakes
from chessrate.service import stakes as stakes_inputs
from chessrate.service import system_documents as documents
from chessrate.service import systems
from chessrate.service.documents import stakes_document
from chessrate.service.elo import GameRow
from chessrate.service.language import ENGLISH
from chessrate.service.options import OptionInputs
from chessrate.service.problems import Problems
from chessrate.systems.uscf import rating as uscf

RatingArg = Annotated[str, typer.Argument(metavar="RATING", help="Your rating.", show_default=False)]
GamesArg = Annotated[
    list[str],
    typer.Argument(metavar="GAME...", help="OPPONENT:RESULT, e.g. 1200:1 or 1550:½.", show_default=False),
]
POOLS = ", ".join(pool.value for pool in Pool)


def _problems() -> Problems:
    return Problems(ENGLISH)


def _rows(texts: list[str]) -> tuple[GameRow, ...]:
    rows = []
    for text in texts:
        opponent, _, result = text.partition(":")
        rows.append(GameRow(opponent=opponent, result=result))
    return tuple(rows)


def _games_table(rows: list[list[str]], columns: list[str]) -> None:
    print_table("Games", columns, rows)


@app.command()
def dwz(
    rating: RatingArg,
    games: GamesArg,
    age: Annotated[
        str, typer.Option("--age", help="Your age in years (J: 5 to 20, 10 to 25, else 15).")
    ] = "",
    index: Annotated[
        str, typer.Option("--index", help="Index: your previous DWZ evaluations (1 or more).")
    ] = "",
    json: JsonOpt = False,
) -> None:
    """German DWZ (DSB Wertungsordnung): one evaluation, with E's working."""
    inputs = systems.DwzInputs(rating=rating, age=age, index=index, games=_rows(games))
    result = result_of(systems.dwz_evaluation(inputs, _problems(), today=dt.date.today()))
    if json:
        print_document(documents.dwz_document(result))
        return
    _games_table(
        [
            [str(n), str(g.opponent), fmt(g.difference, signed=True), f"{g.expected:.3f}", fmt(g.score)]
            for n, g in enumerate(result.games, start=1)
        ],
        ["game", "opponent", "difference", "expected P(D)", "score"],
    )
    e = result.coefficient
    print_summary(
        "DWZ (DSB Wertungsordnung §3.5.2, Anhang 1.2)",
        [
            ("points W / expected We", f"{fmt(result.points)} / {result.expected:.3f}"),
            ("E0 = (R0/1000)^4 + J", f"{e.e0:.3f}  (J {e.j}, {e.group.value})"),
            ("fB, SBr", f"{e.fb:.3f}, {e.sbr:.3f}"),
            ("E = E0 x fB + SBr", f"{e.unlimited:.3f} → {e.e}  (limits {e.lower_limit}…{e.upper_limit})"),
            ("Rn = R0 + 800 (W - We) / (E + n)", f"{result.unrounded:.2f}"),
            ("new DWZ", f"{result.new_rating}  ({fmt(result.change, signed=True)})"),
        ],
    )


@app.command("uscf")
def uscf_command(
    rating: Annotated[
        str, typer.Argument(metavar="RATING", help="Your rating; 0 if unrated.", show_default=False)
    ],
    games: GamesArg,
    games_played: Annotated[
        str,
        typer.Option(
            "--games-played", help="Rated games before this event; needed with a rating (unrated: 0)."
        ),
    ] = "",
    event_end: Annotated[
        str, typer.Option("--event-end", help="The day the event ended, YYYY-MM-DD (sets B); default today.")
    ] = "",
    half_k: Annotated[bool, typer.Option("--half-k", help="A half-K event.")] = False,
    effective_games: Annotated[
        str,
        typer.Option(
            "--effective-games",
            help="2004 (Glickman's published N*, default) or newer "
            "(UNCONFIRMED: found only in implementations).",
        ),
    ] = uscf.EffectiveGames.GLICKMAN_2004.value,
    repeated_opponent: Annotated[
        bool, typer.Option("--repeated-opponent", help="An opponent was met more than twice (no bonus).")
    ] = False,
    bonus_threshold: Annotated[
        str, typer.Option("--bonus-threshold", help="B of the bonus; default: by --event-end.")
    ] = "",
    json: JsonOpt = False,
) -> None:
    """US Chess: the standard formula with K, bonus and dated B, or the special formula (≤ 8 games)."""
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
    result = result_of(systems.uscf_event(inputs, _problems(), today=dt.date.today()))
    if json:
        print_document(documents.uscf_document(result))
        return
    _games_table(
        [
            [str(n), _whole(g.opponent), fmt(g.score), "—" if g.expected is None else f"{g.expected:.3f}"]
            for n, g in enumerate(result.games, start=1)
        ],
        ["game", "opponent", "score", "winning expectancy"],
    )
    if result.formula is uscf.Formula.SPECIAL:
        lines = [
            ("formula", "special (≤ 8 games): (N Rpre + m Ravg + 400 (W − L)) / (N + m) — an approximation"),
        ]
    else:
        threshold = result.bonus_threshold
        lines = [
            ("formula", "standard: R + K (S − E) + bonus"),
            ("effective games N′", f"{result.effective_games:.2f}"),
            ("K", f"{result.k:.2f}" + (" (half-K)" if result.half_k else "")),
            ("S / E", f"{fmt(result.points)} / {result.expected:.3f}"),
            (
                "bonus",
                f"{result.bonus:.2f}"
                + (f"  (B {threshold.b})" if threshold and result.bonus_allowed else ""),
            ),
        ]
    print_summary(
        "US Chess",
        [
            *lines,
            *(
                [("absolute floor", f"{result.unfloored_rating:.3f} raised to {uscf.ABSOLUTE_FLOOR:.0f}")]
                if result.unfloored_rating is not None
                else []
            ),
            ("new rating (kept)", f"{result.new_rating:.3f}"),
            ("new rating (published)", str(result.published)),
        ],
    )


@app.command()
def ecf(
    rating: RatingArg,
    games: GamesArg,
    junior: Annotated[bool, typer.Option("--junior", help="A junior: k = 40 instead of 20.")] = False,
    grade: Annotated[
        bool, typer.Option("--grade", help="The values are old ECF grades: each becomes 7.5 x grade + 700.")
    ] = False,
    new_player: Annotated[
        bool,
        typer.Option(
            "--new-player", help="A new player's P rating: refused, as it cannot be computed exactly."
        ),
    ] = False,
    json: JsonOpt = False,
) -> None:
    """ECF rating, the K method (k 20, juniors 40; We from FIDE's table 8.1.2).

    A new player's P rating cannot be computed exactly: the ECF does not publish the nominal
    opponent it counts.
    """
    inputs = systems.EcfInputs(
        rating=rating,
        junior="on" if junior else "",
        grade="on" if grade else "",
        new_player="on" if new_player else "",
        games=_rows(games),
    )
    result = result_of(systems.ecf_rating(inputs, _problems(), today=dt.date.today()))
    if json:
        print_document(documents.ecf_document(result))
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
        ["game", "opponent", "difference", "expected", "score", "change"],
    )
    print_summary(
        "ECF (K method)",
        [
            ("k", f"{result.k}" + (" (junior)" if result.junior else "")),
            ("change k (W − We)", fmt(result.change, signed=True)),
            ("new rating", str(result.new_rating)),
        ],
    )


@app.command()
def convert(
    rating: RatingArg,
    from_pool: Annotated[str, typer.Option("--from", help=f"The rating's pool: {POOLS}.")] = "",
    to_pool: Annotated[str, typer.Option("--to", help=f"The pool to convert to: {POOLS}.")] = "",
    also: Annotated[
        list[str] | None,
        typer.Option(
            "--and", help="Another rating some fits need, POOL=RATING (e.g. lichess-classical=1900)."
        ),
    ] = None,
    json: JsonOpt = False,
) -> None:
    """Pools compared: each published conversion with its sample and R²; FIDE's 2024 adjustment as a range."""
    inputs = systems.ConvertInputs(
        rating=rating, from_pool=from_pool, to_pool=to_pool, also=tuple(also or ())
    )
    result = result_of(systems.convert(inputs, _problems(), today=dt.date.today()))
    if json:
        print_document(documents.convert_document(result))
        return
    rows = []
    for c in result.conversions:
        value = f"{c.value:.0f}" if c.adjusted is None else f"{c.low:.0f} to {c.high:.0f}"
        if c.extrapolated is not None:
            low, high = c.extrapolated
            value += f" (extrapolated: the data shown span {low:.0f} to {high:.0f})"
        r2 = "—" if c.conversion.r_squared is None else f"{c.conversion.r_squared:g}"
        rows.append([c.conversion.formula(), value, c.conversion.sample, r2, c.conversion.source])
    print_table(
        f"To {result.target.value}",
        ["formula", "value", "sample", "R²", "source"],
        rows,
        caption="A range: the fit's value, and the same after FIDE's 1 March 2024 adjustment "
        "(+0.40 × (2000 − R) below 2000), which every FIDE fit here predates.",
    )


@app.command()
@with_rule_options
def stakes(
    rating: RatingArg,
    opponent: Annotated[str, typer.Argument(help="The opponent's rating.", show_default=False)],
    system: Annotated[
        str, typer.Option("--system", help="elo (default, with the rule options), dwz, uscf, glicko2.")
    ] = "elo",
    opponent_k: Annotated[str, typer.Option("--opponent-k", help="Elo: the opponent's K if not yours.")] = "",
    age: Annotated[str, typer.Option("--age", help="DWZ: your age.")] = "",
    index: Annotated[str, typer.Option("--index", help="DWZ: your Index.")] = "",
    opponent_age: Annotated[str, typer.Option("--opponent-age", help="DWZ: default yours.")] = "",
    opponent_index: Annotated[str, typer.Option("--opponent-index", help="DWZ: default yours.")] = "",
    games_played: Annotated[str, typer.Option("--games-played", help="US Chess: your rated games.")] = "",
    opponent_games_played: Annotated[
        str, typer.Option("--opponent-games-played", help="US Chess: the opponent's rated games.")
    ] = "",
    deviation: Annotated[str, typer.Option("--deviation", help="Glicko-2: your RD (default 350).")] = "",
    volatility: Annotated[str, typer.Option("--volatility", help="Glicko-2: your volatility (0.06).")] = "",
    opponent_deviation: Annotated[str, typer.Option("--opponent-deviation", help="Glicko-2.")] = "",
    opponent_volatility: Annotated[str, typer.Option("--opponent-volatility", help="Glicko-2.")] = "",
    json: JsonOpt = False,
    *,
    options: OptionInputs,
) -> None:
    """The points at stake before a game: what a win, a draw and a loss would do, to both players."""
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
    result = result_of(stakes_inputs.points_at_stake(inputs, _problems(), today=dt.date.today()))
    if json:
        print_document(stakes_document(result))
        return
    print_stakes(result)


def _whole(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def print_stakes(result: Stakes) -> None:
    print_table(
        f"At stake — {result.system}, {_whole(result.rating)} v {_whole(result.opponent)} "
        f"(expected {result.expected:.2f})",
        ["", "you", "new rating", "opponent", "opponent's new rating"],
        [
            [
                label,
                fmt(o.change, signed=True, places=2),
                fmt(o.new_rating, places=0 if float(o.new_rating).is_integer() else 2),
                fmt(o.opponent_change, signed=True, places=2),
                fmt(o.opponent_new_rating, places=0 if float(o.opponent_new_rating).is_integer() else 2),
            ]
            for label, o in (("win", result.win), ("draw", result.draw), ("loss", result.loss))
        ],
        caption="Zero-sum: the opponent loses exactly what you gain."
        if result.zero_sum
        else "Not zero-sum here: the two players' factors differ.",
    )
